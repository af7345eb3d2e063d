// SPDX-License-Identifier: GPL-2.0
/*
 * What a change of cpuset partitions does to the cgroups around them.
 * A valid partition root holds its CPUs alone: they leave its parent's
 * effective CPUs (a local partition's parent is a partition root too),
 * or the top cpuset's (a remote one, 6.7 on), and every cpuset that
 * inherits from there; when it dissolves they go back the same way.  A
 * cgroup2 cpuset left with none of its own CPUs falls back on all of its
 * parent's.  So a partition made, grown or dissolved moves CPUs far from
 * the cgroup written, in the scope or not: the checks of the writes that
 * change partitions (cpumgr_check_partition.c) describe the change
 * (struct cpumgr_part_change), and this file says what effective CPUs
 * every cpuset would have then and checks the cpusets with tasks.
 *
 * The model is cpuset's own, which the three series share: a member's
 * (or an invalid root's) effective CPUs are its cpuset.cpus within its
 * parent's, or all of its parent's when that leaves none; a valid root's
 * are what it holds less what its child partitions hold.  A local
 * partition whose parent dissolves, or no longer grants it its CPUs,
 * becomes invalid; an invalid one below a root made valid may become
 * valid again (6.1 does so).  Which way a series goes where it may go
 * two (a partition turning invalid instead of growing), the caller
 * checks as two changes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/printk.h>
#include <linux/rculist.h>
#include <linux/sched/isolation.h>
#include <linux/user_namespace.h>

#include "cpumgr_cpuset.h"
#include "cpumgr_partition.h"
#include "cpumgr_rules.h"
#include "cpumgr_series.h"
#include "cpumgr_view.h"

/* What a cpuset is once the change is made. */
enum cpumgr_part_kind {
	CPUMGR_PART_MEMBER,	/* a member, an invalid root, one dissolved */
	CPUMGR_PART_ROOT,	/* a valid root, holding what it holds now */
	CPUMGR_PART_NEW,	/* a valid root, holding what the change says */
};

/* @css joins the partitions @ch dissolves, or @ch overflows. */
void cpumgr_part_gone_add(struct cpumgr_part_change *ch,
			  struct cgroup_subsys_state *css)
{
	if (ch->nr_gone == CPUMGR_PART_GONE_MAX)
		ch->overflow = true;
	else
		ch->gone[ch->nr_gone++] = css;
}

static bool cpumgr_part_gone(const struct cpumgr_part_change *ch,
			     struct cgroup_subsys_state *css)
{
	unsigned int i;

	for (i = 0; i < ch->nr_gone; i++)
		if (ch->gone[i] == css)
			return true;
	return false;
}

/* Whether the valid root @css is a local partition: its parent is a root. */
static bool cpumgr_part_local(struct cgroup_subsys_state *css)
{
	return css->parent && cpumgr_cpuset_partition(css->parent);
}

/* Whether what the valid root @d gives up goes to @to: its parent or the top. */
static bool cpumgr_part_returns_to(struct cgroup_subsys_state *d,
				   struct cgroup_subsys_state *to)
{
	return d->parent == to || (!to->parent && !cpumgr_part_local(d));
}

/*
 * Whether a remote partition may be refused the CPUs it gains (@held
 * less @was): remote_cpus_update() invalidates it when the writer lacks
 * CAP_SYS_ADMIN, when a gained CPU is another partition's (not in the
 * top cpuset's effective CPUs, which is conservative for an offline
 * one), when they would take all the top cpuset has, and on 7.3 when
 * an isolated one grows on a nohz_full kernel (isolated_cpus_can_update()
 * must leave a housekeeping CPU; not modelled further).  The writer is
 * current: the checks run in the write.
 */
static bool cpumgr_part_may_refuse(struct cgroup_subsys_state *css,
				   const struct cpumask *was,
				   const struct cpumask *held)
{
	const struct cpumask *top;
	unsigned int cpu;

	if (cpumask_subset(held, was))
		return false;
	top = cpumgr_cpuset_effective(cpumgr_cpuset_top());
	if (!ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN) ||
	    cpumask_subset(top, held))
		return true;
	for_each_cpu(cpu, held)
		if (!cpumask_test_cpu(cpu, was) && !cpumask_test_cpu(cpu, top))
			return true;
	return cpumgr_series->isolated_grows_need_noise_hk &&
	       cpumgr_cpuset_prs(css) == CPUMGR_PRS_ISOLATED &&
	       housekeeping_enabled(HK_TYPE_TICK);
}

