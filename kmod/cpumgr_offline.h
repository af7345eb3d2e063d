/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_offline.c: an offline in flight against a writer's CPUs. */
#ifndef _CPUMGR_OFFLINE_H
#define _CPUMGR_OFFLINE_H

#include <linux/cpumask.h>
#include <linux/types.h>

bool cpumgr_offline_begin(unsigned int cpu);
void cpumgr_offline_end(void);
unsigned int cpumgr_offline_claim(const struct cpumask *cpus);
void cpumgr_offline_unclaim(void);

#endif /* _CPUMGR_OFFLINE_H */
