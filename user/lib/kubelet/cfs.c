// SPDX-License-Identifier: GPL-2.0
/* The kubelet's CFS formulas (see cfs.h for where each comes from). */
#include <math.h>
#include <string.h>

#include "cfs.h"
#include "quantity.h"

uint64_t cfs_milli_cpu_to_shares(int64_t milli_cpu)
{
	__int128 shares;

	if (milli_cpu == 0)
		return CFS_MIN_SHARES;
	/* (milli / 1000) * 1024, factored to round once, as the kubelet does */
	shares = (__int128)milli_cpu * CFS_SHARES_PER_CPU / CFS_MILLI_CPU_TO_CPU;
	if (shares < CFS_MIN_SHARES)
		return CFS_MIN_SHARES;
	if (shares > CFS_MAX_SHARES)
		return CFS_MAX_SHARES;
	return (uint64_t)shares;
}

int64_t cfs_milli_cpu_to_quota(int64_t milli_cpu, int64_t period)
{
	__int128 quota;

	if (milli_cpu == 0)
		return 0;
	quota = (__int128)milli_cpu * period / CFS_MILLI_CPU_TO_CPU;
	if (quota < CFS_MIN_QUOTA_PERIOD)
		return CFS_MIN_QUOTA_PERIOD;
	/* Go wraps around here; the kernel refuses such a quota either way */
	return quota > INT64_MAX ? INT64_MAX : (int64_t)quota;
}

int64_t cfs_shares_to_milli_cpu(uint64_t shares)
{
	if (shares <= CFS_MIN_SHARES)
		return 0;
	if (shares > CFS_MAX_SHARES)
		shares = CFS_MAX_SHARES;
	return (int64_t)((shares * CFS_MILLI_CPU_TO_CPU + CFS_SHARES_PER_CPU - 1) /
			 CFS_SHARES_PER_CPU);
}

int64_t cfs_quota_to_milli_cpu(int64_t quota, uint64_t period)
{
	if (quota <= 0 || !period)
		return 0;
	return (int64_t)((__int128)quota * CFS_MILLI_CPU_TO_CPU /
			 (__int128)period);
}

/*
 * runc's ConvertCPUSharesToCgroupV2Value() since opencontainers/cgroups
 * v0.0.5: the quadratic in log2(shares) through (2, 1), (1024, 100) and
 * (262144, 10000).  In doubles as Go computes it; glibc's log2() and
 * pow() give runc's result for every shares value in [3, 262143] (checked
 * against 50-digit arithmetic: only 1024 lies on a rounding edge, and
 * there log2() is exact).
 */
static uint64_t weight_quadratic(uint64_t shares)
{
	double l = log2((double)shares);
	double exponent = (l * l + 125 * l) / 612.0 - 7.0 / 34.0;

	return (uint64_t)ceil(pow(10, exponent));
}

uint64_t cfs_shares_to_weight(uint64_t shares, enum cfs_weight_conv conv)
{
	if (!shares)
		return 0;
	if (shares <= CFS_MIN_SHARES)
		return CFS_MIN_WEIGHT;
	if (shares >= CFS_MAX_SHARES)
		return CFS_MAX_WEIGHT;
	if (conv == CFS_WEIGHT_QUADRATIC)
		return weight_quadratic(shares);
	return 1 + ((shares - 2) * 9999) / 262142;
}

void cfs_options_default(struct cfs_options *o)
{
	memset(o, 0, sizeof(*o));
	o->cpu_cfs_quota = true;
	o->period = CFS_QUOTA_PERIOD;
	o->disable_quota_exclusive = true;
	o->weight_conv = CFS_WEIGHT_LINEAR;
}

static uint64_t period_of(const struct cfs_options *o)
{
	return o->period ? o->period : CFS_QUOTA_PERIOD;
}

static int64_t milli_of(__int128 nano)
{
	struct quantity q = { .nano = nano };

	return quantity_milli_value(&q);
}

