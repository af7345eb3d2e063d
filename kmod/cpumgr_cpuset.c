// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's cpusets as the hooks need to see them: which cpuset
 * governs a cgroup, its configured and effective CPUs, whether tasks run
 * under it, its partition state and what a partition root asks for and
 * holds.  The hooks run where nothing may sleep or take the cpuset
 * locks, and the kernel exports no reader of a cpuset's masks, so this
 * reads its private struct cpuset, up to its partition state.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/llist.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/spinlock_types.h>
#include <linux/time64.h>
#include <linux/utsname.h>
#include <linux/version.h>

#include "cpumgr_cgroup.h"
#include "cpumgr_cpuset.h"
#include "cpumgr_series.h"

/*
 * The head of struct cpuset, the same in kernel/cgroup/cpuset-internal.h
 * (cpuset.c up to 6.9) of every series in cpumgr_series.c's table.
 * cpumgr_cpuset_init() checks it against the running kernel's cpusets
 * and refuses to load when it does not fit.
 */
struct cpumgr_cpuset_head {
	struct cgroup_subsys_state css;
	unsigned long flags;
	cpumask_var_t cpus_allowed;
	nodemask_t mems_allowed;
	cpumask_var_t effective_cpus;
	nodemask_t effective_mems;
};

/* A cpuset's memory pressure filter, in 6.1's and 6.12's struct cpuset. */
struct cpumgr_fmeter {
	int cnt;
	int val;
	time64_t time;
	spinlock_t lock;	/* the kernel's guards these */
};

/*
 * struct cpuset from its head up to its partition state, as each series
 * lays it out (the types are the kernel's own, so that configuration
 * options size them as they size the kernel's): what a partition holds
 * (6.1: subparts_cpus, what it granted its child partitions; 6.7 on:
 * effective_xcpus) and what it asks for (6.7 on: exclusive_cpus).  Which
 * layout a kernel has is its series (cpumgr_series.c); another series
 * is refused at load, and cpumgr_cpuset_init() checks the top cpuset's
 * partition state.
 */
#if KERNEL_VERSION(6, 7, 0) > LINUX_VERSION_CODE
#define CPUMGR_CPUSET_XCPUS 0
struct cpumgr_cpuset_layout {
	struct cpumgr_cpuset_head head;
	cpumask_var_t subparts_cpus;
	nodemask_t old_mems_allowed;
	struct cpumgr_fmeter fmeter;
	int attach_in_progress;
	int pn;
	int relax_domain_level;
	int nr_subparts_cpus;
	int partition_root_state;
};
#else
#define CPUMGR_CPUSET_XCPUS 1
/* 6.7 on, the exclusive CPUs follow the head */
struct cpumgr_cpuset_xhead {
	struct cpumgr_cpuset_head head;
	cpumask_var_t effective_xcpus;
	cpumask_var_t exclusive_cpus;
	nodemask_t old_mems_allowed;
};

#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
struct cpumgr_cpuset_layout {
	struct cpumgr_cpuset_xhead x;
	struct cpumgr_fmeter fmeter;
	int attach_in_progress;
	int relax_domain_level;
	int nr_subparts;
	int partition_root_state;
};
#else
struct cpumgr_cpuset_layout {
	struct cpumgr_cpuset_xhead x;
	struct llist_node attach_node;
	int partition_root_state;
};
#endif
#endif

static struct cpumgr_cpuset_head *to_head(struct cgroup_subsys_state *css)
{
	return container_of(css, struct cpumgr_cpuset_head, css);
}

static struct cpumgr_cpuset_layout *to_layout(struct cgroup_subsys_state *css)
{
#if CPUMGR_CPUSET_XCPUS
	return container_of(to_head(css), struct cpumgr_cpuset_layout, x.head);
#else
	return container_of(to_head(css), struct cpumgr_cpuset_layout, head);
#endif
}

const struct cpumask *cpumgr_cpuset_allowed(struct cgroup_subsys_state *css)
{
	return to_head(css)->cpus_allowed;
}

const struct cpumask *cpumgr_cpuset_effective(struct cgroup_subsys_state *css)
{
	return to_head(css)->effective_cpus;
}

/*
 * The partition state of @css, as cpuset.cpus.partition shows it and
 * with the same values in every series: 0 member, 1 root, 2 isolated,
 * negative an invalid root or isolated.  The top cpuset is a root.
 */