/**
 * cpumgr_part_may_fail - whether a valid root may turn invalid instead
 * @css: a valid partition root whose held CPUs change
 * @was: what it holds now
 * @held: what it is to hold
 *
 * A remote partition (6.12, 7.3) stays valid unless the checks of the
 * write (validate_partition() on 7.3, update_cpumask() and
 * update_exclusive_cpumask() on 6.12) or remote_cpus_update() fail it:
 * no CPU, or none online; all of its parent's effective CPUs while the
 * parent has tasks (tasks_nocpu_error(); whether it has is not asked);
 * a root, not isolated, on CPUs that isolcpus= left out of the
 * scheduler domains (prstate_housekeeping_conflict(): 7.3's running
 * HK_TYPE_DOMAIN is within the boot one it checks, so a subset of it
 * passes); or CPUs it gains that it may not take
 * (cpumgr_part_may_refuse()).  So a shrink to online CPUs, and a growth
 * onto the top cpuset's free CPUs by a writer with CAP_SYS_ADMIN, stay
 * valid.  A local partition's parent decides
 * (update_parent_effective_cpumask()), so any change may.
 */
bool cpumgr_part_may_fail(struct cgroup_subsys_state *css,
			  const struct cpumask *was, const struct cpumask *held)
{
	if (cpumask_equal(was, held))
		return false;
	if (cpumgr_part_local(css) ||
	    !cpumask_intersects(held, cpu_active_mask) ||
	    cpumask_subset(cpumgr_cpuset_effective(css->parent), held))
		return true;
	if (housekeeping_enabled(HK_TYPE_DOMAIN) &&
	    cpumgr_cpuset_prs(css) != CPUMGR_PRS_ISOLATED &&
	    !cpumask_subset(held, housekeeping_cpumask(HK_TYPE_DOMAIN)))
		return true;
	return cpumgr_part_may_refuse(css, was, held);
}

/*
 * The CPUs partitions give up to @to, a root that stays one: those of
 * its dissolving local children, and at the top those of remote ones
 * too; and what the taker, a valid root already, no longer holds.  Added
 * to @e (@tmp is scratch).
 */
static void cpumgr_part_returned(const struct cpumgr_part_change *ch,
				 struct cgroup_subsys_state *to,
				 struct cpumask *e, struct cpumask *tmp)
{
	unsigned int i;

	for (i = 0; i < ch->nr_gone; i++) {
		if (!cpumgr_part_returns_to(ch->gone[i], to))
			continue;
		cpumgr_cpuset_held(ch->gone[i], tmp);
		cpumask_or(e, e, tmp);
	}
	if (ch->taker && cpumgr_cpuset_prs(ch->taker) > 0 &&
	    cpumgr_part_returns_to(ch->taker, to)) {
		cpumgr_cpuset_held(ch->taker, tmp);
		cpumask_andnot(tmp, tmp, ch->held);
		cpumask_or(e, e, tmp);
	}
}

/*
 * What @css is once @ch is made, its parent being @parent (holding
 * @parent_held if a root); what it then holds as a root goes to @held.
 */
static enum cpumgr_part_kind
cpumgr_part_kind_of(const struct cpumgr_part_change *ch,
		    struct cgroup_subsys_state *css,
		    enum cpumgr_part_kind parent,
		    const struct cpumask *parent_held, struct cpumask *held)
{
	int prs;

	if (css == ch->taker) {
		cpumask_copy(held, ch->held);
		return CPUMGR_PART_NEW;
	}
	if (cpumgr_part_gone(ch, css))
		return CPUMGR_PART_MEMBER;
	prs = cpumgr_cpuset_prs(css);
	if (prs > 0) {
		cpumgr_cpuset_held(css, held);
		/* a remote one holds CPUs of the top cpuset's */
		if (!cpumgr_part_local(css))
			return CPUMGR_PART_ROOT;
		if (parent == CPUMGR_PART_MEMBER ||
		    (parent == CPUMGR_PART_NEW &&
		     !cpumask_subset(held, parent_held)))
			return CPUMGR_PART_MEMBER;
		return CPUMGR_PART_ROOT;
	}
	if (prs < 0 && parent == CPUMGR_PART_NEW &&
	    cpumask_and(held, cpumgr_cpuset_wants(css), parent_held))
		return CPUMGR_PART_NEW;
	return CPUMGR_PART_MEMBER;
}

/*
 * The effective CPUs of @css, a root holding @held that the change makes
 * or changes: what it holds, less what its child partitions then hold
 * (@tmp is scratch).
 */
static void cpumgr_part_new_eff(const struct cpumgr_part_change *ch,
				struct cgroup_subsys_state *css,
				const struct cpumask *held, struct cpumask *e,
				struct cpumask *tmp)
{
	struct cgroup_subsys_state *child;

