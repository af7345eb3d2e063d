// SPDX-License-Identifier: GPL-2.0
/*
 * Which CPUs a cgroup may hold.  In the cgroups strictly below the
 * managed root, a CPU assigned to container K of pod P may appear only
 * in K's bound cgroup and its descendants, K's ancestors, and the
 * ancestors-or-self of P's bound pod cgroup; a CPU of P's pool that no
 * container of P holds, only in P's bound pod cgroup, its descendants
 * and its ancestors; with strict-cpu-reservation the reserved CPUs may
 * not appear there at all, but in the system partition (KEP-5894: the
 * system cgroup and below it), which system pods share with the kubelet
 * and the runtime on those CPUs.  No container or pod is bound at, below
 * or above the system cgroup (the table refuses it), so no assigned CPU
 * is allowed there either.  A CPU an offline took
 * from K in release mode is still K's for this check until it comes back
 * online (and to K, when K's cgroup still names it) or K is assigned
 * again or released: a cgroup2 cpuset.cpus may name an offline CPU, and
 * another cgroup naming it then would run on it beside K once it is
 * back.
 *
 * One exception lets container runtimes work as they do: a cgroup2
 * cgroup strictly below P's bound pod cgroup that names no CPU in its
 * cpuset.cpus may hold P's CPUs, which it inherits.  Runtimes create a
 * container's cgroup, move its first task in and only then write its
 * cpuset.cpus, so in between the new cgroup holds whatever its pod cgroup
 * holds.  That stays within the pod; another pod's CPUs are refused there
 * as anywhere.  From the first write on, the cgroup is a container like
 * any other: falling back to its parent's CPUs (its CPUs offline, or
 * none of them left in its parent's, or its cpuset gone with the
 * parent's subtree_control, or its cpuset.cpus written empty with tasks
 * in it) may not give it a sibling's.  Without tasks, the rule asks what
 * a cgroup names now, not what it named once: a cpuset.cpus emptied, or
 * a cpuset made anew by its parent's subtree_control, holds its pod's
 * CPUs for the next task as a new cgroup's does.  Whoever may write those
 * files owns the pod cgroup and could make that new cgroup anyway
 * (doc/kernel-guarantee.md).
 *
 * Cgroups are compared by id (the directory's inode number) within one
 * hierarchy, against the view: the hooks that ask cannot sleep or take
 * the table lock.  They use this CPU's scratch space, never the stack,
 * for cpumasks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/local_lock.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/rculist.h>

#include "cpumgr_cgroup.h"
#include "cpumgr_cpuset.h"
#include "cpumgr_events.h"
#include "cpumgr_inflight.h"
#include "cpumgr_rules.h"
#include "cpumgr_series.h"
#include "cpumgr_view.h"

/*
 * cpusets with tasks the inherit check visits below one cpuset, and the
 * offline check in the whole hierarchy, at most: the walks run with
 * preemption off (but the inherit check's on PREEMPT_RT).  A parameter,
 * so that a node with a deep delegated tree in scope can raise it and
 * the selftests can reach it cheaply.
 */
static unsigned int cpumgr_inherit_walk_max = 10000;

static int cpumgr_walk_max_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, 1000000);
}

static const struct kernel_param_ops cpumgr_walk_max_ops = {
	.set = cpumgr_walk_max_set,
	.get = param_get_uint,
};
module_param_cb(inherit_walk_max, &cpumgr_walk_max_ops,
		&cpumgr_inherit_walk_max, 0644);
MODULE_PARM_DESC(inherit_walk_max,
		 "cpusets with tasks the inherit and offline checks visit before they refuse the pods' CPUs unchecked (1-1000000, default 10000)");

/* The bound of the walks of cpusets, for those outside this file. */
unsigned int cpumgr_rules_walk_max(void)
{
	return READ_ONCE(cpumgr_inherit_walk_max);
}

/* The scratch masks after the checks' ARG, BAD and EFF. */
enum {
	/* rules: what the pod allows */
	CPUMGR_SCRATCH_OTHERS = CPUMGR_SCRATCH_CHECK_MASKS,
	CPUMGR_SCRATCH_INHERIT,		/* rules: what a descendant gets */
	CPUMGR_SCRATCH_EASED,		/* rules: pending CPUs it may hold */
	CPUMGR_SCRATCH_WALKED,		/* rules: one walked cgroup's finding */
	CPUMGR_SCRATCH_MASKS,
};

struct cpumgr_scratch {
	cpumask_var_t masks[CPUMGR_SCRATCH_MASKS];
	/* whose CPUs the last check found first: view indexes, -1 none */
	int whose_pod, whose_container;
	/* or: a partition below the managed root held other CPUs */
	bool partition;
	u64 chain[CPUMGR_CGROUP_DEPTH_MAX];
	struct cgroup_subsys_state *csses[CPUMGR_CGROUP_DEPTH_MAX];
	struct cpumgr_log_buf log;
};

/* The kprobe handlers': they run with preemption off. */
static DEFINE_PER_CPU(struct cpumgr_scratch, cpumgr_scratch);

