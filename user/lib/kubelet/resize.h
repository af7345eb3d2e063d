/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resizing a running container's exclusive CPUs (kubernetes#127262, the
 * rules of KEP-5554, gate InPlacePodVerticalScalingExclusiveCPUs): the
 * CPUs given at admission are kept, a grow keeps every CPU held and adds
 * the rest by the static policy's best fit, nearest first (the NUMA
 * nodes, then the sockets the container already uses), so its NUMA
 * affinity only grows; a shrink gives back CPUs earlier grows added and
 * never goes below the admission set.  Pure: no I/O, nothing changes on
 * a refusal.
 */
#ifndef CPUMGR_RESIZE_H
#define CPUMGR_RESIZE_H

#include "policy_static.h"

struct resize_request {
	const char *pod_uid, *container;
	int num_cpus;			/* the new count */
	/* given at admission; NULL: what the container holds now */
	const struct cpuset *admitted;
};

/*
 * The container's new CPUs into *out and into s (its entry and the
 * default set).  The container must hold exclusive CPUs in s.  A grow
 * that does not fit is refused in the kubelet's words (-ENOSPC, or
 * -EINVAL for an SMT alignment error), a shrink below the admission set
 * with -EINVAL; s and *out are then unchanged.
 */
int cpu_policy_resize(struct cpu_policy *p, struct cpu_assignments *s,
		      const struct resize_request *r, struct cpuset *out,
		      struct cm_error *err);

#endif
