// SPDX-License-Identifier: GPL-2.0
/*
 * The table: policy, options, reserved CPUs and the assignments of pods'
 * containers, with a generation bumped by every change.
 *
 * Writers hold the CPU hotplug read lock (CPUs stay online while a change
 * is checked and applied) and then the table mutex.  Every change is
 * checked in full before anything moves; the steps that can fail
 * (allocations, sysfs directories) come next, and the commit that
 * follows cannot fail.  After the commit a new view is published for
 * lock-free readers and one notification goes out, still under the
 * mutex so that notifications come in generation order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>

#include "cpumgr.h"

static struct {
	struct mutex lock;		/* serializes changes of everything */
	enum cpumgr_policy policy;
	u32 options;
	cpumask_var_t reserved;
	enum cpumgr_enforce enforce;
	enum cpumgr_hotplug hotplug;
	struct cpumgr_cgroup_ref root;	/* managed cgroup root; id 0: none */
	struct list_head pods;
	unsigned int nr_pods;
	unsigned int nr_containers;
	u64 generation;
	cpumask_var_t exclusive;	/* union of the pods' CPUs */
	cpumask_var_t scratch;		/* for the lock holder */
	bool pinned;			/* holds a module reference */
	struct cpumgr_view __rcu *view;
} tbl;

static void cpumgr_write_lock(void)
{
	cpus_read_lock();
	mutex_lock(&tbl.lock);
}

static void cpumgr_write_unlock(void)
{
	/* Committed to the view or given up: offlines may check them. */
	cpumgr_offline_unclaim();
	mutex_unlock(&tbl.lock);
	cpus_read_unlock();
	/* Checked against the table as it was, they must not land after. */
	cpumgr_hooks_sync_writes();
}

void cpumgr_table_lock(void)
{
	mutex_lock(&tbl.lock);
}

int cpumgr_table_lock_killable(void)
{
	return mutex_lock_killable(&tbl.lock);
}

void cpumgr_table_unlock(void)
{
	mutex_unlock(&tbl.lock);
}

u64 cpumgr_table_generation(void)
{
	lockdep_assert_held(&tbl.lock);
	return tbl.generation;
}

/* Views */

static void cpumgr_view_free(struct cpumgr_view *view)
{
	if (!view)
		return;
	free_cpumask_var(view->reserved);
	free_cpumask_var(view->exclusive);
	free_cpumask_var(view->owed);
	kfree(view->pods);
	kfree(view->containers);
	kfree(view->bits);
	kfree(view->ids);
	kfree(view);
}

static void cpumgr_view_free_rcu(struct rcu_head *rcu)
{
	cpumgr_view_free(container_of(rcu, struct cpumgr_view, rcu));
}

/* A view with room for @size; cpumgr_view_publish() fills it. */
static struct cpumgr_view *cpumgr_view_alloc(const struct cpumgr_view_size *size)
{
	/* each pod and container: its CPUs, then what it is owed */
	unsigned int masks = (size->pods + size->containers) * 2;
	struct cpumgr_view *view = kzalloc(sizeof(*view), GFP_KERNEL);

	if (!view)
		return NULL;
	view->cap = *size;
	if (!zalloc_cpumask_var(&view->reserved, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&view->exclusive, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&view->owed, GFP_KERNEL))
		goto err;
	view->pods = kcalloc(size->pods ?: 1, sizeof(*view->pods), GFP_KERNEL);
	view->containers = kcalloc(size->containers ?: 1,
				   sizeof(*view->containers), GFP_KERNEL);
	view->bits = bitmap_zalloc((masks ?: 1) * cpumask_size() * BITS_PER_BYTE,
				   GFP_KERNEL);
	view->ids = kcalloc(size->ids ?: 1, sizeof(*view->ids), GFP_KERNEL);
	if (!view->pods || !view->containers || !view->bits || !view->ids)
		goto err;
	return view;
err:
	cpumgr_view_free(view);
	return NULL;
}

/* What a view of the table as it is now needs. */
static void cpumgr_table_size(struct cpumgr_view_size *size)
{
	struct cpumgr_container *c;
	struct cpumgr_pod *pod;

	size->pods = 0;
	size->containers = 0;
	size->ids = tbl.root.depth;
	list_for_each_entry(pod, &tbl.pods, node) {
		size->pods++;
		size->ids += pod->cgroup.depth;
		list_for_each_entry(c, &pod->containers, node) {
			size->containers++;
			size->ids += c->cgroup.depth;
		}
	}
}

