/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cgroups as the controller uses them: the cpuset and cpu controllers,
 * cgroup v2 first, v1 too.
 *
 * Naming.  A cgroup is named by its path relative to the root of the
 * hierarchy, the way the kubelet's cgroupfs driver names them
 * ("kubepods/pod<uid>/<container>", "kubepods/burstable/pod<uid>") and
 * the way the systemd driver's slices nest ("kubepods.slice/...").  On
 * v2 one hierarchy holds both controllers; on v1 each controller has its
 * own hierarchy and the same name is looked up under each root:
 *
 *	v2  <mount>/<name>                    cpuset and cpu
 *	v1  <mount>/cpuset/<name>             cpuset
 *	    <mount>/cpu,cpuacct/<name>        cpu (or cpu, or cpuacct,cpu)
 *
 * which is how runc and the kubelet keep one cgroup name across v1
 * hierarchies.  A leading '/' is allowed and ignored; "" (or "/") is the
 * root cgroup; ".", ".." and empty components are refused.
 *
 * Other trees.  Where a cgroup file system and a plain directory differ
 * (the kernel makes a cgroup's files with it and removes them with it,
 * and a v1 hierarchy is a mount), the calls go through struct
 * cgroupfs_ops; the unit tests' fake trees of plain directories
 * (tests/fake_cgroup.h) bring their own.
 *
 * Writes are one write(2) of the whole value with the byte count checked
 * (cgroup files take a value in one write); errors are one line with the
 * path and strerror, returned as -errno.
 */
#ifndef CPUMGR_CGROUPFS_H
#define CPUMGR_CGROUPFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cgroupfs_units.h"
#include "cpuset.h"
#include "error.h"

#define CGROUPFS_MOUNT		"/sys/fs/cgroup"

enum cgroupfs_ctrl { CGROUPFS_CPUSET, CGROUPFS_CPU, CGROUPFS_NR_CTRL };

/* File system calls where a cgroup tree differs from a directory. */
struct cgroupfs_ops {
	/* open(2) of a cgroup's file: -1 with errno set on failure */
	int (*open_file)(const char *path, int flags);
	/* rmdir(2) of an empty cgroup: its files go with it */
	int (*remove_dir)(const char *path);
	/* whether path is the root of a v1 hierarchy (a v1 mount) */
	bool (*v1_root)(const char *path);
};

struct cgroupfs {
	int version;			/* 1 or 2 */
	const struct cgroupfs_ops *ops;	/* the kernel's, or a fake tree's */
	char root[CGROUPFS_NR_CTRL][PATH_MAX];	/* hierarchy root per controller */
	/*
	 * Where systemd owns the cgroups (v2): its units' AllowedCPUs
	 * follow what is written to their cpuset.cpus (cgroupfs_units.h);
	 * NULL (cgroupfs_init()'s): the files alone.
	 */
	const struct cgroupfs_units *units;
};

/*
 * The cgroup version of the file system holding dir, by its statfs
 * magic: 1 (CGROUP_SUPER_MAGIC), 2 (CGROUP2_SUPER_MAGIC), or -ENOTSUP
 * (another file system) or -errno, with the message in err.
 */
int cgroupfs_detect_version(const char *dir, struct cm_error *err);

/*
 * Find the hierarchies under mount (NULL: CGROUPFS_MOUNT).  version 0
 * detects: cgroup2 at mount is v2; otherwise mount/cpuset and the cpu
 * hierarchy must be v1 mounts (a hybrid layout's cgroup2 at
 * mount/unified holds no controllers, so it is v1 for us).  version 1 or
 * 2 forces the layout without checking mount's file system.
 */
int cgroupfs_init(struct cgroupfs *cg, const char *mount, int version,
		  struct cm_error *err);
/*
 * The same on a tree that ops reach (cgroupfs_init(): the kernel's
 * cgroup file systems, cgroupfs_kernel.c).
 */
int cgroupfs_init_ops(struct cgroupfs *cg, const char *mount, int version,
		      const struct cgroupfs_ops *ops, struct cm_error *err);

/* The parent of cgroup name (normalized) into out: "" for a top one. */
void cgroupfs_parent(const char *name, char *out, size_t len);
/*
 * path (a cgroup name or a directory; NULL: none) is dir or below it; a
 * dir "" is the hierarchy's root cgroup, which every name is below.
 */
bool cgroupfs_at_or_below(const char *path, const char *dir);

/*
 * name without its leading and trailing '/' into out ("" for the root
 * cgroup); -EINVAL for an empty, "." or ".." component, -ENAMETOOLONG.
 */
int cgroupfs_name_normalize(const char *name, char *out, size_t len,
			    struct cm_error *err);

