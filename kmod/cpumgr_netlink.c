// SPDX-License-Identifier: GPL-2.0
/*
 * The "cpumgr" generic netlink family: requests are parsed and checked
 * for form here, then handed to the table; replies, dumps and
 * notifications are built here.  The YNL spec
 * include/uapi/linux/cpumgr.yaml is the contract; the uAPI header, the
 * policies and the split ops are generated from it (cpumgr_nl_ops.c).
 */
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include "cpumgr.h"
#include "cpumgr_nl.h"

static struct genl_family cpumgr_family;

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
		CPUMGR_A_POD_UID, CPUMGR_A_CONTAINER, CPUMGR_A_CPUS,
		CPUMGR_A_CGROUP_PATH, CPUMGR_A_POD_CGROUP_PATH,
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

/* A cpulist attribute formatted in place: no intermediate buffer. */
static int cpumgr_put_cpulist(struct sk_buff *skb, int type,
			      const struct cpumask *mask)
{
	int len = snprintf(NULL, 0, "%*pbl", cpumask_pr_args(mask)) + 1;
	struct nlattr *attr = nla_reserve(skb, type, len);

	if (!attr)
		return -EMSGSIZE;
	snprintf(nla_data(attr), len, "%*pbl", cpumask_pr_args(mask));
	return 0;
}

static size_t cpumgr_cpulist_size(const struct cpumask *mask)
{
	return nla_total_size(snprintf(NULL, 0, "%*pbl",
				       cpumask_pr_args(mask)) + 1);
}

static size_t cpumgr_str_size(const char *str)
{
	return str ? nla_total_size(strlen(str) + 1) : 0;
}

/*
 * Cgroup paths leave as sysfs shows them, control characters as \xNN
 * (cpumgr_escape()): a listener's log gets no forged line.  Escaped in
 * place, into the message.
 */
static size_t cpumgr_path_size(const char *path)
{
	return path ? nla_total_size(cpumgr_escaped_len(path) + 1) : 0;
}

static int cpumgr_put_path(struct sk_buff *skb, int type, const char *path)
{
	size_t len = cpumgr_escaped_len(path);
	struct nlattr *attr;

	attr = nla_reserve(skb, type, len + 1);
	if (!attr)
		return -EMSGSIZE;
	cpumgr_escape(nla_data(attr), len + 1, path);
	return 0;
}

static int cpumgr_put_generation(struct sk_buff *skb, u64 generation)
{
	return nla_put_u64_64bit(skb, CPUMGR_A_GENERATION, generation,
				 CPUMGR_A_PAD);
}

