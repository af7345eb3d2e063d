// SPDX-License-Identifier: GPL-2.0
/*
 * The table: policy, options, reserved CPUs and the assignments of pods'
 * containers, with a generation bumped by every change; its locks, its
 * lookups, and what every change checks and commits.  The changes
 * themselves are the commands' (cpumgr_changes.c, cpumgr_restore.c) and
 * CPU hotplug's (cpumgr_hotplug.c).
 *
 * Writers hold the CPU hotplug read lock (CPUs stay online while a change
 * is checked and applied) and then the table mutex.  Every change is
 * checked in full before anything moves; the steps that can fail
 * (allocations, sysfs directories) come next, and the commit that
 * follows cannot fail.  After the commit a new view is published for
 * lock-free readers (cpumgr_view.c) and one notification goes out, still
 * under the mutex so that notifications come in generation order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>

#include "cpumgr.h"
#include "cpumgr_cgroup.h"
#include "cpumgr_inflight.h"
#include "cpumgr_names.h"
#include "cpumgr_offline.h"
#include "cpumgr_pods.h"
#include "cpumgr_request.h"
#include "cpumgr_table.h"
#include "cpumgr_view.h"

struct cpumgr_table cpumgr_tbl;

/* The modes the table starts with and a RESET returns to. */
enum cpumgr_enforce cpumgr_param_enforce = CPUMGR_ENFORCE_ENFORCE;
enum cpumgr_hotplug cpumgr_param_hotplug = CPUMGR_HOTPLUG_PROTECT;

static int cpumgr_param_set_enforce(const char *val,
				    const struct kernel_param *kp)
{
	int mode = cpumgr_enforce_parse(val);

	if (mode < 0) {
		pr_err("enforce=%s: not off, audit or enforce\n", val);
		return -EINVAL;
	}
	cpumgr_param_enforce = mode;
	return 0;
}

static int cpumgr_param_get_enforce(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", cpumgr_enforce_names[cpumgr_param_enforce]);
}

static const struct kernel_param_ops cpumgr_enforce_ops = {
	.set = cpumgr_param_set_enforce,
	.get = cpumgr_param_get_enforce,
};

static int cpumgr_param_set_hotplug(const char *val,
				    const struct kernel_param *kp)
{
	int mode = cpumgr_hotplug_parse(val);

	if (mode < 0) {
		pr_err("hotplug=%s: not protect or release\n", val);
		return -EINVAL;
	}
	cpumgr_param_hotplug = mode;
	return 0;
}

static int cpumgr_param_get_hotplug(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", cpumgr_hotplug_names[cpumgr_param_hotplug]);
}

static const struct kernel_param_ops cpumgr_hotplug_ops = {
	.set = cpumgr_param_set_hotplug,
	.get = cpumgr_param_get_hotplug,
};

module_param_cb(enforce, &cpumgr_enforce_ops, NULL, 0444);
MODULE_PARM_DESC(enforce,
		 "violations of exclusivity at load and after a reset: off, audit or enforce (default)");
module_param_cb(hotplug, &cpumgr_hotplug_ops, NULL, 0444);
MODULE_PARM_DESC(hotplug,
		 "offline of an assigned CPU at load and after a reset: protect (default: refused) or release");

void cpumgr_write_lock(void)
{
	cpus_read_lock();
	mutex_lock(&cpumgr_tbl.lock);
}

void cpumgr_write_unlock(void)
{
	/* Committed to the view or given up: offlines may check them. */
	cpumgr_offline_unclaim();
	mutex_unlock(&cpumgr_tbl.lock);
	cpus_read_unlock();
	/* Checked against the table as it was, they must not land after. */
	cpumgr_inflight_checked_sync();
}

void cpumgr_table_lock(void)
{
	mutex_lock(&cpumgr_tbl.lock);
}

int cpumgr_table_lock_killable(void)
{
	return mutex_lock_killable(&cpumgr_tbl.lock);
}

void cpumgr_table_unlock(void)
{
	mutex_unlock(&cpumgr_tbl.lock);
}

