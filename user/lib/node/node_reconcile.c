// SPDX-License-Identifier: GPL-2.0
/*
 * remove and reconcile: the kubelet's RemoveContainer, removeStaleState
 * and reconcileState, without the lag: the kernel table changes first,
 * then every attached container's cgroup is brought in line at once;
 * and the same reconcile before a container gains CPUs, every other
 * cgroup without them (node_withhold()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "node.h"
#include "node_internal.h"
#include "podlist.h"

/* What RemoveContainer gives back, for the message. */
static void released(struct node *n, const char *uid, const char *container,
		     struct cpuset *out)
{
	struct cpu_assignments st;

	cpuset_zero(out);
	if (n->cfg.policy != CPU_POLICY_STATIC || node_policy(n, NULL))
		return;
	assignments_init(&st);
	if (assignments_copy(&st, &n->assignments))
		return;
	for (unsigned int i = 0; i < n->assignments.nr; i++) {
		const struct assignment_entry *e = &n->assignments.entries[i];

		if (!strcmp(e->pod_uid, uid) &&
		    (!container || !strcmp(e->container, container)))
			cpu_policy_remove(&n->policy, &st, uid, e->container);
	}
	cpuset_andnot(out, &st.default_set, &n->assignments.default_set);
	assignments_free(&st);
}

int node_remove_check(struct node *n, const char *uid,
		      const char *container, struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, uid);

	if (!p && !node_pod_in_kernel(n, uid))
		return cm_errorf(err, "pod %s is not admitted", uid);
	if (container && !(p && node_pod_container(p, container) >= 0) &&
	    !node_assignment(n, uid, container))
		return cm_errorf(err, "pod %s has no container %s", uid,
				 container);
	return 0;
}

/* Its cgroup back to a member, its CPUs out of its ancestors' exclusive ones. */
void node_unpartition(struct node *n, const struct node_pod *p,
		      unsigned int k)
{
	const char *c = p->pod.containers[k].name;
	const struct cpumgr_assignment *a = node_assignment(n, p->pod.uid, c);
	char name[PATH_MAX], parent[PATH_MAX];
	struct cm_error err = { 0 };
	bool have_name = false;
	struct cpuset cpus;

	if (!node_quiet_partitioned(n, p, k) || !a || !a->cpus ||
	    cpuset_parse(&cpus, a->cpus, NULL))
		return;
	parent[0] = '\0';
	if (p->c[k].cgroup[0] &&
	    !node_cgroup_name(n, p->c[k].cgroup, name, sizeof(name), &err)) {
		have_name = true;
		cgroupfs_parent(name, parent, sizeof(parent));
	} else if (p->pod_cgroup[0]) {
		node_cgroup_name(n, p->pod_cgroup, parent, sizeof(parent), &err);
	}
	cm_error_clear(&err);
	if (node_quiet_release(n, p->pod.uid, c, parent,
			       have_name ? name : NULL, &cpus, &err))
		node_log_sev(n, NODE_LOG_WARNING, "%s/%s: partition not undone: %s",
			     p->pod.uid, c, cm_error_msg(&err));
	cm_error_clear(&err);
}

