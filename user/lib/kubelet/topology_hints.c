// SPDX-License-Identifier: GPL-2.0
/*
 * Topology hints (the static policy's GetTopologyHints and
 * GetPodTopologyHints) and the topology manager's merge of them, for the
 * CPU manager as the one hint provider (container scope).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policy_internal.h"

void hint_list_free(struct hint_list *l)
{
	free(l->hints);
	memset(l, 0, sizeof(*l));
}

static int popcount(uint64_t m)
{
	return __builtin_popcountll(m);
}

/* Free CPUs per NUMA id of a set (NUMA ids are below 64 here). */
static void per_numa(const struct topology *t, const struct cpuset *s,
		     int *count, uint64_t *mask)
{
	int cpu;

	*mask = 0;
	cpuset_for_each(cpu, s) {
		struct topo_cpu_info ci;

		if (!topology_cpu_info(t, cpu, &ci))
			continue;
		count[ci.numa]++;
		*mask |= UINT64_C(1) << ci.numa;
	}
}

static bool hint_socket_aligned(const struct cpu_policy *p, uint64_t numa,
				int min_size)
{
	const struct topology *t = p->topo;
	int per_socket = (int)(t->nr[TOPO_NUMA] / t->nr[TOPO_SOCKET]);
	struct cpuset cpus, part, sockets;

	if (!per_socket)
		return false;
	cpuset_zero(&cpus);
	for (int n = 0; n < 64; n++)
		if (numa >> n & 1) {
			topology_cpus_in(t, TOPO_NUMA, n, &part);
			cpuset_or(&cpus, &cpus, &part);
		}
	topology_groups_of(t, TOPO_SOCKET, &cpus, &sockets);
	return (int)cpuset_count(&sockets) ==
	       (min_size + per_socket - 1) / per_socket;
}

/*
 * generateCPUTopologyHints(): every NUMA mask (by size, then in
 * combination order) with enough CPUs, preferred when it has the fewest
 * NUMA nodes that could ever hold the request.
 */
static int generate(const struct cpu_policy *p, const struct cpuset *avail,
		    const struct cpuset *reuse, int request,
		    struct hint_list *out, struct cm_error *err)
{
	const struct topology *t = p->topo;
	unsigned int nn = t->nr[TOPO_NUMA], cap = 16;
	int avail_cnt[64] = { 0 }, reuse_cnt[64] = { 0 }, total[64] = { 0 };
	uint64_t avail_mask, reuse_mask;
	int min_size = (int)nn;
	unsigned int idx[64];

	memset(out, 0, sizeof(*out));
	if (t->id[TOPO_NUMA][nn - 1] >= 64)
		return cm_errorf(err, "NUMA node ids above 63 cannot be used in topology hints");
	per_numa(t, &t->cpus, total, &avail_mask);
	per_numa(t, avail, avail_cnt, &avail_mask);
	per_numa(t, reuse, reuse_cnt, &reuse_mask);
	out->hints = malloc(cap * sizeof(*out->hints));
	if (!out->hints)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	for (unsigned int k = 1; k <= nn; k++) {
		for (unsigned int i = 0; i < k; i++)
			idx[i] = i;
		for (;;) {
			uint64_t mask = 0;
			int in_mask = 0, matching = 0;
			int i;

			for (unsigned int j = 0; j < k; j++) {
				int id = t->id[TOPO_NUMA][idx[j]];

				mask |= UINT64_C(1) << id;
				in_mask += total[id];
				matching += avail_cnt[id];
			}
			if (in_mask >= request && (int)k < min_size)
				min_size = (int)k;
			/* reusable CPUs must all lie inside the mask */
			if (!(reuse_mask & ~mask)) {
				matching += (int)cpuset_count(reuse);
				if (matching >= request) {
					if (out->nr == cap) {
						struct topo_hint *h;

						cap *= 2;
						h = realloc(out->hints,
							    cap * sizeof(*h));
						if (!h) {
							hint_list_free(out);
							return cm_errorf(err, "out of memory"), -ENOMEM;
						}
						out->hints = h;
					}
					out->hints[out->nr].numa = mask;
					out->hints[out->nr++].preferred = false;
				}
			}
			/* next combination of NUMA node indices */
			for (i = (int)k - 1; i >= 0 &&
			     idx[i] == nn - k + (unsigned int)i; i--)
				;
			if (i < 0)
				break;
			idx[i]++;
			for (unsigned int j = (unsigned int)i + 1; j < k; j++)
				idx[j] = idx[j - 1] + 1;
		}
	}
	for (unsigned int i = 0; i < out->nr; i++) {
		struct topo_hint *h = &out->hints[i];

		if (p->opts.align_by_socket &&
		    hint_socket_aligned(p, h->numa, min_size))
			h->preferred = true;
		else if (popcount(h->numa) == min_size)
			h->preferred = true;
	}
	return 0;
}

