// SPDX-License-Identifier: GPL-2.0
/*
 * Where exclusivity is enforced: kprobes at the entry of the kernel
 * functions through which cpusets get CPUs, tasks enter cpusets, and CPUs
 * go offline.  A refused call does not run at all: the handler sets the
 * return value, points the instruction pointer at a bare return and
 * tells kprobes it did so.  (A probe needs a post handler to be allowed
 * to change the instruction pointer.)
 *
 * The handlers run with preemption and interrupts off (the probes have
 * post handlers, so they are not optimized into jumps: an int3 each):
 * they read the RCU view, use this CPU's scratch masks and queue their
 * notifications.  The writers of cgroup files, whose checks walk
 * cpusets, are redirected to a function that checks where it may be
 * preempted (on PREEMPT_RT) and then calls them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/cred.h>
#include <linux/hash.h>
#include <linux/kernfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/objtool.h>
#include <linux/percpu.h>
#include <linux/poison.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/srcu.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/ptrace.h>
#include <linux/sched/task.h>
#include <asm/linkage.h>

#include "cpumgr.h"
#include "cpumgr_series.h"

/* Where refused calls return through, with the value the handler set. */
asm(".pushsection .text, \"ax\"\n"
	".type cpumgr_refused, @function\n"
	"cpumgr_refused:\n"
	/* 7.3's ends without a newline, 6.x's with one */
	ANNOTATE_NOENDBR "\n"
	ASM_RET
	".size cpumgr_refused, . - cpumgr_refused\n"
	".popsection\n");

enum {
	CPUMGR_ARG,	/* scratch masks of the hooks */
	CPUMGR_BAD,
	CPUMGR_EFF,
};

static int cpumgr_refuse(struct pt_regs *regs)
{
	regs_set_return_value(regs, -EBUSY);
	instruction_pointer_set(regs, (unsigned long)cpumgr_refused);
	return 1;
}

/*
 * Argument @arg of the probed function of @hook, where this series'
 * table says it is.
 */
static unsigned long cpumgr_arg(struct pt_regs *regs, enum cpumgr_hook hook,
				enum cpumgr_arg arg)
{
	return regs_get_kernel_argument(regs,
					cpumgr_series->site[hook].arg[arg] - 1);
}

/* What was tried, for the kernel log line of a violation. */
static const char *const cpumgr_violation_what[] = {
	[CPUMGR_VIOLATION_WRITE] = "write of",
	[CPUMGR_VIOLATION_INHERIT] = "change that tasks would inherit through",
	[CPUMGR_VIOLATION_PARTITION] = "write of",
	[CPUMGR_VIOLATION_ATTACH] = "task move through",
	[CPUMGR_VIOLATION_FORK] = "task start through",
};

/* A refusal is a warning, an audited violation a notice. */
static __printf(2, 3) void cpumgr_log(bool refused, const char *fmt, ...)
{
	struct va_format vaf = { .fmt = fmt };
	va_list args;

	va_start(args, fmt);
	vaf.va = &args;
	if (refused)
		pr_warn("refused %pV\n", &vaf);
	else
		pr_notice("audited %pV\n", &vaf);
	va_end(args);
}

/*
 * The log's rate limit is a tenant's: a delegated subtree writing assigned
 * CPUs in a loop uses up its own lines, not root's.  Root (uid 0 of the
 * initial user namespace) has a limit of its own, every other user one of
 * 16 by a hash of its uid (two users may share one).
 */
#define CPUMGR_LOG_USER_BITS 4

static struct ratelimit_state cpumgr_log_limits[1 + (1 << CPUMGR_LOG_USER_BITS)] = {
	[0 ... (1 << CPUMGR_LOG_USER_BITS)] =
		RATELIMIT_STATE_INIT(cpumgr_log_limits, DEFAULT_RATELIMIT_INTERVAL,
				     DEFAULT_RATELIMIT_BURST),
};

static struct ratelimit_state *cpumgr_log_limit(void)
{
	kuid_t uid = current_euid();

	if (uid_eq(uid, GLOBAL_ROOT_UID))
		return &cpumgr_log_limits[0];
	return &cpumgr_log_limits[1 + hash_32(__kuid_val(uid),
					      CPUMGR_LOG_USER_BITS)];
}

/*
 * One line per violation, rate-limited per user: a runtime that gets
 * EBUSY says nothing about CPUs, and the operator's next stop is dmesg.
 */
