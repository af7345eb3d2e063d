// SPDX-License-Identifier: GPL-2.0
/*
 * What the checks found, reported: a violation is counted, logged (one
 * line, rate-limited per user) and queued as an event; a refused offline
 * is counted and queued.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/hash.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>

#include "cpumgr_events.h"
#include "cpumgr_names.h"
#include "cpumgr_report.h"
#include "cpumgr_rules.h"
#include "cpumgr_series.h"
#include "cpumgr_view.h"

/* What was tried, for the kernel log line of a violation. */
static const char *const cpumgr_violation_what[] = {
	[CPUMGR_VIOLATION_WRITE] = "write of",
	[CPUMGR_VIOLATION_INHERIT] = "change that tasks would inherit through",
	[CPUMGR_VIOLATION_PARTITION] = "write of",
	[CPUMGR_VIOLATION_ATTACH] = "task move through",
	[CPUMGR_VIOLATION_FORK] = "task start through",
};

/* A refusal is a warning, an audited violation a notice. */
static __printf(2, 3) void cpumgr_log(bool refused, const char *fmt, ...)
{
	struct va_format vaf = { .fmt = fmt };
	va_list args;

	va_start(args, fmt);
	vaf.va = &args;
	if (refused)
		pr_warn("refused %pV\n", &vaf);
	else
		pr_notice("audited %pV\n", &vaf);
	va_end(args);
}

/*
 * The log's rate limit is a tenant's: a delegated subtree writing assigned
 * CPUs in a loop uses up its own lines, not root's.  Root (uid 0 of the
 * initial user namespace) has a limit of its own, every other user one of
 * 16 by a hash of its uid (two users may share one).
 */
#define CPUMGR_LOG_USER_BITS 4

static struct ratelimit_state cpumgr_log_limits[1 + (1 << CPUMGR_LOG_USER_BITS)] = {
	[0 ... (1 << CPUMGR_LOG_USER_BITS)] =
		RATELIMIT_STATE_INIT(cpumgr_log_limits, DEFAULT_RATELIMIT_INTERVAL,
				     DEFAULT_RATELIMIT_BURST),
};

static struct ratelimit_state *cpumgr_log_limit(void)
{
	kuid_t uid = current_euid();

	if (uid_eq(uid, GLOBAL_ROOT_UID))
		return &cpumgr_log_limits[0];
	return &cpumgr_log_limits[1 + hash_32(__kuid_val(uid),
					      CPUMGR_LOG_USER_BITS)];
}

/*
 * One line per violation, rate-limited per user: a runtime that gets
 * EBUSY says nothing about CPUs, and the operator's next stop is dmesg.
 * The cgroup by its path, or by id where its path could not be taken
 * (@unnamed, cpumgr_path_now()).
 */
static void cpumgr_log_violation(const struct cpumgr_view *view,
				 enum cpumgr_violation kind, bool refused,
				 struct cgroup *unnamed, const char *file,
				 const struct cpumask *bad,
				 struct cpumgr_scratch *s)
{
	struct cpumgr_log_buf *b = cpumgr_scratch_log(s);
	char whose[CPUMGR_POD_UID_MAX + CPUMGR_CONTAINER_MAX + 32];
	char comm[4 * TASK_COMM_LEN];

	if (!__ratelimit(cpumgr_log_limit()))
		return;
	/* escaped as sysfs and the events escape them */
	if (unnamed)
		snprintf(b->escaped, sizeof(b->escaped), "id %llu",
			 cgroup_id(unnamed));
	else
		cpumgr_escape(b->escaped, sizeof(b->escaped),
			      b->path[0] ? b->path : "?");
	cpumgr_escape(comm, sizeof(comm), current->comm);
	cpumgr_rules_whose(view, s, whose, sizeof(whose));
	cpumgr_log(refused, "%s %s in cgroup %s by pid %d (%s): CPUs %*pbl are %s",
		   cpumgr_violation_what[kind], file, b->escaped,
		   task_tgid_nr(current), comm, cpumask_pr_args(bad), whose);
}

/*
 * Whether a cgroup's path may be taken here.  Where kernfs takes a
 * sleeping lock for it (PREEMPT_RT before 7.x), a probe handler, which
 * runs with preemption off, may not: its log line names the cgroup by
 * id (the cgroup2 directory's inode number), and its event gets the
 * path from the events' worker.
 */
static bool cpumgr_path_now(void)
{
	return !IS_ENABLED(CONFIG_PREEMPT_RT) ||
	       !cpumgr_series->path_takes_lock || preemptible();
}

/*
 * A violation: count, log and report it (@event: as a violation event).
 * The cgroup's path is taken once, before the event ring's lock.
 */
void cpumgr_report(const struct cpumgr_view *view,
		   enum cpumgr_violation kind, bool refuse, bool event,
		   struct cgroup *cgrp, const char *file,
		   const struct cpumask *bad, struct cpumgr_scratch *s)
{
	struct cpumgr_log_buf *b = cpumgr_scratch_log(s);
	bool later = !cpumgr_path_now();

	if (later || cgroup_path(cgrp, b->path, sizeof(b->path)) < 0)
		b->path[0] = '\0';
	if (event)
		atomic64_inc(&cpumgr_counters.violations);
	cpumgr_log_violation(view, kind, refuse, later ? cgrp : NULL, file,
			     bad, s);
	if (event)
		cpumgr_event_violation(view, kind, refuse, cgrp,
				       later ? NULL : b->path, file, bad);
}

/* A violation; whether to refuse the call. */
bool cpumgr_violation(const struct cpumgr_view *view,
		      enum cpumgr_violation kind, struct cgroup *cgrp,
		      const char *file, const struct cpumask *bad,
		      struct cpumgr_scratch *s)
{
	bool refuse = view->enforce == CPUMGR_ENFORCE_ENFORCE;

	cpumgr_report(view, kind, refuse, true, cgrp, file, bad, s);
	return refuse;
}

/* An offline refused: count it and report it as an event. */
void cpumgr_report_offline_refused(const struct cpumgr_view *view,
				   unsigned int cpu)
{
	atomic64_inc(&cpumgr_counters.offlines_refused);
	cpumgr_event_offline_refused(view, cpu);
}
