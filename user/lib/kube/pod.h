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

/*
 * What a container asks to keep off its exclusive CPUs (pod_isolation.c):
 * CRI-O's high-performance annotations and cpumgr's own.
 */
enum pod_iso_what {
	POD_ISO_CPU_LB,		/* cpu-load-balancing: an isolated partition */
	POD_ISO_IRQ,		/* irq-load-balancing: device interrupts */
	POD_ISO_QUOTA,		/* cpu-quota: the CFS quota */
	POD_ISO_CSTATES,	/* cpu-c-states: idle states */
	POD_ISO_GOVERNOR,	/* cpu-freq-governor */
	POD_ISO_NR,
};

enum pod_irq_lb {
	POD_IRQ_ON,		/* interrupts may come (the default) */
	POD_IRQ_OFF,		/* "disable": none on its CPUs */
	/* "housekeeping": none but on its first CPU and its SMT siblings */
	POD_IRQ_HOUSEKEEPING,
};

#define POD_ISO_VALUE_MAX	32

struct pod_isolation {
	bool cpu_lb_off;		/* cpu-load-balancing "disable" */
	enum pod_irq_lb irq;
	bool quota_off;			/* cpu-quota "disable" */
	/* cpu-c-states: "" (untouched), "enable", "disable", "max_latency:N" */
	char cstates[POD_ISO_VALUE_MAX];
	char governor[POD_ISO_VALUE_MAX];	/* "" untouched */
	/* 1 << enum pod_iso_what: asked by a key naming the container */
	unsigned int by_container;
};

struct pod_container {
	char name[CONTAINER_NAME_MAX + 1];
	bool init;		/* in spec.initContainers */
	bool restartable;	/* init container with restartPolicy Always */
	bool has_request[RES_NR], has_limit[RES_NR];
	struct quantity request[RES_NR], limit[RES_NR];
	bool shared;		/* on the shared pool at the pod's request */
	struct pod_isolation iso;	/* what it asks to keep off its CPUs */
};

struct pod {
	char uid[POD_UID_MAX + 1];
	char *name, *ns;
	char *status_qos;	/* status.qosClass when the object has it */
	unsigned int nr_init;	/* containers[0 .. nr_init) are init containers */
	unsigned int nr;
	struct pod_container *containers;
	/* spec.resources: pod-level requests and limits (KEP-2837) */
	bool has_pod_request[RES_NR], has_pod_limit[RES_NR];
	struct quantity pod_request[RES_NR], pod_limit[RES_NR];
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
 * Pod-level resources (KEP-2837): spec.resources names cpu or memory.
 * Such a pod's QoS class is computed from them, its containers qualify
 * for exclusive CPUs only when their own cpu and memory requests equal
 * their limits (IsContainerEquivalentQOSGuaranteed()), and its CPU need
 * is its own integer CPU request, the size of its pod pool (KEP-5526).
 */
bool pod_level_resources(const struct pod *p);
int pod_level_cpus(const struct pod *p);

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

/*
 * Quiet CPUs on request (pod_isolation.c): a Guaranteed container's
 * exclusive CPUs kept free of other work, asked for by pod annotations,
 * CRI-O's (so that pods written for OpenShift run unchanged):
 *
 *   cpu-load-balancing.crio.io[/<name>]: "disable"
 *   irq-load-balancing.crio.io[/<name>]: "disable" | "housekeeping"
 *   cpu-quota.crio.io[/<name>]:          "disable"
 *   cpu-c-states.crio.io[/<name>]:       "enable" | "disable" | "max_latency:<us>"
 *   cpu-freq-governor.crio.io[/<name>]:  "<governor>"
 *
 * (CRI-O's deprecated "true" is "disable"; "enable" keeps the default)
 * and cpumgr's, in the key shape of prefer-shared-cpus.cpumgr.io:
 *
 *   cpu-load-balancing.cpumgr.io/pod | /container.<name>, and so on
 *   for irq-load-balancing, cpu-quota, cpu-c-states, cpu-freq-governor
 *
 * with the same values.  A key naming the container wins over the pod's;
 * CRI-O's and cpumgr's keys of one level must agree.  Any other key
 * under cpumgr's prefixes, any other value, a name that is no container
 * name, and (where the whole pod is known) a container the pod lacks are
 * errors.  CRI-O reads the /<name> suffix of the first three alone;
 * cpumgr reads it on all five.
 */
struct pod_isolation_key {
	enum pod_iso_what what;
	bool crio;				/* a crio.io key */
	bool pod;				/* the pod's key */
	char container[CONTAINER_NAME_MAX + 1];	/* else this one's */
	char value[POD_ISO_VALUE_MAX];		/* as normalised: "disable"... */
};

/*
 * One annotation: 0 when the key is none of these, 1 with *k filled,
 * -EINVAL with the reason when it is one and bad.
 */
int pod_isolation_key(const char *key, const char *value,
		      struct pod_isolation_key *k, struct cm_error *err);
/* The annotation's key of k again, as cpumgr or CRI-O spells it. */
void pod_isolation_key_name(const struct pod_isolation_key *k, char *buf,
			    size_t len);
/* Room for the keys that can concern one container: 4 of each. */
#define POD_ISO_KEYS_MAX	(4 * POD_ISO_NR)
/*
 * What container name asks for, from keys parsed by pod_isolation_key()
 * (those of other containers are skipped); -EINVAL when CRI-O's and
 * cpumgr's keys of one level disagree.
 */
int pod_isolation_resolve(const struct pod_isolation_key *keys, size_t n,
			  const char *name, struct pod_isolation *out,
			  struct cm_error *err);
/*
 * metadata.annotations (NULL: none) onto the pod's containers' iso;
 * every container named must be the pod's.
 */
int pod_isolation_apply(struct pod *p, const cJSON *annotations,
			struct cm_error *err);
/*
 * The keys of the pod and of container name among keys, recorded in a
 * Pod object's annotations, those of the pod and of name there before
 * removed (the runtime paths record a pod one container at a time).
 */
int pod_isolation_record(cJSON *obj, const char *name,
			 const struct pod_isolation_key *keys, size_t n);
/* Whether it asks for anything. */
bool pod_isolation_any(const struct pod_isolation *iso);
/* "cpu-load-balancing=disable,irq-load-balancing=housekeeping,..." or "none". */
void pod_isolation_describe(const struct pod_isolation *iso, char *buf,
			    size_t len);
/* The annotation names of what ("cpu-load-balancing", ...). */
const char *pod_isolation_name(enum pod_iso_what what);

#endif
