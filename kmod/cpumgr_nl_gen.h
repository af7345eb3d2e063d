/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	include/uapi/linux/cpumgr.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_CPUMGR_GEN_H
#define _LINUX_CPUMGR_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/cpumgr.h>

/* Common nested types */
extern const struct nla_policy cpumgr_assignment_nl_policy[CPUMGR_A_POD_CGROUP_PATH + 1];

/* Ops table for cpumgr */
extern const struct genl_split_ops cpumgr_nl_ops[10];

int cpumgr_nl_pre_change(const struct genl_split_ops *ops, struct sk_buff *skb,
			 struct genl_info *info);
int cpumgr_nl_pre_admin_read(const struct genl_split_ops *ops,
			     struct sk_buff *skb, struct genl_info *info);
void
cpumgr_nl_post_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		    struct genl_info *info);

int cpumgr_nl_get_topology_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb);
int cpumgr_nl_get_state_doit(struct sk_buff *skb, struct genl_info *info);
int cpumgr_nl_configure_doit(struct sk_buff *skb, struct genl_info *info);
int cpumgr_nl_assign_doit(struct sk_buff *skb, struct genl_info *info);
int cpumgr_nl_release_doit(struct sk_buff *skb, struct genl_info *info);
int cpumgr_nl_bind_doit(struct sk_buff *skb, struct genl_info *info);
int cpumgr_nl_get_assignment_doit(struct sk_buff *skb, struct genl_info *info);
int cpumgr_nl_get_assignment_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb);
int cpumgr_nl_restore_doit(struct sk_buff *skb, struct genl_info *info);
int cpumgr_nl_reset_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	CPUMGR_NLGRP_EVENTS,
};

#endif /* _LINUX_CPUMGR_GEN_H */
