/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU assignments (the kubelet's CPU manager state): the shared
 * (default) CPU set and the exclusive assignments pod UID -> container
 * -> CPUs, like the kubelet's state.State and its cpu_manager_state
 * checkpoint.  A value: copy it with assignments_copy() to snapshot it.  Entries stay sorted by (pod UID,
 * container) so walks are deterministic.
 *
 * Beside the containers' CPUs, the kubelet's state of 1.36 and later has
 * two pod-level maps, kept here as its checkpoint holds them:
 *   pods       podEntries (KEP-5526): pod UID -> the pod's CPU pool, out
 *              of the shared pool; the exclusive slices of its containers
 *              are entries within it, its other containers share the rest
 *   baselines  (KEP-5554): pod UID -> container -> the CPUs the container
 *              was first admitted with, as the text the kubelet wrote
 *              (its checkpoint keeps them as strings and reads them only
 *              under a feature gate, so a value is kept, not judged)
 * Both sorted by their keys too.
 */
#ifndef CPUMGR_ASSIGNMENTS_H
#define CPUMGR_ASSIGNMENTS_H

#include "cpuset.h"
#include "pod.h"

struct assignment_entry {
	char pod_uid[POD_UID_MAX + 1];
	char container[CONTAINER_NAME_MAX + 1];
	struct cpuset cpus;
};

struct pod_cpus {
	char pod_uid[POD_UID_MAX + 1];
	struct cpuset cpus;
};

struct cpu_baseline {
	char pod_uid[POD_UID_MAX + 1];
	char container[CONTAINER_NAME_MAX + 1];
	char *cpus;			/* malloc'd, as written */
};

struct cpu_assignments {
	struct cpuset default_set;
	struct assignment_entry *entries;
	unsigned int nr, cap;
	struct pod_cpus *pods;
	unsigned int nr_pods, cap_pods;
	struct cpu_baseline *baselines;
	unsigned int nr_baselines, cap_baselines;
};

void assignments_init(struct cpu_assignments *s);
void assignments_free(struct cpu_assignments *s);
/* Deep copy; dst must be initialised (its old contents are freed). */
int assignments_copy(struct cpu_assignments *dst,
		     const struct cpu_assignments *src);

const struct cpuset *assignments_get(const struct cpu_assignments *s,
				     const char *pod_uid,
				     const char *container);
/* Add or replace an assignment; -ENAMETOOLONG, -ENOMEM on failure. */
int assignments_set(struct cpu_assignments *s, const char *pod_uid,
		    const char *container, const struct cpuset *cpus);
void assignments_delete(struct cpu_assignments *s, const char *pod_uid,
			const char *container);
/* Union of the pod's assignments except one container (NULL: none). */
void assignments_pod_cpus(const struct cpu_assignments *s, const char *pod_uid,
			  const char *except, struct cpuset *out);

/* ---- pod-level (assignments_pod.c) ---- */

/* The pod's pool (podEntries), NULL if it has none. */
const struct cpuset *assignments_get_pool(const struct cpu_assignments *s,
					  const char *pod_uid);
/* Add or replace; -ENAMETOOLONG, -ENOMEM. */
int assignments_set_pool(struct cpu_assignments *s, const char *pod_uid,
			 const struct cpuset *cpus);
void assignments_delete_pool(struct cpu_assignments *s, const char *pod_uid);
/* Every pod pool's CPUs together. */
void assignments_pools_union(const struct cpu_assignments *s,
			     struct cpuset *out);

/* The container's baseline text, NULL if it has none. */
const char *assignments_get_baseline(const struct cpu_assignments *s,
				     const char *pod_uid,
				     const char *container);
/* Add or replace (cpus: len bytes, no NUL among them). */
int assignments_set_baseline(struct cpu_assignments *s, const char *pod_uid,
			     const char *container, const char *cpus,
			     size_t len);
void assignments_delete_baseline(struct cpu_assignments *s,
				 const char *pod_uid, const char *container);

/* Deep copies of the pod-level maps alone (dst's are replaced). */
int assignments_copy_pod_level(struct cpu_assignments *dst,
			       const struct cpu_assignments *src);
void assignments_free_pod_level(struct cpu_assignments *s);

#endif
