/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_armed.c: whether the probes are in place and fire. */
#ifndef _CPUMGR_ARMED_H
#define _CPUMGR_ARMED_H

#include <linux/types.h>

/* Who reads whether the guarantee is armed, each told of a disarm once. */
enum cpumgr_armed_reader {
	CPUMGR_ARMED_SYSFS,
	CPUMGR_ARMED_GET_STATE,
	CPUMGR_ARMED_READERS,
};

int cpumgr_armed_init(void);
void cpumgr_armed_exit(void);
bool cpumgr_armed(const char **why);
bool cpumgr_armed_read(enum cpumgr_armed_reader reader, const char **why);
bool cpumgr_armed_canary_at(const void *addr);
void cpumgr_armed_disarmed(void);
int cpumgr_armed_disarms(void);

#endif /* _CPUMGR_ARMED_H */
