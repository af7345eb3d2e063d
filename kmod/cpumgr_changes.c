// SPDX-License-Identifier: GPL-2.0
/*
 * The changes of the table that the netlink commands ask for: CONFIGURE,
 * ASSIGN, RELEASE, BIND and RESET.  Each is checked in full under the
 * table's write lock, committed (cpumgr_table.c) and notified
 * (cpumgr_notify.c); RESTORE is cpumgr_restore.c's.
 */
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/netlink.h>
#include <linux/string.h>

#include "cpumgr.h"
#include "cpumgr_cgroup.h"
#include "cpumgr_check_grant.h"
#include "cpumgr_changes.h"
#include "cpumgr_inflight.h"
#include "cpumgr_notify.h"
#include "cpumgr_pods.h"
#include "cpumgr_request.h"
#include "cpumgr_table.h"
#include "cpumgr_view.h"

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
	cpumask_andnot(cpumgr_tbl.scratch, reserved, cpumgr_tbl.reserved);
	err = cpumgr_check_online(cpumgr_tbl.scratch, cfg->reserved_attr,
				  extack);
	if (err)
		return err;
	if (!cpumgr_tbl.nr_containers)
		return 0;
	if (policy != cpumgr_tbl.policy || options != cpumgr_tbl.options ||
	    !cpumask_equal(reserved, cpumgr_tbl.reserved)) {
		/* Too long for a formatted message (80 bytes on 6.3+). */
		NL_SET_ERR_MSG(extack,
			       "policy, options and reserved CPUs cannot change while assignments exist: RESET first");
		return -ENOTEMPTY;
	}
	return 0;
}

/*
 * The system cgroup (KEP-5894) and the managed root as the request
 * leaves them: a system cgroup needs the root and is strictly below it,
 * in its hierarchy, and no container or pod is bound at, below or above
 * it (cpumgr_check_bindable() says why).  A request that moves or clears
 * the root while a system cgroup is set names the system cgroup again
 * (or "") with it.
 */
static int cpumgr_check_system(const struct cpumgr_config *cfg,
			       const struct cpumgr_cgroup_ref *root,
			       const struct cpumgr_cgroup_ref *system,
			       struct netlink_ext_ack *extack)
{
	const struct nlattr *attr = cfg->system_path ? cfg->system_attr :
						       cfg->root_attr;
	struct cpumgr_container *c;
	struct cpumgr_pod *pod;

	if (!system->id || cpumgr_cgroup_ref_gone(system) ||
	    (!cfg->system_path && !cfg->root_path))
		return 0;
	if (!root->id) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "a system cgroup needs a managed cgroup root");
		return -EINVAL;
	}
	if (!cpumgr_cgroup_below(system, root)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "the system cgroup is not below the managed cgroup root, in its hierarchy");
		return -EINVAL;
	}
	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		if (cpumgr_cgroup_at_or_below(&pod->cgroup, system) ||
		    cpumgr_cgroup_below(system, &pod->cgroup))
			goto bound;
		list_for_each_entry(c, &pod->containers, node) {
			if (cpumgr_cgroup_at_or_below(&c->cgroup, system) ||
			    cpumgr_cgroup_below(system, &c->cgroup))
				goto bound;
		}
	}
	return 0;
bound:
	CPUMGR_ERR_SYSTEM(extack, attr, pod->uid);
	return -EBUSY;
}

int cpumgr_table_configure(struct cpumgr_config *cfg,
			   const struct cpumgr_expect *expect,
			   struct netlink_ext_ack *extack, u64 *generation)
{
	struct cpumgr_cgroup_ref root = {}, system = {};
	struct cpumgr_view *view = NULL;
	enum cpumgr_policy policy;
	u32 options;
	int err = 0;

