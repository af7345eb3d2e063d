// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of the "cpumgr" generic netlink family: requests are
 * parsed and checked for form here, then handed to the table; replies
 * and dumps are built here.  The YNL spec include/uapi/linux/cpumgr.yaml
 * is the contract; the uAPI header, the policies and the split ops are
 * generated from it (scripts/ynl-gen.sh), and compiled here, with the
 * handlers they name and the parser that takes RESTORE's nested
 * entries with their policy.  6.1, which has no split ops, gets the same
 * operations as one op per command: a table written by hand around the
 * generated policies (a command's do and dump share one op and its
 * policy there).  The family is registered with them in
 * cpumgr_nl_family.c.
 */
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "cpumgr_changes.h"
#include "cpumgr_cpulist.h"
#include "cpumgr_genl.h"
#include "cpumgr_names.h"
#include "cpumgr_nl.h"
#include "cpumgr_nl_msg.h"
#include "cpumgr_pool.h"
#include "cpumgr_request.h"
#include "cpumgr_restore.h"
#include "cpumgr_table.h"
#include "cpumgr_topology.h"

/* The policies and split ops ynl-gen-c.py generated (cpumgr_nl.h) */
#include "cpumgr_nl_gen.c"

/* Request helpers */

/* Changes need CAP_SYS_ADMIN in the initial user namespace. */
static int cpumgr_check_admin(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	NL_SET_ERR_MSG(info->extack,
		       "changing the table needs CAP_SYS_ADMIN in the initial user namespace");
	return -EPERM;
}

/*
 * So do the reads that name tenants (GET_ASSIGNMENT's pod UIDs,
 * container names, cgroup paths and ids), as sysfs keeps pods/ to root.
 * (genetlink's GENL_ADMIN_PERM asks for CAP_NET_ADMIN.)
 */
static int cpumgr_check_admin_read(struct sk_buff *skb,
				   struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	NL_SET_ERR_MSG(extack,
		       "reading assignments needs CAP_SYS_ADMIN in the initial user namespace");
	return -EPERM;
}

/*
 * The policy's NLA_NUL_STRING only asks for a NUL somewhere: "ab\0/evil"
 * would pass and be read as "ab".  A string must end at its first NUL.
 */
static int cpumgr_check_strings(struct nlattr **tb,
				struct netlink_ext_ack *extack)
{
	static const int types[] = {
		CPUMGR_A_RESERVED_CPUS, CPUMGR_A_CGROUP_ROOT,
		CPUMGR_A_SYSTEM_CGROUP, CPUMGR_A_POD_UID, CPUMGR_A_CONTAINER,
		CPUMGR_A_CPUS, CPUMGR_A_CGROUP_PATH, CPUMGR_A_POD_CGROUP_PATH,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		const struct nlattr *attr = tb[types[i]];

		if (attr && strnlen(nla_data(attr), nla_len(attr)) !=
		    nla_len(attr) - 1) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "string has a NUL before its end");
			return -EINVAL;
		}
	}
	return 0;
}

static bool cpumgr_missing(struct genl_info *info, const struct nlattr *nest,
			   struct nlattr **tb, int type)
{
	if (!NL_REQ_ATTR_CHECK(info->extack, nest, tb, type))
		return false;
	NL_SET_ERR_MSG(info->extack, "a required attribute is missing");
	return true;
}

/*
 * What pre_doit made of a request, in info->user_ptr[0] until post_doit:
 * its attributes in a table of all of them (a generated policy stops at
 * the highest attribute its command takes, and info->attrs with it; the
 * helpers read any attribute, which is then absent), and the generation
 * the caller expects.
 */
struct cpumgr_req {
	struct nlattr *tb[CPUMGR_A_MAX + 1];
	struct cpumgr_expect expect;
};

static int cpumgr_nl_pre(const struct genl_split_ops *ops, struct sk_buff *skb,
			 struct genl_info *info, bool change)
{
	struct cpumgr_req *req;
	unsigned int max = min_t(unsigned int, ops->maxattr, CPUMGR_A_MAX);
	int err;

	err = change ? cpumgr_check_admin(skb, info) :
		       cpumgr_check_admin_read(skb, info->extack);
	if (err)
		return err;
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	if (info->attrs && ops->maxattr)
		memcpy(req->tb, info->attrs, sizeof(req->tb[0]) * (max + 1));
	err = cpumgr_check_strings(req->tb, info->extack);
	if (err) {
		kfree(req);
		return err;
	}
	req->expect.attr = req->tb[CPUMGR_A_GENERATION];
	req->expect.set = req->expect.attr;
	if (req->expect.set)
		req->expect.generation = nla_get_u64(req->expect.attr);
	info->user_ptr[0] = req;
	return 0;
}

