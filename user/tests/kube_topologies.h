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
 * "Two threads per core, sibling = cpu + half" layouts: cores first, then
 * their siblings, core = cpu modulo the core count.
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
