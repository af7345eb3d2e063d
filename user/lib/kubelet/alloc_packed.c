// SPDX-License-Identifier: GPL-2.0
/*
 * takeByTopologyNUMAPacked: whole NUMA nodes and sockets (the bigger of
 * the two first), whole uncore caches when asked, whole cores, then single
 * CPUs, each step walking the kubelet's sorted lists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"

static unsigned int group_size(const struct topology *t, enum topo_level lv,
			       unsigned int g)
{
	return t->cpus_of[lv].start[g + 1] - t->cpus_of[lv].start[g];
}

static void take_group(struct acc *a, enum topo_level lv, unsigned int g)
{
	const struct topo_map *m = &a->t->cpus_of[lv];

	alloc_acc_take(a, m->item + m->start[g], m->start[g + 1] - m->start[g]);
}

/*
 * Is group g "free"?  Like the kubelet: NUMA nodes and uncore caches
 * compare with their own size, sockets and cores with the machine-wide
 * average (CPUsPerSocket(), CPUsPerCore()).
 */
static bool group_free(const struct acc *a, enum topo_level lv, unsigned int g)
{
	if (lv == TOPO_SOCKET || lv == TOPO_CORE)
		return (int)a->cnt[lv][g] == topology_cpus_per(a->t, lv);
	return a->cnt[lv][g] == group_size(a->t, lv, g);
}

/* takeFullNUMANodes(), takeFullSockets(), takeFullCores(), takeFullUncore() */
static void take_full(struct acc *a, enum topo_level lv)
{
	unsigned int *list, n;

	switch (lv) {
	case TOPO_NUMA:
		list = a->l_numa;
		n = alloc_acc_sort_numas(a, list);
		break;
	case TOPO_SOCKET:
		list = a->l_socket;
		n = alloc_acc_sort_sockets(a, list);
		break;
	case TOPO_CORE:
		list = a->l_core;
		n = alloc_acc_sort_cores(a, list);
		break;
	default:
		list = a->l_uncore;
		n = alloc_acc_sort_uncores(a, list);
		break;
	}
	/* the kubelet filters the free groups first, then takes */
	{
		unsigned int k = 0;

		for (unsigned int i = 0; i < n; i++)
			if (group_free(a, lv, list[i]))
				list[k++] = list[i];
		n = k;
	}
	for (unsigned int i = 0; i < n; i++) {
		unsigned int sz = group_size(a->t, lv, list[i]);

		if (a->need < (int)sz)
			continue;
		take_group(a, lv, list[i]);
	}
}

static int cmp_uint(const void *x, const void *y)
{
	unsigned int a = *(const unsigned int *)x, b = *(const unsigned int *)y;

	return (a > b) - (a < b);
}

/*
 * takePartialUncore(): the lowest-id cores of the uncore cache with free
 * CPUs, as many as the request needs; claimed only when their free CPUs
 * are exactly the CPUs still needed (an odd request on SMT drops the
 * highest CPU first).
 */
static void take_partial_uncore(struct acc *a, unsigned int u)
{
	const struct topology *t = a->t;
	const struct topo_map *cm = &t->cores_of_uncore;
	const struct topo_map *m = &t->cpus_of[TOPO_CORE];
	int per_core = topology_cpus_per(t, TOPO_CORE);
	unsigned int cores_needed, nc = 0, n = 0;
	unsigned int *cpus = a->l_cpu;

	if (per_core <= 0)
		return;
	cores_needed = (unsigned int)((a->need + per_core - 1) / per_core);
	for (unsigned int k = cm->start[u];
	     k < cm->start[u + 1] && nc < cores_needed; k++) {
		unsigned int core = cm->item[k];

		if (!a->cnt[TOPO_CORE][core])
			continue;
		nc++;
		for (unsigned int j = m->start[core]; j < m->start[core + 1]; j++)
			if (bm_test(a->free, m->item[j]))
				cpus[n++] = m->item[j];
	}
	if (a->need % 2 != 0 && per_core > 1) {
		/* dense order is CPU-number order */
		qsort(cpus, n, sizeof(*cpus), cmp_uint);
		if ((int)n > a->need)
			n--;
	}
	if ((int)n != a->need)
		return;
	alloc_acc_take(a, cpus, n);
}

/* takeUncoreCache() */
static void take_uncore_cache(struct acc *a)
{
	int per_uncore = topology_cpus_per(a->t, TOPO_UNCORE);
	unsigned int n = alloc_acc_sort_uncores(a, a->l_snap);

	for (unsigned int i = 0; i < n; i++) {
		if (a->need >= per_uncore)
			take_full(a, TOPO_UNCORE);
		if (alloc_acc_satisfied(a))
			return;
		take_partial_uncore(a, a->l_snap[i]);
		if (alloc_acc_satisfied(a))
			return;
	}
}

/* takeRemainingCPUs() */
static void take_remaining(struct acc *a)
{
	unsigned int n = alloc_acc_sort_cpus(a, a->l_cpu);

	for (unsigned int i = 0; i < n; i++) {
		alloc_acc_take(a, &a->l_cpu[i], 1);
		if (alloc_acc_satisfied(a))
			return;
	}
}

int alloc_acc_take_packed(struct acc *a, bool prefer_uncore)
{
	if (alloc_acc_satisfied(a))
		return 0;
	if (alloc_acc_failed(a))
		return -ENOSPC;

	take_full(a, a->numa_first ? TOPO_NUMA : TOPO_SOCKET);
	if (alloc_acc_satisfied(a))
		return 0;
	take_full(a, a->numa_first ? TOPO_SOCKET : TOPO_NUMA);
	if (alloc_acc_satisfied(a))
		return 0;
	if (prefer_uncore) {
		take_uncore_cache(a);
		if (alloc_acc_satisfied(a))
			return 0;
	}
	if (!a->spread) {
		take_full(a, TOPO_CORE);
		if (alloc_acc_satisfied(a))
			return 0;
	}
	take_remaining(a);
	if (alloc_acc_satisfied(a))
		return 0;
	return -EAGAIN;
}

int alloc_packed(struct alloc_ws *ws, const uint64_t *avail,
		 unsigned int avail_size, const struct alloc_request *req,
		 bool prefer_uncore, struct cm_error *err)
{
	struct acc *a = &ws->outer;
	int ret;

	alloc_acc_init(a, avail, req->num_cpus, req->spread);
	ret = alloc_acc_take_packed(a, prefer_uncore);
	if (ret == -ENOSPC)
		return cm_errorf(err, "not enough cpus available to satisfy request: requested=%d, available=%u",
				 req->num_cpus, avail_size), -ENOSPC;
	if (ret)
		return cm_errorf(err, "failed to allocate cpus");
	return 0;
}