/* The commands that change the table: CAP_SYS_ADMIN, then the request. */
int cpumgr_nl_pre_change(const struct genl_split_ops *ops, struct sk_buff *skb,
			 struct genl_info *info)
{
	return cpumgr_nl_pre(ops, skb, info, true);
}

/* A read of what names tenants (GET_ASSIGNMENT): root's, then the request. */
int cpumgr_nl_pre_admin_read(const struct genl_split_ops *ops,
			     struct sk_buff *skb, struct genl_info *info)
{
	return cpumgr_nl_pre(ops, skb, info, false);
}

void cpumgr_nl_post_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
			 struct genl_info *info)
{
	kfree(info->user_ptr[0]);
	info->user_ptr[0] = NULL;
}

/* Pod UID and container name, checked for what they may be. */
static int cpumgr_parse_names(struct genl_info *info, const struct nlattr *nest,
			      struct nlattr **tb, bool need_container,
			      const char **uid, const char **container)
{
	int err;

	err = cpumgr_check_strings(tb, info->extack);
	if (err)
		return err;
	if (cpumgr_missing(info, nest, tb, CPUMGR_A_POD_UID) ||
	    (need_container &&
	     cpumgr_missing(info, nest, tb, CPUMGR_A_CONTAINER)))
		return -EINVAL;
	*uid = nla_data(tb[CPUMGR_A_POD_UID]);
	err = cpumgr_check_pod_uid(*uid, tb[CPUMGR_A_POD_UID], info->extack);
	if (err)
		return err;
	*container = tb[CPUMGR_A_CONTAINER] ?
		nla_data(tb[CPUMGR_A_CONTAINER]) : NULL;
	if (!*container)
		return 0;
	return cpumgr_check_container_name(*container, tb[CPUMGR_A_CONTAINER],
					   info->extack);
}

static const char *cpumgr_get_str(struct nlattr **tb, int type)
{
	return tb[type] ? nla_data(tb[type]) : NULL;
}

/* An assignment of ASSIGN (@nest NULL) or of a RESTORE entry. */
static int cpumgr_parse_entry(struct genl_info *info, const struct nlattr *nest,
			      struct nlattr **tb, struct cpumgr_entry *e)
{
	int err;

	err = cpumgr_parse_names(info, nest, tb, true, &e->pod_uid,
				 &e->container);
	if (err)
		return err;
	if (cpumgr_missing(info, nest, tb, CPUMGR_A_CPUS))
		return -EINVAL;
	e->pod_attr = tb[CPUMGR_A_POD_UID];
	e->container_attr = tb[CPUMGR_A_CONTAINER];
	e->cpus_attr = tb[CPUMGR_A_CPUS];
	e->cgroup_attr = tb[CPUMGR_A_CGROUP_PATH];
	e->pod_cgroup_attr = tb[CPUMGR_A_POD_CGROUP_PATH];
	e->flags = tb[CPUMGR_A_FLAGS] ? nla_get_u32(tb[CPUMGR_A_FLAGS]) : 0;
	/* The spec's mask is every flag; a request sets the user's only. */
	if (e->flags & ~CPUMGR_ASSIGNMENT_F_USER) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[CPUMGR_A_FLAGS],
				    "degraded is set by the kernel");
		return -EINVAL;
	}
	e->cgroup_path = cpumgr_get_str(tb, CPUMGR_A_CGROUP_PATH);
	e->pod_cgroup_path = cpumgr_get_str(tb, CPUMGR_A_POD_CGROUP_PATH);
	if (!zalloc_cpumask_var(&e->cpus, GFP_KERNEL))
		return -ENOMEM;
	return cpumgr_cpulist_parse(nla_data(e->cpus_attr), e->cpus,
				    e->cpus_attr, info->extack);
}

/* Reply helpers */

