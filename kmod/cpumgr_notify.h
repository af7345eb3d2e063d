/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr_notify.c: notifications of the table's changes and of the
 * guarantee armed or not.  The table's are sent under the table lock, so
 * they come in order, and after the violations and refused offlines
 * queued before them.
 */
#ifndef _CPUMGR_NOTIFY_H
#define _CPUMGR_NOTIFY_H

#include <linux/cpumask.h>
#include <linux/types.h>

struct cpumgr_bind;
struct cpumgr_container;

void cpumgr_notify_assigned(const struct cpumgr_container *c, u64 generation);
void cpumgr_notify_released(const char *pod_uid, const char *container,
			    const struct cpumask *freed, u64 generation);
void cpumgr_notify_bound(const struct cpumgr_bind *bind, u64 generation);
void cpumgr_notify_configured(void);
void cpumgr_notify_restored(unsigned int nr_pods, unsigned int nr_containers,
			    u64 generation);
void cpumgr_notify_reset(u64 generation);
void cpumgr_notify_cpu(u8 cmd, unsigned int cpu, u64 generation);
void cpumgr_notify_degraded(const struct cpumgr_container *c,
			    unsigned int cpu, u64 generation);
/* The guarantee was armed or disarmed, or probes missed calls. */
void cpumgr_notify_armed(bool armed, const char *why, u64 missed);

#endif /* _CPUMGR_NOTIFY_H */
