/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU topology model: per CPU its machine-unique physical core id,
 * socket, NUMA node and uncore (L3) cache id, as the kubelet's
 * topology.CPUDetails holds them, plus the derived maps the allocator
 * needs, precomputed once so a decision never rebuilds them.
 *
 * CPUs, cores, sockets, NUMA nodes and uncore caches get dense indices
 * in ascending order of their ids, so "lower index" always means "lower
 * id", which is the kubelet's tie-break.
 */
#ifndef CPUMGR_TOPOLOGY_H
#define CPUMGR_TOPOLOGY_H

#include <stdbool.h>

#include "cpuset.h"
#include "error.h"

/* One CPU as a loader reports it. */
struct topo_cpu_info {
	int cpu;
	int core;	/* machine-unique physical core id */
	int socket;
	int numa;
	int uncore;	/* L3 cache id */
};

enum topo_level {
	TOPO_CORE, TOPO_SOCKET,
	TOPO_NUMA, TOPO_UNCORE,
	TOPO_NR_LEVELS,
};

/* Groups of dense indices: group g holds item[start[g] .. start[g+1]). */
struct topo_map {
	unsigned int nr;
	unsigned int *start;
	unsigned int *item;
};

struct topology {
	/* The kubelet's NumCPUs, NumCores, NumSockets, ... */
	unsigned int nr_cpus;
	unsigned int nr[TOPO_NR_LEVELS];
	struct cpuset cpus;		/* every CPU of the topology */
	int max_cpu;

	unsigned int nw;		/* words of a dense CPU bitmap */
	int *cpu_id;			/* dense CPU -> CPU number */
	int *cpu_index;			/* CPU number -> dense CPU or -1 */
	unsigned int *cpu_group[TOPO_NR_LEVELS]; /* dense CPU -> group */
	int *id[TOPO_NR_LEVELS];	/* dense group -> id */
	struct topo_map cpus_of[TOPO_NR_LEVELS]; /* group -> dense CPUs */

	unsigned int *core_group[TOPO_NR_LEVELS]; /* core -> its group */
	struct topo_map cores_of_socket, cores_of_numa, cores_of_uncore;
	unsigned int max_core_cpus;

	/*
	 * (NUMA node, socket) and (NUMA node, uncore) pairs that hold CPUs.
	 * A pair's index is its position in *_by_numa.item; the by-socket
	 * view lists the NUMA nodes and, in ns_by_socket_pair, the pairs.
	 */
	struct topo_map ns_by_numa, ns_by_socket, nu_by_numa;
	unsigned int *ns_by_socket_pair;
	unsigned int *cpu_ns_pair, *cpu_nu_pair;
	unsigned int max_socket_numas, max_numa_sockets;
};

/*
 * Build a topology from per-CPU records (any order).  Refuses duplicate
 * or out-of-range CPUs, negative ids and cores that straddle sockets,
 * NUMA nodes or uncore caches.
 */
struct topology *topology_new(const struct topo_cpu_info *cpus,
			      unsigned int nr, struct cm_error *err);
void topology_free(struct topology *t);

/* The kubelet's CPUsPerCore(), CPUsPerSocket(), CPUsPerUncore(). */
int topology_cpus_per(const struct topology *t, enum topo_level lvl);

/* Dense group of an id, or -1. */
int topology_group_of_id(const struct topology *t, enum topo_level lvl,
			 int id);
/* The CPUs of one group (by id) into *out (cleared first). */
void topology_cpus_in(const struct topology *t, enum topo_level lvl, int id,
		      struct cpuset *out);
/* The info of one CPU; false if the CPU is not in the topology. */
bool topology_cpu_info(const struct topology *t, int cpu,
		       struct topo_cpu_info *out);
/* The CPUs of every core that has a CPU in s (the "physical" closure). */
void topology_cores_closure(const struct topology *t, const struct cpuset *s,
			    struct cpuset *out);
/* Ids of the level groups that have CPUs in s, as a set of ids. */
void topology_groups_of(const struct topology *t, enum topo_level lvl,
			const struct cpuset *s, struct cpuset *ids);
/* Every CPU of the level groups that have CPUs in s. */
void topology_groups_cpus(const struct topology *t, enum topo_level lvl,
			  const struct cpuset *s, struct cpuset *out);

#endif
