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
 * load while ftrace is off.  kprobes/enabled=0 has no such lock: the
 * watch counts every disarm of the canary where the kernel makes it
 * (cpumgr_armed_disarmed()), and the readers of sysfs "armed" and of
 * GET_STATE are each told once of a disarm since their last read, even
 * when the probes fire again by then.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>

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

/* The disarms of the canary since load, and those each reader was told of. */
static atomic_t cpumgr_disarms;
static atomic_t cpumgr_disarms_read[CPUMGR_ARMED_READERS];

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

/**
 * cpumgr_armed_read - whether the guarantee is armed, for one reader
 * @reader: sysfs "armed" or GET_STATE
 * @why: where a reason goes when not (a string literal)
 *
 * As cpumgr_armed(), and false also when the probes were disarmed since
 * @reader's last call, however short the disarm: each disarm is told
 * once.  May sleep.
 */
bool cpumgr_armed_read(enum cpumgr_armed_reader reader, const char **why)
{
	int disarms = atomic_read(&cpumgr_disarms);
	bool armed = cpumgr_armed(why);

	if (atomic_xchg(&cpumgr_disarms_read[reader], disarms) == disarms ||
	    !armed)
		return armed;
	*why = "kprobes were disarmed since the last read (kprobes/enabled=0)";
	return false;
}

/*
 * Whether a kprobe at @addr is the canary's (where kprobes placed it,
 * after an endbr64): the canary disarmed is every probe disarmed.
 */
bool cpumgr_armed_canary_at(const void *addr)
{
	return addr == cpumgr_canary_probe.addr;
}

/* The canary's probe was disarmed, or is about to be (the watch's). */
void cpumgr_armed_disarmed(void)
{
	atomic_inc(&cpumgr_disarms);
}

/* The disarms since load. */
int cpumgr_armed_disarms(void)
{
	return atomic_read(&cpumgr_disarms);
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
	return 0;
}

void cpumgr_armed_exit(void)
{
	unregister_kprobe(&cpumgr_canary_probe);
	cpumgr_unpin_ftrace();
}
