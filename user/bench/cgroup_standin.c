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
 * cpusets, and must not be touched anyway.  systemd's units likewise:
 * cgroupfs_systemd() below stands in for lib/cgroupfs/cgroupfs_systemd.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * systemd's units, stood in for (never this host's systemd): a unit
 * systemd has is a file $CPUMGR_STANDIN_UNITS/<unit> holding its
 * AllowedCPUs, made by whoever stands for the kubelet or runc when it
 * starts the unit; without the variable there is no systemd.
 */
static int unit_file(const char *unit, char *path, size_t len)
{
	const char *dir = getenv("CPUMGR_STANDIN_UNITS");

	if (!dir || !*dir)
		return -ENOENT;
	xsnprintf(path, len, "%s/%s", dir, unit);
	return access(path, F_OK) ? -ENOENT : 0;
}

static int standin_get(const struct cgroupfs_units *u, const char *unit,
		       struct cpuset *out, struct cm_error *err)
{
	char path[PATH_MAX], text[4096] = "";
	int ret = unit_file(unit, path, sizeof(path));
	FILE *f;

	if (ret)
		return ret;
	f = fopen(path, "r");
	if (!f || !fgets(text, sizeof(text), f))
		text[0] = '\0';
	if (f)
		fclose(f);
	text[strcspn(text, "\n")] = '\0';
	return cpuset_parse(out, text, err);
}

static int standin_set(const struct cgroupfs_units *u, const char *unit,
		       const struct cpuset *cpus, struct cm_error *err)
{
	char path[PATH_MAX], *text;
	int ret = unit_file(unit, path, sizeof(path));
	FILE *f;

	if (ret)
		return ret;
	text = cpuset_to_str(cpus);
	f = text ? fopen(path, "w") : NULL;
	if (!f || fprintf(f, "%s\n", text) < 0)
		ret = -EIO;
	if (f && fclose(f))
		ret = -EIO;
	free(text);
	return ret ? (cm_errorf(err, "%s: cannot write it", path), ret) : 0;
}

const struct cgroupfs_units *cgroupfs_systemd(const char *address)
{
	static const struct cgroupfs_units units = {
		.get_cpus = standin_get,
		.set_cpus = standin_set,
	};

	return &units;
}
