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
#include <stdio.h>
#include <string.h>

#include "node.h"
#include "node_internal.h"

void node_withhold(struct node *n, const char *uid, const struct cpuset *cpus,
		   const struct cpuset *held, const char *below,
		   uint32_t *flags)
{
	struct cm_error err = { 0 };
	struct cpuset added = *cpus;

	if (held)
		cpuset_andnot(&added, &added, held);
	if (cpuset_empty(&added) || n->cfg.pool_moves == NODE_POOL_PARTITIONS)
		return;
	n->withheld = added;
	n->withheld_below = NULL;
	/* a copy: a reconcile may read the records below again */
	if (below && below[0] &&
	    snprintf(n->withheld_at, sizeof(n->withheld_at), "%s", below) <
	    (int)sizeof(n->withheld_at))
		n->withheld_below = n->withheld_at;
	/*
	 * A cgroup refused or gone: the ASSIGN goes without the flag, as
	 * before there was one, and the next reconcile narrows what is left.
	 */
	if (node_reconcile_pod(n, uid, &err) < 0)
		node_log(n, "%s: not every cgroup let go of CPUs before the ASSIGN: %s",
			 uid, cm_error_msg(&err));
	else
		*flags |= CPUMGR_NL_ASSIGN_NARROWED;
	cm_error_clear(&err);
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
