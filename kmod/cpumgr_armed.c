// SPDX-License-Identifier: GPL-2.0
/*
 * Whether the guarantee is armed.  The probes that enforce it can stop
 * firing without a word: kprobes placed on ftrace go quiet with
 * kernel.ftrace_enabled=0, all kprobes with
 * /sys/kernel/debug/kprobes/enabled=0, and a probe hit while another
 * kprobe runs is missed (counted in its nmissed).  A canary, a function
 * of this module probed the same way, is called to see whether probes
 * fire at all; the probes' own state and missed calls come from
 * cpumgr_probes.c.  GET_STATE and sysfs ask when read; the watch
 * (cpumgr_armed_watch.c) asks every armed_check_ms and reports a change.
 *
 * A disarm shorter than armed_check_ms would go unseen, so the module
 * holds ftrace on while loaded: an ftrace_ops marked permanent, as
 * livepatch marks its own, makes the kernel refuse
 * kernel.ftrace_enabled=0 (EBUSY; 7.3 refuses it anyway) and refuse the
 * load while ftrace is off.  kprobes/enabled=0 has no such lock, but
 * the writer of that file is probed (its probe fires before it disarms
 * every kprobe): a write of 0 is counted, and the watch's next check
 * reports a disarm, however short, and then the guarantee armed again,
 * so that what slipped in meanwhile is audited.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "cpumgr_armed.h"
#include "cpumgr_probes.h"

static atomic_t cpumgr_canary_hits;

/* Probed like the hooks; calling it tells whether probes fire. */
static noinline void cpumgr_canary(void)
{
	barrier();
}

static int cpumgr_canary_pre(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&cpumgr_canary_hits);
	return 0;
}

static struct kprobe cpumgr_canary_probe = {
	.addr = (kprobe_opcode_t *)cpumgr_canary,
	.pre_handler = cpumgr_canary_pre,
};

/* The permanent ops does nothing; it is there to be registered. */
static void notrace cpumgr_pin_call(unsigned long ip, unsigned long parent_ip,
				    struct ftrace_ops *op,
				    struct ftrace_regs *fregs)
{
}

static struct ftrace_ops cpumgr_pin_ops = {
	.func = cpumgr_pin_call,
	.flags = FTRACE_OPS_FL_PERMANENT,
};

static int cpumgr_pin_ftrace(void)
{
	int err;

	err = ftrace_set_filter_ip(&cpumgr_pin_ops, (unsigned long)cpumgr_canary,
				   0, 0);
	if (err) {
		pr_err("cannot trace its own canary (%d)\n", err);
		return err;
	}
	err = register_ftrace_function(&cpumgr_pin_ops);
	if (err) {
		if (err == -EBUSY)
			pr_err("kernel.ftrace_enabled is 0: the probes would not fire\n");
		else
			pr_err("cannot hold ftrace on (%d)\n", err);
		ftrace_free_filter(&cpumgr_pin_ops);
	}
	return err;
}

static void cpumgr_unpin_ftrace(void)
{
	unregister_ftrace_function(&cpumgr_pin_ops);
	ftrace_free_filter(&cpumgr_pin_ops);
}

static atomic_t cpumgr_disarm_writes;

/*
 * write_enabled_file_bool(file, user_buf, count, ppos), the writer of
 * /sys/kernel/debug/kprobes/enabled: a false value disarms every kprobe.
 */
static int cpumgr_enabled_pre(struct kprobe *kp, struct pt_regs *regs)
{
	const char __user *buf =
		(const char __user *)regs_get_kernel_argument(regs, 1);
	size_t count = regs_get_kernel_argument(regs, 2);
	char val[4] = "";
	bool on;

	/* What cannot be read here, the writer cannot read either. */
	if (copy_from_user_nofault(val, buf, min(count, sizeof(val) - 1)))
		return 0;
	if (!kstrtobool(val, &on) && !on)
		atomic_inc(&cpumgr_disarm_writes);
	return 0;
}

static struct kprobe cpumgr_enabled_probe = {
	.symbol_name = "write_enabled_file_bool",
	.pre_handler = cpumgr_enabled_pre,
};

/* The canary's calls, one at a time. */
static struct mutex cpumgr_canary_lock;

/**
 * cpumgr_armed - whether every probe is in place and fires
 * @why: where a reason goes when not (a string literal), or NULL
 *
 * May sleep.  Return: true when armed.
 */
bool cpumgr_armed(const char **why)
{
	const char *reason = NULL;
	int hits;

	mutex_lock(&cpumgr_canary_lock);
	hits = atomic_read(&cpumgr_canary_hits);
	cpumgr_canary();
	if (atomic_read(&cpumgr_canary_hits) == hits)
		reason = "kprobes do not fire (kprobes/enabled=0)";
	else if (cpumgr_probes_disabled())
		reason = "a probe of cpumgr is disabled";
	mutex_unlock(&cpumgr_canary_lock);
	if (why)
		*why = reason;
	return !reason;
}

/* The writes of kprobes/enabled=0 since load. */
int cpumgr_armed_disarms(void)
{
	return atomic_read(&cpumgr_disarm_writes);
}

int cpumgr_armed_init(void)
{
	int err;

	mutex_init(&cpumgr_canary_lock);
	err = cpumgr_pin_ftrace();
	if (err)
		return err;
	err = register_kprobe(&cpumgr_canary_probe);
	if (err) {
		pr_err("cannot probe its own canary (%d)\n", err);
		cpumgr_unpin_ftrace();
		return err;
	}
	/* Without debugfs there is no such file, and nothing to watch. */
	if (register_kprobe(&cpumgr_enabled_probe)) {
		pr_warn("cannot probe kprobes/enabled's writer: a disarm shorter than armed_check_ms through it would go unseen\n");
		cpumgr_enabled_probe.addr = NULL;
	}
	return 0;
}

void cpumgr_armed_exit(void)
{
	if (cpumgr_enabled_probe.addr)
		unregister_kprobe(&cpumgr_enabled_probe);
	unregister_kprobe(&cpumgr_canary_probe);
	cpumgr_unpin_ftrace();
}
