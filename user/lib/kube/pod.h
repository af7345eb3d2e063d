/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pods as the CPU manager sees them: read from a Kubernetes Pod object
 * (kubectl get pod -o json), with the API server's defaulting (requests
 * default to limits) and the QoS class computed as Kubernetes computes it
 * (pkg/apis/core/v1/helper/qos).
 */
#ifndef CPUMGR_POD_H
#define CPUMGR_POD_H

#include <stdbool.h>

#include <cJSON.h>

#include "error.h"
#include "quantity.h"

#define POD_UID_MAX		64	/* bytes, without the NUL */
#define CONTAINER_NAME_MAX	63	/* a DNS label */

enum pod_resource { RES_CPU, RES_MEMORY, RES_NR };

enum pod_qos { QOS_GUARANTEED, QOS_BURSTABLE, QOS_BEST_EFFORT };

struct pod_container {
	char name[CONTAINER_NAME_MAX + 1];
	bool init;		/* in spec.initContainers */
	bool restartable;	/* init container with restartPolicy Always */
	bool has_request[RES_NR], has_limit[RES_NR];
	struct quantity request[RES_NR], limit[RES_NR];
};

struct pod {
	char uid[POD_UID_MAX + 1];
	char *name, *ns;
	char *status_qos;	/* status.qosClass when the object has it */
	unsigned int nr_init;	/* containers[0 .. nr_init) are init containers */
	unsigned int nr;
	struct pod_container *containers;
};

/* Read a Pod object; refuses bad quantities and names with one message. */
int pod_from_json(const cJSON *obj, struct pod *p, struct cm_error *err);
void pod_free(struct pod *p);

/* GetPodQOS(): status.qosClass if set, else ComputePodQOS(). */
enum pod_qos pod_qos(const struct pod *p);
const char *pod_qos_name(enum pod_qos q);

const struct pod_container *pod_container(const struct pod *p,
					  const char *name);

/*
 * The static policy's guaranteedCPUs(): the container's integer CPU
 * request if the pod is Guaranteed, else 0.
 */
int pod_guaranteed_cpus(const struct pod *p, const struct pod_container *c);
/* podGuaranteedCPUs(): the pod's CPU need with init/sidecar rules. */
int pod_guaranteed_cpus_total(const struct pod *p);

#endif