/* Reply with just the generation: what every change answers. */
static int cpumgr_reply_generation(struct genl_info *info, u8 cmd,
				   u64 generation)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(nla_total_size_64bit(sizeof(u64)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &cpumgr_family, 0, cmd);
	if (!hdr || cpumgr_put_generation(msg, generation)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* The size and the attributes of an assignment message. */
static size_t cpumgr_assignment_size(const struct cpumgr_container *c)
{
	size_t size = nla_total_size_64bit(sizeof(u64)) * 3;

	size += cpumgr_str_size(c->pod->uid) + cpumgr_str_size(c->name);
	size += cpumgr_cpulist_size(c->cpus) + nla_total_size(sizeof(u32));
	size += cpumgr_path_size(c->cgroup.path);
	size += cpumgr_path_size(c->pod->cgroup.path);
	return size;
}

static int cpumgr_fill_assignment(struct sk_buff *skb,
				  const struct cpumgr_container *c,
				  u64 generation)
{
	const struct cpumgr_cgroup_ref *pcg = &c->pod->cgroup;

	if (cpumgr_put_generation(skb, generation) ||
	    nla_put_string(skb, CPUMGR_A_POD_UID, c->pod->uid) ||
	    nla_put_string(skb, CPUMGR_A_CONTAINER, c->name) ||
	    cpumgr_put_cpulist(skb, CPUMGR_A_CPUS, c->cpus) ||
	    nla_put_u32(skb, CPUMGR_A_FLAGS, c->flags))
		return -EMSGSIZE;
	if (c->cgroup.id &&
	    (cpumgr_put_path(skb, CPUMGR_A_CGROUP_PATH, c->cgroup.path) ||
	     nla_put_u64_64bit(skb, CPUMGR_A_CGROUP_ID, c->cgroup.id,
			       CPUMGR_A_PAD)))
		return -EMSGSIZE;
	if (pcg->id &&
	    (cpumgr_put_path(skb, CPUMGR_A_POD_CGROUP_PATH, pcg->path) ||
	     nla_put_u64_64bit(skb, CPUMGR_A_POD_CGROUP_ID, pcg->id,
			       CPUMGR_A_PAD)))
		return -EMSGSIZE;
	return 0;
}

/* An assignment as a message of its own, for a reply or an event. */
static struct sk_buff *cpumgr_assignment_msg(const struct cpumgr_container *c,
					     u64 generation, u8 cmd,
					     struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(cpumgr_assignment_size(c), GFP_KERNEL);
	if (!msg)
		return NULL;
	if (info)
		hdr = genlmsg_put_reply(msg, info, &cpumgr_family, 0, cmd);
	else
		hdr = genlmsg_put(msg, 0, 0, &cpumgr_family, 0, cmd);
	if (!hdr || cpumgr_fill_assignment(msg, c, generation)) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

static int cpumgr_put_counter(struct sk_buff *skb, int type,
			      atomic64_t *counter)
{
	return nla_put_u64_64bit(skb, type, atomic64_read(counter),
				 CPUMGR_A_PAD);
}

/* GET_STATE, and the CONFIGURED notification */

struct cpumgr_state {
	u64 generation;
	enum cpumgr_policy policy;
	u32 options;
	enum cpumgr_enforce enforce;
	enum cpumgr_hotplug hotplug;
	unsigned int nr_pods, nr_containers;
	cpumask_var_t reserved, shared, exclusive, online;
	char *root;
	bool armed;
	const char *unarmed;	/* why not, a string literal */
	u64 missed;
};

static void cpumgr_state_free(struct cpumgr_state *st)
{
	kfree(st->root);
	free_cpumask_var(st->reserved);
	free_cpumask_var(st->shared);
	free_cpumask_var(st->exclusive);
	free_cpumask_var(st->online);
}

/* A copy of the view, so that formatting happens outside RCU. */
static int cpumgr_state_get(struct cpumgr_state *st)
{
	const struct cpumgr_view *view;

	st->root = kmalloc(CPUMGR_PATH_MAX + 1, GFP_KERNEL);
	if (st->root)
		cpumgr_table_root_path(st->root, CPUMGR_PATH_MAX + 1);
	if (!st->root ||
	    !alloc_cpumask_var(&st->reserved, GFP_KERNEL) ||
	    !alloc_cpumask_var(&st->shared, GFP_KERNEL) ||
	    !alloc_cpumask_var(&st->exclusive, GFP_KERNEL) ||
	    !alloc_cpumask_var(&st->online, GFP_KERNEL)) {
		cpumgr_state_free(st);
		return -ENOMEM;
	}
	rcu_read_lock();
	view = cpumgr_view_get();
	st->generation = view->generation;
	st->policy = view->policy;
	st->options = view->options;
	st->enforce = view->enforce;
	st->hotplug = view->hotplug;
	st->nr_pods = view->nr_pods;
	st->nr_containers = view->nr_containers;
	cpumask_copy(st->reserved, view->reserved);
	cpumask_copy(st->exclusive, view->exclusive);
	cpumgr_view_shared(view, st->shared);
	cpumask_copy(st->online, cpu_online_mask);
	rcu_read_unlock();
	st->armed = cpumgr_armed(&st->unarmed);
	st->missed = cpumgr_hooks_missed();
	return 0;
}

/* Whether the guarantee is armed, why not, the calls the probes missed. */
static size_t cpumgr_armed_size(const char *why)
{
	return nla_total_size(sizeof(u8)) + cpumgr_str_size(why) +
	       nla_total_size_64bit(sizeof(u64));
}

static int cpumgr_put_armed(struct sk_buff *skb, bool armed, const char *why,
			    u64 missed)
{
	return nla_put_u8(skb, CPUMGR_A_ARMED, armed) ||
	       (why && nla_put_string(skb, CPUMGR_A_UNARMED_REASON, why)) ||
	       nla_put_u64_64bit(skb, CPUMGR_A_PROBES_MISSED, missed,
				 CPUMGR_A_PAD);
}

/*
 * GET_STATE's reader without CAP_SYS_ADMIN in the initial user namespace
 * gets the node's view (@restricted): the managed root's path is root's,
 * as sysfs cgroup_root is.
 */
static struct sk_buff *cpumgr_state_msg(struct genl_info *info, u8 cmd,
					bool restricted)
{
	struct cpumgr_state st = {};
	struct sk_buff *msg = NULL;
	size_t size;
	void *hdr;

	if (cpumgr_state_get(&st))
		return NULL;
	if (restricted)
		st.root[0] = '\0';
	size = cpumgr_str_size(CPUMGR_VERSION) +
		nla_total_size_64bit(sizeof(u64)) * 4 +
		nla_total_size(sizeof(u32)) * 6 +
		cpumgr_path_size(st.root) +
		cpumgr_cpulist_size(st.reserved) +
		cpumgr_cpulist_size(st.shared) +
		cpumgr_cpulist_size(st.exclusive) +
		cpumgr_cpulist_size(st.online) +
		cpumgr_armed_size(st.unarmed) + nla_total_size(sizeof(u8));
	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		goto out;
	if (info)
		hdr = genlmsg_put_reply(msg, info, &cpumgr_family, 0, cmd);
	else
		hdr = genlmsg_put(msg, 0, 0, &cpumgr_family, 0, cmd);
	if (!hdr ||
	    nla_put_string(msg, CPUMGR_A_VERSION, CPUMGR_VERSION) ||
	    cpumgr_put_generation(msg, st.generation) ||
	    nla_put_u32(msg, CPUMGR_A_POLICY, st.policy) ||
	    nla_put_u32(msg, CPUMGR_A_OPTIONS, st.options) ||
	    cpumgr_put_cpulist(msg, CPUMGR_A_RESERVED_CPUS, st.reserved) ||
	    cpumgr_put_cpulist(msg, CPUMGR_A_SHARED_CPUS, st.shared) ||
	    cpumgr_put_cpulist(msg, CPUMGR_A_EXCLUSIVE_CPUS, st.exclusive) ||
	    cpumgr_put_cpulist(msg, CPUMGR_A_ONLINE_CPUS, st.online) ||
	    nla_put_u32(msg, CPUMGR_A_NR_PODS, st.nr_pods) ||
	    nla_put_u32(msg, CPUMGR_A_NR_ASSIGNMENTS, st.nr_containers) ||
	    nla_put_u32(msg, CPUMGR_A_ENFORCE, st.enforce) ||
	    nla_put_u32(msg, CPUMGR_A_HOTPLUG, st.hotplug) ||
	    (*st.root && cpumgr_put_path(msg, CPUMGR_A_CGROUP_ROOT, st.root)) ||
	    cpumgr_put_counter(msg, CPUMGR_A_VIOLATIONS,
			       &cpumgr_counters.violations) ||
	    cpumgr_put_counter(msg, CPUMGR_A_OFFLINES_REFUSED,
			       &cpumgr_counters.offlines_refused) ||
	    cpumgr_put_counter(msg, CPUMGR_A_EVENTS_DROPPED,
			       &cpumgr_counters.events_dropped) ||
	    cpumgr_put_armed(msg, st.armed, st.unarmed, st.missed) ||
	    nla_put_u8(msg, CPUMGR_A_RESTRICTED, restricted)) {
		nlmsg_free(msg);
		msg = NULL;
		goto out;
	}
	genlmsg_end(msg, hdr);
out:
	cpumgr_state_free(&st);
	return msg;
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

int cpumgr_nl_assign_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct cpumgr_req *req = info->user_ptr[0];
	struct cpumgr_entry entry = {};
	struct cpumgr_container *c;
	struct sk_buff *msg = NULL;
	u64 generation;
	int err;

	err = cpumgr_parse_entry(info, NULL, req->tb, &entry);
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
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &cpumgr_family,
				  NLM_F_MULTI, CPUMGR_CMD_GET_ASSIGNMENT);
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
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &cpumgr_family,
				  NLM_F_MULTI, CPUMGR_CMD_GET_TOPOLOGY);
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

/* Notifications */

static bool cpumgr_listened(void)
{
	return genl_has_listeners(&cpumgr_family, &init_net,
				  CPUMGR_NLGRP_EVENTS);
}

/* Send, or tell listeners they missed an event. */
static void cpumgr_multicast_now(struct sk_buff *msg)
{
	if (!msg) {
		atomic64_inc(&cpumgr_counters.events_dropped);
		cpumgr_notify_lost();
		return;
	}
	genlmsg_multicast(&cpumgr_family, msg, 0, CPUMGR_NLGRP_EVENTS,
			  GFP_KERNEL);
}

/* The same, after the events the ring holds (which happened before). */
static void cpumgr_multicast(struct sk_buff *msg)
{
	cpumgr_events_send_lock();
	cpumgr_multicast_now(msg);
	cpumgr_events_send_unlock();
}

void cpumgr_notify_assigned(const struct cpumgr_container *c, u64 generation)
{
	if (cpumgr_listened())
		cpumgr_multicast(cpumgr_assignment_msg(c, generation,
						       CPUMGR_CMD_ASSIGNED_NTF,
						       NULL));
}

void cpumgr_notify_configured(void)
{
	if (cpumgr_listened())
		cpumgr_multicast(cpumgr_state_msg(NULL,
						  CPUMGR_CMD_CONFIGURED_NTF,
						  false));
}

/* Start an event message of @size attribute bytes. */
static struct sk_buff *cpumgr_event_new(size_t size, u8 cmd, void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(nla_total_size_64bit(sizeof(u64)) + size,
			  GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &cpumgr_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Finish it, or free it if the attributes did not fit (@err). */
static struct sk_buff *cpumgr_event_end(struct sk_buff *msg, void *hdr,
					int err)
{
	if (err) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

void cpumgr_notify_released(const char *pod_uid, const char *container,
			    const struct cpumask *freed, u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_listened())
		return;
	msg = cpumgr_event_new(cpumgr_str_size(pod_uid) +
			       cpumgr_str_size(container) +
			       cpumgr_cpulist_size(freed),
			       CPUMGR_CMD_RELEASED_NTF, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, generation) ||
			nla_put_string(msg, CPUMGR_A_POD_UID, pod_uid) ||
			(container &&
			 nla_put_string(msg, CPUMGR_A_CONTAINER, container)) ||
			cpumgr_put_cpulist(msg, CPUMGR_A_CPUS, freed);
		msg = cpumgr_event_end(msg, hdr, err);
	}
	cpumgr_multicast(msg);
}

void cpumgr_notify_bound(const struct cpumgr_bind *bind, u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_listened())
		return;
	msg = cpumgr_event_new(cpumgr_str_size(bind->pod_uid) +
			       cpumgr_str_size(bind->container) +
			       cpumgr_path_size(bind->cgroup_path) +
			       cpumgr_path_size(bind->pod_cgroup_path),
			       CPUMGR_CMD_BOUND_NTF, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, generation) ||
			nla_put_string(msg, CPUMGR_A_POD_UID, bind->pod_uid) ||
			(bind->container &&
			 nla_put_string(msg, CPUMGR_A_CONTAINER,
					bind->container)) ||
			(bind->cgroup_path &&
			 cpumgr_put_path(msg, CPUMGR_A_CGROUP_PATH,
					 bind->cgroup_path)) ||
			(bind->pod_cgroup_path &&
			 cpumgr_put_path(msg, CPUMGR_A_POD_CGROUP_PATH,
					 bind->pod_cgroup_path));
		msg = cpumgr_event_end(msg, hdr, err);
	}
	cpumgr_multicast(msg);
}

void cpumgr_notify_restored(unsigned int nr_pods, unsigned int nr_containers,
			    u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_listened())
		return;
	msg = cpumgr_event_new(nla_total_size(sizeof(u32)) * 2,
			       CPUMGR_CMD_RESTORED_NTF, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, generation) ||
			nla_put_u32(msg, CPUMGR_A_NR_PODS, nr_pods) ||
			nla_put_u32(msg, CPUMGR_A_NR_ASSIGNMENTS, nr_containers);
		msg = cpumgr_event_end(msg, hdr, err);
	}
	cpumgr_multicast(msg);
}

