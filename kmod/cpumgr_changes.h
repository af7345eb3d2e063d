/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_changes.c: CONFIGURE, ASSIGN, RELEASE, BIND and RESET. */
#ifndef _CPUMGR_CHANGES_H
#define _CPUMGR_CHANGES_H

#include <linux/netlink.h>
#include <linux/types.h>

struct cpumgr_bind;
struct cpumgr_config;
struct cpumgr_entry;
struct cpumgr_expect;

/* Each returns 0 and the table's new generation, or why not (@extack). */
int cpumgr_table_configure(struct cpumgr_config *cfg,
			   const struct cpumgr_expect *expect,
			   struct netlink_ext_ack *extack, u64 *generation);
int cpumgr_table_assign(struct cpumgr_entry *entry,
			const struct cpumgr_expect *expect,
			struct netlink_ext_ack *extack, u64 *generation);
int cpumgr_table_release(const char *pod_uid, const char *container,
			 const struct cpumgr_expect *expect,
			 struct netlink_ext_ack *extack, u64 *generation);
int cpumgr_table_bind(const struct cpumgr_bind *bind,
		      const struct cpumgr_expect *expect,
		      struct netlink_ext_ack *extack, u64 *generation);
int cpumgr_table_reset(const struct cpumgr_expect *expect,
		       struct netlink_ext_ack *extack, u64 *generation);

#endif /* _CPUMGR_CHANGES_H */
