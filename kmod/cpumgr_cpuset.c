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
#include <linux/version.h>

#include "cpumgr.h"

/*
 * The layout below was read from, and the selftests run on, the 6.1 and
 * 6.12 series only.  Another kernel needs its kernel/cgroup/cpuset*.[ch]
 * read first; CPUMGR_UNTESTED_KERNEL=1 (make variable) builds anyway.
 */
#define CPUMGR_SERIES (LINUX_VERSION_CODE >> 8)
#if !defined(CPUMGR_UNTESTED_KERNEL) &&					\
	CPUMGR_SERIES != (KERNEL_VERSION(6, 1, 0) >> 8) &&		\
	CPUMGR_SERIES != (KERNEL_VERSION(6, 12, 0) >> 8)
#error "struct cpuset is known for 6.1 and 6.12 only (CPUMGR_UNTESTED_KERNEL=1 builds anyway)"
#endif

/*
 * The head of struct cpuset, identical in kernel/cgroup/cpuset-internal.h
 * of Debian's 6.1.192 and 6.12.  cpumgr_cpuset_init() checks it against
 * the top cpuset and refuses to load when it does not fit.
 */
struct cpumgr_cpuset_head {
	struct cgroup_subsys_state css;
	unsigned long flags;
	cpumask_var_t cpus_allowed;
	nodemask_t mems_allowed;
	cpumask_var_t effective_cpus;
};

/* The top cpuset's flags: CS_ONLINE, CS_CPU_EXCLUSIVE, CS_MEM_EXCLUSIVE. */
#define CPUMGR_TOP_CPUSET_FLAGS 0x7UL

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
 * Whether tasks run under the cpuset @css: in its cgroup, or on cgroup2
 * in descendants that have no cpuset of their own.
 */
bool cpumgr_cpuset_has_tasks(struct cgroup_subsys_state *css)
{
	struct cgroup *cgrp = css->cgroup;

	if (cgrp->nr_populated_csets)
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
 * The layout above, checked where it is known: the top cpuset (flags,
 * every online CPU), and every cpuset that exists (masks within the
 * possible and online CPUs).
 */
int cpumgr_cpuset_init(void)
{
	struct cgroup_subsys_state *css, *pos;
	struct cpumgr_cpuset_head *top;
	int err = 0;

	cpus_read_lock();
	rcu_read_lock();
	css = cpumgr_cpuset_top();
	top = to_head(css);
	if ((top->flags & CPUMGR_TOP_CPUSET_FLAGS) != CPUMGR_TOP_CPUSET_FLAGS ||
	    !cpumgr_cpuset_plausible(css) ||
	    !cpumask_intersects(top->effective_cpus, cpu_online_mask))
		err = -ENOEXEC;
	css_for_each_descendant_pre(pos, css) {
		if (err || !cpumgr_cpuset_plausible(pos)) {
			err = -ENOEXEC;
			break;
		}
	}
	rcu_read_unlock();
	cpus_read_unlock();
	if (err)
		pr_err("struct cpuset of this kernel is not the one cpumgr was written for (6.1, 6.12)\n");
	return err;
}
