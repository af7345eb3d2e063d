// SPDX-License-Identifier: GPL-2.0
/*
 * plan: offline what-if for the allocator and the static policy.  The
 * request schema (see plan.h) is read and checked whole before anything
 * runs; the result is built as a cJSON tree for the caller to print.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "alloc.h"
#include "json_util.h"
#include "kubelet_version.h"
#include "options.h"
#include "plan.h"
#include "pod.h"
#include "policy_static.h"
#include "assignments.h"
#include "topology_json.h"

enum step_op { STEP_ALLOCATE, STEP_ADD, STEP_REMOVE };

struct plan_step {
	enum step_op op;
	struct pod pod;
	const char *container;	/* allocate: which; remove: NULL = pod */
	const char *pod_uid;	/* remove */
	bool has_affinity;
	uint64_t affinity;
};

struct plan {
	/* kubeletVersion: answer as 1.<minor> (0: cpumgr's rules) */
	int minor;
	bool pod_level;		/* PodLevelResourceManagers */
	struct topology *topo;
	struct cpu_policy policy;
	bool policy_ready;
	struct cpu_assignments state;
	struct plan_step *steps;
	unsigned int nr_steps;
};

static int add_cpuset(cJSON *obj, const char *name, const struct cpuset *s)
{
	char *str = cpuset_to_str(s);
	int ret = str && cJSON_AddStringToObject(obj, name, str) ? 0 : -ENOMEM;

	free(str);
	return ret;
}

/* A cpulist member; NULL text means absent (then *present is false). */
static int read_cpuset(const cJSON *obj, const char *name, struct cpuset *s,
		       bool *present, const struct topology *t,
		       struct cm_error *err)
{
	const char *text;

	if (json_opt_string(obj, name, &text, "", err))
		return -EINVAL;
	if (present)
		*present = text != NULL;
	cpuset_zero(s);
	if (!text)
		return 0;
	if (cpuset_parse(s, text, err)) {
		cm_error_prefix(err, "%s", name);
		return -EINVAL;
	}
	if (t && !cpuset_subset(s, &t->cpus)) {
		struct cpuset extra;
		char *x;

		cpuset_andnot(&extra, s, &t->cpus);
		x = cpuset_to_str(&extra);
		cm_errorf(err, "%s: cpus %s are not in the topology", name,
			  x ? x : "?");
		free(x);
		return -EINVAL;
	}
	return 0;
}

static int read_options(const cJSON *req, struct policy_options *o,
			struct cm_error *err)
{
	const cJSON *opts = json_member(req, "options"), *m;
	const cJSON *sorted[64];
	unsigned int n = 0;

	memset(o, 0, sizeof(*o));
	if (!opts)
		return 0;
	if (!cJSON_IsObject(opts))
		return cm_errorf(err, "options: must be an object of strings");
	cJSON_ArrayForEach(m, opts) {
		unsigned int k = n;

		if (!cJSON_IsString(m))
			return cm_errorf(err, "options.%s: must be a string (\"true\" or \"false\")",
					 m->string);
		if (n == 64)
			return cm_errorf(err, "options: too many options");
		/* a fixed order, so the first bad option is always the same */
		while (k > 0 && strcmp(sorted[k - 1]->string, m->string) > 0) {
			sorted[k] = sorted[k - 1];
			k--;
		}
		sorted[k] = m;
		n++;
	}
	for (unsigned int i = 0; i < n; i++)
		if (options_set(o, sorted[i]->string, sorted[i]->valuestring,
				err))
			return -EINVAL;
	return options_check(o, err);
}

static int read_topology(const cJSON *req, struct plan *pl,
			 struct cm_error *err)
{
	const cJSON *t = json_member(req, "topology");

	if (!t)
		return cm_errorf(err, "topology: required");
	pl->topo = topology_from_json(t, err);
	return pl->topo ? 0 : -EINVAL;
}

/*
 * "kubeletVersion" and "featureGates": that kubelet refuses the options
 * its gates (CPUManagerPolicyAlphaOptions off, ...BetaOptions on by
 * default) keep out, with its texts.
 */
