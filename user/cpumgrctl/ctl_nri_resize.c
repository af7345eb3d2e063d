// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: UpdateContainer as an in-place resize.  containerd
 * calls it on the CRI's UpdateContainerResources, which the kubelet
 * sends when it resizes a pod in place: linux_resources holds the new
 * CPU shares and quota, the container the ones it runs with.
 *
 * - A container holding exclusive CPUs that asks for another whole
 *   number of CPUs (decide mode): node_resize() moves it (the KEP-5554
 *   rules, cgroups changed in an order that never lets two containers
 *   hold a CPU) and the answer carries its new cpuset and the others'
 *   (the shared pool changed).  A refusal is the call's error, in the
 *   kubelet's words, and changes nothing.
 * - A container on the shared pool (any mode): its new CPU request and
 *   limit are recorded (node_container_resized()), so that the CFS
 *   limits the runtime writes stay: every reconcile writes those of the
 *   record.  It keeps its cpuset.
 * Everything else keeps the cpuset cpumgr gave (ctl_nri.c).
 */
#include <errno.h>
#include <string.h>

#include "ctl_nri_resize.h"
#include "nri_spec.h"

/* The update asks for another CPU request or limit than ctr runs with. */
static bool cpu_changes(const NriContainer *ctr, const NriResources *want)
{
	const NriResources *now = ctr->linux ? ctr->linux->resources : NULL;
	int64_t req, lim, now_req, now_lim;

	if (!want || !want->cpu)
		return false;
	if (!now || !now->cpu)
		return true;
	nri_spec_cpu_milli(want, &req, &lim);
	nri_spec_cpu_milli(now, &now_req, &now_lim);
	return req != now_req || lim != now_lim;
}

/* A shared container's new request and limit into its record. */
static int record(struct node *n, struct ctl_nri_known *k,
		  const NriResources *want, struct nri_reply *r)
{
	struct cm_error err = { 0 };
	int64_t req, lim;
	int ret;

	nri_spec_cpu_milli(want, &req, &lim);
	ret = node_container_resized(n, k->pod_uid, k->name, req, lim, &err);
	if (ret == -ENOENT) {
		node_log(n, "nri: update %s (%s/%s): cpu request %lldm, limit %lldm: no record of it, left",
			 k->id, k->pod_uid, k->name, (long long)req,
			 (long long)lim);
		ret = 0;
	} else if (ret) {
		ctl_nri_refuse(r, ret == -EINVAL ? NRI_RPC_INVALID_ARGUMENT :
				  NRI_RPC_INTERNAL,
			       "cpumgr: pod %s container %s: resize to cpu request %lldm, limit %lldm: %s",
			       k->pod_uid, k->name, (long long)req,
			       (long long)lim, cm_error_msg(&err));
	}
	cm_error_clear(&err);
	return ret;
}

int ctl_nri_resize(struct ctl_nri *p, struct ctl_nri_known *k,
		   const NriPod *pod, const NriContainer *ctr,
		   NriResources *want, struct ctl_nri_updates *set,
		   struct nri_reply *r)
{
	struct cm_error err = { 0 };
	struct cpuset cpus;
	struct node n;
	int ret, num;

	if (!cpu_changes(ctr, want))
		return 1;
	if (ctl_nri_open(p, &n, r))
		return -EIO;
	if (!node_assignment(&n, k->pod_uid, k->name)) {
		ret = record(&n, k, want, r);
		ctl_nri_close(p, &n);
		return ret ? -EINVAL : 1;
	}
	num = p->rt.mode == CTL_MODE_DECIDE ?
	      nri_spec_resize_cpus(pod, ctr, want) : 0;
	/* exclusive, and no whole count to move to: it keeps its CPUs */
	if (!num) {
		ctl_nri_close(p, &n);
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
