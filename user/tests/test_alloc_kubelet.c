// SPDX-License-Identifier: GPL-2.0
/*
 * The kubelet's own allocation tables, ported case by case from
 * pkg/kubelet/cm/cpumanager/cpu_assignment_test.go with the kubelet's
 * expected results:
 *   TestCPUAccumulatorFreeSockets, ...FreeNUMANodes,
 *   ...FreeSocketsAndNUMANodes, ...FreeCores, ...FreeCPUs,
 *   TestCPUAccumulatorTake, commonTakeByTopologyTestCases,
 *   TestTakeByTopologyNUMAPacked,
 *   TestTakeByTopologyWithSpreadPhysicalCPUsPreferredOption (all 8, the
 *   last one on topoQuadSocketFourWayHT),
 *   commonTakeByTopologyExtendedTestCases, TestTakeByTopologyNUMADistributed.
 */
#include <stdbool.h>
#include <string.h>

#include "kselftest_harness.h"

#include "alloc.h"
#include "alloc_internal.h"
#include "kube_topologies.h"
#include "test_util.h"

#define END (-1)

/* ---- accumulator orderings ---- */

enum order_kind { FREE_SOCKETS, FREE_NUMAS, FREE_CORES, FREE_CPUS };

struct order_case {
	const char *desc;
	enum kube_topo topo;
	const char *avail;
	enum order_kind kind;
	bool sorted;		/* the kubelet sorts the result before comparing */
	int expect[16];		/* ids, END-terminated */
};

