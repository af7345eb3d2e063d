// SPDX-License-Identifier: GPL-2.0
/*
 * The messages that both a reply and a notification carry: an
 * assignment with its pod's pool (ASSIGN, GET_ASSIGNMENT; ASSIGNED_NTF)
 * and the node's state
 * (GET_STATE; CONFIGURED_NTF), with whether the guarantee is armed.
 */
#include <linux/cpumask.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "cpumgr.h"
#include "cpumgr_armed.h"
#include "cpumgr_events.h"
#include "cpumgr_genl.h"
#include "cpumgr_nl_msg.h"
#include "cpumgr_pods.h"
#include "cpumgr_probes.h"
#include "cpumgr_table.h"
#include "cpumgr_view.h"

/* The size and the attributes of an assignment message. */
static size_t cpumgr_assignment_size(const struct cpumgr_container *c)
{
	size_t size = nla_total_size_64bit(sizeof(u64)) * 3;

	size += cpumgr_str_size(c->pod->uid) + cpumgr_str_size(c->name);
	size += cpumgr_cpulist_size(c->cpus) + nla_total_size(sizeof(u32));
	size += cpumgr_path_size(c->cgroup.path);
	size += cpumgr_path_size(c->pod->cgroup.path);
	size += cpumgr_cpulist_size(c->pod->pool);
	return size;
}

int cpumgr_fill_assignment(struct sk_buff *skb,
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
	if (!cpumask_empty(c->pod->pool) &&
	    cpumgr_put_cpulist(skb, CPUMGR_A_POD_CPUS, c->pod->pool))
		return -EMSGSIZE;
	return 0;
}

/* An assignment as a message of its own, for a reply or an event. */
struct sk_buff *cpumgr_assignment_msg(const struct cpumgr_container *c,
				      u64 generation, u8 cmd,
				      struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(cpumgr_assignment_size(c), GFP_KERNEL);
	if (!msg)
		return NULL;
	if (info)
		hdr = cpumgr_genl_put_reply(msg, info, cmd);
	else
		hdr = cpumgr_genl_put(msg, cmd);
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
	char *root, *system;
	bool armed;
	const char *unarmed;	/* why not, a string literal */
	u64 missed;
};

static void cpumgr_state_free(struct cpumgr_state *st)
{
	kfree(st->root);
	kfree(st->system);
	free_cpumask_var(st->reserved);
	free_cpumask_var(st->shared);
	free_cpumask_var(st->exclusive);
	free_cpumask_var(st->online);
}

/*
 * A copy of the view, so that formatting happens outside RCU; @reader:
 * for a GET_STATE reply, not a notification.
 */
static int cpumgr_state_get(struct cpumgr_state *st, bool reader)
{
	const struct cpumgr_view *view;

	st->root = kmalloc(CPUMGR_PATH_MAX + 1, GFP_KERNEL);
	if (st->root)
		cpumgr_table_root_path(st->root, CPUMGR_PATH_MAX + 1);
	st->system = kmalloc(CPUMGR_PATH_MAX + 1, GFP_KERNEL);
	if (st->system)
		cpumgr_table_system_path(st->system, CPUMGR_PATH_MAX + 1);
	if (!st->root || !st->system ||
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
	/* GET_STATE is told once of a disarm since its last reply */
	st->armed = reader ? cpumgr_armed_read(CPUMGR_ARMED_GET_STATE,
					       &st->unarmed) :
			     cpumgr_armed(&st->unarmed);
	st->missed = cpumgr_probes_missed();
	return 0;
}

/* Whether the guarantee is armed, why not, the calls the probes missed. */
size_t cpumgr_armed_size(const char *why)
{
	return nla_total_size(sizeof(u8)) + cpumgr_str_size(why) +
	       nla_total_size_64bit(sizeof(u64));
}

int cpumgr_put_armed(struct sk_buff *skb, bool armed, const char *why,
		     u64 missed)
{
	return nla_put_u8(skb, CPUMGR_A_ARMED, armed) ||
	       (why && nla_put_string(skb, CPUMGR_A_UNARMED_REASON, why)) ||
	       nla_put_u64_64bit(skb, CPUMGR_A_PROBES_MISSED, missed,
				 CPUMGR_A_PAD);
}

/*
 * GET_STATE's reader without CAP_SYS_ADMIN in the initial user namespace
 * gets the node's view (@restricted): the paths of the managed root and
 * the system cgroup are root's, as sysfs cgroup_root and system_cgroup
 * are.
 */
struct sk_buff *cpumgr_state_msg(struct genl_info *info, u8 cmd,
				 bool restricted)
{
	struct cpumgr_state st = {};
	struct sk_buff *msg = NULL;
	size_t size;
	void *hdr;

	if (cpumgr_state_get(&st, !!info))
		return NULL;
	if (restricted) {
		st.root[0] = '\0';
		st.system[0] = '\0';
	}
	size = cpumgr_str_size(CPUMGR_VERSION) +
		nla_total_size_64bit(sizeof(u64)) * 4 +
		nla_total_size(sizeof(u32)) * 6 +
		cpumgr_path_size(st.root) + cpumgr_path_size(st.system) +
		cpumgr_cpulist_size(st.reserved) +
		cpumgr_cpulist_size(st.shared) +
		cpumgr_cpulist_size(st.exclusive) +
		cpumgr_cpulist_size(st.online) +
		cpumgr_armed_size(st.unarmed) + nla_total_size(sizeof(u8));
	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		goto out;
	if (info)
		hdr = cpumgr_genl_put_reply(msg, info, cmd);
	else
		hdr = cpumgr_genl_put(msg, cmd);
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
	    (*st.system &&
	     cpumgr_put_path(msg, CPUMGR_A_SYSTEM_CGROUP, st.system)) ||
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
