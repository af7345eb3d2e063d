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
	bool shared;		/* on the shared pool at the pod's request */
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
/* A container name: an RFC 1123 label of at most 63 bytes. */
bool pod_name_valid(const char *s);

/*
 * The static policy's guaranteedCPUs(): the container's integer CPU
 * request if the pod is Guaranteed, else 0; 0 too for a container its
 * pod puts on the shared pool (pod_shared.c).
 */
int pod_guaranteed_cpus(const struct pod *p, const struct pod_container *c);
/* podGuaranteedCPUs(): the pod's CPU need with init/sidecar rules. */
int pod_guaranteed_cpus_total(const struct pod *p);

/*
 * Shared CPUs on request (kubernetes#123530): pod annotations put
 * containers that would get exclusive CPUs on the shared pool, in the
 * key shape of nri-plugins' prefer-shared-cpus annotations:
 *
 *   prefer-shared-cpus.cpumgr.io/container.<name>: "true" | "false"
 *   prefer-shared-cpus.cpumgr.io/pod: "true" | "false"
 *
 * the container's key winning over the pod's.  Any other key under the
 * prefix, any other value, a name that is no container name, and (where
 * the whole pod is known) a name that is no container of the pod are
 * errors.
 */
#define POD_SHARED_CPUS_PREFIX	"prefer-shared-cpus.cpumgr.io/"

struct pod_shared_key {
	bool pod;				/* the "/pod" key */
	char container[CONTAINER_NAME_MAX + 1];	/* else this one's */
	bool on;
};

/*
 * One annotation: 0 when the key is not ours, 1 with *k filled, -EINVAL
 * with the reason when it is ours and bad.
 */
int pod_shared_key(const char *key, const char *value,
		   struct pod_shared_key *k, struct cm_error *err);
/*
 * metadata.annotations (NULL: none) onto the pod's containers' shared
 * flags; every container must be the pod's.
 */
int pod_shared_apply(struct pod *p, const cJSON *annotations,
		     struct cm_error *err);
/* The annotation that records a container's request, in a Pod object. */
int pod_shared_record(cJSON *obj, const char *name, bool shared);

#endif
