// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: the containers the plugin manages, and the
 * ContainerUpdates that tell the runtime their new cpusets when the
 * shared pool changed (see ctl_nri_update.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_nri_gone.h"
#include "ctl_nri_update.h"
#include "node_internal.h"

struct ctl_nri_known *ctl_nri_find(struct ctl_nri *p, const char *id)
{
	for (size_t i = 0; i < p->nr_known; i++)
		if (!strcmp(p->known[i].id, id))
			return &p->known[i];
	return NULL;
}

int ctl_nri_remember(struct ctl_nri *p, const struct oci_container *c,
		     const char *told)
{
	struct ctl_nri_known *k = ctl_nri_find(p, c->id), *v;

	if (!k) {
		v = realloc(p->known, (p->nr_known + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		p->known = v;
		k = &p->known[p->nr_known++];
	}
	memset(k, 0, sizeof(*k));
	strcpy(k->id, c->id);
	strcpy(k->pod_uid, c->pod_uid);
	strcpy(k->name, c->name);
	snprintf(k->told, sizeof(k->told), "%s", told ? told : "");
	return 0;
}

void ctl_nri_forget_id(struct ctl_nri *p, const char *id)
{
	struct ctl_nri_known *k = ctl_nri_find(p, id);

	if (k)
		*k = p->known[--p->nr_known];
}

void ctl_nri_forget(struct ctl_nri *p)
{
	ctl_nri_drop(p);
	p->told_pool_known = false;
	free(p->known);
	p->known = NULL;
	p->nr_known = 0;
	ctl_nri_gone_forget(p);
}

/* ctl_nri_cpus_of(), the shared pool's text given (NULL: formatted). */
static int cpus_of(struct node *n, const char *pool, const char *pod_uid,
		   const char *name, char *out, size_t len)
{
	const struct node_pod *pod = node_find_pod(n, pod_uid);
	int k = pod ? node_pod_container(pod, name) : -1;
	struct cpuset cpus;
	bool exclusive;

	out[0] = '\0';
	if (k < 0 || pod->c[k].removed || !pod->c[k].cgroup[0])
		return -ENOENT;
	/* the pool moves by partitions: no cpuset of its own, none told */
	if (n->cfg.pool_moves == NODE_POOL_PARTITIONS &&
	    !node_assignment(n, pod_uid, name))
		return 0;
	/* no assignment: the pool, as every other container on it */
	if (pool && !node_assignment(n, pod_uid, name) &&
	    !node_pod_on_partition(n, pod)) {
		snprintf(out, len, "%s", pool);
		return 0;
	}
	node_container_cpus(n, pod, (unsigned int)k, &cpus, &exclusive);
	cpuset_format(&cpus, out, len);
	return 0;
}

int ctl_nri_cpus_of(struct node *n, const char *pod_uid, const char *name,
		    char *out, size_t len)
{
	return cpus_of(n, NULL, pod_uid, name, out, len);
}

void ctl_nri_cpu_resources(struct ctl_nri_cpu *r, const char *cpus)
{
	Nri__Pkg__Api__V1alpha1__LinuxResources res =
		NRI__PKG__API__V1ALPHA1__LINUX_RESOURCES__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxCPU cpu =
		NRI__PKG__API__V1ALPHA1__LINUX_CPU__INIT;

	r->res = res;
	r->cpu = cpu;
	snprintf(r->cpus, sizeof(r->cpus), "%s", cpus);
	r->cpu.cpus = r->cpus;
	r->res.cpu = &r->cpu;
}

void ctl_nri_cpu_no_quota(struct ctl_nri_cpu *r)
{
	Nri__Pkg__Api__V1alpha1__OptionalInt64 q =
		NRI__PKG__API__V1ALPHA1__OPTIONAL_INT64__INIT;

	r->quota = q;
	r->quota.value = -1;
	r->cpu.quota = &r->quota;
}

int ctl_nri_updates(struct ctl_nri *p, struct node *n, const char *skip_id,
		    struct ctl_nri_updates *set)
{
	return ctl_nri_updates_pod(p, n, skip_id, NULL, set);
}

int ctl_nri_updates_pod(struct ctl_nri *p, struct node *n,
			const char *skip_id, const char *pod_uid,
			struct ctl_nri_updates *set)
{
	char pool_text[sizeof(p->known[0].told)];
	struct cpuset pool;
	bool all;

	/* the pool as last told: only the pod's own can have moved */
	node_shared_pool(n, &pool);
	all = !pod_uid || !p->told_pool_known ||
	      !cpuset_equal(&pool, &p->told_pool);
	/* formatted once, not for each container on it */
	cpuset_format(&pool, pool_text, sizeof(pool_text));
	memset(set, 0, sizeof(*set));
	set->v = calloc(p->nr_known + 1, sizeof(*set->v));
	set->ptrs = calloc(p->nr_known + 1, sizeof(*set->ptrs));
	if (!set->v || !set->ptrs) {
		ctl_nri_updates_free(set);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->nr_known; i++) {
		struct ctl_nri_known *k = &p->known[i];
		Nri__Pkg__Api__V1alpha1__ContainerUpdate u =
			NRI__PKG__API__V1ALPHA1__CONTAINER_UPDATE__INIT;
		Nri__Pkg__Api__V1alpha1__LinuxContainerUpdate l =
			NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER_UPDATE__INIT;
		struct ctl_nri_update *v = &set->v[set->nr];
		char cpus[256];

		if ((skip_id && !strcmp(k->id, skip_id)) ||
		    (!all && strcmp(k->pod_uid, pod_uid)) ||
		    cpus_of(n, pool_text, k->pod_uid, k->name, cpus,
			    sizeof(cpus)) ||
		    !strcmp(cpus, k->told))
			continue;
		v->u = u;
		v->l = l;
		ctl_nri_cpu_resources(&v->r, cpus);
		if (k->no_quota)
			ctl_nri_cpu_no_quota(&v->r);
		v->u.container_id = k->id;
		v->u.linux = &v->l;
		v->l.resources = &v->r.res;
		set->ptrs[set->nr++] = &v->u;
		strcpy(k->told, cpus);
		node_log(n, "nri: update %s (%s/%s): cpuset %s", k->id,
			 k->pod_uid, k->name, cpus);
	}
	p->told_pool = pool;
	p->told_pool_known = true;
	return 0;
}

void ctl_nri_updates_free(struct ctl_nri_updates *set)
{
	free(set->v);
	free(set->ptrs);
	memset(set, 0, sizeof(*set));
}
