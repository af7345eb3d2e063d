/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup v2 cpuset partitions for one cgroup (a container's), made and
 * undone in the order the kernel takes them (Documentation/admin-guide/
 * cgroup-v2.rst, "cpuset.cpus.partition"):
 *
 * - remote (Linux 6.7 on, the hierarchy has cpuset.cpus.exclusive): the
 *   CPUs are added to cpuset.cpus.exclusive of every ancestor below the
 *   root cgroup, top first, then the cgroup's cpuset.cpus.exclusive is
 *   exactly them and its cpuset.cpus.partition "isolated" (or "root");
 *   undone the other way: "member", its cpuset.cpus.exclusive emptied,
 *   the CPUs taken out of the ancestors' bottom first.  What CRI-O does
 *   for cpu-load-balancing.crio.io.
 * - local (6.1): only below a valid partition root, the cgroup's
 *   cpuset.cpus being the partition's CPUs; the parent is left as it
 *   is.
 *
 * The kernel may take a write and make the partition invalid instead
 * ("isolated invalid (<reason>)"): read back, undone, refused with the
 * kernel's reason.  Nothing here knows of pods; cgroups are named as
 * cgroupfs names them.
 */
#ifndef CPUMGR_QUIET_PARTITION_H
#define CPUMGR_QUIET_PARTITION_H

#include <stdbool.h>
#include <stddef.h>

#include "cgroupfs.h"
#include "cpuset.h"
#include "error.h"

enum quiet_part {
	QUIET_PART_MEMBER,
	QUIET_PART_ROOT,
	QUIET_PART_ISOLATED,
	QUIET_PART_INVALID,		/* "root invalid (...)", "isolated invalid" */
};

/* Whether the hierarchy of cgroup name has cpuset.cpus.exclusive: remote partitions. */
bool quiet_part_remote(const struct cgroupfs *cg, const char *name);
/*
 * The partition state of cgroup name, and the kernel's reason when it is
 * invalid (reason may be NULL).  -ENOENT: no such cgroup (or no
 * partitions: cgroup v1).
 */
int quiet_part_state(const struct cgroupfs *cg, const char *name,
		     enum quiet_part *state, char *reason, size_t len,
		     struct cm_error *err);
/*
 * Make cgroup name a valid partition ("isolated", else "root") on
 * exactly cpus, remote where the kernel can, else local.  *changed:
 * something was written (nothing when it already is one on them).  A
 * partition it was on other CPUs moves to them (its ancestors keep only
 * what others below them hold).  -EOPNOTSUPP: the kernel makes local
 * partitions only and the parent is no partition root; -EINVAL: the
 * kernel made it invalid (undone, err has its reason).
 */
int quiet_part_make(const struct cgroupfs *cg, const char *name,
		    const struct cpuset *cpus, bool isolated, bool *changed,
		    struct cm_error *err);
/*
 * Undo what quiet_part_make() did for cpus below cgroup parent: cgroup
 * name (NULL or gone: already removed, which dissolved its partition)
 * back to "member" with no exclusive CPUs, then cpus and what name's
 * cpuset.cpus.exclusive held (cpus NULL: only that) out of
 * cpuset.cpus.exclusive of parent and each of its ancestors below the
 * root, bottom first.  Ancestors already gone are skipped.
 */
int quiet_part_undo(const struct cgroupfs *cg, const char *parent,
		    const char *name, const struct cpuset *cpus,
		    struct cm_error *err);
/* Whether cgroup name has no task in it or below it (cgroup.events). */
bool quiet_unpopulated(const struct cgroupfs *cg, const char *name);
/*
 * What a runtime could not remove: the children of cgroup parent that
 * are partitions on some of cpus with no task in or below them and that
 * wanted() does not claim, counted in *found and, with remove, undone
 * (as above) and removed.  The kernel refuses a partition's removal
 * while the CPUs it hands back are a container's, so a container's
 * cgroup outlives it while its CPUs are kept.
 */
int quiet_part_left(const struct cgroupfs *cg, const char *parent,
		    bool (*wanted)(const char *name, void *arg), void *arg,
		    const struct cpuset *cpus, bool remove, unsigned int *found,
		    struct cm_error *err);

#endif
