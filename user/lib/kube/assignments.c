// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "assignments.h"

void assignments_init(struct cpu_assignments *s)
{
	memset(s, 0, sizeof(*s));
}

void assignments_free(struct cpu_assignments *s)
{
	free(s->entries);
	assignments_free_pod_level(s);
	assignments_init(s);
}

int assignments_copy(struct cpu_assignments *dst,
		     const struct cpu_assignments *src)
{
	struct assignment_entry *e = NULL;

	if (src->nr) {
		e = malloc(src->nr * sizeof(*e));
		if (!e)
			return -ENOMEM;
		memcpy(e, src->entries, src->nr * sizeof(*e));
	}
	if (assignments_copy_pod_level(dst, src)) {
		free(e);
		return -ENOMEM;
	}
	free(dst->entries);
	dst->default_set = src->default_set;
	dst->entries = e;
	dst->nr = dst->cap = src->nr;
	return 0;
}

static int key_cmp(const struct assignment_entry *e, const char *uid,
		   const char *container)
{
	int c = strcmp(e->pod_uid, uid);

	return c ? c : strcmp(e->container, container);
}

/* Index of the entry, or of where it would go (found tells which). */
static unsigned int find(const struct cpu_assignments *s, const char *uid,
			 const char *container, bool *found)
{
	unsigned int lo = 0, hi = s->nr;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		int c = key_cmp(&s->entries[mid], uid, container);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

const struct cpuset *assignments_get(const struct cpu_assignments *s,
				     const char *pod_uid, const char *container)
{
	bool found;
	unsigned int i = find(s, pod_uid, container, &found);

	return found ? &s->entries[i].cpus : NULL;
}

int assignments_set(struct cpu_assignments *s, const char *pod_uid,
		    const char *container, const struct cpuset *cpus)
{
	bool found;
	unsigned int i;

	if (strlen(pod_uid) > POD_UID_MAX ||
	    strlen(container) > CONTAINER_NAME_MAX)
		return -ENAMETOOLONG;
	i = find(s, pod_uid, container, &found);
	if (found) {
		s->entries[i].cpus = *cpus;
		return 0;
	}
	if (s->nr == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 8;
		struct assignment_entry *e = realloc(s->entries,
						     cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		s->entries = e;
		s->cap = cap;
	}
	memmove(&s->entries[i + 1], &s->entries[i],
		(s->nr - i) * sizeof(*s->entries));
	memset(&s->entries[i], 0, sizeof(s->entries[i]));
	strcpy(s->entries[i].pod_uid, pod_uid);
	strcpy(s->entries[i].container, container);
	s->entries[i].cpus = *cpus;
	s->nr++;
	return 0;
}

void assignments_delete(struct cpu_assignments *s, const char *pod_uid,
			const char *container)
{
	bool found;
	unsigned int i = find(s, pod_uid, container, &found);

	if (!found)
		return;
	memmove(&s->entries[i], &s->entries[i + 1],
		(s->nr - i - 1) * sizeof(*s->entries));
	s->nr--;
}

void assignments_pod_cpus(const struct cpu_assignments *s, const char *pod_uid,
			  const char *except, struct cpuset *out)
{
	cpuset_zero(out);
	for (unsigned int i = 0; i < s->nr; i++) {
		const struct assignment_entry *e = &s->entries[i];

		if (strcmp(e->pod_uid, pod_uid) ||
		    (except && !strcmp(e->container, except)))
			continue;
		cpuset_or(out, out, &e->cpus);
	}
}
