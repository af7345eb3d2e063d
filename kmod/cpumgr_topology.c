// SPDX-License-Identifier: GPL-2.0
/*
 * The topology snapshot: for every possible CPU its package, logical die,
 * core, NUMA node, last level cache and SMT siblings, recorded while the
 * CPU is online and kept when it goes offline.
 */
#include <linux/cpu.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/version.h>

#include "cpumgr_topology.h"

static struct cpumgr_cpu_topo *cpumgr_topo;
static DEFINE_MUTEX(cpumgr_topo_lock);

/* The L3 id moved into cpuinfo_topo in 6.7. */
static u32 cpumgr_llc_id(unsigned int cpu)
{
#if KERNEL_VERSION(6, 7, 0) <= LINUX_VERSION_CODE
	return per_cpu_llc_id(cpu);
#else
	return get_llc_id(cpu);
#endif
}

/* Record an online CPU; the caller holds cpumgr_topo_lock. */
static void cpumgr_topology_record(unsigned int cpu)
{
	lockdep_assert_held(&cpumgr_topo_lock);
	struct cpumgr_cpu_topo *t = &cpumgr_topo[cpu];

	t->seen = true;
	t->online = true;
	t->package = topology_physical_package_id(cpu);
	t->die = topology_logical_die_id(cpu);
	t->core = topology_core_id(cpu);
	t->node = cpu_to_node(cpu);
	t->llc = cpumgr_llc_id(cpu);
	cpumask_copy(t->siblings, topology_sibling_cpumask(cpu));
}

/* A CPU came online (or is at load): read its topology again. */
void cpumgr_topology_online(unsigned int cpu)
{
	mutex_lock(&cpumgr_topo_lock);
	cpumgr_topology_record(cpu);
	mutex_unlock(&cpumgr_topo_lock);
}

/* A CPU went offline: its last values stay. */
void cpumgr_topology_offline(unsigned int cpu)
{
	mutex_lock(&cpumgr_topo_lock);
	cpumgr_topo[cpu].online = false;
	mutex_unlock(&cpumgr_topo_lock);
}

void cpumgr_topology_lock(void)
{
	mutex_lock(&cpumgr_topo_lock);
}

void cpumgr_topology_unlock(void)
{
	mutex_unlock(&cpumgr_topo_lock);
}

/* The caller holds cpumgr_topology_lock(). */
const struct cpumgr_cpu_topo *cpumgr_topology_cpu(unsigned int cpu)
{
	lockdep_assert_held(&cpumgr_topo_lock);
	return &cpumgr_topo[cpu];
}

static void cpumgr_topology_free(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		free_cpumask_var(cpumgr_topo[cpu].siblings);
	kfree(cpumgr_topo);
	cpumgr_topo = NULL;
}

int cpumgr_topology_init(void)
{
	unsigned int cpu;

	cpumgr_topo = kcalloc(nr_cpu_ids, sizeof(*cpumgr_topo), GFP_KERNEL);
	if (!cpumgr_topo)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		if (!zalloc_cpumask_var(&cpumgr_topo[cpu].siblings,
					GFP_KERNEL)) {
			cpumgr_topology_free();
			return -ENOMEM;
		}
	}

	/* cpumgr_hotplug_init() records the online CPUs. */
	return 0;
}

void cpumgr_topology_exit(void)
{
	cpumgr_topology_free();
}
