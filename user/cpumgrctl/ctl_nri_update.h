/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl nri: the table of the runtime's containers the plugin
 * manages (ctl_nri.known) and the ContainerUpdates built from it: one
 * for each container whose CPUs (its own, or the shared pool) are no
 * longer the cpuset last told to the runtime.
 */
#ifndef CPUMGRCTL_CTL_NRI_UPDATE_H
#define CPUMGRCTL_CTL_NRI_UPDATE_H

#include "nri.pb-c.h"
#include "ctl_nri.h"
#include "node.h"

/* linux.resources with cpu.cpus (and no quota), storage included */
struct ctl_nri_cpu {
	Nri__Pkg__Api__V1alpha1__LinuxResources res;
	Nri__Pkg__Api__V1alpha1__LinuxCPU cpu;
	Nri__Pkg__Api__V1alpha1__OptionalInt64 quota;
	char cpus[256];
};

struct ctl_nri_update {
	Nri__Pkg__Api__V1alpha1__ContainerUpdate u;
	Nri__Pkg__Api__V1alpha1__LinuxContainerUpdate l;
	struct ctl_nri_cpu r;
};

struct ctl_nri_updates {
	struct ctl_nri_update *v;
	Nri__Pkg__Api__V1alpha1__ContainerUpdate **ptrs;	/* for messages */
	size_t nr;
};

struct ctl_nri_known *ctl_nri_find(struct ctl_nri *p, const char *id);
/* Remember (or refresh) a managed container; told: its cpuset now. */
int ctl_nri_remember(struct ctl_nri *p, const struct oci_container *c,
		     const char *told);
void ctl_nri_forget_id(struct ctl_nri *p, const char *id);

/* The cpulist an attached container runs on; -ENOENT when none. */
int ctl_nri_cpus_of(struct node *n, const char *pod_uid, const char *name,
		    char *out, size_t len);
void ctl_nri_cpu_resources(struct ctl_nri_cpu *r, const char *cpus);
/* And no CFS quota (-1, which runc writes as "max"): cpu-quota "disable". */
void ctl_nri_cpu_no_quota(struct ctl_nri_cpu *r);

/*
 * An update for every remembered container but skip_id whose cpuset
 * changed since it was told (and remember it as told).
 */
int ctl_nri_updates(struct ctl_nri *p, struct node *n, const char *skip_id,
		    struct ctl_nri_updates *set);
/*
 * The same after a change to pod pod_uid alone: while the shared pool
 * is the one last told, no container of another pod can have moved,
 * and only the pod's are looked at.
 */
int ctl_nri_updates_pod(struct ctl_nri *p, struct node *n,
			const char *skip_id, const char *pod_uid,
			struct ctl_nri_updates *set);
void ctl_nri_updates_free(struct ctl_nri_updates *set);

#endif
