/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_probes.c: the probes that enforce exclusivity. */
#ifndef _CPUMGR_PROBES_H
#define _CPUMGR_PROBES_H

#include <linux/types.h>

void cpumgr_refused(void);	/* a bare return, in asm */
int cpumgr_probes_init(void);
void cpumgr_probes_exit(void);
/* Calls the probes missed since load; whether one of them is disabled. */
u64 cpumgr_probes_missed(void);
bool cpumgr_probes_disabled(void);

#endif /* _CPUMGR_PROBES_H */
