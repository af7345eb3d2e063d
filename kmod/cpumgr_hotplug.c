// SPDX-License-Identifier: GPL-2.0
/*
 * CPUs going offline and coming online.  Refusing an offline happens
 * earlier, in the cpu_down_maps_locked() probe (cpumgr_check_offline.c):
 * by the time these callbacks run the scheduler has already moved pinned
 * tasks away.  Here the table follows what happened: an assigned CPU leaves its
 * assignments, a CPU coming online joins the shared pool and has its
 * topology read again.  Suspend and hibernation take CPUs down and up
 * again with tasks frozen: the table is left alone then.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/rcupdate.h>

#include "cpumgr_cpuset.h"
#include "cpumgr_hotplug.h"
#include "cpumgr_notify.h"
#include "cpumgr_pods.h"
#include "cpumgr_table.h"
#include "cpumgr_topology.h"
#include "cpumgr_view.h"

static enum cpuhp_state cpumgr_cpuhp_state;

/* The table follows */

/*
 * Whether the cgroup2 cgroup @ref is bound to names @cpu in its
 * cpuset.cpus.  (A v1 cpuset drops an offline CPU for good.)
 */
static bool cpumgr_cgroup_names_cpu(const struct cpumgr_cgroup_ref *ref,
				    unsigned int cpu)
{
	struct cgroup_subsys_state *css;
	struct cgroup *cgrp;
	bool names = false;

	if (!ref->id || ref->v1)
		return false;
	cgrp = cgroup_get_from_id(ref->id);
	if (IS_ERR(cgrp))
		return false;
	rcu_read_lock();
	css = cpumgr_cpuset_css(cgrp);
	if (css && css->cgroup == cgrp)
		names = cpumask_test_cpu(cpu, cpumgr_cpuset_allowed(css));
	rcu_read_unlock();
	cgroup_put(cgrp);
	return names;
}

/*
 * A CPU an offline took from a container (release mode) comes back to
 * it when its cgroup still names the CPU: cgroup2 gives it back to the
 * cgroup's tasks, and in the shared pool it would be handed to another
 * pod while that container runs there.  Otherwise it joins the pool.
 */
static int cpumgr_table_cpu_online(unsigned int cpu)
{
	struct cpumgr_container *c;
	struct cpumgr_view *view;
	struct cpumgr_pod *pod;
	u32 flags;

	mutex_lock(&cpumgr_tbl.lock);
	view = cpumgr_view_alloc_grown(0, 0, 0);
	if (!view) {
		mutex_unlock(&cpumgr_tbl.lock);
		return -ENOMEM;
	}
	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		list_for_each_entry(c, &pod->containers, node) {
			if (!cpumask_test_and_clear_cpu(cpu, c->lost) ||
			    !cpumgr_cgroup_names_cpu(&c->cgroup, cpu))
				continue;
			cpumask_copy(cpumgr_tbl.scratch, c->cpus);
			__cpumask_set_cpu(cpu, cpumgr_tbl.scratch);
			flags = c->flags;
			if (cpumask_empty(c->lost))
				flags &= ~CPUMGR_ASSIGNMENT_F_DEGRADED;
			cpumgr_container_set(c, cpumgr_tbl.scratch, flags);
			c->mark = true;
		}
		cpumgr_pod_update_cpus(pod);
	}
	cpumgr_commit(view);
	cpumgr_notify_cpu(CPUMGR_CMD_CPU_ONLINE_NTF, cpu,
			  cpumgr_tbl.generation);
	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		list_for_each_entry(c, &pod->containers, node) {
			if (c->mark)
				cpumgr_notify_assigned(c,
						       cpumgr_tbl.generation);
			c->mark = false;
		}
	}
	mutex_unlock(&cpumgr_tbl.lock);
	return 0;
}

/*
 * A CPU goes offline: in release mode, or in protect mode through a path
 * the early refusal does not see, it leaves the assignments holding it,
 * which are marked degraded for the controller to top them up.  The
 * table never holds an offline CPU (but across a suspend).
 */
static int cpumgr_table_cpu_offline(unsigned int cpu)
{
	struct cpumgr_container *c;
	struct cpumgr_view *view;
	struct cpumgr_pod *pod;

	mutex_lock(&cpumgr_tbl.lock);
	view = cpumgr_view_alloc_grown(0, 0, 0);
	if (!view) {
		mutex_unlock(&cpumgr_tbl.lock);
		return -ENOMEM;
	}
	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		if (!cpumask_test_cpu(cpu, pod->cpus))
			continue;
		list_for_each_entry(c, &pod->containers, node) {
			if (!cpumask_test_cpu(cpu, c->cpus))
				continue;
			cpumask_copy(cpumgr_tbl.scratch, c->cpus);
			__cpumask_clear_cpu(cpu, cpumgr_tbl.scratch);
			cpumgr_container_set(c, cpumgr_tbl.scratch,
					     c->flags | CPUMGR_ASSIGNMENT_F_DEGRADED);
			cpumask_set_cpu(cpu, c->lost);
			c->mark = true;
		}
		/* a pool's CPU goes for good: only a new pool gives it back */
		if (cpumask_test_cpu(cpu, pod->pool)) {
			cpumask_copy(cpumgr_tbl.scratch, pod->pool);
			__cpumask_clear_cpu(cpu, cpumgr_tbl.scratch);
			cpumgr_pod_set_pool(pod, cpumgr_tbl.scratch);
		}
		cpumgr_pod_update_cpus(pod);
	}
	cpumgr_commit(view);
	list_for_each_entry(pod, &cpumgr_tbl.pods, node) {
		list_for_each_entry(c, &pod->containers, node) {
			if (c->mark)
				cpumgr_notify_degraded(c, cpu,
						       cpumgr_tbl.generation);
			c->mark = false;
		}
	}
	cpumgr_notify_cpu(CPUMGR_CMD_CPU_OFFLINE_NTF, cpu,
			  cpumgr_tbl.generation);
	mutex_unlock(&cpumgr_tbl.lock);
	return 0;
}

/* The callbacks */

static int cpumgr_cpu_online(unsigned int cpu)
{
	cpumgr_topology_online(cpu);
	if (cpuhp_tasks_frozen)
		return 0;
	return cpumgr_table_cpu_online(cpu);
}

static int cpumgr_cpu_offline(unsigned int cpu)
{
	int err = 0;

	if (!cpuhp_tasks_frozen)
		err = cpumgr_table_cpu_offline(cpu);
	if (!err)
		cpumgr_topology_offline(cpu);
	return err;
}

int cpumgr_hotplug_init(void)
{
	unsigned int cpu;
	int ret;

	/* The topology as it is now, and every change after it. */
	cpus_read_lock();
	for_each_online_cpu(cpu)
		cpumgr_topology_online(cpu);
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "cpumgr:online",
						   cpumgr_cpu_online,
						   cpumgr_cpu_offline);
	cpus_read_unlock();
	if (ret < 0)
		return ret;
	cpumgr_cpuhp_state = ret;
	return 0;
}

void cpumgr_hotplug_exit(void)
{
	cpuhp_remove_state_nocalls(cpumgr_cpuhp_state);
}