/*
 * The cpuset file writes' checks (cpumgr_check_write.c), which run where
 * they may sleep and may walk inherit_walk_max cpusets: their own scratch
 * space, behind a local lock.  Without PREEMPT_RT the lock disables
 * preemption; on PREEMPT_RT it is a per-CPU lock that sleeps, so those
 * checks stay preemptible on the CPUs that PREEMPT_RT users isolate.
 */
struct cpumgr_scratch_locked {
	local_lock_t lock;
	struct cpumgr_scratch s;
};

static DEFINE_PER_CPU(struct cpumgr_scratch_locked, cpumgr_scratch_locked) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

static struct cpumgr_scratch *cpumgr_scratch_reset(struct cpumgr_scratch *s)
{
	s->whose_pod = -1;
	s->whose_container = -1;
	s->partition = false;
	return s;
}

/* Each hook starts here: nobody's CPUs found yet. */
struct cpumgr_scratch *cpumgr_scratch_get(void)
{
	return cpumgr_scratch_reset(this_cpu_ptr(&cpumgr_scratch));
}

struct cpumgr_scratch *cpumgr_scratch_lock(void)
{
	local_lock(&cpumgr_scratch_locked.lock);
	return cpumgr_scratch_reset(this_cpu_ptr(&cpumgr_scratch_locked.s));
}

void cpumgr_scratch_unlock(void)
{
	local_unlock(&cpumgr_scratch_locked.lock);
}

struct cpumask *cpumgr_scratch_mask(struct cpumgr_scratch *s, unsigned int i)
{
	return s->masks[i];
}

struct cpumgr_log_buf *cpumgr_scratch_log(struct cpumgr_scratch *s)
{
	return &s->log;
}

struct cgroup_subsys_state **cpumgr_scratch_csses(struct cpumgr_scratch *s)
{
	return s->csses;
}

/* Both scratch spaces of @cpu. */
static struct cpumgr_scratch *cpumgr_scratch_of(unsigned int cpu, bool locked)
{
	return locked ? &per_cpu_ptr(&cpumgr_scratch_locked, cpu)->s :
			per_cpu_ptr(&cpumgr_scratch, cpu);
}

static void cpumgr_scratch_free(void)
{
	unsigned int cpu, i, locked;

	for_each_possible_cpu(cpu) {
		for (locked = 0; locked < 2; locked++) {
			struct cpumgr_scratch *s = cpumgr_scratch_of(cpu, locked);

			for (i = 0; i < CPUMGR_SCRATCH_MASKS; i++)
				free_cpumask_var(s->masks[i]);
		}
	}
}

int cpumgr_rules_init(void)
{
	unsigned int cpu, i, locked;

	for_each_possible_cpu(cpu) {
		for (locked = 0; locked < 2; locked++) {
			struct cpumgr_scratch *s = cpumgr_scratch_of(cpu, locked);

			for (i = 0; i < CPUMGR_SCRATCH_MASKS; i++) {
				if (zalloc_cpumask_var_node(&s->masks[i],
							    GFP_KERNEL,
							    cpu_to_node(cpu)))
					continue;
				cpumgr_scratch_free();
				return -ENOMEM;
			}
		}
	}
	return 0;
}

void cpumgr_rules_exit(void)
{
	cpumgr_scratch_free();
}

/* Whether anything is there to check: the hooks' fast way out. */
bool cpumgr_rules_active(const struct cpumgr_view *view)
{
	if (view->enforce == CPUMGR_ENFORCE_OFF)
		return false;
	return !cpumask_empty(view->exclusive) || !cpumask_empty(view->owed) ||
	       ((view->options & CPUMGR_OPT_STRICT_CPU_RESERVATION) &&
		!cpumask_empty(view->reserved));
}

static bool cpumgr_id_in(u64 id, const u64 *ids, unsigned int nr)
{
	while (nr--) {
		if (ids[nr] == id)
			return true;
	}
	return false;
}

/*
 * The ids of @cgrp and its ancestors, @cgrp first.  Returns how many, or
 * 0 when it is the root of its hierarchy.  *@whole is false when the
 * chain was cut at CPUMGR_CGROUP_DEPTH_MAX.
 */
static unsigned int cpumgr_chain(struct cgroup *cgrp, u64 *chain, bool *whole)
{
	unsigned int nr = 0;

	if (!cgroup_parent(cgrp))
		return 0;
	for (; cgrp && nr < CPUMGR_CGROUP_DEPTH_MAX; cgrp = cgroup_parent(cgrp))
		chain[nr++] = cgroup_id(cgrp);
	*whole = !cgrp;
	return nr;
}

/*
 * The managed root was removed: a root made again under its path is
 * another cgroup, outside a scope matched by id.  Every cgroup is checked
 * then (fail closed), until CONFIGURE names a root again; said once.
 */
static bool cpumgr_root_gone(const struct cpumgr_view *view)
{
	static u64 told;

	/* cgroup_destroy_locked() clears it first, on every series */
	if (!view->root_cgrp ||
	    (READ_ONCE(view->root_cgrp->self.flags) & CSS_ONLINE))
		return false;
	if (xchg(&told, view->root.id) != view->root.id)
		pr_warn("the managed cgroup root (cgroup %llu) was removed: every cgroup is checked until it is configured again\n",
			view->root.id);
	return true;
}

