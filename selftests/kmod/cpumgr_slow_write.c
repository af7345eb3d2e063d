// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgr_slow_write: a test module for selftests/write_race.sh.  It holds
 * the cpuset.cpus writes of cgroups of one name for a while after cpumgr
 * has checked them, so that the test can change cpumgr's table, or
 * unload it, meanwhile.  cpumgr sends the call through its own checking
 * function, cpumgr_file_checked(), which calls cpuset_write_resmask()
 * again: the entry whose return address is there is the checked call.
 * Up to SLOW_TASKS writes are held at a time.
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
 * "waiting" reads how many writes are held now, "holds" how many were so
 * far; "release" set to N lets the first N holds go (those to come
 * included), -1 every one; delay_ms is the longest a write is held.
 *
 * Parameters: cgroup, the directory name; delay_ms, the longest hold.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kernfs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "testmod_kernfs.h"

static char *cgroup = "slow";
module_param(cgroup, charp, 0444);
MODULE_PARM_DESC(cgroup, "the cgroup whose cpuset.cpus writes are slowed");

static unsigned int delay_ms = 1000;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "how long the checked write is held at most");

/* The module's counters, read as parameters: kp->arg is the atomic_t. */
static int atomic_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read((atomic_t *)kp->arg));
}

static const struct kernel_param_ops atomic_ro_ops = {
	.get = atomic_param_get,
};

static atomic_t held = ATOMIC_INIT(0);
module_param_cb(waiting, &atomic_ro_ops, &held, 0444);
MODULE_PARM_DESC(waiting, "how many writes are held");

/*
 * Each hold takes a number, 1 up ("holds": the last one taken); a hold
 * goes once "release" is at least its number, or -1.
 */
static atomic_t holds = ATOMIC_INIT(0);
module_param_cb(holds, &atomic_ro_ops, &holds, 0444);
MODULE_PARM_DESC(holds, "how many writes were held so far");

static int release_set(const char *val, const struct kernel_param *kp)
{
	int n, err = kstrtoint(val, 0, &n);

	if (err)
		return err;
	if (n < -1)
		return -EINVAL;
	atomic_set((atomic_t *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops release_ops = {
	.set = release_set,
	.get = atomic_param_get,
};

static atomic_t upto = ATOMIC_INIT(0);
module_param_cb(release, &release_ops, &upto, 0644);
MODULE_PARM_DESC(release, "N lets holds 1 to N go, -1 every one");

/*
 * The tasks checked until their strim(): slots taken with cmpxchg(), as
 * the probes run with preemption off (strim()'s as an NMI), and let go
 * by the task itself.
 */
#define SLOW_TASKS	32
static struct task_struct *checked[SLOW_TASKS];

static int slot_of(struct task_struct *t)
{
	int i;

	for (i = 0; i < SLOW_TASKS; i++)
		if (READ_ONCE(checked[i]) == t)
			return i;
	return -1;
}

static void slot_take(struct task_struct *t)
{
	int i;

	for (i = 0; i < SLOW_TASKS; i++)
		if (!cmpxchg(&checked[i], NULL, t))
			return;
}

/* The call comes from cpumgr's checking function: a checked write. */
static bool from_cpumgr_check(struct pt_regs *regs)
{
	unsigned long caller = *(unsigned long *)kernel_stack_pointer(regs);
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol(sym, caller);
	return str_has_prefix(sym, "cpumgr_file_checked+");
}

static int slow_write_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct kernfs_open_file *of = (void *)regs_get_kernel_argument(regs, 0);
	struct kernfs_node *kn = of->kn;

	if (strcmp(kn_name(kn), "cpuset.cpus") || !kn_parent(kn) ||
	    strcmp(kn_name(kn_parent(kn)), cgroup) || !from_cpumgr_check(regs))
		return 0;
	slot_take(current);
	return 0;
}

/*
 * Where the checked write's strim() goes: the hold, then strim().  The
 * probe took a reference for it, so rmmod is refused while it sleeps.
 */
static char *slow_write_hold(char *s)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(delay_ms);
	int n = atomic_inc_return(&holds), to;

	atomic_inc(&held);
	for (to = atomic_read(&upto); to >= 0 && to < n &&
	     time_before(jiffies, deadline); to = atomic_read(&upto))
		msleep(20);
	atomic_dec(&held);
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
	int i = slot_of(current);

	if (i < 0 || !object_is_on_stack((void *)kernel_stack_pointer(regs)))
		return 0;
	WRITE_ONCE(checked[i], NULL);
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
	/* a hold's last instructions, after its module_put() */
	synchronize_rcu_tasks();
}

module_init(slow_write_init);
module_exit(slow_write_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Slows down one cgroup's cpuset.cpus writes, to test cpumgr");
