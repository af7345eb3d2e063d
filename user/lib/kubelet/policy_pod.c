// SPDX-License-Identifier: GPL-2.0
/*
 * A pod admitted container by container: the topology manager's
 * admission (topology_hints.c) and the static policy's allocation
 * (policy_static.c), all or nothing.
 *
 * Or, with pod-level resources, as one pool (KEP-5526, the kubelet's
 * AllocatePod()): a Guaranteed pod whose pod-level CPU request is a
 * whole number gets a pool of that many CPUs out of the shared pool,
 * aligned as one container's CPUs are.  Within it, each container whose
 * own requests equal its limits and whose CPU request is whole gets an
 * exclusive slice; the others share what is left, the pod's shared pool.
 * A sidecar's slice is its own for the pod's life; a standard init
 * container's is taken again by the containers after it.  The
 * checkpoint keeps the pool (podEntries) and every container's CPUs
 * (entries).
 */
#include <errno.h>
#include <string.h>

#include "policy_internal.h"

static int set_entry(struct cpu_assignments *s, const struct pod *pod,
		     const struct pod_container *c, const struct cpuset *cpus,
		     struct cm_error *err)
{
	if (assignments_set(s, pod->uid, c->name, cpus))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	return 0;
}

/* The pool's slices and shares, in the containers' order. */
static int split_pool(const struct cpu_policy *p, struct cpu_assignments *s,
		      const struct pod *pod, const struct cpuset *pool,
		      struct cm_error *err)
{
	struct cpuset sidecars, shared, avail, slice;
	unsigned int i;
	int n, ret = 0;

	cpuset_zero(&sidecars);
	for (i = 0; i < pod->nr_init && !ret; i++) {
		const struct pod_container *c = &pod->containers[i];

		cpuset_andnot(&avail, pool, &sidecars);
		n = pod_guaranteed_cpus(pod, c);
		if (n) {
			ret = cpu_policy_take(p, &avail, n, &slice, err) ?:
			      set_entry(s, pod, c, &slice, err);
			if (c->restartable)
				cpuset_or(&sidecars, &sidecars, &slice);
		} else if (!c->restartable) {
			ret = set_entry(s, pod, c, &avail, err);
		}
	}
	cpuset_andnot(&shared, pool, &sidecars);
	for (i = pod->nr_init; i < pod->nr && !ret; i++) {
		const struct pod_container *c = &pod->containers[i];

		n = pod_guaranteed_cpus(pod, c);
		if (!n)
			continue;
		ret = cpu_policy_take(p, &shared, n, &slice, err) ?:
		      set_entry(s, pod, c, &slice, err);
		cpuset_andnot(&shared, &shared, &slice);
	}
	/* the app containers and sidecars that share */
	for (i = 0; i < pod->nr && !ret; i++) {
		const struct pod_container *c = &pod->containers[i];

		if ((!c->init || c->restartable) &&
		    !pod_guaranteed_cpus(pod, c))
			ret = set_entry(s, pod, c, &shared, err);
	}
	if (ret)
		cm_error_prefix(err, "pod %s", pod->uid);
	return ret;
}

int cpu_policy_allocate_pod(struct cpu_policy *p, struct cpu_assignments *s,
			    const struct pod *pod, const uint64_t *affinity,
			    struct cm_error *err)
{
	struct cpu_assignments snap;
	struct cpuset pool, none;
	int total, ret;

	if (p->kind == CPU_POLICY_NONE || !p->pod_level)
		return 0;
	total = pod_level_cpus(pod);
	if (!total || assignments_get_pool(s, pod->uid))
		return 0;
	if (cpu_policy_pod_budget(pod, total, err) ||
	    cpu_policy_check_smt(p, s, total, err))
		return -EINVAL;
	cpuset_zero(&none);
	if (cpu_policy_allocate_cpus(p, s, total, affinity, &none, &pool, err))
		return -EINVAL;
	if (cpu_policy_empties_shared_pool(p, s, &pool, err))
		return -ENOSPC;
	assignments_init(&snap);
	if (assignments_copy(&snap, s))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = split_pool(p, s, pod, &pool, err);
	if (!ret && assignments_set_pool(s, pod->uid, &pool)) {
		cm_errorf(err, "out of memory");
		ret = -ENOMEM;
	}
	if (ret)
		assignments_copy(s, &snap);
	else
		cpuset_andnot(&s->default_set, &s->default_set, &pool);
	assignments_free(&snap);
	return ret;
}

/*
 * A pod with pod-level resources: one pool for the whole pod, aligned by
 * the topology manager's pod-scope admission.  Without the gate the
 * kubelet leaves the pod on the shared pool.
 */
static int add_pod_pool(struct cpu_policy *p, struct cpu_assignments *s,
			const struct pod *pod, const uint64_t *affinity,
			struct cm_error *err)
{
	uint64_t mask = 0;
	bool has = false;

	if (!p->pod_level)
		return 0;
	if (!affinity &&
	    cpu_policy_admit_pod(p, s, pod, &mask, &has, err))
		return -EINVAL;
	return cpu_policy_allocate_pod(p, s, pod, has ? &mask : affinity, err);
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