/* Strictly below the managed root of its hierarchy, if it has one. */
static bool cpumgr_in_scope(const struct cpumgr_view *view, const u64 *chain,
			    unsigned int nr, bool whole, bool v1)
{
	if (!view->root.id || view->root.v1 != v1 || !whole ||
	    cpumgr_root_gone(view))
		return true;
	return cpumgr_id_in(view->root.id, chain + 1, nr - 1);
}

/* The checked cgroup (@chain) is @cg's or below it. */
static bool cpumgr_at_or_below(const struct cpumgr_view_cg *cg,
			       const u64 *chain, unsigned int nr, bool v1)
{
	if (!cg->id || cg->v1 != v1)
		return false;
	return cpumgr_id_in(cg->id, chain, nr);
}

/* The checked cgroup is @cg's or above it. */
static bool cpumgr_above(const struct cpumgr_view_cg *cg, u64 id, bool v1)
{
	if (!cg->id || cg->v1 != v1)
		return false;
	return cg->id == id || cpumgr_id_in(id, cg->ancestors, cg->depth);
}

/* The checked cgroup (@chain) is @cg's or below it, or above it. */
static bool cpumgr_related(const struct cpumgr_view_cg *cg, const u64 *chain,
			   unsigned int nr, bool v1)
{
	return cpumgr_at_or_below(cg, chain, nr, v1) ||
	       cpumgr_above(cg, chain[0], v1);
}

/* The checked cgroup (@chain) is strictly below @cg. */
static bool cpumgr_below(const struct cpumgr_view_cg *cg, const u64 *chain,
			 unsigned int nr, bool v1)
{
	if (!cg->id || cg->v1 != v1 || nr < 2)
		return false;
	return cpumgr_id_in(cg->id, chain + 1, nr - 1);
}

static void cpumgr_whose(struct cpumgr_scratch *s, int pod, int container)
{
	if (s->whose_pod < 0) {
		s->whose_pod = pod;
		s->whose_container = container;
	}
}

/**
 * cpumgr_rules_check - what of @cpus may @cgrp not hold
 * @view: the table
 * @cgrp: the cgroup
 * @cpus: CPUs it would hold
 * @own: which of them it names itself (its cpuset.cpus); NULL: all
 * @bad: where the CPUs it may not hold are added
 * @s: this CPU's scratch space
 *
 * The caller is in an RCU read-side section.  Return: whether any CPU
 * was added to @bad.
 */
bool cpumgr_rules_check(const struct cpumgr_view *view, struct cgroup *cgrp,
			const struct cpumask *cpus, const struct cpumask *own,
			struct cpumask *bad, struct cpumgr_scratch *s)
{
	struct cpumask *others = s->masks[CPUMGR_SCRATCH_OTHERS];
	bool v1 = !cpumgr_cgroup_on_dfl(cgrp);
	bool whole = true, found = false;
	unsigned int nr, i, k;

	nr = cpumgr_chain(cgrp, s->chain, &whole);
	if (!nr || !cpumgr_in_scope(view, s->chain, nr, whole, v1))
		return false;

	/* the system partition shares the reserved CPUs (KEP-5894) */
	if ((view->options & CPUMGR_OPT_STRICT_CPU_RESERVATION) &&
	    !cpumgr_at_or_below(&view->system, s->chain, nr, v1) &&
	    cpumask_and(others, cpus, view->reserved)) {
		cpumask_or(bad, bad, others);
		found = true;
	}
	if (!cpumask_intersects(cpus, view->exclusive) &&
	    !cpumask_intersects(cpus, view->owed))
		return found;

	/* A CPU owed to a container is its own here, as if still held. */
	for (i = 0; i < view->nr_pods; i++) {
		const struct cpumgr_view_pod *pod = &view->pods[i];

		if ((!cpumask_intersects(cpus, pod->cpus) &&
		     !cpumask_intersects(cpus, pod->owed)) ||
		    cpumgr_above(&pod->cg, s->chain[0], v1))
			continue;
		cpumask_or(others, pod->cpus, pod->owed);
		cpumask_and(others, others, cpus);
		/* Inherited by a cgroup that names no CPU yet: see the top. */
		if (own && cpumask_empty(own) &&
		    cpumgr_below(&pod->cg, s->chain, nr, v1))
			continue;
		/* what of its pool no container holds: the pod's cgroups' */
		if (cpumgr_related(&pod->cg, s->chain, nr, v1))
			cpumask_andnot(others, others, pod->pool_rest);
		for (k = pod->first; k < pod->first + pod->nr; k++) {
			const struct cpumgr_view_container *c =
				&view->containers[k];

			if (cpumgr_related(&c->cg, s->chain, nr, v1)) {
				cpumask_andnot(others, others, c->cpus);
				cpumask_andnot(others, others, c->owed);
			}
		}
		if (cpumask_empty(others))
			continue;
		cpumask_or(bad, bad, others);
		found = true;
		for (k = pod->first; k < pod->first + pod->nr; k++) {
			const struct cpumgr_view_container *c =
				&view->containers[k];

			if (cpumask_intersects(others, c->cpus) ||
			    cpumask_intersects(others, c->owed))
				break;
		}
		/* none: the pod's pool */
		cpumgr_whose(s, i, k < pod->first + pod->nr ? (int)k : -1);
	}
	return found;
}

