// SPDX-License-Identifier: GPL-2.0
/*
 * A pod's pool (KEP-5526, pod-level resources): the CPUs the kubelet
 * takes out of the shared pool for the whole pod, its containers'
 * exclusive slices and the rest they share.  The containers hold what
 * they run on, as any container does; the pool adds the CPUs none of
 * them holds (slices of containers gone, a budget the slices leave
 * unused): those stay the pod's, allowed in its cgroups only
 * (cpumgr_rules.c), and out of the shared pool.  A pool lives with its
 * pod: it is set on a pod the table holds and goes with the pod's last
 * container, as the kubelet gives it back with the pod's last entry.
 */
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/netlink.h>

#include "cpumgr.h"
#include "cpumgr_notify.h"
#include "cpumgr_pods.h"
#include "cpumgr_pool.h"
#include "cpumgr_table.h"
#include "cpumgr_view.h"

/* What a pool must hold, and may: its containers' CPUs, nobody else's. */
static int cpumgr_check_pool(struct cpumgr_pod *pod,
			     const struct cpumask *pool,
			     const struct nlattr *attr,
			     struct netlink_ext_ack *extack)
{
	struct cpumask *held = cpumgr_tbl.scratch;
	struct cpumgr_container *c;
	int err;

	cpumask_clear(held);
	list_for_each_entry(c, &pod->containers, node)
		cpumask_or(held, held, c->cpus);
	if (!cpumask_empty(pool) && !cpumask_subset(held, pool)) {
		cpumask_andnot(held, held, pool);
		CPUMGR_ERR(extack, attr,
			   "a pod pool holds its containers' CPUs", "CPU %u",
			   cpumask_first(held));
		return -EINVAL;
	}
	/*
	 * All of it, not what it adds: full-pcpus-only asks whole cores of
	 * the pool (a CPU an offline took and the controller sets again).
	 */
	if (cpumask_empty(pool))
		return 0;
	err = cpumgr_check_assignable(pool, attr, extack);
	if (!err)
		err = cpumgr_check_other_pods(pool, pod->uid, attr, extack);
	return err;
}

int cpumgr_table_assign_pool(const char *pod_uid, const struct cpumask *pool,
			     const struct nlattr *attr,
			     const struct cpumgr_expect *expect,
			     struct netlink_ext_ack *extack, u64 *generation)
{
	struct cpumgr_view *view = NULL;
	struct cpumgr_pod *pod;
	int err;

	err = cpumgr_write_begin(expect, extack);
	if (err)
		goto out;
	err = -ENOENT;
	pod = cpumgr_find_pod(pod_uid);
	if (!pod) {
		NL_SET_ERR_MSG(extack,
			       "no such pod: a pool is set after its containers");
		goto out;
	}
	err = cpumgr_check_pool(pod, pool, attr, extack);
	if (err)
		goto out;
	err = -ENOMEM;
	view = cpumgr_view_alloc_grown(0, 0, 0);
	if (!view)
		goto out;

	err = 0;
	cpumgr_pod_set_pool(pod, pool);
	cpumgr_pod_update_cpus(pod);
	cpumgr_commit(view);
	view = NULL;
	*generation = cpumgr_tbl.generation;
	/* any container's assignment carries the pool */
	cpumgr_notify_assigned(list_first_entry(&pod->containers,
						struct cpumgr_container, node),
			       cpumgr_tbl.generation);
out:
	cpumgr_write_unlock();
	cpumgr_view_free(view);
	return err;
}
