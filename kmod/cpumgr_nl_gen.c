// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	include/uapi/linux/cpumgr.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "cpumgr_nl_gen.h"

#include <uapi/linux/cpumgr.h>

/* Common nested types */
const struct nla_policy cpumgr_assignment_nl_policy[CPUMGR_A_POD_CGROUP_PATH + 1] = {
	[CPUMGR_A_POD_UID] = { .type = NLA_NUL_STRING, .len = CPUMGR_POD_UID_MAX, },
	[CPUMGR_A_CONTAINER] = { .type = NLA_NUL_STRING, .len = CPUMGR_CONTAINER_MAX, },
	[CPUMGR_A_CPUS] = { .type = NLA_NUL_STRING, },
	[CPUMGR_A_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x7),
	[CPUMGR_A_CGROUP_PATH] = { .type = NLA_NUL_STRING, .len = CPUMGR_PATH_MAX, },
	[CPUMGR_A_POD_CGROUP_PATH] = { .type = NLA_NUL_STRING, .len = CPUMGR_PATH_MAX, },
};

/* CPUMGR_CMD_CONFIGURE - do */
static const struct nla_policy cpumgr_configure_nl_policy[CPUMGR_A_SYSTEM_CGROUP + 1] = {
	[CPUMGR_A_GENERATION] = { .type = NLA_U64, },
	[CPUMGR_A_POLICY] = NLA_POLICY_MAX(NLA_U32, 1),
	[CPUMGR_A_OPTIONS] = NLA_POLICY_MASK(NLA_U32, 0x3f),
	[CPUMGR_A_RESERVED_CPUS] = { .type = NLA_NUL_STRING, },
	[CPUMGR_A_ENFORCE] = NLA_POLICY_MAX(NLA_U32, 2),
	[CPUMGR_A_HOTPLUG] = NLA_POLICY_MAX(NLA_U32, 1),
	[CPUMGR_A_CGROUP_ROOT] = { .type = NLA_NUL_STRING, .len = CPUMGR_PATH_MAX, },
	[CPUMGR_A_SYSTEM_CGROUP] = { .type = NLA_NUL_STRING, .len = CPUMGR_PATH_MAX, },
};

/* CPUMGR_CMD_ASSIGN - do */
static const struct nla_policy cpumgr_assign_nl_policy[CPUMGR_A_POD_CPUS + 1] = {
	[CPUMGR_A_GENERATION] = { .type = NLA_U64, },
	[CPUMGR_A_POD_UID] = { .type = NLA_NUL_STRING, .len = CPUMGR_POD_UID_MAX, },
	[CPUMGR_A_CONTAINER] = { .type = NLA_NUL_STRING, .len = CPUMGR_CONTAINER_MAX, },
	[CPUMGR_A_CPUS] = { .type = NLA_NUL_STRING, },
	[CPUMGR_A_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x7),
	[CPUMGR_A_NARROWED] = { .type = NLA_FLAG, },
	[CPUMGR_A_POD_CPUS] = { .type = NLA_NUL_STRING, },
};

/* CPUMGR_CMD_RELEASE - do */
static const struct nla_policy cpumgr_release_nl_policy[CPUMGR_A_CONTAINER + 1] = {
	[CPUMGR_A_GENERATION] = { .type = NLA_U64, },
	[CPUMGR_A_POD_UID] = { .type = NLA_NUL_STRING, .len = CPUMGR_POD_UID_MAX, },
	[CPUMGR_A_CONTAINER] = { .type = NLA_NUL_STRING, .len = CPUMGR_CONTAINER_MAX, },
};

/* CPUMGR_CMD_BIND - do */
static const struct nla_policy cpumgr_bind_nl_policy[CPUMGR_A_POD_CGROUP_PATH + 1] = {
	[CPUMGR_A_GENERATION] = { .type = NLA_U64, },
	[CPUMGR_A_POD_UID] = { .type = NLA_NUL_STRING, .len = CPUMGR_POD_UID_MAX, },
	[CPUMGR_A_CONTAINER] = { .type = NLA_NUL_STRING, .len = CPUMGR_CONTAINER_MAX, },
	[CPUMGR_A_CGROUP_PATH] = { .type = NLA_NUL_STRING, .len = CPUMGR_PATH_MAX, },
	[CPUMGR_A_POD_CGROUP_PATH] = { .type = NLA_NUL_STRING, .len = CPUMGR_PATH_MAX, },
};

