/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kubelet's allocation checkpoint, allocated_pods_state beside its
 * cpu_manager_state (pkg/kubelet/allocation): the resources each pod
 * was admitted with, written at admission, before the pod's sandbox is
 * made.  It is how a runtime plugin deciding in the kubelet's place
 * tells a pod with pod-level resources (KEP-2837), which the CRI does
 * not: the kubelet fills a sandbox's resources alike with or without
 * them.
 *
 *   {"data": "<JSON>", "checksum": N}, N = checksum.New(data)
 *   data: {"entries": {UID: {"ContainerResources": {name: requirements},
 *                            "PodLevelResources": requirements or null}}}
 *
 * A "version": "v2" file (the kubelet after 1.37) keeps these entries
 * for older kubelets beside its protobuf PodList, with the pod-level
 * resources and every container.  The entries do not say a container's
 * kind: init containers, when listed, look like app containers.
 */
#ifndef CPUMGR_ALLOCATED_PODS_H
#define CPUMGR_ALLOCATED_PODS_H

#include <cJSON.h>

#include "error.h"

#define ALLOCATED_PODS_FILE	"allocated_pods_state"

/*
 * The Pod spec the kubelet admitted pod uid with, when it has pod-level
 * resources: {"resources": ..., "containers": [{"name", "resources"}]},
 * its containers by name, as the kubelet migrating the file orders them.
 * 0 and *spec NULL: no file, the pod not in it, or no pod-level
 * resources.  -EINVAL with err ("PATH: checkpoint is corrupted") for a
 * file the kubelet would not load, -ENOMEM.
 */
int allocated_pod_spec(const char *path, const char *uid, cJSON **spec,
		       struct cm_error *err);

#endif
