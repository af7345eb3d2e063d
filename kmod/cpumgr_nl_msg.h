/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_nl_msg.c: an assignment's and the state's messages. */
#ifndef _CPUMGR_NL_MSG_H
#define _CPUMGR_NL_MSG_H

#include <net/genetlink.h>

struct cpumgr_container;

/* An assignment's attributes; the caller holds the table lock. */
int cpumgr_fill_assignment(struct sk_buff *skb,
			   const struct cpumgr_container *c, u64 generation);
/*
 * An assignment as a message of its own: a reply to @info, or a
 * notification (@info NULL); NULL when it cannot be built.
 */
struct sk_buff *cpumgr_assignment_msg(const struct cpumgr_container *c,
				      u64 generation, u8 cmd,
				      struct genl_info *info);
/* The state (GET_STATE), a reply to @info or a notification; or NULL. */
struct sk_buff *cpumgr_state_msg(struct genl_info *info, u8 cmd,
				 bool restricted);
/* Whether the guarantee is armed, why not, the calls the probes missed. */
size_t cpumgr_armed_size(const char *why);
int cpumgr_put_armed(struct sk_buff *skb, bool armed, const char *why,
		     u64 missed);

#endif /* _CPUMGR_NL_MSG_H */
