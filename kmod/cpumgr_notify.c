// SPDX-License-Identifier: GPL-2.0
/*
 * The notifications of what changed: the table (assigned, released,
 * bound, configured, restored, reset, a CPU offline or online, an
 * assignment degraded) and whether the guarantee is armed.  The table's
 * are sent under its lock, so they come in generation order, and each
 * after the events the hooks queued before it (cpumgr_events_send()).
 * Nobody listening, nothing is built.
 */
#include <linux/cpumask.h>
#include <linux/rcupdate.h>
#include <net/genetlink.h>

#include "cpumgr_events.h"
#include "cpumgr_genl.h"
#include "cpumgr_nl_msg.h"
#include "cpumgr_notify.h"
#include "cpumgr_pods.h"
#include "cpumgr_request.h"
#include "cpumgr_view.h"

void cpumgr_notify_assigned(const struct cpumgr_container *c, u64 generation)
{
	if (!cpumgr_genl_listened())
		return;
	cpumgr_events_send(cpumgr_assignment_msg(c, generation,
						 CPUMGR_CMD_ASSIGNED_NTF,
						 NULL));
}

void cpumgr_notify_configured(void)
{
	if (!cpumgr_genl_listened())
		return;
	cpumgr_events_send(cpumgr_state_msg(NULL, CPUMGR_CMD_CONFIGURED_NTF,
					    false));
}

void cpumgr_notify_released(const char *pod_uid, const char *container,
			    const struct cpumask *freed, u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_genl_listened())
		return;
	msg = cpumgr_ntf_new(cpumgr_str_size(pod_uid) +
			       cpumgr_str_size(container) +
			       cpumgr_cpulist_size(freed),
			       CPUMGR_CMD_RELEASED_NTF, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, generation) ||
			nla_put_string(msg, CPUMGR_A_POD_UID, pod_uid) ||
			(container &&
			 nla_put_string(msg, CPUMGR_A_CONTAINER, container)) ||
			cpumgr_put_cpulist(msg, CPUMGR_A_CPUS, freed);
		msg = cpumgr_ntf_end(msg, hdr, err);
	}
	cpumgr_events_send(msg);
}

void cpumgr_notify_bound(const struct cpumgr_bind *bind, u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_genl_listened())
		return;
	msg = cpumgr_ntf_new(cpumgr_str_size(bind->pod_uid) +
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
		msg = cpumgr_ntf_end(msg, hdr, err);
	}
	cpumgr_events_send(msg);
}

void cpumgr_notify_restored(unsigned int nr_pods, unsigned int nr_containers,
			    u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_genl_listened())
		return;
	msg = cpumgr_ntf_new(nla_total_size(sizeof(u32)) * 2,
			     CPUMGR_CMD_RESTORED_NTF, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, generation) ||
			nla_put_u32(msg, CPUMGR_A_NR_PODS, nr_pods) ||
			nla_put_u32(msg, CPUMGR_A_NR_ASSIGNMENTS, nr_containers);
		msg = cpumgr_ntf_end(msg, hdr, err);
	}
	cpumgr_events_send(msg);
}

void cpumgr_notify_reset(u64 generation)
{
	struct sk_buff *msg;
	void *hdr;

	if (!cpumgr_genl_listened())
		return;
	msg = cpumgr_ntf_new(0, CPUMGR_CMD_RESET_NTF, &hdr);
	if (msg)
		msg = cpumgr_ntf_end(msg, hdr,
				     cpumgr_put_generation(msg, generation));
	cpumgr_events_send(msg);
}

void cpumgr_notify_armed(bool armed, const char *why, u64 missed)
{
	struct sk_buff *msg;
	u64 generation;
	void *hdr;

	if (!cpumgr_genl_listened())
		return;
	/* not a change of the table: the generation as readers see it */
	rcu_read_lock();
	generation = cpumgr_view_get()->generation;
	rcu_read_unlock();
	msg = cpumgr_ntf_new(cpumgr_armed_size(why), CPUMGR_CMD_ARMED_NTF,
			     &hdr);
	if (msg)
		msg = cpumgr_ntf_end(msg, hdr,
				     cpumgr_put_generation(msg, generation) ||
				     cpumgr_put_armed(msg, armed, why, missed));
	cpumgr_events_send(msg);
}

void cpumgr_notify_cpu(u8 cmd, unsigned int cpu, u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_genl_listened())
		return;
	msg = cpumgr_ntf_new(nla_total_size(sizeof(u32)), cmd, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, generation) ||
			nla_put_u32(msg, CPUMGR_A_CPU, cpu);
		msg = cpumgr_ntf_end(msg, hdr, err);
	}
	cpumgr_events_send(msg);
}

void cpumgr_notify_degraded(const struct cpumgr_container *c,
			    unsigned int cpu, u64 generation)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!cpumgr_genl_listened())
		return;
	msg = cpumgr_ntf_new(nla_total_size(sizeof(u32)) +
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
		msg = cpumgr_ntf_end(msg, hdr, err);
	}
	cpumgr_events_send(msg);
}
