// SPDX-License-Identifier: GPL-2.0
/*
 * The family as the module sends on it.  The family and its operations
 * are declared where they are registered (cpumgr_nl_family.c), which hands
 * the family over here first: what sends a reply, a dump or a
 * notification needs the family alone, not the operations that lead to
 * it.  Before that nothing listens, as on a family not yet registered.
 */
#include <net/genetlink.h>

#include "cpumgr_genl.h"
#include "cpumgr_names.h"
#include "cpumgr_nl.h"

static const struct genl_family *cpumgr_genl_family;

void cpumgr_genl_set_family(const struct genl_family *family)
{
	WRITE_ONCE(cpumgr_genl_family, family);
}

void *cpumgr_genl_put(struct sk_buff *msg, u8 cmd)
{
	return genlmsg_put(msg, 0, 0, READ_ONCE(cpumgr_genl_family), 0, cmd);
}

void *cpumgr_genl_put_reply(struct sk_buff *msg, struct genl_info *info,
			    u8 cmd)
{
	return genlmsg_put_reply(msg, info, READ_ONCE(cpumgr_genl_family), 0,
				 cmd);
}

void *cpumgr_genl_put_dump(struct sk_buff *skb, struct netlink_callback *cb,
			   u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   READ_ONCE(cpumgr_genl_family), NLM_F_MULTI, cmd);
}

/* Attribute helpers */

/* A cpulist attribute formatted in place: no intermediate buffer. */
int cpumgr_put_cpulist(struct sk_buff *skb, int type,
		       const struct cpumask *mask)
{
	int len = snprintf(NULL, 0, "%*pbl", cpumask_pr_args(mask)) + 1;
	struct nlattr *attr = nla_reserve(skb, type, len);

	if (!attr)
		return -EMSGSIZE;
	snprintf(nla_data(attr), len, "%*pbl", cpumask_pr_args(mask));
	return 0;
}

size_t cpumgr_cpulist_size(const struct cpumask *mask)
{
	return nla_total_size(snprintf(NULL, 0, "%*pbl",
				       cpumask_pr_args(mask)) + 1);
}

size_t cpumgr_str_size(const char *str)
{
	return str ? nla_total_size(strlen(str) + 1) : 0;
}

/*
 * Cgroup paths leave as sysfs shows them, control characters as \xNN
 * (cpumgr_escape()): a listener's log gets no forged line.  Escaped in
 * place, into the message.
 */
size_t cpumgr_path_size(const char *path)
{
	return path ? nla_total_size(cpumgr_escaped_len(path) + 1) : 0;
}

int cpumgr_put_path(struct sk_buff *skb, int type, const char *path)
{
	size_t len = cpumgr_escaped_len(path);
	struct nlattr *attr;

	attr = nla_reserve(skb, type, len + 1);
	if (!attr)
		return -EMSGSIZE;
	cpumgr_escape(nla_data(attr), len + 1, path);
	return 0;
}

int cpumgr_put_generation(struct sk_buff *skb, u64 generation)
{
	return nla_put_u64_64bit(skb, CPUMGR_A_GENERATION, generation,
				 CPUMGR_A_PAD);
}

/* Notifications */

bool cpumgr_genl_listened(void)
{
	const struct genl_family *family = READ_ONCE(cpumgr_genl_family);

	return family && genl_has_listeners(family, &init_net,
					    CPUMGR_NLGRP_EVENTS);
}

void cpumgr_genl_multicast(struct sk_buff *msg)
{
	genlmsg_multicast(READ_ONCE(cpumgr_genl_family), msg, 0,
			  CPUMGR_NLGRP_EVENTS, GFP_KERNEL);
}

void cpumgr_genl_lost(void)
{
	const struct genl_family *family = READ_ONCE(cpumgr_genl_family);

	if (family)
		genl_set_err(family, &init_net, 0, CPUMGR_NLGRP_EVENTS,
			     -ENOBUFS);
}

struct sk_buff *cpumgr_ntf_new(size_t size, u8 cmd, void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(nla_total_size_64bit(sizeof(u64)) + size,
			  GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = cpumgr_genl_put(msg, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct sk_buff *cpumgr_ntf_end(struct sk_buff *msg, void *hdr, int err)
{
	if (err) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}
