// SPDX-License-Identifier: GPL-2.0
/*
 * RESTORE: the whole table replaced at once, from a checkpoint.  The
 * entries are checked as a whole, their pods and containers found or
 * made, and the table takes them in one commit, or stays as it was.
 */
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/netlink.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cpumgr.h"
#include "cpumgr_cgroup.h"
#include "cpumgr_notify.h"
#include "cpumgr_pods.h"
#include "cpumgr_request.h"
#include "cpumgr_restore.h"
#include "cpumgr_table.h"
#include "cpumgr_view.h"

/* What one entry of a RESTORE becomes. */
struct cpumgr_restore_item {
	struct cpumgr_cgroup_ref cgroup;
	struct cpumgr_cgroup_ref pod_cgroup;
	struct cpumgr_container *c;
	bool fresh;		/* c was made for this RESTORE */
};

/*
 * The entries as a whole: no two for one container, one pod cgroup per
 * pod, no CPU in two pods, no binding BIND would refuse.  @owner is a
 * scratch array of nr_cpu_ids.
 */
static int cpumgr_check_restore(struct cpumgr_entry *entries, unsigned int nr,
				struct cpumgr_restore_item *items,
				const char **owner,
				struct netlink_ext_ack *extack)
{
	unsigned int i, j, cpu, same;
	int err;

	for (i = 0; i < nr; i++) {
		struct cpumgr_entry *e = &entries[i];

		err = cpumgr_check_assignable(e->cpus, e->cpus_attr, extack);
		if (!err)
			err = cpumgr_check_bindable(&items[i].cgroup,
						    e->cgroup_attr, extack);
		if (!err)
			err = cpumgr_check_bindable(&items[i].pod_cgroup,
						    e->pod_cgroup_attr, extack);
		if (err)
			return err;
		same = 0;
		for (j = 0; j < i; j++) {
			if (strcmp(entries[j].pod_uid, e->pod_uid))
				continue;
			if (++same == CPUMGR_POD_CONTAINERS_MAX) {
				cpumgr_pod_too_many(extack, e->container_attr);
				return -ENOSPC;
			}
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
			if (cpumgr_pod_add(pod))
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
			if (cpumgr_container_add(c)) {
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

	list_for_each_entry_safe(pod, tmp, &cpumgr_tbl.pods, node) {
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
		/* RESTORE carries no pools: the controller sets them after */
		cpumgr_pod_set_pool(pod, cpu_none_mask);
	}
	list_splice_tail_init(fresh, &cpumgr_tbl.pods);

	for (i = 0; i < nr; i++) {
		c = items[i].c;
		cpumgr_container_decide(c, entries[i].cpus, entries[i].flags);
		cpumgr_cgroup_swap(&c->cgroup, &items[i].cgroup);
		if (entries[i].pod_cgroup_path && !c->pod->cgroup.id)
			cpumgr_cgroup_swap(&c->pod->cgroup,
					   &items[i].pod_cgroup);
	}

	cpumgr_tbl.nr_pods = 0;
	cpumgr_tbl.nr_containers = 0;
	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		pod->mark = false;
		cpumgr_tbl.nr_pods++;
		list_for_each_entry(c, &pod->containers, node) {
			c->mark = false;
			cpumgr_tbl.nr_containers++;
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
	/* Room for the table as it will be: the entries, the root, system. */
	size.pods = nr;
	size.containers = nr;
	size.ids = 0;
	for (i = 0; i < nr; i++)
		size.ids += items[i].cgroup.depth + items[i].pod_cgroup.depth;

	cpumgr_write_lock();
	err = -ENOMEM;
	size.ids += cpumgr_tbl.root.depth + cpumgr_tbl.system.depth;
	view = cpumgr_view_alloc(&size);
	if (!view)
		goto out;
	err = cpumgr_check_expect(expect, extack);
	if (err)
		goto out;
	if (nr && cpumgr_tbl.policy != CPUMGR_POLICY_STATIC) {
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
		list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
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
	*generation = cpumgr_tbl.generation;
	cpumgr_notify_restored(cpumgr_tbl.nr_pods, cpumgr_tbl.nr_containers,
			       cpumgr_tbl.generation);
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