	if (cfg->root_path && *cfg->root_path)
		err = cpumgr_cgroup_resolve(cfg->root_path, &root, true,
					    cfg->root_attr, extack);
	if (!err && cfg->system_path && *cfg->system_path)
		err = cpumgr_cgroup_resolve(cfg->system_path, &system, true,
					    cfg->system_attr, extack);
	if (err)
		goto out_refs;
	err = cpumgr_write_begin(expect, extack);
	if (err)
		goto out;
	policy = cfg->set_policy ? cfg->policy : cpumgr_tbl.policy;
	options = cfg->set_options ? cfg->options : cpumgr_tbl.options;
	if (!cfg->set_reserved)
		cpumask_copy(cfg->reserved, cpumgr_tbl.reserved);
	err = cpumgr_check_config(cfg, policy, options, cfg->reserved, extack);
	if (!err)
		err = cpumgr_check_system(cfg,
					  cfg->root_path ? &root :
							   &cpumgr_tbl.root,
					  cfg->system_path ? &system :
							     &cpumgr_tbl.system,
					  extack);
	if (err)
		goto out;
	err = -ENOMEM;
	view = cpumgr_view_alloc_grown(0, 0, root.depth + system.depth);
	if (!view)
		goto out;

	err = 0;
	cpumgr_tbl.policy = policy;
	cpumgr_tbl.options = options;
	cpumask_copy(cpumgr_tbl.reserved, cfg->reserved);
	if (cfg->set_enforce)
		cpumgr_tbl.enforce = cfg->enforce;
	if (cfg->set_hotplug)
		cpumgr_tbl.hotplug = cfg->hotplug;
	if (cfg->root_path)
		cpumgr_cgroup_swap(&cpumgr_tbl.root, &root);
	/* a removed one goes with any change of the pair (@system is empty) */
	if (cfg->system_path ||
	    (cfg->root_path && cpumgr_cgroup_ref_gone(&cpumgr_tbl.system)))
		cpumgr_cgroup_swap(&cpumgr_tbl.system, &system);
	cpumgr_commit(view);
	view = NULL;
	*generation = cpumgr_tbl.generation;
	cpumgr_notify_configured();
out:
	cpumgr_write_unlock();
	cpumgr_view_free(view);
out_refs:
	/* The new ones if refused, the old ones if replaced. */
	cpumgr_cgroup_ref_free(&root);
	cpumgr_cgroup_ref_free(&system);
	return err;
}

/* ASSIGN */

int cpumgr_table_assign(struct cpumgr_entry *entry,
			const struct cpumgr_expect *expect,
			struct netlink_ext_ack *extack, u64 *generation)
{
	bool new_pod = false, new_container = false, unpends;
	struct cpumgr_container *c = NULL;
	struct cpumgr_view *view = NULL;
	struct cpumgr_pod *pod;
	int err;

	/*
	 * Its check looks at the cpusets as they are: the writes checked
	 * against the table as it is end first, and the others wait
	 */
	if (entry->narrowed && cpumgr_inflight_gate_close()) {
		NL_SET_ERR_MSG(extack,
			       "interrupted while waiting for the cpuset writes under way");
		return -EINTR;
	}
	err = cpumgr_write_begin(expect, extack);
	if (err)
		goto out;
	if (cpumgr_tbl.policy != CPUMGR_POLICY_STATIC) {
		NL_SET_ERR_MSG(extack,
			       "the policy is none: no exclusive CPUs are assigned");
		err = -EOPNOTSUPP;
		goto out;
	}
	pod = cpumgr_find_pod(entry->pod_uid);
	if (pod)
		c = cpumgr_pod_find(pod, entry->container);
	err = cpumgr_check_assignable(entry->cpus, entry->cpus_attr, extack);
	if (!err)
		err = cpumgr_check_other_pods(entry->cpus, entry->pod_uid,
					      entry->cpus_attr, extack);
	/* its partition was coming and stands now: checked as promised */
	unpends = c && (c->flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING) &&
		  !(entry->flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING);
	if (!err && (entry->narrowed || unpends))
		err = cpumgr_check_grant(pod, c, entry, unpends, extack);
	if (err)
		goto out;

	err = -ENOMEM;
	view = cpumgr_view_alloc_grown(1, 1, 0);
	if (!view)
		goto out;
	if (!pod) {
		pod = cpumgr_pod_alloc(entry->pod_uid);
		if (!pod)
			goto out;
		new_pod = true;
		if (cpumgr_pod_add(pod))
			goto out_put;
	}
	if (!c && cpumgr_pod_nr_containers(pod) >= CPUMGR_POD_CONTAINERS_MAX) {
		cpumgr_pod_too_many(extack, entry->container_attr);
		err = -ENOSPC;
		goto out;
	}
	if (!c) {
		c = cpumgr_container_alloc(entry->container);
		if (!c)
			goto out_put;
		new_container = true;
		c->pod = pod;
		if (cpumgr_container_add(c))
			goto out_put;
	}