int cpumgr_cpuset_prs(struct cgroup_subsys_state *css)
{
	return READ_ONCE(to_layout(css)->partition_root_state);
}

/* Whether @css is a valid partition root: the top cpuset always is. */
bool cpumgr_cpuset_partition(struct cgroup_subsys_state *css)
{
	return !css->parent || cpumgr_cpuset_prs(css) > 0;
}

/* cpuset.cpus.exclusive (6.7 on; empty before). */
const struct cpumask *cpumgr_cpuset_exclusive(struct cgroup_subsys_state *css)
{
#if CPUMGR_CPUSET_XCPUS
	return to_layout(css)->x.exclusive_cpus;
#else
	return cpu_none_mask;
#endif
}

/*
 * What @css asks to hold as a partition root: its cpuset.cpus.exclusive,
 * or its cpuset.cpus when that is empty (the kernel's user_xcpus(); 6.1
 * has cpuset.cpus only).
 */
const struct cpumask *cpumgr_cpuset_wants(struct cgroup_subsys_state *css)
{
	const struct cpumask *exclusive = cpumgr_cpuset_exclusive(css);

	return cpumask_empty(exclusive) ? cpumgr_cpuset_allowed(css) : exclusive;
}

/*
 * What the valid partition root @css holds, its child partitions' CPUs
 * included: its effective_xcpus (6.7 on), or its effective CPUs and
 * those it granted its child partitions (6.1's subparts_cpus).
 */
void cpumgr_cpuset_held(struct cgroup_subsys_state *css, struct cpumask *held)
{
#if CPUMGR_CPUSET_XCPUS
	cpumask_copy(held, to_layout(css)->x.effective_xcpus);
#else
	cpumask_or(held, to_head(css)->effective_cpus,
		   to_layout(css)->subparts_cpus);
#endif
}

/*
 * What @css would hold as a valid partition root asking for @wants: on
 * 6.7 on, those of its parent's effective exclusive CPUs (every possible
 * CPU at the top; a remote partition's ancestors name them in their
 * cpuset.cpus.exclusive); on 6.1, where a partition's parent must be one,
 * all of @wants (6.1 grants them whole, within its parent's or not),
 * none under a parent that is not one.
 */
void cpumgr_cpuset_would_hold(struct cgroup_subsys_state *css,
			      const struct cpumask *wants,
			      struct cpumask *held)
{
	struct cgroup_subsys_state *parent = css->parent;

	if (!parent) {
		cpumask_clear(held);
		return;
	}
#if CPUMGR_CPUSET_XCPUS
	cpumask_and(held, wants, to_layout(parent)->x.effective_xcpus);
#else
	if (cpumgr_cpuset_partition(parent))
		cpumask_copy(held, wants);
	else
		cpumask_clear(held);
#endif
}

/*
 * The cpuset governing @cgrp: its own, or on cgroup2, where cpuset may be
 * off in a subtree, the nearest ancestor's; NULL on a v1 hierarchy
 * without cpuset.  The caller is in an RCU read-side section.
 */
struct cgroup_subsys_state *cpumgr_cpuset_css(struct cgroup *cgrp)
{
	struct cgroup_subsys_state *css;

	for (; cgrp; cgrp = cgroup_parent(cgrp)) {
		css = rcu_dereference(cgrp->subsys[cpuset_cgrp_id]);
		if (css || !cpumgr_cgroup_on_dfl(cgrp))
			return css;
	}
	return NULL;
}

/*
 * Whether tasks are in @cgrp itself.  The kernel's own reader of that is
 * public from 7.3 on, where the count moved into the cgroup's css.
 */
static bool cpumgr_cgroup_has_tasks(struct cgroup *cgrp)
{
#if KERNEL_VERSION(7, 3, 0) <= LINUX_VERSION_CODE
	return cgroup_has_tasks(cgrp);
#else
	return READ_ONCE(cgrp->nr_populated_csets);
#endif
}

/*
 * Whether tasks run under the cpuset @css: in its cgroup, or on cgroup2
 * in descendants that have no cpuset of their own.
 */