static int read_kubelet(const cJSON *req, struct plan *pl,
			const struct policy_options *o, struct cm_error *err)
{
	const cJSON *gates = json_member(req, "featureGates"), *g;
	bool alpha = false, beta = true;
	int pod_level = -1;
	const char *v;

	if (json_opt_string(req, "kubeletVersion", &v, "", err))
		return -EINVAL;
	if (v && kubelet_version_parse(v, &pl->minor, err))
		return -EINVAL;
	if (gates && !cJSON_IsObject(gates))
		return cm_errorf(err, "featureGates: must be an object of booleans");
	cJSON_ArrayForEach(g, gates) {
		if (!cJSON_IsBool(g))
			return cm_errorf(err, "featureGates.%s: must be true or false",
					 g->string);
		if (!strcmp(g->string, "CPUManagerPolicyAlphaOptions"))
			alpha = cJSON_IsTrue(g);
		else if (!strcmp(g->string, "CPUManagerPolicyBetaOptions"))
			beta = cJSON_IsTrue(g);
		else if (!strcmp(g->string, "PodLevelResourceManagers"))
			pod_level = cJSON_IsTrue(g);
	}
	/* beta and on from 1.37, off in 1.36, not in older kubelets */
	if (pod_level < 0)
		pod_level = !pl->minor || pl->minor >= 37;
	pl->pod_level = pod_level && (!pl->minor || pl->minor >= 36);
	return kubelet_check_options(pl->minor, o, alpha, beta, err);
}

static int read_affinity(const cJSON *j, struct plan_step *st,
			 const char *where, struct cm_error *err);

/* ---- take ---- */

static int run_take(const cJSON *req, struct plan *pl, cJSON **result,
		    struct cm_error *err)
{
	static const char *const fields[] = {
		"topology", "available", "count", "options", "numaAffinity",
		"kubeletVersion", "featureGates", NULL
	};
	struct plan_step hint = { 0 };
	struct alloc_request ar = { 0 };
	struct cpuset avail, out;
	struct policy_options o;
	bool has_avail, has_count;
	cJSON *res;

	if (json_only(req, fields, "", err) || read_topology(req, pl, err) ||
	    read_cpuset(req, "available", &avail, &has_avail, pl->topo, err) ||
	    json_opt_uint(req, "count", CPUSET_MAX_CPUS, &ar.num_cpus,
			  &has_count, "", err) ||
	    read_options(req, &o, err) ||
	    options_validate(&o, pl->topo, TM_POLICY_NONE, err) ||
	    read_affinity(req, &hint, "", err) ||
	    read_kubelet(req, pl, &o, err))
		return -EINVAL;
	if (!has_avail || !has_count)
		return cm_errorf(err, "\"available\" and \"count\" are required");
	ar.distribute_numa = o.distribute_numa;
	ar.cpu_group_size = o.full_pcpus_only ?
			    topology_cpus_per(pl->topo, TOPO_CORE) : 1;
	ar.spread = o.distribute_cores;
	ar.prefer_uncore = o.prefer_uncore;
	/* the topology manager hint: its NUMA count is the floor (1.37) */
	if (hint.has_affinity && kubelet_numa_hint_floor(pl->minor))
		ar.min_numas = __builtin_popcountll(hint.affinity);
	if (alloc_take(pl->topo, NULL, &avail, &ar, &out, err))
		return -EINVAL;
	res = cJSON_CreateObject();
	if (!res || add_cpuset(res, "cpus", &out)) {
		cJSON_Delete(res);
		return cm_errorf(err, "out of memory");
	}
	*result = res;
	return 0;
}

/* ---- policy ---- */

/* state.podEntries, as the checkpoint has them: UID -> {"cpuSet": ...} */
static int read_pod_entries(const cJSON *st, struct plan *pl,
			    struct cm_error *err)
{
	const cJSON *pods = json_member(st, "podEntries"), *pod, *cpus;
	struct cpuset set;

	if (!pods)
		return 0;
	if (!cJSON_IsObject(pods))
		return cm_errorf(err, "state.podEntries: must be an object");
	cJSON_ArrayForEach(pod, pods) {
		cpus = json_member(pod, "cpuSet");
		if (!cJSON_IsObject(pod) || !cJSON_IsString(cpus))
			return cm_errorf(err, "state.podEntries.%s: must be {\"cpuSet\": cpulist}",
					 pod->string);
		if (cpuset_parse(&set, cpus->valuestring, err)) {
			cm_error_prefix(err, "state.podEntries.%s.cpuSet",
					pod->string);
			return -EINVAL;
		}
		if (assignments_set_pool(&pl->state, pod->string, &set))
			return cm_errorf(err, "state.podEntries.%s: pod UID too long",
					 pod->string);
	}
	return 0;
}

