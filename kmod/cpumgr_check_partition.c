// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of what a write, or a cgroup's removal, does to cpuset
 * partitions: a partition made (cpuset.cpus.partition root or isolated),
 * its CPUs changed or made valid by its cpuset.cpus or
 * cpuset.cpus.exclusive, one made invalid by a sibling's cpuset.cpus
 * (6.1, 6.12) or an ancestor's cpuset.cpus.exclusive, one dissolved
 * (member, its cpuset.cpus.exclusive emptied, its cgroup removed, cpuset
 * turned off above it).  Each is described to cpumgr_partition.c as a
 * change and held to the rules:
 *   - below the managed root a partition holds whole CPU sets of
 *     containers bound at or below it, nothing else
 *     (cpumgr_rules_check_partition());
 *   - anywhere, it takes no CPU a container holds unless that container
 *     is bound at or below it, and leaves out none of the CPUs of those
 *     that are;
 *   - every cpuset with tasks whose effective CPUs it changes, one that
 *     falls back on its parent's included, may hold what it then has
 *     (cpumgr_part_check()).
 * Where the kernel may go two ways (a valid partition whose CPUs change
 * may turn invalid instead, cpumgr_part_may_fail()), both are checked.
 */
#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <linux/rculist.h>
#include <linux/string.h>

#include "cpumgr_check_partition.h"
#include "cpumgr_cpuset.h"
#include "cpumgr_partition.h"
#include "cpumgr_report.h"
#include "cpumgr_rules.h"
#include "cpumgr_series.h"
#include "cpumgr_view.h"

/*
 * @ch's taker about to hold @ch->held as a valid partition root: the
 * rules above, then what the cpusets around it would get.  *@kind
 * becomes CPUMGR_VIOLATION_INHERIT when the latter found CPUs.
 */
static bool cpumgr_part_takes(const struct cpumgr_view *view,
			      const struct cpumgr_part_change *ch,
			      enum cpumgr_violation *kind, struct cpumask *bad,
			      struct cpumgr_scratch *s)
{
	struct cgroup *cgrp = ch->taker->cgroup;

	if (cpumgr_rules_check_partition(view, cgrp, ch->held, bad, s) ||
	    cpumgr_rules_check_take(view, cgrp, ch->held, bad, s) ||
	    cpumgr_rules_check_keep(view, cgrp, ch->held, bad, s))
		return true;
	if (!cpumgr_part_check(view, ch, bad, s))
		return false;
	*kind = CPUMGR_VIOLATION_INHERIT;
	return true;
}

/* @ch dissolves partitions: what the cpusets around them would get. */
static bool cpumgr_part_dissolves(const struct cpumgr_view *view,
				  const struct cpumgr_part_change *ch,
				  enum cpumgr_violation *kind,
				  struct cpumask *bad, struct cpumgr_scratch *s)
{
	if ((!ch->nr_gone && !ch->overflow) ||
	    !cpumgr_part_check(view, ch, bad, s))
		return false;
	*kind = CPUMGR_VIOLATION_INHERIT;
	return true;
}

/*
 * The nearest valid partitions strictly below @css (those below them go
 * with them), walking every cpuset there, with tasks or not: a partition
 * dissolving anywhere hands its CPUs on.  @fn gets each; after
 * inherit_walk_max cpusets @ch overflows.
 */
static void cpumgr_part_below(struct cgroup_subsys_state *css,
			      struct cpumgr_part_change *ch,
			      void (*fn)(struct cgroup_subsys_state *d,
					 void *arg),
			      void *arg)
{
	unsigned int visited = 0, max = cpumgr_rules_walk_max();
	struct cgroup_subsys_state *pos;
	bool skip = false;

	for (pos = css; pos; pos = cpumgr_rules_walk_next(pos, css, skip)) {
		skip = false;
		if (pos == css)
			continue;
		if (++visited > max) {
			ch->overflow = true;
			ch->search_stopped = true;
			return;
		}
		if (cpumgr_cpuset_prs(pos) <= 0)
			continue;
		fn(pos, arg);
		skip = true;
	}
}

/* What the partitions below a cpuset.cpus.exclusive write then get. */
struct cpumgr_part_space {
	const struct cpumgr_view *view;
	struct cpumgr_part_change *ch;
	const struct cpumask *space;	/* the CPUs they may hold then */
	struct cpumask *kept;		/* what one names within it */
	struct cpumask *tmp, *bad;
	struct cpumgr_scratch *s;
	bool lost;			/* a container would lose CPUs */
};

