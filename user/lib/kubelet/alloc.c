// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_take(): the allocator's entry point, which picks the packed or
 * the distributed take (alloc_packed.c, alloc_distributed.c; the latter
 * falls back on the former) and checks what either hands out.
 */
#include <errno.h>
#include <stdlib.h>

#include "alloc_internal.h"

/*
 * On topologies whose sockets or cores differ in size, or whose uncore
 * caches straddle NUMA nodes, the kubelet's "free socket/core" test (an
 * average) and its duplicate list entries can claim CPUs that were not
 * available or count CPUs twice.  Never hand out such a result.
 */
static int check_result(const struct cpuset *avail, int num,
			struct cpuset *out, struct cm_error *err)
{
	char *a, *o;

	if (cpuset_subset(out, avail) && (int)cpuset_count(out) == num)
		return 0;
	a = cpuset_to_str(avail);
	o = cpuset_to_str(out);
	cm_errorf(err, "allocation %s of %d cpus is not %d cpus within the available cpus %s (irregular topology)",
		  o ? o : "?", (int)cpuset_count(out), num, a ? a : "?");
	free(a);
	free(o);
	cpuset_zero(out);
	return -EINVAL;
}

int alloc_take(const struct topology *t, struct alloc_ws *ws,
	       const struct cpuset *avail, const struct alloc_request *req,
	       struct cpuset *out, struct cm_error *err)
{
	struct alloc_ws *own = NULL;
	unsigned int avail_size = cpuset_count(avail);
	int ret;

	cpuset_zero(out);
	if (req->num_cpus < 0)
		return cm_errorf(err, "cannot allocate a negative number of cpus: %d",
				 req->num_cpus);
	if (!ws) {
		own = ws = alloc_ws_new(t);
		if (!ws)
			return cm_errorf(err, "out of memory"), -ENOMEM;
	} else if (ws->t != t) {
		return cm_errorf(err, "allocation workspace built for another topology");
	}
	alloc_acc_dense_from_cpuset(t, avail, ws->dense);
	if (req->distribute_numa)
		ret = alloc_distributed(ws, ws->dense, avail_size, req, err);
	else
		ret = alloc_packed(ws, ws->dense, avail_size, req,
				   req->prefer_uncore, err);
	if (!ret) {
		alloc_acc_result_cpuset(&ws->outer, out);
		ret = check_result(avail, req->num_cpus, out, err);
	}
	alloc_ws_free(own);
	return ret;
}
