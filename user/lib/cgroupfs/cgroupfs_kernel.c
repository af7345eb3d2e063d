// SPDX-License-Identifier: GPL-2.0
/*
 * cgroupfs_init(): the kernel's cgroup file systems, where a cgroup's
 * files come and go with it.  Alone in its file so that a program may
 * link another cgroupfs_init() in its place (bench/cgroup_standin.c: a
 * directory tree for a machine this host is not).
 */
#include <fcntl.h>
#include <unistd.h>

#include "cgroupfs.h"

static int kernel_open_file(const char *path, int flags)
{
	return open(path, flags, 0644);
}

static int kernel_remove_dir(const char *path)
{
	return rmdir(path);
}

static bool kernel_v1_root(const char *path)
{
	return cgroupfs_detect_version(path, NULL) == 1;
}

static const struct cgroupfs_ops kernel_ops = {
	.open_file = kernel_open_file,
	.remove_dir = kernel_remove_dir,
	.v1_root = kernel_v1_root,
};

int cgroupfs_init(struct cgroupfs *cg, const char *mount, int version,
		  struct cm_error *err)
{
	return cgroupfs_init_ops(cg, mount, version, &kernel_ops, err);
}