static int read_state(const cJSON *req, struct plan *pl, struct cm_error *err)
{
	static const char *const fields[] = {
		"defaultCpuSet", "entries", "podEntries", NULL
	};
	const cJSON *st = json_member(req, "state"), *entries, *pod, *c;

	if (!st)
		return 0;
	if (!cJSON_IsObject(st) || json_only(st, fields, "state", err))
		return cJSON_IsObject(st) ? -EINVAL :
		       cm_errorf(err, "state: must be an object");
	if (read_cpuset(st, "defaultCpuSet", &pl->state.default_set, NULL,
			NULL, err)) {
		cm_error_prefix(err, "state");
		return -EINVAL;
	}
	if (read_pod_entries(st, pl, err))
		return -EINVAL;
	entries = json_member(st, "entries");
	if (!entries)
		return 0;
	if (!cJSON_IsObject(entries))
		return cm_errorf(err, "state.entries: must be an object");
	cJSON_ArrayForEach(pod, entries) {
		if (!cJSON_IsObject(pod))
			return cm_errorf(err, "state.entries.%s: must be an object",
					 pod->string);
		cJSON_ArrayForEach(c, pod) {
			struct cpuset cpus;

			if (!cJSON_IsString(c))
				return cm_errorf(err, "state.entries.%s.%s: must be a cpulist string",
						 pod->string, c->string);
			if (cpuset_parse(&cpus, c->valuestring, err)) {
				cm_error_prefix(err, "state.entries.%s.%s",
						pod->string, c->string);
				return -EINVAL;
			}
			if (assignments_set(&pl->state, pod->string, c->string,
					    &cpus))
				return cm_errorf(err, "state.entries.%s.%s: pod UID or container name too long",
						 pod->string, c->string);
		}
	}
	return 0;
}

static int read_affinity(const cJSON *j, struct plan_step *st,
			 const char *where, struct cm_error *err)
{
	const cJSON *a = json_member(j, "numaAffinity"), *m;

	st->has_affinity = a != NULL;
	if (!a)
		return 0;
	if (!cJSON_IsArray(a))
		return cm_errorf(err, "%s.numaAffinity: must be an array of NUMA node ids",
				 where);
	cJSON_ArrayForEach(m, a) {
		double v = m->valuedouble;

		if (!cJSON_IsNumber(m) || v < 0 || v > 63 || (int)v != v)
			return cm_errorf(err, "%s.numaAffinity: NUMA node ids are integers from 0 to 63",
					 where);
		st->affinity |= UINT64_C(1) << (int)v;
	}
	return 0;
}

static int read_step(const cJSON *j, struct plan_step *st, unsigned int i,
		     struct cm_error *err)
{
	static const char *const alloc_fields[] = {
		"op", "pod", "container", "numaAffinity", NULL
	};
	static const char *const add_fields[] = {
		"op", "pod", "numaAffinity", NULL
	};
	static const char *const remove_fields[] = {
		"op", "podUID", "container", NULL
	};
	const char *op;
	char where[32];

	snprintf(where, sizeof(where), "steps[%u]", i);
	if (!cJSON_IsObject(j))
		return cm_errorf(err, "%s: must be an object", where);
	if (json_opt_string(j, "op", &op, where, err))
		return -EINVAL;
	if (!op)
		return cm_errorf(err, "%s.op: required", where);
	if (!strcmp(op, "remove")) {
		st->op = STEP_REMOVE;
		if (json_only(j, remove_fields, where, err) ||
		    json_opt_string(j, "podUID", &st->pod_uid, where, err) ||
		    json_opt_string(j, "container", &st->container, where, err))
			return -EINVAL;
		if (!st->pod_uid)
			return cm_errorf(err, "%s.podUID: required", where);
		return 0;
	}
	if (!strcmp(op, "allocate"))
		st->op = STEP_ALLOCATE;
	else if (!strcmp(op, "add"))
		st->op = STEP_ADD;
	else
		return cm_errorf(err, "%s.op: \"%s\": must be allocate, add or remove",
				 where, op);
	if (json_only(j, st->op == STEP_ADD ? add_fields : alloc_fields,
		      where, err) ||
	    read_affinity(j, st, where, err))
		return -EINVAL;
	if (!json_member(j, "pod"))
		return cm_errorf(err, "%s.pod: required", where);
	if (pod_from_json(json_member(j, "pod"), &st->pod, err)) {
		cm_error_prefix(err, "%s.pod", where);
		return -EINVAL;
	}
	if (st->op == STEP_ADD)
		return 0;
	if (json_opt_string(j, "container", &st->container, where, err))
		return -EINVAL;
	if (!st->container)
		return cm_errorf(err, "%s.container: required", where);
	if (!pod_container(&st->pod, st->container))
		return cm_errorf(err, "%s.container: \"%s\" is not a container of pod %s/%s",
				 where, st->container, st->pod.ns,
				 st->pod.name);
	return 0;
}

