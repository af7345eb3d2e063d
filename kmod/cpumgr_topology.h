/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_topology.c: the CPUs' topology, as last seen online. */
#ifndef _CPUMGR_TOPOLOGY_H
#define _CPUMGR_TOPOLOGY_H

#include <linux/cpumask.h>
#include <linux/types.h>

/*
 * What the module knows of one possible CPU.  Values are the last ones
 * seen while the CPU was online (an offline CPU keeps them); @seen is
 * false for a CPU that has never been online since the module loaded.
 */
struct cpumgr_cpu_topo {
	bool seen;
	bool online;
	u32 package;
	u32 die;	/* logical die: unique across the machine */
	u32 core;	/* core id within its package, as sysfs core_id */
	u32 node;
	u32 llc;	/* last level cache (L3, "uncore") id */
	cpumask_var_t siblings;	/* SMT siblings, itself included */
};

int cpumgr_topology_init(void);
void cpumgr_topology_exit(void);
void cpumgr_topology_online(unsigned int cpu);
void cpumgr_topology_offline(unsigned int cpu);
void cpumgr_topology_lock(void);
void cpumgr_topology_unlock(void);
const struct cpumgr_cpu_topo *cpumgr_topology_cpu(unsigned int cpu);

#endif /* _CPUMGR_TOPOLOGY_H */
