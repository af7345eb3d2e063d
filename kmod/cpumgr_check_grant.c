// SPDX-License-Identifier: GPL-2.0
/*
 * The check of an ASSIGN whose caller says it narrowed first
 * (CPUMGR_A_NARROWED): the CPUs it adds to a container must have left
 * every cpuset with tasks that the new table would not let hold them.
 * Without it a sibling's task, or a shared container's, keeps running on
 * a CPU that has just become exclusive, and only an audit would notice.
 *
 * The cpusets are read as they are under the table's write lock, before
 * the change, once the cpuset.cpus writes checked against the table as
 * it was have landed: the ASSIGN closed the gate for new ones and waited
 * for those past it (cpumgr_inflight_gate_close()), which wait for the
 * new table.  Guard mode mirrors what the kubelet decided and runs
 * without the flag: the kubelet narrows the others after it assigns.
 *
 * The ASSIGN that clears a container's CPUMGR_ASSIGNMENT_F_PARTITION_PENDING
 * is checked the same way for all of its CPUs: the entries let onto them
 * meanwhile must have left them with the pool, when its partition was
 * made.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cpumgr.h"
#include "cpumgr_check_grant.h"
#include "cpumgr_cpuset.h"
#include "cpumgr_pods.h"
#include "cpumgr_request.h"
#include "cpumgr_rules.h"
#include "cpumgr_table.h"
#include "cpumgr_view.h"

/*
 * A table of one pod and one container holding only what the ASSIGN
 * adds: the rules then say which cgroups may hold those CPUs.  NULL when
 * out of memory.
 */
static struct cpumgr_view *
cpumgr_grant_view(const struct cpumgr_pod *pod,
		  const struct cpumgr_container *c, const char *uid,
		  const char *name, const struct cpumask *added)
{
	static const struct cpumgr_cgroup_ref none;
	const struct cpumgr_cgroup_ref *pcg = pod ? &pod->cgroup : &none;
	const struct cpumgr_cgroup_ref *ccg = c ? &c->cgroup : &none;
	struct cpumgr_view_size size = {
		.pods = 1, .containers = 1,
		.ids = cpumgr_tbl.root.depth + pcg->depth + ccg->depth,
	};
	struct cpumgr_view *view = cpumgr_view_alloc(&size);
	struct cpumgr_view_container *vc;
	struct cpumgr_view_pod *vp;
	unsigned int nr_ids = 0;
	struct cpumask *mask;

	if (!view)
		return NULL;
	view->policy = CPUMGR_POLICY_STATIC;
	view->enforce = CPUMGR_ENFORCE_ENFORCE;
	view->nr_pods = 1;
	view->nr_containers = 1;
	cpumask_copy(view->exclusive, added);
	cpumgr_view_set_cg(view, &view->root, &cpumgr_tbl.root, &nr_ids);
	view->root_cgrp = cpumgr_tbl.root.live;

	vp = &view->pods[0];
	mask = cpumgr_view_mask(view, 0);
	cpumask_copy(mask, added);
	vp->cpus = mask;
	vp->owed = cpumgr_view_owed(view, 0);
	/* the container's CPUs alone: no pool */
	vp->pool_rest = cpumgr_view_pool_rest(view, 0);
	strscpy(vp->uid, uid, sizeof(vp->uid));
	cpumgr_view_set_cg(view, &vp->cg, pcg, &nr_ids);
	vp->nr = 1;

	vc = &view->containers[0];
	mask = cpumgr_view_mask(view, 1);
	cpumask_copy(mask, added);
	vc->cpus = mask;
	vc->owed = cpumgr_view_owed(view, 1);
	strscpy(vc->name, name, sizeof(vc->name));
	cpumgr_view_set_cg(view, &vc->cg, ccg, &nr_ids);
	return view;
}

/*
 * The first cpuset with tasks that holds a CPU @view does not let it
 * hold, with a reference; the CPU in *@cpu.  NULL when none does, an
 * error pointer when more than inherit_walk_max cpusets have tasks.
 */
