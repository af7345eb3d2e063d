// SPDX-License-Identifier: GPL-2.0
/*
 * CPUs going offline and coming online.  Refusing an offline happens
 * earlier, in the cpu_down_maps_locked() probe (cpumgr_hooks.c): by the
 * time these callbacks run the scheduler has already moved pinned tasks
 * away.  Here the table follows what happened: an assigned CPU leaves its
 * assignments, a CPU coming online joins the shared pool and has its
 * topology read again.  Suspend and hibernation take CPUs down and up
 * again with tasks frozen: the table is left alone then.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>

#include "cpumgr.h"

static enum cpuhp_state cpumgr_cpuhp_state;

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
