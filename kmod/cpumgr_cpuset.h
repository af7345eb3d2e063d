/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_cpuset.c: the kernel's cpusets, read where locks cannot be taken. */
#ifndef _CPUMGR_CPUSET_H
#define _CPUMGR_CPUSET_H

#include <linux/cgroup.h>
#include <linux/cpumask.h>

#include "cpumgr_cgroup.h"

int cpumgr_cpuset_init(void);
struct cgroup_subsys_state *cpumgr_cpuset_css(struct cgroup *cgrp);
struct cgroup_subsys_state *cpumgr_cpuset_top(void);
const struct cpumask *cpumgr_cpuset_allowed(struct cgroup_subsys_state *css);
const struct cpumask *cpumgr_cpuset_effective(struct cgroup_subsys_state *css);
bool cpumgr_cpuset_has_tasks(struct cgroup_subsys_state *css);
/* Partitions: the state, what a root asks for and holds (cpumgr_cpuset.c) */
int cpumgr_cpuset_prs(struct cgroup_subsys_state *css);
#define CPUMGR_PRS_ISOLATED	2	/* cpumgr_cpuset_prs(): valid isolated */
bool cpumgr_cpuset_partition(struct cgroup_subsys_state *css);
const struct cpumask *cpumgr_cpuset_exclusive(struct cgroup_subsys_state *css);
const struct cpumask *cpumgr_cpuset_wants(struct cgroup_subsys_state *css);
void cpumgr_cpuset_held(struct cgroup_subsys_state *css, struct cpumask *held);
void cpumgr_cpuset_would_hold(struct cgroup_subsys_state *css,
			      const struct cpumask *wants,
			      struct cpumask *held);

/*
 * Whether the cpusets of @cgrp's hierarchy take their effective CPUs as on
 * cgroup2 (within the parent's, and all of the parent's when none is
 * left): cgroup2, and a v1 hierarchy mounted with cpuset_v2_mode.
 */
static inline bool cpumgr_cpuset_v2_mode(const struct cgroup *cgrp)
{
	return cpumgr_cgroup_on_dfl(cgrp) ||
	       (cgrp->root->flags & CGRP_ROOT_CPUSET_V2_MODE);
}

#endif /* _CPUMGR_CPUSET_H */
