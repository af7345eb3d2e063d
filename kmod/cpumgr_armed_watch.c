// SPDX-License-Identifier: GPL-2.0
/*
 * The watch over the guarantee: a work item asks every armed_check_ms
 * whether it is armed (cpumgr_armed.c) and how many calls the probes
 * missed, and reports a change: kernel log at error level,
 * CPUMGR_CMD_ARMED_NTF.
 *
 * A disarm is also seen where the kernel makes it: a probe where every
 * ftrace-based kprobe is disarmed, one at a time (cpumgr_series.c names
 * the function, per series) counts the canary's disarm, and its own,
 * whichever comes first, logs who disarmed them and runs the check at
 * once, whatever armed_check_ms (0 included), which reports a disarm
 * however short it was.  A write of 0 to kprobes/enabled disarms them
 * all there, from whatever page its buffer is on.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "cpumgr_armed.h"
#include "cpumgr_armed_watch.h"
#include "cpumgr_names.h"
#include "cpumgr_notify.h"
#include "cpumgr_probes.h"
#include "cpumgr_series.h"

static unsigned int cpumgr_armed_check_ms = 10000;
module_param_named(armed_check_ms, cpumgr_armed_check_ms, uint, 0644);
MODULE_PARM_DESC(armed_check_ms,
		 "how often to check that the probes fire, in ms (0: only when asked, and after a disarm)");

/* What the last check saw and reported. */
static struct {
	struct delayed_work work;
	bool armed;
	u64 missed;
	int disarms;			/* disarms of the canary seen */
	bool told;			/* a disarm logged since armed */
	bool stopping;			/* unload: the probes go */
} cpumgr_armed_state;

/*
 * The next check: with checks off, every 10 s to see them come on, and
 * every second while not armed, to report it armed again.
 */
static void cpumgr_armed_schedule(void)
{
	unsigned int ms = READ_ONCE(cpumgr_armed_check_ms);

	if (!ms)
		ms = cpumgr_armed_state.armed ? 10000 : 1000;
	schedule_delayed_work(&cpumgr_armed_state.work, msecs_to_jiffies(ms));
}

static void cpumgr_armed_work(struct work_struct *work)
{
	int disarms = cpumgr_armed_disarms();
	bool disarmed = disarms != cpumgr_armed_state.disarms;
	u64 missed = cpumgr_probes_missed();
	const char *why;
	bool armed;

	if (!READ_ONCE(cpumgr_armed_check_ms) && !disarmed &&
	    cpumgr_armed_state.armed)
		goto out;
	armed = cpumgr_armed(&why);
	cpumgr_armed_state.disarms = disarms;
	/*
	 * Disarmed since the last check, and the canary fires: armed again
	 * already, or the kernel, which called here while disarming, not
	 * done yet.  Reported as not armed now, and armed at the next check
	 * that finds it so.
	 */
	if (disarmed && armed) {
		armed = false;
		why = "kprobes were disarmed (kprobes/enabled=0)";
	}
	if (armed == cpumgr_armed_state.armed &&
	    missed == cpumgr_armed_state.missed)
		goto out;
	if (!armed && cpumgr_armed_state.armed) {
		pr_err("the guarantee is not armed: %s\n", why);
	} else if (armed && !cpumgr_armed_state.armed) {
		pr_info("the guarantee is armed again\n");
		WRITE_ONCE(cpumgr_armed_state.told, false);
	}
	if (missed != cpumgr_armed_state.missed)
		pr_err("the probes missed %llu calls since load: those went unchecked\n",
		       missed);
	cpumgr_armed_state.armed = armed;
	cpumgr_armed_state.missed = missed;
	cpumgr_notify_armed(armed, why, missed);
out:
	cpumgr_armed_schedule();
}

static struct kprobe cpumgr_disarm_probe;

/*
 * A kprobe being disarmed (@kp, the series' site's argument): the
 * canary's, or this probe's own, which kprobes disarms in an order of its
 * own, is the guarantee's.  Runs in the disarming task, kprobes' lock
 * held, with preemption off.
 */
static int cpumgr_disarm_pre(struct kprobe *kp, struct pt_regs *regs)
{
	const struct kprobe *p = (void *)regs_get_kernel_argument(regs,
		cpumgr_series->disarm.kprobe_arg - 1);
	char comm[4 * TASK_COMM_LEN];

	if (READ_ONCE(cpumgr_armed_state.stopping) ||
	    (p->addr != cpumgr_disarm_probe.addr &&
	     !cpumgr_armed_canary_at(p->addr)))
		return 0;
	cpumgr_armed_disarmed();
	if (!xchg(&cpumgr_armed_state.told, true)) {
		cpumgr_escape(comm, sizeof(comm), current->comm);
		pr_err("kprobes are disarmed by pid %d (%s): the guarantee is not armed\n",
		       task_tgid_nr(current), comm);
	}
	mod_delayed_work(system_wq, &cpumgr_armed_state.work, 0);
	return 0;
}

static struct kprobe cpumgr_disarm_probe = {
	.pre_handler = cpumgr_disarm_pre,
};

/* The first function of the series' site the kernel has out of line. */
static void cpumgr_disarm_watch(void)
{
	const struct cpumgr_disarm_site *site = &cpumgr_series->disarm;
	unsigned int i;
	int err = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(site->symbols) && site->symbols[i]; i++) {
		memset(&cpumgr_disarm_probe, 0, sizeof(cpumgr_disarm_probe));
		cpumgr_disarm_probe.pre_handler = cpumgr_disarm_pre;
		cpumgr_disarm_probe.symbol_name = site->symbols[i];
		err = register_kprobe(&cpumgr_disarm_probe);
		if (!err)
			return;
	}
	cpumgr_disarm_probe.addr = NULL;
	pr_warn("cannot probe where kprobes are disarmed (%d): a disarm shorter than armed_check_ms would go unseen\n",
		err);
}

void cpumgr_armed_watch_init(void)
{
	INIT_DELAYED_WORK(&cpumgr_armed_state.work, cpumgr_armed_work);
	cpumgr_armed_state.armed = true;
	cpumgr_armed_state.disarms = cpumgr_armed_disarms();
	cpumgr_disarm_watch();
	cpumgr_armed_schedule();
}

void cpumgr_armed_watch_exit(void)
{
	WRITE_ONCE(cpumgr_armed_state.stopping, true);
	if (cpumgr_disarm_probe.addr)
		unregister_kprobe(&cpumgr_disarm_probe);
	cancel_delayed_work_sync(&cpumgr_armed_state.work);
}
