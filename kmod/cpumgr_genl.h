/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr_genl.c: the "cpumgr" family as the module sends on it (replies,
 * dumps, notifications to the events group), and the attribute helpers
 * of its messages.
 */
#ifndef _CPUMGR_GENL_H
#define _CPUMGR_GENL_H

#include <linux/cpumask.h>
#include <net/genetlink.h>

/* At registration (cpumgr_nl_family.c): the family to send on. */
void cpumgr_genl_set_family(const struct genl_family *family);

/* A message's header: a notification, a reply to @info, a dump's entry. */
void *cpumgr_genl_put(struct sk_buff *msg, u8 cmd);
void *cpumgr_genl_put_reply(struct sk_buff *msg, struct genl_info *info,
			    u8 cmd);
void *cpumgr_genl_put_dump(struct sk_buff *skb, struct netlink_callback *cb,
			   u8 cmd);
/*
 * A notification of @size attribute bytes, a generation among them, and
 * its end (freed, NULL returned, when its attributes did not fit: @err).
 */
struct sk_buff *cpumgr_ntf_new(size_t size, u8 cmd, void **hdr);
struct sk_buff *cpumgr_ntf_end(struct sk_buff *msg, void *hdr, int err);

/* The events group: anyone listening, a notification, events missed. */
bool cpumgr_genl_listened(void);
void cpumgr_genl_multicast(struct sk_buff *msg);
void cpumgr_genl_lost(void);

/* Attributes: their sizes, and their values put into a message. */
int cpumgr_put_cpulist(struct sk_buff *skb, int type,
		       const struct cpumask *mask);
size_t cpumgr_cpulist_size(const struct cpumask *mask);
size_t cpumgr_str_size(const char *str);
size_t cpumgr_path_size(const char *path);
int cpumgr_put_path(struct sk_buff *skb, int type, const char *path);
int cpumgr_put_generation(struct sk_buff *skb, u64 generation);

#endif /* _CPUMGR_GENL_H */
