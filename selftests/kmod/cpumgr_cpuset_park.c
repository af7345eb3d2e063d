// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgr_cpuset_park: a test module for selftests/entry_race.sh.  It
 * parks one cpuset.cpus or cpuset.mems write of one cgroup (by name)
 * where the kernel applies it, with cpuset's locks held, until
 * released.  Every other cpuset write, and every task entering a
 * cpuset, then waits for those locks after cpumgr has checked it: the
 * test has writes and task entries checked and not yet done, as long
 * as it likes, and can bring the other side meanwhile.
 *
 * The write is parked where it updates the tasks of its cpuset
 * (css_task_iter_start() on it, in every series), by sending that call
 * to a function here that sleeps and then makes it.  It sleeps: a hold
 * with preemption off would stall RCU, which a task move waits for.
 * "waiting" reads 1 while the write is parked; writing 1 to "release"
 * lets it go, and delay_ms is the longest it is parked.  One write is
 * parked per load.
 *
 * Parameters: cgroup, the directory name; delay_ms, the longest park.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include "testmod_kernfs.h"

static char *cgroup = "park";
module_param(cgroup, charp, 0444);
MODULE_PARM_DESC(cgroup, "the cgroup whose cpuset write is parked");

static unsigned int delay_ms = 60000;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "how long the write is parked at most");

static int waiting;
module_param(waiting, int, 0444);
MODULE_PARM_DESC(waiting, "1 while the write is parked");

static int release;
module_param(release, int, 0644);
MODULE_PARM_DESC(release, "write 1 to let the parked write go");

static atomic_t parked = ATOMIC_INIT(0);
/* calls inside park_iter_start() */
static atomic_t busy = ATOMIC_INIT(0);

typedef void (*park_iter_start_t)(struct cgroup_subsys_state *css,
				  unsigned int flags,
				  struct css_task_iter *it);

static struct kprobe park_probe;

/*
 * Where the parked call goes: it sleeps, then makes the call at the
 * probed address (after the function's endbr64, which only matters to
 * a CPU that enforces IBT; the guests' do not), which the probe lets
 * through because it comes from here.
 */
static void park_iter_start(struct cgroup_subsys_state *css,
			    unsigned int flags, struct css_task_iter *it)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(delay_ms);

	atomic_inc(&busy);
	WRITE_ONCE(waiting, 1);
	while (!READ_ONCE(release) && time_before(jiffies, deadline))
		msleep(20);
	WRITE_ONCE(waiting, 0);
	((park_iter_start_t)park_probe.addr)(css, flags, it);
	atomic_dec(&busy);
}

/* css_task_iter_start(css, flags, it): the named cgroup's cpuset only */
static int park_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct cgroup_subsys_state *css =
		(void *)regs_get_kernel_argument(regs, 0);
	unsigned long caller = *(unsigned long *)kernel_stack_pointer(regs);

	if (within_module(caller, THIS_MODULE) || !css->ss ||
	    css->ss->id != cpuset_cgrp_id ||
	    strcmp(kn_name(css->cgroup->kn), cgroup) ||
	    atomic_xchg(&parked, 1))
		return 0;
	instruction_pointer_set(regs, (unsigned long)park_iter_start);
	return 1;
}

/* A probe that changes the instruction pointer needs one. */
static void park_post(struct kprobe *kp, struct pt_regs *regs,
		      unsigned long flags)
{
}

static struct kprobe park_probe = {
	.symbol_name = "css_task_iter_start",
	.pre_handler = park_pre,
	.post_handler = park_post,
};

static int __init park_init(void)
{
	return register_kprobe(&park_probe);
}

/*
 * A parked call goes first.  Calls sent here have then counted
 * themselves (or passed through without sleeping here), and those that
 * counted themselves have left once they no longer count and, later,
 * have switched away.
 */
static void __exit park_exit(void)
{
	WRITE_ONCE(release, 1);
	unregister_kprobe(&park_probe);
	synchronize_rcu_tasks();
	while (atomic_read(&busy))
		msleep(20);
	synchronize_rcu_tasks();
}

module_init(park_init);
module_exit(park_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Parks a cgroup's cpuset.cpus write with cpuset's locks held, to test cpumgr");