/* Reply with just the generation: what every change answers. */
static int cpumgr_reply_generation(struct genl_info *info, u8 cmd,
				   u64 generation)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(nla_total_size_64bit(sizeof(u64)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = cpumgr_genl_put_reply(msg, info, cmd);
	if (!hdr || cpumgr_put_generation(msg, generation)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int cpumgr_nl_get_state_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;

	msg = cpumgr_state_msg(info, CPUMGR_CMD_GET_STATE,
			       !netlink_capable(skb, CAP_SYS_ADMIN));

	return msg ? genlmsg_reply(msg, info) : -ENOMEM;
}

/* CONFIGURE */

int cpumgr_nl_configure_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct cpumgr_req *req = info->user_ptr[0];
	struct nlattr **tb = req->tb;
	struct cpumgr_config cfg = {};
	u64 generation;
	int err = 0;

	if (!zalloc_cpumask_var(&cfg.reserved, GFP_KERNEL))
		return -ENOMEM;
	cfg.policy_attr = tb[CPUMGR_A_POLICY];
	cfg.options_attr = tb[CPUMGR_A_OPTIONS];
	cfg.reserved_attr = tb[CPUMGR_A_RESERVED_CPUS];
	cfg.set_policy = cfg.policy_attr;
	cfg.set_options = cfg.options_attr;
	cfg.set_reserved = cfg.reserved_attr;
	if (cfg.set_policy)
		cfg.policy = nla_get_u32(cfg.policy_attr);
	if (cfg.set_options)
		cfg.options = nla_get_u32(cfg.options_attr);
	cfg.set_enforce = tb[CPUMGR_A_ENFORCE];
	if (cfg.set_enforce)
		cfg.enforce = nla_get_u32(tb[CPUMGR_A_ENFORCE]);
	cfg.set_hotplug = tb[CPUMGR_A_HOTPLUG];
	if (cfg.set_hotplug)
		cfg.hotplug = nla_get_u32(tb[CPUMGR_A_HOTPLUG]);
	cfg.root_attr = tb[CPUMGR_A_CGROUP_ROOT];
	cfg.root_path = cpumgr_get_str(tb, CPUMGR_A_CGROUP_ROOT);
	cfg.system_attr = tb[CPUMGR_A_SYSTEM_CGROUP];
	cfg.system_path = cpumgr_get_str(tb, CPUMGR_A_SYSTEM_CGROUP);
	if (cfg.set_reserved)
		err = cpumgr_cpulist_parse(nla_data(cfg.reserved_attr),
					   cfg.reserved, cfg.reserved_attr,
					   info->extack);
	if (!err)
		err = cpumgr_table_configure(&cfg, &req->expect, info->extack,
					     &generation);
	free_cpumask_var(cfg.reserved);
	if (err)
		return err;
	return cpumgr_reply_generation(info, CPUMGR_CMD_CONFIGURE, generation);
}

/* ASSIGN */

/* ASSIGN with POD_CPUS: the pod's pool, alone. */
static int cpumgr_nl_assign_pool(struct genl_info *info,
				 struct cpumgr_req *req)
{
	const struct nlattr *attr = req->tb[CPUMGR_A_POD_CPUS];
	struct nlattr **tb = req->tb;
	const char *uid, *container;
	cpumask_var_t pool;
	u64 generation;
	int err;

	err = cpumgr_parse_names(info, NULL, tb, false, &uid, &container);
	if (err)
		return err;
	if (container || tb[CPUMGR_A_CPUS] || tb[CPUMGR_A_FLAGS] ||
	    tb[CPUMGR_A_NARROWED]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "a pod's pool is set alone: no container, CPUs or flags");
		return -EINVAL;
	}
	if (!zalloc_cpumask_var(&pool, GFP_KERNEL))
		return -ENOMEM;
	err = cpumgr_cpulist_parse(nla_data(attr), pool, attr, info->extack);
	if (!err)
		err = cpumgr_table_assign_pool(uid, pool, attr, &req->expect,
					       info->extack, &generation);
	free_cpumask_var(pool);
	if (err)
		return err;
	return cpumgr_reply_generation(info, CPUMGR_CMD_ASSIGN, generation);
}

int cpumgr_nl_assign_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct cpumgr_req *req = info->user_ptr[0];
	struct cpumgr_entry entry = {};
	struct cpumgr_container *c;
	struct sk_buff *msg = NULL;
	u64 generation;
	int err;

	if (req->tb[CPUMGR_A_POD_CPUS])
		return cpumgr_nl_assign_pool(info, req);
	err = cpumgr_parse_entry(info, NULL, req->tb, &entry);
	entry.narrowed = nla_get_flag(req->tb[CPUMGR_A_NARROWED]);
	if (!err)
		err = cpumgr_table_assign(&entry, &req->expect, info->extack,
					  &generation);
	free_cpumask_var(entry.cpus);
	if (err)
		return err;

	/* The assignment as it stands, unless a later change moved it. */
	cpumgr_table_lock();
	c = cpumgr_table_find(entry.pod_uid, entry.container);
	if (c && cpumgr_table_generation() == generation)
		msg = cpumgr_assignment_msg(c, generation, CPUMGR_CMD_ASSIGN,
					    info);
	cpumgr_table_unlock();
	if (msg)
		return genlmsg_reply(msg, info);
	return cpumgr_reply_generation(info, CPUMGR_CMD_ASSIGN, generation);
}

