/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_restore.c: RESTORE, the whole table replaced at once. */
#ifndef _CPUMGR_RESTORE_H
#define _CPUMGR_RESTORE_H

#include <linux/netlink.h>
#include <linux/types.h>

struct cpumgr_entry;
struct cpumgr_expect;

int cpumgr_table_restore(struct cpumgr_entry *entries, unsigned int nr,
			 const struct cpumgr_expect *expect,
			 struct netlink_ext_ack *extack, u64 *generation);

#endif /* _CPUMGR_RESTORE_H */