/* The first container, pending or not, whose CPUs are in @bad. */
static void cpumgr_whose_of(const struct cpumgr_view *view,
			    const struct cpumask *bad, bool pending,
			    struct cpumgr_scratch *s)
{
	unsigned int i, k;

	for (i = 0; i < view->nr_pods; i++) {
		const struct cpumgr_view_pod *pod = &view->pods[i];

		for (k = pod->first; k < pod->first + pod->nr; k++) {
			const struct cpumgr_view_container *c =
				&view->containers[k];

			if (c->pending == pending &&
			    (cpumask_intersects(bad, c->cpus) ||
			     cpumask_intersects(bad, c->owed)))
				cpumgr_whose(s, i, k);
		}
		/* none of them: its pool's rest */
		if (pending && cpumask_intersects(bad, pod->pool_rest))
			cpumgr_whose(s, i, -1);
	}
}

/**
 * cpumgr_rules_entry_pending - a cgroup's finding, with the containers
 *	whose partition is coming
 * @view: the table
 * @dst: the cgroup a task enters, or one with tasks a write reaches
 * @eff: the CPUs it would run on there
 * @named: those the cpuset @dst runs on names (its cpuset.cpus)
 * @bad: what the checks found it may not hold; then what it may not
 * @s: this CPU's scratch space
 *
 * A container whose partition is coming (CPUMGR_ASSIGNMENT_F_PARTITION_PENDING)
 * has no task yet, and the shared pool's cgroups, which name no CPU,
 * inherit its CPUs until the kernel takes them from the pool for its
 * partition: a task may run in a cgroup that inherits them meanwhile,
 * entered or left inheriting by a write, and is moved off them with the
 * pool.  Not in one that names them, nor in the container's own cgroup
 * or one below it (or where the chain is too long to tell): its task
 * would start beside the pool's.  CPUs another container holds too stay
 * checked (view->pending).  The finding is the first container whose
 * CPUs stay in @bad.  The caller is in an RCU read-side section.
 *
 * Return: whether any CPU is in @bad.
 */
bool cpumgr_rules_entry_pending(const struct cpumgr_view *view,
				struct cgroup *dst, const struct cpumask *eff,
				const struct cpumask *named,
				struct cpumask *bad, struct cpumgr_scratch *s)
{
	struct cpumask *mine = s->masks[CPUMGR_SCRATCH_OTHERS];
	struct cpumask *eased = s->masks[CPUMGR_SCRATCH_EASED];
	bool v1 = !cpumgr_cgroup_on_dfl(dst), whole = true;
	unsigned int nr = cpumgr_chain(dst, s->chain, &whole);
	unsigned int k;

	cpumask_clear(mine);
	for (k = 0; k < view->nr_containers; k++) {
		const struct cpumgr_view_container *c = &view->containers[k];

		if (c->pending &&
		    (!whole || (c->cg.id && c->cg.v1 == v1 &&
				cpumgr_id_in(c->cg.id, s->chain, nr))))
			cpumask_or(mine, mine, c->cpus);
	}
	cpumask_andnot(eased, view->pending, named);
	cpumask_andnot(eased, eased, mine);
	cpumask_andnot(bad, bad, eased);
	cpumask_and(mine, mine, eff);
	cpumask_or(bad, bad, mine);
	s->whose_pod = -1;
	s->whose_container = -1;
	/* a container that is not pending first: its refusal is the usual */
	cpumgr_whose_of(view, bad, false, s);
	cpumgr_whose_of(view, bad, true, s);
	return !cpumask_empty(bad);
}

/**
 * cpumgr_rules_reaches_scope - whether a cgroup's subtree is in scope
 * @view: the table
 * @cgrp: the cgroup
 * @s: this CPU's scratch space
 *
 * True when @cgrp or something below it is checked: it is in scope, or
 * the managed root is @cgrp or below it.  A write elsewhere can pass on
 * no CPU to a checked cgroup, and its subtree need not be walked.
 */
bool cpumgr_rules_reaches_scope(const struct cpumgr_view *view,
				struct cgroup *cgrp, struct cpumgr_scratch *s)
{
	bool v1 = !cpumgr_cgroup_on_dfl(cgrp), whole = true;
	unsigned int nr = cpumgr_chain(cgrp, s->chain, &whole);

	if (!nr)
		return true;	/* the hierarchy's root */
	return cpumgr_in_scope(view, s->chain, nr, whole, v1) ||
	       cpumgr_above(&view->root, s->chain[0], v1);
}

/**
 * cpumgr_rules_in_scope - whether a cgroup is checked
 * @view: the table
 * @cgrp: the cgroup
 * @s: this CPU's scratch space
 *
 * True when @cgrp is strictly below the managed root of its hierarchy
 * (or, without one, not that hierarchy's root).
 */
