// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs of the threads the kernel makes for a task: io_uring's SQPOLL
 * thread (io_sq_thread() asks for every online CPU, or the one CPU of
 * IORING_SETUP_SQ_AFF) and its io-wq workers (the CPUs their ring was
 * made with, and every CPU that came online since), vhost's workers,
 * and kernel threads moved into a task's cgroups (vhost's with
 * VHOST_SET_FORK_FROM_OWNER 0, KVM's on 6.1), which 7.x gives the
 * housekeeping CPUs again whenever they change.  They live in their
 * task's cgroups, but the kernel sets their CPUs with
 * set_cpus_allowed_ptr(), which does not look at cpusets: an SQPOLL
 * thread of a container on two shared CPUs may run on another
 * container's.
 *
 * For such a thread (PF_KTHREAD, PF_IO_WORKER, PF_USER_WORKER) in
 * scope, the call is narrowed to the CPUs its cpuset gives it (effective)
 * less those it may not hold (cpumgr_rules.c); when none of what it asks
 * for is left, it is refused (-EINVAL: the thread keeps the CPUs it
 * has, its creator's, or those cpuset gave it), unless all of it is the
 * cpuset's own (cpuset moving a task onto a cpuset that holds a CPU
 * assigned since: the controller narrows that cpuset, audit finds it).
 * In audit mode the call goes through as asked.  Each is logged.
 * cpumgr_check_affinity() decides in the probe, with preemption off,
 * whether a call is sent to cpumgr_check_affinity_set(), which may sleep.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "cpumgr_check_affinity.h"
#include "cpumgr_cpuset.h"
#include "cpumgr_events.h"
#include "cpumgr_names.h"
#include "cpumgr_rules.h"
#include "cpumgr_view.h"

/* The threads the kernel makes: kthreads, io_uring's and vhost's workers. */
#ifdef PF_USER_WORKER
#define CPUMGR_KERNEL_MADE (PF_KTHREAD | PF_IO_WORKER | PF_USER_WORKER)
#else
#define CPUMGR_KERNEL_MADE (PF_KTHREAD | PF_IO_WORKER)
#endif

/* A cpuset changed under a narrowed call this often: left as it is. */
#define CPUMGR_AFFINITY_TRIES 3

enum cpumgr_affinity {
	CPUMGR_AFFINITY_ASKED,		/* as asked: nothing to narrow */
	CPUMGR_AFFINITY_NARROWED,	/* to what it may hold of it */
	CPUMGR_AFFINITY_AUDITED,	/* as asked, in audit mode */
	CPUMGR_AFFINITY_REFUSED,	/* it may hold none of it */
};

/*
 * The CPUs @p may hold, into @ok: its cpuset's effective CPUs less those
 * its cgroup may not hold.  False when @p is out of scope or nothing is
 * to be checked.  The caller is in an RCU read-side section.
 */
static bool cpumgr_affinity_allowed(const struct cpumgr_view *view,
				    struct task_struct *p, struct cpumask *ok,
				    struct cpumgr_scratch *s)
{
	struct cgroup_subsys_state *css = task_css(p, cpuset_cgrp_id);
	struct cpumask *bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	const struct cpumask *eff = cpumgr_cpuset_effective(css);
	const struct cpumask *own = cpu_none_mask;
	struct cgroup *cgrp = css->cgroup;

	if (!cpumgr_rules_active(view))
		return false;
	/* on cgroup2, the task's cgroup may take its cpuset from above */
	if (cpumgr_cgroup_on_dfl(cgrp))
		cgrp = task_dfl_cgroup(p);
	if (!cpumgr_rules_in_scope(view, cgrp, s))
		return false;
	if (cgrp == css->cgroup)
		own = cpumgr_cpuset_allowed(css);
	cpumask_clear(bad);
	cpumgr_rules_check(view, cgrp, eff, own, bad, s);
	cpumask_andnot(ok, eff, bad);
	return true;
}

/**
 * cpumgr_check_affinity - whether set_cpus_allowed_ptr(@p, @mask) is checked
 * @p: the task
 * @mask: the CPUs it is to get
 *
 * In the probe, with preemption off.  Return: true when @p is a thread
 * the kernel made, in scope, and @mask holds CPUs it may not hold.
 */
bool cpumgr_check_affinity(struct task_struct *p, const struct cpumask *mask)
{
	struct cpumgr_scratch *s;
	struct cpumask *ok;
	bool check = false;

	if (!(READ_ONCE(p->flags) & CPUMGR_KERNEL_MADE))
		return false;
	rcu_read_lock();
	s = cpumgr_scratch_get();
	ok = cpumgr_scratch_mask(s, CPUMGR_EFF);
	if (cpumgr_affinity_allowed(cpumgr_view_get(), p, ok, s))
		check = !cpumask_subset(mask, ok);
	rcu_read_unlock();
	return check;
}

/*
 * What becomes of set_cpus_allowed_ptr(@p, @mask); @given: the CPUs to
 * give (narrowed), or those @p may hold (audited, refused).
 */
static enum cpumgr_affinity cpumgr_affinity_decide(struct task_struct *p,
						   const struct cpumask *mask,
						   struct cpumask *given)
{
	enum cpumgr_affinity v = CPUMGR_AFFINITY_ASKED;
	const struct cpumgr_view *view;
	struct cpumgr_scratch *s;
	struct cpumask *ok;

