// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgr: exclusive, topology-aligned CPUs for containers, with the
 * authority and the enforcement in the kernel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "cpumgr.h"
#include "cpumgr_armed.h"
#include "cpumgr_armed_watch.h"
#include "cpumgr_cpuset.h"
#include "cpumgr_events.h"
#include "cpumgr_hotplug.h"
#include "cpumgr_inflight.h"
#include "cpumgr_names.h"
#include "cpumgr_nl.h"
#include "cpumgr_probes.h"
#include "cpumgr_rules.h"
#include "cpumgr_sysfs.h"
#include "cpumgr_table.h"
#include "cpumgr_topology.h"

/*
 * The family comes last and goes first: a change accepted over netlink
 * must be enforced (hooks armed), and none may start while the module
 * is going (its commit would take a reference on a module being
 * unloaded).  Notifications raised before the family exists or after it
 * is gone find no listener and are not built.
 */
static int __init cpumgr_init(void)
{
	int err;

	err = cpumgr_topology_init();
	if (err)
		goto err_out;
	err = cpumgr_table_init();
	if (err)
		goto err_topology;
	err = cpumgr_sysfs_init();
	if (err)
		goto err_table;
	err = cpumgr_events_init();
	if (err)
		goto err_sysfs;
	err = cpumgr_rules_init();
	if (err)
		goto err_events;
	err = cpumgr_cpuset_init();
	if (err)
		goto err_rules;
	err = cpumgr_hotplug_init();
	if (err)
		goto err_rules;
	err = cpumgr_inflight_init();
	if (err)
		goto err_hotplug;
	err = cpumgr_probes_init();
	if (err)
		goto err_inflight;
	err = cpumgr_armed_init();
	if (err)
		goto err_probes;
	cpumgr_armed_watch_init();
	err = cpumgr_netlink_init();
	if (err)
		goto err_armed;

	pr_info("version %s loaded, %u possible CPUs, enforce=%s hotplug=%s\n",
		CPUMGR_VERSION, nr_cpu_ids,
		cpumgr_enforce_names[cpumgr_param_enforce],
		cpumgr_hotplug_names[cpumgr_param_hotplug]);
	return 0;

err_armed:
	cpumgr_armed_watch_exit();
	cpumgr_armed_exit();
err_probes:
	cpumgr_probes_exit();
err_inflight:
	cpumgr_inflight_exit();
err_hotplug:
	cpumgr_hotplug_exit();
err_rules:
	cpumgr_rules_exit();
err_events:
	cpumgr_events_exit();
err_sysfs:
	cpumgr_sysfs_exit();
err_table:
	cpumgr_table_exit();
err_topology:
	cpumgr_topology_exit();
err_out:
	return err;
}

static void __exit cpumgr_exit(void)
{
	cpumgr_netlink_exit();
	cpumgr_armed_watch_exit();
	cpumgr_armed_exit();
	cpumgr_probes_exit();
	cpumgr_inflight_exit();
	cpumgr_hotplug_exit();
	cpumgr_rules_exit();
	cpumgr_events_exit();
	cpumgr_sysfs_exit();
	cpumgr_table_exit();
	cpumgr_topology_exit();
	pr_info("unloaded\n");
}

module_init(cpumgr_init);
module_exit(cpumgr_exit);

MODULE_DESCRIPTION("Exclusive CPU assignment for containers");
MODULE_AUTHOR("The cpumgr authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(CPUMGR_VERSION);
