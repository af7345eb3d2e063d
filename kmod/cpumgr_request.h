/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a request asks of the table, as the netlink commands parse it
 * (cpumgr_netlink.c) and the table's changes take it (cpumgr_changes.c,
 * cpumgr_restore.c).
 */
#ifndef _CPUMGR_REQUEST_H
#define _CPUMGR_REQUEST_H

#include <linux/cpumask.h>
#include <linux/netlink.h>
#include <linux/types.h>
#include <uapi/linux/cpumgr.h>

/* A request's optional expected generation. */
struct cpumgr_expect {
	bool set;
	u64 generation;
	const struct nlattr *attr;
};

struct cpumgr_config {
	bool set_policy, set_options, set_reserved;
	bool set_enforce, set_hotplug;
	enum cpumgr_policy policy;
	u32 options;
	cpumask_var_t reserved;
	enum cpumgr_enforce enforce;
	enum cpumgr_hotplug hotplug;
	const char *root_path;		/* NULL: unchanged, "": none */
	const char *system_path;	/* NULL: unchanged, "": none */
	const struct nlattr *policy_attr, *options_attr, *reserved_attr;
	const struct nlattr *root_attr, *system_attr;
};

/* One assignment of a request (ASSIGN, or an entry of RESTORE). */
struct cpumgr_entry {
	const char *pod_uid;
	const char *container;
	cpumask_var_t cpus;
	u32 flags;
	bool narrowed;	/* ASSIGN: the caller narrowed; check it did */
	const char *cgroup_path;	/* NULL: leave as is / none */
	const char *pod_cgroup_path;
	const struct nlattr *pod_attr, *container_attr, *cpus_attr;
	const struct nlattr *cgroup_attr, *pod_cgroup_attr;
};

struct cpumgr_bind {
	const char *pod_uid;
	const char *container;		/* NULL: pod binding only */
	const char *cgroup_path;	/* NULL: unchanged, "": unbind */
	const char *pod_cgroup_path;
	const struct nlattr *pod_attr, *container_attr;
	const struct nlattr *cgroup_attr, *pod_cgroup_attr;
};

#endif /* _CPUMGR_REQUEST_H */