int node_remove(struct node *n, const char *uid, const char *container,
		struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, uid);
	bool in_kernel = container ? node_assignment(n, uid,
						     container) != NULL :
				     node_pod_in_kernel(n, uid);
	char *text, pod_cgroup[PATH_MAX] = "";
	struct cpuset freed;
	int k = -1, ret;

	ret = node_remove_check(n, uid, container, err);
	if (ret)
		return ret;
	/* the pod file may go: what to narrow after */
	if (p)
		snprintf(pod_cgroup, sizeof(pod_cgroup), "%s", p->pod_cgroup);
	if (container && p)
		k = node_pod_container(p, container);
	/* nothing in the kernel: nothing released, the table as it was */
	cpuset_zero(&freed);
	if (in_kernel)
		released(n, uid, container, &freed);
	if (in_kernel &&
	    cpumgr_nl_release(n->kernel.nl, uid, container, NULL, NULL))
		return node_nl_error(n, "release", err);
	/*
	 * Released first: a partition undone before would hand CPUs the
	 * table still gives the container to the cgroups that inherit, which
	 * the kernel refuses.  The assignments read are those before the
	 * release until the refresh.
	 */
	for (unsigned int i = 0; p && in_kernel && i < p->pod.nr; i++)
		if (!container || (int)i == k)
			node_unpartition(n, p, i);
	ret = in_kernel ? node_refresh(n, err) : 0;
	if (!ret && in_kernel)
		ret = node_save_checkpoint(n, 0, err);
	if (!ret && p && !container) {
		ret = node_delete_pod(n, uid, err);
	} else if (!ret && k >= 0) {
		p->c[k].removed = true;
		p->c[k].cgroup[0] = '\0';
		ret = node_save_pod(n, p, err);
	}
	if (!ret && node_narrow_pod(n, pod_cgroup, err) < 0)
		ret = -EIO;
	/* what it asked of the node goes with it */
	if (!ret && node_quiet_sync(n, err) < 0)
		ret = -EIO;
	if (ret)
		return ret;
	text = cpuset_to_str(&freed);
	node_log(n, "removed %s%s%s, released CPUs %s", uid,
		 container ? "/" : "", container ? container : "",
		 text && text[0] ? text : "(none)");
	free(text);
	return 0;
}

static const struct pod *active_pod(const struct pod_list *l, const char *uid)
{
	for (unsigned int i = 0; i < l->nr; i++)
		if (!strcmp(l->pods[i].uid, uid))
			return &l->pods[i];
	return NULL;
}

/* removeStaleState(): whatever belongs to no active pod goes. */
static int remove_stale(struct node *n, const struct pod_list *active,
			struct cm_error *err)
{
	int changes = 0;

	for (unsigned int i = 0; i < n->nr_pods;) {
		char uid[POD_UID_MAX + 1];

		strcpy(uid, n->pods[i].pod.uid);
		if (active_pod(active, uid)) {
			i++;
			continue;
		}
		if (node_remove(n, uid, NULL, err))
			return -EIO;
		changes++;
	}
	for (size_t i = 0; i < n->kernel.nr_as;) {
		const struct cpumgr_assignment *a = &n->kernel.as[i];
		const struct pod *p = active_pod(active, a->pod_uid);
		char uid[POD_UID_MAX + 1], name[CONTAINER_NAME_MAX + 1];

		if (p && pod_container(p, a->container)) {
			i++;
			continue;
		}
		/* node_remove() reads the table again: start over */
		strcpy(uid, a->pod_uid);
		strcpy(name, a->container);
		if (node_remove(n, uid, p ? name : NULL, err))
			return -EIO;
		changes++;
		i = 0;
	}
	return changes;
}

static bool gone(const char *path)
{
	struct stat st;

	return stat(path, &st) != 0;
}

/* The kernel binds what the pod file says (a restore may have lost it). */
static int rebind(struct node *n, const struct node_pod *p, unsigned int k,
		  struct cm_error *err)
{
	const struct pod_container *c = &p->pod.containers[k];
	const struct cpumgr_assignment *a = node_assignment(n, p->pod.uid,
							    c->name);
	const char *pod_cg = p->pod_cgroup[0] ? p->pod_cgroup : NULL;

	if (!a || (a->cgroup_path && !strcmp(a->cgroup_path, p->c[k].cgroup) &&
		   (!pod_cg || (a->pod_cgroup_path &&
				!strcmp(a->pod_cgroup_path, pod_cg)))))
		return 0;
	if (cpumgr_nl_bind(n->kernel.nl, p->pod.uid, c->name, p->c[k].cgroup,
			   pod_cg && !gone(pod_cg) ? pod_cg : NULL, NULL,
			   NULL))
		return node_nl_error(n, "bind", err);
	node_log(n, "%s/%s: bound to %s", p->pod.uid, c->name,
		 p->c[k].cgroup);
	return 1 + node_refresh(n, err);
}

/* A container's cgroup, unless it is gone (a runtime removed it). */
static bool attached(struct node *n, const struct node_pod *p, unsigned int k)
{
	if (p->c[k].removed || !p->c[k].cgroup[0])
		return false;
	if (!gone(p->c[k].cgroup))
		return true;
	node_log(n, "%s/%s: cgroup %s is gone", p->pod.uid,
		 p->pod.containers[k].name, p->c[k].cgroup);
	return false;
}