static int empty_hints(struct hint_list *out)
{
	memset(out, 0, sizeof(*out));
	return 0;
}

int cpu_policy_container_hints(const struct cpu_policy *p,
			       const struct cpu_assignments *s, const struct pod *pod,
			       const struct pod_container *c,
			       struct hint_list *out, struct cm_error *err)
{
	const struct cpuset *have;
	struct cpuset avail, reuse, none;
	int request;

	memset(out, 0, sizeof(*out));
	out->no_preference = true;
	if (p->kind == CPU_POLICY_NONE)
		return 0;
	/* a pod pool is admitted for the whole pod */
	if (pod_level_resources(pod))
		return 0;
	request = pod_guaranteed_cpus(pod, c);
	if (!request)
		return 0;
	cpuset_zero(&none);
	have = assignments_get(s, pod->uid, c->name);
	if (have) {
		/* an allocation of another size: a preference never met */
		if ((int)cpuset_count(have) != request)
			return empty_hints(out);
		return generate(p, have, &none, request, out, err);
	}
	cpu_policy_available(p, s, &avail);
	if (!strcmp(p->reuse_pod, pod->uid))
		reuse = p->reuse;
	else
		cpuset_zero(&reuse);
	return generate(p, &avail, &reuse, request, out, err);
}

/*
 * A pod pool's hints (GetPodTopologyHints() with pod-level resources):
 * none without the gate, none to meet when the slices leave a sharing
 * container nothing, those of the pool once it is made.
 */
static int pool_hints(const struct cpu_policy *p,
		      const struct cpu_assignments *s, const struct pod *pod,
		      struct hint_list *out, struct cm_error *err)
{
	const struct cpuset *pool = assignments_get_pool(s, pod->uid);
	int request = pod_level_cpus(pod);
	struct cpuset avail, none;

	if (!p->pod_level || !request)
		return 0;
	if (cpu_policy_pod_budget(pod, request, NULL))
		return empty_hints(out);
	cpuset_zero(&none);
	if (pool)
		return (int)cpuset_count(pool) == request ?
		       generate(p, pool, &none, request, out, err) :
		       empty_hints(out);
	cpu_policy_available(p, s, &avail);
	return generate(p, &avail, &none, request, out, err);
}

int cpu_policy_pod_hints(const struct cpu_policy *p,
			 const struct cpu_assignments *s,
			 const struct pod *pod, struct hint_list *out,
			 struct cm_error *err)
{
	struct cpuset assigned, avail, reuse, none;
	int request;

	memset(out, 0, sizeof(*out));
	out->no_preference = true;
	if (p->kind == CPU_POLICY_NONE)
		return 0;
	if (pod_level_resources(pod))
		return pool_hints(p, s, pod, out, err);
	request = pod_guaranteed_cpus_total(pod);
	if (!request)
		return 0;
	cpuset_zero(&assigned);
	cpuset_zero(&none);
	for (unsigned int i = 0; i < pod->nr; i++) {
		const struct pod_container *c = &pod->containers[i];
		const struct cpuset *have = assignments_get(s, pod->uid,
							    c->name);

		if (!have)
			continue;
		if ((int)cpuset_count(have) != pod_guaranteed_cpus(pod, c))
			return empty_hints(out);
		cpuset_or(&assigned, &assigned, have);
	}
	if ((int)cpuset_count(&assigned) == request)
		return generate(p, &assigned, &none, request, out, err);
	cpu_policy_available(p, s, &avail);
	if (!strcmp(p->reuse_pod, pod->uid))
		reuse = p->reuse;
	else
		cpuset_zero(&reuse);
	cpuset_or(&reuse, &reuse, &assigned);
	return generate(p, &avail, &reuse, request, out, err);
}

/* IsNarrowerThan(): fewer NUMA nodes, then the lower mask. */
static bool narrower(uint64_t a, uint64_t b)
{
	if (popcount(a) == popcount(b))
		return a < b;
	return popcount(a) < popcount(b);
}

