// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's cpusets as the hooks need to see them: which cpuset
 * governs a cgroup, its configured and effective CPUs, whether tasks run
 * under it.  The hooks run where nothing may sleep or take the cpuset
 * locks, and the kernel exports no reader of a cpuset's masks, so this
 * reads the head of its private struct cpuset.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
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
};

static struct cpumgr_cpuset_head *to_head(struct cgroup_subsys_state *css)
{
	return container_of(css, struct cpumgr_cpuset_head, css);
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

	return cpumgr_mask_plausible(cs->cpus_allowed) &&
	       cpumgr_mask_plausible(cs->effective_cpus) &&
	       cpumask_subset(cs->cpus_allowed, cpu_possible_mask) &&
	       cpumask_subset(cs->effective_cpus, cpu_online_mask);
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
	css_for_each_descendant_pre(pos, css) {
		if (misfit)
			break;
		if (!cpumgr_cpuset_plausible(pos)) {
			misfit = "a cpuset's CPU masks are out of range";
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
