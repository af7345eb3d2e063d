/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_armed.c: whether the probes are in place and fire. */
#ifndef _CPUMGR_ARMED_H
#define _CPUMGR_ARMED_H

#include <linux/types.h>

int cpumgr_armed_init(void);
void cpumgr_armed_exit(void);
bool cpumgr_armed(const char **why);
int cpumgr_armed_disarms(void);

#endif /* _CPUMGR_ARMED_H */
