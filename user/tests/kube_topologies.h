/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kubelet's named test topologies (pkg/kubelet/cm/cpumanager/
 * policy_test.go), built from the same per-CPU data the kubelet tables
 * spell out, for the ported kubelet test cases.
 */
#ifndef CPUMGR_TESTS_KUBE_TOPOLOGIES_H
#define CPUMGR_TESTS_KUBE_TOPOLOGIES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"
#include "topology.h"

enum kube_topo {
	TOPO_SINGLE_SOCKET_HT,			/* topoSingleSocketHT */
	TOPO_DUAL_SOCKET_HT,			/* topoDualSocketHT */
	TOPO_TRIPLE_SOCKET_HT,			/* topoTripleSocketHT */
	TOPO_DUAL_SOCKET_NO_HT,			/* topoDualSocketNoHT */
	TOPO_DUAL_SOCKET_MULTI_NUMA_HT,		/* topoDualSocketMultiNumaPerSocketHT */
	TOPO_DUAL_SOCKET_MULTI_NUMA_HT_LARGE,	/* ...HTLarge */
	TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA,	/* fakeTopoMultiSocketDualSocketPerNumaHT */
	TOPO_UNCORE_SINGLE_SOCKET_NO_SMT,	/* topoUncoreSingleSocketNoSMT */
	TOPO_UNCORE_DUAL_SOCKET_NO_SMT,		/* topoUncoreDualSocketNoSMT */
	TOPO_UNCORE_SINGLE_SOCKET_MULTI_NUMA,	/* topoUncoreSingleSocketMultiNuma */
	TOPO_UNCORE_SINGLE_SOCKET_SMT,		/* topoUncoreSingleSocketSMT */
	TOPO_QUAD_SOCKET_FOUR_WAY_HT,		/* topoQuadSocketFourWayHT */
	/*
	 * The uncore-cache topologies of TestStaticPolicyAddWithUncoreAlignment,
	 * topo<Name> in the kubelet: DualSocketSingleNumaPerSocketSMTUncore,
	 * SingleSocketSingleNumaPerSocketSMTSmallUncore,
	 * SingleSocketSingleNumaPerSocketNoSMTSmallUncore,
	 * SmallDualSocketSingleNumaPerSocketNoSMTUncore,
	 * LargeSingleSocketSingleNumaPerSocketSMTUncore,
	 * DualSocketMultiNumaPerSocketUncore,
	 * DualSocketSubNumaPerSocketHTMonolithicUncore,
	 * SingleSocketSingleNumaPerSocketPCoreHTMonolithicUncore,
	 * LargeSingleSocketSingleNumaPerSocketUncore and
	 * SingleSocketSingleNumaPerSocketUncore, in this order.
	 */
	TOPO_DUAL_SOCKET_SMT_UNCORE,
	TOPO_SINGLE_SOCKET_SMT_SMALL_UNCORE,
	TOPO_SINGLE_SOCKET_NO_SMT_SMALL_UNCORE,
	TOPO_SMALL_DUAL_SOCKET_NO_SMT_UNCORE,
	TOPO_LARGE_SINGLE_SOCKET_SMT_UNCORE,
	TOPO_DUAL_SOCKET_MULTI_NUMA_UNCORE,
	TOPO_DUAL_SOCKET_SUB_NUMA_HT_MONO_UNCORE,
	TOPO_SINGLE_SOCKET_PCORE_HT_MONO_UNCORE,
	TOPO_LARGE_SINGLE_SOCKET_UNCORE,
	TOPO_SINGLE_SOCKET_UNCORE,
	/* topology.Discover() of returnMachineInfo() (topology_hints_test.go) */
	TOPO_HINTS_MACHINE_INFO,
	/*
	 * Not a kubelet table: the machine of a case the kubelet computed
	 * outside its tests (4 sockets x 2 NUMA nodes x 6 cores, no SMT,
	 * NUMA node ids interleaved across the sockets).
	 */
	TOPO_QUAD_SOCKET_INTERLEAVED_NUMA,
	/*
	 * Not kubelet tables either: machines for the cases that follow
	 * the kubelet's aliased combinations further (no SMT, 8 CPUs per
	 * NUMA node, CPUs numbered node by node).
	 */
	TOPO_TRI_SOCKET_TWELVE_NUMA,		/* node n on socket n % 3 */
	TOPO_FIVE_SOCKET_ELEVEN_NUMA,		/* nodes 0-3 alone, 4-10 on socket 4 */
	TOPO_NR_KUBE,
};

