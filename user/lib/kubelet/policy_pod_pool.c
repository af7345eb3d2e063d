// SPDX-License-Identifier: GPL-2.0
/*
 * Pod-level CPU pools (KEP-5526, the kubelet's AllocatePod()): a
 * Guaranteed pod whose pod-level CPU request is a whole number gets a
 * pool of that many CPUs out of the shared pool, aligned as one
 * container's CPUs are.  Within it, each container whose own requests
 * equal its limits and whose CPU request is whole gets an exclusive
 * slice; the others share what is left, the pod's shared pool.  A
 * sidecar's slice is its own for the pod's life; a standard init
 * container's is taken again by the containers after it.  The checkpoint
 * keeps the pool (podEntries) and every container's CPUs (entries).
 */
#include <errno.h>

#include "policy_internal.h"

/*
 * validatePodScopeResources(): a budget the slices leave nothing of for
 * a container that shares.  The kubelet's words (its admission reason is
 * EmptyPodSharedPoolError).
 */
int cpu_policy_pod_budget(const struct pod *pod, int total,
			  struct cm_error *err)
{
	int64_t sidecars = 0, apps = 0;
	bool shared = false;

	for (unsigned int i = 0; i < pod->nr; i++) {
		const struct pod_container *c = &pod->containers[i];
		int n = pod_guaranteed_cpus(pod, c);

		if (c->init && !c->restartable) {
			if (n && n > total - sidecars)
				return cm_errorf(err, "pod rejected, largest exclusive init container requests %d cpus, but only %d available",
						 n, (int)(total - sidecars));
			if (!n && sidecars >= total)
				return cm_errorf(err, "pod rejected, pod has shared init containers but no cpus available for them");
		} else if (n) {
			*(c->init ? &sidecars : &apps) += n;
		} else {
			shared = true;
		}
	}
	if (shared && sidecars + apps >= total)
		return cm_errorf(err, "pod rejected, sum of exclusive container cpu requests equals pod budget, leaving no cpus for shared containers");
	return 0;
}

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
 * A slice is not given back to the pod's shared pool: its containers'
 * CPUs stay as admitted, and the pool returns whole with the last entry.
 */
void cpu_policy_remove_pooled(struct cpu_assignments *s, const char *pod_uid,
			      const char *container)
{
	const struct cpuset *pool;
	struct cpuset left;

	assignments_delete(s, pod_uid, container);
	assignments_pod_cpus(s, pod_uid, NULL, &left);
	pool = assignments_get_pool(s, pod_uid);
	if (!cpuset_empty(&left) || !pool)
		return;
	cpuset_or(&s->default_set, &s->default_set, pool);
	assignments_delete_pool(s, pod_uid);
}
