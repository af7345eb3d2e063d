/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kubelet's CPU manager policies (pkg/kubelet/cm/cpumanager/
 * policy_static.go, policy_none.go) on an in-memory state: reservation,
 * start-up state validation, Allocate, RemoveContainer, init-container CPU
 * reuse, topology hints.  No I/O and no global state: the same engine runs
 * offline (cpumgrctl plan) and against the kernel's table.
 */
#ifndef CPUMGR_POLICY_STATIC_H
#define CPUMGR_POLICY_STATIC_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc.h"
#include "cpuset.h"
#include "error.h"
#include "options.h"
#include "pod.h"
#include "assignments.h"
#include "topology.h"

enum cpu_policy_kind { CPU_POLICY_NONE, CPU_POLICY_STATIC };

/* the first kubelet whose hint's NUMA count is a floor (#139456) */
#define KUBELET_MINOR_NUMA_FLOOR	37

struct policy_config {
	enum cpu_policy_kind kind;
	struct policy_options opts;
	enum tm_policy tm;
	/* ceil(kube-reserved + system-reserved cpu) */
	int num_reserved;
	/* reservedSystemCPUs, when given (then num_reserved must match) */
	bool has_reserved_cpus;
	struct cpuset reserved_cpus;
	/*
	 * Answer as kubelet 1.<kubelet_minor> does (kubelet_version.h);
	 * 0: cpumgr's own rules, the newest kubelet's and one more: with
	 * strict-cpu-reservation no allocation empties the shared pool
	 */
	int kubelet_minor;
	/*
	 * PodLevelResourceManagers (KEP-5526; the kubelet's checkpoint is
	 * v3 or v4 exactly when it is on): a pod with pod-level resources
	 * gets a pod pool.  Off, the kubelet leaves such a pod's
	 * containers on the shared pool.
	 */
	bool pod_level;
};

struct cpu_policy {
	enum cpu_policy_kind kind;
	const struct topology *topo;
	struct policy_options opts;
	enum tm_policy tm;
	struct cpuset reserved;
	/* every CPU of a core holding a reserved CPU */
	struct cpuset reserved_physical;
	int cpu_group_size;
	int kubelet_minor;	/* policy_config's */
	bool pod_level;		/* policy_config's */
	/* cpusToReuse: init container CPUs a later container may take */
	char reuse_pod[POD_UID_MAX + 1];
	struct cpuset reuse;
	struct alloc_ws *ws;	/* scratch only, no state */
};

/* A topology hint: NUMA affinity (bit = NUMA id; 0 = any) and preference. */
struct topo_hint {
	uint64_t numa;
	bool preferred;
};

struct hint_list {
	bool no_preference;	/* the kubelet returns no hints at all */
	unsigned int nr;
	struct topo_hint *hints;
};

int cpu_policy_parse_kind(const char *name, enum cpu_policy_kind *out,
			  struct cm_error *err);
const char *cpu_policy_name(enum cpu_policy_kind kind);

/*
 * The CPU manager's own check before it builds a policy (NewManager): the
 * static policy needs a CPU reservation above zero.
 */
int cpu_policy_check_config(const struct policy_config *cfg,
			    struct cm_error *err);
/* NewStaticPolicy() / NewNonePolicy(): options, reservation. */
int cpu_policy_init(struct cpu_policy *p, const struct topology *t,
		    const struct policy_config *cfg, struct cm_error *err);
void cpu_policy_destroy(struct cpu_policy *p);

/* Start(): validate a restored state, or initialise an empty one. */
int cpu_policy_start(const struct cpu_policy *p, struct cpu_assignments *s,
		     struct cm_error *err);

/*
 * The CPUs later containers of pod uid may reuse, as the kubelet keeps
 * them while it admits the pod (its init containers' CPUs): for a
 * caller that allocates one container at a time, in another process.
 */
void cpu_policy_set_reuse(struct cpu_policy *p, const char *uid,
			  const struct cpuset *cpus);

/*
 * Allocate() for one container.  affinity: the topology manager's NUMA
 * affinity (NULL: none).  On error nothing changes.
 */
int cpu_policy_allocate(struct cpu_policy *p, struct cpu_assignments *s,
			const struct pod *pod, const struct pod_container *c,
			const uint64_t *affinity, struct cm_error *err);
/*
 * AllocatePod() (policy_pod.c), for a pod with pod-level resources
 * under pod_level: its pool out of the shared pool, aligned to affinity
 * (NULL: none), the exclusive slices of its qualifying containers within
 * it and the rest of it for the others, every container an entry.  A
 * pod that gets no pool changes nothing.  On error nothing changes.
 */
int cpu_policy_allocate_pod(struct cpu_policy *p, struct cpu_assignments *s,
			    const struct pod *pod, const uint64_t *affinity,
			    struct cm_error *err);
/* RemoveContainer(): CPUs still used by a sibling stay taken; a pod
 * pool goes back to the shared pool with the pod's last entry. */
void cpu_policy_remove(struct cpu_policy *p, struct cpu_assignments *s,
		       const char *pod_uid, const char *container);
/* Every container of the pod (init first), all or nothing. */
int cpu_policy_add_pod(struct cpu_policy *p, struct cpu_assignments *s,
		       const struct pod *pod, const uint64_t *affinity,
		       struct cm_error *err);
/*
 * The topology manager's admission for one container (container scope,
 * the CPU manager as the only hint provider): the affinity to allocate
 * with (*has_affinity false: none), or the kubelet's
 * "Resources cannot be allocated with Topology locality" error.
 */
int cpu_policy_admit(const struct cpu_policy *p,
		     const struct cpu_assignments *s,
		     const struct pod *pod, const struct pod_container *c,
		     uint64_t *affinity, bool *has_affinity,
		     struct cm_error *err);

/* The same for a pod pool (pod scope: the pod's hints, KEP-5526). */
int cpu_policy_admit_pod(const struct cpu_policy *p,
			 const struct cpu_assignments *s,
			 const struct pod *pod, uint64_t *affinity,
			 bool *has_affinity, struct cm_error *err);

/* The policy's takeByTopology(): num CPUs of avail, the options pick how. */
int cpu_policy_take(const struct cpu_policy *p, const struct cpuset *avail,
		    int num, struct cpuset *out, struct cm_error *err);
/* GetAvailableCPUs(): shared pool minus reserved. */
void cpu_policy_available(const struct cpu_policy *p,
			  const struct cpu_assignments *s, struct cpuset *out);
/* GetAllocatableCPUs(): every CPU minus reserved. */
void cpu_policy_allocatable(const struct cpu_policy *p, struct cpuset *out);

/* GetTopologyHints() / GetPodTopologyHints() for the "cpu" resource. */
int cpu_policy_container_hints(const struct cpu_policy *p,
			       const struct cpu_assignments *s, const struct pod *pod,
			       const struct pod_container *c,
			       struct hint_list *out, struct cm_error *err);
int cpu_policy_pod_hints(const struct cpu_policy *p,
			 const struct cpu_assignments *s,
			 const struct pod *pod, struct hint_list *out,
			 struct cm_error *err);
void hint_list_free(struct hint_list *l);

/*
 * The topology manager's merge of one provider's hints under a policy:
 * the best hint (numa 0 = no affinity) and whether the pod is admitted.
 */
void topology_manager_merge(const struct topology *t, enum tm_policy tm,
			    const struct hint_list *hints,
			    struct topo_hint *best, bool *admit);

#endif