bool cpumgr_cpuset_has_tasks(struct cgroup_subsys_state *css)
{
	struct cgroup *cgrp = css->cgroup;

	if (cpumgr_cgroup_has_tasks(cgrp))
		return true;
	return cpumgr_cgroup_on_dfl(cgrp) &&
	       !(cgrp->subtree_control & BIT(cpuset_cgrp_id)) &&
	       cgroup_is_populated(cgrp);
}

static bool cpumgr_mask_plausible(const struct cpumask *mask)
{
	return !IS_ENABLED(CONFIG_CPUMASK_OFFSTACK) || virt_addr_valid(mask);
}

/*
 * The top cpuset, of whichever hierarchy cpuset is on.  The caller is in
 * an RCU read-side section.
 */
struct cgroup_subsys_state *cpumgr_cpuset_top(void)
{
	struct cgroup_subsys_state *css = task_css(current, cpuset_cgrp_id);

	while (css->parent)
		css = css->parent;
	return css;
}

/* What holds for every cpuset, read with the layout above. */
static bool cpumgr_cpuset_plausible(struct cgroup_subsys_state *css)
{
	struct cpumgr_cpuset_head *cs = to_head(css);
	struct cpumgr_cpuset_layout *l = to_layout(css);
	int prs = READ_ONCE(l->partition_root_state);

#if CPUMGR_CPUSET_XCPUS
	if (!cpumgr_mask_plausible(l->x.effective_xcpus) ||
	    !cpumgr_mask_plausible(l->x.exclusive_cpus))
		return false;
#else
	if (!cpumgr_mask_plausible(l->subparts_cpus))
		return false;
#endif
	return cpumgr_mask_plausible(cs->cpus_allowed) &&
	       cpumgr_mask_plausible(cs->effective_cpus) &&
	       cpumask_subset(cs->cpus_allowed, cpu_possible_mask) &&
	       cpumask_subset(cs->effective_cpus, cpu_online_mask) &&
	       prs >= -2 && prs <= 2;
}

/*
 * The top cpuset's partition state and masks, where each series sets
 * them: a valid root, and 6.7 on every possible CPU exclusive.
 */
static bool cpumgr_cpuset_top_plausible(struct cgroup_subsys_state *css)
{
	struct cpumgr_cpuset_layout *l = to_layout(css);

	if (READ_ONCE(l->partition_root_state) != 1)
		return false;
#if CPUMGR_CPUSET_XCPUS
	return cpumask_subset(cpu_possible_mask, l->x.effective_xcpus) &&
	       cpumask_subset(cpu_possible_mask, l->x.exclusive_cpus);
#else
	return true;
#endif
}

/*
 * The layout above, checked where it is known: the top cpuset (the flags
 * it has in this series, every online CPU), and every cpuset that exists
 * (masks within the possible and online CPUs).  What does not fit is said
 * in one line.
 */
int cpumgr_cpuset_init(void)
{
	const struct cpumgr_series *series;
	struct cgroup_subsys_state *css, *pos;
	struct cpumgr_cpuset_head *top;
	unsigned long flags;
	const char *misfit = NULL;
	u64 id = 0;
	int err;

	err = cpumgr_series_init();
	if (err)
		return err;
	series = cpumgr_series;
	cpus_read_lock();
	rcu_read_lock();
	css = cpumgr_cpuset_top();
	top = to_head(css);
	flags = READ_ONCE(top->flags);
	if ((flags & series->top_flags) != series->top_flags)
		misfit = "the top cpuset lacks flags";
	else if (!cpumgr_cpuset_plausible(css) ||
		 !cpumask_intersects(top->effective_cpus, cpu_online_mask))
		misfit = "the top cpuset's CPU masks are out of range";
	else if (!cpumgr_cpuset_top_plausible(css))
		misfit = "the top cpuset's partition state does not fit";
	css_for_each_descendant_pre(pos, css) {
		if (misfit)
			break;
		if (!cpumgr_cpuset_plausible(pos)) {
			misfit = "a cpuset's CPU masks or partition state are out of range";
			id = cgroup_id(pos->cgroup);
		}
	}
	rcu_read_unlock();
	cpus_read_unlock();
	if (!misfit)
		return 0;
	pr_err("struct cpuset of kernel %s does not fit series %s: %s (top flags 0x%lx, expected 0x%lx: %s; cgroup id %llu)\n",
	       init_utsname()->release, series->name, misfit, flags,
	       series->top_flags, series->top_flags_names, id);
	return -ENOEXEC;
}
