// SPDX-License-Identifier: GPL-2.0
/*
 * Where exclusivity is enforced: kprobes at the entry of the kernel
 * functions through which cpusets get CPUs, tasks enter cpusets, and CPUs
 * go offline (cpumgr_series.c names them, per series).  Each probe reads
 * the arguments of its function and asks the check of that operation
 * (cpumgr_check_write.c, cpumgr_check_entry.c, cpumgr_check_offline.c).
 * A refused call does not run at all: the handler sets the return value,
 * points the instruction pointer at a bare return and tells kprobes it
 * did so.
 *
 * Every probe sits at its function's entry, on the call to ftrace there
 * (after the endbr64 of an IBT kernel): on a kernel with
 * KPROBES_ON_FTRACE, as Debian's kernels of every series (6.1, 6.12,
 * 7.3) and the debug kernel have it, such a kprobe is ftrace-based, not
 * an int3 or a jump (kprobes/list marks each of ours [FTRACE] on all
 * three).  Its handlers run from ftrace's callback, with preemption off
 * and interrupts as the probed function's caller had them.  A probe
 * that changes the instruction pointer needs a post handler: kprobes
 * then registers it with ftrace as the function's one IPMODIFY owner
 * (and cannot arm it while a livepatch or another tool is that).
 *
 * The handlers read the RCU view, use this CPU's scratch masks and queue
 * their notifications.  The writers of cgroup files, whose checks walk
 * cpusets, are redirected to a function that checks where it may be
 * preempted (on PREEMPT_RT) and then calls them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/objtool.h>
#include <linux/poison.h>
#include <linux/printk.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <asm/linkage.h>

#include "cpumgr_check_affinity.h"
#include "cpumgr_check_entry.h"
#include "cpumgr_check_offline.h"
#include "cpumgr_check_partition.h"
#include "cpumgr_check_write.h"
#include "cpumgr_inflight.h"
#include "cpumgr_offline.h"
#include "cpumgr_probes.h"
#include "cpumgr_series.h"
#include "cpumgr_through.h"

/* Where refused calls return through, with the value the handler set. */
asm(".pushsection .text, \"ax\"\n"
	".type cpumgr_refused, @function\n"
	"cpumgr_refused:\n"
	/* 7.3's ends without a newline, 6.x's with one */
	ANNOTATE_NOENDBR "\n"
	ASM_RET
	".size cpumgr_refused, . - cpumgr_refused\n"
	".popsection\n");

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
 * Whether a write of @buf to @file of @of is refused: the check of each
 * redirected writer (@w, a cpuset.cpus write's in-flight slot).
 */
static bool cpumgr_file_refused(struct kernfs_open_file *of, const char *buf,
				enum cpumgr_file file,
				struct cpumgr_inflight_write *w)
{
	switch (file) {
	case CPUMGR_FILE_CPUS:
		return cpumgr_check_cpus_write(of, buf, w);
	case CPUMGR_FILE_EXCLUSIVE:
		return cpumgr_check_exclusive_write(of, buf);
	case CPUMGR_FILE_PARTITION:
		return cpumgr_check_partition_write(of, buf);
	case CPUMGR_FILE_SUBTREE:
		return cpumgr_check_subtree_write(of, buf);
	case CPUMGR_FILE_OTHER:
		break;
	}
	return false;
}

/*
 * The file's write method: the probed function itself, whose probe lets
 * this call through (cpumgr_through.c).
 */
static ssize_t cpumgr_file_write(struct kernfs_open_file *of, char *buf,
				 size_t nbytes, loff_t off)
{
	ssize_t ret = cpumgr_through_begin(of);

	if (ret)
		return ret;
	ret = of_cft(of)->write(of, buf, nbytes, off);
	cpumgr_through_end();
	return ret;
}

/*
 * Where the calls of the probed writers of cpuset.cpus,
 * cpuset.cpus.exclusive, cpuset.cpus.partition and cgroup.subtree_control
 * are sent: checked, then made by calling the file's write method, as a
 * checked write under way (cpumgr_inflight.c).  A cpuset.cpus
 * write holds an in-flight slot too until the kernel returns from it,
 * and waits for one while another write on its cpuset's branch holds
 * one.  The others (not cpuset.mems) pass the gate of the table changes
 * that look at the cpusets.  Unlike the probe, this may sleep.
 */
static ssize_t cpumgr_file_checked(struct kernfs_open_file *of, char *buf,
				   size_t nbytes, loff_t off)
{
	enum cpumgr_file file = cpumgr_file_of(of);
	struct cpumgr_inflight_write *w = NULL;
	bool gated = false;
	ssize_t ret;
	int idx;

	/*
	 * Under way from here, before the wait for a slot: unload waits for
	 * a writer asleep there, in this module's text, to leave.
	 */
	idx = cpumgr_inflight_checked_begin();
	if (file == CPUMGR_FILE_CPUS) {
		w = cpumgr_inflight_write_get(of_css(of));
		if (IS_ERR(w)) {
			ret = PTR_ERR(w);
			goto out;
		}
	} else if (file != CPUMGR_FILE_OTHER) {
		ret = cpumgr_inflight_gate_pass(of_css(of));
		if (ret)
			goto out;
		gated = true;
	}
	if (cpumgr_file_refused(of, buf, file, w))
		ret = -EBUSY;
	else
		ret = cpumgr_file_write(of, buf, nbytes, off);
	if (w)
		cpumgr_inflight_write_put(w);
	if (gated)
		cpumgr_inflight_gate_passed();
out:
	cpumgr_inflight_checked_end(idx);
	return ret;
}

/*
 * The writers of cgroup files, all (of, buf, nbytes, off):
 * cpuset_write_resmask() (cpuset.cpus, cpuset.cpus.exclusive, and
 * cpuset.mems, not ours; v1 and v2), the partition file's writer,
 * cgroup_subtree_control_write().  The call goes to cpumgr_file_checked()
 * instead, with its arguments as they are, unless it comes from there.
 * Their checks walk cpusets: not here, with preemption off, but there.
 */
static int cpumgr_redirect_pre(struct kprobe *kp, struct pt_regs *regs)
{
	if (cpumgr_through((void *)regs_get_kernel_argument(regs, 0)))
		return 0;
	instruction_pointer_set(regs, (unsigned long)cpumgr_file_checked);
	return 1;
}

/*
 * Where a checked set_cpus_allowed_ptr() call goes (the probed function
 * is called again from there, and let through), as a checked write
 * under way: a change of the table waits for it, and unload too.
 */
static int cpumgr_affinity_checked(struct task_struct *p,
				   const struct cpumask *mask)
{
	int idx = cpumgr_inflight_checked_begin();
	int ret = cpumgr_through_begin(p);

	if (!ret) {
		ret = cpumgr_check_affinity_set(p, mask);
		cpumgr_through_end();
	}
	cpumgr_inflight_checked_end(idx);
	return ret;
}

/*
 * set_cpus_allowed_ptr(p, new_mask): a thread the kernel made for a task
 * in scope, given CPUs it may not hold (cpumgr_check_affinity.c), is
 * sent to cpumgr_affinity_checked() with its arguments as they are,
 * unless the call comes from there.
 */
static int cpumgr_affinity_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *p =
		(void *)cpumgr_arg(regs, CPUMGR_HOOK_AFFINITY, CPUMGR_ARG_TASK);
	const struct cpumask *mask =
		(void *)cpumgr_arg(regs, CPUMGR_HOOK_AFFINITY, CPUMGR_ARG_MASK);

	if (cpumgr_through(p) || !cpumgr_check_affinity(p, mask))
		return 0;
	instruction_pointer_set(regs, (unsigned long)cpumgr_affinity_checked);
	return 1;
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

	return cpumgr_check_attach(dst) ? cpumgr_refuse(regs) : 0;
}