void cpumgr_notify_reset(u64 generation)
{
	struct sk_buff *msg;
	void *hdr;

	if (!cpumgr_listened())
		return;
	msg = cpumgr_event_new(0, CPUMGR_CMD_RESET_NTF, &hdr);
	if (msg)
		msg = cpumgr_event_end(msg, hdr,
				       cpumgr_put_generation(msg, generation));
	cpumgr_multicast(msg);
}

void cpumgr_notify_lost(void)
{
	genl_set_err(&cpumgr_family, &init_net, 0, CPUMGR_NLGRP_EVENTS,
		     -ENOBUFS);
}

void cpumgr_notify_armed(bool armed, const char *why, u64 missed)
{
	struct sk_buff *msg;
	u64 generation;
	void *hdr;

	if (!cpumgr_listened())
		return;
	/* not a change of the table: the generation as readers see it */
	rcu_read_lock();
	generation = cpumgr_view_get()->generation;
	rcu_read_unlock();
	msg = cpumgr_event_new(cpumgr_armed_size(why), CPUMGR_CMD_ARMED_NTF,
			       &hdr);
	if (msg)
		msg = cpumgr_event_end(msg, hdr,
				       cpumgr_put_generation(msg, generation) ||
				       cpumgr_put_armed(msg, armed, why, missed));
	cpumgr_multicast(msg);
}

