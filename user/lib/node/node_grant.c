// SPDX-License-Identifier: GPL-2.0
/*
 * CPUs a container gains (an admission, a top-up, a resize's grow) leave
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

#include "node.h"
#include "node_internal.h"

int node_withhold(struct node *n, const char *uid, const struct cpuset *cpus,
		  const struct cpuset *held, const char *below,
		  uint32_t *flags, struct cm_error *err)
{
	struct cpuset added = *cpus;
	int ret;

	if (held)
		cpuset_andnot(&added, &added, held);
	if (cpuset_empty(&added) || n->cfg.pool_moves == NODE_POOL_PARTITIONS)
		return 0;
	n->withheld = added;
	n->withheld_below = NULL;
	/* a copy: a reconcile may read the records below again */
	if (below && below[0] &&
	    snprintf(n->withheld_at, sizeof(n->withheld_at), "%s", below) <
	    (int)sizeof(n->withheld_at))
		n->withheld_below = n->withheld_at;
	ret = node_reconcile_pod(n, uid, err);
	if (ret < 0) {
		node_withhold_end(n, uid, false);
		return ret;
	}
	*flags |= CPUMGR_NL_ASSIGN_NARROWED;
	return 0;
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
