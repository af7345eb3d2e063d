/* SPDX-License-Identifier: GPL-2.0 */
/* The CFS limits of kubelet/cfs.h written to a cgroup. */
#ifndef CPUMGR_CFS_APPLY_H
#define CPUMGR_CFS_APPLY_H

#include "cfs.h"
#include "cgroupfs.h"

/*
 * Write the limits to a cgroup.  v2: cpu.weight, then cpu.max
 * "<quota> <period>" in one write ("max <period>" when quota <= 0).  v1:
 * cpu.shares, then cpu.cfs_period_us before cpu.cfs_quota_us (-1 when
 * quota <= 0), and, if the kernel refuses the new period next to the old
 * quota (EINVAL: the pair would exceed the parent's bandwidth), the quota
 * first and the period again, as runc does.  A quota of 0 is written as
 * no limit: the kubelet's runtime would leave the old quota, but a
 * reconcile must also lift a limit that is no longer declared.
 */
int cfs_apply(const struct cgroupfs *cg, const char *name,
	      const struct cfs_limits *l, struct cm_error *err);

#endif