/* RELEASE */

int cpumgr_nl_release_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct cpumgr_req *req = info->user_ptr[0];
	const char *uid, *container;
	u64 generation;
	int err;

	err = cpumgr_parse_names(info, NULL, req->tb, false, &uid,
				 &container);
	if (!err)
		err = cpumgr_table_release(uid, container, &req->expect,
					   info->extack, &generation);
	if (err)
		return err;
	return cpumgr_reply_generation(info, CPUMGR_CMD_RELEASE, generation);
}

/* BIND */

int cpumgr_nl_bind_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct cpumgr_req *req = info->user_ptr[0];
	struct nlattr **tb = req->tb;
	struct cpumgr_bind bind = {};
	u64 generation;
	int err;

	err = cpumgr_parse_names(info, NULL, tb, false, &bind.pod_uid,
				 &bind.container);
	if (err)
		return err;
	bind.pod_attr = tb[CPUMGR_A_POD_UID];
	bind.container_attr = tb[CPUMGR_A_CONTAINER];
	bind.cgroup_attr = tb[CPUMGR_A_CGROUP_PATH];
	bind.pod_cgroup_attr = tb[CPUMGR_A_POD_CGROUP_PATH];
	bind.cgroup_path = cpumgr_get_str(tb, CPUMGR_A_CGROUP_PATH);
	bind.pod_cgroup_path = cpumgr_get_str(tb, CPUMGR_A_POD_CGROUP_PATH);
	if (!bind.cgroup_path && !bind.pod_cgroup_path) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to bind: give a cgroup path or a pod cgroup path");
		return -EINVAL;
	}
	if (!bind.cgroup_path != !bind.container) {
		NL_SET_ERR_MSG(info->extack,
			       "a container and a cgroup path go together");
		return -EINVAL;
	}
	err = cpumgr_table_bind(&bind, &req->expect, info->extack, &generation);
	if (err)
		return err;
	return cpumgr_reply_generation(info, CPUMGR_CMD_BIND, generation);
}

/* GET_ASSIGNMENT */

int cpumgr_nl_get_assignment_doit(struct sk_buff *skb,
				  struct genl_info *info)
{
	struct cpumgr_req *req = info->user_ptr[0];
	const char *uid, *container;
	struct cpumgr_container *c;
	struct sk_buff *msg = NULL;
	int err;

	err = cpumgr_parse_names(info, NULL, req->tb, true, &uid,
				 &container);
	if (err)
		return err;
	cpumgr_table_lock();
	c = cpumgr_table_find(uid, container);
	if (c)
		msg = cpumgr_assignment_msg(c, cpumgr_table_generation(),
					    CPUMGR_CMD_GET_ASSIGNMENT, info);
	cpumgr_table_unlock();
	if (!c) {
		NL_SET_ERR_MSG(info->extack, "no such assignment");
		return -ENOENT;
	}
	return msg ? genlmsg_reply(msg, info) : -ENOMEM;
}

/* Where a dump goes on from, in cb->ctx. */
struct cpumgr_dump_ctx {
	unsigned long next;	/* index of the next entry */
	/*
	 * The next assignment (NULL: none left), valid while the table is
	 * at @generation: every change that frees one bumps it.
	 */
	struct cpumgr_container *cursor;
	u64 generation;
	bool started;
};

static_assert(sizeof(struct cpumgr_dump_ctx) <=
	      sizeof_field(struct netlink_callback, ctx));

/*
 * A dump sees the table as it is at each of its steps; a change between
 * steps (the generation moved) marks the following messages
 * NLM_F_DUMP_INTR, and the reader starts over.
 */
int cpumgr_nl_get_assignment_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	struct cpumgr_dump_ctx *ctx = (void *)cb->ctx;
	struct cpumgr_container *c;
	u64 generation;
	void *hdr;
	int err;

	/* The first step runs in the caller's context; DONE says why. */
	if (!ctx->started) {
		err = cpumgr_check_admin_read(cb->skb, cb->extack);
		if (err)
			return err;
	}
	cpumgr_table_lock();
	generation = cpumgr_table_generation();
	cb->seq = lower_32_bits(generation) ?: 1;
	/*
	 * Resume in O(1) at the cursor; only after a change (whose messages
	 * are marked NLM_F_DUMP_INTR anyway) count entries from the start.
	 */
	if (ctx->started && ctx->generation == generation)
		c = ctx->cursor;
	else
		c = cpumgr_table_nth(ctx->next);
	for (; c; c = cpumgr_table_next(c)) {
		hdr = cpumgr_genl_put_dump(skb, cb, CPUMGR_CMD_GET_ASSIGNMENT);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (cpumgr_fill_assignment(skb, c, generation)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		ctx->next++;
	}
	ctx->cursor = c;
	ctx->generation = generation;
	ctx->started = true;
	cpumgr_table_unlock();
	/* An entry too big for an empty message must not end the dump. */
	if (c && !skb->len)
		return -EMSGSIZE;
	return skb->len;
}