static void cpumgr_log_violation(const struct cpumgr_view *view,
				 enum cpumgr_violation kind, bool refused,
				 const char *file, const struct cpumask *bad,
				 struct cpumgr_scratch *s)
{
	struct cpumgr_log_buf *b = cpumgr_scratch_log(s);
	char whose[CPUMGR_POD_UID_MAX + CPUMGR_CONTAINER_MAX + 32];
	char comm[4 * TASK_COMM_LEN];

	if (!__ratelimit(cpumgr_log_limit()))
		return;
	/* escaped as sysfs and the events escape them */
	cpumgr_escape(b->escaped, sizeof(b->escaped),
		      b->path[0] ? b->path : "?");
	cpumgr_escape(comm, sizeof(comm), current->comm);
	cpumgr_rules_whose(view, s, whose, sizeof(whose));
	cpumgr_log(refused, "%s %s in cgroup %s by pid %d (%s): CPUs %*pbl are %s",
		   cpumgr_violation_what[kind], file, b->escaped,
		   task_tgid_nr(current), comm, cpumask_pr_args(bad), whose);
}

/*
 * A violation: count, log and report it (@event: as a violation event).
 * The cgroup's path is taken once, before the event ring's lock.
 */
static void cpumgr_report(const struct cpumgr_view *view,
			  enum cpumgr_violation kind, bool refuse, bool event,
			  struct cgroup *cgrp, const char *file,
			  const struct cpumask *bad, struct cpumgr_scratch *s)
{
	struct cpumgr_log_buf *b = cpumgr_scratch_log(s);

	if (cgroup_path(cgrp, b->path, sizeof(b->path)) < 0)
		b->path[0] = '\0';
	if (event)
		atomic64_inc(&cpumgr_counters.violations);
	cpumgr_log_violation(view, kind, refuse, file, bad, s);
	if (event)
		cpumgr_event_violation(view, kind, refuse, cgrp, b->path, file,
				       bad);
}

/* A violation; whether to refuse the call. */
static bool cpumgr_violation(const struct cpumgr_view *view,
			     enum cpumgr_violation kind, struct cgroup *cgrp,
			     const char *file, const struct cpumask *bad,
			     struct cpumgr_scratch *s)
{
	bool refuse = view->enforce == CPUMGR_ENFORCE_ENFORCE;

	cpumgr_report(view, kind, refuse, true, cgrp, file, bad, s);
	return refuse;
}

/*
 * The cpuset writes checked and still under way.  A write checked against
 * one table could otherwise land after a change of it (an ASSIGN making
 * one of its CPUs exclusive) that the controller has already acted on.
 * Every change waits for them (cpumgr_hooks_sync_writes()).
 */
DEFINE_STATIC_SRCU(cpumgr_writes);

void cpumgr_hooks_sync_writes(void)
{
	synchronize_srcu_expedited(&cpumgr_writes);
}

/*
 * What the cpusets with tasks below @to would inherit if partition @css,
 * dissolving, handed its CPUs back to @to; added to @bad.
 */
static bool cpumgr_dissolves_onto(const struct cpumgr_view *view,
				  struct cgroup_subsys_state *to,
				  struct cgroup_subsys_state *css,
				  struct cpumask *bad, struct cpumgr_scratch *s)
{
	struct cpumask *eff = cpumgr_scratch_mask(s, CPUMGR_EFF);
	static const struct cpumgr_inflight_entry none;

	if (!cpumgr_rules_reaches_scope(view, to->cgroup, s))
		return false;
	cpumask_or(eff, cpumgr_cpuset_effective(to),
		   cpumgr_cpuset_effective(css));
	return cpumgr_rules_check_inherit(view, to, eff,
					  cpumgr_cpuset_allowed(to), &none,
					  NULL, bad, s);
}

/*
 * Whether partition @css, dissolving, would hand CPUs on to cgroups with
 * tasks that may not hold them; added to @bad.  A partition holds CPUs
 * its parent has not: they go back, to the parent, or for a remote
 * partition (6.7 on, its parent none) to the top cpuset and on to
 * whatever inherits from it.  Which of the two it is, cpuset keeps
 * private: both ways are checked.  A cpuset that holds nothing its
 * parent has not is no partition: false.
 */
