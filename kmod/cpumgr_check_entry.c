// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of task entries, one entry each: a task moved into a cgroup
 * (cgroup.procs, cgroup.threads, v1 tasks) and a child started in one
 * (clone3(CLONE_INTO_CGROUP)).  They run in the probes' handlers
 * (cpumgr_probes.c), with preemption off, on this CPU's scratch space.
 */
#include <linux/cgroup.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "cpumgr_check_entry.h"
#include "cpumgr_cpuset.h"
#include "cpumgr_inflight.h"
#include "cpumgr_report.h"
#include "cpumgr_rules.h"
#include "cpumgr_view.h"

/*
 * What @dst, whose cpuset is @css, would get from write @w, if @w is on
 * @css or above it (the inherit model of cpumgr_rules_check_inherit());
 * added to @bad.
 */
static bool cpumgr_check_against_write(const struct cpumgr_view *view,
				       const struct cpumgr_inflight_write *w,
				       struct cgroup *dst,
				       struct cgroup_subsys_state *css,
				       struct cpumask *eff, struct cpumask *bad,
				       struct cpumgr_scratch *s)
{
	const struct cpumask *own = cpu_none_mask;

	if (w->css != css && (!cpumgr_cpuset_v2_mode(css->cgroup) ||
			      !cpumgr_inflight_above(w, css)))
		return false;
	cpumgr_rules_inherited(css, w->css, w->eff, eff, s);
	if (css->cgroup == dst)
		own = w->css == css ? w->own : cpumgr_cpuset_allowed(css);
	return cpumgr_rules_check(view, dst, eff, own, bad, s);
}

/* A task entry, as cpumgr_inflight_entry_sees() checks it against a write. */
struct cpumgr_entry_check {
	const struct cpumgr_view *view;
	struct cgroup *dst;
	struct cgroup_subsys_state *css;
	struct cpumask *eff, *bad;
	struct cpumgr_scratch *s;
};

static bool cpumgr_entry_against_write(const struct cpumgr_inflight_write *w,
				       void *arg)
{
	const struct cpumgr_entry_check *e = arg;

	return cpumgr_check_against_write(e->view, w, e->dst, e->css, e->eff,
					  e->bad, e->s);
}

/*
 * A task entering @dst would run on the effective CPUs of its cpuset, or
 * on what a cpuset.cpus write under way gives it.  The entry is in flight
 * (cpumgr_inflight.c) from before it reads the table until its task is
 * in, even when nothing is to be checked now: a write checked later must
 * count it.  Return: whether it is refused.
 */
static bool cpumgr_check_entry(struct cgroup *dst,
			       struct cgroup_subsys_state *css,
			       enum cpumgr_violation kind, const char *file)
{
	struct cpumgr_scratch *s = cpumgr_scratch_get();
	struct cpumask *bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	struct cpumgr_entry_check check = {
		.dst = dst,
		.css = css,
		.eff = cpumgr_scratch_mask(s, CPUMGR_EFF),
		.bad = bad,
		.s = s,
	};
	const struct cpumgr_view *view;
	const struct cpumask *own;
	bool found;

	cpumgr_inflight_enter(dst, css);
	view = cpumgr_view_get();
	if (!cpumgr_rules_active(view))
		return false;
	check.view = view;
	cpumask_clear(bad);
	found = cpumgr_inflight_entry_sees(cpumgr_entry_against_write, &check);
	/* Without a cpuset of its own, @dst names none of its CPUs. */
	own = css->cgroup == dst ? cpumgr_cpuset_allowed(css) : cpu_none_mask;
	found |= cpumgr_rules_check(view, dst, cpumgr_cpuset_effective(css),
				    own, bad, s);
	if (view->nr_pending)
		/* named by the cpuset it runs on, its own or an ancestor's */
		found = cpumgr_rules_entry_pending(view, dst,
						   cpumgr_cpuset_effective(css),
						   cpumgr_cpuset_allowed(css),
						   bad, s);
	if (!found || !cpumgr_violation(view, kind, dst, file, bad, s))
		return false;
	/* A refused entry never reaches the end of one. */
	cpumgr_inflight_leave();
	return true;
}

/**
 * cpumgr_check_attach - a task moved into @dst
 * @dst: the cgroup (a write of its cgroup.procs, cgroup.threads or v1
 *	 tasks; cgroup_mutex held)
 *
 * Return: whether the move is refused.
 */
bool cpumgr_check_attach(struct cgroup *dst)
{
	struct cgroup_subsys_state *css;
	bool refuse = false;

	rcu_read_lock();
	css = cpumgr_cpuset_css(dst);
	if (css)
		refuse = cpumgr_check_entry(dst, css, CPUMGR_VIOLATION_ATTACH,
					    "cgroup.procs");
	rcu_read_unlock();
	return refuse;
}

/**
 * cpumgr_check_clone3 - a child about to start in @cset's cgroups
 * @cset: the child's css_set; every fork comes here, and a child cloned
 *	  into another cpuset than its parent's (clone3 CLONE_INTO_CGROUP)
 *	  is checked
 *
 * Return: whether the fork is refused.
 */
bool cpumgr_check_clone3(struct css_set *cset)
{
	struct cgroup_subsys_state *css;
	bool refuse = false;

	rcu_read_lock();
	css = cset->subsys[cpuset_cgrp_id];
	if (css && css != task_css(current, cpuset_cgrp_id))
		refuse = cpumgr_check_entry(cset->dfl_cgrp, css,
					    CPUMGR_VIOLATION_FORK, "clone3");
	rcu_read_unlock();
	return refuse;
}
