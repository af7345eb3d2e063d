/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The static policy's steps that both a container's allocation
 * (policy_static.c) and a pod pool's (policy_pod.c) take.  Private
 * to policy_*.c.
 */
#ifndef CPUMGR_POLICY_INTERNAL_H
#define CPUMGR_POLICY_INTERNAL_H

#include "policy_static.h"

/* allocateCPUs(): num of the shared pool and reuse, affinity's first. */
int cpu_policy_allocate_cpus(struct cpu_policy *p, struct cpu_assignments *s,
			     int num, const uint64_t *affinity,
			     const struct cpuset *reuse, struct cpuset *result,
			     struct cm_error *err);
/* strict-cpu-reservation: result may not take the last shared CPU. */
int cpu_policy_empties_shared_pool(const struct cpu_policy *p,
				   const struct cpu_assignments *s,
				   const struct cpuset *result,
				   struct cm_error *err);
/* full-pcpus-only: num whole cores, and that many free. */
int cpu_policy_check_smt(const struct cpu_policy *p,
			 const struct cpu_assignments *s, int num,
			 struct cm_error *err);
/* validatePodScopeResources(): the slices leave room for those that share. */
int cpu_policy_pod_budget(const struct pod *pod, int total,
			  struct cm_error *err);
/* RemoveContainer() in a pod with a pool. */
void cpu_policy_remove_pooled(struct cpu_assignments *s, const char *pod_uid,
			      const char *container);

#endif
