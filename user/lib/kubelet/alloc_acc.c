// SPDX-License-Identifier: GPL-2.0
/*
 * The accumulator: state, take(), and the kubelet's sorting of NUMA
 * nodes, sockets, cores, uncore caches and CPUs by free CPUs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"

static unsigned int nr_pairs(const struct topo_map *m)
{
	return m->start[m->nr];
}

/* How many times one core can show up in a sorted core list. */
static unsigned int list_mult(const struct topology *t)
{
	unsigned int m = t->max_socket_numas;

	if (t->max_numa_sockets > m)
		m = t->max_numa_sockets;
	return m ? m : 1;
}

struct ws_layout {
	size_t off;
	char *base;
};

/* Carve n bytes (8-aligned) out of the block, or just count them. */
static void *carve(struct ws_layout *l, size_t n)
{
	void *p = l->base ? l->base + l->off : NULL;

	l->off += (n + 7) & ~(size_t)7;
	return p;
}

static void layout_acc(struct ws_layout *l, const struct topology *t,
		       struct acc *a)
{
	unsigned int mult = list_mult(t);
	size_t nsp = nr_pairs(&t->ns_by_numa), nup = nr_pairs(&t->nu_by_numa);
	size_t cores = (size_t)t->nr[TOPO_CORE] * mult;
	/*
	 * A sorted uncore list repeats a NUMA node's uncore caches once for
	 * every socket the node spans, as the kubelet's append does.
	 */
	size_t uncores = nup * mult;
	size_t big = cores > nsp ? cores : nsp;

	if (uncores > big)
		big = uncores;
	a->t = t;
	a->free = carve(l, t->nw * 8);
	a->result = carve(l, t->nw * 8);
	for (int lv = 0; lv < TOPO_NR_LEVELS; lv++)
		a->cnt[lv] = carve(l, t->nr[lv] * sizeof(unsigned int));
	a->ns_cnt = carve(l, nsp * sizeof(unsigned int));
	a->nu_cnt = carve(l, nup * sizeof(unsigned int));
	a->l_numa = carve(l, nsp * sizeof(unsigned int));
	a->l_socket = carve(l, nsp * sizeof(unsigned int));
	a->l_core = carve(l, cores * sizeof(unsigned int));
	a->l_uncore = carve(l, uncores * sizeof(unsigned int));
	a->l_snap = carve(l, uncores * sizeof(unsigned int));
	a->l_cpu = carve(l, (size_t)t->nr_cpus * mult * sizeof(unsigned int));
	a->tmp = carve(l, big * sizeof(unsigned int));
	a->bucket = carve(l, (t->nr_cpus + 2) * sizeof(unsigned int));
}

static void layout_ws(struct ws_layout *l, const struct topology *t,
		      struct alloc_ws *ws)
{
	size_t nsp = nr_pairs(&t->ns_by_numa);

	layout_acc(l, t, &ws->outer);
	layout_acc(l, t, &ws->inner);
	ws->dense = carve(l, t->nw * 8);
	ws->numas = carve(l, nsp * sizeof(unsigned int));
	ws->combo = carve(l, nsp * sizeof(unsigned int));
	ws->best_combo = carve(l, nsp * sizeof(unsigned int));
	ws->rem_combo = carve(l, nsp * sizeof(unsigned int));
	ws->subset = carve(l, nsp * sizeof(unsigned int));
	ws->best_rem = carve(l, nsp * sizeof(unsigned int));
	ws->local_rem = carve(l, nsp * sizeof(unsigned int));
	ws->cidx = carve(l, nsp * sizeof(unsigned int));
	ws->best_cidx = carve(l, nsp * sizeof(unsigned int));
	ws->local_rem_idx = carve(l, nsp * sizeof(unsigned int));
	ws->idx = carve(l, nsp * sizeof(unsigned int));
	ws->sub_idx = carve(l, nsp * sizeof(unsigned int));
	ws->after = carve(l, t->nr[TOPO_NUMA] * sizeof(long));
	ws->local = carve(l, t->nr[TOPO_NUMA] * sizeof(long));
	ws->mark = carve(l, t->nr[TOPO_NUMA]);
}

size_t alloc_ws_size(const struct topology *t)
{
	struct ws_layout l = { 0, NULL };
	struct alloc_ws ws;

	layout_ws(&l, t, &ws);
	return sizeof(ws) + l.off;
}

