/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_report.c: what the checks found, counted, logged and queued. */
#ifndef _CPUMGR_REPORT_H
#define _CPUMGR_REPORT_H

#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <uapi/linux/cpumgr.h>

struct cpumgr_scratch;
struct cpumgr_view;

/* A violation: counted and queued as an event with @event, logged. */
void cpumgr_report(const struct cpumgr_view *view,
		   enum cpumgr_violation kind, bool refuse, bool event,
		   struct cgroup *cgrp, const char *file,
		   const struct cpumask *bad, struct cpumgr_scratch *s);
/* A violation, reported; whether the enforce mode refuses the call. */
bool cpumgr_violation(const struct cpumgr_view *view,
		      enum cpumgr_violation kind, struct cgroup *cgrp,
		      const char *file, const struct cpumask *bad,
		      struct cpumgr_scratch *s);
void cpumgr_report_offline_refused(const struct cpumgr_view *view,
				   unsigned int cpu);

#endif /* _CPUMGR_REPORT_H */