static bool cpumgr_partition_dissolves(const struct cpumgr_view *view,
				       struct cgroup_subsys_state *css,
				       struct cpumask *bad,
				       struct cpumgr_scratch *s)
{
	struct cgroup_subsys_state *parent = css->parent;
	struct cgroup_subsys_state *top = cpumgr_cpuset_top();
	bool found;

	if (!parent || cpumask_subset(cpumgr_cpuset_effective(css),
				      cpumgr_cpuset_effective(parent)))
		return false;
	found = cpumgr_dissolves_onto(view, parent, css, bad, s);
	if (parent != top)
		found |= cpumgr_dissolves_onto(view, top, css, bad, s);
	return found;
}

/*
 * An empty cpuset.cpus.exclusive: the partitions at or below @css that
 * hold CPUs through it may dissolve (on 7.3 a remote partition whose
 * ancestor's exclusive CPUs are gone does; whether one falls back on its
 * cpuset.cpus is cpuset's private state), handing their CPUs back.  Each
 * that holds a container's CPUs is checked as if dissolved, both ways.
 * Partitions are found by what they hold that their parent has not,
 * whether tasks run there or not; after inherit_walk_max cpusets the
 * walk stops and every container's CPU is refused.
 */
static bool cpumgr_exclusive_emptied(const struct cpumgr_view *view,
				     struct cgroup_subsys_state *css,
				     struct cpumask *bad,
				     struct cpumgr_scratch *s)
{
	unsigned int visited = 0, max = cpumgr_rules_walk_max();
	struct cgroup_subsys_state *pos;
	bool found = false;

	css_for_each_descendant_pre(pos, css) {
		if (++visited > max) {
			pr_warn_ratelimited("more than %u cpusets below cgroup %llu: its cpuset.cpus.exclusive may not be emptied\n",
					    max, cgroup_id(css->cgroup));
			cpumask_or(bad, bad, view->exclusive);
			return true;
		}
		if (cpumask_intersects(cpumgr_cpuset_effective(pos),
				       view->exclusive))
			found |= cpumgr_partition_dissolves(view, pos, bad, s);
	}
	return found;
}

/*
 * Whether a write of @buf to cpuset.cpus or cpuset.cpus.exclusive (@cpus
 * false) of @of's cpuset is refused.
 */
static bool cpumgr_resmask_refused(struct kernfs_open_file *of,
				   const char *buf, bool cpus,
				   struct cpumgr_inflight_write *w,
				   const struct cpumgr_view *view,
				   struct cpumgr_scratch *s)
{
	struct cgroup_subsys_state *css = of_css(of);
	const char *file = cpus ? "cpuset.cpus" : "cpuset.cpus.exclusive";
	enum cpumgr_violation kind = CPUMGR_VIOLATION_WRITE;
	struct cpumgr_inflight_entry entry;
	struct cpumask *arg, *bad, *eff;
	bool found;

	arg = cpumgr_scratch_mask(s, CPUMGR_ARG);
	bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	eff = cpumgr_scratch_mask(s, CPUMGR_EFF);
	cpumask_clear(bad);
	/* What the kernel will not parse, it will refuse itself. */
	if (cpulist_parse(buf, arg))
		return false;

	if (cpumgr_rules_check(view, css->cgroup, arg, arg, bad, s))
		goto report;
	/*
	 * Exclusive CPUs are a partition's to take, from everyone else, and
	 * what it holds once it is one (cpuset.cpus aside, 6.7 on): the
	 * containers bound below it keep their CPUs only if it names them.
	 */
	if (!cpus && cpumask_empty(arg)) {
		if (cpumgr_exclusive_emptied(view, css, bad, s))
			kind = CPUMGR_VIOLATION_INHERIT;
		goto report;
	}
	if (!cpus) {
		if (!cpumgr_rules_check_partition(view, css->cgroup, arg, bad,
						  s) &&
		    !cpumgr_rules_check_take(view, css->cgroup, arg, bad, s))
			cpumgr_rules_check_keep(view, css->cgroup, arg, bad, s);
		goto report;
	}
	/* What the cpuset, and what inherits from it, would get. */
	if (cpumgr_cpuset_v2_mode(css->cgroup) && css->parent) {
		const struct cpumask *above =
			cpumgr_cpuset_effective(css->parent);

		if (!cpumask_and(eff, arg, above))
			cpumask_copy(eff, above);
	} else {
		cpumask_copy(eff, arg);
	}
	if (cpumgr_rules_check_keep(view, css->cgroup, eff, bad, s))
		goto report;
	if (!cpumgr_cpuset_v2_mode(css->cgroup) || !css->parent ||
	    !cpumgr_rules_reaches_scope(view, css->cgroup, s))
		goto report;
	/*
	 * A task entering below meanwhile is counted, or counts this; so
	 * are the writes under way above and below.
	 */
	cpumgr_inflight_write_begin(w, css, eff, arg, &entry);
	found = cpumgr_rules_check_inherit(view, css, eff, arg, &entry, w, bad,
					   s);
	/* eff is scratch from here */
	found |= cpumgr_inflight_check_above(view, w, &entry, eff, bad, s);
	if (found)
		kind = CPUMGR_VIOLATION_INHERIT;
report:
	return !cpumask_empty(bad) &&
	       cpumgr_violation(view, kind, css->cgroup, file, bad, s);
}