	cpumask_and(e, held, cpu_active_mask);
	list_for_each_entry_rcu(child, &css->children, sibling) {
		if (cpumgr_part_kind_of(ch, child, CPUMGR_PART_NEW, held,
					tmp) != CPUMGR_PART_MEMBER)
			cpumask_andnot(e, e, tmp);
	}
}

/*
 * The effective CPUs of @css, a root that stays as it is: its own, with
 * what its dissolving children hand back, less what a partition made
 * elsewhere (@inside: not one above it) takes.
 */
static void cpumgr_part_root_eff(const struct cpumgr_part_change *ch,
				 struct cgroup_subsys_state *css, bool inside,
				 struct cpumask *e, struct cpumask *tmp)
{
	cpumask_copy(e, cpumgr_cpuset_effective(css));
	cpumgr_part_returned(ch, css, e, tmp);
	if (ch->taker && !inside)
		cpumask_andnot(e, e, ch->held);
	cpumask_and(e, e, cpu_active_mask);
}

/* A member's: its cpuset.cpus within its parent's, or all of its parent's. */
static void cpumgr_part_member_eff(const struct cpumgr_part_change *ch,
				   struct cgroup_subsys_state *css,
				   const struct cpumask *parent_e,
				   struct cpumask *e)
{
	const struct cpumask *allowed = cpumgr_cpuset_allowed(css);

	if (css == ch->css && ch->allowed)
		allowed = ch->allowed;
	if (!cpumask_and(e, allowed, parent_e))
		cpumask_copy(e, parent_e);
}

/**
 * cpumgr_part_eff - the effective CPUs a cpuset would have
 * @ch: the change
 * @css: a cpuset of @ch's hierarchy
 * @eff: where they go
 * @s: this CPU's scratch space (cpumgr_partition.c's masks, the csses)
 *
 * Computed from the top cpuset down to @css.  The caller is in an RCU
 * read-side section.  Return: false when @css is deeper than
 * CPUMGR_CGROUP_DEPTH_MAX, too deep to follow (@eff unset).
 */
bool cpumgr_part_eff(const struct cpumgr_part_change *ch,
		     struct cgroup_subsys_state *css, struct cpumask *eff,
		     struct cpumgr_scratch *s)
{
	struct cgroup_subsys_state **chain = cpumgr_scratch_csses(s);
	struct cpumask *e[2] = { cpumgr_scratch_mask(s, CPUMGR_PART_E0),
				 cpumgr_scratch_mask(s, CPUMGR_PART_E1) };
	struct cpumask *h[2] = { cpumgr_scratch_mask(s, CPUMGR_PART_H0),
				 cpumgr_scratch_mask(s, CPUMGR_PART_H1) };
	struct cpumask *tmp = cpumgr_scratch_mask(s, CPUMGR_PART_TMP);
	enum cpumgr_part_kind kind = CPUMGR_PART_ROOT, k;
	struct cgroup_subsys_state *a;
	unsigned int nr = 0, cur = 0, next;
	bool inside = false;

	for (a = css; a; a = a->parent) {
		if (nr == CPUMGR_CGROUP_DEPTH_MAX)
			return false;
		chain[nr++] = a;
	}
	/* the top cpuset, a root */
	cpumgr_part_root_eff(ch, chain[--nr], false, e[0], tmp);
	cpumask_clear(h[0]);
	while (nr--) {
		a = chain[nr];
		next = cur ^ 1;
		k = cpumgr_part_kind_of(ch, a, kind, h[cur], h[next]);
		inside |= a == ch->taker;
		if (k == CPUMGR_PART_NEW)
			cpumgr_part_new_eff(ch, a, h[next], e[next], tmp);
		else if (k == CPUMGR_PART_ROOT)
			cpumgr_part_root_eff(ch, a, inside, e[next], tmp);
		else
			cpumgr_part_member_eff(ch, a, e[cur], e[next]);
		kind = k;
		cur = next;
	}
	cpumask_copy(eff, e[cur]);
	return true;
}

/* The top cpuset of @ch's hierarchy. */
static struct cgroup_subsys_state *
cpumgr_part_top(const struct cpumgr_part_change *ch)
{
	struct cgroup_subsys_state *css = ch->css;

	if (!css)
		css = ch->taker;
	if (!css && ch->nr_gone)
		css = ch->gone[0];
	while (css && css->parent)
		css = css->parent;
	return css;
}

/* Whether @pos is a cpuset @ch changes, or above one. */
static bool cpumgr_part_leads(const struct cpumgr_part_change *ch,
			      struct cgroup_subsys_state *pos)
{
	unsigned int i;

