// SPDX-License-Identifier: GPL-2.0
/*
 * Admission: the static policy's Allocate for every container of a pod
 * (init containers first, all or nothing: cpu_policy_add_pod()), then
 * ASSIGN in the kernel against the generation the plan was made on.
 * When the table moved on (-ESTALE) the plan is made again; when a later
 * ASSIGN fails, what this admission assigned is released again.  Then
 * the checkpoint and the pod's file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "node.h"
#include "node_internal.h"
#include "podlist.h"

#define ADMIT_TRIES	5

/* The raw Pod objects of the documents, in pod_list_from_docs() order. */
static int collect(const cJSON *docs, const cJSON **objs, unsigned int max,
		   unsigned int *nr)
{
	const cJSON *doc, *item;

	*nr = 0;
	cJSON_ArrayForEach(doc, docs) {
		const cJSON *kind = json_member(doc, "kind");
		const cJSON *items = json_member(doc, "items");

		if (!cJSON_IsObject(doc) || !doc->child)
			continue;
		if (cJSON_IsString(kind) && !strcmp(kind->valuestring, "Pod")) {
			if (*nr == max)
				return -EINVAL;
			objs[(*nr)++] = doc;
			continue;
		}
		cJSON_ArrayForEach(item, items) {
			if (*nr == max)
				return -EINVAL;
			objs[(*nr)++] = item;
		}
	}
	return *nr == max ? 0 : -EINVAL;
}

static void rollback(struct node *n, const char *uid, char (*names)[64],
		     unsigned int nr)
{
	while (nr--) {
		if (cpumgr_nl_release(n->kernel.nl, uid, names[nr], NULL, NULL))
			node_log(n, "admit: could not release %s/%s again: %s",
				 uid, names[nr], cpumgr_nl_errmsg(n->kernel.nl));
	}
}

/* The CPUs st gives the pod's containers that the kernel does not. */
static void pod_new_cpus(const struct node *n, const struct pod *pod,
			 const struct cpu_assignments *st, struct cpuset *out)
{
	cpuset_zero(out);
	for (unsigned int i = 0; i < pod->nr; i++) {
		const char *name = pod->containers[i].name;
		const struct cpuset *cpus = assignments_get(st, pod->uid, name);

		if (cpus && !assignments_get(&n->assignments, pod->uid, name))
			cpuset_or(out, out, cpus);
	}
}

/*
 * ASSIGN what st holds for the pod and the kernel does not, once every
 * other cgroup let go of it (node_withhold()).  -ESTALE when the table
 * moved under the plan (nothing left assigned).
 */
static int assign_pod(struct node *n, const struct pod *pod,
		      const struct cpu_assignments *st, unsigned int *requests,
		      struct cm_error *err)
{
	char (*done)[64] = calloc(pod->nr ? pod->nr : 1, sizeof(*done));
	const struct cpuset *pool = assignments_get_pool(st, pod->uid);
	uint64_t gen = n->kernel.table.generation;
	uint32_t narrowed = 0;
	struct cpuset all;
	unsigned int nr = 0;
	int ret = 0;

	if (!done)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	pod_new_cpus(n, pod, st, &all);
	/* the pool's CPUs no container holds leave the others too */
	if (pool && !assignments_get_pool(&n->assignments, pod->uid))
		cpuset_or(&all, &all, pool);
	node_withhold(n, pod->uid, &all, NULL, NULL, &narrowed, &gen);
	for (unsigned int i = 0; i < pod->nr && !ret; i++) {
		const struct pod_container *c = &pod->containers[i];
		const struct cpuset *cpus = assignments_get(st, pod->uid,
							    c->name);
		uint32_t flags = narrowed | (c->init && !c->restartable ?
					     CPUMGR_ASSIGNMENT_F_INIT : 0);

		/* its partition is made when it is attached */
		if (node_quiet_pending(n))
			flags |= CPUMGR_ASSIGNMENT_F_PARTITION_PENDING;
		char *text;

		if (!cpus || assignments_get(&n->assignments, pod->uid,
					     c->name))
			continue;
		text = cpuset_to_str(cpus);
		if (!text) {
			ret = cm_errorf(err, "out of memory");
			break;
		}
		uint64_t expect = gen;

		ret = node_assign(n, pod->uid, c->name, text, flags, &expect,
				  &gen);
		free(text);
		if (!ret)
			node_own_change(n, expect, gen);
		if (ret) {
			ret = ret == -ESTALE ? -ESTALE :
			      node_nl_error(n, "assign", err);
			if (ret != -ESTALE)
				cm_error_prefix(err, "container %s", c->name);
			break;
		}
		strcpy(done[nr++], c->name);
	}
	/* the pod's pool, once its containers hold their CPUs */
	if (!ret && pool) {
		uint64_t expect = gen;

		ret = node_assign_pool(n, pod->uid, pool, &expect, &gen);
		if (!ret)
			node_own_change(n, expect, gen);
		else if (ret != -ESTALE)
			ret = node_nl_error(n, "assign the pod pool", err);
	}
	if (ret)
		rollback(n, pod->uid, done, nr);
	else
		*requests += nr;
	node_withhold_end(n, pod->uid, !ret);
	free(done);
	return ret;
}

