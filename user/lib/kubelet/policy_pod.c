// SPDX-License-Identifier: GPL-2.0
/*
 * A pod admitted container by container: the topology manager's
 * admission (topology_hints.c) and the static policy's allocation
 * (policy_static.c), all or nothing; or, with pod-level resources, as
 * one pool (policy_pod_pool.c).
 */
#include <errno.h>
#include <string.h>

#include "policy_static.h"

/*
 * A pod with pod-level resources: one pool for the whole pod, aligned by
 * the topology manager's pod-scope admission.  Without the gate the
 * kubelet leaves the pod on the shared pool.
 */
static int add_pod_pool(struct cpu_policy *p, struct cpu_assignments *s,
			const struct pod *pod, const uint64_t *affinity,
			struct cm_error *err)
{
	struct hint_list hints;
	struct topo_hint best = { 0 };
	bool admit = true;
	int ret;

	if (!p->pod_level)
		return 0;
	if (!affinity && p->tm != TM_POLICY_NONE) {
		ret = cpu_policy_pod_hints(p, s, pod, &hints, err);
		if (ret)
			return ret;
		topology_manager_merge(p->topo, p->tm, &hints, &best, &admit);
		hint_list_free(&hints);
		if (!admit)
			return cm_errorf(err, "Resources cannot be allocated with Topology locality");
		if (best.numa)
			affinity = &best.numa;
	}
	return cpu_policy_allocate_pod(p, s, pod, affinity, err);
}

int cpu_policy_add_pod(struct cpu_policy *p, struct cpu_assignments *s,
		       const struct pod *pod, const uint64_t *affinity,
		       struct cm_error *err)
{
	struct cpu_assignments snap;
	char reuse_pod[sizeof(p->reuse_pod)];
	struct cpuset reuse = p->reuse;
	int ret = 0;

	if (p->kind == CPU_POLICY_STATIC && pod_level_resources(pod))
		return add_pod_pool(p, s, pod, affinity, err);
	assignments_init(&snap);
	if (assignments_copy(&snap, s))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	memcpy(reuse_pod, p->reuse_pod, sizeof(reuse_pod));
	for (unsigned int i = 0; i < pod->nr && !ret; i++) {
		const struct pod_container *c = &pod->containers[i];
		uint64_t mask = 0;
		bool has = false;

		if (affinity) {
			mask = *affinity;
			has = true;
		} else {
			ret = cpu_policy_admit(p, s, pod, c, &mask, &has, err);
		}
		if (!ret)
			ret = cpu_policy_allocate(p, s, pod, c,
						  has ? &mask : NULL, err);
		if (ret)
			cm_error_prefix(err, "container %s", c->name);
	}
	if (ret) {
		/* all or nothing: put the state and the reuse set back */
		assignments_copy(s, &snap);
		memcpy(p->reuse_pod, reuse_pod, sizeof(reuse_pod));
		p->reuse = reuse;
	}
	assignments_free(&snap);
	return ret;
}
