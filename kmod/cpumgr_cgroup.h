/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_cgroup.c: cgroup directories named by path, as BIND records them. */
#ifndef _CPUMGR_CGROUP_H
#define _CPUMGR_CGROUP_H

#include <linux/cgroup.h>
#include <linux/netlink.h>
#include <linux/types.h>

/* Deepest cgroup the checks follow (a bound one, or a checked one). */
#define CPUMGR_CGROUP_DEPTH_MAX 64

/* A cgroup directory a container or a pod is bound to. */
struct cpumgr_cgroup_ref {
	u64 id;		/* cgroup id = inode number; 0 when not bound */
	bool v1;	/* in the cgroup v1 cpuset hierarchy */
	char *path;	/* as the binder's mount namespace sees it */
	u32 depth;	/* entries of @ancestors */
	u64 *ancestors;	/* ids of every ancestor, parent first */
	struct cgroup *live;	/* held (the managed root): removed or not */
};

int cpumgr_cgroup_resolve(const char *path, struct cpumgr_cgroup_ref *ref,
			  bool hold, const struct nlattr *attr,
			  struct netlink_ext_ack *extack);
void cpumgr_cgroup_ref_free(struct cpumgr_cgroup_ref *ref);
/* Whether @ref is strictly below @top, or @top or below it (one hierarchy). */
bool cpumgr_cgroup_below(const struct cpumgr_cgroup_ref *ref,
			 const struct cpumgr_cgroup_ref *top);
bool cpumgr_cgroup_ref_gone(const struct cpumgr_cgroup_ref *ref);
bool cpumgr_cgroup_at_or_below(const struct cpumgr_cgroup_ref *ref,
			       const struct cpumgr_cgroup_ref *top);

/* Cgroup2 is hierarchy 0; v1 hierarchies have other ids. */
static inline bool cpumgr_cgroup_on_dfl(const struct cgroup *cgrp)
{
	return cgrp->root->hierarchy_id == 0;
}

#endif /* _CPUMGR_CGROUP_H */