static inline void kube_cpu(struct topo_cpu_info *c, int cpu, int core,
			    int socket, int numa, int uncore)
{
	c->cpu = cpu;
	c->core = core;
	c->socket = socket;
	c->numa = numa;
	c->uncore = uncore;
}

/*
 * topoQuadSocketFourWayHT (from an lstopo of a KNL in SNC4 mode): 18 cores
 * of four threads per socket, socket = NUMA node, irregular CPU numbers.
 * Transcribed core by core, in the kubelet's order: core id, socket and
 * the core's four CPUs.
 */
static const struct {
	int core, socket, cpu[4];
} kube_quad_socket_cores[72] = {
	{  0, 0, {   0, 169, 109, 229 } }, {  1, 0, {  50, 170, 110, 230 } },
	{ 64, 0, {   1,  25,  13,  38 } }, { 65, 0, {   2,  26,  14,  39 } },
	{ 72, 0, {   9,  33,  21,  46 } }, { 73, 0, {  10,  34,  22,  47 } },
	{  8, 0, {  57, 177, 117, 237 } }, {  9, 0, {  58, 178, 118, 238 } },
	{ 24, 0, {  71, 191, 131, 251 } }, { 25, 0, {  72, 192, 132, 252 } },
	{ 32, 0, {  79, 199, 139, 259 } }, { 33, 0, {  80, 200, 140, 260 } },
	{ 40, 0, {  87, 207, 147, 267 } }, { 41, 0, {  88, 208, 148, 268 } },
	{ 48, 0, {  95, 215, 155, 275 } }, { 49, 0, {  96, 216, 156, 276 } },
	{ 56, 0, { 103, 223, 163, 283 } }, { 57, 0, { 104, 224, 164, 284 } },
	{ 66, 1, {   3,  27,  15,  40 } }, { 67, 1, {   4,  28,  16,  41 } },
	{ 74, 1, {  11,  35,  23,  48 } }, { 75, 1, {  12,  36,  24,  49 } },
	{  2, 1, {  51, 171, 111, 231 } }, {  3, 1, {  52, 172, 112, 232 } },
	{ 10, 1, {  59, 179, 119, 239 } }, { 11, 1, {  60, 180, 120, 240 } },
	{ 18, 1, {  65, 185, 125, 245 } }, { 19, 1, {  66, 186, 126, 246 } },
	{ 26, 1, {  73, 193, 133, 253 } }, { 27, 1, {  74, 194, 134, 254 } },
	{ 34, 1, {  81, 201, 141, 261 } }, { 35, 1, {  82, 202, 142, 262 } },
	{ 42, 1, {  89, 209, 149, 269 } }, { 43, 1, {  90, 210, 150, 270 } },
	{ 50, 1, {  97, 217, 157, 277 } }, { 51, 1, {  98, 218, 158, 278 } },
	{ 68, 2, {   5,  29,  17,  42 } }, { 69, 2, {   6,  30,  18,  43 } },
	{  4, 2, {  53, 173, 113, 233 } }, {  5, 2, {  54, 174, 114, 234 } },
	{ 12, 2, {  61, 181, 121, 241 } }, { 13, 2, {  62, 182, 122, 242 } },
	{ 20, 2, {  67, 187, 127, 247 } }, { 21, 2, {  68, 188, 128, 248 } },
	{ 28, 2, {  75, 195, 135, 255 } }, { 29, 2, {  76, 196, 136, 256 } },
	{ 36, 2, {  83, 203, 143, 263 } }, { 37, 2, {  84, 204, 144, 264 } },
	{ 44, 2, {  91, 211, 151, 271 } }, { 45, 2, {  92, 212, 152, 272 } },
	{ 52, 2, {  99, 219, 159, 279 } }, { 53, 2, { 100, 220, 160, 280 } },
	{ 60, 2, { 105, 225, 165, 285 } }, { 61, 2, { 106, 226, 166, 286 } },
	{ 70, 3, {   7,  31,  19,  44 } }, { 71, 3, {   8,  32,  20,  45 } },
	{ 63, 3, {  37, 168, 108, 228 } }, { 62, 3, { 107, 227, 167, 287 } },
	{  6, 3, {  55, 175, 115, 235 } }, {  7, 3, {  56, 176, 116, 236 } },
	{ 14, 3, {  63, 183, 123, 243 } }, { 15, 3, {  64, 184, 124, 244 } },
	{ 22, 3, {  69, 189, 129, 249 } }, { 23, 3, {  70, 190, 130, 250 } },
	{ 30, 3, {  77, 197, 137, 257 } }, { 31, 3, {  78, 198, 138, 258 } },
	{ 38, 3, {  85, 205, 145, 265 } }, { 39, 3, {  86, 206, 146, 266 } },
	{ 46, 3, {  93, 213, 153, 273 } }, { 47, 3, {  94, 214, 154, 274 } },
	{ 54, 3, { 101, 221, 161, 281 } }, { 55, 3, { 102, 222, 162, 282 } },
};