/*
 * @d, a valid partition below the write, will hold the CPUs it names
 * that the space grants (update_cpumasks_hier() recomputes it and calls
 * remote_cpus_update() in the writer's context): fewer, its containers
 * losing those it gives up, or with none left it turns invalid; or
 * more, which may fail as a growth of its own would.  It is checked as
 * dissolving when it gives up an online CPU or may turn invalid
 * (cpumgr_part_may_fail()): what it gives up goes to the pool unchecked
 * only when offline (one a release-mode offline took from its
 * container, which the top-up's move leaves behind).
 */
static void cpumgr_part_outside(struct cgroup_subsys_state *d, void *arg)
{
	struct cpumgr_part_space *p = arg;
	bool online = false;

	cpumgr_cpuset_held(d, p->tmp);
	cpumask_and(p->kept, cpumgr_cpuset_wants(d), p->space);
	if (!cpumask_subset(p->tmp, p->space)) {
		/* all but what it gives up: what its containers still have */
		cpumask_andnot(p->tmp, p->tmp, p->space);
		online = cpumask_intersects(p->tmp, cpu_active_mask);
		cpumask_andnot(p->tmp, cpu_possible_mask, p->tmp);
		if (!cpumask_empty(p->kept))
			p->lost |= cpumgr_rules_check_keep(p->view, d->cgroup,
							   p->tmp, p->bad,
							   p->s);
		cpumgr_cpuset_held(d, p->tmp);
	}
	if (online || cpumgr_part_may_fail(d, p->tmp, p->kept))
		cpumgr_part_gone_add(p->ch, d);
}

/**
 * cpumgr_check_part_state - a write of cpuset.cpus.partition
 * @view: the table
 * @css: the cpuset written
 * @buf: what is written
 * @kind: the violation found, CPUMGR_VIOLATION_PARTITION on entry
 * @bad: where the CPUs found go
 * @s: this CPU's scratch space
 *
 * "root" or "isolated" makes a member, or an invalid root, a partition
 * that takes what it asks for (cpumgr_cpuset_would_hold()); between the
 * two of a valid root only load balancing changes; "member" dissolves a
 * valid one.  The caller is in an RCU read-side section.  Return:
 * whether CPUs were found.
 */
bool cpumgr_check_part_state(const struct cpumgr_view *view,
			     struct cgroup_subsys_state *css, const char *buf,
			     enum cpumgr_violation *kind, struct cpumask *bad,
			     struct cpumgr_scratch *s)
{
	struct cpumask *held = cpumgr_scratch_mask(s, CPUMGR_HELD);
	struct cpumgr_part_change ch = { .css = css };
	int prs = cpumgr_cpuset_prs(css);

	if (!css->parent || !cpumgr_cgroup_on_dfl(css->cgroup))
		return false;
	if (sysfs_streq(buf, "member")) {
		if (prs > 0)
			cpumgr_part_gone_add(&ch, css);
		return cpumgr_part_dissolves(view, &ch, kind, bad, s);
	}
	if ((!sysfs_streq(buf, "root") && !sysfs_streq(buf, "isolated")) ||
	    prs > 0 || (prs < 0 && cpumgr_series->invalid_root_stays))
		return false;
	cpumgr_cpuset_would_hold(css, cpumgr_cpuset_wants(css), held);
	if (cpumask_empty(held))
		return false;	/* the kernel makes it an invalid root */
	ch.taker = css;
	ch.held = held;
	return cpumgr_part_takes(view, &ch, kind, bad, s);
}

/*
 * 6.1 and 6.12 make a valid partition invalid when a sibling's
 * cpuset.cpus write overlaps what it holds or asks for, and the written
 * one too when it is a partition (@wants: what it then asks for): both
 * are added to @ch's dissolving ones (@tmp is scratch).
 */
static void cpumgr_part_conflicts(struct cgroup_subsys_state *css,
				  const struct cpumask *wants,
				  struct cpumgr_part_change *ch,
				  struct cpumask *tmp)
{
	struct cgroup_subsys_state *sib;
	bool conflict = false;