bool cpumgr_rules_in_scope(const struct cpumgr_view *view, struct cgroup *cgrp,
			   struct cpumgr_scratch *s)
{
	bool v1 = !cpumgr_cgroup_on_dfl(cgrp), whole = true;
	unsigned int nr = cpumgr_chain(cgrp, s->chain, &whole);

	return nr && cpumgr_in_scope(view, s->chain, nr, whole, v1);
}

/*
 * The CPUs containers would lose, added to @bad: with @below, those bound
 * at or below @cgrp lose what of theirs @cpus lacks; without, every other
 * container loses what of its @cpus holds, and every pod whose cgroup
 * @cgrp is not at or above what of its pool's rest @cpus holds.
 */
static bool cpumgr_containers_lose(const struct cpumgr_view *view,
				   struct cgroup *cgrp,
				   const struct cpumask *cpus, bool below,
				   struct cpumask *bad,
				   struct cpumgr_scratch *s)
{
	struct cpumask *lost = s->masks[CPUMGR_SCRATCH_OTHERS];
	bool v1 = !cpumgr_cgroup_on_dfl(cgrp), whole = true, found = false;
	unsigned int i, k;

	if (!cpumgr_chain(cgrp, s->chain, &whole))
		return false;
	for (i = 0; i < view->nr_pods; i++) {
		const struct cpumgr_view_pod *pod = &view->pods[i];

		/* a partition below the pod cgroup would take it from its sharers */
		if (!below && !cpumgr_above(&pod->cg, s->chain[0], v1) &&
		    cpumask_and(lost, pod->pool_rest, cpus)) {
			cpumask_or(bad, bad, lost);
			cpumgr_whose(s, i, -1);
			found = true;
		}

		for (k = pod->first; k < pod->first + pod->nr; k++) {
			const struct cpumgr_view_container *c =
				&view->containers[k];

			if (cpumgr_above(&c->cg, s->chain[0], v1) != below)
				continue;
			if (below ? !cpumask_andnot(lost, c->cpus, cpus) :
				    !cpumask_and(lost, c->cpus, cpus))
				continue;
			cpumask_or(bad, bad, lost);
			cpumgr_whose(s, i, k);
			found = true;
		}
	}
	return found;
}

/**
 * cpumgr_rules_check_take - what a partition at a cgroup would take
 * @view: the table
 * @cgrp: a cgroup about to hold @cpus as a partition (cpuset.cpus.partition
 *	  root or isolated, or cpuset.cpus.exclusive)
 * @cpus: those CPUs
 * @bad: where the CPUs other containers hold are added
 * @s: this CPU's scratch space
 *
 * A partition takes its CPUs from every cpuset outside its subtree, in
 * the scope or not: a cgroup nobody manages would otherwise take a
 * container's CPUs from it by becoming a partition.  It may take only
 * CPUs no container holds but those bound at or below it.  The caller is
 * in an RCU read-side section.  Return: whether any CPU was added to @bad.
 */
bool cpumgr_rules_check_take(const struct cpumgr_view *view,
			     struct cgroup *cgrp, const struct cpumask *cpus,
			     struct cpumask *bad, struct cpumgr_scratch *s)
{
	if (!cpumask_intersects(cpus, view->exclusive))
		return false;
	return cpumgr_containers_lose(view, cgrp, cpus, false, bad, s);
}

/**
 * cpumgr_rules_check_partition - a partition below the managed root
 * @view: the table
 * @cgrp: a cgroup about to hold @cpus as a partition (cpuset.cpus.partition
 *	  root or isolated, or cpuset.cpus.exclusive)
 * @cpus: those CPUs
 * @bad: where those of @cpus it may not hold so are added
 * @s: this CPU's scratch space
 *
 * Kubernetes makes no partition below its cgroup root, but a container
 * may be given its own isolated one (CRI-O's cpu-load-balancing.crio.io
 * "disable": cpuset.cpus.exclusive on its ancestors, and
 * cpuset.cpus.partition isolated on its cgroup; doc/kernel-guarantee.md
 * has the writes).  There, a partition or cpuset.cpus.exclusive holds
 * whole CPU sets of containers bound at or below it, nothing else: what
 * it takes from every other cgroup is their CPUs only, which no other
 * cgroup may hold anyway.  Any other CPU is refused, as every partition
 * there was before: made on a pod cgroup over other CPUs, it would take
 * its containers off theirs.  (What the cgroups that lose CPUs fall back
 * to, and where a partition's CPUs go when it dissolves, cpumgr_partition.c
 * checks.)  Without a managed root the scope is every cgroup, the
 * system's own partitions included: not refused then.  The caller is in
 * an RCU read-side section.  Return: whether CPUs were added to @bad.
 */
bool cpumgr_rules_check_partition(const struct cpumgr_view *view,
				  struct cgroup *cgrp,
				  const struct cpumask *cpus,
				  struct cpumask *bad, struct cpumgr_scratch *s)
{
	struct cpumask *whole = s->masks[CPUMGR_SCRATCH_OTHERS];
	bool v1 = !cpumgr_cgroup_on_dfl(cgrp), whole_chain = true;
	unsigned int nr = cpumgr_chain(cgrp, s->chain, &whole_chain);
	unsigned int k;

