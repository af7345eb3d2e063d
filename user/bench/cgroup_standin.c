// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the kernel's cgroup file systems, linked instead of
 * lib/cgroupfs/cgroupfs_kernel.c (with kernel_standin.c for the module)
 * into bench/cpumgrctl-standin-tree: the node's cgroupMount is a plain
 * directory standing for a cgroup v2 hierarchy, with the fake trees'
 * rules of tests/fake_cgroup.h (a cgroup file written is made, rmdir
 * takes a cgroup's files along).  The runtime's path (cpumgrctl nri)
 * makes, binds and writes container cgroups on every call; on a machine
 * this host is not (4096 CPUs) the host's cgroups could not take those
 * cpusets, and must not be touched anyway.
 */
#include <errno.h>
#include <string.h>

#include "fake_cgroup.h"

int cgroupfs_init(struct cgroupfs *cg, const char *mount, int version,
		  struct cm_error *err)
{
	/* the host's hierarchies are never a stand-in's */
	if (!mount || !strncmp(mount, CGROUPFS_MOUNT, strlen(CGROUPFS_MOUNT)))
		return cm_errorf(err, "cgroup stand-in: cgroup mount %s: not a directory of its own (init --cgroup-mount DIR)",
				 mount ? mount : CGROUPFS_MOUNT), -EPERM;
	return cgroupfs_init_ops(cg, mount, 2, &fake_cgroup_ops, err);
}
