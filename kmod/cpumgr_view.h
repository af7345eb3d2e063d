/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr_view.c: what lock-free readers see of the table, replaced as a
 * whole (RCU) on every change under the table lock.  The hooks, which
 * cannot sleep or take the table lock, check against it.
 */
#ifndef _CPUMGR_VIEW_H
#define _CPUMGR_VIEW_H

#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <uapi/linux/cpumgr.h>

struct cpumgr_cgroup_ref;

/* A bound cgroup as the hooks see it: ids only. */
struct cpumgr_view_cg {
	u64 id;			/* 0: not bound */
	bool v1;
	u32 depth;
	const u64 *ancestors;	/* parent first */
};

/*
 * @owed: CPUs an offline took from it in release mode (the table's
 * lost), which come back to it online while its cgroup names them: the
 * checks keep them its own meanwhile, so nobody else may name them.
 * @pending: its partition is coming (CPUMGR_ASSIGNMENT_F_PARTITION_PENDING).
 */
struct cpumgr_view_container {
	const struct cpumask *cpus;
	const struct cpumask *owed;
	bool pending;
	struct cpumgr_view_cg cg;
	char name[CPUMGR_CONTAINER_MAX + 1];	/* for the refusal log */
};

/*
 * @cpus: its containers' and its pool's.  @pool_rest: what of its pool
 * no container holds, which its cgroups may hold (cpumgr_pool.c).
 */
struct cpumgr_view_pod {
	const struct cpumask *cpus;
	const struct cpumask *owed;	/* its containers' */
	const struct cpumask *pool_rest;
	struct cpumgr_view_cg cg;
	char uid[CPUMGR_POD_UID_MAX + 1];
	unsigned int first;	/* its containers in view->containers */
	unsigned int nr;
};

/* How much a view holds, sized before a change, filled after it. */
struct cpumgr_view_size {
	unsigned int pods;
	unsigned int containers;
	unsigned int ids;
};

struct cpumgr_view {
	struct rcu_head rcu;
	u64 generation;
	enum cpumgr_policy policy;
	u32 options;
	enum cpumgr_enforce enforce;
	enum cpumgr_hotplug hotplug;
	unsigned int nr_pods;
	unsigned int nr_containers;
	unsigned int nr_pending;	/* containers whose partition is coming */
	cpumask_var_t reserved;
	cpumask_var_t exclusive;	/* union of every assignment */
	cpumask_var_t owed;		/* union of every container's owed */
	/* of those whose partition is coming, and no other container's */
	cpumask_var_t pending;
	struct cpumgr_view_cg root;	/* managed root; id 0: none */
	struct cgroup *root_cgrp;	/* the table holds it; NULL: none */
	struct cpumgr_view_cg system;	/* KEP-5894's; id 0: none */
	struct cpumgr_view_pod *pods;
	struct cpumgr_view_container *containers;
	unsigned long *bits;		/* the pods' and containers' masks */
	u64 *ids;			/* the ancestors of the cgroups */
	struct cpumgr_view_size cap;
};

/* A view with room for @size, for the table to fill and publish. */
struct cpumgr_view *cpumgr_view_alloc(const struct cpumgr_view_size *size);
void cpumgr_view_free(struct cpumgr_view *view);
/*
 * The i-th mask of a view's storage, the owed mask beside it, and the
 * i-th pod's pool rest.
 */
struct cpumask *cpumgr_view_mask(struct cpumgr_view *view, unsigned int i);
struct cpumask *cpumgr_view_owed(struct cpumgr_view *view, unsigned int i);
struct cpumask *cpumgr_view_pool_rest(struct cpumgr_view *view,
				      unsigned int i);
void cpumgr_view_set_cg(struct cpumgr_view *view, struct cpumgr_view_cg *vcg,
			const struct cpumgr_cgroup_ref *ref,
			unsigned int *nr_ids);
/* Make @view, filled, the current one; @lock serializes the publishers. */
void cpumgr_view_publish(struct cpumgr_view *view, struct mutex *lock);
/* At unload: no view any more, and every retired one freed. */
void cpumgr_view_exit(void);

/* The current view; the caller is in an RCU read-side section. */
const struct cpumgr_view *cpumgr_view_get(void);
/* The shared pool as the view sees it now. */
void cpumgr_view_shared(const struct cpumgr_view *view, struct cpumask *shared);

#endif /* _CPUMGR_VIEW_H */