	if (!nr || !view->root.id || cpumask_empty(cpus) ||
	    !cpumgr_in_scope(view, s->chain, nr, whole_chain, v1))
		return false;
	cpumask_clear(whole);
	for (k = 0; k < view->nr_containers; k++) {
		const struct cpumgr_view_container *c = &view->containers[k];

		if (cpumgr_above(&c->cg, s->chain[0], v1) &&
		    cpumask_subset(c->cpus, cpus))
			cpumask_or(whole, whole, c->cpus);
	}
	if (!cpumask_andnot(whole, cpus, whole))
		return false;
	cpumask_or(bad, bad, whole);
	s->partition = true;
	return true;
}

/**
 * cpumgr_rules_check_keep - what bound containers would lose
 * @view: the table
 * @cgrp: a cgroup about to get the effective CPUs @cpus
 * @cpus: those CPUs
 * @bad: where the CPUs a container bound at or below @cgrp would lose
 *	 are added
 * @s: this CPU's scratch space
 *
 * A container runs on its exclusive CPUs only while its cgroup and every
 * ancestor hold them: a write of an ancestor that drops them moves its
 * tasks elsewhere (on cgroup2, to all of the ancestor's CPUs when none of
 * its own are left), silently.  Every ancestor counts, the managed root
 * and those above it too: they are outside the scope, but not outside
 * the container's way to its CPUs.  The caller is in an RCU read-side
 * section.  Return: whether any CPU was added to @bad.
 */
bool cpumgr_rules_check_keep(const struct cpumgr_view *view,
			     struct cgroup *cgrp, const struct cpumask *cpus,
			     struct cpumask *bad, struct cpumgr_scratch *s)
{
	return cpumgr_containers_lose(view, cgrp, cpus, true, bad, s);
}

/*
 * The cpuset after @pos and its subtree in a pre-order walk of @root's
 * subtree, or NULL at its end: the skip of css_rightmost_descendant(),
 * which modules cannot call.  Under rcu_read_lock(), where a sibling
 * removed meanwhile still leads on to the next one (list_del_rcu()).
 */
static struct cgroup_subsys_state *
cpumgr_walk_skip(struct cgroup_subsys_state *pos,
		 struct cgroup_subsys_state *root)
{
	struct cgroup_subsys_state *parent;
	struct list_head *next;

	for (; pos != root; pos = parent) {
		parent = pos->parent;
		next = rcu_dereference(list_next_rcu(&pos->sibling));
		if (next != &parent->children)
			return list_entry(next, struct cgroup_subsys_state,
					  sibling);
	}
	return NULL;
}

/* The next cpuset of the walk below @root, after @pos's subtree if @skip. */
struct cgroup_subsys_state *
cpumgr_rules_walk_next(struct cgroup_subsys_state *pos,
		       struct cgroup_subsys_state *root, bool skip)
{
	return skip ? cpumgr_walk_skip(pos, root) :
		      css_next_descendant_pre(pos, root);
}

/*
 * A walk visited more than @max cpusets below @css: it stops there, and
 * every CPU of @cpus that a container holds or is owed is added to @bad,
 * unchecked (@tmp is scratch).  Return: true.
 */
bool cpumgr_rules_walk_stop(const struct cpumgr_view *view,
			    struct cgroup_subsys_state *css, unsigned int max,
			    const struct cpumask *cpus, struct cpumask *bad,
			    struct cpumask *tmp)
{
	pr_warn_ratelimited("more than %u cpusets with tasks below cgroup %llu: pods' CPUs refused there unchecked\n",
			    max, cgroup_id(css->cgroup));
	cpumask_and(tmp, cpus, view->exclusive);
	cpumask_or(bad, bad, tmp);
	cpumask_and(tmp, cpus, view->owed);
	cpumask_or(bad, bad, tmp);
	return true;
}

/**
 * cpumgr_rules_check_offline - what tasks would fall back onto
 * @view: the table
 * @top: the top cpuset
 * @cpu: a CPU about to go offline
 * @bad: where the CPUs some cgroup's tasks may not fall back onto are added
 * @s: this CPU's scratch space
 *
 * A cpuset whose last online CPU goes away does not keep its tasks
 * there: on cgroup2 it takes its parent's CPUs, on v1 its tasks move to
 * the nearest ancestor with CPUs left.  Every such cpuset with tasks is
 * checked against where they would go, as if inherited.  Subtrees with
 * no task are skipped; the walk runs with preemption off, so after
 * inherit_walk_max cpusets with tasks it stops and refuses every
 * assigned CPU, unchecked.  The caller is in an RCU read-side section.
 * Return: the cgroup of the first one found with CPUs it may not hold
 * (@top's when the walk stopped), or NULL.
 */
struct cgroup *cpumgr_rules_check_offline(const struct cpumgr_view *view,
					  struct cgroup_subsys_state *top,
					  unsigned int cpu, struct cpumask *bad,
					  struct cpumgr_scratch *s)
{
	struct cpumask *dest = s->masks[CPUMGR_SCRATCH_INHERIT];
	unsigned int visited = 0, max = READ_ONCE(cpumgr_inherit_walk_max);
	struct cgroup_subsys_state *pos, *a;
	struct cgroup *found = NULL;
	bool skip = false;