void cpumgr_notify_cpu(u8 cmd, unsigned int cpu, u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_listened())
		return;
	msg = cpumgr_event_new(nla_total_size(sizeof(u32)), cmd, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, generation) ||
			nla_put_u32(msg, CPUMGR_A_CPU, cpu);
		msg = cpumgr_event_end(msg, hdr, err);
	}
	cpumgr_multicast(msg);
}

void cpumgr_notify_degraded(const struct cpumgr_container *c,
			    unsigned int cpu, u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_listened())
		return;
	msg = cpumgr_event_new(nla_total_size(sizeof(u32)) +
			       cpumgr_str_size(c->pod->uid) +
			       cpumgr_str_size(c->name) +
			       cpumgr_cpulist_size(c->cpus),
			       CPUMGR_CMD_DEGRADED_NTF, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, generation) ||
			nla_put_u32(msg, CPUMGR_A_CPU, cpu) ||
			nla_put_string(msg, CPUMGR_A_POD_UID, c->pod->uid) ||
			nla_put_string(msg, CPUMGR_A_CONTAINER, c->name) ||
			cpumgr_put_cpulist(msg, CPUMGR_A_CPUS, c->cpus);
		msg = cpumgr_event_end(msg, hdr, err);
	}
	cpumgr_multicast(msg);
}