int node_reconcile_one(struct node *n, const struct node_pod *p,
		       struct cm_error *err)
{
	bool any = false;
	int changes = 0, ret;

	for (unsigned int k = 0; k < p->pod.nr; k++) {
		if (p->c[k].removed || !p->c[k].cgroup[0])
			continue;
		any = true;
		if (!attached(n, p, k))
			continue;
		ret = rebind(n, p, k, err);
		if (ret >= 0)
			changes += ret;
		if (ret >= 0)
			ret = node_apply_container(n, p, k, false, err);
		if (ret < 0)
			return ret;
		changes += ret;
	}
	if (!any || !p->pod_cgroup[0] || gone(p->pod_cgroup))
		return changes;
	ret = node_apply_pod(n, p, false, err);
	return ret < 0 ? ret : changes + ret;
}

int node_reconcile(struct node *n, const struct pod_list *active,
		   struct cm_error *err)
{
	int changes = 0, ret;

	if (active) {
		ret = remove_stale(n, active, err);
		if (ret < 0)
			return ret;
		changes += ret;
	}
	/* the pod cgroups first: a container's CPUs are within its pod's */
	ret = node_narrow_tree(n, err);
	if (ret < 0)
		return ret;
	changes += ret;
	for (unsigned int i = 0; i < n->nr_pods; i++) {
		ret = node_reconcile_one(n, &n->pods[i], err);
		if (ret < 0)
			return ret;
		changes += ret;
	}
	node_shared_pool(n, &n->reconciled_pool);
	ret = node_quiet_sync(n, err);
	return ret < 0 ? ret : changes + ret;
}

/*
 * The pool moved: every container on it follows (its CFS limits do not
 * depend on the pool), its cpuset written without being read first:
 * they all change.
 */
static int follow_pool(struct node *n, const char *skip_uid,
		       struct cm_error *err)
{
	char name[PATH_MAX];
	struct cpuset pool;
	int changes = 0, ret = 0;

	/* the kernel moved it: they inherit */
	if (n->cfg.pool_moves == NODE_POOL_PARTITIONS)
		return 0;
	node_shared_pool(n, &pool);
	for (unsigned int i = 0; i < n->nr_pods && !ret; i++) {
		const struct node_pod *p = &n->pods[i];

		/* a system pod's partition does not move with the pool */
		if (!strcmp(p->pod.uid, skip_uid) ||
		    node_pod_on_partition(n, p))
			continue;
		for (unsigned int k = 0; k < p->pod.nr && !ret; k++) {
			const char *c = p->pod.containers[k].name;

			struct cpuset cpus;
			bool exclusive = false;

			if (p->c[k].removed || !p->c[k].cgroup[0])
				continue;
			if (node_assignment(n, p->pod.uid, c))
				node_container_cpus(n, p, k, &cpus, &exclusive);
			if (exclusive)
				continue;
			ret = node_cgroup_name(n, p->c[k].cgroup, name,
					       sizeof(name), err);
			if (!ret)
				ret = cgroupfs_set_cpus(&n->cgroups.fs, name,
							&pool, err);
			/* the write says it is gone: no stat() of each first */
			if (ret == -ENOENT) {
				cm_error_clear(err);
				ret = 0;
				node_log(n, "%s/%s: cgroup %s is gone",
					 p->pod.uid, c, p->c[k].cgroup);
				continue;
			}
			if (ret)
				break;
			node_log(n, "%s/%s: %s cpuset.cpus: the shared pool",
				 p->pod.uid, c, p->c[k].cgroup);
			changes++;
		}
	}
	return ret ? ret : changes;
}

