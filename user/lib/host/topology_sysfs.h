/* SPDX-License-Identifier: GPL-2.0 */
/* The machine's topology, read the way cAdvisor reads it for the kubelet. */
#ifndef CPUMGR_TOPOLOGY_SYSFS_H
#define CPUMGR_TOPOLOGY_SYSFS_H

#include "error.h"
#include "topology.h"

/*
 * Load from a sysfs-shaped tree: DIR/devices/system/cpu/cpuN/topology/
 * {core_id,physical_package_id}, cpuN/cache/index3/id (optional),
 * DIR/devices/system/node/nodeN/cpulist (optional: NUMA node 0) and
 * DIR/devices/system/cpu/online (optional: every cpuN with a topology
 * directory).  Physical cores are grouped by (package, core_id) as
 * cAdvisor does and named by their lowest CPU, as the kubelet does.
 */
struct topology *topology_load_sysfs(const char *dir, struct cm_error *err);

#endif