/*
 * A pool's sharers hold the same CPUs, which no partition of theirs can
 * (a partition's CPUs are its own): where the pool moves by partitions,
 * the pool's rest would stay in the pool's cgroups, which the kernel
 * keeps it out of.  Refused, and said.
 */
static int pool_supported(const struct node *n, const struct pod *pod,
			  const struct cpu_assignments *st,
			  struct cm_error *err)
{
	if (!assignments_get_pool(st, pod->uid) ||
	    n->cfg.pool_moves != NODE_POOL_PARTITIONS)
		return 0;
	return cm_errorf(err, "a pod pool (pod-level resources, KEP-5526) and --pool-moves partitions do not go together: its sharers cannot each be a partition of its rest (init --pool-moves writes)"),
	       -EOPNOTSUPP;
}

static int keep_pool(struct node *n, const struct pod *pod,
		     const struct cpu_assignments *st, struct cm_error *err)
{
	const struct cpuset *pool = assignments_get_pool(st, pod->uid);

	if (pool && assignments_set_pool(&n->files.pod_level, pod->uid, pool))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	return 0;
}

static int admit_static(struct node *n, const struct pod *pod,
			unsigned int *requests, unsigned int *errors,
			struct cm_error *err)
{
	int ret = -ESTALE;

	for (int t = 0; t < ADMIT_TRIES && ret == -ESTALE; t++) {
		struct cpu_assignments st;

		ret = node_try_state(n, t, &st, err);
		if (ret)
			return ret;
		ret = cpu_policy_add_pod(&n->policy, &st, pod, NULL, err);
		if (!ret)
			ret = pool_supported(n, pod, &st, err);
		if (ret) {
			assignments_free(&st);
			(*errors)++;
			return ret;
		}
		ret = assign_pod(n, pod, &st, requests, err);
		/* the pod's pool: the checkpoint keeps it (v3, v4) */
		if (!ret)
			ret = keep_pool(n, pod, &st, err);
		assignments_free(&st);
	}
	if (ret == -ESTALE)
		cm_errorf(err, "the kernel's table kept changing");
	return ret;
}

static int add_cpus(cJSON *obj, const char *name, const struct cpuset *s)
{
	char *text = cpuset_to_str(s);
	bool ok = text && cJSON_AddStringToObject(obj, name, text);

	free(text);
	return ok ? 0 : -ENOMEM;
}