u64 cpumgr_table_generation(void)
{
	lockdep_assert_held(&cpumgr_tbl.lock);
	return cpumgr_tbl.generation;
}

/* Views */

/* What a view of the table as it is now needs. */
static void cpumgr_table_size(struct cpumgr_view_size *size)
{
	struct cpumgr_container *c;
	struct cpumgr_pod *pod;

	size->pods = 0;
	size->containers = 0;
	size->ids = cpumgr_tbl.root.depth + cpumgr_tbl.system.depth;
	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		size->pods++;
		size->ids += pod->cgroup.depth;
		list_for_each_entry(c, &pod->containers, node) {
			size->containers++;
			size->ids += c->cgroup.depth;
		}
	}
}

/* A view for the table as it is, grown by @pods, @containers and @ids. */
struct cpumgr_view *cpumgr_view_alloc_grown(unsigned int pods,
					    unsigned int containers,
					    unsigned int ids)
{
	struct cpumgr_view_size size;

	cpumgr_table_size(&size);
	size.pods += pods;
	size.containers += containers;
	size.ids += ids;
	return cpumgr_view_alloc(&size);
}

/*
 * Fill @view from the table, which holds at most what the view was sized
 * for: the sizes are computed under the same lock, before the change.
 * The warnings would be a bug in that sizing.
 */
static void cpumgr_view_fill(struct cpumgr_view *view)
{
	unsigned int nr_ids = 0, np = 0, nc = 0, i;
	struct cpumgr_container *c;
	struct cpumask *pod_owed;
	struct cpumgr_pod *pod;

	view->generation = cpumgr_tbl.generation;
	view->policy = cpumgr_tbl.policy;
	view->options = cpumgr_tbl.options;
	view->enforce = cpumgr_tbl.enforce;
	view->hotplug = cpumgr_tbl.hotplug;
	view->nr_pods = cpumgr_tbl.nr_pods;
	view->nr_containers = cpumgr_tbl.nr_containers;
	cpumask_copy(view->reserved, cpumgr_tbl.reserved);
	cpumask_copy(view->exclusive, cpumgr_tbl.exclusive);
	cpumask_clear(view->owed);
	cpumask_clear(view->pending);
	view->nr_pending = 0;
	cpumgr_view_set_cg(view, &view->root, &cpumgr_tbl.root, &nr_ids);
	view->root_cgrp = cpumgr_tbl.root.live;
	cpumgr_view_set_cg(view, &view->system, &cpumgr_tbl.system, &nr_ids);

	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		struct cpumgr_view_pod *vp = &view->pods[np];
		struct cpumask *mask = cpumgr_view_mask(view, np);

		if (WARN_ON_ONCE(np >= view->cap.pods))
			break;
		cpumask_copy(mask, pod->cpus);
		vp->cpus = mask;
		pod_owed = cpumgr_view_owed(view, np);
		cpumask_clear(pod_owed);
		vp->owed = pod_owed;
		strscpy(vp->uid, pod->uid, sizeof(vp->uid));
		cpumgr_view_set_cg(view, &vp->cg, &pod->cgroup, &nr_ids);
		vp->first = nc;
		list_for_each_entry(c, &pod->containers, node) {
			struct cpumgr_view_container *vc = &view->containers[nc];

			if (WARN_ON_ONCE(nc >= view->cap.containers))
				break;
			mask = cpumgr_view_mask(view, view->cap.pods + nc);
			cpumask_copy(mask, c->cpus);
			vc->cpus = mask;
			mask = cpumgr_view_owed(view, view->cap.pods + nc);
			cpumask_copy(mask, c->lost);
			vc->owed = mask;
			cpumask_or(pod_owed, pod_owed, c->lost);
			vc->pending = c->flags &
				      CPUMGR_ASSIGNMENT_F_PARTITION_PENDING;
			if (vc->pending) {
				cpumask_or(view->pending, view->pending,
					   c->cpus);
				view->nr_pending++;
			}
			strscpy(vc->name, c->name, sizeof(vc->name));
			cpumgr_view_set_cg(view, &vc->cg, &c->cgroup, &nr_ids);
			nc++;
		}
		vp->nr = nc - vp->first;
		mask = cpumgr_view_pool_rest(view, np);
		cpumask_copy(mask, pod->pool);
		for (i = vp->first; i < nc; i++)
			cpumask_andnot(mask, mask, view->containers[i].cpus);
		vp->pool_rest = mask;
		cpumask_or(view->owed, view->owed, pod_owed);
		np++;
	}
	view->nr_pods = np;
	/* what another container holds too stays checked (an init's reuse) */
	for (nc = 0; nc < view->nr_containers && nc < view->cap.containers;
	     nc++) {
		if (view->containers[nc].pending)
			continue;
		cpumask_andnot(view->pending, view->pending,
			       view->containers[nc].cpus);
		cpumask_andnot(view->pending, view->pending,
			       view->containers[nc].owed);
	}
}

