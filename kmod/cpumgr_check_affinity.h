/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_check_affinity.c: the CPUs of threads the kernel makes for a task. */
#ifndef _CPUMGR_CHECK_AFFINITY_H
#define _CPUMGR_CHECK_AFFINITY_H

#include <linux/cpumask.h>
#include <linux/sched.h>

bool cpumgr_check_affinity(struct task_struct *p, const struct cpumask *mask);
int cpumgr_check_affinity_set(struct task_struct *p,
			      const struct cpumask *mask);

#endif /* _CPUMGR_CHECK_AFFINITY_H */