	if ((ch->css && cgroup_is_descendant(ch->css->cgroup, pos->cgroup)) ||
	    (ch->taker &&
	     cgroup_is_descendant(ch->taker->cgroup, pos->cgroup)))
		return true;
	for (i = 0; i < ch->nr_gone; i++)
		if (cgroup_is_descendant(ch->gone[i]->cgroup, pos->cgroup))
			return true;
	return false;
}

/*
 * @pos, a cpuset with tasks that @ch gives the effective CPUs @e.  At or
 * below the partition @ch makes or moves (a resize's growth, where the
 * container's own tasks hold its CPUs by design) the rules apply as they
 * are: the partition takes those CPUs from the pool.  Elsewhere, and in a
 * partition that may dissolve, a pending container's CPUs are eased as
 * for a write: the pool may keep them until their partition is made, not
 * the container's own cgroup (cpumgr_rules_entry_pending()).
 */
static bool cpumgr_part_check_one(const struct cpumgr_view *view,
				  const struct cpumgr_part_change *ch,
				  struct cgroup_subsys_state *pos,
				  const struct cpumask *e,
				  const struct cpumask *own,
				  struct cpumask *bad, struct cpumgr_scratch *s)
{
	if (ch->taker && cgroup_is_descendant(pos->cgroup, ch->taker->cgroup))
		return cpumgr_rules_check(view, pos->cgroup, e, own, bad, s);
	return cpumgr_rules_check_walked(view, pos->cgroup, e, own, own, bad,
					 s);
}

/**
 * cpumgr_part_check - the cpusets with tasks a change of partitions moves
 * @view: the table
 * @ch: the change
 * @bad: where the CPUs some cpuset with tasks would get and may not hold
 *	 are added
 * @s: this CPU's scratch space
 *
 * Every cpuset whose effective CPUs the change would change, a cpuset
 * that loses all of its own falling back on its parent's, is checked
 * against the rules with the CPUs it would then have.  The walk goes
 * from the top cpuset down, past subtrees with no task, out of the
 * scope, or that keep their CPUs and hold nothing the change makes; it
 * runs with preemption off (but a write's on PREEMPT_RT), so after
 * inherit_walk_max cpusets with tasks it stops and refuses every CPU a
 * container holds, unchecked; so does a change that dissolves more
 * partitions than it can name, or whose search for them below @ch->css
 * passed inherit_walk_max cpusets.  The caller is in an RCU read-side
 * section.  Return: whether any CPU was added to @bad.
 */
bool cpumgr_part_check(const struct cpumgr_view *view,
		       const struct cpumgr_part_change *ch, struct cpumask *bad,
		       struct cpumgr_scratch *s)
{
	struct cpumask *e = cpumgr_scratch_mask(s, CPUMGR_PART_WALK);
	struct cgroup_subsys_state *top = cpumgr_part_top(ch), *pos;
	unsigned int visited = 0, max = cpumgr_rules_walk_max();
	const struct cpumask *own;
	bool found = false, skip = false, changed;

	if (!top)
		return false;
	if (ch->search_stopped)
		pr_warn_ratelimited("more than %u cpusets below cgroup %llu to search for partitions: pods' CPUs refused unchecked\n",
				    max, cgroup_id(ch->css->cgroup));
	else if (ch->overflow)
		pr_warn_ratelimited("more than %u partitions would dissolve at once: pods' CPUs refused unchecked\n",
				    CPUMGR_PART_GONE_MAX);
	if (ch->overflow) {
		cpumask_or(bad, bad, view->exclusive);
		cpumask_or(bad, bad, view->owed);
		return true;
	}
	for (pos = top; pos; pos = cpumgr_rules_walk_next(pos, top, skip)) {
		skip = !cgroup_is_populated(pos->cgroup) ||
		       !cpumgr_rules_reaches_scope(view, pos->cgroup, s);
		if (skip)
			continue;
		if (++visited > max)
			return cpumgr_rules_walk_stop(view, top, max,
						      cpu_possible_mask, bad,
						      e);
		/* too deep to follow: it might get anything */
		if (!cpumgr_part_eff(ch, pos, e, s))
			cpumask_copy(e, cpu_possible_mask);
		changed = !cpumask_equal(e, cpumgr_cpuset_effective(pos));
		own = pos == ch->css && ch->allowed ? ch->allowed :
		      cpumgr_cpuset_allowed(pos);
		if (changed && cpumgr_cpuset_has_tasks(pos))
			found |= cpumgr_part_check_one(view, ch, pos, e, own,
						       bad, s);
		skip = !changed && !cpumgr_part_leads(ch, pos);
	}
	return found;
}