/* Fill @view and make it the current one. */
static void cpumgr_table_publish(struct cpumgr_view *view)
{
	cpumgr_view_fill(view);
	cpumgr_view_publish(view, &cpumgr_tbl.lock);
}

/* Pods and containers */

struct cpumgr_pod *cpumgr_find_pod_in(struct list_head *list,
				      const char *uid)
{
	struct cpumgr_pod *pod;

	list_for_each_entry(pod, list, node) {
		if (!strcmp(pod->uid, uid))
			return pod;
	}
	return NULL;
}

struct cpumgr_pod *cpumgr_find_pod(const char *uid)
{
	return cpumgr_find_pod_in(&cpumgr_tbl.pods, uid);
}

struct cpumgr_container *cpumgr_table_find(const char *pod_uid,
					   const char *container)
{
	struct cpumgr_pod *pod;

	lockdep_assert_held(&cpumgr_tbl.lock);
	pod = cpumgr_find_pod(pod_uid);
	return pod ? cpumgr_pod_find(pod, container) : NULL;
}

struct cpumgr_container *cpumgr_table_nth(unsigned long n)
{
	struct cpumgr_container *c;
	struct cpumgr_pod *pod;

	lockdep_assert_held(&cpumgr_tbl.lock);
	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		list_for_each_entry(c, &pod->containers, node) {
			if (!n--)
				return c;
		}
	}
	return NULL;
}

struct cpumgr_container *cpumgr_table_next(struct cpumgr_container *c)
{
	struct cpumgr_pod *pod = c->pod;

	lockdep_assert_held(&cpumgr_tbl.lock);
	if (!list_is_last(&c->node, &pod->containers))
		return list_next_entry(c, node);
	list_for_each_entry_continue(pod, &cpumgr_tbl.pods, node) {
		if (!list_empty(&pod->containers))
			return list_first_entry(&pod->containers,
						struct cpumgr_container, node);
	}
	return NULL;
}

/* Checks */

int cpumgr_check_expect(const struct cpumgr_expect *expect,
			struct netlink_ext_ack *extack)
{
	if (!expect || !expect->set ||
	    expect->generation == cpumgr_tbl.generation)
		return 0;
	CPUMGR_ERR(extack, expect->attr, "generation is stale",
		   "expected %llu, now %llu", expect->generation,
		   cpumgr_tbl.generation);
	return -ESTALE;
}

/*
 * Where a change starts: the table's write lock, then the generation the
 * caller planned against.  The lock is held on return, refused or not.
 */
int cpumgr_write_begin(const struct cpumgr_expect *expect,
		       struct netlink_ext_ack *extack)
{
	cpumgr_write_lock();
	return cpumgr_check_expect(expect, extack);
}

/* CPUs the table may hold at all: present and online. */
int cpumgr_check_online(const struct cpumask *cpus,
			const struct nlattr *attr,
			struct netlink_ext_ack *extack)
{
	unsigned int cpu;

	for_each_cpu(cpu, cpus) {
		if (!cpu_present(cpu)) {
			CPUMGR_ERR(extack, attr, "CPU is not present", "%u",
				   cpu);
			return -ENODEV;
		}
		if (!cpu_online(cpu)) {
			CPUMGR_ERR(extack, attr, "CPU is offline", "%u", cpu);
			return -ENXIO;
		}
	}
	return 0;
}

