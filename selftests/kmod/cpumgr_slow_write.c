// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgr_slow_write: a test module for selftests/write_race.sh.  It holds
 * a cpuset.cpus write of one cgroup (by name) for a while after cpumgr
 * has checked it, so that the test can change cpumgr's table meanwhile.
 * cpumgr sends the call through its own checking function, which calls
 * cpuset_write_resmask() again: the same task entering it a second time
 * is that checked call.  Loaded after cpumgr, this probe runs first where
 * the function is entered, so it sees both entries.  "waiting" reads 1
 * while the write is held; writing 1 to "release" lets it go, and
 * delay_ms is the longest it is held.  The test waits for "waiting"
 * however long that takes, so a busy host cannot make it miss the hold.
 *
 * Parameters: cgroup, the directory name; delay_ms, the longest hold.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kernfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

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

static int slow_write_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct kernfs_open_file *of = (void *)regs_get_kernel_argument(regs, 0);
	struct kernfs_node *kn = of->kn;
	u64 deadline;

	if (strcmp(kn_name(kn), "cpuset.cpus") || !kn_parent(kn) ||
	    strcmp(kn_name(kn_parent(kn)), cgroup))
		return 0;
	if (READ_ONCE(entered) != current) {
		WRITE_ONCE(entered, current);
		return 0;
	}
	WRITE_ONCE(entered, NULL);
	WRITE_ONCE(release, 0);
	WRITE_ONCE(waiting, 1);
	/* delay_ms of the clock's time, however long each mdelay() took */
	deadline = ktime_get_mono_fast_ns() + (u64)delay_ms * NSEC_PER_MSEC;
	while (!READ_ONCE(release) && ktime_get_mono_fast_ns() < deadline)
		mdelay(1);
	WRITE_ONCE(waiting, 0);
	return 0;
}

static struct kprobe slow_write_probe = {
	.symbol_name = "cpuset_write_resmask",
	.pre_handler = slow_write_pre,
};

static int __init slow_write_init(void)
{
	return register_kprobe(&slow_write_probe);
}

static void __exit slow_write_exit(void)
{
	unregister_kprobe(&slow_write_probe);
}

module_init(slow_write_init);
module_exit(slow_write_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Slows down one cgroup's cpuset.cpus writes, to test cpumgr");