struct alloc_ws *alloc_ws_new(const struct topology *t)
{
	size_t size = alloc_ws_size(t);
	struct alloc_ws *ws = calloc(1, size);
	struct ws_layout l = { 0, NULL };

	if (!ws)
		return NULL;
	l.base = (char *)(ws + 1);
	layout_ws(&l, t, ws);
	ws->t = t;
	ws->size = size;
	return ws;
}

void alloc_ws_free(struct alloc_ws *ws)
{
	free(ws);
}

void alloc_acc_dense_from_cpuset(const struct topology *t,
				 const struct cpuset *s, uint64_t *dense)
{
	int cpu;

	memset(dense, 0, t->nw * 8);
	cpuset_for_each(cpu, s) {
		if (cpu > t->max_cpu)
			break;
		if (t->cpu_index[cpu] >= 0)
			bm_set(dense, (unsigned int)t->cpu_index[cpu]);
	}
}

void alloc_acc_result_cpuset(const struct acc *a, struct cpuset *out)
{
	const struct topology *t = a->t;

	cpuset_zero(out);
	for (unsigned int w = 0; w < t->nw; w++) {
		uint64_t word = a->result[w];

		while (word) {
			unsigned int i = w * 64 + __builtin_ctzll(word);

			cpuset_set(out, t->cpu_id[i]);
			word &= word - 1;
		}
	}
}

static void count_cpu(struct acc *a, unsigned int i, int delta)
{
	const struct topology *t = a->t;

	for (int lv = 0; lv < TOPO_NR_LEVELS; lv++)
		a->cnt[lv][t->cpu_group[lv][i]] += delta;
	a->ns_cnt[t->cpu_ns_pair[i]] += delta;
	a->nu_cnt[t->cpu_nu_pair[i]] += delta;
	a->nr_free += delta;
}

void alloc_acc_init(struct acc *a, const uint64_t *avail, int need, bool spread)
{
	const struct topology *t = a->t;

	memcpy(a->free, avail, t->nw * 8);
	memset(a->result, 0, t->nw * 8);
	for (int lv = 0; lv < TOPO_NR_LEVELS; lv++)
		memset(a->cnt[lv], 0, t->nr[lv] * sizeof(unsigned int));
	memset(a->ns_cnt, 0, nr_pairs(&t->ns_by_numa) * sizeof(unsigned int));
	memset(a->nu_cnt, 0, nr_pairs(&t->nu_by_numa) * sizeof(unsigned int));
	a->nr_free = 0;
	for (unsigned int w = 0; w < t->nw; w++) {
		uint64_t word = a->free[w];

		while (word) {
			count_cpu(a, w * 64 + __builtin_ctzll(word), 1);
			word &= word - 1;
		}
	}
	a->need = need;
	a->numa_first = t->nr[TOPO_SOCKET] >= t->nr[TOPO_NUMA];
	a->spread = spread;
}

void alloc_acc_take(struct acc *a, const unsigned int *list, unsigned int n)
{
	for (unsigned int k = 0; k < n; k++) {
		unsigned int i = list[k];

		bm_set(a->result, i);
		if (bm_test(a->free, i)) {
			bm_clear(a->free, i);
			count_cpu(a, i, -1);
		}
	}
	a->need -= (int)n;
}

/*
 * Stable sort of ids (given in ascending id order) by free CPUs: the
 * kubelet's sort(), fewest free first, ties by ascending id.
 */
static void sort_by_free(struct acc *a, unsigned int *ids, unsigned int n,
			 const unsigned int *cnt)
{
	unsigned int max = 0;

	if (n < 2)
		return;
	if (n <= 32) {
		for (unsigned int i = 1; i < n; i++) {
			unsigned int v = ids[i], j = i;

			while (j > 0 && cnt[ids[j - 1]] > cnt[v]) {
				ids[j] = ids[j - 1];
				j--;
			}
			ids[j] = v;
		}
		return;
	}
	for (unsigned int i = 0; i < n; i++)
		if (cnt[ids[i]] > max)
			max = cnt[ids[i]];
	memset(a->bucket, 0, (max + 2) * sizeof(unsigned int));
	for (unsigned int i = 0; i < n; i++)
		a->bucket[cnt[ids[i]] + 1]++;
	for (unsigned int k = 1; k <= max + 1; k++)
		a->bucket[k] += a->bucket[k - 1];
	for (unsigned int i = 0; i < n; i++)
		a->tmp[a->bucket[cnt[ids[i]]]++] = ids[i];
	memcpy(ids, a->tmp, n * sizeof(*ids));
}

