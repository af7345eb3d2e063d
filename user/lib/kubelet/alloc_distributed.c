// SPDX-License-Identifier: GPL-2.0
/*
 * takeByTopologyNUMADistributed: spread a request evenly over the fewest
 * NUMA nodes that can take it, in groups of cpu_group_size CPUs, picking
 * the combination (and the nodes for the remainder) that leaves the free
 * CPUs per NUMA node most balanced (lowest standard deviation, rounded to
 * three decimals like the kubelet), first found wins ties.
 *
 * The combination the kubelet saves is not always the one it chose: see
 * go_own_prefix().
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "alloc_internal.h"

static double round3(double x)
{
	return round(x * 1000) / 1000;
}

/* standardDeviation() over the NUMA nodes that had free CPUs */
static double balance(const long *v, const unsigned int *uniq,
		      unsigned int nu)
{
	double sum = 0, m, sq = 0;

	for (unsigned int i = 0; i < nu; i++)
		sum += (double)v[uniq[i]];
	m = round3(sum / nu);
	for (unsigned int i = 0; i < nu; i++)
		sq += ((double)v[uniq[i]] - m) * ((double)v[uniq[i]] - m);
	return round3(sqrt(sq / nu));
}

/* First k-combination of positions, then the next one; false when done. */
static void comb_first(unsigned int *idx, unsigned int k)
{
	for (unsigned int i = 0; i < k; i++)
		idx[i] = i;
}

static bool comb_next(unsigned int *idx, unsigned int n, unsigned int k)
{
	int i = (int)k - 1;

	while (i >= 0 && idx[i] == n - k + (unsigned int)i)
		i--;
	if (i < 0)
		return false;
	idx[i]++;
	for (unsigned int j = (unsigned int)i + 1; j < k; j++)
		idx[j] = idx[j - 1] + 1;
	return true;
}

/*
 * The kubelet enumerates k-combinations recursively, each level passing
 * append(accum, x) to the next, and saves the callback's slice as the
 * best one found.  append() writes into accum's backing array whenever
 * it has room, so every combination that shares the leading elements
 * stored before the last reallocation shares one array with it: the
 * saved slice's later elements are overwritten by each combination
 * enumerated after it with the same leading elements, and the kubelet
 * allocates from what the slice holds in the end.
 *
 * Go grows a slice of 8-byte ints from capacity 0 to 1, 2, 4, 8, ...
 * (doubling; these sizes are malloc size classes of the Go runtime up
 * to 512 elements, past any machine's NUMA node count), so lengths 1,
 * 2, 3, 5, 9, 17, ... reallocate.  Returns how many leading elements of
 * a k-combination live in an array of their own: 1, 2, 3, 3, 5, 5, 5,
 * 5, 9, ... for k = 1, 2, 3, ...
 */
static unsigned int go_own_prefix(unsigned int k)
{
	unsigned int cap = 0, own = 0;

	for (unsigned int len = 1; len <= k; len++) {
		if (len > cap) {
			cap = cap ? 2 * cap : 1;
			own = len;
		}
	}
	return own;
}

/*
 * The enumeration just wrote combination cur (positions idx) into the
 * array shared with the saved combination saved (positions saved_idx)
 * if both have the same own prefix: mirror that write.
 */
static void go_alias(unsigned int *saved, const unsigned int *saved_idx,
		     const unsigned int *cur, const unsigned int *idx,
		     unsigned int k, unsigned int own)
{
	if (memcmp(saved_idx, idx, own * sizeof(*idx)))
		return;
	memcpy(saved + own, cur + own, (k - own) * sizeof(*cur));
}

struct dist {
	struct alloc_ws *ws;
	struct acc *a;
	int num;		/* numCPUs */
	int g;			/* cpuGroupSize */
	unsigned int nn;	/* len(numas) */
	unsigned int *uniq;	/* distinct NUMA nodes of numas[] */
	unsigned int nu;
	double best;
	unsigned int best_k, best_rem_n;
};

/*
 * Hand out remainder CPUs g at a time round-robin over subset[] on the
 * counts in v.  The kubelet loops until done; stop when a round makes no
 * progress instead of spinning forever.
 */
static bool spread_remainder(long *v, const unsigned int *subset,
			     unsigned int n, int remainder, int g)
{
	while (remainder > 0) {
		bool progress = false;

		for (unsigned int i = 0; i < n; i++) {
			if (remainder == 0)
				break;
			if (v[subset[i]] < g)
				continue;
			v[subset[i]] -= g;
			remainder -= g;
			progress = true;
		}
		if (!progress)
			return false;
	}
	return true;
}