static int add_result(struct node *n, const struct pod *pod, cJSON *out)
{
	cJSON *r = cJSON_CreateObject(), *cs;
	const struct cpuset *pool;
	struct cpuset shared;
	bool ok;

	node_pod_shared_cpus(n, node_find_pod(n, pod->uid), &shared);
	pool = assignments_get_pool(&n->assignments, pod->uid);
	ok = r && cJSON_AddStringToObject(r, "podUID", pod->uid) &&
	     cJSON_AddStringToObject(r, "podName", pod->name ? pod->name : "") &&
	     cJSON_AddStringToObject(r, "namespace", pod->ns ? pod->ns : "") &&
	     cJSON_AddStringToObject(r, "qos", pod_qos_name(pod_qos(pod))) &&
	     cJSON_AddBoolToObject(r, "systemPartition",
				   node_pod_system(n, pod)) &&
	     (!pool || !add_cpus(r, "podCpus", pool));
	cs = ok ? cJSON_AddArrayToObject(r, "containers") : NULL;
	ok = ok && cs && cJSON_AddItemToArray(out, r);
	if (!ok) {
		cJSON_Delete(r);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < pod->nr; i++) {
		const struct pod_container *c = &pod->containers[i];
		const struct cpuset *own = assignments_get(&n->assignments,
							   pod->uid, c->name);
		char *text = cpuset_to_str(own ? own : &shared);
		cJSON *j = cJSON_CreateObject();

		/* in a pod pool, those that share hold its rest */
		ok = text && j && cJSON_AddStringToObject(j, "container", c->name) &&
		     cJSON_AddBoolToObject(j, "init", c->init) &&
		     cJSON_AddBoolToObject(j, "exclusive", own &&
					   (!pool || pod_guaranteed_cpus(pod, c))) &&
		     cJSON_AddStringToObject(j, "cpus", text) &&
		     cJSON_AddItemToArray(cs, j);
		free(text);
		if (!ok) {
			cJSON_Delete(j);
			return -ENOMEM;
		}
	}
	return 0;
}

static int admit_one(struct node *n, const cJSON *obj, const struct pod *pod,
		     cJSON *out, struct cm_error *err)
{
	unsigned int requests = 0, errors = 0;
	struct node_pod *p;
	int ret = 0;

	if (node_find_pod(n, pod->uid)) {
		/* the kubelet's way: an admitted pod keeps what it has */
		node_log(n, "pod %s is already admitted", pod->uid);
		return out && add_result(n, pod, out) ? -ENOMEM : 0;
	}
	/* a system pod runs on its partition's CPUs, pod-level or not */
	if (n->cfg.policy == CPU_POLICY_STATIC && !node_pod_system(n, pod))
		ret = admit_static(n, pod, &requests, &errors, err);
	if (!ret)
		ret = node_refresh(n, err);
	if (!ret)
		ret = node_save_checkpoint(n, 0, err);
	if (!ret) {
		p = node_add_pod(n, obj, err);
		ret = p ? node_save_pod(n, p, err) : -EINVAL;
	}
	/* what the kubelet counts: containers pinned, and failures */
	node_counters_add(n, requests + errors, errors, NULL);
	if (ret)
		return ret;
	return out && add_result(n, pod, out) ? -ENOMEM : 0;
}

int node_admit(struct node *n, const cJSON *docs, const char *src,
	       cJSON *out, struct cm_error *err)
{
	struct pod_list list = { 0 };
	const cJSON **objs = NULL;
	unsigned int nr;
	int ret;

	ret = pod_list_from_docs(docs, src, &list, err);
	if (ret)
		return ret;
	objs = calloc(list.nr ? list.nr : 1, sizeof(*objs));
	if (!objs || collect(docs, objs, list.nr, &nr)) {
		ret = cm_errorf(err, "%s: cannot match the Pod objects", src);
		goto out;
	}
	for (unsigned int i = 0; i < list.nr && !ret; i++) {
		node_pod_mark_system(n, &list.pods[i]);
		ret = admit_one(n, objs[i], &list.pods[i], out, err);
		if (ret)
			cm_error_prefix(err, "admit pod %s (%s)",
					list.pods[i].name ? list.pods[i].name :
					"",
					list.pods[i].uid);
	}
	/* the shared pool shrank: new cgroups must not inherit it as it was */
	if (!ret && node_narrow(n, err) < 0)
		ret = -EIO;
out:
	free(objs);
	pod_list_free(&list);
	return ret;
}

int node_admit_pod(struct node *n, const cJSON *obj, struct cm_error *err)
{
	struct pod pod;
	int ret;

	if (pod_from_json(obj, &pod, err))
		return -EINVAL;
	node_pod_mark_system(n, &pod);
	ret = admit_one(n, obj, &pod, NULL, err);
	/* the shared pool shrank: new cgroups must not inherit it as it was */
	if (!ret && node_narrow(n, err) < 0)
		ret = -EIO;
	pod_free(&pod);
	return ret;
}