	for (pos = top; pos; pos = cpumgr_rules_walk_next(pos, top, skip)) {
		const struct cpumask *eff = cpumgr_cpuset_effective(pos);

		skip = !cgroup_is_populated(pos->cgroup);
		if (skip)
			continue;
		if (++visited > max) {
			cpumgr_rules_walk_stop(view, top, max,
					       cpu_possible_mask, bad, dest);
			return top->cgroup;
		}
		if (!cpumask_test_cpu(cpu, eff) || cpumask_weight(eff) != 1 ||
		    !cpumgr_cpuset_has_tasks(pos))
			continue;
		cpumask_clear(dest);
		for (a = pos->parent; a && cpumask_empty(dest); a = a->parent) {
			cpumask_copy(dest, cpumgr_cpuset_effective(a));
			cpumask_clear_cpu(cpu, dest);
		}
		if (cpumgr_rules_check(view, pos->cgroup, dest,
				       cpumgr_cpuset_allowed(pos), bad, s) &&
		    !found)
			found = pos->cgroup;
	}
	return found;
}

/**
 * cpumgr_rules_whose - whose CPUs the last check of this CPU found
 * @view: the view that check used
 * @s: this CPU's scratch space
 * @buf: where the text goes
 * @len: its size
 *
 * Return: the length written, as snprintf().
 */
int cpumgr_rules_whose(const struct cpumgr_view *view,
		       const struct cpumgr_scratch *s, char *buf, size_t len)
{
	if (s->partition)
		return scnprintf(buf, len,
				 "below the managed root, where a partition holds only whole containers' CPUs bound at or below it");
	if (s->whose_pod < 0 || s->whose_pod >= view->nr_pods ||
	    s->whose_container >= (int)view->nr_containers)
		return scnprintf(buf, len, "reserved CPUs");
	if (s->whose_container < 0)
		return scnprintf(buf, len, "pod %s (its pool)",
				 view->pods[s->whose_pod].uid);
	return scnprintf(buf, len, "pod %s container %s%s",
			 view->pods[s->whose_pod].uid,
			 view->containers[s->whose_container].name,
			 view->containers[s->whose_container].pending ?
			 ", whose partition is not made yet" : "");
}

/**
 * cpumgr_rules_inherited - what a cgroup2 cpuset would get from above
 * @pos: the cpuset
 * @from: @pos or an ancestor of it, about to get the effective CPUs @cpus
 * @cpus: those CPUs
 * @eff: where what @pos would get goes
 * @s: this CPU's scratch space
 *
 * A cgroup2 cpuset's effective CPUs are its configured ones within its
 * parent's, or all of its parent's when it has none (or none of those):
 * new effective CPUs of @from flow down to @pos that way.  A valid
 * partition root below @from keeps its own: a remote one (6.7 on) holds
 * CPUs its cpuset.cpus.exclusive and its ancestors' took from the top
 * cpuset, which no cpuset.cpus write above it changes, and a local one
 * holds what its parent, a partition too, granted it (that parent's
 * change of CPUs, and a child partition it dissolves, are
 * cpumgr_partition.c's to check).  Below CPUMGR_CGROUP_DEPTH_MAX levels
 * it is too deep to follow, and @pos might get them all.  The caller is
 * in an RCU read-side section.
 */
void cpumgr_rules_inherited(struct cgroup_subsys_state *pos,
			    struct cgroup_subsys_state *from,
			    const struct cpumask *cpus, struct cpumask *eff,
			    struct cpumgr_scratch *s)
{
	const struct cpumask *allowed;
	struct cgroup_subsys_state *a;
	unsigned int nr = 0;

	for (a = pos; a != from && nr < CPUMGR_CGROUP_DEPTH_MAX; a = a->parent)
		s->csses[nr++] = a;
	cpumask_copy(eff, cpus);
	if (a != from)
		return;
	while (nr--) {
		if (cpumgr_cpuset_prs(s->csses[nr]) > 0) {
			cpumask_copy(eff, cpumgr_cpuset_effective(s->csses[nr]));
			continue;
		}
		allowed = cpumgr_cpuset_allowed(s->csses[nr]);
		if (cpumask_intersects(allowed, eff))
			cpumask_and(eff, eff, allowed);
	}
}

/* Whether @pos is @entry's cpuset or above it: a task is on its way. */
static bool cpumgr_entering_below(struct cgroup_subsys_state *pos,
				  const struct cpumgr_inflight_entry *entry)
{
	return entry->css &&
	       cgroup_is_descendant(entry->css->cgroup, pos->cgroup);
}

/*
 * What a pinned cgroup written empty named, or NULL.  Its tasks would
 * inherit its parent's CPUs (7.3 lets a cpuset with tasks name none;
 * earlier series answer ENOSPC themselves), a sibling's among them, as
 * if it were a runtime's new cgroup: to the same-pod rule it, and every
 * cpuset below it that names no CPU, still names what it named.
 */