/*
 * The socket CPU lists the kubelet's comment above topoQuadSocketFourWayHT
 * gives (largeTopoSock0CPUSet and largeTopoSock1CPUSet of
 * TestStaticPolicyAdd are these sets); a unit test checks the table
 * against them.
 */
#define KUBE_QUAD_SOCK0 "0-2,9-10,13-14,21-22,25-26,33-34,38-39,46-47,50,"	\
	"57-58,71-72,79-80,87-88,95-96,103-104,109-110,117-118,131-132,"	\
	"139-140,147-148,155-156,163-164,169-170,177-178,191-192,199-200,"	\
	"207-208,215-216,223-224,229-230,237-238,251-252,259-260,267-268,"	\
	"275-276,283-284"
#define KUBE_QUAD_SOCK1 "3-4,11-12,15-16,23-24,27-28,35-36,40-41,48-49,"	\
	"51-52,59-60,65-66,73-74,81-82,89-90,97-98,111-112,119-120,125-126,"	\
	"133-134,141-142,149-150,157-158,171-172,179-180,185-186,193-194,"	\
	"201-202,209-210,217-218,231-232,239-240,245-246,253-254,261-262,"	\
	"269-270,277-278"
#define KUBE_QUAD_SOCK2 "5-6,17-18,29-30,42-43,53-54,61-62,67-68,75-76,"	\
	"83-84,91-92,99-100,105-106,113-114,121-122,127-128,135-136,143-144,"	\
	"151-152,159-160,165-166,173-174,181-182,187-188,195-196,203-204,"	\
	"211-212,219-220,225-226,233-234,241-242,247-248,255-256,263-264,"	\
	"271-272,279-280,285-286"
#define KUBE_QUAD_SOCK3 "7-8,19-20,31-32,37,44-45,55-56,63-64,69-70,77-78,"	\
	"85-86,93-94,101-102,107-108,115-116,123-124,129-130,137-138,"		\
	"145-146,153-154,161-162,167-168,175-176,183-184,189-190,197-198,"	\
	"205-206,213-214,221-222,227-228,235-236,243-244,249-250,257-258,"	\
	"265-266,273-274,281-282,287"

/*
 * The regular layouts are generated: threads of a core are "cpu" and
 * "cpu + cores" (all first threads, then all siblings), core = cpu modulo
 * the core count, and each kubelet table was checked to follow the rule.
 */
static inline unsigned int kube_topo_cpus(enum kube_topo which,
					  struct topo_cpu_info *c)
{
	unsigned int n = 0;
	int i;

