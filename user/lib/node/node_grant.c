// SPDX-License-Identifier: GPL-2.0
/*
 * CPUs a container gains (an admission, a resize's grow) leave
 * every other cgroup before the ASSIGN that gives them: the shared
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
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "node.h"
#include "node_internal.h"

/* Whether the kernel's table has the pod's cgroup (BIND). */
static bool pod_bound(const struct node *n, const char *uid)
{
	for (size_t i = 0; i < n->kernel.nr_as; i++) {
		const struct cpumgr_assignment *a = &n->kernel.as[i];

		if (!strcmp(a->pod_uid, uid) && a->pod_cgroup_path &&
		    a->pod_cgroup_path[0])
			return true;
	}
	return false;
}

void node_withhold(struct node *n, const char *uid, const struct cpuset *cpus,
		   const struct cpuset *held, const char *below,
		   uint32_t *flags, uint64_t *gen)
{
	struct cpuset added = *cpus, excl = n->kernel.exclusive;
	struct cm_error err = { 0 };

	if (held)
		cpuset_andnot(&added, &added, held);
	/*
	 * Nothing is narrowed on v1 or where the managed root is the
	 * hierarchy's (node_narrow()): every other cgroup would still hold
	 * them.
	 */
	if (cpuset_empty(&added) || n->cfg.pool_moves == NODE_POOL_PARTITIONS ||
	    n->cgroups.fs.version != 2 || !n->cgroups.root_name[0])
		return;
	n->withheld = added;
	n->withheld_below = NULL;
	/*
	 * The pod's cgroups may keep them only where the kernel knows the
	 * pod's cgroup (bound); else its cgroup lets go of them too, and a
	 * new cgroup of it with a task inherits none.  A copy: a reconcile
	 * may read the records below again.
	 */
	if (below && below[0] && pod_bound(n, uid) &&
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

int node_assign(struct node *n, const char *uid, const char *name,
		const char *cpus, uint32_t flags, const uint64_t *expect,
		uint64_t *gen)
{
	int ret = cpumgr_nl_assign(n->kernel.nl, uid, name, cpus, flags,
				   expect, gen, NULL);

	/*
	 * A module loaded before the flag was (a package upgraded under
	 * running containers keeps the old one until it can be reloaded)
	 * refuses the attribute: the ASSIGN unchecked, as it was then.
	 */
	if (ret == -EINVAL && (flags & CPUMGR_NL_ASSIGN_NARROWED) &&
	    strstr(cpumgr_nl_errmsg(n->kernel.nl), "Unknown attribute")) {
		node_log(n, "%s/%s: the loaded module cannot check that the others let go of its CPUs (reload it): assigned unchecked",
			 uid, name);
		ret = cpumgr_nl_assign(n->kernel.nl, uid, name, cpus,
				       flags & ~CPUMGR_NL_ASSIGN_NARROWED,
				       expect, gen, NULL);
	}
	return ret;
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
