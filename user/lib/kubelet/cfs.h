/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CFS limits (shares/weight, quota/period) of containers and pods with
 * the kubelet's formulas:
 *
 * - pkg/kubelet/cm/helpers_linux.go: MilliCPUToShares(),
 *   MilliCPUToQuota(), ResourceConfigForPod(), the constants below;
 * - pkg/kubelet/kuberuntime/kuberuntime_container_linux.go:
 *   generateLinuxContainerResources() and calculateLinuxResources(), the
 *   container's values, with DisableCPUQuotaWithExclusiveCPUs (beta and
 *   on by default since 1.33): no quota for a container that has
 *   exclusive CPUs, nor for a pod that has one;
 * - the shares -> cpu.weight conversion of cgroup v2: the linear one of
 *   KEP-2254, which the kubelet uses for the cgroups it writes itself
 *   (pod and QoS cgroups) and runc used for containers up to 1.3.1, or
 *   the quadratic one of opencontainers/cgroups (runc PR #4785: runc
 *   1.3.2 and 1.4, crun 1.23) that maps the default 1024 shares to the
 *   default weight 100.
 */
#ifndef CPUMGR_CFS_H
#define CPUMGR_CFS_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "pod.h"

/* The kernel's limits (kernel/sched/sched.h) as the kubelet names them. */
#define CFS_MIN_SHARES		2
#define CFS_MAX_SHARES		262144
#define CFS_SHARES_PER_CPU	1024
#define CFS_MILLI_CPU_TO_CPU	1000
#define CFS_QUOTA_PERIOD	100000	/* us: 100 ms, the default period */
#define CFS_MIN_QUOTA_PERIOD	1000	/* us: the smallest quota */
#define CFS_MIN_WEIGHT		1
#define CFS_MAX_WEIGHT		10000

/* MilliCPUToShares(): 0 -> 2 (the kernel's minimum), clamped to 262144. */
uint64_t cfs_milli_cpu_to_shares(int64_t milli_cpu);
/* MilliCPUToQuota(): 0 for no limit, at least 1000 (1 ms) otherwise. */
int64_t cfs_milli_cpu_to_quota(int64_t milli_cpu, int64_t period);

/*
 * The inverses the kubelet itself uses to read a runtime's values back
 * (pkg/kubelet/kuberuntime/helpers_linux.go): sharesToMilliCPU() is
 * ceil(shares * 1000 / 1024), 0 below the minimum of 2 shares (2 shares
 * also mean "no request": 0 here too, so a container without a request
 * stays without one); quotaToMilliCPU() is quota * 1000 / period rounded
 * down, 0 for no limit (quota <= 0 or no period).  For requests of 3 to
 * 256000 millicores and limits of 10 millicores and more (period 100 ms)
 * the round trip gives back what the kubelet started from (1 and 2
 * millicores give 2 shares: no request).
 */
int64_t cfs_shares_to_milli_cpu(uint64_t shares);
int64_t cfs_quota_to_milli_cpu(int64_t quota, uint64_t period);

enum cfs_weight_conv {
	CFS_WEIGHT_LINEAR,	/* 1 + ((shares - 2) * 9999) / 262142 */
	CFS_WEIGHT_QUADRATIC,	/* ceil(10^((l^2 + 125 l) / 612 - 7/34)) */
};

/* cpu.shares -> cpu.weight; 0 (unset) stays 0, out of range is clamped. */
uint64_t cfs_shares_to_weight(uint64_t shares, enum cfs_weight_conv conv);

struct cfs_options {
	/*
	 * The kubelet's cpuCFSQuota (default true): limits become CFS
	 * quota.  When false the quota and period are left as they are.
	 */
	bool cpu_cfs_quota;
	/*
	 * cpuCFSQuotaPeriod in us (0: 100000).  The kubelet honours another
	 * value only with the CustomCPUCFSQuotaPeriod gate; pass 0 without.
	 */
	uint64_t period;
	/* The DisableCPUQuotaWithExclusiveCPUs feature gate (default true). */
	bool disable_quota_exclusive;
	enum cfs_weight_conv weight_conv;	/* for cpu.weight on v2 */
};

/* The kubelet's defaults: quota on, 100 ms, no quota when exclusive. */
void cfs_options_default(struct cfs_options *o);

struct cfs_limits {
	uint64_t shares;	/* cpu.shares (v1) */
	uint64_t weight;	/* cpu.weight (v2), from shares */
	bool set_quota;		/* false: leave quota and period alone */
	/* us per period; 0: no limit declared, -1: limit lifted */
	int64_t quota;
	uint64_t period;	/* us */
};

/*
 * A container's limits (generateLinuxContainerResources()): shares from
 * its CPU request (from its limit when it has no request; 2 without
 * either), quota from its CPU limit, none when exclusive and the options
 * say so.  exclusive: the container holds exclusive CPUs.
 */
void cfs_container_limits(const struct pod_container *c, bool exclusive,
			  const struct cfs_options *o, struct cfs_limits *out);

/*
 * A pod's limits (ResourceConfigForPod() for the pod cgroup): requests
 * and limits summed the way PodRequests()/PodLimits() sum them (init and
 * sidecar containers included); Guaranteed gets shares, quota and
 * period, Burstable shares and quota only when every container has a CPU
 * limit, BestEffort 2 shares.  has_exclusive: a container of the pod
 * holds exclusive CPUs; a pod with pod-level resources (KEP-2837) gets
 * the limits of its own CPU request and limit.  Pod overhead is not
 * read.
 */
void cfs_pod_limits(const struct pod *p, bool has_exclusive,
		    const struct cfs_options *o, struct cfs_limits *out);

/*
 * The same for a pod resized in place, from its CPU request and limit as
 * the kubelet computed them for the pod cgroup (millicores, 0: none)
 * rather than from its containers as admitted; qos its class.
 */
void cfs_pod_limits_resized(enum pod_qos qos, int64_t request_milli,
			    int64_t limit_milli, bool has_exclusive,
			    const struct cfs_options *o,
			    struct cfs_limits *out);

#endif