/* A view for the table as it is, grown by @pods, @containers and @ids. */
static struct cpumgr_view *cpumgr_view_alloc_grown(unsigned int pods,
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

/* The i-th mask of a view's storage. */
static struct cpumask *cpumgr_view_mask(struct cpumgr_view *view,
					unsigned int i)
{
	return (struct cpumask *)((char *)view->bits + i * cpumask_size());
}

/* The owed mask beside the i-th mask. */
static struct cpumask *cpumgr_view_owed(struct cpumgr_view *view,
					unsigned int i)
{
	return cpumgr_view_mask(view, view->cap.pods + view->cap.containers +
				i);
}

static void cpumgr_view_set_cg(struct cpumgr_view *view,
			       struct cpumgr_view_cg *vcg,
			       const struct cpumgr_cgroup_ref *ref,
			       unsigned int *nr_ids)
{
	vcg->id = ref->id;
	vcg->v1 = ref->v1;
	vcg->ancestors = view->ids + *nr_ids;
	vcg->depth = 0;
	if (WARN_ON_ONCE(*nr_ids + ref->depth > view->cap.ids))
		return;
	vcg->depth = ref->depth;
	memcpy(view->ids + *nr_ids, ref->ancestors,
	       ref->depth * sizeof(*ref->ancestors));
	*nr_ids += ref->depth;
}

/*
 * Fill @view from the table, which holds at most what the view was sized
 * for: the sizes are computed under the same lock, before the change.
 * The warnings would be a bug in that sizing.
 */
static void cpumgr_view_fill(struct cpumgr_view *view)
{
	unsigned int nr_ids = 0, np = 0, nc = 0;
	struct cpumgr_container *c;
	struct cpumask *pod_owed;
	struct cpumgr_pod *pod;

	view->generation = tbl.generation;
	view->policy = tbl.policy;
	view->options = tbl.options;
	view->enforce = tbl.enforce;
	view->hotplug = tbl.hotplug;
	view->nr_pods = tbl.nr_pods;
	view->nr_containers = tbl.nr_containers;
	cpumask_copy(view->reserved, tbl.reserved);
	cpumask_copy(view->exclusive, tbl.exclusive);
	cpumask_clear(view->owed);
	cpumgr_view_set_cg(view, &view->root, &tbl.root, &nr_ids);
	view->root_cgrp = tbl.root.live;

	list_for_each_entry(pod, &tbl.pods, node) {
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
			strscpy(vc->name, c->name, sizeof(vc->name));
			cpumgr_view_set_cg(view, &vc->cg, &c->cgroup, &nr_ids);
			nc++;
		}
		vp->nr = nc - vp->first;
		cpumask_or(view->owed, view->owed, pod_owed);
		np++;
	}
	view->nr_pods = np;
}

/* Fill @view and make it the current one. */
static void cpumgr_view_publish(struct cpumgr_view *view)
{
	struct cpumgr_view *old;

	cpumgr_view_fill(view);
	old = rcu_replace_pointer(tbl.view, view, lockdep_is_held(&tbl.lock));
	if (old)
		call_rcu(&old->rcu, cpumgr_view_free_rcu);
}

const struct cpumgr_view *cpumgr_view_get(void)
{
	return rcu_dereference(tbl.view);
}

void cpumgr_view_shared(const struct cpumgr_view *view, struct cpumask *shared)
{
	cpumask_andnot(shared, cpu_online_mask, view->exclusive);
	if (view->options & CPUMGR_OPT_STRICT_CPU_RESERVATION)
		cpumask_andnot(shared, shared, view->reserved);
}

/* Pods and containers */

void cpumgr_container_free(struct cpumgr_container *c)
{
	free_cpumask_var(c->cpus);
	free_cpumask_var(c->lost);
	cpumgr_cgroup_ref_free(&c->cgroup);
	kfree(c);
}

void cpumgr_pod_free(struct cpumgr_pod *pod)
{
	free_cpumask_var(pod->cpus);
	cpumgr_cgroup_ref_free(&pod->cgroup);
	kfree(pod);
}

/* A pod not yet in the table or in sysfs; freed by kobject_put(). */
static struct cpumgr_pod *cpumgr_pod_alloc(const char *uid)
{
	struct cpumgr_pod *pod = kzalloc(sizeof(*pod), GFP_KERNEL);

	if (!pod)
		return NULL;
	if (!zalloc_cpumask_var(&pod->cpus, GFP_KERNEL)) {
		kfree(pod);
		return NULL;
	}
	INIT_LIST_HEAD(&pod->containers);
	strscpy(pod->uid, uid, sizeof(pod->uid));
	kobject_init(&pod->kobj, &cpumgr_pod_ktype);
	return pod;
}

static struct cpumgr_container *cpumgr_container_alloc(const char *name)
{
	struct cpumgr_container *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	if (!zalloc_cpumask_var(&c->cpus, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&c->lost, GFP_KERNEL)) {
		free_cpumask_var(c->cpus);
		kfree(c);
		return NULL;
	}
	strscpy(c->name, name, sizeof(c->name));
	kobject_init(&c->kobj, &cpumgr_container_ktype);
	return c;
}

/*
 * Remove from sysfs now, whoever else holds a reference, and drop the
 * table's.  Objects that never made it into sysfs are just put.
 */
static void cpumgr_kobj_drop(struct kobject *kobj)
{
	if (kobj->state_in_sysfs)
		kobject_del(kobj);
	kobject_put(kobj);
}

static void cpumgr_container_put(struct cpumgr_container *c)
{
	cpumgr_kobj_drop(&c->kobj);
}

static void cpumgr_pod_put(struct cpumgr_pod *pod)
{
	cpumgr_kobj_drop(&pod->kobj);
}

static struct cpumgr_pod *cpumgr_find_pod_in(struct list_head *list,
					     const char *uid)
{
	struct cpumgr_pod *pod;

	list_for_each_entry(pod, list, node) {
		if (!strcmp(pod->uid, uid))
			return pod;
	}
	return NULL;
}

static struct cpumgr_pod *cpumgr_find_pod(const char *uid)
{
	return cpumgr_find_pod_in(&tbl.pods, uid);
}

