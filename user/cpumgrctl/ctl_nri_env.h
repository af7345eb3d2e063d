/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl nri: what a container is told of its CPUs, in the
 * environment its CreateContainer adjustment adds (NRI's
 * ContainerAdjustment.env), in cpumgr's names and in those CRI-O's
 * high-performance hooks give (OpenShift's):
 *
 *   CPUMGR_EXCLUSIVE_CPUS     its exclusive CPUs ("" on the shared pool)
 *   CPUMGR_SHARED_CPUS        the node's shared pool at its creation
 *   OPENSHIFT_ISOLATED_CPUS   its exclusive CPUs (with exclusive CPUs)
 *   OPENSHIFT_SHARED_CPUS     the shared pool it runs on (on the pool)
 *   CPUMGR_HOUSEKEEPING_CPUS, OPENSHIFT_HOUSEKEEPING_CPUS
 *                             those of its CPUs left to interrupts, under
 *                             irq-load-balancing "housekeeping"
 *
 * A container's environment is fixed at its creation: its cpuset follows
 * the shared pool as it moves, these do not (the cgroup's
 * cpuset.cpus.effective, or sched_getaffinity(), says it now).
 */
#ifndef CPUMGRCTL_CTL_NRI_ENV_H
#define CPUMGRCTL_CTL_NRI_ENV_H

#include <stddef.h>

#include "nri.pb-c.h"
#include "node.h"

#define CTL_NRI_ENV_MAX		6

struct ctl_nri_env {
	Nri__Pkg__Api__V1alpha1__KeyValue kv[CTL_NRI_ENV_MAX];
	Nri__Pkg__Api__V1alpha1__KeyValue *ptrs[CTL_NRI_ENV_MAX];
	char *values[CTL_NRI_ENV_MAX];
	size_t nr;
	/* cpu-quota "disable" with exclusive CPUs: no CFS quota either */
	bool no_quota;
};

/* Container name of pod pod_uid as the node has it now; -ENOMEM. */
int ctl_nri_env_of(struct node *n, const char *pod_uid, const char *name,
		   struct ctl_nri_env *e);
void ctl_nri_env_free(struct ctl_nri_env *e);

#endif
