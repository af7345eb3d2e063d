/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr_through.c: the calls this module makes of a function whose
 * probe redirects it, which that probe lets through.
 */
#ifndef _CPUMGR_THROUGH_H
#define _CPUMGR_THROUGH_H

#include <linux/types.h>

int cpumgr_through_begin(const void *arg);
void cpumgr_through_end(void);
bool cpumgr_through(const void *arg);

#endif