static struct cpumgr_container *cpumgr_pod_find(struct cpumgr_pod *pod,
						const char *name)
{
	struct cpumgr_container *c;

	list_for_each_entry(c, &pod->containers, node) {
		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

struct cpumgr_container *cpumgr_table_find(const char *pod_uid,
					   const char *container)
{
	struct cpumgr_pod *pod;

	lockdep_assert_held(&tbl.lock);
	pod = cpumgr_find_pod(pod_uid);
	return pod ? cpumgr_pod_find(pod, container) : NULL;
}

struct cpumgr_container *cpumgr_table_nth(unsigned long n)
{
	struct cpumgr_container *c;
	struct cpumgr_pod *pod;

	lockdep_assert_held(&tbl.lock);
	list_for_each_entry(pod, &tbl.pods, node) {
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

	lockdep_assert_held(&tbl.lock);
	if (!list_is_last(&c->node, &pod->containers))
		return list_next_entry(c, node);
	list_for_each_entry_continue(pod, &tbl.pods, node) {
		if (!list_empty(&pod->containers))
			return list_first_entry(&pod->containers,
						struct cpumgr_container, node);
	}
	return NULL;
}

static void cpumgr_pod_update_cpus(struct cpumgr_pod *pod)
{
	struct cpumgr_container *c;

	cpumask_clear(pod->cpus);
	list_for_each_entry(c, &pod->containers, node)
		cpumask_or(pod->cpus, pod->cpus, c->cpus);
}

/* Set what a container shows, under the lock its readers take. */
static void cpumgr_container_set(struct cpumgr_container *c,
				 const struct cpumask *cpus, u32 flags)
{
	spin_lock(&cpumgr_show_lock);
	cpumask_copy(c->cpus, cpus);
	c->flags = flags;
	spin_unlock(&cpumgr_show_lock);
}

/* A new decision (ASSIGN, RESTORE): what offlines took is forgotten. */
static void cpumgr_container_decide(struct cpumgr_container *c,
				    const struct cpumask *cpus, u32 flags)
{
	cpumgr_container_set(c, cpus, flags);
	cpumask_clear(c->lost);
}

/* Swap a binding in; @ref gets the old one, for the caller to free. */
static void cpumgr_cgroup_swap(struct cpumgr_cgroup_ref *bound,
			       struct cpumgr_cgroup_ref *ref)
{
	spin_lock(&cpumgr_show_lock);
	swap(*bound, *ref);
	spin_unlock(&cpumgr_show_lock);
}

/* Checks */

static int cpumgr_check_expect(const struct cpumgr_expect *expect,
			       struct netlink_ext_ack *extack)
{
	if (!expect || !expect->set || expect->generation == tbl.generation)
		return 0;
	CPUMGR_ERR(extack, expect->attr, "generation is stale",
		   "expected %llu, now %llu", expect->generation,
		   tbl.generation);
	return -ESTALE;
}

/*
 * Where a change starts: the table's write lock, then the generation the
 * caller planned against.  The lock is held on return, refused or not.
 */
static int cpumgr_write_begin(const struct cpumgr_expect *expect,
			      struct netlink_ext_ack *extack)
{
	cpumgr_write_lock();
	return cpumgr_check_expect(expect, extack);
}

/* CPUs the table may hold at all: present and online. */
static int cpumgr_check_online(const struct cpumask *cpus,
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
static int cpumgr_check_assignable(const struct cpumask *cpus,
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
	if (cpumask_intersects(cpus, tbl.reserved)) {
		CPUMGR_ERR(extack, attr, "CPU is reserved", "%u",
			   cpumask_first_and(cpus, tbl.reserved));
		return -EACCES;
	}
	if (tbl.options & CPUMGR_OPT_FULL_PCPUS_ONLY) {
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
static int cpumgr_check_other_pods(const struct cpumask *cpus,
				   const char *uid, const struct nlattr *attr,
				   struct netlink_ext_ack *extack)
{
	struct cpumgr_pod *pod;

	list_for_each_entry(pod, &tbl.pods, node) {
		if (!strcmp(pod->uid, uid) ||
		    !cpumask_intersects(cpus, pod->cpus))
			continue;
		CPUMGR_ERR_POD(extack, attr,
			       cpumask_first_and(cpus, pod->cpus), pod->uid);
		return -EBUSY;
	}
	return 0;
}

/* Commit */

/*
 * The last step of every change: bump the generation, derive what
 * depends on the pods, hold the module while assignments exist, and
 * publish @view.
 */
static void cpumgr_commit(struct cpumgr_view *view)
{
	struct cpumgr_pod *pod;

	tbl.generation++;
	cpumask_clear(tbl.exclusive);
	list_for_each_entry(pod, &tbl.pods, node)
		cpumask_or(tbl.exclusive, tbl.exclusive, pod->cpus);
	/* rmmod would drop exclusivity silently: refuse it instead. */
	if (tbl.nr_containers && !tbl.pinned) {
		__module_get(THIS_MODULE);
		tbl.pinned = true;
	} else if (!tbl.nr_containers && tbl.pinned) {
		module_put(THIS_MODULE);
		tbl.pinned = false;
	}
	cpumgr_view_publish(view);
}

/* Take a pod out of the table; cpumgr_pod_put_all() frees it later. */
static void cpumgr_pod_unlink(struct cpumgr_pod *pod)
{
	struct cpumgr_container *c;

	list_for_each_entry(c, &pod->containers, node)
		tbl.nr_containers--;
	list_del(&pod->node);
	tbl.nr_pods--;
}

/* Drop an unlinked pod, its containers with it. */
static void cpumgr_pod_put_all(struct cpumgr_pod *pod)
{
	struct cpumgr_container *c, *tmp;

	list_for_each_entry_safe(c, tmp, &pod->containers, node) {
		list_del(&c->node);
		cpumgr_container_put(c);
	}
	cpumgr_pod_put(pod);
}

/* CONFIGURE */

static int cpumgr_check_config(const struct cpumgr_config *cfg,
			       enum cpumgr_policy policy, u32 options,
			       const struct cpumask *reserved,
			       struct netlink_ext_ack *extack)
{
	int err;

	if (options && policy != CPUMGR_POLICY_STATIC) {
		NL_SET_ERR_MSG_ATTR(extack, cfg->options_attr,
				    "policy options need the static policy");
		return -EINVAL;
	}
	if ((options & CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_CORES) &&
	    (options & (CPUMGR_OPT_FULL_PCPUS_ONLY |
			CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_NUMA))) {
		NL_SET_ERR_MSG_ATTR(extack, cfg->options_attr,
				    "distribute-cpus-across-cores cannot be used with full-pcpus-only or distribute-cpus-across-numa");
		return -EINVAL;
	}
	/* A reserved CPU may go offline; a newly reserved one must be up. */
	cpumask_andnot(tbl.scratch, reserved, tbl.reserved);
	err = cpumgr_check_online(tbl.scratch, cfg->reserved_attr, extack);
	if (err)
		return err;
	if (!tbl.nr_containers)
		return 0;
	if (policy != tbl.policy || options != tbl.options ||
	    !cpumask_equal(reserved, tbl.reserved)) {
		/* Too long for a formatted message (80 bytes on 6.3+). */
		NL_SET_ERR_MSG(extack,
			       "policy, options and reserved CPUs cannot change while assignments exist: RESET first");
		return -ENOTEMPTY;
	}
	return 0;
}

int cpumgr_table_configure(struct cpumgr_config *cfg,
			   const struct cpumgr_expect *expect,
			   struct netlink_ext_ack *extack, u64 *generation)
{
	struct cpumgr_cgroup_ref root = {};
	struct cpumgr_view *view = NULL;
	enum cpumgr_policy policy;
	u32 options;
	int err = 0;

	if (cfg->root_path && *cfg->root_path)
		err = cpumgr_cgroup_resolve(cfg->root_path, &root, true,
					    cfg->root_attr, extack);
	if (err)
		return err;
	err = cpumgr_write_begin(expect, extack);
	if (err)
		goto out;
	policy = cfg->set_policy ? cfg->policy : tbl.policy;
	options = cfg->set_options ? cfg->options : tbl.options;
	if (!cfg->set_reserved)
		cpumask_copy(cfg->reserved, tbl.reserved);
	err = cpumgr_check_config(cfg, policy, options, cfg->reserved, extack);
	if (err)
		goto out;
	err = -ENOMEM;
	view = cpumgr_view_alloc_grown(0, 0, root.depth);
	if (!view)
		goto out;

	err = 0;
	tbl.policy = policy;
	tbl.options = options;
	cpumask_copy(tbl.reserved, cfg->reserved);
	if (cfg->set_enforce)
		tbl.enforce = cfg->enforce;
	if (cfg->set_hotplug)
		tbl.hotplug = cfg->hotplug;
	if (cfg->root_path)
		cpumgr_cgroup_swap(&tbl.root, &root);
	cpumgr_commit(view);
	view = NULL;
	*generation = tbl.generation;
	cpumgr_notify_configured();
out:
	cpumgr_write_unlock();
	cpumgr_view_free(view);
	/* The new root if refused, the old one if replaced. */
	cpumgr_cgroup_ref_free(&root);
	return err;
}

/*
 * Under the lock of what sysfs shows, not the table lock: notifications
 * built while the table lock is held read it too.
 */
void cpumgr_table_root_path(char *buf, size_t size)
{
	spin_lock(&cpumgr_show_lock);
	strscpy(buf, tbl.root.path ?: "", size);
	spin_unlock(&cpumgr_show_lock);
}

/* ASSIGN */

int cpumgr_table_assign(struct cpumgr_entry *entry,
			const struct cpumgr_expect *expect,
			struct netlink_ext_ack *extack, u64 *generation)
{
	bool new_pod = false, new_container = false;
	struct cpumgr_container *c = NULL;
	struct cpumgr_view *view = NULL;
	struct cpumgr_pod *pod;
	int err;

	err = cpumgr_write_begin(expect, extack);
	if (err)
		goto out;
	if (tbl.policy != CPUMGR_POLICY_STATIC) {
		NL_SET_ERR_MSG(extack,
			       "the policy is none: no exclusive CPUs are assigned");
		err = -EOPNOTSUPP;
		goto out;
	}
	err = cpumgr_check_assignable(entry->cpus, entry->cpus_attr, extack);
	if (!err)
		err = cpumgr_check_other_pods(entry->cpus, entry->pod_uid,
					      entry->cpus_attr, extack);
	if (err)
		goto out;

	err = -ENOMEM;
	view = cpumgr_view_alloc_grown(1, 1, 0);
	if (!view)
		goto out;
	pod = cpumgr_find_pod(entry->pod_uid);
	if (!pod) {
		pod = cpumgr_pod_alloc(entry->pod_uid);
		if (!pod)
			goto out;
		new_pod = true;
		if (kobject_add(&pod->kobj, cpumgr_pods_kobj, "%s", pod->uid))
			goto out_put;
	} else {
		c = cpumgr_pod_find(pod, entry->container);
	}
	if (!c) {
		c = cpumgr_container_alloc(entry->container);
		if (!c)
			goto out_put;
		new_container = true;
		c->pod = pod;
		if (kobject_add(&c->kobj, &pod->kobj, "%s", c->name))
			goto out_put;
	}

	err = 0;
	cpumgr_container_decide(c, entry->cpus, entry->flags);
	if (new_pod) {
		list_add_tail(&pod->node, &tbl.pods);
		tbl.nr_pods++;
	}
	if (new_container) {
		list_add_tail(&c->node, &pod->containers);
		tbl.nr_containers++;
	}
	cpumgr_pod_update_cpus(pod);
	cpumgr_commit(view);
	view = NULL;
	*generation = tbl.generation;
	cpumgr_notify_assigned(c, tbl.generation);
	goto out;

out_put:
	if (new_container && c)
		cpumgr_container_put(c);
	if (new_pod)
		cpumgr_pod_put(pod);
out:
	cpumgr_write_unlock();
	cpumgr_view_free(view);
	return err;
}

/* RELEASE */

int cpumgr_table_release(const char *pod_uid, const char *container,
			 const struct cpumgr_expect *expect,
			 struct netlink_ext_ack *extack, u64 *generation)
{
	struct cpumgr_container *c = NULL;
	struct cpumgr_view *view = NULL;
	struct cpumgr_pod *pod;
	int err;

	err = cpumgr_write_begin(expect, extack);
	if (err)
		goto out;
	err = -ENOENT;
	pod = cpumgr_find_pod(pod_uid);
	if (!pod) {
		NL_SET_ERR_MSG(extack, "no such pod");
		goto out;
	}
	if (container) {
		c = cpumgr_pod_find(pod, container);
		if (!c) {
			NL_SET_ERR_MSG(extack, "no such container in the pod");
			goto out;
		}
	}
	err = -ENOMEM;
	view = cpumgr_view_alloc_grown(0, 0, 0);
	if (!view)
		goto out;

	err = 0;
	/* What the pod gives back to the shared pool goes in scratch. */
	cpumask_copy(tbl.scratch, pod->cpus);
	if (c && !list_is_singular(&pod->containers)) {
		list_del(&c->node);
		tbl.nr_containers--;
		cpumgr_pod_update_cpus(pod);
		cpumask_andnot(tbl.scratch, tbl.scratch, pod->cpus);
	} else {
		c = NULL;
		cpumgr_pod_unlink(pod);
	}
	cpumgr_commit(view);
	view = NULL;
	*generation = tbl.generation;
	/* A container only when the pod stays: its last one takes the pod. */
	cpumgr_notify_released(pod_uid, c ? container : NULL, tbl.scratch,
			       tbl.generation);
	if (c)
		cpumgr_container_put(c);
	else
		cpumgr_pod_put_all(pod);
out:
	cpumgr_write_unlock();
	cpumgr_view_free(view);
	return err;
}

/* BIND */

int cpumgr_table_bind(const struct cpumgr_bind *bind,
		      const struct cpumgr_expect *expect,
		      struct netlink_ext_ack *extack, u64 *generation)
{
	struct cpumgr_cgroup_ref cref = {}, pref = {};
	struct cpumgr_container *c = NULL;
	struct cpumgr_view *view = NULL;
	struct cpumgr_pod *pod;
	int err = 0;

	/* Path lookups sleep and do not depend on the table. */
	if (bind->cgroup_path && *bind->cgroup_path)
		err = cpumgr_cgroup_resolve(bind->cgroup_path, &cref, false,
					    bind->cgroup_attr, extack);
	if (!err && bind->pod_cgroup_path && *bind->pod_cgroup_path)
		err = cpumgr_cgroup_resolve(bind->pod_cgroup_path, &pref, false,
					    bind->pod_cgroup_attr, extack);
	if (err)
		goto out_refs;

	err = cpumgr_write_begin(expect, extack);
	if (err)
		goto out;
	err = -ENOENT;
	pod = cpumgr_find_pod(bind->pod_uid);
	if (!pod) {
		NL_SET_ERR_MSG_ATTR(extack, bind->pod_attr, "no such pod");
		goto out;
	}
	if (bind->container) {
		c = cpumgr_pod_find(pod, bind->container);
		if (!c) {
			NL_SET_ERR_MSG_ATTR(extack, bind->container_attr,
					    "no such container in the pod");
			goto out;
		}
	}
	err = -ENOMEM;
	view = cpumgr_view_alloc_grown(0, 0, cref.depth + pref.depth);
	if (!view)
		goto out;

	err = 0;
	if (bind->cgroup_path)
		cpumgr_cgroup_swap(&c->cgroup, &cref);
	if (bind->pod_cgroup_path)
		cpumgr_cgroup_swap(&pod->cgroup, &pref);
	cpumgr_commit(view);
	view = NULL;
	*generation = tbl.generation;
	cpumgr_notify_bound(bind, tbl.generation);
out:
	cpumgr_write_unlock();
	cpumgr_view_free(view);
out_refs:
	/* The new bindings if refused, the old ones if replaced. */
	cpumgr_cgroup_ref_free(&cref);
	cpumgr_cgroup_ref_free(&pref);
	return err;
}

/* RESTORE */

/* What one entry of a RESTORE becomes. */
struct cpumgr_restore_item {
	struct cpumgr_cgroup_ref cgroup;
	struct cpumgr_cgroup_ref pod_cgroup;
	struct cpumgr_container *c;
	bool fresh;		/* c was made for this RESTORE */
};

/*
 * The entries as a whole: no two for one container, one pod cgroup per
 * pod, no CPU in two pods.  @owner is a scratch array of nr_cpu_ids.
 */
static int cpumgr_check_restore(struct cpumgr_entry *entries, unsigned int nr,
				struct cpumgr_restore_item *items,
				const char **owner,
				struct netlink_ext_ack *extack)
{
	unsigned int i, j, cpu;
	int err;

	for (i = 0; i < nr; i++) {
		struct cpumgr_entry *e = &entries[i];

		err = cpumgr_check_assignable(e->cpus, e->cpus_attr, extack);
		if (err)
			return err;
		for (j = 0; j < i; j++) {
			if (strcmp(entries[j].pod_uid, e->pod_uid))
				continue;
			if (!strcmp(entries[j].container, e->container)) {
				NL_SET_ERR_MSG_ATTR(extack, e->container_attr,
						    "container appears twice");
				return -EINVAL;
			}
			if (e->pod_cgroup_path && entries[j].pod_cgroup_path &&
			    items[i].pod_cgroup.id != items[j].pod_cgroup.id) {
				NL_SET_ERR_MSG_ATTR(extack, e->pod_cgroup_attr,
						    "two cgroups for one pod");
				return -EINVAL;
			}
		}
		for_each_cpu(cpu, e->cpus) {
			if (owner[cpu] && strcmp(owner[cpu], e->pod_uid)) {
				CPUMGR_ERR_POD(extack, e->cpus_attr, cpu,
					       owner[cpu]);
				return -EBUSY;
			}
			owner[cpu] = e->pod_uid;
		}
	}
	return 0;
}

/*
 * Find or make (in sysfs, not yet in the table) the pod and container of
 * every entry.  Made pods wait on @fresh; made containers are already on
 * their pod's list, which only the lock holder walks before the commit.
 */
static int cpumgr_restore_prepare(struct cpumgr_entry *entries,
				  unsigned int nr,
				  struct cpumgr_restore_item *items,
				  struct list_head *fresh)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct cpumgr_entry *e = &entries[i];
		struct cpumgr_pod *pod;
		struct cpumgr_container *c;

		pod = cpumgr_find_pod(e->pod_uid);
		if (!pod)
			pod = cpumgr_find_pod_in(fresh, e->pod_uid);
		if (!pod) {
			pod = cpumgr_pod_alloc(e->pod_uid);
			if (!pod)
				return -ENOMEM;
			list_add_tail(&pod->node, fresh);
			if (kobject_add(&pod->kobj, cpumgr_pods_kobj, "%s",
					pod->uid))
				return -ENOMEM;
		}
		pod->mark = true;
		c = cpumgr_pod_find(pod, e->container);
		if (!c) {
			c = cpumgr_container_alloc(e->container);
			if (!c)
				return -ENOMEM;
			c->pod = pod;
			items[i].fresh = true;
			list_add_tail(&c->node, &pod->containers);
			if (kobject_add(&c->kobj, &pod->kobj, "%s", c->name)) {
				items[i].c = c;
				return -ENOMEM;
			}
		}
		c->mark = true;
		items[i].c = c;
	}
	return 0;
}

/* Undo cpumgr_restore_prepare(): the table is as it was. */
static void cpumgr_restore_unprepare(struct cpumgr_restore_item *items,
				     unsigned int nr, struct list_head *fresh)
{
	struct cpumgr_pod *pod, *tmp;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (items[i].fresh && items[i].c) {
			list_del(&items[i].c->node);
			cpumgr_container_put(items[i].c);
		}
	}
	list_for_each_entry_safe(pod, tmp, fresh, node) {
		list_del(&pod->node);
		cpumgr_pod_put(pod);
	}
}

/*
 * Apply the prepared entries: what they do not name leaves the table
 * (to @gone, to be dropped after the notification), what they name takes
 * their CPUs, flags and bindings.
 */
static void cpumgr_restore_commit(struct cpumgr_entry *entries,
				  unsigned int nr,
				  struct cpumgr_restore_item *items,
				  struct list_head *fresh,
				  struct list_head *gone)
{
	struct cpumgr_cgroup_ref none = {};
	struct cpumgr_container *c, *ctmp;
	struct cpumgr_pod *pod, *tmp;
	unsigned int i;

	list_for_each_entry_safe(pod, tmp, &tbl.pods, node) {
		if (!pod->mark) {
			list_move_tail(&pod->node, gone);
			continue;
		}
		list_for_each_entry_safe(c, ctmp, &pod->containers, node) {
			if (!c->mark) {
				list_del(&c->node);
				cpumgr_container_put(c);
			}
		}
		/* Unbound unless an entry binds it again. */
		cpumgr_cgroup_swap(&pod->cgroup, &none);
		cpumgr_cgroup_ref_free(&none);
	}
	list_splice_tail_init(fresh, &tbl.pods);

	for (i = 0; i < nr; i++) {
		c = items[i].c;
		cpumgr_container_decide(c, entries[i].cpus, entries[i].flags);
		cpumgr_cgroup_swap(&c->cgroup, &items[i].cgroup);
		if (entries[i].pod_cgroup_path && !c->pod->cgroup.id)
			cpumgr_cgroup_swap(&c->pod->cgroup,
					   &items[i].pod_cgroup);
	}

	tbl.nr_pods = 0;
	tbl.nr_containers = 0;
	list_for_each_entry(pod, &tbl.pods, node) {
		pod->mark = false;
		tbl.nr_pods++;
		list_for_each_entry(c, &pod->containers, node) {
			c->mark = false;
			tbl.nr_containers++;
		}
		cpumgr_pod_update_cpus(pod);
	}
}

int cpumgr_table_restore(struct cpumgr_entry *entries, unsigned int nr,
			 const struct cpumgr_expect *expect,
			 struct netlink_ext_ack *extack, u64 *generation)
{
	struct cpumgr_restore_item *items;
	struct cpumgr_view *view = NULL;
	struct cpumgr_view_size size;
	struct cpumgr_pod *pod, *tmp;
	const char **owner = NULL;
	LIST_HEAD(fresh);
	LIST_HEAD(gone);
	unsigned int i;
	int err = 0;

	items = kcalloc(nr ?: 1, sizeof(*items), GFP_KERNEL);
	if (!items)
		return -ENOMEM;
	for (i = 0; i < nr && !err; i++) {
		if (entries[i].cgroup_path && *entries[i].cgroup_path)
			err = cpumgr_cgroup_resolve(entries[i].cgroup_path,
						    &items[i].cgroup, false,
						    entries[i].cgroup_attr,
						    extack);
		if (!err && entries[i].pod_cgroup_path &&
		    *entries[i].pod_cgroup_path)
			err = cpumgr_cgroup_resolve(entries[i].pod_cgroup_path,
						    &items[i].pod_cgroup, false,
						    entries[i].pod_cgroup_attr,
						    extack);
	}
	if (err)
		goto out_items;
	err = -ENOMEM;
	owner = kcalloc(nr_cpu_ids, sizeof(*owner), GFP_KERNEL);
	if (!owner)
		goto out_items;
	/* Room for the table as it will be: the entries and the root. */
	size.pods = nr;
	size.containers = nr;
	size.ids = 0;
	for (i = 0; i < nr; i++)
		size.ids += items[i].cgroup.depth + items[i].pod_cgroup.depth;

	cpumgr_write_lock();
	err = -ENOMEM;
	size.ids += tbl.root.depth;
	view = cpumgr_view_alloc(&size);
	if (!view)
		goto out;
	err = cpumgr_check_expect(expect, extack);
	if (err)
		goto out;
	if (nr && tbl.policy != CPUMGR_POLICY_STATIC) {
		NL_SET_ERR_MSG(extack,
			       "the policy is none: no exclusive CPUs are assigned");
		err = -EOPNOTSUPP;
		goto out;
	}
	err = cpumgr_check_restore(entries, nr, items, owner, extack);
	if (err)
		goto out;
	err = cpumgr_restore_prepare(entries, nr, items, &fresh);
	if (err) {
		cpumgr_restore_unprepare(items, nr, &fresh);
		list_for_each_entry(pod, &tbl.pods, node) {
			struct cpumgr_container *c;

			pod->mark = false;
			list_for_each_entry(c, &pod->containers, node)
				c->mark = false;
		}
		goto out;
	}

	cpumgr_restore_commit(entries, nr, items, &fresh, &gone);
	cpumgr_commit(view);
	view = NULL;
	*generation = tbl.generation;
	cpumgr_notify_restored(tbl.nr_pods, tbl.nr_containers, tbl.generation);
	list_for_each_entry_safe(pod, tmp, &gone, node) {
		list_del(&pod->node);
		cpumgr_pod_put_all(pod);
	}
out:
	cpumgr_write_unlock();
out_items:
	for (i = 0; i < nr; i++) {
		cpumgr_cgroup_ref_free(&items[i].cgroup);
		cpumgr_cgroup_ref_free(&items[i].pod_cgroup);
	}
	kfree(items);
	kfree(owner);
	cpumgr_view_free(view);
	return err;
}

/* RESET */

int cpumgr_table_reset(const struct cpumgr_expect *expect,
		       struct netlink_ext_ack *extack, u64 *generation)
{
	struct cpumgr_view_size none = {};
	struct cpumgr_view *view = cpumgr_view_alloc(&none);
	struct cpumgr_cgroup_ref root = {};
	struct cpumgr_pod *pod, *tmp;
	LIST_HEAD(gone);
	int err;

	if (!view)
		return -ENOMEM;
	err = cpumgr_write_begin(expect, extack);
	if (err)
		goto out;
	list_splice_init(&tbl.pods, &gone);
	tbl.nr_pods = 0;
	tbl.nr_containers = 0;
	tbl.policy = CPUMGR_POLICY_NONE;
	tbl.options = 0;
	cpumask_clear(tbl.reserved);
	tbl.enforce = cpumgr_param_enforce;
	tbl.hotplug = cpumgr_param_hotplug;
	cpumgr_cgroup_swap(&tbl.root, &root);
	cpumgr_commit(view);
	view = NULL;
	*generation = tbl.generation;
	cpumgr_notify_reset(tbl.generation);
	list_for_each_entry_safe(pod, tmp, &gone, node) {
		list_del(&pod->node);
		cpumgr_pod_put_all(pod);
	}
out:
	cpumgr_write_unlock();
	cpumgr_view_free(view);
	cpumgr_cgroup_ref_free(&root);
	return err;
}

/* CPU hotplug */

/*
 * Whether the cgroup2 cgroup @ref is bound to names @cpu in its
 * cpuset.cpus.  (A v1 cpuset drops an offline CPU for good.)
 */
static bool cpumgr_cgroup_names_cpu(const struct cpumgr_cgroup_ref *ref,
				    unsigned int cpu)
{
	struct cgroup_subsys_state *css;
	struct cgroup *cgrp;
	bool names = false;

	if (!ref->id || ref->v1)
		return false;
	cgrp = cgroup_get_from_id(ref->id);
	if (IS_ERR(cgrp))
		return false;
	rcu_read_lock();
	css = cpumgr_cpuset_css(cgrp);
	if (css && css->cgroup == cgrp)
		names = cpumask_test_cpu(cpu, cpumgr_cpuset_allowed(css));
	rcu_read_unlock();
	cgroup_put(cgrp);
	return names;
}

/*
 * A CPU an offline took from a container (release mode) comes back to
 * it when its cgroup still names the CPU: cgroup2 gives it back to the
 * cgroup's tasks, and in the shared pool it would be handed to another
 * pod while that container runs there.  Otherwise it joins the pool.
 */
int cpumgr_table_cpu_online(unsigned int cpu)
{
	struct cpumgr_container *c;
	struct cpumgr_view *view;
	struct cpumgr_pod *pod;
	u32 flags;

	mutex_lock(&tbl.lock);
	view = cpumgr_view_alloc_grown(0, 0, 0);
	if (!view) {
		mutex_unlock(&tbl.lock);
		return -ENOMEM;
	}
	list_for_each_entry(pod, &tbl.pods, node) {
		list_for_each_entry(c, &pod->containers, node) {
			if (!cpumask_test_and_clear_cpu(cpu, c->lost) ||
			    !cpumgr_cgroup_names_cpu(&c->cgroup, cpu))
				continue;
			cpumask_copy(tbl.scratch, c->cpus);
			__cpumask_set_cpu(cpu, tbl.scratch);
			flags = c->flags;
			if (cpumask_empty(c->lost))
				flags &= ~CPUMGR_ASSIGNMENT_F_DEGRADED;
			cpumgr_container_set(c, tbl.scratch, flags);
			c->mark = true;
		}
		cpumgr_pod_update_cpus(pod);
	}
	cpumgr_commit(view);
	cpumgr_notify_cpu(CPUMGR_CMD_CPU_ONLINE_NTF, cpu, tbl.generation);
	list_for_each_entry(pod, &tbl.pods, node) {
		list_for_each_entry(c, &pod->containers, node) {
			if (c->mark)
				cpumgr_notify_assigned(c, tbl.generation);
			c->mark = false;
		}
	}
	mutex_unlock(&tbl.lock);
	return 0;
}

/*
 * A CPU goes offline: in release mode, or in protect mode through a path
 * the early refusal does not see, it leaves the assignments holding it,
 * which are marked degraded for the controller to top them up.  The
 * table never holds an offline CPU (but across a suspend).
 */
int cpumgr_table_cpu_offline(unsigned int cpu)
{
	struct cpumgr_container *c;
	struct cpumgr_view *view;
	struct cpumgr_pod *pod;

	mutex_lock(&tbl.lock);
	view = cpumgr_view_alloc_grown(0, 0, 0);
	if (!view) {
		mutex_unlock(&tbl.lock);
		return -ENOMEM;
	}
	list_for_each_entry(pod, &tbl.pods, node) {
		if (!cpumask_test_cpu(cpu, pod->cpus))
			continue;
		list_for_each_entry(c, &pod->containers, node) {
			if (!cpumask_test_cpu(cpu, c->cpus))
				continue;
			cpumask_copy(tbl.scratch, c->cpus);
			__cpumask_clear_cpu(cpu, tbl.scratch);
			cpumgr_container_set(c, tbl.scratch,
					     c->flags | CPUMGR_ASSIGNMENT_F_DEGRADED);
			cpumask_set_cpu(cpu, c->lost);
			c->mark = true;
		}
		cpumgr_pod_update_cpus(pod);
	}
	cpumgr_commit(view);
	list_for_each_entry(pod, &tbl.pods, node) {
		list_for_each_entry(c, &pod->containers, node) {
			if (c->mark)
				cpumgr_notify_degraded(c, cpu, tbl.generation);
			c->mark = false;
		}
	}
	cpumgr_notify_cpu(CPUMGR_CMD_CPU_OFFLINE_NTF, cpu, tbl.generation);
	mutex_unlock(&tbl.lock);
	return 0;
}

int cpumgr_table_init(void)
{
	struct cpumgr_view_size none = {};
	struct cpumgr_view *view;

	mutex_init(&tbl.lock);
	INIT_LIST_HEAD(&tbl.pods);
	tbl.enforce = cpumgr_param_enforce;
	tbl.hotplug = cpumgr_param_hotplug;
	if (!zalloc_cpumask_var(&tbl.reserved, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&tbl.exclusive, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&tbl.scratch, GFP_KERNEL))
		goto err;
	view = cpumgr_view_alloc(&none);
	if (!view)
		goto err;
	mutex_lock(&tbl.lock);
	cpumgr_view_publish(view);
	mutex_unlock(&tbl.lock);
	return 0;
err:
	free_cpumask_var(tbl.reserved);
	free_cpumask_var(tbl.exclusive);
	free_cpumask_var(tbl.scratch);
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
	struct cpumgr_view *view;

	if (tbl.nr_pods)
		pr_warn("forced unload with %u assignments: their CPUs are released\n",
			tbl.nr_containers);
	list_for_each_entry_safe(pod, tmp, &tbl.pods, node) {
		cpumgr_pod_unlink(pod);
		cpumgr_pod_put_all(pod);
	}
	view = rcu_replace_pointer(tbl.view, NULL, true);
	synchronize_rcu();
	cpumgr_view_free(view);
	/* Views retired by call_rcu() are freed before the module goes. */
	rcu_barrier();
	cpumgr_cgroup_ref_free(&tbl.root);
	free_cpumask_var(tbl.reserved);
	free_cpumask_var(tbl.exclusive);
	free_cpumask_var(tbl.scratch);
}
