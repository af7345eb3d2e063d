// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of cgroup file writes, one entry each: cpuset.cpus,
 * cpuset.cpus.exclusive, cpuset.cpus.partition, cgroup.subtree_control.
 * Their probes send the writers here first (cpumgr_probes.c); the checks
 * run where they may be preempted (on PREEMPT_RT), with this CPU's
 * locked scratch space (preemption off but on PREEMPT_RT) and the view
 * for the whole check.  A violation is reported (cpumgr_report.c), and
 * refused in enforce mode.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <linux/printk.h>
#include <linux/rculist.h>
#include <linux/string.h>

#include "cpumgr_check_partition.h"
#include "cpumgr_check_write.h"
#include "cpumgr_cpuset.h"
#include "cpumgr_inflight.h"
#include "cpumgr_report.h"
#include "cpumgr_rules.h"
#include "cpumgr_view.h"

/*
 * What a cpuset.cpus write of @arg gives @css, into @eff: the effective
 * CPUs of a cgroup2 cpuset (true), else @arg.
 */
static bool cpumgr_cpus_write_gives(struct cgroup_subsys_state *css,
				    const struct cpumask *arg,
				    struct cpumask *eff,
				    struct cpumgr_scratch *s)
{
	const struct cpumask *above;

	if (!cpumgr_cpuset_v2_mode(css->cgroup) || !css->parent) {
		cpumask_copy(eff, arg);
		return false;
	}
	if (cpumgr_cpuset_prs(css) > 0) {
		cpumgr_check_part_cpus_eff(css, arg, eff, s);
		return true;
	}
	above = cpumgr_cpuset_effective(css->parent);
	if (!cpumask_and(eff, arg, above))
		cpumask_copy(eff, above);
	return true;
}

/*
 * Whether a write of @arg to cpuset.cpus or cpuset.cpus.exclusive (@cpus
 * false) of @of's cpuset is refused.  A cpuset.cpus write holds @w, with
 * what it gives when it is a cgroup2 cpuset's (begun), and @entry, the
 * task entry under way it saw.
 */
static bool cpumgr_resmask_refused(struct kernfs_open_file *of,
				   const struct cpumask *arg, bool cpus,
				   const struct cpumgr_inflight_write *w,
				   const struct cpumgr_inflight_entry *entry,
				   const struct cpumgr_view *view,
				   struct cpumgr_scratch *s)
{
	struct cgroup_subsys_state *css = of_css(of);
	const char *file = cpus ? "cpuset.cpus" : "cpuset.cpus.exclusive";
	enum cpumgr_violation kind = CPUMGR_VIOLATION_WRITE;
	struct cpumask *bad;

	bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	cpumask_clear(bad);
	if (cpumgr_rules_check(view, css->cgroup, arg, arg, bad, s))
		goto report;
	/*
	 * Exclusive CPUs are a partition's to take, from everyone else, and
	 * what it holds once it is one (cpuset.cpus aside, 6.7 on).
	 */
	if (!cpus) {
		cpumgr_check_part_exclusive(view, css, arg, &kind, bad, s);
		goto report;
	}
	/* A partition's CPUs, and its siblings' (cpumgr_check_partition.c) */
	if (cpumgr_cpuset_v2_mode(css->cgroup) && css->parent &&
	    cpumgr_cgroup_on_dfl(css->cgroup) &&
	    cpumgr_check_part_cpus(view, css, arg, &kind, bad, s))
		goto report;
	/* What the cpuset, and what inherits from it, would get. */
	if (cpumgr_check_part_keep(view, css, w->begun ? w->eff : arg, bad,
				   s))
		goto report;
	if (!w->begun || !cpumgr_rules_reaches_scope(view, css->cgroup, s))
		goto report;
	/* A task entering below meanwhile counts. */
	if (cpumgr_rules_check_inherit(view, css, w->eff, arg, entry, bad, s))
		kind = CPUMGR_VIOLATION_INHERIT;
report:
	return !cpumask_empty(bad) &&
	       cpumgr_violation(view, kind, css->cgroup, file, bad, s);
}

/*
 * cpuset.cpus.partition: a cgroup may not change how it holds CPUs it
 * should not hold at all, and a partition made or dissolved may not take
 * or hand CPUs where the rules do not let them go
 * (cpumgr_check_partition.c).
 */
static bool cpumgr_partition_refused(struct kernfs_open_file *of,
				     const char *buf,
				     const struct cpumgr_view *view,
				     struct cpumgr_scratch *s)
{
	enum cpumgr_violation kind = CPUMGR_VIOLATION_PARTITION;
	struct cgroup_subsys_state *css = of_css(of);
	struct cpumask *eff, *bad;

	eff = cpumgr_scratch_mask(s, CPUMGR_EFF);
	bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	cpumask_clear(bad);
	cpumask_or(eff, cpumgr_cpuset_allowed(css),
		   cpumgr_cpuset_effective(css));
	if (!cpumgr_rules_check(view, css->cgroup, eff, NULL, bad, s))
		cpumgr_check_part_state(view, css, buf, &kind, bad, s);
	return !cpumask_empty(bad) &&
	       cpumgr_violation(view, kind, css->cgroup,
				"cpuset.cpus.partition", bad, s);
}

/* "-cpuset" among the words of a subtree_control write. */
static bool cpumgr_drops_cpuset(const char *buf)
{
	const char *p = buf;
	size_t len;

	for (;;) {
		p = skip_spaces(p);
		if (!*p)
			return false;
		len = strcspn(p, " \t\n");
		if (len == 7 && !strncmp(p, "-cpuset", 7))
			return true;
		p += len;
	}
}

