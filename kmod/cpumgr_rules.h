/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_rules.c: which CPUs a cgroup may hold, and the checks' scratch. */
#ifndef _CPUMGR_RULES_H
#define _CPUMGR_RULES_H

#include <linux/cgroup.h>
#include <linux/cpumask.h>

struct cpumgr_inflight_entry;
struct cpumgr_log_buf;
struct cpumgr_view;

/* A CPU's scratch space: cpumasks, the path buffers, what a check found. */
struct cpumgr_scratch;

/*
 * The scratch masks of the checks (cpumgr_check_*.c) and of the model of
 * partitions (cpumgr_partition.c); the rules use others.
 */
enum {
	CPUMGR_ARG,
	CPUMGR_BAD,
	CPUMGR_EFF,
	CPUMGR_HELD,		/* what a partition would hold */
	CPUMGR_PART_WALK,	/* cpumgr_partition.c's */
	CPUMGR_PART_E0,
	CPUMGR_PART_E1,
	CPUMGR_PART_H0,
	CPUMGR_PART_H1,
	CPUMGR_PART_TMP,
	CPUMGR_SCRATCH_CHECK_MASKS,
};

int cpumgr_rules_init(void);
void cpumgr_rules_exit(void);
/* This CPU's scratch space; the caller cannot be preempted. */
struct cpumgr_scratch *cpumgr_scratch_get(void);
/*
 * This CPU's other scratch space, for callers that may be preempted
 * (the checks of cpuset file writes), behind a local lock: preemption
 * stays on under PREEMPT_RT, is off otherwise.
 */
struct cpumgr_scratch *cpumgr_scratch_lock(void);
void cpumgr_scratch_unlock(void);
struct cpumask *cpumgr_scratch_mask(struct cpumgr_scratch *s, unsigned int i);
/* Room for a cpuset and its ancestors, CPUMGR_CGROUP_DEPTH_MAX of them */
struct cgroup_subsys_state **cpumgr_scratch_csses(struct cpumgr_scratch *s);
/* The scratch space's buffers for a cgroup's path (cpumgr_report.c) */
struct cpumgr_log_buf *cpumgr_scratch_log(struct cpumgr_scratch *s);
bool cpumgr_rules_active(const struct cpumgr_view *view);
unsigned int cpumgr_rules_walk_max(void);
struct cgroup_subsys_state *
cpumgr_rules_walk_next(struct cgroup_subsys_state *pos,
		       struct cgroup_subsys_state *root, bool skip);
bool cpumgr_rules_walk_stop(const struct cpumgr_view *view,
			    struct cgroup_subsys_state *css, unsigned int max,
			    const struct cpumask *cpus, struct cpumask *bad,
			    struct cpumask *tmp);
bool cpumgr_rules_check(const struct cpumgr_view *view, struct cgroup *cgrp,
			const struct cpumask *cpus, const struct cpumask *own,
			struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_rules_check_walked(const struct cpumgr_view *view,
			       struct cgroup *cgrp, const struct cpumask *eff,
			       const struct cpumask *own,
			       const struct cpumask *named, struct cpumask *bad,
			       struct cpumgr_scratch *s);
void cpumgr_rules_inherited(struct cgroup_subsys_state *pos,
			    struct cgroup_subsys_state *from,
			    const struct cpumask *cpus, struct cpumask *eff,
			    struct cpumgr_scratch *s);
bool cpumgr_rules_check_inherit(const struct cpumgr_view *view,
				struct cgroup_subsys_state *css,
				const struct cpumask *cpus,
				const struct cpumask *own,
				const struct cpumgr_inflight_entry *entry,
				struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_rules_entry_pending(const struct cpumgr_view *view,
				struct cgroup *dst, const struct cpumask *eff,
				const struct cpumask *named,
				struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_rules_reaches_scope(const struct cpumgr_view *view,
				struct cgroup *cgrp, struct cpumgr_scratch *s);
bool cpumgr_rules_in_scope(const struct cpumgr_view *view, struct cgroup *cgrp,
			   struct cpumgr_scratch *s);
bool cpumgr_rules_check_take(const struct cpumgr_view *view,
			     struct cgroup *cgrp, const struct cpumask *cpus,
			     struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_rules_check_partition(const struct cpumgr_view *view,
				  struct cgroup *cgrp,
				  const struct cpumask *cpus,
				  struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_rules_check_keep(const struct cpumgr_view *view,
			     struct cgroup *cgrp, const struct cpumask *cpus,
			     struct cpumask *bad, struct cpumgr_scratch *s);
struct cgroup *cpumgr_rules_check_offline(const struct cpumgr_view *view,
					  struct cgroup_subsys_state *top,
					  unsigned int cpu, struct cpumask *bad,
					  struct cpumgr_scratch *s);
/* Whose CPUs the last check found: "pod <uid> container <name>". */
int cpumgr_rules_whose(const struct cpumgr_view *view,
		       const struct cpumgr_scratch *s, char *buf, size_t len);

#endif /* _CPUMGR_RULES_H */