static int read_steps(const cJSON *req, struct plan *pl, struct cm_error *err)
{
	const cJSON *steps = json_member(req, "steps"), *j;

	if (!steps)
		return cm_errorf(err, "steps: required");
	if (!cJSON_IsArray(steps))
		return cm_errorf(err, "steps: must be an array");
	pl->steps = calloc((size_t)cJSON_GetArraySize(steps) + 1,
			   sizeof(*pl->steps));
	if (!pl->steps)
		return cm_errorf(err, "out of memory");
	cJSON_ArrayForEach(j, steps) {
		if (read_step(j, &pl->steps[pl->nr_steps], pl->nr_steps, err))
			return -EINVAL;
		pl->nr_steps++;
	}
	return 0;
}

static int read_policy_config(const cJSON *req, struct plan *pl,
			      struct policy_config *cfg, struct cm_error *err)
{
	const char *policy, *tm;
	bool has_num;

	memset(cfg, 0, sizeof(*cfg));
	if (json_opt_string(req, "policy", &policy, "", err) ||
	    json_opt_string(req, "topologyManagerPolicy", &tm, "", err))
		return -EINVAL;
	if (!policy)
		return cm_errorf(err, "policy: required (\"static\" or \"none\")");
	if (cpu_policy_parse_kind(policy, &cfg->kind, err) ||
	    (tm && tm_policy_parse(tm, &cfg->tm, err)) ||
	    read_options(req, &cfg->opts, err) ||
	    read_cpuset(req, "reservedCpus", &cfg->reserved_cpus,
			&cfg->has_reserved_cpus, pl->topo, err) ||
	    json_opt_uint(req, "numReservedCpus", CPUSET_MAX_CPUS,
			  &cfg->num_reserved, &has_num, "", err))
		return -EINVAL;
	/* reservedSystemCPUs alone sets the reserved amount */
	if (!has_num)
		cfg->num_reserved = (int)cpuset_count(&cfg->reserved_cpus);
	return 0;
}

static cJSON *assignments_json(const struct cpu_assignments *s)
{
	cJSON *all = cJSON_CreateObject(), *pod = NULL;
	const char *uid = NULL;

	for (unsigned int i = 0; all && i < s->nr; i++) {
		const struct assignment_entry *e = &s->entries[i];

		if (!uid || strcmp(uid, e->pod_uid)) {
			pod = cJSON_AddObjectToObject(all, e->pod_uid);
			uid = e->pod_uid;
		}
		if (!pod || add_cpuset(pod, e->container, &e->cpus)) {
			cJSON_Delete(all);
			return NULL;
		}
	}
	return all;
}

/* "podCpus": the pod pools (the kubelet's podEntries), when there are any */
static int pools_json(cJSON *out, const struct cpu_assignments *s)
{
	cJSON *pools;

	if (!s->nr_pods)
		return 0;
	pools = cJSON_AddObjectToObject(out, "podCpus");
	for (unsigned int i = 0; pools && i < s->nr_pods; i++)
		if (add_cpuset(pools, s->pods[i].pod_uid, &s->pods[i].cpus))
			return -ENOMEM;
	return pools ? 0 : -ENOMEM;
}

static void remove_pod(struct plan *pl, const char *uid)
{
	char names[64][CONTAINER_NAME_MAX + 1];
	unsigned int n;

	do {
		n = 0;
		for (unsigned int i = 0; i < pl->state.nr && n < 64; i++)
			if (!strcmp(pl->state.entries[i].pod_uid, uid))
				strcpy(names[n++],
				       pl->state.entries[i].container);
		for (unsigned int i = 0; i < n; i++)
			cpu_policy_remove(&pl->policy, &pl->state, uid,
					  names[i]);
	} while (n == 64);
}

