/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OCI runtime hooks: what cpumgrctl oci-hook reads from the runtime.
 *
 * - The state on stdin (runtime-spec runtime.md "State"): ociVersion,
 *   id, status, pid, bundle, annotations.
 * - The bundle's config.json: annotations (when the state has none),
 *   linux.cgroupsPath, linux.resources.cpu (shares, quota, period,
 *   cpus).
 * - Who the container is, from the annotations of whoever started it:
 *     containerd's CRI plugin  io.kubernetes.cri.sandbox-uid,
 *                              io.kubernetes.cri.container-name,
 *                              io.kubernetes.cri.container-type
 *                              (sandbox | container)
 *     CRI-O                    io.kubernetes.pod.uid,
 *                              io.kubernetes.container.name,
 *                              io.kubernetes.cri-o.ContainerType
 *                              (sandbox | container)
 *     cpumgr (plain runtimes)  io.cpumgr.pod-uid, io.cpumgr.container-name,
 *                              io.cpumgr.qos (optional: Guaranteed,
 *                              Burstable, BestEffort)
 *   The first set that names a pod UID wins, in that order.
 * - Requests and limits: the kubelet's formulas inverted (cfs.h).
 * - The cgroup: the 0:: line of /proc/<pid>/cgroup, else cgroupsPath
 *   (cgroupfs "/kubepods/pod<UID>/<ctr>" or systemd
 *   "slice:prefix:name"); the pod cgroup is its parent.  Both kubelet
 *   drivers put the container right below the pod:
 *     cgroupfs  kubepods/[burstable/|besteffort/]pod<UID>/<ctr>
 *     systemd   kubepods.slice/[kubepods-<qos>.slice/]
 *               kubepods[-<qos>]-pod<UID>.slice/<cri-containerd|crio>-<ID>.scope
 * - The QoS class: io.cpumgr.qos, else a "burstable"/"besteffort"
 *   component of the pod cgroup's path (kubepods-burstable.slice,
 *   kubepods-besteffort.slice for systemd), else Guaranteed.
 */
#ifndef CPUMGR_OCI_H
#define CPUMGR_OCI_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <cJSON.h>

#include "cpuset.h"
#include "error.h"
#include "pod.h"

#define OCI_ID_MAX		128
/* Kubernetes' limits: a DNS subdomain, a DNS label */
#define OCI_POD_NAME_MAX	253
#define OCI_POD_NAMESPACE_MAX	63
/* The name a pod's sandbox (pause) container is recorded under. */
#define OCI_SANDBOX_NAME	"pod-sandbox"

enum oci_kind {
	OCI_UNMANAGED,		/* no annotation we know: leave it alone */
	OCI_CONTAINER, OCI_SANDBOX,		/* always on the shared pool */
};

struct oci_container {
	char id[OCI_ID_MAX + 1];
	char status[32];
	int pid;			/* 0: none (poststop) */
	char bundle[PATH_MAX];

	enum oci_kind kind;
	const char *source;		/* "containerd", "cri-o", "cpumgr" */
	char pod_uid[POD_UID_MAX + 1];
	/* for people (status): empty when unknown or over the limit */
	char pod_name[OCI_POD_NAME_MAX + 1];
	char pod_namespace[OCI_POD_NAMESPACE_MAX + 1];
	char name[CONTAINER_NAME_MAX + 1];
	bool has_qos;			/* io.cpumgr.qos */
	enum pod_qos qos;

	int64_t request_milli;		/* 0: none */
	int64_t limit_milli;		/* 0: none */
	bool has_cpus;			/* linux.resources.cpu.cpus */
	struct cpuset cpus;
	bool shared;			/* its pod puts it on the shared pool */
	/* the isolation annotations of its pod and of it (pod.h) */
	struct pod_isolation_key iso_keys[POD_ISO_KEYS_MAX];
	size_t nr_iso_keys;
	char cgroups_path[PATH_MAX];	/* linux.cgroupsPath, as given */
};

/* The state on stdin; annotations identify the container. */
int oci_parse_state(const char *text, struct oci_container *c,
		    struct cm_error *err);
/*
 * The bundle's config.json: resources and cgroupsPath, and the
 * annotations when the state had none that identify the container.
 */
int oci_parse_config(const cJSON *config, struct oci_container *c,
		     struct cm_error *err);

/*
 * One annotation into c->iso_keys when it is an isolation key of the pod
 * or of c (pod.h): 1 kept, 0 not one of those, -EINVAL bad (err says
 * why), -E2BIG more than one container can have.
 */
int oci_isolation_key(struct oci_container *c, const char *key,
		      const char *value, struct cm_error *err);
/* What c's kept keys ask agree (CRI-O's and cpumgr's of one level). */
int oci_isolation_check(const struct oci_container *c, struct cm_error *err);

/*
 * The cgroup v2 path ("/kubepods/p1/c1") of the "0::" line of a
 * /proc/PID/cgroup text; -ENOENT without one.
 */
int oci_proc_cgroup(const char *text, char *out, size_t len);
/*
 * linux.cgroupsPath as a path below the cgroup mount: a cgroupfs path
 * as it is, a systemd "slice:prefix:name" expanded the way runc's and
 * crun's systemd drivers name it ("a-b.slice" lies in "a.slice").
 */
int oci_cgroups_path(const char *given, char *out, size_t len,
		     struct cm_error *err);
/* Copy src into dst[len]; "<what> ... is too long" when it does not fit. */
int oci_copy(char *dst, size_t len, const char *src, const char *what,
	     struct cm_error *err);
/* The pod's name and namespace, each kept only when known and in bounds. */
void oci_set_pod_name(struct oci_container *c, const char *name,
		      const char *ns);
/* The parent of a cgroup path; -EINVAL for the root. */
int oci_parent(const char *path, char *out, size_t len);
/* The QoS class the kubelet's cgroup layout gives a pod cgroup path. */
enum pod_qos oci_qos_of_path(const char *pod_cgroup);

/*
 * A Pod object holding the one container c describes (requests and
 * limits as millicores, status.qosClass from qos, its shared request as
 * its prefer-shared-cpus annotation, its pod's and its own isolation
 * annotations), or, when pod is a Pod object
 * already recorded, a copy of it with the container added or replaced.
 * NULL on allocation failure.
 */
cJSON *oci_pod_object(const cJSON *pod, const struct oci_container *c,
		      enum pod_qos qos);

#endif