/*
 * cpuset.cpus.partition: a cgroup may not change how it holds CPUs it
 * should not hold at all, and a partition may not dissolve when the CPUs
 * it hands back to its parent would flow on to cgroups with tasks that
 * may not hold them.
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
	if (cpumgr_rules_check(view, css->cgroup, eff, NULL, bad, s))
		goto report;
	/*
	 * A partition takes its CPUs from the rest of the hierarchy, and
	 * none is made below the managed root.
	 */
	if ((sysfs_streq(buf, "root") || sysfs_streq(buf, "isolated")) &&
	    (cpumgr_rules_check_partition(view, css->cgroup, eff, bad, s) ||
	     cpumgr_rules_check_take(view, css->cgroup, eff, bad, s)))
		goto report;
	if (sysfs_streq(buf, "member") &&
	    cpumgr_partition_dissolves(view, css, bad, s))
		kind = CPUMGR_VIOLATION_INHERIT;
report:
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
	struct cgroup *cgrp = of_css(of)->cgroup;
	struct cgroup_subsys_state *css, *child;
	struct cpumask *bad;
	bool found = false;

	if (!(cgrp->subtree_control & BIT(cpuset_cgrp_id)) ||
	    !cpumgr_drops_cpuset(buf))
		return false;
	css = cpumgr_cpuset_css(cgrp);
	if (!css)
		return false;
	bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	cpumask_clear(bad);
	list_for_each_entry_rcu(child, &cgrp->self.children, sibling) {
		struct cgroup_subsys_state *kid;

		if (!cgroup_is_populated(child->cgroup))
			continue;
		/* what it named, to the same-pod rule (cpumgr_rules.c) */
		kid = cpumgr_cpuset_css(child->cgroup);
		found |= cpumgr_rules_check(view, child->cgroup,
					    cpumgr_cpuset_effective(css),
					    kid && kid != css ?
					    cpumgr_cpuset_allowed(kid) :
					    cpu_none_mask, bad, s);
	}
	return found &&
	       cpumgr_violation(view, CPUMGR_VIOLATION_INHERIT, cgrp,
				"cgroup.subtree_control", bad, s);
}

/* The files whose writers are redirected (cpuset.mems is not checked). */
enum cpumgr_file {
	CPUMGR_FILE_OTHER,
	CPUMGR_FILE_CPUS,
	CPUMGR_FILE_EXCLUSIVE,
	CPUMGR_FILE_PARTITION,
	CPUMGR_FILE_SUBTREE,
};

static enum cpumgr_file cpumgr_file_of(struct kernfs_open_file *of)
{
	const char *name = of_cft(of)->name;

	if (!strcmp(name, "cpus"))
		return CPUMGR_FILE_CPUS;
	if (!strcmp(name, "cpus.exclusive"))
		return CPUMGR_FILE_EXCLUSIVE;
	if (!strcmp(name, "cpus.partition"))
		return CPUMGR_FILE_PARTITION;
	if (!strcmp(name, "cgroup.subtree_control"))
		return CPUMGR_FILE_SUBTREE;
	return CPUMGR_FILE_OTHER;
}

/*
 * Whether a write of @buf to @file of @of is refused: the checks of the
 * three redirected writers (@w, a cpuset.cpus write's in-flight slot).
 * They run where they may be preempted, with this CPU's locked scratch
 * space (preemption off but on PREEMPT_RT) and the view for the whole
 * check.
 */
