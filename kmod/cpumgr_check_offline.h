/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_check_offline.c: the checks of CPUs going offline. */
#ifndef _CPUMGR_CHECK_OFFLINE_H
#define _CPUMGR_CHECK_OFFLINE_H

#include <linux/types.h>

bool cpumgr_check_offline(unsigned int cpu);
bool cpumgr_check_smt_off(int ctrlval);

#endif /* _CPUMGR_CHECK_OFFLINE_H */