/* cpuset_can_fork(task, cset): every fork, clone3 into a cgroup among them. */
static int cpumgr_fork_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct css_set *cset =
		(void *)cpumgr_arg(regs, CPUMGR_HOOK_FORK, CPUMGR_ARG_CSET);

	return cpumgr_check_clone3(cset) ? cpumgr_refuse(regs) : 0;
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
 * before the scheduler or cpusets see it coming.
 */
static int cpumgr_offline_pre(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned int cpu =
		cpumgr_arg(regs, CPUMGR_HOOK_OFFLINE, CPUMGR_ARG_CPU);

	if (cpumgr_offline_frozen(regs))
		return 0;
	return cpumgr_check_offline(cpu) ? cpumgr_refuse(regs) : 0;
}

/* cgroup_rmdir(kn): a cgroup removed, a partition there dissolved. */
static int cpumgr_rmdir_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct kernfs_node *kn =
		(void *)cpumgr_arg(regs, CPUMGR_HOOK_RMDIR, CPUMGR_ARG_KN);

	return cpumgr_check_rmdir(kn) ? cpumgr_refuse(regs) : 0;
}

/* cpuhp_smt_disable(ctrlval): smt/control "off" or "forceoff". */
static int cpumgr_smt_off_pre(struct kprobe *kp, struct pt_regs *regs)
{
	int ctrlval = cpumgr_arg(regs, CPUMGR_HOOK_SMT_OFF, CPUMGR_ARG_CTRLVAL);

	return cpumgr_check_smt_off(ctrlval) ? cpumgr_refuse(regs) : 0;
}

static void cpumgr_post(struct kprobe *kp, struct pt_regs *regs,
			unsigned long flags)
{
}

/* The symbols come from this series' row of cpumgr_series.c's table. */
#define CPUMGR_PROBE(hook, handler)					\
	[hook] = { .pre_handler = handler, .post_handler = cpumgr_post }

/*
 * A probe that only watches: it changes nothing, and without a post
 * handler it is no IPMODIFY owner of its function.
 */
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
	CPUMGR_PROBE(CPUMGR_HOOK_AFFINITY, cpumgr_affinity_pre),
	CPUMGR_PROBE(CPUMGR_HOOK_RMDIR, cpumgr_rmdir_pre),
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

int cpumgr_probes_init(void)
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

u64 cpumgr_probes_missed(void)
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

bool cpumgr_probes_disabled(void)
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

void cpumgr_probes_exit(void)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(cpumgr_krets); k++)
		unregister_kretprobe(cpumgr_krets[k].rp);
	unregister_kprobes(cpumgr_probe_list, ARRAY_SIZE(cpumgr_probe_list));
	/* Calls sent to cpumgr_file_checked() or cpumgr_refused() leave. */
	cpumgr_inflight_checked_wait();
	synchronize_rcu_tasks();
}
