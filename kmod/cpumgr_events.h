/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr_events.c: what the hooks report, counted, queued where nothing
 * may sleep and sent to the listeners in the order it happened.
 */
#ifndef _CPUMGR_EVENTS_H
#define _CPUMGR_EVENTS_H

#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <uapi/linux/cpumgr.h>

struct cpumgr_view;
struct sk_buff;

/* Counters of /sys/kernel/cpumgr and GET_STATE, since load. */
struct cpumgr_counters {
	atomic64_t violations;
	atomic64_t offlines_refused;
	atomic64_t events_dropped;
};

extern struct cpumgr_counters cpumgr_counters;

#define CPUMGR_EVENT_PATH_MAX 256

/* A cgroup's path for a log line or an event: as the kernel has it, escaped. */
struct cpumgr_log_buf {
	char path[CPUMGR_EVENT_PATH_MAX];
	char escaped[4 * CPUMGR_EVENT_PATH_MAX];
};

int cpumgr_events_init(void);
void cpumgr_events_exit(void);
/*
 * @path: @cgrp's, as cgroup_path() has it ("" when it failed), or NULL
 * for the events' worker to take it (where it may sleep)
 */
void cpumgr_event_violation(const struct cpumgr_view *view,
			    enum cpumgr_violation kind, bool refused,
			    struct cgroup *cgrp, const char *path,
			    const char *file, const struct cpumask *cpus);
void cpumgr_event_offline_refused(const struct cpumgr_view *view,
				  unsigned int cpu);
/*
 * A notification from process context (NULL: it could not be built),
 * sent after the events queued before it.
 */
void cpumgr_events_send(struct sk_buff *msg);

#endif /* _CPUMGR_EVENTS_H */