static bool cpumgr_file_refused(struct kernfs_open_file *of, const char *buf,
				enum cpumgr_file file,
				struct cpumgr_inflight_write *w)
{
	const struct cpumgr_view *view;
	struct cpumgr_scratch *s;
	bool refuse = false;

	if (file == CPUMGR_FILE_OTHER)
		return false;
	s = cpumgr_scratch_lock();
	rcu_read_lock();
	view = cpumgr_view_get();
	if (!cpumgr_rules_active(view))
		goto out;
	switch (file) {
	case CPUMGR_FILE_CPUS:
	case CPUMGR_FILE_EXCLUSIVE:
		refuse = cpumgr_resmask_refused(of, buf,
						file == CPUMGR_FILE_CPUS, w,
						view, s);
		break;
	case CPUMGR_FILE_PARTITION:
		refuse = cpumgr_partition_refused(of, buf, view, s);
		break;
	case CPUMGR_FILE_SUBTREE:
		refuse = cpumgr_subtree_refused(of, buf, view, s);
		break;
	case CPUMGR_FILE_OTHER:
		break;
	}
out:
	rcu_read_unlock();
	cpumgr_scratch_unlock();
	return refuse;
}

/*
 * Where the calls of the probed writers of cpuset.cpus,
 * cpuset.cpus.exclusive, cpuset.cpus.partition and cgroup.subtree_control
 * are sent: checked, then made by calling the file's write method (the
 * probed function itself, whose probe lets a call from here through),
 * inside cpumgr_writes.  A cpuset.cpus write holds an in-flight slot
 * (cpumgr_inflight.c) until the kernel returns from it.  Unlike the
 * probe, this may sleep.
 */
static ssize_t cpumgr_file_checked(struct kernfs_open_file *of, char *buf,
				   size_t nbytes, loff_t off)
{
	enum cpumgr_file file = cpumgr_file_of(of);
	struct cpumgr_inflight_write *w = NULL;
	ssize_t ret;
	int idx;

	if (file == CPUMGR_FILE_CPUS) {
		w = cpumgr_inflight_write_get();
		if (IS_ERR(w))
			return PTR_ERR(w);
	}
	idx = srcu_read_lock(&cpumgr_writes);
	if (cpumgr_file_refused(of, buf, file, w))
		ret = -EBUSY;
	else
		ret = of_cft(of)->write(of, buf, nbytes, off);
	if (w)
		cpumgr_inflight_write_put(w);
	srcu_read_unlock(&cpumgr_writes, idx);
	return ret;
}

/*
 * The writers of cgroup files, all (of, buf, nbytes, off):
 * cpuset_write_resmask() (cpuset.cpus, cpuset.cpus.exclusive, and
 * cpuset.mems, not ours; v1 and v2), the partition file's writer,
 * cgroup_subtree_control_write().  The call goes to cpumgr_file_checked()
 * instead, with its arguments as they are, unless it comes from there.
 * (The probe sits where the function is entered, so the return address
 * is on top of the stack.)  Their checks walk cpusets: not here, with
 * interrupts off, but there.
 */
static int cpumgr_redirect_pre(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned long caller = *(unsigned long *)kernel_stack_pointer(regs);

	if (within_module(caller, THIS_MODULE))
		return 0;
	instruction_pointer_set(regs, (unsigned long)cpumgr_file_checked);
	return 1;
}

/*
 * A task entering @dst would run on the effective CPUs of its cpuset, or
 * on what a cpuset.cpus write under way gives it.  The entry is in flight
 * (cpumgr_inflight.c) from here until its task is in, even when nothing
 * is to be checked now: a write checked later must count it.
 */
static int cpumgr_check_entry(struct pt_regs *regs, struct cgroup *dst,
			      struct cgroup_subsys_state *css,
			      enum cpumgr_violation kind, const char *file)
{
	const struct cpumgr_view *view = cpumgr_view_get();
	struct cpumgr_scratch *s = cpumgr_scratch_get();
	struct cpumask *bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	bool active = cpumgr_rules_active(view), found;
	const struct cpumask *own;