	s = cpumgr_scratch_lock();
	rcu_read_lock();
	view = cpumgr_view_get();
	ok = cpumgr_scratch_mask(s, CPUMGR_EFF);
	if (!cpumgr_affinity_allowed(view, p, ok, s) ||
	    cpumask_subset(mask, ok))
		goto out;
	if (view->enforce == CPUMGR_ENFORCE_ENFORCE &&
	    cpumask_and(given, mask, ok)) {
		v = CPUMGR_AFFINITY_NARROWED;
		goto out;
	}
	/* cpuset's own call, on a cpuset that holds what it may not */
	if (cpumask_subset(mask, cpumgr_cpuset_effective(task_css(p, cpuset_cgrp_id))))
		goto out;
	cpumask_copy(given, ok);
	v = view->enforce == CPUMGR_ENFORCE_ENFORCE ? CPUMGR_AFFINITY_REFUSED :
						      CPUMGR_AFFINITY_AUDITED;
out:
	rcu_read_unlock();
	cpumgr_scratch_unlock();
	return v;
}

/* Whether @p may still hold all of @given (its cpuset may have changed). */
static bool cpumgr_affinity_holds(struct task_struct *p,
				  const struct cpumask *given)
{
	struct cpumgr_scratch *s;
	struct cpumask *ok;
	bool holds = true;

	s = cpumgr_scratch_lock();
	rcu_read_lock();
	ok = cpumgr_scratch_mask(s, CPUMGR_EFF);
	if (cpumgr_affinity_allowed(cpumgr_view_get(), p, ok, s))
		holds = cpumask_subset(given, ok);
	rcu_read_unlock();
	cpumgr_scratch_unlock();
	return holds;
}

/* One line per narrowed, audited or refused call, rate-limited. */
static void cpumgr_affinity_log(enum cpumgr_affinity v, struct task_struct *p,
				const struct cpumask *mask,
				const struct cpumask *given)
{
	static DEFINE_RATELIMIT_STATE(limit, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	char comm[TASK_COMM_LEN], escaped[4 * TASK_COMM_LEN];
	struct cgroup_subsys_state *css;
	struct cpumgr_log_buf *b;

	if (v == CPUMGR_AFFINITY_ASKED || !__ratelimit(&limit))
		return;
	b = kmalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return;
	css = task_get_css(p, cpuset_cgrp_id);
	if (cgroup_path(css->cgroup, b->path, sizeof(b->path)) < 0)
		strscpy(b->path, "?", sizeof(b->path));
	css_put(css);
	cpumgr_escape(b->escaped, sizeof(b->escaped), b->path);
	get_task_comm(comm, p);
	cpumgr_escape(escaped, sizeof(escaped), comm);
	switch (v) {
	case CPUMGR_AFFINITY_NARROWED:
		pr_info("kept %s (tid %d, pid %d), a thread the kernel made, in cgroup %s on CPUs %*pbl: it was to get %*pbl\n",
			escaped, task_pid_nr(p), task_tgid_nr(p), b->escaped,
			cpumask_pr_args(given), cpumask_pr_args(mask));
		break;
	case CPUMGR_AFFINITY_AUDITED:
		pr_notice("audited CPUs %*pbl given to %s (tid %d, pid %d), a thread the kernel made, in cgroup %s: it may hold %*pbl\n",
			  cpumask_pr_args(mask), escaped, task_pid_nr(p),
			  task_tgid_nr(p), b->escaped, cpumask_pr_args(given));
		break;
	case CPUMGR_AFFINITY_REFUSED:
		pr_warn("refused CPUs %*pbl to %s (tid %d, pid %d), a thread the kernel made, in cgroup %s: it may hold %*pbl\n",
			cpumask_pr_args(mask), escaped, task_pid_nr(p),
			task_tgid_nr(p), b->escaped, cpumask_pr_args(given));
		break;
	case CPUMGR_AFFINITY_ASKED:
		break;
	}
	kfree(b);
}

/**
 * cpumgr_check_affinity_set - set_cpus_allowed_ptr(@p, @mask), checked
 * @p: the task, a thread the kernel made
 * @mask: the CPUs it is to get
 *
 * Where the probe sends the calls cpumgr_check_affinity() picked.  Gives
 * @p what of @mask it may hold, and checks again when its cpuset changed
 * meanwhile, as sched_setaffinity() does.  May sleep.
 *
 * Return: set_cpus_allowed_ptr()'s, or -EINVAL when refused, -ENOMEM.
 */
int cpumgr_check_affinity_set(struct task_struct *p, const struct cpumask *mask)
{
	enum cpumgr_affinity v;
	cpumask_var_t given;
	int tries = 0, ret;

	if (!alloc_cpumask_var(&given, GFP_KERNEL))
		return -ENOMEM;
	for (;;) {
		v = cpumgr_affinity_decide(p, mask, given);
		if (v != CPUMGR_AFFINITY_NARROWED)
			break;
		ret = set_cpus_allowed_ptr(p, given);
		if (ret || ++tries == CPUMGR_AFFINITY_TRIES ||
		    cpumgr_affinity_holds(p, given))
			goto out;
	}
	ret = v == CPUMGR_AFFINITY_REFUSED ? -EINVAL :
					     set_cpus_allowed_ptr(p, mask);
out:
	cpumgr_affinity_log(v, p, mask, given);
	free_cpumask_var(given);
	return ret;
}