/* CPUMGR_CMD_GET_ASSIGNMENT - do */
static const struct nla_policy cpumgr_get_assignment_nl_policy[CPUMGR_A_CONTAINER + 1] = {
	[CPUMGR_A_POD_UID] = { .type = NLA_NUL_STRING, .len = CPUMGR_POD_UID_MAX, },
	[CPUMGR_A_CONTAINER] = { .type = NLA_NUL_STRING, .len = CPUMGR_CONTAINER_MAX, },
};

/* CPUMGR_CMD_RESTORE - do */
static const struct nla_policy cpumgr_restore_nl_policy[CPUMGR_A_ASSIGNMENT + 1] = {
	[CPUMGR_A_GENERATION] = { .type = NLA_U64, },
	[CPUMGR_A_ASSIGNMENT] = NLA_POLICY_NESTED(cpumgr_assignment_nl_policy),
};

/* CPUMGR_CMD_RESET - do */
static const struct nla_policy cpumgr_reset_nl_policy[CPUMGR_A_GENERATION + 1] = {
	[CPUMGR_A_GENERATION] = { .type = NLA_U64, },
};

/* Ops table for cpumgr */
const struct genl_split_ops cpumgr_nl_ops[10] = {
	{
		.cmd	= CPUMGR_CMD_GET_TOPOLOGY,
		.dumpit	= cpumgr_nl_get_topology_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= CPUMGR_CMD_GET_STATE,
		.doit	= cpumgr_nl_get_state_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= CPUMGR_CMD_CONFIGURE,
		.pre_doit	= cpumgr_nl_pre_change,
		.doit		= cpumgr_nl_configure_doit,
		.post_doit	= cpumgr_nl_post_doit,
		.policy		= cpumgr_configure_nl_policy,
		.maxattr	= CPUMGR_A_SYSTEM_CGROUP,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= CPUMGR_CMD_ASSIGN,
		.pre_doit	= cpumgr_nl_pre_change,
		.doit		= cpumgr_nl_assign_doit,
		.post_doit	= cpumgr_nl_post_doit,
		.policy		= cpumgr_assign_nl_policy,
		.maxattr	= CPUMGR_A_POD_CPUS,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= CPUMGR_CMD_RELEASE,
		.pre_doit	= cpumgr_nl_pre_change,
		.doit		= cpumgr_nl_release_doit,
		.post_doit	= cpumgr_nl_post_doit,
		.policy		= cpumgr_release_nl_policy,
		.maxattr	= CPUMGR_A_CONTAINER,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= CPUMGR_CMD_BIND,
		.pre_doit	= cpumgr_nl_pre_change,
		.doit		= cpumgr_nl_bind_doit,
		.post_doit	= cpumgr_nl_post_doit,
		.policy		= cpumgr_bind_nl_policy,
		.maxattr	= CPUMGR_A_POD_CGROUP_PATH,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= CPUMGR_CMD_GET_ASSIGNMENT,
		.pre_doit	= cpumgr_nl_pre_admin_read,
		.doit		= cpumgr_nl_get_assignment_doit,
		.post_doit	= cpumgr_nl_post_doit,
		.policy		= cpumgr_get_assignment_nl_policy,
		.maxattr	= CPUMGR_A_CONTAINER,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= CPUMGR_CMD_GET_ASSIGNMENT,
		.dumpit	= cpumgr_nl_get_assignment_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= CPUMGR_CMD_RESTORE,
		.pre_doit	= cpumgr_nl_pre_change,
		.doit		= cpumgr_nl_restore_doit,
		.post_doit	= cpumgr_nl_post_doit,
		.policy		= cpumgr_restore_nl_policy,
		.maxattr	= CPUMGR_A_ASSIGNMENT,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= CPUMGR_CMD_RESET,
		.pre_doit	= cpumgr_nl_pre_change,
		.doit		= cpumgr_nl_reset_doit,
		.post_doit	= cpumgr_nl_post_doit,
		.policy		= cpumgr_reset_nl_policy,
		.maxattr	= CPUMGR_A_GENERATION,
		.flags		= GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group cpumgr_nl_mcgrps[] = {
	[CPUMGR_NLGRP_EVENTS] = { "events", },
};
