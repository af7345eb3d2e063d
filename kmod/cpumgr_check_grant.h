/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_check_grant.c: an ASSIGN's new CPUs, left by every other cpuset. */
#ifndef _CPUMGR_CHECK_GRANT_H
#define _CPUMGR_CHECK_GRANT_H

#include <linux/netlink.h>

struct cpumgr_container;
struct cpumgr_entry;
struct cpumgr_pod;

int cpumgr_check_grant(const struct cpumgr_pod *pod,
		       const struct cpumgr_container *c,
		       const struct cpumgr_entry *entry, bool all,
		       struct netlink_ext_ack *extack);

#endif /* _CPUMGR_CHECK_GRANT_H */