	if (!cpumgr_series->conflicts_invalidate)
		return;
	list_for_each_entry_rcu(sib, &css->parent->children, sibling) {
		if (sib == css || cpumgr_cpuset_prs(sib) <= 0)
			continue;
		cpumgr_cpuset_held(sib, tmp);
		cpumask_or(tmp, tmp, cpumgr_cpuset_wants(sib));
		if (!cpumask_intersects(tmp, wants))
			continue;
		cpumgr_part_gone_add(ch, sib);
		conflict = true;
	}
	if (conflict && cpumgr_cpuset_prs(css) > 0)
		cpumgr_part_gone_add(ch, css);
}

/**
 * cpumgr_check_part_cpus - what a cpuset.cpus write does to partitions
 * @view: the table
 * @css: the cpuset written, on cgroup2
 * @arg: its cpuset.cpus then
 * @kind: the violation found, CPUMGR_VIOLATION_WRITE on entry
 * @bad: where the CPUs found go
 * @s: this CPU's scratch space
 *
 * A partition root's cpuset.cpus is what it asks to hold unless it has
 * cpuset.cpus.exclusive: a valid one then holds other CPUs or turns
 * invalid, an invalid one may turn valid; and siblings' partitions may
 * turn invalid (cpumgr_part_conflicts()).  What a member's write gives
 * the cpusets below it is the inherit check's.  The caller is in an RCU
 * read-side section.  Return: whether CPUs were found.
 */
bool cpumgr_check_part_cpus(const struct cpumgr_view *view,
			    struct cgroup_subsys_state *css,
			    const struct cpumask *arg,
			    enum cpumgr_violation *kind, struct cpumask *bad,
			    struct cpumgr_scratch *s)
{
	struct cpumask *held = cpumgr_scratch_mask(s, CPUMGR_HELD);
	struct cpumask *tmp = cpumgr_scratch_mask(s, CPUMGR_PART_TMP);
	struct cpumgr_part_change ch = { .css = css, .allowed = arg };
	const struct cpumask *wants = cpumgr_cpuset_exclusive(css);
	int prs = cpumgr_cpuset_prs(css);

	/* the kernel changes nothing then */
	if (!css->parent || cpumask_equal(arg, cpumgr_cpuset_allowed(css)))
		return false;
	if (cpumask_empty(wants))
		wants = arg;
	if (prs) {
		cpumgr_cpuset_would_hold(css, wants, held);
		ch.taker = css;
		ch.held = held;
		if (!cpumask_empty(held) &&
		    cpumgr_part_takes(view, &ch, kind, bad, s))
			return true;
		ch.taker = NULL;
		ch.held = NULL;
		cpumgr_cpuset_held(css, tmp);
		if (prs > 0 && cpumgr_part_may_fail(css, tmp, held))
			cpumgr_part_gone_add(&ch, css);
	}
	cpumgr_part_conflicts(css, wants, &ch, tmp);
	return cpumgr_part_dissolves(view, &ch, kind, bad, s);
}

/**
 * cpumgr_check_part_cpus_eff - what a partition root's cpuset.cpus gives it
 * @css: a valid partition root about to get @arg in its cpuset.cpus
 * @arg: that
 * @eff: where its effective CPUs then go
 * @s: this CPU's scratch space
 *
 * What it then holds, less its child partitions'; or, when it would hold
 * nothing, a member's CPUs.  The caller is in an RCU read-side section.
 */
void cpumgr_check_part_cpus_eff(struct cgroup_subsys_state *css,
				const struct cpumask *arg, struct cpumask *eff,
				struct cpumgr_scratch *s)
{
	struct cpumask *held = cpumgr_scratch_mask(s, CPUMGR_HELD);
	const struct cpumask *wants = cpumgr_cpuset_exclusive(css);
	struct cpumgr_part_change ch = {
		.css = css,
		.allowed = arg,
		.taker = css,
		.held = held,
	};

	if (cpumask_empty(wants))
		wants = arg;
	cpumgr_cpuset_would_hold(css, wants, held);
	/* holding nothing, it turns invalid: a member's then */
	if (cpumask_empty(held)) {
		ch.taker = NULL;
		cpumgr_part_gone_add(&ch, css);
	}
	if (!cpumgr_part_eff(&ch, css, eff, s))
		cpumask_copy(eff, cpu_possible_mask);
}

