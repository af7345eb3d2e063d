/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU manager state: the shared (default) CPU set and the exclusive
 * assignments pod UID -> container -> CPUs, like the kubelet's
 * state.State and its cpu_manager_state checkpoint.  A value: copy it with
 * state_copy() to snapshot it.  Entries stay sorted by (pod UID,
 * container) so walks are deterministic.
 */
#ifndef CPUMGR_STATE_H
#define CPUMGR_STATE_H

#include "cpuset.h"
#include "pod.h"

struct cm_entry {
	char pod_uid[POD_UID_MAX + 1];
	char container[CONTAINER_NAME_MAX + 1];
	struct cpuset cpus;
};

struct cm_state {
	struct cpuset default_set;
	struct cm_entry *entries;
	unsigned int nr, cap;
};

void state_init(struct cm_state *s);
void state_free(struct cm_state *s);
/* Deep copy; dst must be initialised (its old contents are freed). */
int state_copy(struct cm_state *dst, const struct cm_state *src);

const struct cpuset *state_get(const struct cm_state *s, const char *pod_uid,
			       const char *container);
/* Add or replace an assignment; -ENAMETOOLONG, -ENOMEM on failure. */
int state_set(struct cm_state *s, const char *pod_uid, const char *container,
	      const struct cpuset *cpus);
void state_delete(struct cm_state *s, const char *pod_uid,
		  const char *container);
/* Union of the pod's assignments except one container (NULL: none). */
void state_pod_cpus(const struct cm_state *s, const char *pod_uid,
		    const char *except, struct cpuset *out);

#endif