	switch (which) {
	case TOPO_SINGLE_SOCKET_HT:
		for (i = 0; i < 8; i++)
			kube_cpu(&c[n++], i, i % 4, 0, 0, 0);
		break;
	case TOPO_DUAL_SOCKET_HT:
		for (i = 0; i < 12; i++)
			kube_cpu(&c[n++], i, i % 6, i % 2, i % 2, 0);
		break;
	case TOPO_TRIPLE_SOCKET_HT:
		/* cores 0-2 on socket 1, 3-5 on socket 0, 6-8 on socket 2 */
		for (i = 0; i < 18; i++) {
			static const int sock[] = { 1, 1, 1, 0, 0, 0, 2, 2, 2 };

			kube_cpu(&c[n++], i, i / 2, sock[i / 2], 0, 0);
		}
		break;
	case TOPO_DUAL_SOCKET_NO_HT:
		for (i = 0; i < 8; i++)
			kube_cpu(&c[n++], i, i, i / 4, i / 4, 0);
		break;
	case TOPO_DUAL_SOCKET_MULTI_NUMA_HT:
		for (i = 0; i < 80; i++)
			kube_cpu(&c[n++], i, i % 40, (i % 40) / 20,
				 (i % 40) / 10, 0);
		break;
	case TOPO_DUAL_SOCKET_MULTI_NUMA_HT_LARGE:
		for (i = 0; i < 256; i++)
			kube_cpu(&c[n++], i, i % 128, (i % 128) / 64,
				 (i % 128) / 16, 0);
		break;
	case TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA:
		for (i = 0; i < 80; i++)
			kube_cpu(&c[n++], i, i % 40, (i % 40) / 10,
				 (i % 40) / 20, 0);
		break;
	case TOPO_UNCORE_SINGLE_SOCKET_NO_SMT:
		for (i = 0; i < 16; i++)
			kube_cpu(&c[n++], i, i, 0, 0, i / 4);
		break;
	case TOPO_UNCORE_DUAL_SOCKET_NO_SMT:
		for (i = 0; i < 16; i++)
			kube_cpu(&c[n++], i, i, i / 8, i / 8, i / 4);
		break;
	case TOPO_UNCORE_SINGLE_SOCKET_MULTI_NUMA:
		for (i = 0; i < 16; i++)
			kube_cpu(&c[n++], i, i, 0, i / 8, i / 4);
		break;
	case TOPO_UNCORE_SINGLE_SOCKET_SMT:
		for (i = 0; i < 16; i++)
			kube_cpu(&c[n++], i, i % 8, 0, 0, (i % 8) / 4);
		break;
	case TOPO_QUAD_SOCKET_FOUR_WAY_HT:
		for (i = 0; i < 72; i++) {
			int s = kube_quad_socket_cores[i].socket;

			for (int k = 0; k < 4; k++)
				kube_cpu(&c[n++], kube_quad_socket_cores[i].cpu[k],
					 kube_quad_socket_cores[i].core, s, s, 0);
		}
		break;
	case TOPO_DUAL_SOCKET_SMT_UNCORE:
		/* 2 x 96 cores, 2 threads, 8 cores per uncore cache */
		for (i = 0; i < 384; i++)
			kube_cpu(&c[n++], i, i % 192, (i % 192) / 96,
				 (i % 192) / 96, (i % 192) / 8);
		break;
	case TOPO_SINGLE_SOCKET_SMT_SMALL_UNCORE:
		/* 64 cores, 2 threads, 4 cores per uncore cache */
		for (i = 0; i < 128; i++)
			kube_cpu(&c[n++], i, i % 64, 0, 0, (i % 64) / 4);
		break;
	case TOPO_SINGLE_SOCKET_NO_SMT_SMALL_UNCORE:
		/*
		 * 64 one-thread cores, 4 per uncore cache.  The kubelet's
		 * table declares NumCPUs 128 for these 64 CPUs (so its
		 * CPUsPerCore() is 2 and CPUsPerUncore() 8); the one case on
		 * it takes whole uncore caches, which that does not change.
		 */
		for (i = 0; i < 64; i++)
			kube_cpu(&c[n++], i, i, 0, 0, i / 4);
		break;
	case TOPO_SMALL_DUAL_SOCKET_NO_SMT_UNCORE:
		/* 2 x 32 one-thread cores, 8 per uncore cache */
		for (i = 0; i < 64; i++)
			kube_cpu(&c[n++], i, i, i / 32, i / 32, i / 8);
		break;
	case TOPO_LARGE_SINGLE_SOCKET_SMT_UNCORE:
		/* 128 cores, 2 threads, 8 cores per uncore cache */
		for (i = 0; i < 256; i++)
			kube_cpu(&c[n++], i, i % 128, 0, 0, (i % 128) / 8);
		break;
	case TOPO_DUAL_SOCKET_MULTI_NUMA_UNCORE:
		/*
		 * 2 x 96 one-thread cores, 2 NUMA nodes per socket, 8 cores
		 * per uncore cache.  The kubelet's table restarts CoreID at 0
		 * on socket 1 (CPU 96 is "core 0" again, CPU 0's core);
		 * core ids are machine-unique here (core = CPU), as the
		 * kubelet's own discovery makes them.  The one case on it is
		 * decided by whole NUMA nodes, where cores play no part.
		 */
		for (i = 0; i < 192; i++)
			kube_cpu(&c[n++], i, i, i / 96, i / 48, i / 8);
		break;
	case TOPO_DUAL_SOCKET_SUB_NUMA_HT_MONO_UNCORE:
		/* 2 x 60 cores, 2 threads, 2 NUMA nodes and 1 L3 per socket */
		for (i = 0; i < 240; i++)
			kube_cpu(&c[n++], i, i % 120, (i % 120) / 60,
				 (i % 120) / 30, (i % 120) / 60);
		break;
	case TOPO_SINGLE_SOCKET_PCORE_HT_MONO_UNCORE:
		/* 8 one-thread E-cores (CPUs 0-7), 8 P-cores (8-15 + 16-23) */
		for (i = 0; i < 24; i++)
			kube_cpu(&c[n++], i, i < 16 ? i : i - 8, 0, 0, 0);
		break;
	case TOPO_LARGE_SINGLE_SOCKET_UNCORE:
		/* 128 one-thread cores, 8 per uncore cache */
		for (i = 0; i < 128; i++)
			kube_cpu(&c[n++], i, i, 0, 0, i / 8);
		break;
	case TOPO_SINGLE_SOCKET_UNCORE:
		/* 64 one-thread cores, one uncore cache */
		for (i = 0; i < 64; i++)
			kube_cpu(&c[n++], i, i, 0, 0, 0);
		break;
	case TOPO_HINTS_MACHINE_INFO:
		/*
		 * cadvisor cores {0,6} {1,7} {2,8} on node/socket 0 and
		 * {3,9} {4,10} {5,11} on node/socket 1, each core named after
		 * its lowest thread, and with no L3 information the uncore
		 * cache id is the socket id, as topology.Discover() does.
		 */
		for (i = 0; i < 12; i++)
			kube_cpu(&c[n++], i, i % 6, (i % 6) / 3, (i % 6) / 3,
				 (i % 6) / 3);
		break;
	case TOPO_QUAD_SOCKET_INTERLEAVED_NUMA:
		/*
		 * CPUs numbered socket by socket, 12 per socket; socket s
		 * holds NUMA node s (its first 6 CPUs) and NUMA node s + 4
		 * (its last 6): nodes 0-3 are the first halves of sockets
		 * 0-3, nodes 4-7 the second halves.  One L3 per socket.
		 */
		for (i = 0; i < 48; i++)
			kube_cpu(&c[n++], i, i, i / 12, i / 12 + 4 * (i % 12 / 6),
				 i / 12);
		break;
	case TOPO_TRI_SOCKET_TWELVE_NUMA:
		for (i = 0; i < 96; i++)
			kube_cpu(&c[n++], i, i, i / 8 % 3, i / 8, i / 8 % 3);
		break;
	case TOPO_FIVE_SOCKET_ELEVEN_NUMA:
		for (i = 0; i < 88; i++)
			kube_cpu(&c[n++], i, i, i / 8 < 4 ? i / 8 : 4, i / 8,
				 i / 8 < 4 ? i / 8 : 4);
		break;
	default:
		break;
	}
	return n;
}

static inline struct topology *kube_topology(enum kube_topo which)
{
	struct topo_cpu_info c[512];
	struct cm_error err = { 0 };
	unsigned int n = kube_topo_cpus(which, c);
	struct topology *t = topology_new(c, n, &err);

	if (!t) {
		fprintf(stderr, "kube topology %d: %s\n", which,
			cm_error_msg(&err));
		abort();
	}
	cm_error_clear(&err);
	return t;
}

static inline struct cpuset cs(const char *list)
{
	struct cm_error err = { 0 };
	struct cpuset s;

	if (cpuset_parse(&s, list, &err)) {
		fprintf(stderr, "bad test cpulist \"%s\": %s\n", list,
			cm_error_msg(&err));
		abort();
	}
	return s;
}

#endif