/* GET_TOPOLOGY */

static int cpumgr_fill_cpu(struct sk_buff *skb, unsigned int cpu)
{
	const struct cpumgr_cpu_topo *t = cpumgr_topology_cpu(cpu);

	if (nla_put_u32(skb, CPUMGR_A_CPU_ID, cpu) ||
	    nla_put_u8(skb, CPUMGR_A_CPU_ONLINE, t->online))
		return -EMSGSIZE;
	if (!t->seen)
		return 0;
	if (nla_put_u32(skb, CPUMGR_A_CPU_PACKAGE, t->package) ||
	    nla_put_u32(skb, CPUMGR_A_CPU_DIE, t->die) ||
	    nla_put_u32(skb, CPUMGR_A_CPU_CORE, t->core) ||
	    nla_put_u32(skb, CPUMGR_A_CPU_NODE, t->node) ||
	    nla_put_u32(skb, CPUMGR_A_CPU_LLC, t->llc) ||
	    cpumgr_put_cpulist(skb, CPUMGR_A_CPU_SIBLINGS, t->siblings))
		return -EMSGSIZE;
	return 0;
}

int cpumgr_nl_get_topology_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct cpumgr_dump_ctx *ctx = (void *)cb->ctx;
	unsigned int cpu;
	void *hdr;

	cpumgr_topology_lock();
	for (cpu = ctx->next; cpu < nr_cpu_ids; cpu++) {
		if (!cpu_possible(cpu))
			continue;
		hdr = cpumgr_genl_put_dump(skb, cb, CPUMGR_CMD_GET_TOPOLOGY);
		if (!hdr)
			break;
		if (cpumgr_fill_cpu(skb, cpu)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		ctx->next = cpu + 1;
	}
	cpumgr_topology_unlock();
	if (cpu < nr_cpu_ids && !skb->len)
		return -EMSGSIZE;
	return skb->len;
}

/* RESTORE */

static int cpumgr_parse_restore(struct genl_info *info,
				struct cpumgr_entry *entries, unsigned int nr)
{
	struct nlattr *tb[CPUMGR_A_MAX + 1];
	struct nlattr *attr;
	unsigned int i = 0;
	int rem, err;

	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(attr) != CPUMGR_A_ASSIGNMENT)
			continue;
		if (WARN_ON_ONCE(i >= nr))
			return -EINVAL;
		/* the generated policy stops at its last attribute */
		memset(tb, 0, sizeof(tb));
		err = nla_parse_nested(tb,
				       ARRAY_SIZE(cpumgr_assignment_nl_policy) - 1,
				       attr, cpumgr_assignment_nl_policy,
				       info->extack);
		if (!err)
			err = cpumgr_parse_entry(info, attr, tb, &entries[i]);
		i++;
		if (err)
			return err;
	}
	return 0;
}

int cpumgr_nl_restore_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct cpumgr_req *req = info->user_ptr[0];
	struct cpumgr_entry *entries;
	unsigned int nr = 0, i;
	struct nlattr *attr;
	u64 generation;
	int rem, err;

	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(attr) == CPUMGR_A_ASSIGNMENT)
			nr++;
	}
	entries = kvcalloc(nr ?: 1, sizeof(*entries), GFP_KERNEL);
	if (!entries)
		return -ENOMEM;
	err = cpumgr_parse_restore(info, entries, nr);
	if (!err)
		err = cpumgr_table_restore(entries, nr, &req->expect, info->extack,
					   &generation);
	for (i = 0; i < nr; i++)
		free_cpumask_var(entries[i].cpus);
	kvfree(entries);
	if (err)
		return err;
	return cpumgr_reply_generation(info, CPUMGR_CMD_RESTORE, generation);
}

/* RESET */

int cpumgr_nl_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct cpumgr_req *req = info->user_ptr[0];
	u64 generation;
	int err;

	err = cpumgr_table_reset(&req->expect, info->extack, &generation);
	if (err)
		return err;
	return cpumgr_reply_generation(info, CPUMGR_CMD_RESET, generation);
}

/* 6.1's operations, one op per command */

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
