// SPDX-License-Identifier: GPL-2.0
/*
 * Names: what a pod UID and a container name may be (both name sysfs
 * directories, pods/<uid>/<container>, so neither may hold a "/"), and
 * the names of the policies, options and modes.
 */
#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <uapi/linux/cpumgr.h>

#include "cpumgr_names.h"

/* 1-64 printable, non-space characters, no "/", not "." or "..". */
int cpumgr_check_pod_uid(const char *uid, const struct nlattr *attr,
			 struct netlink_ext_ack *extack)
{
	size_t len = strlen(uid), i;

	if (!len || len > CPUMGR_POD_UID_MAX || !strcmp(uid, ".") ||
	    !strcmp(uid, ".."))
		goto bad;
	for (i = 0; i < len; i++) {
		if (uid[i] <= ' ' || uid[i] > '~' || uid[i] == '/')
			goto bad;
	}
	return 0;
bad:
	NL_SET_ERR_MSG_ATTR(extack, attr,
			    "pod UID must be 1-64 printable characters without '/'");
	return -EILSEQ;
}

/*
 * A DNS label (RFC 1123), as Kubernetes requires of container names:
 * 1-63 of [a-z0-9-], starting and ending with an alphanumeric.
 */
int cpumgr_check_container_name(const char *name, const struct nlattr *attr,
				struct netlink_ext_ack *extack)
{
	size_t len = strlen(name), i;

	if (!len || len > CPUMGR_CONTAINER_MAX || name[0] == '-' ||
	    name[len - 1] == '-')
		goto bad;
	for (i = 0; i < len; i++) {
		/* Not islower(): the kernel's ctype knows Latin-1. */
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '-'))
			goto bad;
	}
	return 0;
bad:
	NL_SET_ERR_MSG_ATTR(extack, attr,
			    "container name must be a DNS label (1-63 of a-z, 0-9, '-')");
	return -EILSEQ;
}

/*
 * Cgroup names are chosen by whoever may create cgroups (a delegated
 * subtree: any user): a newline in one would forge lines of a sysfs file
 * or of a listener's log.  Control characters become \xNN, wherever the
 * module shows a path or a comm: sysfs, the kernel log, netlink replies
 * and notifications.
 */
static const char cpumgr_ctrl[] =
	"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
	"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"
	"\x7f";

size_t cpumgr_escape(char *dst, size_t size, const char *src)
{
	size_t len;

	if (!size)
		return 0;
	len = string_escape_mem(src, strlen(src), dst, size - 1, ESCAPE_HEX,
				cpumgr_ctrl);
	len = min(len, size - 1);
	dst[len] = '\0';
	return len;
}

/* The length of @src escaped, without the NUL. */
size_t cpumgr_escaped_len(const char *src)
{
	return string_escape_mem(src, strlen(src), NULL, 0, ESCAPE_HEX,
				 cpumgr_ctrl);
}

const char *const cpumgr_policy_names[] = {
	[CPUMGR_POLICY_NONE] = "none",
	[CPUMGR_POLICY_STATIC] = "static",
};

/* The kubelet's names, in bit order of enum cpumgr_option. */
const char *const cpumgr_option_names[] = {
	"full-pcpus-only",
	"distribute-cpus-across-numa",
	"align-by-socket",
	"distribute-cpus-across-cores",
	"strict-cpu-reservation",
	"prefer-align-cpus-by-uncorecache",
};

static_assert(ARRAY_SIZE(cpumgr_option_names) == hweight32(CPUMGR_OPT_ALL));

/* By bit, as the spec's assignment-flag entries. */
const char *const cpumgr_assignment_flag_names[] = {
	"init",
	"degraded",
	"partition-pending",
};

static_assert(ARRAY_SIZE(cpumgr_assignment_flag_names) ==
	      ilog2(CPUMGR_ASSIGNMENT_F_PARTITION_PENDING) + 1);

const char *const cpumgr_enforce_names[] = {
	[CPUMGR_ENFORCE_OFF] = "off",
	[CPUMGR_ENFORCE_AUDIT] = "audit",
	[CPUMGR_ENFORCE_ENFORCE] = "enforce",
};

const char *const cpumgr_hotplug_names[] = {
	[CPUMGR_HOTPLUG_PROTECT] = "protect",
	[CPUMGR_HOTPLUG_RELEASE] = "release",
};

int cpumgr_enforce_parse(const char *name)
{
	return sysfs_match_string(cpumgr_enforce_names, name);
}

int cpumgr_hotplug_parse(const char *name)
{
	return sysfs_match_string(cpumgr_hotplug_names, name);
}
