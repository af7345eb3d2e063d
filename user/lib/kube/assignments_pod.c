// SPDX-License-Identifier: GPL-2.0
/*
 * The pod-level half of the kubelet's CPU state (assignments.h): pod
 * pools (podEntries) and container baselines, each a sorted array.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "assignments.h"

/*
 * Index of key in the sorted array (nr elements of size bytes), or where
 * it would go (*found says which).
 */
static unsigned int find(const void *base, unsigned int nr, size_t size,
			 int (*cmp)(const void *elem, const void *key),
			 const void *key, bool *found)
{
	unsigned int lo = 0, hi = nr;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		int c = cmp((const char *)base + mid * size, key);

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

struct baseline_key {
	const char *uid, *container;
};

static int pool_cmp(const void *elem, const void *key)
{
	return strcmp(((const struct pod_cpus *)elem)->pod_uid, key);
}

static int baseline_cmp(const void *elem, const void *key)
{
	const struct cpu_baseline *b = elem;
	const struct baseline_key *k = key;
	int c = strcmp(b->pod_uid, k->uid);

	return c ? c : strcmp(b->container, k->container);
}

static unsigned int find_pool(const struct cpu_assignments *s,
			      const char *pod_uid, bool *found)
{
	return find(s->pods, s->nr_pods, sizeof(*s->pods), pool_cmp, pod_uid,
		    found);
}

static unsigned int find_baseline(const struct cpu_assignments *s,
				  const char *uid, const char *container,
				  bool *found)
{
	struct baseline_key k = { uid, container };

	return find(s->baselines, s->nr_baselines, sizeof(*s->baselines),
		    baseline_cmp, &k, found);
}

/* Room for one more element of size bytes in *arr (nr used of *cap). */
static int grow(void **arr, unsigned int nr, unsigned int *cap, size_t size)
{
	unsigned int n = *cap ? *cap * 2 : 8;
	void *p;

	if (nr < *cap)
		return 0;
	p = realloc(*arr, n * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

const struct cpuset *assignments_get_pool(const struct cpu_assignments *s,
					  const char *pod_uid)
{
	bool found;
	unsigned int i = find_pool(s, pod_uid, &found);

	return found ? &s->pods[i].cpus : NULL;
}

int assignments_set_pool(struct cpu_assignments *s, const char *pod_uid,
			 const struct cpuset *cpus)
{
	bool found;
	unsigned int i;

	if (strlen(pod_uid) > POD_UID_MAX)
		return -ENAMETOOLONG;
	i = find_pool(s, pod_uid, &found);
	if (found) {
		s->pods[i].cpus = *cpus;
		return 0;
	}
	if (grow((void **)&s->pods, s->nr_pods, &s->cap_pods,
		 sizeof(*s->pods)))
		return -ENOMEM;
	memmove(&s->pods[i + 1], &s->pods[i],
		(s->nr_pods - i) * sizeof(*s->pods));
	memset(&s->pods[i], 0, sizeof(s->pods[i]));
	strcpy(s->pods[i].pod_uid, pod_uid);
	s->pods[i].cpus = *cpus;
	s->nr_pods++;
	return 0;
}

void assignments_delete_pool(struct cpu_assignments *s, const char *pod_uid)
{
	bool found;
	unsigned int i = find_pool(s, pod_uid, &found);

	if (!found)
		return;
	memmove(&s->pods[i], &s->pods[i + 1],
		(s->nr_pods - i - 1) * sizeof(*s->pods));
	s->nr_pods--;
}

void assignments_pools_union(const struct cpu_assignments *s,
			     struct cpuset *out)
{
	cpuset_zero(out);
	for (unsigned int i = 0; i < s->nr_pods; i++)
		cpuset_or(out, out, &s->pods[i].cpus);
}

const char *assignments_get_baseline(const struct cpu_assignments *s,
				     const char *pod_uid,
				     const char *container)
{
	bool found;
	unsigned int i = find_baseline(s, pod_uid, container, &found);

	return found ? s->baselines[i].cpus : NULL;
}

int assignments_set_baseline(struct cpu_assignments *s, const char *pod_uid,
			     const char *container, const char *cpus,
			     size_t len)
{
	struct cpu_baseline *b;
	bool found;
	unsigned int i;
	char *copy;

	if (strlen(pod_uid) > POD_UID_MAX ||
	    strlen(container) > CONTAINER_NAME_MAX)
		return -ENAMETOOLONG;
	copy = strndup(cpus, len);
	if (!copy)
		return -ENOMEM;
	i = find_baseline(s, pod_uid, container, &found);
	if (!found && grow((void **)&s->baselines, s->nr_baselines,
			   &s->cap_baselines, sizeof(*s->baselines))) {
		free(copy);
		return -ENOMEM;
	}
	if (!found) {
		memmove(&s->baselines[i + 1], &s->baselines[i],
			(s->nr_baselines - i) * sizeof(*s->baselines));
		memset(&s->baselines[i], 0, sizeof(s->baselines[i]));
		strcpy(s->baselines[i].pod_uid, pod_uid);
		strcpy(s->baselines[i].container, container);
		s->nr_baselines++;
	}
	b = &s->baselines[i];
	free(b->cpus);
	b->cpus = copy;
	return 0;
}

void assignments_delete_baseline(struct cpu_assignments *s,
				 const char *pod_uid, const char *container)
{
	bool found;
	unsigned int i = find_baseline(s, pod_uid, container, &found);

	if (!found)
		return;
	free(s->baselines[i].cpus);
	memmove(&s->baselines[i], &s->baselines[i + 1],
		(s->nr_baselines - i - 1) * sizeof(*s->baselines));
	s->nr_baselines--;
}

void assignments_free_pod_level(struct cpu_assignments *s)
{
	for (unsigned int i = 0; i < s->nr_baselines; i++)
		free(s->baselines[i].cpus);
	free(s->baselines);
	free(s->pods);
	s->baselines = NULL;
	s->pods = NULL;
	s->nr_baselines = s->cap_baselines = 0;
	s->nr_pods = s->cap_pods = 0;
}

int assignments_copy_pod_level(struct cpu_assignments *dst,
			       const struct cpu_assignments *src)
{
	struct cpu_assignments tmp = { 0 };

	if (src == dst)
		return 0;
	for (unsigned int i = 0; i < src->nr_pods; i++)
		if (assignments_set_pool(&tmp, src->pods[i].pod_uid,
					 &src->pods[i].cpus))
			goto fail;
	for (unsigned int i = 0; i < src->nr_baselines; i++) {
		const struct cpu_baseline *b = &src->baselines[i];

		if (assignments_set_baseline(&tmp, b->pod_uid, b->container,
					     b->cpus, strlen(b->cpus)))
			goto fail;
	}
	assignments_free_pod_level(dst);
	dst->pods = tmp.pods;
	dst->nr_pods = tmp.nr_pods;
	dst->cap_pods = tmp.cap_pods;
	dst->baselines = tmp.baselines;
	dst->nr_baselines = tmp.nr_baselines;
	dst->cap_baselines = tmp.cap_baselines;
	return 0;
fail:
	assignments_free_pod_level(&tmp);
	return -ENOMEM;
}
