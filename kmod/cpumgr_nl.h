/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The declarations ynl-gen-c.py generated from the YNL spec
 * (cpumgr_nl_gen.h: handlers, nested policy, split ops), on every kernel.
 * 6.1 has no split ops (6.2+): there the generated table is compiled as a
 * table of struct cpumgr_nl_split_ops_v61 that nobody registers, and
 * cpumgr_nl_ops_v61 (cpumgr_netlink.c), written by hand around the
 * generated policies, is registered instead; the family's pre_doit and
 * post_doit find each command's in the generated table.
 */
#ifndef _CPUMGR_NL_H
#define _CPUMGR_NL_H

#include <linux/version.h>
#include <net/genetlink.h>

#if KERNEL_VERSION(6, 2, 0) > LINUX_VERSION_CODE
#define CPUMGR_NL_SPLIT_OPS 0
/* What the generated table sets; 6.1's genl_ops has no per-op pre_doit. */
struct cpumgr_nl_split_ops_v61 {
	int (*pre_doit)(const struct cpumgr_nl_split_ops_v61 *ops,
			struct sk_buff *skb, struct genl_info *info);
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	void (*post_doit)(const struct cpumgr_nl_split_ops_v61 *ops,
			  struct sk_buff *skb, struct genl_info *info);
	int (*dumpit)(struct sk_buff *skb, struct netlink_callback *cb);
	const struct nla_policy *policy;
	unsigned int maxattr;
	u8 cmd;
	u8 flags;
};

#define genl_split_ops cpumgr_nl_split_ops_v61
#else
#define CPUMGR_NL_SPLIT_OPS 1
#endif

#include "cpumgr_nl_gen.h"

/* The table the family registers. */
#if CPUMGR_NL_SPLIT_OPS
#define CPUMGR_NL_OPS cpumgr_nl_ops
#else
extern const struct genl_ops cpumgr_nl_ops_v61[9];
#define CPUMGR_NL_OPS cpumgr_nl_ops_v61
int cpumgr_nl_pre_doit_v61(const struct genl_ops *ops, struct sk_buff *skb,
			   struct genl_info *info);
void cpumgr_nl_post_doit_v61(const struct genl_ops *ops, struct sk_buff *skb,
			     struct genl_info *info);
#endif

/* cpumgr_nl_family.c: the family, registered at load, gone at unload. */
int cpumgr_netlink_init(void);
void cpumgr_netlink_exit(void);

#endif /* _CPUMGR_NL_H */
