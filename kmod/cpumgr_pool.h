/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_pool.c: a pod's pool (KEP-5526), set by ASSIGN with POD_CPUS. */
#ifndef _CPUMGR_POOL_H
#define _CPUMGR_POOL_H

#include <linux/cpumask.h>
#include <linux/netlink.h>
#include <linux/types.h>

struct cpumgr_expect;

/* 0 and the table's new generation, or why not (@extack). */
int cpumgr_table_assign_pool(const char *pod_uid, const struct cpumask *pool,
			     const struct nlattr *attr,
			     const struct cpumgr_expect *expect,
			     struct netlink_ext_ack *extack, u64 *generation);

#endif /* _CPUMGR_POOL_H */