static const struct order_case order_cases[] = {
	/* TestCPUAccumulatorFreeSockets */
	{ "single socket HT, 1 socket free", TOPO_SINGLE_SOCKET_HT, "0-7", FREE_SOCKETS, true, { 0, END } },
	{ "single socket HT, 0 sockets free", TOPO_SINGLE_SOCKET_HT, "1-7", FREE_SOCKETS, true, { END } },
	{ "dual socket HT, 2 sockets free", TOPO_DUAL_SOCKET_HT, "0-11", FREE_SOCKETS, true, { 0, 1, END } },
	{ "dual socket HT, 1 socket free", TOPO_DUAL_SOCKET_HT, "0-9,11", FREE_SOCKETS, true, { 1, END } },
	{ "dual socket HT, 0 sockets free", TOPO_DUAL_SOCKET_HT, "0,2-9,11", FREE_SOCKETS, true, { END } },
	{ "dual socket, multi numa per socket, HT, 2 sockets free", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", FREE_SOCKETS, true, { 0, 1, END } },
	{ "dual socket, multi numa per socket, HT, 1 sockets free", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-79", FREE_SOCKETS, true, { 1, END } },
	{ "dual socket, multi numa per socket, HT, 0 sockets free", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-78", FREE_SOCKETS, true, { END } },
	{ "dual numa, multi socket per per socket, HT, 4 sockets free", TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA, "0-79", FREE_SOCKETS, true, { 0, 1, 2, 3, END } },
	{ "dual numa, multi socket per per socket, HT, 3 sockets free", TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA, "0-19,21-79", FREE_SOCKETS, true, { 0, 1, 3, END } },
	{ "dual numa, multi socket per per socket, HT, 2 sockets free", TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA, "0-59,61-78", FREE_SOCKETS, true, { 0, 1, END } },
	{ "dual numa, multi socket per per socket, HT, 1 sockets free", TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA, "1-19,21-38,41-60,61-78", FREE_SOCKETS, true, { 1, END } },
	{ "dual numa, multi socket per per socket, HT, 0 sockets free", TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA, "0-40,42-49,51-68,71-79", FREE_SOCKETS, true, { END } },
	/* TestCPUAccumulatorFreeNUMANodes */
	{ "single socket HT, 1 NUMA node free", TOPO_SINGLE_SOCKET_HT, "0-7", FREE_NUMAS, false, { 0, END } },
	{ "single socket HT, 0 NUMA Node free", TOPO_SINGLE_SOCKET_HT, "1-7", FREE_NUMAS, false, { END } },
	{ "dual socket HT, 2 NUMA Node free", TOPO_DUAL_SOCKET_HT, "0-11", FREE_NUMAS, false, { 0, 1, END } },
	{ "dual socket HT, 1 NUMA Node free", TOPO_DUAL_SOCKET_HT, "0-9,11", FREE_NUMAS, false, { 1, END } },
	{ "dual socket HT, 0 NUMA node free", TOPO_DUAL_SOCKET_HT, "0,2-9,11", FREE_NUMAS, false, { END } },
	{ "dual socket, multi numa per socket, HT, 4 NUMA Node free", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", FREE_NUMAS, false, { 0, 1, 2, 3, END } },
	{ "dual socket, multi numa per socket, HT, 3 NUMA node free", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-79", FREE_NUMAS, false, { 1, 2, 3, END } },
	{ "dual socket, multi numa per socket, HT, 2 NUMA node free", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-9,11-79", FREE_NUMAS, false, { 2, 3, END } },
	{ "dual socket, multi numa per socket, HT, 1 NUMA node free", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-9,11-59,61-79", FREE_NUMAS, false, { 3, END } },
	{ "dual socket, multi numa per socket, HT, 0 NUMA node free", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-9,11-59,61-78", FREE_NUMAS, false, { END } },
	{ "dual numa, multi socket per per socket, HT, 2 NUMA node free", TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA, "0-79", FREE_NUMAS, false, { 0, 1, END } },
	{ "dual numa, multi socket per per socket, HT, 1 NUMA node free", TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA, "0-9,11-79", FREE_NUMAS, false, { 1, END } },
	{ "dual numa, multi socket per per socket, HT, 0 sockets free", TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA, "0-9,11-59,61-79", FREE_NUMAS, false, { END } },
	/* TestCPUAccumulatorFreeSocketsAndNUMANodes */
	{ "2 Socket/4 NUMA Node free: NUMA", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", FREE_NUMAS, false, { 0, 1, 2, 3, END } },
	{ "2 Socket/4 NUMA Node free: sockets", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", FREE_SOCKETS, false, { 0, 1, END } },
	{ "1 Socket/3 NUMA node free: NUMA", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-79", FREE_NUMAS, false, { 1, 2, 3, END } },
	{ "1 Socket/3 NUMA node free: sockets", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-79", FREE_SOCKETS, false, { 1, END } },
	{ "1 Socket/ 2 NUMA node free: NUMA", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-9,11-79", FREE_NUMAS, false, { 2, 3, END } },
	{ "1 Socket/ 2 NUMA node free: sockets", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-9,11-79", FREE_SOCKETS, false, { 1, END } },
	{ "0 Socket/ 2 NUMA node free: NUMA", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-59,61-79", FREE_NUMAS, false, { 1, 3, END } },
	{ "0 Socket/ 2 NUMA node free: sockets", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-59,61-79", FREE_SOCKETS, false, { END } },
	/* TestCPUAccumulatorFreeCores */
	{ "single socket HT, 4 cores free", TOPO_SINGLE_SOCKET_HT, "0-7", FREE_CORES, false, { 0, 1, 2, 3, END } },
	{ "single socket HT, 3 cores free", TOPO_SINGLE_SOCKET_HT, "0-2,4-6", FREE_CORES, false, { 0, 1, 2, END } },
	{ "single socket HT, 3 cores free (1 partially consumed)", TOPO_SINGLE_SOCKET_HT, "0-6", FREE_CORES, false, { 0, 1, 2, END } },
	{ "single socket HT, 0 cores free", TOPO_SINGLE_SOCKET_HT, "", FREE_CORES, false, { END } },
	{ "single socket HT, 0 cores free (4 partially consumed)", TOPO_SINGLE_SOCKET_HT, "0-3", FREE_CORES, false, { END } },
	{ "dual socket HT, 6 cores free", TOPO_DUAL_SOCKET_HT, "0-11", FREE_CORES, false, { 0, 2, 4, 1, 3, 5, END } },
	{ "dual socket HT, 5 cores free (1 consumed from socket 0)", TOPO_DUAL_SOCKET_HT, "1-5,7-11", FREE_CORES, false, { 2, 4, 1, 3, 5, END } },
	{ "dual socket HT, 4 cores free (1 consumed from each socket)", TOPO_DUAL_SOCKET_HT, "2-5,8-11", FREE_CORES, false, { 2, 4, 3, 5, END } },
	/* TestCPUAccumulatorFreeCPUs */
	{ "single socket HT, 8 cpus free", TOPO_SINGLE_SOCKET_HT, "0-7", FREE_CPUS, false, { 0, 4, 1, 5, 2, 6, 3, 7, END } },
	{ "single socket HT, 5 cpus free", TOPO_SINGLE_SOCKET_HT, "3-7", FREE_CPUS, false, { 4, 5, 6, 3, 7, END } },
	{ "dual socket HT, 12 cpus free", TOPO_DUAL_SOCKET_HT, "0-11", FREE_CPUS, false, { 0, 6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11, END } },
	{ "dual socket HT, 11 cpus free", TOPO_DUAL_SOCKET_HT, "1-11", FREE_CPUS, false, { 6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11, END } },
	{ "dual socket HT, 10 cpus free", TOPO_DUAL_SOCKET_HT, "1-5,7-11", FREE_CPUS, false, { 2, 8, 4, 10, 1, 7, 3, 9, 5, 11, END } },
	{ "triple socket HT, 12 cpus free", TOPO_TRIPLE_SOCKET_HT, "0-3,6-13", FREE_CPUS, false, { 12, 13, 0, 1, 2, 3, 6, 7, 8, 9, 10, 11, END } },
};

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* freeSockets() etc.: the sorted list, filtered by "fully free". */
static unsigned int free_list(struct alloc_ws *ws, const struct topology *t,
			      enum order_kind kind, int *out)
{
	struct acc *a = &ws->outer;
	unsigned int n = 0, k;
	unsigned int *l = a->l_cpu;

	switch (kind) {
	case FREE_SOCKETS:
		k = alloc_acc_sort_sockets(a, l);
		for (unsigned int i = 0; i < k; i++)
			if ((int)a->cnt[TOPO_SOCKET][l[i]] ==
			    topology_cpus_per(t, TOPO_SOCKET))
				out[n++] = t->id[TOPO_SOCKET][l[i]];
		break;
	case FREE_NUMAS:
		k = alloc_acc_sort_numas(a, l);
		for (unsigned int i = 0; i < k; i++)
			if (a->cnt[TOPO_NUMA][l[i]] ==
			    t->cpus_of[TOPO_NUMA].start[l[i] + 1] -
			    t->cpus_of[TOPO_NUMA].start[l[i]])
				out[n++] = t->id[TOPO_NUMA][l[i]];
		break;
	case FREE_CORES:
		k = alloc_acc_sort_cores(a, l);
		for (unsigned int i = 0; i < k; i++)
			if ((int)a->cnt[TOPO_CORE][l[i]] ==
			    topology_cpus_per(t, TOPO_CORE))
				out[n++] = t->id[TOPO_CORE][l[i]];
		break;
	case FREE_CPUS:
		k = alloc_acc_sort_cpus(a, l);
		for (unsigned int i = 0; i < k; i++)
			out[n++] = t->cpu_id[l[i]];
		break;
	}
	return n;
}

TEST(accumulator_orderings)
{
	for (size_t i = 0; i < ARRAY_SIZE(order_cases); i++) {
		const struct order_case *tc = &order_cases[i];
		struct topology *t = kube_topology(tc->topo);
		struct alloc_ws *ws = alloc_ws_new(t);
		struct cpuset avail = cs(tc->avail);
		int got[512];
		unsigned int n, ne = 0;

		alloc_acc_dense_from_cpuset(t, &avail, ws->dense);
		alloc_acc_init(&ws->outer, ws->dense, 0, false);
		n = free_list(ws, t, tc->kind, got);
		if (tc->sorted)
			qsort(got, n, sizeof(int), cmp_int);
		while (tc->expect[ne] != END)
			ne++;
		CHECK(ne == n, "%s: length %u, want %u", tc->desc, n, ne);
		for (unsigned int k = 0; k < n && k < ne; k++) {
			CHECK(tc->expect[k] == got[k], "%s: position %u: %d, want %d",
			      tc->desc, k, got[k], tc->expect[k]);
		}
		alloc_ws_free(ws);
		topology_free(t);
	}
}

/* TestCPUAccumulatorTake */
TEST(accumulator_take)
{
	static const struct {
		const char *desc, *avail, *takes[8];
		int num;
		bool satisfied, failed;
	} cases[] = {
		{ "take 0 cpus from a single socket HT, require 1", "0-7", { "" }, 1, false, false },
		{ "take 0 cpus from a single socket HT, require 1, none available", "", { "" }, 1, false, true },
		{ "take 1 cpu from a single socket HT, require 1", "0-7", { "0" }, 1, true, false },
		{ "take 1 cpu from a single socket HT, require 2", "0-7", { "0" }, 2, false, false },
		{ "take 2 cpu from a single socket HT, require 4, expect failed", "0-2", { "0", "1" }, 4, false, true },
		{ "take all cpus one at a time from a single socket HT, require 8", "0-7",
		  { "0", "1", "2", "3", "4", "5", "6", "7" }, 8, true, false },
	};
	struct topology *t = kube_topology(TOPO_SINGLE_SOCKET_HT);
	struct alloc_ws *ws = alloc_ws_new(t);

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cpuset avail = cs(cases[i].avail);
		struct acc *a = &ws->outer;
		int taken = 0;

		alloc_acc_dense_from_cpuset(t, &avail, ws->dense);
		alloc_acc_init(a, ws->dense, cases[i].num, false);
		for (int k = 0; k < 8 && cases[i].takes[k]; k++) {
			struct cpuset s = cs(cases[i].takes[k]);
			unsigned int list[8], n = 0;
			int cpu;

			cpuset_for_each(cpu, &s)
				list[n++] = (unsigned int)t->cpu_index[cpu];
			alloc_acc_take(a, list, n);
			taken += (int)n;
			for (unsigned int j = 0; j < n; j++) {
				EXPECT_FALSE(bm_test(a->free, list[j]));
				EXPECT_TRUE(bm_test(a->result, list[j]));
			}
		}
		CHECK(cases[i].satisfied == alloc_acc_satisfied(a), "%s: satisfied",
		      cases[i].desc);
		CHECK(cases[i].failed == alloc_acc_failed(a), "%s: failed",
		      cases[i].desc);
		CHECK(cases[i].num - taken == a->need, "%s: need %d",
		      cases[i].desc, a->need);
	}
	alloc_ws_free(ws);
	topology_free(t);
}

/* ---- takeByTopology ---- */

struct take_case {
	const char *desc;
	enum kube_topo topo;
	const char *avail;
	int num;
	int group;		/* cpuGroupSize for the distributed tables */
	bool spread, uncore;
	const char *err;	/* NULL: success */
	const char *expect;
};

/* commonTakeByTopologyTestCases */
#define COMMON_CASES							\
	{ "take more cpus than are available from single socket with HT", TOPO_SINGLE_SOCKET_HT, "0,2,4,6", 5, 1, false, false, "not enough cpus available to satisfy request: requested=5, available=4", "" }, \
	{ "take zero cpus from single socket with HT", TOPO_SINGLE_SOCKET_HT, "0-7", 0, 1, false, false, NULL, "" }, \
	{ "take one cpu from single socket with HT", TOPO_SINGLE_SOCKET_HT, "0-7", 1, 1, false, false, NULL, "0" }, \
	{ "take one cpu from single socket with HT, some cpus are taken", TOPO_SINGLE_SOCKET_HT, "1,3,5-7", 1, 1, false, false, NULL, "6" }, \
	{ "take two cpus from single socket with HT", TOPO_SINGLE_SOCKET_HT, "0-7", 2, 1, false, false, NULL, "0,4" }, \
	{ "take all cpus from single socket with HT", TOPO_SINGLE_SOCKET_HT, "0-7", 8, 1, false, false, NULL, "0-7" }, \
	{ "take two cpus from single socket with HT, only one core totally free", TOPO_SINGLE_SOCKET_HT, "0-3,6", 2, 1, false, false, NULL, "2,6" }, \
	{ "take a socket of cpus from dual socket with HT", TOPO_DUAL_SOCKET_HT, "0-11", 6, 1, false, false, NULL, "0,2,4,6,8,10" }, \
	{ "take a socket of cpus from dual socket with multi-numa-per-socket with HT", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 40, 1, false, false, NULL, "0-19,40-59" }, \
	{ "take a NUMA node of cpus from dual socket with multi-numa-per-socket with HT", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 20, 1, false, false, NULL, "0-9,40-49" }, \
	{ "take a NUMA node of cpus from dual socket with multi-numa-per-socket with HT, with 1 NUMA node already taken", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "10-39,50-79", 20, 1, false, false, NULL, "10-19,50-59" }, \
	{ "take a socket and a NUMA node of cpus from dual socket with multi-numa-per-socket with HT", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 60, 1, false, false, NULL, "0-29,40-69" }, \
	{ "take a socket and a NUMA node of cpus from dual socket with multi-numa-per-socket with HT, a core taken", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-39,41-79", 60, 1, false, false, NULL, "10-39,50-79" }

static const struct take_case packed_cases[] = {
	COMMON_CASES,
	/* TestTakeByTopologyNUMAPacked */
	{ "take one cpu from dual socket with HT - core from Socket 0", TOPO_DUAL_SOCKET_HT, "1-5,7-11", 1, 1, false, false, NULL, "2" },
	{ "allocate 4 full cores with 3 coming from the first NUMA node (filling it up) and 1 coming from the second NUMA node", TOPO_DUAL_SOCKET_HT, "0-11", 8, 1, false, false, NULL, "0,6,2,8,4,10,1,7" },
	{ "allocate 32 full cores with 30 coming from the first 3 NUMA nodes (filling them up) and 2 coming from the fourth NUMA node", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 64, 1, false, false, NULL, "0-29,40-69,30,31,70,71" },
	{ "take cpus from two full UncoreCaches and partial from a single UncoreCache", TOPO_UNCORE_SINGLE_SOCKET_NO_SMT, "1-15", 10, 1, false, true, NULL, "1,2,4-11" },
	{ "take one cpu from dual socket with HT - core from Socket 0 (uncore)", TOPO_DUAL_SOCKET_HT, "1-5,7-11", 1, 1, false, true, NULL, "1" },
	{ "take first available UncoreCache from first socket", TOPO_UNCORE_DUAL_SOCKET_NO_SMT, "0-15", 4, 1, false, true, NULL, "0-3" },
	{ "take all available UncoreCache from first socket", TOPO_UNCORE_DUAL_SOCKET_NO_SMT, "2-15", 6, 1, false, true, NULL, "2-7" },
	{ "take first available UncoreCache from second socket", TOPO_UNCORE_DUAL_SOCKET_NO_SMT, "8-15", 4, 1, false, true, NULL, "8-11" },
	{ "take first available UncoreCache from available NUMA", TOPO_UNCORE_SINGLE_SOCKET_MULTI_NUMA, "3,4-8,12", 2, 1, false, true, NULL, "4,5" },
	{ "take cpus from best available UncoreCache group of multi uncore cache single socket - SMT enabled", TOPO_UNCORE_SINGLE_SOCKET_SMT, "2-3,10-11,4-7,12-15", 6, 1, false, true, NULL, "4-6,12-14" },
	{ "take cpus from multiple UncoreCache of single socket - SMT enabled", TOPO_UNCORE_SINGLE_SOCKET_SMT, "1-7,9-15", 10, 1, false, true, NULL, "4-7,12-15,1,9" },
	/* TestTakeByTopologyWithSpreadPhysicalCPUsPreferredOption */
	{ "take a socket of cpus from single socket with HT, 3 cpus", TOPO_SINGLE_SOCKET_HT, "0-7", 3, 1, true, false, NULL, "0-2" },
	{ "take a socket of cpus from dual socket with HT, 2 cpus", TOPO_DUAL_SOCKET_HT, "0-11", 2, 1, true, false, NULL, "0,2" },
	{ "take a socket of cpus from dual socket with HT, 3 cpus", TOPO_DUAL_SOCKET_HT, "0-11", 3, 1, true, false, NULL, "0,2,4" },
	{ "take a socket of cpus from dual socket with HT, 6 cpus", TOPO_DUAL_SOCKET_HT, "0-11", 6, 1, true, false, NULL, "0,2,4,6,8,10" },
	{ "take cpus from dual socket with HT, 8 cpus", TOPO_DUAL_SOCKET_HT, "0-11", 8, 1, true, false, NULL, "0,2,4,6,8,10,1,3" },
	{ "take a socket of cpus from dual socket without HT, 2 cpus", TOPO_DUAL_SOCKET_NO_HT, "0-7", 2, 1, true, false, NULL, "0,1" },
	{ "take a socket of cpus from dual socket with multi numa per socket and HT, 12 cpus", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 8, 1, true, false, NULL, "0-7" },
	{ "take a socket of cpus from quad socket four way with HT, 12 cpus", TOPO_QUAD_SOCKET_FOUR_WAY_HT, "0-287", 12, 1, true, false, NULL, "0-2,9-10,13-14,21-22,25-26,33" },
};

static const struct take_case distributed_cases[] = {
	COMMON_CASES,
	/* commonTakeByTopologyExtendedTestCases */
	{ "allocate 4 full cores with 2 distributed across each NUMA node", TOPO_DUAL_SOCKET_HT, "0-11", 8, 1, false, false, NULL, "0,6,2,8,1,7,3,9" },
	{ "allocate 32 full cores with 8 distributed across each NUMA node", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 64, 1, false, false, NULL, "0-7,10-17,20-27,30-37,40-47,50-57,60-67,70-77" },
	{ "allocate 24 full cores with 8 distributed across the first 3 NUMA nodes", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 48, 1, false, false, NULL, "0-7,10-17,20-27,40-47,50-57,60-67" },
	{ "allocate 24 full cores with 8 distributed across the first 3 NUMA nodes (taking all but 2 from the first NUMA node)", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "1-29,32-39,41-69,72-79", 48, 1, false, false, NULL, "1-8,10-17,20-27,41-48,50-57,60-67" },
	{ "allocate 24 full cores with 8 distributed across the last 3 NUMA nodes (even though all 8 could be allocated from the first NUMA node)", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "2-29,31-39,42-69,71-79", 48, 1, false, false, NULL, "10-17,20-27,31-38,50-57,60-67,71-78" },
	{ "allocate 8 full cores with 2 distributed across each NUMA node", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-2,10-12,20-22,30-32,40-41,50-51,60-61,70-71", 16, 1, false, false, NULL, "0-1,10-11,20-21,30-31,40-41,50-51,60-61,70-71" },
	/* TestTakeByTopologyNUMADistributed */
	{ "take one cpu from dual socket with HT - core from Socket 0", TOPO_DUAL_SOCKET_HT, "1-5,7-11", 1, 1, false, false, NULL, "1" },
	{ "take one cpu from dual socket with HT - core from Socket 0 - cpuGroupSize 2", TOPO_DUAL_SOCKET_HT, "1-5,7-11", 1, 2, false, false, NULL, "2" },
	{ "allocate 13 full cores distributed across the first 2 NUMA nodes", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 26, 1, false, false, NULL, "0-6,10-16,40-45,50-55" },
	{ "allocate 13 full cores distributed across the first 2 NUMA nodes (cpuGroupSize 2)", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 26, 2, false, false, NULL, "0-6,10-15,40-46,50-55" },
	{ "allocate 31 full cores with 15 CPUs distributed across each NUMA node and 1 CPU spilling over to each of NUMA 0, 1", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 62, 1, false, false, NULL, "0-7,10-17,20-27,30-37,40-47,50-57,60-66,70-76" },
	{ "allocate 31 full cores with 14 CPUs distributed across each NUMA node and 2 CPUs spilling over to each of NUMA 0, 1, 2 (cpuGroupSize 2)", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 62, 2, false, false, NULL, "0-7,10-17,20-27,30-36,40-47,50-57,60-67,70-76" },
	{ "allocate 31 full cores with 15 CPUs distributed across each NUMA node and 1 CPU spilling over to each of NUMA 2, 3 (to keep balance)", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-8,10-18,20-39,40-48,50-58,60-79", 62, 1, false, false, NULL, "0-7,10-17,20-27,30-37,40-46,50-56,60-67,70-77" },
	{ "allocate 31 full cores with 14 CPUs distributed across each NUMA node and 2 CPUs spilling over to each of NUMA 0, 2, 3 (to keep balance with cpuGroupSize 2)", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-8,10-18,20-39,40-48,50-58,60-79", 62, 2, false, false, NULL, "0-7,10-16,20-27,30-37,40-47,50-56,60-67,70-77" },
	{ "ensure bestRemainder chosen with NUMA nodes that have enough CPUs to satisfy the request", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, "0-3,10-13,20-23,30-36,40-43,50-53,60-63,70-76", 34, 1, false, false, NULL, "0-3,10-13,20-23,30-34,40-43,50-53,60-63,70-74" },
	{ "ensure previous failure encountered on live machine has been fixed (1/1)", TOPO_DUAL_SOCKET_MULTI_NUMA_HT_LARGE, "0,128,30,31,158,159,43-47,171-175,62,63,190,191,75-79,203-207,94,96,222,223,101-111,229-239,126,127,254,255", 28, 1, false, false, NULL, "43-47,75-79,96,101-105,171-174,203-206,229-232" },
	/*
	 * Computed by the kubelet, not in its tables.  Every 4-node
	 * combination balances equally, so the first one (NUMA order
	 * 0, 4, 1, 5, 2, 6, 3, 7) wins, but the kubelet's saved combo
	 * shares its 4th slot with the combos enumerated after it: the
	 * even distribution comes from nodes 0, 4, 1 and 7, the remainder
	 * from 0, 4, 1.
	 */
	{ "19 CPUs over 4 of 8 interleaved NUMA nodes: the saved combo's last slot aliased", TOPO_QUAD_SOCKET_INTERLEAVED_NUMA, "0-47", 19, 1, false, false, NULL, "0-4,6-10,12-16,42-45" },
	/*
	 * Derived by hand from the kubelet's code, not run through it.
	 * NUMA order 5, 2, 8, 10, 1, 7, 9, 3, 0, 6; the one feasible 6-node
	 * combination 2, 8, 1, 7, 0, 6 gets 5 CPUs each; the remainder of 5
	 * balances best over 2, 8, 1, 7 (first of the ties), a 4-element
	 * subset whose last slot the later subsets 2, 8, 1, 0 and 2, 8, 1, 6
	 * overwrite: the remainder comes from 2, 8, 1, 6, 8.
	 */
	{ "35 CPUs over 6 NUMA nodes: the saved remainder subset's last slot aliased", TOPO_TRI_SOCKET_TWELVE_NUMA, "0-1,3-5,7-14,16,18-21,23,25,27,29-30,44,48-53,56-71,73,78-80", 35, 1, false, false, NULL, "0-1,3-5,8-13,16,18-21,23,48-53,56-60,64-70" },
	/*
	 * Derived by hand as well.  No 3 nodes can take 8 CPUs each; nodes
	 * 0-3 taking 6 each leaves one free CPU on every node (balance 0),
	 * and the next combination, 0, 1, 2, 4, breaks the loop after
	 * writing node 4 into the saved one's last slot: the kubelet asks
	 * node 4 (one free CPU) for 6, gets nothing and fails.
	 */
	{ "24 CPUs, balance 0 found: the combination that breaks the loop still overwrites the saved one", TOPO_FIVE_SOCKET_ELEVEN_NUMA, "0-6,8-14,16-22,24-30,32,40,48,56,64,72,80", 24, 1, false, false, "accounting error, not enough CPUs allocated, remaining: 6", "" },
};

static void run_take_cases(struct __test_metadata *_metadata,
			   const struct take_case *cases, size_t n,
			   bool distributed)
{
	for (size_t i = 0; i < n; i++) {
		const struct take_case *tc = &cases[i];
		struct topology *t = kube_topology(tc->topo);
		struct alloc_request req = {
			.num_cpus = tc->num, .distribute_numa = distributed,
			.cpu_group_size = tc->group, .spread = tc->spread,
			.prefer_uncore = tc->uncore,
		};
		struct cpuset avail = cs(tc->avail), got, want = cs(tc->expect);
		struct cm_error err = { 0 };
		int ret = alloc_take(t, NULL, &avail, &req, &got, &err);

		if (tc->err) {
			CHECK(ret != 0, "%s: no error", tc->desc);
			CHECK(!strcmp(tc->err, cm_error_msg(&err)),
			      "%s: error \"%s\"", tc->desc, cm_error_msg(&err));
		} else {
			char *g = cpuset_to_str(&got);

			CHECK(ret == 0, "%s: %s", tc->desc, cm_error_msg(&err));
			CHECK(cpuset_equal(&want, &got), "%s: got %s, want %s",
			      tc->desc, g, tc->expect);
			free(g);
		}
		cm_error_clear(&err);
		topology_free(t);
	}
}

/*
 * topoQuadSocketFourWayHT as transcribed: 288 CPUs, 72 cores of 4 threads,
 * and per socket exactly the CPUs the kubelet's comment lists.
 */
TEST(quad_socket_four_way_ht_topology)
{
	static const char *const sockets[] = {
		KUBE_QUAD_SOCK0, KUBE_QUAD_SOCK1, KUBE_QUAD_SOCK2,
		KUBE_QUAD_SOCK3,
	};
	struct topology *t = kube_topology(TOPO_QUAD_SOCKET_FOUR_WAY_HT);
	struct cpuset got, want = cs("0-287");

	EXPECT_EQ(288u, t->nr_cpus);
	EXPECT_EQ(72u, t->nr[TOPO_CORE]);
	EXPECT_EQ(4u, t->nr[TOPO_SOCKET]);
	EXPECT_EQ(4u, t->nr[TOPO_NUMA]);
	EXPECT_EQ(4, topology_cpus_per(t, TOPO_CORE));
	EXPECT_TRUE(cpuset_equal(&want, &t->cpus));
	for (int s = 0; s < 4; s++) {
		want = cs(sockets[s]);
		topology_cpus_in(t, TOPO_SOCKET, s, &got);
		CHECK(cpuset_equal(&want, &got), "socket %d", s);
		topology_cpus_in(t, TOPO_NUMA, s, &got);
		CHECK(cpuset_equal(&want, &got), "NUMA node %d", s);
	}
	topology_free(t);
}

TEST(take_by_topology_numa_packed)
{
	run_take_cases(_metadata, packed_cases, ARRAY_SIZE(packed_cases),
		       false);
}

TEST(take_by_topology_numa_distributed)
{
	run_take_cases(_metadata, distributed_cases,
		       ARRAY_SIZE(distributed_cases), true);
}

TEST_HARNESS_MAIN