/**
 * cpumgr_check_part_exclusive - a write of cpuset.cpus.exclusive
 * @view: the table
 * @css: the cpuset written
 * @arg: its cpuset.cpus.exclusive then
 * @kind: the violation found, CPUMGR_VIOLATION_WRITE on entry
 * @bad: where the CPUs found go
 * @s: this CPU's scratch space
 *
 * Exclusive CPUs are what a partition root holds (or, emptied, its
 * cpuset.cpus), and what the partitions below it may hold: anywhere they
 * may name no CPU of a container bound elsewhere, below the managed root
 * only whole containers' CPUs bound at or below.  A member's changes no
 * CPU of its own (it becomes a partition on them only when
 * cpuset.cpus.partition says so, checked then); a partition root's
 * holds other CPUs, or turns invalid; the partitions below that hold
 * CPUs it no longer has shrink (their containers losing CPUs) or
 * dissolve.  The caller is in an RCU read-side section.  Return: whether
 * CPUs were found.
 */
bool cpumgr_check_part_exclusive(const struct cpumgr_view *view,
				 struct cgroup_subsys_state *css,
				 const struct cpumask *arg,
				 enum cpumgr_violation *kind,
				 struct cpumask *bad, struct cpumgr_scratch *s)
{
	struct cpumask *held = cpumgr_scratch_mask(s, CPUMGR_HELD);
	struct cpumask *space = cpumgr_scratch_mask(s, CPUMGR_EFF);
	struct cpumgr_part_change ch = { .css = css };
	struct cgroup *cgrp = css->cgroup;
	int prs = cpumgr_cpuset_prs(css);
	struct cpumgr_part_space below = {
		.view = view,
		.ch = &ch,
		.space = space,
		.kept = held,	/* held no longer needed by then */
		.tmp = cpumgr_scratch_mask(s, CPUMGR_PART_TMP),
		.bad = bad,
		.s = s,
	};

	if (!cpumask_empty(arg) &&
	    (cpumgr_rules_check_partition(view, cgrp, arg, bad, s) ||
	     cpumgr_rules_check_take(view, cgrp, arg, bad, s)))
		return true;
	if (!css->parent || cpumask_equal(arg, cpumgr_cpuset_exclusive(css)))
		return false;
	if (cpumask_empty(arg) && cpumgr_series->exclusive_empty_invalidates)
		cpumask_clear(held);
	else
		cpumgr_cpuset_would_hold(css, cpumask_empty(arg) ?
					 cpumgr_cpuset_allowed(css) : arg,
					 held);
	if (prs && !cpumask_empty(held)) {
		ch.taker = css;
		ch.held = held;
		if (cpumgr_part_takes(view, &ch, kind, bad, s))
			return true;
		ch.taker = NULL;
		ch.held = NULL;
	}
	if (prs > 0) {
		cpumgr_cpuset_held(css, space);
		if (cpumgr_part_may_fail(css, space, held))
			cpumgr_part_gone_add(&ch, css);
		cpumask_copy(space, held);
	} else {
		cpumgr_cpuset_would_hold(css, arg, space);
	}
	cpumgr_part_below(css, &ch, cpumgr_part_outside, &below);
	if (below.lost)
		return true;
	return cpumgr_part_dissolves(view, &ch, kind, bad, s);
}

/* What the nearest valid partitions below a cpuset hold, together. */
struct cpumgr_part_union {
	struct cpumask *held, *tmp;
};

static void cpumgr_part_add_held(struct cgroup_subsys_state *d, void *arg)
{
	struct cpumgr_part_union *u = arg;

	cpumgr_cpuset_held(d, u->tmp);
	cpumask_or(u->held, u->held, u->tmp);
}

/**
 * cpumgr_check_part_keep - what containers a cpuset.cpus write leaves
 * @view: the table
 * @css: a cpuset about to get the effective CPUs @eff
 * @eff: those CPUs
 * @bad: where the CPUs of containers bound at or below @css that they
 *	 would lose are added; empty on entry
 * @s: this CPU's scratch space
 *
 * cpumgr_rules_check_keep(), but a container in a valid partition below
 * @css keeps what the partition holds: a write of @css's cpuset.cpus
 * takes nothing from it (a remote one holds CPUs the top cpuset gave up;
 * a local one's parent, when @css, is cpumgr_check_part_cpus()'s).  The
 * caller is in an RCU read-side section.  Return: whether CPUs were
 * added to @bad.
 */