static struct cgroup *cpumgr_grant_holder(const struct cpumgr_view *view,
					  unsigned int *cpu)
{
	unsigned int visited = 0, max = cpumgr_rules_walk_max();
	struct cgroup_subsys_state *top, *pos;
	struct cgroup *found = NULL;
	struct cpumgr_scratch *s;
	struct cpumask *bad;
	bool skip = false;

	s = cpumgr_scratch_lock();
	rcu_read_lock();
	bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	top = view->root_cgrp ? cpumgr_cpuset_css(view->root_cgrp) :
				cpumgr_cpuset_top();
	for (pos = top; pos && !found;
	     pos = cpumgr_rules_walk_next(pos, top, skip)) {
		skip = !cgroup_is_populated(pos->cgroup);
		if (skip || !cpumgr_cpuset_has_tasks(pos))
			continue;
		if (++visited > max) {
			found = ERR_PTR(-E2BIG);
			break;
		}
		cpumask_clear(bad);
		if (!cpumgr_rules_check(view, pos->cgroup,
					cpumgr_cpuset_effective(pos),
					cpumgr_cpuset_allowed(pos), bad, s))
			continue;
		/* going away meanwhile: it holds no task, look on */
		if (cgroup_tryget(pos->cgroup)) {
			found = pos->cgroup;
			*cpu = cpumask_first(bad);
		}
	}
	rcu_read_unlock();
	cpumgr_scratch_unlock();
	return found;
}

static void cpumgr_grant_log(struct cgroup *cgrp, unsigned int cpu,
			     const char *uid, const char *name)
{
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);

	if (path && cgroup_path(cgrp, path, PATH_MAX) < 0)
		strscpy(path, "?", PATH_MAX);
	/* a controller retrying every round says it once in a while */
	pr_warn_ratelimited("refused the ASSIGN of pod %s container %s: CPU %u is still held by %s (cgroup %llu), which has tasks\n",
			    uid, name, cpu, path ?: "?", cgroup_id(cgrp));
	kfree(path);
}

/**
 * cpumgr_check_grant - whether an ASSIGN's new CPUs are free of tasks
 * @pod: the container's pod in the table, NULL when new
 * @c: the container in the table, NULL when new
 * @entry: the ASSIGN: the pod, the container, the CPUs it is to hold
 * @all: check all of them, not only those it adds
 * @extack: where the error goes
 *
 * The CPUs it adds (those it neither holds nor is owed) may be held only
 * where the rules let the container's CPUs be: its bound cgroup and what
 * is below it, its ancestors, its pod cgroup's, a cgroup below the pod
 * cgroup that names no CPU; outside the scope, anywhere.  The caller
 * holds the table's write lock.
 *
 * Return: 0, or -EBUSY (a cpuset with tasks holds one), -E2BIG (too
 * many to look at), -ENOMEM.
 */
int cpumgr_check_grant(const struct cpumgr_pod *pod,
		       const struct cpumgr_container *c,
		       const struct cpumgr_entry *entry, bool all,
		       struct netlink_ext_ack *extack)
{
	const struct nlattr *attr = entry->cpus_attr;
	struct cpumgr_view *view;
	struct cgroup *holder;
	cpumask_var_t added;
	unsigned int cpu = 0;
	int err = 0;

	lockdep_assert_held(&cpumgr_tbl.lock);
	if (!zalloc_cpumask_var(&added, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(added, entry->cpus);
	if (c && !all) {
		cpumask_andnot(added, added, c->cpus);
		cpumask_andnot(added, added, c->lost);
	}
	if (cpumask_empty(added))
		goto out;
	err = -ENOMEM;
	view = cpumgr_grant_view(pod, c, entry->pod_uid, entry->container,
				 added);
	if (!view)
		goto out;
	err = 0;
	holder = cpumgr_grant_holder(view, &cpu);
	cpumgr_view_free(view);
	if (IS_ERR(holder)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "more cpusets with tasks than inherit_walk_max: the new CPUs cannot be checked");
		err = PTR_ERR(holder);
	} else if (holder) {
		CPUMGR_ERR(extack, attr, "CPU still held by a cgroup with tasks",
			   "CPU %u, cgroup %llu", cpu, cgroup_id(holder));
		cpumgr_grant_log(holder, cpu, entry->pod_uid, entry->container);
		cgroup_put(holder);
		err = -EBUSY;
	}
out:
	free_cpumask_var(added);
	return err;
}
