/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr_inflight.c: task entries and cpuset file writes under way, for
 * the checks of each to see the others.
 */
#ifndef _CPUMGR_INFLIGHT_H
#define _CPUMGR_INFLIGHT_H

#include <linux/cgroup.h>
#include <linux/cpumask.h>

#define CPUMGR_INFLIGHT_WRITES 16

/* How often a write waiting looks whether its cpuset is being removed. */
#define CPUMGR_INFLIGHT_POLL (HZ / 50)

/* A task on its way into @dst, whose cpuset is @css. */
struct cpumgr_inflight_entry {
	struct cgroup *dst;
	struct cgroup_subsys_state *css;
};

/* A cpuset.cpus write under way. */
struct cpumgr_inflight_write {
	struct cgroup_subsys_state *css;	/* NULL: the slot is free */
	u64 ticket;	/* when it got the slot: writes on a branch go in order */
	bool begun;	/* a cgroup2 write's: eff and own are set */
	bool passed;	/* past the gate: waited for by those closing it */
	cpumask_var_t eff;	/* what the write gives its cpuset */
	cpumask_var_t own;	/* what it names */
};

int cpumgr_inflight_init(void);
void cpumgr_inflight_exit(void);
struct cpumgr_inflight_write *
cpumgr_inflight_write_get(struct cgroup_subsys_state *css);
void cpumgr_inflight_write_begin(struct cpumgr_inflight_write *w,
				 const struct cpumask *eff,
				 const struct cpumask *own);
void cpumgr_inflight_write_sees(struct cpumgr_inflight_entry *entry);
void cpumgr_inflight_write_put(struct cpumgr_inflight_write *w);
bool cpumgr_inflight_above(const struct cpumgr_inflight_write *x,
			   struct cgroup_subsys_state *css);
void cpumgr_inflight_enter(struct cgroup *dst, struct cgroup_subsys_state *css);
bool cpumgr_inflight_entry_sees(bool (*check)(const struct cpumgr_inflight_write *w,
					      void *arg),
				void *arg);
void cpumgr_inflight_leave(void);

/* Table changes that look at the cpusets the writes under way change. */
int cpumgr_inflight_gate_close(void);
void cpumgr_inflight_gate_open(void);
int cpumgr_inflight_gate_pass(struct cgroup_subsys_state *css);
void cpumgr_inflight_gate_passed(void);

/* The cgroup file writes checked and still under way. */
int cpumgr_inflight_checked_begin(void);
void cpumgr_inflight_checked_end(int idx);
void cpumgr_inflight_checked_sync(void);
void cpumgr_inflight_checked_wait(void);

#endif /* _CPUMGR_INFLIGHT_H */