/* Groups of one level with a free CPU, sorted. */
static unsigned int sort_level(struct acc *a, enum topo_level lv,
			       unsigned int *out)
{
	unsigned int n = 0;

	for (unsigned int g = 0; g < a->t->nr[lv]; g++)
		if (a->cnt[lv][g])
			out[n++] = g;
	sort_by_free(a, out, n, a->cnt[lv]);
	return n;
}

/*
 * For every parent in parents[], its children (from map m, pair counts
 * pcnt when given, else child counts) with a free CPU, each run sorted by
 * the children's own free CPUs.
 */
static unsigned int expand(struct acc *a, const unsigned int *parents,
			   unsigned int np, const struct topo_map *m,
			   const unsigned int *pair_of, const unsigned int *pcnt,
			   const unsigned int *ccnt, unsigned int *out)
{
	unsigned int n = 0;

	for (unsigned int p = 0; p < np; p++) {
		unsigned int g = parents[p], first = n;

		for (unsigned int k = m->start[g]; k < m->start[g + 1]; k++) {
			unsigned int child = m->item[k];
			unsigned int pair = pair_of ? pair_of[k] : k;

			if (pcnt ? pcnt[pair] : ccnt[child])
				out[n++] = child;
		}
		sort_by_free(a, out + first, n - first, ccnt);
	}
	return n;
}

unsigned int alloc_acc_sort_numas(struct acc *a, unsigned int *out)
{
	const struct topology *t = a->t;
	unsigned int ns;

	if (a->numa_first)
		return sort_level(a, TOPO_NUMA, out);
	ns = sort_level(a, TOPO_SOCKET, a->l_socket);
	return expand(a, a->l_socket, ns, &t->ns_by_socket,
		      t->ns_by_socket_pair, a->ns_cnt, a->cnt[TOPO_NUMA], out);
}

unsigned int alloc_acc_sort_sockets(struct acc *a, unsigned int *out)
{
	const struct topology *t = a->t;
	unsigned int nn;

	if (!a->numa_first)
		return sort_level(a, TOPO_SOCKET, out);
	nn = sort_level(a, TOPO_NUMA, a->l_numa);
	return expand(a, a->l_numa, nn, &t->ns_by_numa, NULL, a->ns_cnt,
		      a->cnt[TOPO_SOCKET], out);
}

unsigned int alloc_acc_sort_cores(struct acc *a, unsigned int *out)
{
	const struct topology *t = a->t;
	unsigned int n;

	if (a->numa_first) {
		n = alloc_acc_sort_sockets(a, a->l_socket);
		return expand(a, a->l_socket, n, &t->cores_of_socket, NULL,
			      NULL, a->cnt[TOPO_CORE], out);
	}
	n = alloc_acc_sort_numas(a, a->l_numa);
	return expand(a, a->l_numa, n, &t->cores_of_numa, NULL, NULL,
		      a->cnt[TOPO_CORE], out);
}

unsigned int alloc_acc_sort_uncores(struct acc *a, unsigned int *out)
{
	const struct topology *t = a->t;
	unsigned int n = alloc_acc_sort_numas(a, a->l_numa);

	return expand(a, a->l_numa, n, &t->nu_by_numa, NULL, a->nu_cnt,
		      a->cnt[TOPO_UNCORE], out);
}

/* Free CPUs of groups[] in group order, ascending CPU inside a group. */
static unsigned int cpus_of(struct acc *a, const unsigned int *groups,
			    unsigned int ng, const struct topo_map *m,
			    unsigned int *out)
{
	unsigned int n = 0;

	for (unsigned int g = 0; g < ng; g++)
		for (unsigned int k = m->start[groups[g]];
		     k < m->start[groups[g] + 1]; k++)
			if (bm_test(a->free, m->item[k]))
				out[n++] = m->item[k];
	return n;
}

/* sortAvailableCPUsPacked() or, for "spread", sortAvailableCPUsSpread() */
unsigned int alloc_acc_sort_cpus(struct acc *a, unsigned int *out)
{
	const struct topology *t = a->t;
	unsigned int n;

	if (a->spread) {
		n = alloc_acc_sort_sockets(a, a->l_socket);
		return cpus_of(a, a->l_socket, n, &t->cpus_of[TOPO_SOCKET],
			       out);
	}
	n = alloc_acc_sort_cores(a, a->l_core);
	return cpus_of(a, a->l_core, n, &t->cpus_of[TOPO_CORE], out);
}
