// SPDX-License-Identifier: GPL-2.0
/*
 * The "cpumgr" generic netlink family: its operations (the commands'
 * table, cpumgr_netlink.c), its multicast group, its registration.
 * What sends on it gets it from cpumgr_genl.c, which it is handed to
 * before it is registered.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "cpumgr_genl.h"
#include "cpumgr_nl.h"

/*
 * Events name other tenants' pids, comms and cgroups: like changes, they
 * are for CAP_SYS_ADMIN in the initial user namespace.  (The 6.12
 * generator does not render a group's flags: this table stays here.)
 */
static const struct genl_multicast_group cpumgr_mcgrps[] = {
	[CPUMGR_NLGRP_EVENTS] = {
		.name = CPUMGR_GENL_MCGRP_EVENTS,
		.flags = GENL_MCAST_CAP_SYS_ADMIN,
	},
};

static struct genl_family cpumgr_family __ro_after_init = {
	.name = CPUMGR_GENL_NAME,
	.version = CPUMGR_GENL_VERSION,
	.maxattr = CPUMGR_A_MAX,
	/* Every command validates strictly; none has legacy users. */
	.resv_start_op = CPUMGR_CMD_GET_TOPOLOGY,
	/* The table has its own lock; dumps do not need genl_mutex. */
	.parallel_ops = true,
	.netnsok = false,
	.module = THIS_MODULE,
#if CPUMGR_NL_SPLIT_OPS
	.split_ops = cpumgr_nl_ops,
	.n_split_ops = ARRAY_SIZE(cpumgr_nl_ops),
#else
	.ops = cpumgr_nl_ops_v61,
	.n_ops = ARRAY_SIZE(cpumgr_nl_ops_v61),
	.pre_doit = cpumgr_nl_pre_doit_v61,
	.post_doit = cpumgr_nl_post_doit_v61,
#endif
	.mcgrps = cpumgr_mcgrps,
	.n_mcgrps = ARRAY_SIZE(cpumgr_mcgrps),
};

int cpumgr_netlink_init(void)
{
	cpumgr_genl_set_family(&cpumgr_family);
	return genl_register_family(&cpumgr_family);
}

void cpumgr_netlink_exit(void)
{
	genl_unregister_family(&cpumgr_family);
}

/*
 * No MODULE_ALIAS_GENL_FAMILY: a family lookup by any user would load the
 * module and arm its probes.  The node's admin loads it.
 */
