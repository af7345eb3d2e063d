/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr_partition.c: what a change of cpuset partitions does to the
 * effective CPUs of every cpuset, and the cpusets with tasks checked
 * against it.
 */
#ifndef _CPUMGR_PARTITION_H
#define _CPUMGR_PARTITION_H

#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/types.h>

struct cpumgr_scratch;
struct cpumgr_view;

/* Partitions one change may dissolve at most; more are refused unchecked. */
#define CPUMGR_PART_GONE_MAX 8

/*
 * A change about to be made: @css's cpuset.cpus becomes @allowed (NULL:
 * as it is), @taker becomes or stays a valid partition root holding
 * @held (NULL: none), and the valid partitions @gone dissolve.  Every
 * cpuset is of one cgroup2 hierarchy, the one cpuset is on.
 */
struct cpumgr_part_change {
	struct cgroup_subsys_state *css;
	const struct cpumask *allowed;
	struct cgroup_subsys_state *taker;
	const struct cpumask *held;
	unsigned int nr_gone;
	bool overflow;		/* more would dissolve than @gone holds... */
	bool search_stopped;	/* ...or the search for them stopped */
	struct cgroup_subsys_state *gone[CPUMGR_PART_GONE_MAX];
};

void cpumgr_part_gone_add(struct cpumgr_part_change *ch,
			  struct cgroup_subsys_state *css);
bool cpumgr_part_may_fail(struct cgroup_subsys_state *css,
			  const struct cpumask *was, const struct cpumask *held);
bool cpumgr_part_eff(const struct cpumgr_part_change *ch,
		     struct cgroup_subsys_state *css, struct cpumask *eff,
		     struct cpumgr_scratch *s);
bool cpumgr_part_check(const struct cpumgr_view *view,
		       const struct cpumgr_part_change *ch, struct cpumask *bad,
		       struct cpumgr_scratch *s);

#endif /* _CPUMGR_PARTITION_H */