int node_reconcile_pod(struct node *n, const char *uid, struct cm_error *err)
{
	const struct node_pod *p = node_find_pod(n, uid);
	int changes = 0, ret;
	struct cpuset pool;

	if (!n->targeted)
		return node_reconcile(n, NULL, err);
	node_shared_pool(n, &pool);
	/* the pod cgroups first: a container's CPUs are within its pod's */
	ret = node_narrow_pod(n, p ? p->pod_cgroup : NULL, err);
	if (ret < 0)
		return ret;
	changes += ret;
	if (p) {
		ret = node_reconcile_one(n, p, err);
		if (ret < 0)
			return ret;
		changes += ret;
	}
	if (!cpuset_equal(&pool, &n->reconciled_pool)) {
		ret = follow_pool(n, uid, err);
		if (ret < 0)
			return ret;
		changes += ret;
		n->reconciled_pool = pool;
	}
	ret = node_quiet_sync(n, err);
	return ret < 0 ? ret : changes + ret;
}

/*
 * Before a container gains CPUs.
 *
 * CPUs a container gains (an admission, a resize's grow) leave every
 * other cgroup before the ASSIGN that gives them: the shared
 * containers, the pod's sandbox and sidecars and the narrowed tree get
 * the pool without them (n->withheld), the cgroups at or above the
 * container's (n->withheld_below) keep them.  The ASSIGN then carries
 * CPUMGR_A_NARROWED, and the kernel refuses it where a cgroup with tasks
 * still holds one: no task of another container runs on them, not even
 * between the ASSIGN and the next reconcile.
 *
 * Not when the kernel moves the pool (init --pool-moves partitions):
 * the shared containers name no CPU there and let go of a container's
 * CPUs only when its cgroup becomes a partition, after the ASSIGN.  Nor
 * in guard mode: the kubelet decided, and narrows after it assigns.
 */

bool node_narrows_first(const struct node *n)
{
	/*
	 * Nothing is narrowed on v1 or where the managed root is the
	 * hierarchy's (node_narrow()): every other cgroup would still hold
	 * them.
	 */
	return n->cfg.pool_moves != NODE_POOL_PARTITIONS &&
	       n->cgroups.fs.version == 2 && n->cgroups.root_name[0];
}

void node_withhold(struct node *n, const char *uid, const struct cpuset *cpus,
		   const struct cpuset *held, const char *below,
		   uint32_t *flags, uint64_t *gen)
{
	struct cpuset added = *cpus, excl = n->kernel.exclusive;
	struct cm_error err = { 0 };

	if (held)
		cpuset_andnot(&added, &added, held);
	if (cpuset_empty(&added) || !node_narrows_first(n))
		return;
	n->withheld = added;
	n->withheld_below = NULL;
	/*
	 * The pod's cgroups may keep them only where the kernel knows the
	 * pod's cgroup (bound); else its cgroup lets go of them too, and a
	 * new cgroup of it with a task inherits none.  A copy: a reconcile
	 * may read the records below again.
	 */
	if (below && below[0] && node_pod_cgroup_bound(n, uid) &&
	    snprintf(n->withheld_at, sizeof(n->withheld_at), "%s", below) <
	    (int)sizeof(n->withheld_at))
		n->withheld_below = n->withheld_at;
	/*
	 * A cgroup refused or gone: the ASSIGN goes without the flag, as
	 * before there was one, and the next reconcile narrows what is left.
	 */
	if (node_reconcile_pod(n, uid, &err) < 0) {
		node_log(n, "%s: not every cgroup let go of CPUs before the ASSIGN: %s",
			 uid, cm_error_msg(&err));
		cm_error_clear(&err);
		return;
	}
	*flags |= CPUMGR_NL_ASSIGN_NARROWED;
	/*
	 * A rebind on the way (the reconcile binds what the pod files say)
	 * moves the generation without moving a CPU: no reason to plan
	 * again.
	 */
	if (n->kernel.table.generation != *gen &&
	    cpuset_equal(&excl, &n->kernel.exclusive))
		*gen = n->kernel.table.generation;
}

void node_withhold_end(struct node *n, const char *uid, bool given)
{
	struct cm_error again = { 0 };

	if (cpuset_empty(&n->withheld))
		return;
	cpuset_zero(&n->withheld);
	n->withheld_below = NULL;
	/* not taken: the others get them back */
	if (!given && node_reconcile_pod(n, uid, &again) < 0)
		node_log(n, "giving withheld CPUs back: %s",
			 cm_error_msg(&again));
	cm_error_clear(&again);
}