/*
 * cgroup.subtree_control: turning the cpuset controller off below a
 * cgroup moves its children's tasks into its own cpuset: they then run
 * on its effective CPUs, with no cgroup.procs write to check.  (Turning
 * it on gives them new cpusets that inherit the CPUs they already run
 * on; runtimes write "+cpuset" all the time.)
 */
static bool cpumgr_subtree_refused(struct kernfs_open_file *of,
				   const char *buf,
				   const struct cpumgr_view *view,
				   struct cpumgr_scratch *s)
{
	enum cpumgr_violation kind = CPUMGR_VIOLATION_INHERIT;
	struct cgroup *cgrp = of_css(of)->cgroup;
	struct cgroup_subsys_state *css, *child;
	struct cpumask *bad, *eff;
	bool found;

	if (!(cgrp->subtree_control & BIT(cpuset_cgrp_id)) ||
	    !cpumgr_drops_cpuset(buf))
		return false;
	css = cpumgr_cpuset_css(cgrp);
	if (!css)
		return false;
	bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	eff = cpumgr_scratch_mask(s, CPUMGR_EFF);
	cpumask_clear(bad);
	/* children that are partitions dissolve: what @css then has */
	found = cpumgr_check_part_children(view, css, eff, &kind, bad, s);
	list_for_each_entry_rcu(child, &cgrp->self.children, sibling) {
		struct cgroup_subsys_state *kid;

		if (!cgroup_is_populated(child->cgroup))
			continue;
		/* what it named, to the same-pod rule (cpumgr_rules.c) */
		kid = cpumgr_cpuset_css(child->cgroup);
		found |= cpumgr_rules_check(view, child->cgroup, eff,
					    kid && kid != css ?
					    cpumgr_cpuset_allowed(kid) :
					    cpu_none_mask, bad, s);
	}
	return found &&
	       cpumgr_violation(view, kind, cgrp, "cgroup.subtree_control",
				bad, s);
}

/*
 * Where the check of a write starts: this CPU's locked scratch space,
 * and the view for the whole check; NULL when it has nothing to check.
 * It ends with cpumgr_file_check_end(), either way.
 */
static const struct cpumgr_view *
cpumgr_file_check_begin(struct cpumgr_scratch **s)
{
	const struct cpumgr_view *view;

	*s = cpumgr_scratch_lock();
	rcu_read_lock();
	view = cpumgr_view_get();
	return cpumgr_rules_active(view) ? view : NULL;
}

static void cpumgr_file_check_end(void)
{
	rcu_read_unlock();
	cpumgr_scratch_unlock();
}

/**
 * cpumgr_check_cpus_write - a write of cpuset.cpus
 * @of: the file
 * @buf: what is written
 * @w: the write's in-flight slot (cpumgr_inflight_write_get())
 *
 * Return: whether it is refused.
 */
bool cpumgr_check_cpus_write(struct kernfs_open_file *of, const char *buf,
			     struct cpumgr_inflight_write *w)
{
	struct cgroup_subsys_state *css = of_css(of);
	struct cpumgr_scratch *s = cpumgr_scratch_lock();
	struct cpumask *arg = cpumgr_scratch_mask(s, CPUMGR_ARG);
	struct cpumask *eff = cpumgr_scratch_mask(s, CPUMGR_EFF);
	struct cpumgr_inflight_entry entry;
	const struct cpumgr_view *view;
	bool refuse = false;

	rcu_read_lock();
	/* What the kernel will not parse, it will refuse itself. */
	if (cpulist_parse(buf, arg))
		goto out;
	/*
	 * Under way before the table is read, whatever it holds, and the
	 * task entry under way seen after (cpumgr_inflight.c).
	 */
	if (cpumgr_cpus_write_gives(css, arg, eff, s))
		cpumgr_inflight_write_begin(w, eff, arg);
	view = cpumgr_view_get();
	cpumgr_inflight_write_sees(&entry);
	refuse = cpumgr_rules_active(view) &&
		 cpumgr_resmask_refused(of, arg, true, w, &entry, view, s);
out:
	cpumgr_file_check_end();
	return refuse;
}

/* A write of cpuset.cpus.exclusive; whether it is refused. */
bool cpumgr_check_exclusive_write(struct kernfs_open_file *of,
				  const char *buf)
{
	struct cpumgr_scratch *s;
	const struct cpumgr_view *view = cpumgr_file_check_begin(&s);
	struct cpumask *arg = cpumgr_scratch_mask(s, CPUMGR_ARG);
	bool refuse = view && !cpulist_parse(buf, arg) &&
		      cpumgr_resmask_refused(of, arg, false, NULL, NULL, view,
					     s);

	cpumgr_file_check_end();
	return refuse;
}

/* A write of cpuset.cpus.partition; whether it is refused. */
bool cpumgr_check_partition_write(struct kernfs_open_file *of,
				  const char *buf)
{
	struct cpumgr_scratch *s;
	const struct cpumgr_view *view = cpumgr_file_check_begin(&s);
	bool refuse = view && cpumgr_partition_refused(of, buf, view, s);

	cpumgr_file_check_end();
	return refuse;
}

/* A write of cgroup.subtree_control; whether it is refused. */
bool cpumgr_check_subtree_write(struct kernfs_open_file *of, const char *buf)
{
	struct cpumgr_scratch *s;
	const struct cpumgr_view *view = cpumgr_file_check_begin(&s);
	bool refuse = view && cpumgr_subtree_refused(of, buf, view, s);

	cpumgr_file_check_end();
	return refuse;
}
