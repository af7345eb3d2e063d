/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the NRI tells of a container or a pod sandbox, as the OCI hook's
 * struct oci_container (oci.h): the same identification (the CRI's
 * annotations, else the NRI's pod UID and container name), the same
 * inversion of the kubelet's formulas (linux.resources.cpu shares,
 * quota, period), the cpuset the kubelet asked for (cpus) and the cgroup
 * (linux.cgroups_path).
 */
#ifndef CPUMGR_NRI_SPEC_H
#define CPUMGR_NRI_SPEC_H

#include "nri.pb-c.h"
#include "error.h"
#include "oci.h"

typedef Nri__Pkg__Api__V1alpha1__PodSandbox NriPod;
typedef Nri__Pkg__Api__V1alpha1__Container NriContainer;
typedef Nri__Pkg__Api__V1alpha1__LinuxResources NriResources;

/* A container being created or one the runtime already runs. */
int nri_spec_container(const NriPod *pod, const NriContainer *ctr,
		       struct oci_container *c, struct cm_error *err);
/*
 * c->shared from the pod's prefer-shared-cpus.cpumgr.io annotations
 * (pod.h), the container's key winning over the pod's.  A bad key or
 * value is an error; a name that is no container of the pod is not
 * seen here: the runtime tells the pod's containers one at a time.
 */
int nri_spec_shared_cpus(const NriPod *pod, struct oci_container *c,
			 struct cm_error *err);
/*
 * c->iso_keys from the pod's isolation annotations (pod.h) that concern
 * it (the pod's and those naming it), replacing the container's own; a
 * bad key or value, or CRI-O's and cpumgr's keys disagreeing, is an
 * error.
 */
int nri_spec_isolation(const NriPod *pod, struct oci_container *c,
		       struct cm_error *err);
/*
 * An in-place resize (UpdateContainer): the whole number of CPUs the new
 * resources ask for (the kubelet's quota, or its shares when quota is
 * off), when it differs from what ctr runs with; 0 when the update is
 * no such resize (same count, a fraction, none given).
 */
int nri_spec_resize_cpus(const NriPod *pod, const NriContainer *ctr,
			 NriResources *want);
/*
 * The CPU request and limit (millicores, 0: none) of linux resources as
 * the kubelet's formulas give them (shares, quota over period): a pod's
 * in UpdatePodSandbox.
 */
void nri_spec_cpu_milli(const NriResources *r, int64_t *request_milli,
			int64_t *limit_milli);
/*
 * A pod's sandbox (pause) container, recorded as OCI_SANDBOX_NAME; its
 * cgroup is the pod's linux.cgroups_path, "" when the runtime gave none.
 */
int nri_spec_sandbox(const NriPod *pod, struct oci_container *c,
		     struct cm_error *err);

#endif