static int cpumgr_fill_violation(struct sk_buff *msg,
				 const struct cpumgr_event *ev,
				 const char *path)
{
	if (nla_put_u32(msg, CPUMGR_A_KIND, ev->kind) ||
	    nla_put_u32(msg, CPUMGR_A_VERDICT, ev->verdict) ||
	    nla_put_u64_64bit(msg, CPUMGR_A_CGROUP_ID, ev->cgroup_id,
			      CPUMGR_A_PAD) ||
	    nla_put_string(msg, CPUMGR_A_CGROUP_PATH, path) ||
	    nla_put_string(msg, CPUMGR_A_FILE, ev->file) ||
	    cpumgr_put_cpulist(msg, CPUMGR_A_CPUS, ev->cpus))
		return -EMSGSIZE;
	return 0;
}

void cpumgr_notify_event(const struct cpumgr_event *ev)
{
	bool violation = ev->cmd == CPUMGR_CMD_VIOLATION_NTF;
	/* Path and comm escaped (cpumgr_escape()): 4 bytes a character. */
	static char path[CPUMGR_EVENT_PATH_MAX * 4], comm[TASK_COMM_LEN * 4];
	struct sk_buff *msg;
	size_t size;
	void *hdr;
	int err;

	if (!cpumgr_listened())
		return;
	/*
	 * Only the ring's sender comes here, under its lock: the buffers
	 * are its own.
	 */
	cpumgr_escape(path, sizeof(path), ev->path);
	cpumgr_escape(comm, sizeof(comm), ev->comm);
	size = nla_total_size(sizeof(u32)) * 2 + cpumgr_str_size(comm);
	if (violation)
		size += nla_total_size(sizeof(u32)) * 2 +
			nla_total_size_64bit(sizeof(u64)) +
			cpumgr_str_size(path) + cpumgr_str_size(ev->file) +
			cpumgr_cpulist_size(ev->cpus);
	msg = cpumgr_event_new(size, ev->cmd, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, ev->generation) ||
			nla_put_u32(msg, CPUMGR_A_PID, ev->pid) ||
			nla_put_string(msg, CPUMGR_A_COMM, comm) ||
			(violation ? cpumgr_fill_violation(msg, ev, path) :
			 nla_put_u32(msg, CPUMGR_A_CPU, ev->cpu));
		msg = cpumgr_event_end(msg, hdr, err);
	}
	cpumgr_multicast_now(msg);
}

/* The family */

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