/*
 * Whether @cpus may be given to a container: online, not reserved, whole
 * cores under full-pcpus-only, not going offline.  If so they are
 * claimed until the table unlocks: offlines (protect mode) refuse them.
 * Sharing with other pods is checked by the caller, which knows what the
 * table will hold.
 */
int cpumgr_check_assignable(const struct cpumask *cpus,
			    const struct nlattr *attr,
			    struct netlink_ext_ack *extack)
{
	unsigned int cpu;
	int err;

	if (cpumask_empty(cpus)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "CPU set is empty");
		return -ENODATA;
	}
	err = cpumgr_check_online(cpus, attr, extack);
	if (err)
		return err;
	if (cpumask_intersects(cpus, cpumgr_tbl.reserved)) {
		CPUMGR_ERR(extack, attr, "CPU is reserved", "%u",
			   cpumask_first_and(cpus, cpumgr_tbl.reserved));
		return -EACCES;
	}
	if (cpumgr_tbl.options & CPUMGR_OPT_FULL_PCPUS_ONLY) {
		for_each_cpu(cpu, cpus) {
			if (cpumask_subset(topology_sibling_cpumask(cpu), cpus))
				continue;
			CPUMGR_ERR(extack, attr,
				   "full-pcpus-only: CPUs are not whole cores",
				   "CPU %u needs %*pbl", cpu,
				   cpumask_pr_args(topology_sibling_cpumask(cpu)));
			return -EDOM;
		}
	}
	/* An offline already let go would take it after the commit. */
	cpu = cpumgr_offline_claim(cpus);
	if (cpu < nr_cpu_ids) {
		CPUMGR_ERR(extack, attr, "CPU is going offline", "%u", cpu);
		return -EBUSY;
	}
	return 0;
}

/* @cpus may not meet any pod of the table but the one named @uid. */
int cpumgr_check_other_pods(const struct cpumask *cpus,
			    const char *uid, const struct nlattr *attr,
			    struct netlink_ext_ack *extack)
{
	struct cpumgr_pod *pod;

	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		if (!strcmp(pod->uid, uid) ||
		    !cpumask_intersects(cpus, pod->cpus))
			continue;
		CPUMGR_ERR_POD(extack, attr,
			       cpumask_first_and(cpus, pod->cpus), pod->uid);
		return -EBUSY;
	}
	return 0;
}

/**
 * cpumgr_check_bindable - whether a container or a pod may be bound here
 * @ref: the cgroup (id 0: unbound, always allowed)
 * @attr: the attribute that named it
 * @extack: where a refusal is reported
 *
 * Not at, below or above the system cgroup (KEP-5894): system pods never
 * get exclusive CPUs.  Whatever is at or below a bound cgroup may hold
 * its container's CPUs, and a cgroup below a bound pod cgroup that names
 * no CPU its pod's, so the system cgroup may be neither.  The caller
 * holds the table lock.
 *
 * Return: 0 or -EACCES.
 */
int cpumgr_check_bindable(const struct cpumgr_cgroup_ref *ref,
			  const struct nlattr *attr,
			  struct netlink_ext_ack *extack)
{
	const struct cpumgr_cgroup_ref *system = &cpumgr_tbl.system;

	lockdep_assert_held(&cpumgr_tbl.lock);
	if (cpumgr_cgroup_ref_gone(system))
		return 0;
	if (cpumgr_cgroup_at_or_below(ref, system)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "cgroup is at or below the system cgroup: system pods never get exclusive CPUs (KEP-5894)");
		return -EACCES;
	}
	if (cpumgr_cgroup_below(system, ref)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "cgroup is above the system cgroup, which would get its CPUs: system pods never get exclusive CPUs (KEP-5894)");
		return -EACCES;
	}
	return 0;
}

/* Commit */

/*
 * The last step of every change: bump the generation, derive what
 * depends on the pods, hold the module while assignments exist, and
 * publish @view.
 */
