// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: UpdateContainer as an in-place resize (decide mode).
 * containerd calls it on the CRI's UpdateContainerResources, which the
 * kubelet sends when it resizes a pod in place: linux_resources holds
 * the new CPU shares and quota, the container the ones it runs with.
 * When a container holding exclusive CPUs asks for another whole number
 * of CPUs, node_resize() moves it (the KEP-5554 rules, cgroups changed
 * in an order that never lets two containers hold a CPU) and the answer
 * carries its new cpuset and the others' (the shared pool changed).  A
 * refusal is the call's error, in the kubelet's words, and changes
 * nothing.  Everything else keeps the cpuset cpumgr gave (ctl_nri.c).
 */
#include <errno.h>
#include <string.h>

#include "ctl_nri_resize.h"

int ctl_nri_resize(struct ctl_nri *p, struct ctl_nri_known *k, int num,
		   struct ctl_nri_updates *set, struct nri_reply *r)
{
	struct cm_error err = { 0 };
	struct cpuset cpus;
	struct node n;
	int ret;

	if (ctl_nri_open(p, &n, r))
		return -EIO;
	/* not exclusive: nothing of cpumgr's changes */
	if (!node_assignment(&n, k->pod_uid, k->name)) {
		node_close(&n);
		return 1;
	}
	ret = node_resize(&n, k->pod_uid, k->name, num, &cpus, &err);
	if (ret) {
		ctl_nri_refuse(r, ret == -ENOSPC ? NRI_RPC_RESOURCE_EXHAUSTED :
				  NRI_RPC_FAILED_PRECONDITION,
			       "cpumgr: pod %s container %s: resize to %d CPUs: %s",
			       k->pod_uid, k->name, num, cm_error_msg(&err));
		cm_error_clear(&err);
		node_close(&n);
		return -EINVAL;
	}
	cpuset_format(&cpus, k->told, sizeof(k->told));
	ret = ctl_nri_updates(p, &n, k->id, set);
	node_log(&n, "nri: update %s (%s/%s): resized to %d CPUs, cpuset %s, %zu updates",
		 k->id, k->pod_uid, k->name, num, k->told, set->nr);
	node_close(&n);
	return ret;
}
