/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU assignments (the kubelet's CPU manager state): the shared
 * (default) CPU set and the exclusive assignments pod UID -> container
 * -> CPUs, like the kubelet's state.State and its cpu_manager_state
 * checkpoint.  A value: copy it with assignments_copy() to snapshot it.  Entries stay sorted by (pod UID,
 * container) so walks are deterministic.
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

struct cpu_assignments {
	struct cpuset default_set;
	struct assignment_entry *entries;
	unsigned int nr, cap;
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

#endif