void cpumgr_commit(struct cpumgr_view *view)
{
	struct cpumgr_pod *pod;

	cpumgr_tbl.generation++;
	cpumask_clear(cpumgr_tbl.exclusive);
	list_for_each_entry(pod, &cpumgr_tbl.pods, node)
		cpumask_or(cpumgr_tbl.exclusive, cpumgr_tbl.exclusive,
			   pod->cpus);
	/* rmmod would drop exclusivity silently: refuse it instead. */
	if (cpumgr_tbl.nr_containers && !cpumgr_tbl.pinned) {
		__module_get(THIS_MODULE);
		cpumgr_tbl.pinned = true;
	} else if (!cpumgr_tbl.nr_containers && cpumgr_tbl.pinned) {
		module_put(THIS_MODULE);
		cpumgr_tbl.pinned = false;
	}
	cpumgr_table_publish(view);
}

/* Take a pod out of the table; cpumgr_pod_put_all() frees it later. */
void cpumgr_pod_unlink(struct cpumgr_pod *pod)
{
	struct cpumgr_container *c;

	list_for_each_entry(c, &pod->containers, node)
		cpumgr_tbl.nr_containers--;
	list_del(&pod->node);
	cpumgr_tbl.nr_pods--;
}

/* Drop an unlinked pod, its containers with it. */
void cpumgr_pod_put_all(struct cpumgr_pod *pod)
{
	struct cpumgr_container *c, *tmp;

	list_for_each_entry_safe(c, tmp, &pod->containers, node) {
		list_del(&c->node);
		cpumgr_container_put(c);
	}
	cpumgr_pod_put(pod);
}

/*
 * Under the lock of what sysfs shows, not the table lock: notifications
 * built while the table lock is held read it too.
 */
void cpumgr_table_root_path(char *buf, size_t size)
{
	cpumgr_cgroup_ref_path(&cpumgr_tbl.root, buf, size);
}

void cpumgr_table_system_path(char *buf, size_t size)
{
	cpumgr_cgroup_ref_live_path(&cpumgr_tbl.system, buf, size);
}

int cpumgr_table_init(void)
{
	struct cpumgr_view_size none = {};
	struct cpumgr_view *view;

	mutex_init(&cpumgr_tbl.lock);
	INIT_LIST_HEAD(&cpumgr_tbl.pods);
	cpumgr_tbl.enforce = cpumgr_param_enforce;
	cpumgr_tbl.hotplug = cpumgr_param_hotplug;
	if (!zalloc_cpumask_var(&cpumgr_tbl.reserved, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&cpumgr_tbl.exclusive, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&cpumgr_tbl.scratch, GFP_KERNEL))
		goto err;
	view = cpumgr_view_alloc(&none);
	if (!view)
		goto err;
	mutex_lock(&cpumgr_tbl.lock);
	cpumgr_table_publish(view);
	mutex_unlock(&cpumgr_tbl.lock);
	return 0;
err:
	free_cpumask_var(cpumgr_tbl.reserved);
	free_cpumask_var(cpumgr_tbl.exclusive);
	free_cpumask_var(cpumgr_tbl.scratch);
	return -ENOMEM;
}

/*
 * The module reference keeps rmmod away while anything is assigned; only
 * a forced unload (rmmod -f) gets here with assignments.  Drop them
 * rather than leak them: the module may be loaded again.
 */
void cpumgr_table_exit(void)
{
	struct cpumgr_pod *pod, *tmp;

	if (cpumgr_tbl.nr_pods)
		pr_warn("forced unload with %u assignments: their CPUs are released\n",
			cpumgr_tbl.nr_containers);
	list_for_each_entry_safe(pod, tmp, &cpumgr_tbl.pods, node) {
		cpumgr_pod_unlink(pod);
		cpumgr_pod_put_all(pod);
	}
	cpumgr_view_exit();
	cpumgr_cgroup_ref_free(&cpumgr_tbl.root);
	cpumgr_cgroup_ref_free(&cpumgr_tbl.system);
	free_cpumask_var(cpumgr_tbl.reserved);
	free_cpumask_var(cpumgr_tbl.exclusive);
	free_cpumask_var(cpumgr_tbl.scratch);
}

