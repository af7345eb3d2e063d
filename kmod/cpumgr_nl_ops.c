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

/* The generated do op of a command, which names its pre and post. */
static const struct cpumgr_nl_split_ops_v61 *cpumgr_nl_do_op(u8 cmd)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpumgr_nl_ops); i++)
		if (cpumgr_nl_ops[i].cmd == cmd && cpumgr_nl_ops[i].doit)
			return &cpumgr_nl_ops[i];
	return NULL;
}

int cpumgr_nl_pre_doit_v61(const struct genl_ops *ops, struct sk_buff *skb,
			   struct genl_info *info)
{
	const struct cpumgr_nl_split_ops_v61 *op = cpumgr_nl_do_op(ops->cmd);

	return op && op->pre_doit ? op->pre_doit(op, skb, info) : 0;
}

void cpumgr_nl_post_doit_v61(const struct genl_ops *ops, struct sk_buff *skb,
			     struct genl_info *info)
{
	const struct cpumgr_nl_split_ops_v61 *op = cpumgr_nl_do_op(ops->cmd);

	if (op && op->post_doit)
		op->post_doit(op, skb, info);
}
#endif