void cfs_container_limits(const struct pod_container *c, bool exclusive,
			  const struct cfs_options *o, struct cfs_limits *out)
{
	int64_t limit = c->has_limit[RES_CPU] ?
			quantity_milli_value(&c->limit[RES_CPU]) : 0;
	int64_t request = c->has_request[RES_CPU] ?
			  quantity_milli_value(&c->request[RES_CPU]) : limit;

	memset(out, 0, sizeof(*out));
	out->shares = cfs_milli_cpu_to_shares(request);
	out->weight = cfs_shares_to_weight(out->shares, o->weight_conv);
	if (!o->cpu_cfs_quota)
		return;
	out->set_quota = true;
	out->period = period_of(o);
	out->quota = exclusive && o->disable_quota_exclusive ? -1 :
		     cfs_milli_cpu_to_quota(limit, (int64_t)out->period);
}

/*
 * PodRequests()/PodLimits() for the CPU, in nano-CPUs: the app containers
 * and sidecars run together; each init container runs with the sidecars
 * started before it; the pod needs the larger of the two.
 */
static __int128 pod_cpu(const struct pod *p, bool limits)
{
	__int128 apps = 0, sidecars = 0, init = 0;

	for (unsigned int i = 0; i < p->nr; i++) {
		const struct pod_container *c = &p->containers[i];
		bool has = limits ? c->has_limit[RES_CPU] :
				    c->has_request[RES_CPU];
		__int128 v = !has ? 0 : limits ? c->limit[RES_CPU].nano :
						  c->request[RES_CPU].nano;

		if (!c->init) {
			apps += v;
			continue;
		}
		if (c->restartable) {
			apps += v;
			sidecars += v;
			v = sidecars;
		} else {
			v += sidecars;
		}
		if (v > init)
			init = v;
	}
	return apps > init ? apps : init;
}

void cfs_pod_limits(const struct pod *p, bool has_exclusive,
		    const struct cfs_options *o, struct cfs_limits *out)
{
	enum pod_qos qos = pod_qos(p);
	bool declared = true, enforce;

	/* pod-level resources (KEP-2837): the pod's own, not its sum */
	if (pod_level_resources(p)) {
		cfs_pod_limits_resized(qos, p->has_pod_request[RES_CPU] ?
				       milli_of(p->pod_request[RES_CPU].nano) : 0,
				       p->has_pod_limit[RES_CPU] ?
				       milli_of(p->pod_limit[RES_CPU].nano) : 0,
				       has_exclusive, o, out);
		return;
	}
	memset(out, 0, sizeof(*out));
	if (qos == QOS_BEST_EFFORT) {
		out->shares = CFS_MIN_SHARES;
		out->weight = cfs_shares_to_weight(out->shares, o->weight_conv);
		return;
	}
	out->shares = cfs_milli_cpu_to_shares(milli_of(pod_cpu(p, false)));
	out->weight = cfs_shares_to_weight(out->shares, o->weight_conv);
	for (unsigned int i = 0; i < p->nr; i++)
		if (!p->containers[i].has_limit[RES_CPU] ||
		    !p->containers[i].limit[RES_CPU].nano)
			declared = false;
	if (qos == QOS_BURSTABLE && !declared)
		return;
	/* the pod cgroup gets "no quota" rather than no setting at all */
	enforce = o->cpu_cfs_quota &&
		  !(o->disable_quota_exclusive && has_exclusive);
	out->set_quota = true;
	out->period = period_of(o);
	out->quota = !enforce ? -1 :
		     cfs_milli_cpu_to_quota(milli_of(pod_cpu(p, true)),
					    (int64_t)out->period);
}

void cfs_pod_limits_resized(enum pod_qos qos, int64_t request_milli,
			    int64_t limit_milli, bool has_exclusive,
			    const struct cfs_options *o,
			    struct cfs_limits *out)
{
	bool enforce;

	memset(out, 0, sizeof(*out));
	out->shares = qos == QOS_BEST_EFFORT ? CFS_MIN_SHARES :
		      cfs_milli_cpu_to_shares(request_milli);
	out->weight = cfs_shares_to_weight(out->shares, o->weight_conv);
	/* no limit for the whole pod: no quota, as cfs_pod_limits() */
	if (qos == QOS_BEST_EFFORT ||
	    (qos == QOS_BURSTABLE && limit_milli <= 0))
		return;
	enforce = o->cpu_cfs_quota &&
		  !(o->disable_quota_exclusive && has_exclusive);
	out->set_quota = true;
	out->period = period_of(o);
	out->quota = !enforce || limit_milli <= 0 ? -1 :
		     cfs_milli_cpu_to_quota(limit_milli, (int64_t)out->period);
}