/* Score one combination of NUMA nodes; remember it if it is the best. */
static void try_combo(struct dist *d, const unsigned int *combo,
		      unsigned int k)
{
	struct alloc_ws *ws = d->ws;
	struct acc *a = d->a;
	const unsigned int *cnt = a->cnt[TOPO_NUMA];
	long total = 0, groups = 0;
	int distribution, remainder;
	unsigned int nr = 0;
	double local_best = DBL_MAX;
	unsigned int local_rem_n = 0;
	bool saved_this_k;

	memset(ws->mark, 0, a->t->nr[TOPO_NUMA]);
	for (unsigned int i = 0; i < k; i++) {
		if (!ws->mark[combo[i]])
			total += cnt[combo[i]];
		ws->mark[combo[i]] = 1;
		groups += cnt[combo[i]] / (unsigned int)d->g;
	}
	if (total < d->num || groups * d->g < d->num)
		return;
	distribution = (d->num / (int)k / d->g) * d->g;
	for (unsigned int i = 0; i < k; i++)
		if ((int)cnt[combo[i]] < distribution)
			return;

	for (unsigned int i = 0; i < d->nu; i++)
		ws->after[d->uniq[i]] = cnt[d->uniq[i]];
	for (unsigned int i = 0; i < k; i++)
		ws->after[combo[i]] -= distribution;
	remainder = d->num - distribution * (int)k;
	for (unsigned int i = 0; i < k; i++)
		if (ws->after[combo[i]] >= d->g)
			ws->rem_combo[nr++] = combo[i];

	if (remainder == 0)
		local_best = balance(ws->after, d->uniq, d->nu);
	for (unsigned int kk = nr; remainder > 0 && kk >= 1; kk--) {
		unsigned int own = go_own_prefix(kk);

		saved_this_k = false;
		comb_first(ws->sub_idx, kk);
		do {
			long sum = 0;
			double b;

			for (unsigned int i = 0; i < kk; i++) {
				ws->subset[i] = ws->rem_combo[ws->sub_idx[i]];
				sum += ws->after[ws->subset[i]];
			}
			if (saved_this_k)
				go_alias(ws->local_rem, ws->local_rem_idx,
					 ws->subset, ws->sub_idx, kk, own);
			if (sum < remainder)
				continue;
			memcpy(ws->local, ws->after,
			       a->t->nr[TOPO_NUMA] * sizeof(long));
			if (!spread_remainder(ws->local, ws->subset, kk,
					      remainder, d->g))
				continue;
			b = balance(ws->local, d->uniq, d->nu);
			if (b < local_best) {
				local_best = b;
				local_rem_n = kk;
				memcpy(ws->local_rem, ws->subset,
				       kk * sizeof(unsigned int));
				memcpy(ws->local_rem_idx, ws->sub_idx,
				       kk * sizeof(unsigned int));
				saved_this_k = true;
			}
		} while (comb_next(ws->sub_idx, nr, kk));
	}
	if (local_best < d->best) {
		d->best = local_best;
		d->best_k = k;
		d->best_rem_n = local_rem_n;
		memcpy(ws->best_combo, combo, k * sizeof(unsigned int));
		memcpy(ws->best_cidx, ws->cidx, k * sizeof(unsigned int));
		memcpy(ws->best_rem, ws->local_rem,
		       local_rem_n * sizeof(unsigned int));
	}
}

/* The free CPUs of one NUMA node, packed into the inner accumulator. */
static int take_from_numa(struct dist *d, unsigned int numa, int count)
{
	struct alloc_ws *ws = d->ws;
	const struct topo_map *m = &ws->t->cpus_of[TOPO_NUMA];
	struct acc *in = &ws->inner;
	unsigned int n = 0;

	memset(ws->dense, 0, ws->t->nw * 8);
	for (unsigned int k = m->start[numa]; k < m->start[numa + 1]; k++)
		if (bm_test(d->a->free, m->item[k]))
			bm_set(ws->dense, m->item[k]);
	alloc_acc_init(in, ws->dense, count, d->a->spread);
	if (alloc_acc_take_packed(in, false))
		return 0;	/* the kubelet ignores the error here */
	for (unsigned int w = 0; w < ws->t->nw; w++) {
		uint64_t word = in->result[w];

		while (word) {
			in->l_cpu[n++] = w * 64 + __builtin_ctzll(word);
			word &= word - 1;
		}
	}
	alloc_acc_take(d->a, in->l_cpu, n);
	return (int)n;
}

