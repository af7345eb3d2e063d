/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr_names.c: what pod UIDs and container names may be, text escaped
 * for a log line or a listener, and the names of policies, options and
 * modes.
 */
#ifndef _CPUMGR_NAMES_H
#define _CPUMGR_NAMES_H

#include <linux/netlink.h>
#include <linux/types.h>

int cpumgr_check_pod_uid(const char *uid, const struct nlattr *attr,
			 struct netlink_ext_ack *extack);
int cpumgr_check_container_name(const char *name, const struct nlattr *attr,
				struct netlink_ext_ack *extack);
/*
 * @src into @dst (@size bytes, NUL included) with control characters
 * escaped; returns the length, cut to fit.
 */
size_t cpumgr_escape(char *dst, size_t size, const char *src);
size_t cpumgr_escaped_len(const char *src);
extern const char *const cpumgr_policy_names[2];
extern const char *const cpumgr_option_names[6];
extern const char *const cpumgr_assignment_flag_names[3];
extern const char *const cpumgr_enforce_names[3];
extern const char *const cpumgr_hotplug_names[2];
/* The mode named @name (a trailing newline allowed), or -EINVAL. */
int cpumgr_enforce_parse(const char *name);
int cpumgr_hotplug_parse(const char *name);

#endif /* _CPUMGR_NAMES_H */