static int run_step(struct plan *pl, struct plan_step *st, cJSON *out)
{
	struct cm_error err = { 0 };
	const uint64_t *aff = st->has_affinity ? &st->affinity : NULL;
	const struct cpuset *mine;
	int ret = 0;

	switch (st->op) {
	case STEP_ALLOCATE: {
		const struct pod_container *c = pod_container(&st->pod,
							      st->container);
		uint64_t mask;
		bool has;

		if (!aff) {
			ret = cpu_policy_admit(&pl->policy, &pl->state,
					       &st->pod, c, &mask, &has, &err);
			aff = has ? &mask : NULL;
		}
		if (!ret)
			ret = cpu_policy_allocate(&pl->policy, &pl->state,
						  &st->pod, c, aff, &err);
		break;
	}
	case STEP_ADD:
		ret = cpu_policy_add_pod(&pl->policy, &pl->state, &st->pod, aff,
					 &err);
		break;
	case STEP_REMOVE:
		if (st->container)
			cpu_policy_remove(&pl->policy, &pl->state, st->pod_uid,
					  st->container);
		else
			remove_pod(pl, st->pod_uid);
		break;
	}
	if (ret)
		cJSON_AddStringToObject(out, "error", cm_error_msg(&err));
	cm_error_clear(&err);
	/* only an allocate step names CPUs; the others say null */
	mine = st->op == STEP_ALLOCATE ?
	       assignments_get(&pl->state, st->pod.uid, st->container) : NULL;
	if (mine ? add_cpuset(out, "cpus", mine) :
	    !cJSON_AddNullToObject(out, "cpus"))
		return -ENOMEM;
	if (add_cpuset(out, "defaultCpuSet", &pl->state.default_set))
		return -ENOMEM;
	cJSON_AddItemToObject(out, "assignments", assignments_json(&pl->state));
	return pools_json(out, &pl->state);
}

static int run_policy(const cJSON *req, struct plan *pl, cJSON **result,
		      struct cm_error *err)
{
	static const char *const fields[] = {
		"topology", "policy", "reservedCpus", "numReservedCpus",
		"options", "topologyManagerPolicy", "state", "steps",
		"kubeletVersion", "featureGates", NULL
	};
	struct policy_config cfg;
	cJSON *res, *steps;

	if (json_only(req, fields, "", err) || read_topology(req, pl, err) ||
	    read_policy_config(req, pl, &cfg, err) ||
	    read_kubelet(req, pl, &cfg.opts, err) ||
	    read_state(req, pl, err) || read_steps(req, pl, err))
		return -EINVAL;
	cfg.kubelet_minor = pl->minor;
	cfg.pod_level = pl->pod_level;
	if (cpu_policy_check_config(&cfg, err) ||
	    cpu_policy_init(&pl->policy, pl->topo, &cfg, err))
		return -EINVAL;
	pl->policy_ready = true;
	if (cpu_policy_start(&pl->policy, &pl->state, err))
		return -EINVAL;

	res = cJSON_CreateObject();
	if (!res || add_cpuset(res, "reservedCpus", &pl->policy.reserved) ||
	    add_cpuset(res, "defaultCpuSet", &pl->state.default_set) ||
	    /* the checkpoint that kubelet writes */
	    (pl->minor && !cJSON_AddNumberToObject(res, "checkpointVersion",
			kubelet_checkpoint_version(pl->minor,
						   pl->pod_level))) ||
	    !(steps = cJSON_AddArrayToObject(res, "steps")))
		goto nomem;
	for (unsigned int i = 0; i < pl->nr_steps; i++) {
		cJSON *out = cJSON_CreateObject();

		if (!out)
			goto nomem;
		cJSON_AddItemToArray(steps, out);
		if (run_step(pl, &pl->steps[i], out))
			goto nomem;
	}
	*result = res;
	return 0;
nomem:
	cJSON_Delete(res);
	return cm_errorf(err, "out of memory");
}

static void plan_free(struct plan *pl)
{
	for (unsigned int i = 0; i < pl->nr_steps + (pl->steps ? 1 : 0); i++)
		pod_free(&pl->steps[i].pod);
	free(pl->steps);
	if (pl->policy_ready)
		cpu_policy_destroy(&pl->policy);
	assignments_free(&pl->state);
	topology_free(pl->topo);
}

cJSON *plan_run(const cJSON *req, struct cm_error *err)
{
	struct plan pl = { 0 };
	cJSON *result = NULL;
	int ret;

	assignments_init(&pl.state);
	if (!cJSON_IsObject(req))
		ret = cm_errorf(err, "the request must be a JSON object");
	else if (json_member(req, "policy") || json_member(req, "steps"))
		ret = run_policy(req, &pl, &result, err);
	else
		ret = run_take(req, &pl, &result, err);
	plan_free(&pl);
	return ret ? NULL : result;
}