static int allocate_best(struct dist *d, struct cm_error *err)
{
	struct alloc_ws *ws = d->ws;
	struct acc *a = d->a;
	int distribution = (d->num / (int)d->best_k / d->g) * d->g;
	int remainder = d->num - distribution * (int)d->best_k;

	for (unsigned int i = 0; i < d->best_k; i++)
		take_from_numa(d, ws->best_combo[i], distribution);
	while (remainder > 0) {
		bool progress = false;

		for (unsigned int i = 0; i < d->best_rem_n; i++) {
			unsigned int numa = ws->best_rem[i];

			if (remainder == 0)
				break;
			if ((int)a->cnt[TOPO_NUMA][numa] < d->g)
				continue;
			take_from_numa(d, numa, d->g);
			remainder -= d->g;
			progress = true;
		}
		if (!progress)
			break;
	}
	if (a->need > 0)
		return cm_errorf(err, "accounting error, not enough CPUs allocated, remaining: %d",
				 a->need);
	if (a->need < 0)
		return cm_errorf(err, "accounting error, too many CPUs allocated, remaining: %d",
				 a->need);
	return 0;
}

/* rangeNUMANodesNeededToSatisfy() */
static void numa_range(const struct dist *d, unsigned int *min_k,
		       unsigned int *max_k)
{
	const struct topology *t = d->a->t;
	int numas = (int)t->nr[TOPO_NUMA];
	int groups = ((int)t->nr_cpus - 1) / d->g + 1;
	int per_numa = (groups - 1) / numas + 1;
	int needed = (d->a->need - 1) / d->g + 1;

	*min_k = (unsigned int)((needed - 1) / per_numa + 1);
	*max_k = (unsigned int)needed < d->nu ? (unsigned int)needed : d->nu;
}

int alloc_distributed(struct alloc_ws *ws, const uint64_t *avail,
		      unsigned int avail_size, const struct alloc_request *req,
		      struct cm_error *err)
{
	struct dist d = { .ws = ws, .a = &ws->outer, .num = req->num_cpus };
	unsigned int min_k, max_k;

	d.g = req->cpu_group_size > 0 ? req->cpu_group_size : 1;
	if (req->num_cpus % d.g)
		return alloc_packed(ws, avail, avail_size, req, false, err);

	alloc_acc_init(d.a, avail, req->num_cpus, req->spread);
	if (alloc_acc_satisfied(d.a))
		return 0;
	if (alloc_acc_failed(d.a))
		return cm_errorf(err, "not enough cpus available to satisfy request: requested=%d, available=%u",
				 req->num_cpus, avail_size), -ENOSPC;

	d.nn = alloc_acc_sort_numas(d.a, ws->numas);
	/* distinct NUMA nodes, for the balance score (a Go map's keys) */
	memset(ws->mark, 0, ws->t->nr[TOPO_NUMA]);
	d.uniq = ws->idx;
	for (unsigned int i = 0; i < d.nn; i++)
		if (!ws->mark[ws->numas[i]]) {
			ws->mark[ws->numas[i]] = 1;
			d.uniq[d.nu++] = ws->numas[i];
		}
	numa_range(&d, &min_k, &max_k);
	/*
	 * The hint's NUMA count raises the floor (1.37): a request the
	 * hint spread over more nodes than it needs stays spread.  Above
	 * what the request can cover, no combination is tried and it packs,
	 * as before.
	 */
	if (req->min_numas > 0 && (unsigned int)req->min_numas > min_k)
		min_k = (unsigned int)req->min_numas;

	for (unsigned int k = min_k; k <= max_k && k <= d.nn; k++) {
		unsigned int own = go_own_prefix(k);

		d.best = DBL_MAX;
		d.best_k = 0;
		comb_first(ws->cidx, k);
		do {
			for (unsigned int i = 0; i < k; i++)
				ws->combo[i] = ws->numas[ws->cidx[i]];
			/* written before the callback looks at anything */
			if (d.best_k)
				go_alias(ws->best_combo, ws->best_cidx,
					 ws->combo, ws->cidx, k, own);
			if (d.best == 0)
				break;
			try_combo(&d, ws->combo, k);
		} while (comb_next(ws->cidx, d.nn, k));
		if (d.best_k)
			return allocate_best(&d, err);
	}
	/* no balanced combination: pack instead */
	return alloc_packed(ws, avail, avail_size, req, false, err);
}
