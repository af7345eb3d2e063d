/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_cpulist.c: CPU lists as they travel over netlink. */
#ifndef _CPUMGR_CPULIST_H
#define _CPUMGR_CPULIST_H

#include <linux/cpumask.h>
#include <linux/netlink.h>
#include <linux/types.h>

int cpumgr_cpulist_parse(const char *list, struct cpumask *mask,
			 const struct nlattr *attr,
			 struct netlink_ext_ack *extack);
char *cpumgr_cpulist_format(const struct cpumask *mask, gfp_t gfp);

#endif /* _CPUMGR_CPULIST_H */
