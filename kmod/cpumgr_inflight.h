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

#define CPUMGR_INFLIGHT_OTHERS (CPUMGR_INFLIGHT_WRITES - 1)

/* A task on its way into @dst, whose cpuset is @css. */
struct cpumgr_inflight_entry {
	struct cgroup *dst;
	struct cgroup_subsys_state *css;
};

/* A cgroup2 cpuset.cpus write under way. */
struct cpumgr_inflight_write {
	struct cgroup_subsys_state *css;	/* NULL: not registered */
	cpumask_var_t eff;	/* what the write gives its cpuset */
	cpumask_var_t own;	/* what it names */
	/*
	 * The other writes under way when it began, on cpusets above and
	 * below its own: their cpusets, and what they give (above) or name
	 * (below), copied while they were registered.
	 */
	unsigned int nr_above, nr_below;
	struct cgroup_subsys_state *above[CPUMGR_INFLIGHT_OTHERS];
	struct cgroup_subsys_state *below[CPUMGR_INFLIGHT_OTHERS];
	cpumask_var_t above_eff[CPUMGR_INFLIGHT_OTHERS];
	cpumask_var_t below_own[CPUMGR_INFLIGHT_OTHERS];
};

int cpumgr_inflight_init(void);
void cpumgr_inflight_exit(void);
struct cpumgr_inflight_write *cpumgr_inflight_write_get(void);
void cpumgr_inflight_write_begin(struct cpumgr_inflight_write *w,
				 struct cgroup_subsys_state *css,
				 const struct cpumask *eff,
				 const struct cpumask *own,
				 struct cpumgr_inflight_entry *entry);
void cpumgr_inflight_write_put(struct cpumgr_inflight_write *w);
bool cpumgr_inflight_above(const struct cpumgr_inflight_write *x,
			   struct cgroup_subsys_state *css);
const struct cpumask *
cpumgr_inflight_allowed(const struct cpumgr_inflight_write *w,
			struct cgroup_subsys_state *css);
bool cpumgr_inflight_below(const struct cpumgr_inflight_write *w);
bool cpumgr_inflight_enter(struct cgroup *dst, struct cgroup_subsys_state *css,
			   bool (*check)(const struct cpumgr_inflight_write *w,
					 void *arg),
			   void *arg);
void cpumgr_inflight_leave(void);

/* The cgroup file writes checked and still under way. */
int cpumgr_inflight_checked_begin(void);
void cpumgr_inflight_checked_end(int idx);
void cpumgr_inflight_checked_sync(void);
void cpumgr_inflight_checked_wait(void);

#endif /* _CPUMGR_INFLIGHT_H */