	cpumask_clear(bad);
	found = cpumgr_inflight_enter(active ? view : NULL, dst, css,
				      cpumgr_scratch_mask(s, CPUMGR_EFF),
				      bad, s);
	if (!active)
		return 0;
	/* Without a cpuset of its own, @dst names none of its CPUs. */
	own = css->cgroup == dst ? cpumgr_cpuset_allowed(css) : cpu_none_mask;
	found |= cpumgr_rules_check(view, dst, cpumgr_cpuset_effective(css),
				    own, bad, s);
	if (!found || !cpumgr_violation(view, kind, dst, file, bad, s))
		return 0;
	/* A refused entry never reaches the end of one. */
	cpumgr_inflight_leave();
	return cpumgr_refuse(regs);
}

/*
 * cpuset_fork(task) and cpuset_cancel_fork(task, cset), every fork's:
 * a clone3(CLONE_INTO_CGROUP) checked at cpuset_can_fork() is over, its
 * child in the cgroup (cpuset_fork() comes after that) or not started.
 */
static int cpumgr_fork_end_pre(struct kprobe *kp, struct pt_regs *regs)
{
	cpumgr_inflight_leave();
	return 0;
}

/*
 * cgroup_attach_task(dst_cgrp, leader, threadgroup): writes of
 * cgroup.procs, cgroup.threads and v1 tasks, with cgroup_mutex held.
 */
static int cpumgr_attach_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct cgroup *dst =
		(void *)cpumgr_arg(regs, CPUMGR_HOOK_ATTACH, CPUMGR_ARG_CGROUP);
	struct cgroup_subsys_state *css;
	int ret = 0;

	rcu_read_lock();
	css = cpumgr_cpuset_css(dst);
	if (css)
		ret = cpumgr_check_entry(regs, dst, css,
					 CPUMGR_VIOLATION_ATTACH,
					 "cgroup.procs");
	rcu_read_unlock();
	return ret;
}

/*
 * cpuset_can_fork(task, cset): every fork; a child cloned into another
 * cpuset than its parent's (clone3 CLONE_INTO_CGROUP) is checked.
 */
static int cpumgr_fork_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct css_set *cset =
		(void *)cpumgr_arg(regs, CPUMGR_HOOK_FORK, CPUMGR_ARG_CSET);
	struct cgroup_subsys_state *css;
	int ret = 0;

	rcu_read_lock();
	css = cset->subsys[cpuset_cgrp_id];
	if (css && css != task_css(current, cpuset_cgrp_id))
		ret = cpumgr_check_entry(regs, cset->dfl_cgrp, css,
					 CPUMGR_VIOLATION_FORK, "clone3");
	rcu_read_unlock();
	return ret;
}

/*
 * Whether an offline is suspend's, with tasks frozen, where the probed
 * function is called by suspend too (_cpu_down() on 7.3).
 */
static bool cpumgr_offline_frozen(struct pt_regs *regs)
{
	return cpumgr_series->site[CPUMGR_HOOK_OFFLINE].arg[CPUMGR_ARG_FROZEN] &&
	       cpumgr_arg(regs, CPUMGR_HOOK_OFFLINE, CPUMGR_ARG_FROZEN);
}

/*
 * cpu_down_maps_locked(cpu, target), or where 7.3 inlines it
 * _cpu_down(cpu, tasks_frozen, target): every offline but suspend's,
 * before the scheduler or cpusets see it coming.  An assigned CPU may not go
 * (protect mode), nor the last CPU of a cpuset whose tasks would then
 * fall back onto CPUs they may not hold; in release mode that fallback
 * is reported as an audited violation.
 */
static int cpumgr_offline_pre(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned int cpu =
		cpumgr_arg(regs, CPUMGR_HOOK_OFFLINE, CPUMGR_ARG_CPU);
	bool protect;
	const struct cpumgr_view *view;
	struct cpumgr_scratch *s;
	struct cgroup *victim;
	struct cpumask *bad;
	int ret = 0;

	if (cpumgr_offline_frozen(regs))
		return 0;
	rcu_read_lock();
	view = cpumgr_view_get();
	protect = view->hotplug == CPUMGR_HOTPLUG_PROTECT;
	if (cpu >= nr_cpu_ids)
		goto out;
	/* assigned or being assigned (protect mode), else going down */
	if (!cpumgr_offline_begin(cpu))
		goto refuse;
	if (!cpumgr_rules_active(view))
		goto out;
	s = cpumgr_scratch_get();
	bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	cpumask_clear(bad);
	victim = cpumgr_rules_check_offline(view, cpumgr_cpuset_top(), cpu,
					    bad, s);
	if (!victim)
		goto out;
	/* in protect mode the event is the refused offline's */
	cpumgr_report(view, CPUMGR_VIOLATION_INHERIT, protect, !protect,
		      victim, "cpu/online", bad, s);
	if (!protect)
		goto out;
refuse:
	cpumgr_offline_end();
	atomic64_inc(&cpumgr_counters.offlines_refused);
	cpumgr_event_offline_refused(view, cpu);
	ret = cpumgr_refuse(regs);
out:
	rcu_read_unlock();
	return ret;
}