	err = 0;
	cpumgr_container_decide(c, entry->cpus, entry->flags);
	if (new_pod) {
		list_add_tail(&pod->node, &cpumgr_tbl.pods);
		cpumgr_tbl.nr_pods++;
	}
	if (new_container) {
		list_add_tail(&c->node, &pod->containers);
		cpumgr_tbl.nr_containers++;
	}
	cpumgr_pod_update_cpus(pod);
	cpumgr_commit(view);
	view = NULL;
	*generation = cpumgr_tbl.generation;
	cpumgr_notify_assigned(c, cpumgr_tbl.generation);
	goto out;

out_put:
	if (new_container && c)
		cpumgr_container_put(c);
	if (new_pod)
		cpumgr_pod_put(pod);
out:
	/* before the wait for the writes checked before: those at the gate */
	if (entry->narrowed)
		cpumgr_inflight_gate_open();
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
	cpumask_copy(cpumgr_tbl.scratch, pod->cpus);
	if (c && !list_is_singular(&pod->containers)) {
		list_del(&c->node);
		cpumgr_tbl.nr_containers--;
		cpumgr_pod_update_cpus(pod);
		cpumask_andnot(cpumgr_tbl.scratch, cpumgr_tbl.scratch,
			       pod->cpus);
	} else {
		c = NULL;
		cpumgr_pod_unlink(pod);
	}
	cpumgr_commit(view);
	view = NULL;
	*generation = cpumgr_tbl.generation;
	/* A container only when the pod stays: its last one takes the pod. */
	cpumgr_notify_released(pod_uid, c ? container : NULL,
			       cpumgr_tbl.scratch, cpumgr_tbl.generation);
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
	err = cpumgr_check_bindable(&cref, bind->cgroup_attr, extack);
	if (!err)
		err = cpumgr_check_bindable(&pref, bind->pod_cgroup_attr,
					    extack);
	if (err)
		goto out;
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
	*generation = cpumgr_tbl.generation;
	cpumgr_notify_bound(bind, cpumgr_tbl.generation);
out:
	cpumgr_write_unlock();
	cpumgr_view_free(view);
out_refs:
	/* The new bindings if refused, the old ones if replaced. */
	cpumgr_cgroup_ref_free(&cref);
	cpumgr_cgroup_ref_free(&pref);
	return err;
}

/* RESET */

int cpumgr_table_reset(const struct cpumgr_expect *expect,
		       struct netlink_ext_ack *extack, u64 *generation)
{
	struct cpumgr_view_size none = {};
	struct cpumgr_view *view = cpumgr_view_alloc(&none);
	struct cpumgr_cgroup_ref root = {}, system = {};
	struct cpumgr_pod *pod, *tmp;
	LIST_HEAD(gone);
	int err;

	if (!view)
		return -ENOMEM;
	err = cpumgr_write_begin(expect, extack);
	if (err)
		goto out;
	list_splice_init(&cpumgr_tbl.pods, &gone);
	cpumgr_tbl.nr_pods = 0;
	cpumgr_tbl.nr_containers = 0;
	cpumgr_tbl.policy = CPUMGR_POLICY_NONE;
	cpumgr_tbl.options = 0;
	cpumask_clear(cpumgr_tbl.reserved);
	cpumgr_tbl.enforce = cpumgr_param_enforce;
	cpumgr_tbl.hotplug = cpumgr_param_hotplug;
	cpumgr_cgroup_swap(&cpumgr_tbl.root, &root);
	cpumgr_cgroup_swap(&cpumgr_tbl.system, &system);
	cpumgr_commit(view);
	view = NULL;
	*generation = cpumgr_tbl.generation;
	cpumgr_notify_reset(cpumgr_tbl.generation);
	list_for_each_entry_safe(pod, tmp, &gone, node) {
		list_del(&pod->node);
		cpumgr_pod_put_all(pod);
	}
out:
	cpumgr_write_unlock();
	cpumgr_view_free(view);
	cpumgr_cgroup_ref_free(&root);
	cpumgr_cgroup_ref_free(&system);
	return err;
}
