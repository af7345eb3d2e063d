// SPDX-License-Identifier: GPL-2.0
/*
 * The family's policies and split ops, as ynl-gen-c.py generated them
 * from include/uapi/linux/cpumgr.yaml (scripts/ynl-gen.sh), and on 6.1,
 * which has no split ops, the same operations as one op per command: a
 * table written by hand around the generated policies (a command's do
 * and dump share one op and its policy there).
 */
#include "cpumgr_nl.h"

#include "cpumgr_nl_gen.c"

#if !CPUMGR_NL_SPLIT_OPS
/* A command with a request: its generated handler and policy. */
#define CPUMGR_NL_DO(name, command) {					\
	.cmd = CPUMGR_CMD_##command,					\
	.doit = cpumgr_nl_##name##_doit,				\
	.policy = cpumgr_##name##_nl_policy,				\
	.maxattr = ARRAY_SIZE(cpumgr_##name##_nl_policy) - 1,		\
}

const struct genl_ops cpumgr_nl_ops_v61[9] = {
	{
		.cmd = CPUMGR_CMD_GET_TOPOLOGY,
		.dumpit = cpumgr_nl_get_topology_dumpit,
	},
	{
		.cmd = CPUMGR_CMD_GET_STATE,
		.doit = cpumgr_nl_get_state_doit,
	},
	CPUMGR_NL_DO(configure, CONFIGURE),
	CPUMGR_NL_DO(assign, ASSIGN),
	CPUMGR_NL_DO(release, RELEASE),
	CPUMGR_NL_DO(bind, BIND),
	{
		.cmd = CPUMGR_CMD_GET_ASSIGNMENT,
		.doit = cpumgr_nl_get_assignment_doit,
		.dumpit = cpumgr_nl_get_assignment_dumpit,
		.policy = cpumgr_get_assignment_nl_policy,
		.maxattr = ARRAY_SIZE(cpumgr_get_assignment_nl_policy) - 1,
	},
	CPUMGR_NL_DO(restore, RESTORE),
	CPUMGR_NL_DO(reset, RESET),
};
#endif