/*
 * cpuhp_smt_disable(ctrlval): smt/control "off" or "forceoff" takes every
 * SMT sibling but the first of each core down, one after the other.
 * Refused one CPU at a time, the siblings before an assigned one would
 * already be down when it is met: all of them are checked first.  (A
 * lower thread count, CPU_SMT_ENABLED here on 6.6+, is left to the check
 * of each CPU.)
 */
static int cpumgr_smt_off_pre(struct kprobe *kp, struct pt_regs *regs)
{
	int ctrlval = cpumgr_arg(regs, CPUMGR_HOOK_SMT_OFF, CPUMGR_ARG_CTRLVAL);
	const struct cpumgr_view *view;
	bool refused = false;
	unsigned int cpu;
	int ret = 0;

	rcu_read_lock();
	view = cpumgr_view_get();
	if (view->hotplug != CPUMGR_HOTPLUG_PROTECT ||
	    ctrlval == CPU_SMT_ENABLED)
		goto out;
	for_each_online_cpu(cpu) {
		if (cpu == cpumask_first(topology_sibling_cpumask(cpu)) ||
		    !cpumask_test_cpu(cpu, view->exclusive))
			continue;
		atomic64_inc(&cpumgr_counters.offlines_refused);
		cpumgr_event_offline_refused(view, cpu);
		refused = true;
	}
	if (refused)
		ret = cpumgr_refuse(regs);
out:
	rcu_read_unlock();
	return ret;
}

static void cpumgr_post(struct kprobe *kp, struct pt_regs *regs,
			unsigned long flags)
{
}

/* The symbols come from this series' row of cpumgr_series.c's table. */
#define CPUMGR_PROBE(hook, handler)					\
	[hook] = { .pre_handler = handler, .post_handler = cpumgr_post }

/* A probe that only watches: it changes nothing and may be a jump. */
#define CPUMGR_WATCH(hook, handler)					\
	[hook] = { .pre_handler = handler }

static struct kprobe cpumgr_probes[CPUMGR_NR_HOOKS] = {
	CPUMGR_PROBE(CPUMGR_HOOK_WRITE, cpumgr_redirect_pre),
	CPUMGR_PROBE(CPUMGR_HOOK_PARTITION, cpumgr_redirect_pre),
	CPUMGR_PROBE(CPUMGR_HOOK_SUBTREE, cpumgr_redirect_pre),
	CPUMGR_PROBE(CPUMGR_HOOK_ATTACH, cpumgr_attach_pre),
	CPUMGR_PROBE(CPUMGR_HOOK_FORK, cpumgr_fork_pre),
	CPUMGR_PROBE(CPUMGR_HOOK_OFFLINE, cpumgr_offline_pre),
	CPUMGR_PROBE(CPUMGR_HOOK_SMT_OFF, cpumgr_smt_off_pre),
	CPUMGR_WATCH(CPUMGR_HOOK_FORK_END, cpumgr_fork_end_pre),
	CPUMGR_WATCH(CPUMGR_HOOK_FORK_CANCEL, cpumgr_fork_end_pre),
};

static struct kprobe *cpumgr_probe_list[ARRAY_SIZE(cpumgr_probes)];

/*
 * The offline function returned: the offline its probe let go is over
 * (done or failed), the CPU no longer going down.  Offlines are
 * serialized: one instance is enough, a second would be a missed call.
 */
static int cpumgr_offline_ret(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	cpumgr_offline_end();
	return 0;
}

/* Suspend's offlines were not marked going down: nothing to end. */
static int cpumgr_offline_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	return cpumgr_offline_frozen(regs);
}

static struct kretprobe cpumgr_offline_kret = {
	.entry_handler = cpumgr_offline_entry,
	.handler = cpumgr_offline_ret,
	.maxactive = 2,
};