bool cpumgr_check_part_keep(const struct cpumgr_view *view,
			    struct cgroup_subsys_state *css,
			    const struct cpumask *eff, struct cpumask *bad,
			    struct cpumgr_scratch *s)
{
	struct cpumask *held = cpumgr_scratch_mask(s, CPUMGR_HELD);
	struct cpumgr_part_change ch = { .css = css };
	struct cpumgr_part_union u = {
		.held = held,
		.tmp = cpumgr_scratch_mask(s, CPUMGR_PART_TMP),
	};

	if (!cpumgr_rules_check_keep(view, css->cgroup, eff, bad, s))
		return false;
	cpumask_copy(held, eff);
	cpumgr_part_below(css, &ch, cpumgr_part_add_held, &u);
	if (ch.overflow || cpumask_equal(held, eff))
		return true;
	cpumask_clear(bad);
	return cpumgr_rules_check_keep(view, css->cgroup, held, bad, s);
}

/**
 * cpumgr_check_part_children - cpuset turned off below a cgroup
 * @view: the table
 * @css: the cpuset whose cgroup.subtree_control drops cpuset
 * @eff: where @css's effective CPUs then go
 * @kind: the violation found
 * @bad: where the CPUs found go
 * @s: this CPU's scratch space
 *
 * The children's cpusets go, and their tasks run on @css's CPUs: a child
 * that is a valid partition dissolves, handing its CPUs back to @css (a
 * local one) or the top cpuset (a remote one), and on.  The caller checks
 * the children's tasks against @eff.  The caller is in an RCU read-side
 * section.  Return: whether CPUs were found elsewhere.
 */
bool cpumgr_check_part_children(const struct cpumgr_view *view,
				struct cgroup_subsys_state *css,
				struct cpumask *eff,
				enum cpumgr_violation *kind,
				struct cpumask *bad, struct cpumgr_scratch *s)
{
	struct cpumgr_part_change ch = { .css = css };
	struct cgroup_subsys_state *child;

	list_for_each_entry_rcu(child, &css->children, sibling)
		if (cpumgr_cpuset_prs(child) > 0)
			cpumgr_part_gone_add(&ch, child);
	if (!ch.nr_gone && !ch.overflow) {
		cpumask_copy(eff, cpumgr_cpuset_effective(css));
		return false;
	}
	if (!cpumgr_part_eff(&ch, css, eff, s))
		cpumask_copy(eff, cpu_possible_mask);
	return cpumgr_part_dissolves(view, &ch, kind, bad, s);
}

/**
 * cpumgr_check_rmdir - a cgroup about to be removed
 * @kn: its directory (cgroup_rmdir()'s argument)
 *
 * Removing a valid partition root's cgroup dissolves the partition, its
 * CPUs handed back to its parent or the top cpuset and on to whatever
 * inherits them.  Runs in the probe's handler, with preemption off, on
 * this CPU's scratch space.  Return: whether the removal is refused.
 */
bool cpumgr_check_rmdir(struct kernfs_node *kn)
{
	enum cpumgr_violation kind = CPUMGR_VIOLATION_INHERIT;
	struct cpumgr_part_change ch = { .nr_gone = 0 };
	const struct cpumgr_view *view;
	struct cgroup_subsys_state *css;
	struct cpumgr_scratch *s;
	struct cgroup *cgrp;
	struct cpumask *bad;
	bool refuse = false;

	if (kernfs_type(kn) != KERNFS_DIR)
		return false;
	rcu_read_lock();
	view = cpumgr_view_get();
	cgrp = kn->priv;
	if (!cpumgr_rules_active(view) || !cgrp ||
	    !cpumgr_cgroup_on_dfl(cgrp))
		goto out;
	css = rcu_dereference(cgrp->subsys[cpuset_cgrp_id]);
	if (!css || !css->parent || cpumgr_cpuset_prs(css) <= 0)
		goto out;
	s = cpumgr_scratch_get();
	bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	cpumask_clear(bad);
	ch.css = css;
	cpumgr_part_gone_add(&ch, css);
	if (cpumgr_part_dissolves(view, &ch, &kind, bad, s))
		refuse = cpumgr_violation(view, kind, cgrp, "rmdir", bad, s);
out:
	rcu_read_unlock();
	return refuse;
}
