/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kubelet's cpuAccumulator on dense bitmaps.  Private to alloc*.c.
 *
 * "details" (the CPUs still free) is a bitmap plus free counts per core,
 * socket, NUMA node, uncore cache and (NUMA node, socket|uncore) pair,
 * so every "sort by free CPUs" the kubelet does is a counting or
 * insertion sort over ids that are already in ascending order.
 */
#ifndef CPUMGR_ALLOC_INTERNAL_H
#define CPUMGR_ALLOC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc.h"

struct acc {
	const struct topology *t;
	uint64_t *free;			/* details.CPUs() */
	uint64_t *result;
	int need;			/* numCPUsNeeded */
	unsigned int nr_free;
	unsigned int *cnt[TOPO_NR_LEVELS];
	unsigned int *ns_cnt, *nu_cnt;	/* per (NUMA, socket|uncore) pair */
	bool numa_first;		/* NumSockets >= NumNUMANodes */
	bool spread;

	/* scratch lists, one per level, sized for the worst case */
	unsigned int *l_numa, *l_socket, *l_core, *l_uncore, *l_cpu;
	unsigned int *l_snap;		/* snapshot of a level list */
	unsigned int *tmp, *bucket;
};

struct alloc_ws {
	const struct topology *t;
	struct acc outer, inner;
	uint64_t *dense;		/* scratch dense bitmap */
	/* takeByTopologyNUMADistributed */
	unsigned int *numas, *combo, *best_combo, *rem_combo, *subset;
	unsigned int *best_rem, *local_rem, *idx, *sub_idx, *cidx;
	unsigned int *best_cidx, *local_rem_idx; /* positions of the saved */
	long *after, *local;
	unsigned char *mark;
	size_t size;
};

static inline bool bm_test(const uint64_t *b, unsigned int i)
{
	return (b[i / 64] >> (i % 64)) & 1;
}

static inline void bm_set(uint64_t *b, unsigned int i)
{
	b[i / 64] |= UINT64_C(1) << (i % 64);
}

static inline void bm_clear(uint64_t *b, unsigned int i)
{
	b[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

/* Start an accumulator over the dense set avail. */
void alloc_acc_init(struct acc *a, const uint64_t *avail, int need,
		    bool spread);
/* Dense bitmap of the topology CPUs in s. */
void alloc_acc_dense_from_cpuset(const struct topology *t,
				 const struct cpuset *s, uint64_t *dense);
void alloc_acc_result_cpuset(const struct acc *a, struct cpuset *out);

static inline bool alloc_acc_satisfied(const struct acc *a)
{
	return a->need < 1;
}

static inline bool alloc_acc_failed(const struct acc *a)
{
	return a->need > (int)a->nr_free;
}

/* Claim dense CPUs list[0..n) (the kubelet's take()). */
void alloc_acc_take(struct acc *a, const unsigned int *list, unsigned int n);

/* sortAvailable{NUMANodes,Sockets,Cores,UncoreCaches,CPUs*}() */
unsigned int alloc_acc_sort_numas(struct acc *a, unsigned int *out);
unsigned int alloc_acc_sort_sockets(struct acc *a, unsigned int *out);
unsigned int alloc_acc_sort_cores(struct acc *a, unsigned int *out);
unsigned int alloc_acc_sort_uncores(struct acc *a, unsigned int *out);
unsigned int alloc_acc_sort_cpus(struct acc *a, unsigned int *out);

/* takeByTopologyNUMAPacked on an initialised accumulator. */
int alloc_acc_take_packed(struct acc *a, bool prefer_uncore);

/*
 * takeByTopologyNUMAPacked on the outer accumulator, with the kubelet's
 * error texts (avail_size: the size of the set the caller passed).
 */
int alloc_packed(struct alloc_ws *ws, const uint64_t *avail,
		 unsigned int avail_size, const struct alloc_request *req,
		 bool prefer_uncore, struct cm_error *err);
int alloc_distributed(struct alloc_ws *ws, const uint64_t *avail,
		      unsigned int avail_size, const struct alloc_request *req,
		      struct cm_error *err);

#endif
