// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgr: exclusive, topology-aligned CPUs for containers, with the
 * authority and the enforcement in the kernel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "cpumgr.h"

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
	err = cpumgr_netlink_init();
	if (err)
		goto err_sysfs;

	pr_info("version %s loaded, %u possible CPUs\n", CPUMGR_VERSION,
		nr_cpu_ids);
	return 0;

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
