/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An NRI container message's linux part as containerd fills it for the
 * kubelet's container (tests and bench_nri): its cgroups path and
 * linux.resources.cpu from the request and limit, by the kubelet's
 * formulas (1024 shares and 100000 us of quota a CPU).
 */
#ifndef CPUMGR_TESTS_NRI_MSG_H
#define CPUMGR_TESTS_NRI_MSG_H

#include <stdint.h>

#include "nri.pb-c.h"

struct nri_msg_linux {
	Nri__Pkg__Api__V1alpha1__LinuxContainer lnx;
	Nri__Pkg__Api__V1alpha1__LinuxResources res;
	Nri__Pkg__Api__V1alpha1__LinuxCPU cpu;
	Nri__Pkg__Api__V1alpha1__OptionalUInt64 shares, period;
	Nri__Pkg__Api__V1alpha1__OptionalInt64 quota;
};

/* ctr->linux as m, m filled; request and limit in millicores. */
static inline void nri_msg_linux(struct nri_msg_linux *m,
				 Nri__Pkg__Api__V1alpha1__Container *ctr,
				 const char *cgroups_path,
				 int64_t request_milli, int64_t limit_milli)
{
	*m = (struct nri_msg_linux){
		.lnx = NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER__INIT,
		.res = NRI__PKG__API__V1ALPHA1__LINUX_RESOURCES__INIT,
		.cpu = NRI__PKG__API__V1ALPHA1__LINUX_CPU__INIT,
		.shares = NRI__PKG__API__V1ALPHA1__OPTIONAL_UINT64__INIT,
		.period = NRI__PKG__API__V1ALPHA1__OPTIONAL_UINT64__INIT,
		.quota = NRI__PKG__API__V1ALPHA1__OPTIONAL_INT64__INIT,
	};
	m->lnx.cgroups_path = (char *)cgroups_path;
	m->lnx.resources = &m->res;
	m->res.cpu = &m->cpu;
	m->cpu.shares = &m->shares;
	m->cpu.quota = &m->quota;
	m->cpu.period = &m->period;
	m->shares.value = (uint64_t)request_milli * 1024 / 1000;
	m->quota.value = limit_milli * 100;
	m->period.value = 100000;
	ctr->linux = &m->lnx;
}

#endif
