/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU allocation: the kubelet's takeByTopologyNUMAPacked and
 * takeByTopologyNUMADistributed (pkg/kubelet/cm/cpumanager/
 * cpu_assignment.go), same order, same tie-breaks, same results, same
 * error texts, on precomputed topology maps and dense bitmaps.
 */
#ifndef CPUMGR_ALLOC_H
#define CPUMGR_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "cpuset.h"
#include "error.h"
#include "topology.h"

struct alloc_request {
	int num_cpus;
	/* distribute-cpus-across-numa: takeByTopologyNUMADistributed */
	bool distribute_numa;
	/* CPU group size for distribution (CPUs per core with full-pcpus-only) */
	int cpu_group_size;
	/* distribute-cpus-across-cores: the "spread" CPU sorting strategy */
	bool spread;
	/* prefer-align-cpus-by-uncorecache (packed allocation only) */
	bool prefer_uncore;
	/*
	 * distribute-cpus-across-numa: spread over at least this many NUMA
	 * nodes, the topology manager hint's (kubernetes#139456); 0: as
	 * few as the request needs
	 */
	int min_numas;
};

/*
 * Scratch memory for decisions on one topology: allocate it once and
 * reuse it for every decision (one workspace per thread).
 */
struct alloc_ws;
struct alloc_ws *alloc_ws_new(const struct topology *t);
void alloc_ws_free(struct alloc_ws *ws);
/* Bytes a workspace for t takes: the memory one decision touches. */
size_t alloc_ws_size(const struct topology *t);

/*
 * Take req->num_cpus CPUs out of *avail.  ws may be NULL (one is made and
 * freed for the call).  On success *out holds the CPUs and 0 is
 * returned; on failure *out is empty, err says why in the kubelet's words
 * and -ENOSPC (not enough CPUs) or -EINVAL is returned.
 */
int alloc_take(const struct topology *t, struct alloc_ws *ws,
	       const struct cpuset *avail, const struct alloc_request *req,
	       struct cpuset *out, struct cm_error *err);

#endif
