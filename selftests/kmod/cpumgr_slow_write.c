// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgr_slow_write: a test module for selftests/write_race.sh.  It holds
 * a cpuset.cpus write of one cgroup (by name) for a while after cpumgr
 * has checked it, so that the test can change cpumgr's table meanwhile.
 * cpumgr sends the call through its own checking function, which calls
 * cpuset_write_resmask() again: the same task entering it a second time
 * is that checked call.  Loaded after cpumgr, this probe runs first where
 * the function is entered, so it sees both entries.
 *
 * The write is held where it sleeps, not in the probe: a vCPU spinning
 * with preemption off for minutes stalls what the rest of the guest
 * queues on it (on PREEMPT_RT a sleeper's timer expires in a thread that
 * CPU cannot run), and the test that polls for the hold with it.  So the
 * checked call is only marked, and its first call of strim() (the
 * strstrip() every series' cpuset_write_resmask() begins with, before
 * any lock) is sent to slow_write_hold() instead, which sleeps until
 * released and then strips the buffer itself.
 *
 * "waiting" reads 1 while the write is held; writing 1 to "release" lets
 * it go, and delay_ms is the longest it is held.
 *
 * Parameters: cgroup, the directory name; delay_ms, the longest hold.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>

#include "testmod_kernfs.h"

static char *cgroup = "slow";
module_param(cgroup, charp, 0444);
MODULE_PARM_DESC(cgroup, "the cgroup whose cpuset.cpus writes are slowed");

static unsigned int delay_ms = 1000;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "how long the checked write is held at most");

static int waiting;
module_param(waiting, int, 0444);
MODULE_PARM_DESC(waiting, "1 while a write is held");

static int release;
module_param(release, int, 0644);
MODULE_PARM_DESC(release, "write 1 to let the held write go");

static struct task_struct *entered;	/* the first entry's task */
static struct task_struct *checked;	/* the checked entry's, until held */

static int slow_write_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct kernfs_open_file *of = (void *)regs_get_kernel_argument(regs, 0);
	struct kernfs_node *kn = of->kn;

	if (strcmp(kn_name(kn), "cpuset.cpus") || !kn_parent(kn) ||
	    strcmp(kn_name(kn_parent(kn)), cgroup))
		return 0;
	if (READ_ONCE(entered) != current) {
		WRITE_ONCE(entered, current);
		return 0;
	}
	WRITE_ONCE(entered, NULL);
	WRITE_ONCE(release, 0);
	WRITE_ONCE(checked, current);
	return 0;
}

/*
 * Where the checked write's strim() goes: the hold, then strim().  The
 * probe took a reference for it, so rmmod is refused while it sleeps.
 */
static char *slow_write_hold(char *s)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(delay_ms);

	WRITE_ONCE(waiting, 1);
	while (!READ_ONCE(release) && time_before(jiffies, deadline))
		msleep(20);
	WRITE_ONCE(waiting, 0);
	s = strim(s);
	module_put(THIS_MODULE);
	return s;
}

/*
 * strim() is in lib/, built without ftrace: its probe is an int3, whose
 * handler runs as an NMI, so in_task() cannot tell the write's own call
 * from an interrupt's.  The interrupt runs on its own stack, the write
 * on the task's.
 */
static int slow_strim_pre(struct kprobe *kp, struct pt_regs *regs)
{
	if (READ_ONCE(checked) != current ||
	    !object_is_on_stack((void *)kernel_stack_pointer(regs)))
		return 0;
	WRITE_ONCE(checked, NULL);
	if (!try_module_get(THIS_MODULE))
		return 0;
	instruction_pointer_set(regs, (unsigned long)slow_write_hold);
	return 1;
}

/* With a post handler the probe may move the instruction pointer. */
static void slow_strim_post(struct kprobe *kp, struct pt_regs *regs,
			    unsigned long flags)
{
}

static struct kprobe slow_write_probe = {
	.symbol_name = "cpuset_write_resmask",
	.pre_handler = slow_write_pre,
};

static struct kprobe slow_strim_probe = {
	.symbol_name = "strim",
	.pre_handler = slow_strim_pre,
	.post_handler = slow_strim_post,
};

static int __init slow_write_init(void)
{
	int err = register_kprobe(&slow_strim_probe);

	if (err)
		return err;
	err = register_kprobe(&slow_write_probe);
	if (err)
		unregister_kprobe(&slow_strim_probe);
	return err;
}

static void __exit slow_write_exit(void)
{
	unregister_kprobe(&slow_write_probe);
	unregister_kprobe(&slow_strim_probe);
}

module_init(slow_write_init);
module_exit(slow_write_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Slows down one cgroup's cpuset.cpus writes, to test cpumgr");
