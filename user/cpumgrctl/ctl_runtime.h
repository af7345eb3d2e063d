/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a container runtime's extension point does for one container, the
 * same whether an OCI hook (oci-hook) or an NRI plugin (nri) calls it:
 * add the container to its pod and bind it (the static policy decides,
 * or the kubelet did), or release it.
 */
#ifndef CPUMGRCTL_CTL_RUNTIME_H
#define CPUMGRCTL_CTL_RUNTIME_H

#include <stdbool.h>

#include "node.h"
#include "oci.h"

#define CTL_KUBELET_STATE	"/var/lib/kubelet/cpu_manager_state"

enum ctl_runtime_mode {
	CTL_MODE_DECIDE,	/* kubelet policy none: the static policy decides */
	CTL_MODE_GUARD,		/* kubelet policy static: its checkpoint decided */
};

struct ctl_runtime {
	enum ctl_runtime_mode mode;
	const char *kubelet_state;	/* guard: the kubelet's checkpoint */
};

/* The options of the runtime integrations (nri, oci-hook), in their tables. */
#define CTL_OPT_MODE \
	{ "mode", 'm', "MODE", CTL_WORD, "decide guard", "decide: the static policy allocates; guard: the kubelet's checkpoint decided" }
#define CTL_OPT_KUBELET_STATE \
	{ "kubelet-state", 0, "FILE", CTL_FILE, NULL, "the kubelet's cpu_manager_state (guard: its decisions; decide: the allocated_pods_state beside it names pods with pod-level resources; default " CTL_KUBELET_STATE ")" }

/* "decide" or "guard" into *mode; -EINVAL otherwise. */
int ctl_runtime_mode(const char *s, enum ctl_runtime_mode *mode);

/*
 * The cgroup of linux.cgroupsPath (a path or systemd's slice:prefix:name)
 * as an absolute directory below the cpuset hierarchy.
 */
int ctl_runtime_spec_cgroup(const struct node *n, const char *cgroups_path,
			    char *out, size_t len, struct cm_error *err);

/*
 * Add container c with cgroup (its pod cgroup is the parent), bind it,
 * give it its cpuset and CFS limits and the others the shared pool as it
 * now is.  create: make the cgroups first (NRI: before the runtime
 * does).  On failure nothing stays recorded and err says why.
 */
int ctl_runtime_add(struct node *n, const struct ctl_runtime *rt,
		    struct oci_container *c, const char *cgroup, bool create,
		    struct cm_error *err);

/*
 * Release a container (idempotent); a pod with no container left goes,
 * the others get the grown shared pool.
 */
int ctl_runtime_release(struct node *n, const char *pod_uid,
			const char *name, struct cm_error *err);

/*
 * Whether the node's record of pod_uid/name follows the runtime's
 * container instance whose linux.cgroupsPath is cgroups_path: the
 * runtime makes each instance's cgroup of its id, and the record keeps
 * the cgroup its last add attached.  After a restart in its pod the
 * record follows the instance that runs; an event for an earlier one
 * (the kubelet's garbage collection removing it) is none of the
 * record's.  True when either cgroup is unknown (no record, not
 * attached, no path): as by name.
 */
bool ctl_runtime_follows(struct node *n, const char *pod_uid,
			 const char *name, const char *cgroups_path);

/*
 * The runtime stopped a container (the NRI's StopContainer): it keeps
 * its CPUs while its pod lives, but an init container under
 * --init-cpus release (node_stop_container()).  One the node does not
 * know is released.
 */
int ctl_runtime_stop(struct node *n, const char *pod_uid, const char *name,
		     struct cm_error *err);

#endif
