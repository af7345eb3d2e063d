// SPDX-License-Identifier: GPL-2.0
/*
 * The watch over the guarantee: a work item asks every armed_check_ms
 * whether it is armed (cpumgr_armed.c) and how many calls the probes
 * missed, and reports a change: kernel log at error level,
 * CPUMGR_CMD_ARMED_NTF.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/workqueue.h>

#include "cpumgr_armed.h"
#include "cpumgr_armed_watch.h"
#include "cpumgr_notify.h"
#include "cpumgr_probes.h"

static unsigned int cpumgr_armed_check_ms = 10000;
module_param_named(armed_check_ms, cpumgr_armed_check_ms, uint, 0644);
MODULE_PARM_DESC(armed_check_ms,
		 "how often to check that the probes fire, in ms (0: only when asked)");

/* What the last check saw and reported. */
static struct {
	struct delayed_work work;
	bool armed;
	u64 missed;
	int disarms;			/* kprobes/enabled=0 writes seen */
} cpumgr_armed_state;

static void cpumgr_armed_schedule(void)
{
	unsigned int ms = READ_ONCE(cpumgr_armed_check_ms);

	/* with checks off, look again now and then for them to come on */
	schedule_delayed_work(&cpumgr_armed_state.work,
			      msecs_to_jiffies(ms ?: 10000));
}

static void cpumgr_armed_work(struct work_struct *work)
{
	int disarms = cpumgr_armed_disarms();
	u64 missed = cpumgr_probes_missed();
	const char *why;
	bool armed;

	if (!READ_ONCE(cpumgr_armed_check_ms))
		goto out;
	armed = cpumgr_armed(&why);
	if (armed == cpumgr_armed_state.armed &&
	    missed == cpumgr_armed_state.missed &&
	    disarms == cpumgr_armed_state.disarms)
		goto out;
	/* off and on again between two checks: both are reported */
	if (disarms != cpumgr_armed_state.disarms && armed &&
	    cpumgr_armed_state.armed) {
		pr_err("the guarantee was not armed for a while since the last check: kprobes/enabled=0 was written\n");
		cpumgr_notify_armed(false,
				    "kprobes did not fire for a while (kprobes/enabled=0)",
				    missed);
		cpumgr_armed_state.armed = false;
	}
	cpumgr_armed_state.disarms = disarms;
	if (!armed && cpumgr_armed_state.armed)
		pr_err("the guarantee is not armed: %s\n", why);
	else if (armed && !cpumgr_armed_state.armed)
		pr_info("the guarantee is armed again\n");
	if (missed != cpumgr_armed_state.missed)
		pr_err("the probes missed %llu calls since load: those went unchecked\n",
		       missed);
	cpumgr_armed_state.armed = armed;
	cpumgr_armed_state.missed = missed;
	cpumgr_notify_armed(armed, why, missed);
out:
	cpumgr_armed_schedule();
}

void cpumgr_armed_watch_init(void)
{
	INIT_DELAYED_WORK(&cpumgr_armed_state.work, cpumgr_armed_work);
	cpumgr_armed_state.armed = true;
	cpumgr_armed_schedule();
}

void cpumgr_armed_watch_exit(void)
{
	cancel_delayed_work_sync(&cpumgr_armed_state.work);
}