static const struct cpumask *
cpumgr_rules_was_pinned(struct cgroup_subsys_state *css,
			const struct cpumask *own)
{
	const struct cpumask *was = cpumgr_cpuset_allowed(css);

	if (!cpumask_empty(own) || cpumask_empty(was) ||
	    cpumgr_series->populated_empty_refused)
		return NULL;
	return was;
}

/**
 * cpumgr_rules_check_walked - one cgroup with tasks of a walk
 * @view: the table
 * @cgrp: the cgroup, whose tasks would run on @eff
 * @eff: the CPUs they would run on
 * @own: what @cgrp names itself, to the same-pod rule
 * @named: what its cpuset names (the pending CPUs it may not hold)
 * @bad: the whole walk's findings, which this one's are added to
 * @s: this CPU's scratch space
 *
 * Checked as an entry into it is, a partition pending eased
 * (cpumgr_rules_entry_pending()): the inherit walk's cgroups and those
 * a change of partitions moves (cpumgr_part_check()) get CPUs by a
 * write as the pool does.  This cgroup's finding is eased apart from
 * the others', and the first cgroup found names whose CPUs they are.
 * The caller is in an RCU read-side section.
 *
 * Return: whether this cgroup added CPUs to @bad.
 */
bool cpumgr_rules_check_walked(const struct cpumgr_view *view,
			       struct cgroup *cgrp, const struct cpumask *eff,
			       const struct cpumask *own,
			       const struct cpumask *named, struct cpumask *bad,
			       struct cpumgr_scratch *s)
{
	struct cpumask *here = s->masks[CPUMGR_SCRATCH_WALKED];
	int pod = s->whose_pod, container = s->whose_container;
	bool found;

	if (!view->nr_pending)
		return cpumgr_rules_check(view, cgrp, eff, own, bad, s);
	cpumask_clear(here);
	cpumgr_rules_check(view, cgrp, eff, own, here, s);
	found = cpumgr_rules_entry_pending(view, cgrp, eff, named, here, s);
	cpumask_or(bad, bad, here);
	if (pod >= 0) {
		s->whose_pod = pod;
		s->whose_container = container;
	}
	return found;
}

/**
 * cpumgr_rules_check_inherit - what populated cpusets would inherit
 * @view: the table
 * @css: a cgroup2 cpuset about to get the effective CPUs @cpus
 * @cpus: those CPUs
 * @own: the CPUs @css is about to name itself
 * @entry: the task entry under way (cpumgr_inflight.c), its css NULL
 *	   when none: its destination counts as populated
 * @bad: where the CPUs some cpuset with tasks may not hold are added
 * @s: this CPU's scratch space
 *
 * Every cpuset of the subtree, @css included, that tasks run under is
 * checked against what it would then get (cpumgr_rules_inherited()).
 * Subtrees with no task are skipped, and so are those below a cpuset
 * whose effective CPUs stay as they are: nothing below it changes.  The
 * walk runs with preemption off (but on PREEMPT_RT), so it stops after
 * inherit_walk_max of the others and then refuses every CPU the subtree
 * could get that another pod holds: that many cgroups with tasks below
 * one cpuset is no node's tree.  The caller is in an RCU read-side
 * section.
 */
bool cpumgr_rules_check_inherit(const struct cpumgr_view *view,
				struct cgroup_subsys_state *css,
				const struct cpumask *cpus,
				const struct cpumask *own,
				const struct cpumgr_inflight_entry *entry,
				struct cpumask *bad, struct cpumgr_scratch *s)
{
	struct cpumask *eff = s->masks[CPUMGR_SCRATCH_INHERIT];
	unsigned int visited = 0, max = READ_ONCE(cpumgr_inherit_walk_max);
	const struct cpumask *pinned = cpumgr_rules_was_pinned(css, own);
	const struct cpumask *named;
	struct cgroup_subsys_state *pos;
	bool found = false, skip = false;

	for (pos = css; pos; pos = cpumgr_rules_walk_next(pos, css, skip)) {
		skip = !cgroup_is_populated(pos->cgroup) &&
		       !cpumgr_entering_below(pos, entry);
		if (skip)
			continue;
		if (++visited > max)
			return cpumgr_rules_walk_stop(view, css, max, cpus, bad,
						      eff);
		cpumgr_rules_inherited(pos, css, cpus, eff, s);
		named = pos == css ? own : cpumgr_cpuset_allowed(pos);
		if (pinned && cpumask_empty(named))
			named = pinned;
		if (cpumgr_cpuset_has_tasks(pos))
			found |= cpumgr_rules_check_walked(view, pos->cgroup,
							   eff, named, named,
							   bad, s);
		/* the entering task's own cgroup, whose cpuset this is */
		if (pos == entry->css)
			found |= cpumgr_rules_check_walked(view, entry->dst, eff,
							   entry->dst == pos->cgroup ?
							   named : named == pinned ?
							   pinned : cpu_none_mask,
							   named, bad, s);
		/* Below a cpuset that keeps its CPUs nothing changes. */
		skip = cpumask_equal(eff, cpumgr_cpuset_effective(pos));
	}
	return found;
}