/*
 * The path of file (NULL: the directory) of cgroup name in the hierarchy
 * of ctrl.  -EINVAL for a bad name, -ENAMETOOLONG.
 */
int cgroupfs_path(const struct cgroupfs *cg, enum cgroupfs_ctrl ctrl,
		  const char *name,
	    const char *file, char *buf, size_t len, struct cm_error *err);

/* Read a whole cgroup file into a malloc'd, NUL-terminated string. */
int cgroupfs_read(const struct cgroupfs *cg, enum cgroupfs_ctrl ctrl,
		  const char *name,
		  const char *file, char **out, struct cm_error *err);
/* Write value with one write(2); a short write is an error (-EIO). */
int cgroupfs_write(const struct cgroupfs *cg, enum cgroupfs_ctrl ctrl,
		   const char *name,
		   const char *file, const char *value, struct cm_error *err);

/*
 * Create cgroup name and the parents it lacks, in every hierarchy.  v2:
 * "+cpuset +cpu" goes into the cgroup.subtree_control of each parent
 * that lacks them, so the cgroup gets both controllers.  v1: a new
 * cpuset cgroup is empty and takes no task, so every directory this call
 * creates gets cpuset.mems from its parent and cpuset.cpus = cpus, or a
 * copy of its parent's when cpus is NULL (what runc does; with cpumgr
 * enforcing, a copy holding another container's exclusive CPUs is
 * refused, so pass the CPUs the new cgroups may hold).  On v2 cpus, when
 * given, is written to the directories created.  On failure the
 * directories this call created are removed again.
 */
int cgroupfs_create(const struct cgroupfs *cg, const char *name,
		    const struct cpuset *cpus, struct cm_error *err);

/*
 * Remove an empty cgroup (it must hold no task and no child cgroup) from
 * every hierarchy; a cgroup already gone is not an error.
 */
int cgroupfs_remove(const struct cgroupfs *cg, const char *name,
		    struct cm_error *err);

/*
 * Write cpuset.cpus.  v1 first fills an empty cpuset.mems from the
 * parent's effective mems: a v1 cpuset takes no task without mems.
 * With units, a cgroup that is a unit's (cgroupfs_unit_of()) then gets
 * the same CPUs as the unit's AllowedCPUs, which systemd writes again
 * each time it realizes the unit; the file first, so that a write the
 * kernel refuses changes neither (a unit systemd does not know: the
 * file alone).
 */
int cgroupfs_set_cpus(const struct cgroupfs *cg, const char *name,
		      const struct cpuset *cpus, struct cm_error *err);
/*
 * The same, each of the file and the unit's AllowedCPUs only where it
 * differs from cpus; *changed says whether either was.
 */
int cgroupfs_ensure_cpus(const struct cgroupfs *cg, const char *name,
			 const struct cpuset *cpus, bool *changed,
			 struct cm_error *err);
int cgroupfs_get_cpus(const struct cgroupfs *cg, const char *name,
		      struct cpuset *out, struct cm_error *err);
/* cpuset.cpus.effective (v2) or cpuset.effective_cpus (v1). */
int cgroupfs_get_effective_cpus(const struct cgroupfs *cg, const char *name,
				struct cpuset *out, struct cm_error *err);

/*
 * Move a process (all its threads) into the cgroup: cgroup.procs of the
 * cpuset hierarchy, then of the cpu one on v1.  When the second move
 * fails the message says the process is split between the two.
 */
int cgroupfs_move(const struct cgroupfs *cg, const char *name, pid_t pid,
		  struct cm_error *err);
/* The processes of the cgroup (cpuset hierarchy), malloc'd, in file order. */
int cgroupfs_pids(const struct cgroupfs *cg, const char *name, pid_t **pids,
		  size_t *nr, struct cm_error *err);

struct cgroupfs_walk_entry {
	const char *name;		/* relative to the hierarchy root */
	const char *path;		/* the directory */
	unsigned int depth;		/* 0 for the cgroup the walk starts at */
	const struct cpuset *effective;	/* the CPUs its tasks may run on */
	/*
	 * No effective CPUs file here (v2 without the cpuset controller in
	 * this cgroup): its tasks run on the nearest ancestor's effective
	 * CPUs, which is what effective holds.
	 */
	bool inherited;
};

/* Return 0 to go on; anything else stops the walk and is returned. */
typedef int (*cgroupfs_walk_fn)(const struct cgroupfs_walk_entry *e, void *arg);

/*
 * Walk the cpuset hierarchy from cgroup name down, pre-order, children
 * in strcmp() order, calling fn with each cgroup's effective CPUs.  A
 * cgroup removed during the walk is skipped with its subtree.
 */
int cgroupfs_walk(const struct cgroupfs *cg, const char *name,
		  cgroupfs_walk_fn fn, void *arg, struct cm_error *err);

#endif
