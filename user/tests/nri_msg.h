/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An NRI container message's linux part as containerd fills it for the
 * kubelet's container (tests and bench_nri): its cgroups path and
 * linux.resources.cpu from the request and limit, by the kubelet's
 * formulas (1024 shares and 100000 us of quota a CPU); and the CRI's
 * annotations that name it.
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

/* The CRI's annotations containerd gives a container: who it is. */
struct nri_msg_cri {
	Nri__Pkg__Api__V1alpha1__Container__AnnotationsEntry a[3], *ap[3];
};

/* ctr->annotations as m: container type, pod UID, container name. */
static inline void nri_msg_cri(struct nri_msg_cri *m,
			       Nri__Pkg__Api__V1alpha1__Container *ctr,
			       const char *uid, const char *name)
{
	static const char *const keys[3] = {
		"io.kubernetes.cri.container-type",
		"io.kubernetes.cri.sandbox-uid",
		"io.kubernetes.cri.container-name",
	};
	const char *values[3] = { "container", uid, name };

	for (int i = 0; i < 3; i++) {
		nri__pkg__api__v1alpha1__container__annotations_entry__init(&m->a[i]);
		m->a[i].key = (char *)keys[i];
		m->a[i].value = (char *)values[i];
		m->ap[i] = &m->a[i];
	}
	ctr->n_annotations = 3;
	ctr->annotations = m->ap;
}

#endif