/* The topology manager's compareHints() for non-preferred candidates too. */
static const struct topo_hint *compare(int best_np, const struct topo_hint *cur,
				       const struct topo_hint *cand)
{
	int cc, nc;

	if (!popcount(cand->numa))
		return cur;
	if (!cur)
		return cand;
	if (!cur->preferred && cand->preferred)
		return cand;
	if (cur->preferred && !cand->preferred)
		return cur;
	if (cur->preferred && cand->preferred)
		return narrower(cand->numa, cur->numa) ? cand : cur;
	cc = popcount(cur->numa);
	nc = popcount(cand->numa);
	if (cc > best_np)
		return narrower(cand->numa, cur->numa) ? cand : cur;
	if (cc == best_np) {
		if (nc != best_np)
			return cur;
		return narrower(cand->numa, cur->numa) ? cand : cur;
	}
	if (nc > best_np)
		return cur;
	if (nc == best_np)
		return cand;
	if (nc > cc)
		return cand;
	if (nc < cc)
		return cur;
	return narrower(cand->numa, cur->numa) ? cand : cur;
}

void topology_manager_merge(const struct topology *t, enum tm_policy tm,
			    const struct hint_list *hints,
			    struct topo_hint *best, bool *admit)
{
	struct topo_hint dont_care = { 0, true }, none_pref = { 0, false };
	const struct topo_hint *list, *cur = NULL;
	struct topo_hint kept;
	uint64_t all = 0;
	unsigned int n, nf = 0;
	int best_np;

	for (unsigned int i = 0; i < t->nr[TOPO_NUMA]; i++)
		if (t->id[TOPO_NUMA][i] < 64)
			all |= UINT64_C(1) << t->id[TOPO_NUMA][i];
	/* filterProvidersHints() */
	if (hints->no_preference) {
		list = &dont_care;
		n = 1;
	} else if (!hints->nr) {
		list = &none_pref;
		n = 1;
	} else {
		list = hints->hints;
		n = hints->nr;
	}
	best_np = popcount(all);
	for (unsigned int i = 0; i < n; i++) {
		const struct topo_hint *h = &list[i];
		struct topo_hint cand;

		/* filterSingleNumaHints() */
		if (tm == TM_POLICY_SINGLE_NUMA_NODE &&
		    !(h->preferred && (!h->numa || popcount(h->numa) == 1)))
			continue;
		if (!nf++)
			for (unsigned int j = i; j < n; j++)
				if (list[j].numa &&
				    popcount(list[j].numa) < best_np)
					best_np = popcount(list[j].numa);
		/* mergePermutation() with the machine's default affinity */
		cand.numa = h->numa ? (h->numa & all) : all;
		cand.preferred = h->preferred;
		if (compare(best_np, cur, &cand) == &cand) {
			kept = cand;
			cur = &kept;
		}
	}
	*best = cur ? *cur : (struct topo_hint){ all, false };
	if (tm == TM_POLICY_SINGLE_NUMA_NODE && best->numa == all)
		best->numa = 0;
	*admit = tm == TM_POLICY_BEST_EFFORT || tm == TM_POLICY_NONE ||
		 best->preferred;
}

/* The merge of hints, the refusal, and the affinity to allocate with. */
static int admit_hints(const struct cpu_policy *p, struct hint_list *hints,
		       uint64_t *affinity, bool *has_affinity,
		       struct cm_error *err)
{
	struct topo_hint best;
	bool admit;

	topology_manager_merge(p->topo, p->tm, hints, &best, &admit);
	hint_list_free(hints);
	if (!admit)
		return cm_errorf(err, "Resources cannot be allocated with Topology locality");
	if (best.numa) {
		*affinity = best.numa;
		*has_affinity = true;
	}
	return 0;
}

int cpu_policy_admit_pod(const struct cpu_policy *p,
			 const struct cpu_assignments *s,
			 const struct pod *pod, uint64_t *affinity,
			 bool *has_affinity, struct cm_error *err)
{
	struct hint_list hints;

	*has_affinity = false;
	*affinity = 0;
	if (p->tm == TM_POLICY_NONE)
		return 0;
	return cpu_policy_pod_hints(p, s, pod, &hints, err) ?:
	       admit_hints(p, &hints, affinity, has_affinity, err);
}

int cpu_policy_admit(const struct cpu_policy *p,
		     const struct cpu_assignments *s,
		     const struct pod *pod, const struct pod_container *c,
		     uint64_t *affinity, bool *has_affinity,
		     struct cm_error *err)
{
	struct hint_list hints;

	*has_affinity = false;
	*affinity = 0;
	if (p->tm == TM_POLICY_NONE)
		return 0;
	return cpu_policy_container_hints(p, s, pod, c, &hints, err) ?:
	       admit_hints(p, &hints, affinity, has_affinity, err);
}