/*
 * cgroup_attach_task() returned: the task entry its probe let go is over
 * (its task in, or not moved).  Entries are serialized by cgroup_mutex.
 */
static int cpumgr_attach_ret(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	cpumgr_inflight_leave();
	return 0;
}

static struct kretprobe cpumgr_attach_kret = {
	.handler = cpumgr_attach_ret,
	.maxactive = 4,
};

/* The returns probed, at the function of a hook each. */
static struct {
	struct kretprobe *rp;
	enum cpumgr_hook hook;
} cpumgr_krets[] = {
	{ &cpumgr_offline_kret, CPUMGR_HOOK_OFFLINE },
	{ &cpumgr_attach_kret, CPUMGR_HOOK_ATTACH },
};

/*
 * Whether @kp, registered without an error, was dropped all the same.
 * 7.3's __register_kprobe() takes a probe it could not arm (the function
 * has another IPMODIFY owner: a livepatch, another tool) off its table
 * with hlist_del_rcu() and returns 0; the probe's node is then poisoned.
 * A probe joined to another one at its address is never on the table
 * itself (its node stays as it was) and is not dropped.
 */
static bool cpumgr_probe_dropped(const struct kprobe *kp)
{
	return kp->hlist.pprev == LIST_POISON2;
}

static int cpumgr_register_probe(struct kprobe *kp)
{
	int err = register_kprobe(kp);

	if (!err && cpumgr_probe_dropped(kp))
		err = -EBUSY;
	return err;
}

int cpumgr_hooks_init(void)
{
	unsigned int i, k = 0;
	int err;

	for (i = 0; i < ARRAY_SIZE(cpumgr_probes); i++) {
		cpumgr_probes[i].symbol_name = cpumgr_series->site[i].symbol;
		err = cpumgr_register_probe(&cpumgr_probes[i]);
		if (err) {
			pr_err("cannot probe %s, which series %s has (%d)%s\n",
			       cpumgr_probes[i].symbol_name,
			       cpumgr_series->name, err,
			       err == -EBUSY ?
			       ": a livepatch or another tool already redirects it" :
			       "");
			goto err;
		}
		cpumgr_probe_list[i] = &cpumgr_probes[i];
	}
	for (k = 0; k < ARRAY_SIZE(cpumgr_krets); k++) {
		struct kretprobe *rp = cpumgr_krets[k].rp;

		rp->kp.symbol_name =
			cpumgr_series->site[cpumgr_krets[k].hook].symbol;
		err = register_kretprobe(rp);
		if (!err && cpumgr_probe_dropped(&rp->kp)) {
			unregister_kretprobe(rp);
			err = -EBUSY;
		}
		if (err) {
			pr_err("cannot probe the return of %s (%d)\n",
			       rp->kp.symbol_name, err);
			goto err;
		}
	}
	return 0;
err:
	while (k--)
		unregister_kretprobe(cpumgr_krets[k].rp);
	if (i)
		unregister_kprobes(cpumgr_probe_list, i);
	/* Calls redirected so far must have left cpumgr_refused. */
	synchronize_rcu_tasks();
	return err;
}

u64 cpumgr_hooks_missed(void)
{
	u64 missed = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpumgr_probes); i++)
		missed += READ_ONCE(cpumgr_probes[i].nmissed);
	for (i = 0; i < ARRAY_SIZE(cpumgr_krets); i++)
		missed += READ_ONCE(cpumgr_krets[i].rp->kp.nmissed) +
			  READ_ONCE(cpumgr_krets[i].rp->nmissed);
	return missed;
}

bool cpumgr_hooks_disabled(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpumgr_probes); i++)
		if (kprobe_disabled(&cpumgr_probes[i]))
			return true;
	for (i = 0; i < ARRAY_SIZE(cpumgr_krets); i++)
		if (kprobe_disabled(&cpumgr_krets[i].rp->kp))
			return true;
	return false;
}

void cpumgr_hooks_exit(void)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(cpumgr_krets); k++)
		unregister_kretprobe(cpumgr_krets[k].rp);
	unregister_kprobes(cpumgr_probe_list, ARRAY_SIZE(cpumgr_probe_list));
	/* Calls sent to cpumgr_write_checked() or cpumgr_refused() leave. */
	synchronize_srcu(&cpumgr_writes);
	synchronize_rcu_tasks();
}
