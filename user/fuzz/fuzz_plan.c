// SPDX-License-Identifier: GPL-2.0
/*
 * Plan requests through the library functions `cpumgrctl plan` uses
 * (its own request reading stays in cpumgrctl/cmd_plan.c): the request
 * text through json_parse_text() (the plain-JSON fast path and cJSON, whose
 * trees must agree), the topology through topology_from_json() (the
 * "sysfs" form, a reader of files, is left out), options, cpulists,
 * a restored state, pods, and then the allocator (a "take" request) or
 * the static/none policy with allocate, add and remove steps.
 */
#include <errno.h>

#include "alloc.h"
#include "fuzz_util.h"
#include "json_util.h"
#include "options.h"
#include "pod.h"
#include "policy_static.h"
#include "assignments.h"
#include "topology_json.h"

static int get_cpuset(const cJSON *obj, const char *name, struct cpuset *s,
		      bool *present, struct cm_error *err)
{
	const char *text;

	cpuset_zero(s);
	*present = false;
	if (json_opt_string(obj, name, &text, "", err))
		return -EINVAL;
	if (!text)
		return 0;
	*present = true;
	return cpuset_parse(s, text, err);
}

static int get_options(const cJSON *req, struct policy_options *o,
		       struct cm_error *err)
{
	const cJSON *opts = json_member(req, "options"), *m;

	memset(o, 0, sizeof(*o));
	cJSON_ArrayForEach(m, (cJSON_IsObject(opts) ? opts : NULL)) {
		if (!cJSON_IsString(m) || !m->string)
			return cm_errorf(err, "option");
		if (options_set(o, m->string, m->valuestring, err))
			return -EINVAL;
	}
	return options_check(o, err);
}

static int take(const cJSON *req, const struct topology *t,
		struct cm_error *err)
{
	struct alloc_request ar = { 0 };
	struct cpuset avail, out;
	struct policy_options o;
	bool has_avail, has_count;

	if (get_cpuset(req, "available", &avail, &has_avail, err) ||
	    json_opt_uint(req, "count", CPUSET_MAX_CPUS, &ar.num_cpus,
			  &has_count, "", err) ||
	    get_options(req, &o, err) ||
	    options_validate(&o, t, TM_POLICY_NONE, err))
		return -EINVAL;
	cpuset_and(&avail, &avail, &t->cpus);
	ar.distribute_numa = o.distribute_numa;
	ar.cpu_group_size = o.full_pcpus_only ?
			    topology_cpus_per(t, TOPO_CORE) : 1;
	ar.spread = o.distribute_cores;
	ar.prefer_uncore = o.prefer_uncore;
	if (alloc_take(t, NULL, &avail, &ar, &out, err))
		return -EINVAL;
	fuzz_assert(cpuset_subset(&out, &avail));
	fuzz_assert(cpuset_count(&out) == (unsigned int)ar.num_cpus);
	return 0;
}

static int get_state(const cJSON *req, struct cpu_assignments *s,
		     struct cm_error *err)
{
	const cJSON *st = json_member(req, "state");
	const cJSON *entries = json_member(st, "entries"), *pod, *c;
	bool present;

	if (get_cpuset(st, "defaultCpuSet", &s->default_set, &present, err))
		return -EINVAL;
	cJSON_ArrayForEach(pod, (cJSON_IsObject(entries) ? entries : NULL)) {
		cJSON_ArrayForEach(c, (cJSON_IsObject(pod) ? pod : NULL)) {
			struct cpuset cpus;

			if (!cJSON_IsString(c) ||
			    cpuset_parse(&cpus, c->valuestring, err) ||
			    assignments_set(s, pod->string, c->string, &cpus))
				return cm_errorf(err, "entry");
		}
	}
	return 0;
}

static void step(struct cpu_policy *p, struct cpu_assignments *s,
		 const cJSON *j)
{
	const char *op = cJSON_GetStringValue(json_member(j, "op"));
	const char *name = cJSON_GetStringValue(json_member(j, "container"));
	const cJSON *aff = json_member(j, "numaAffinity"), *m;
	const struct pod_container *c;
	struct cm_error err = { 0 };
	uint64_t mask = 0;
	bool has = false;
	struct pod pod;

	if (!op)
		return;
	if (!strcmp(op, "remove")) {
		const char *uid = cJSON_GetStringValue(json_member(j, "podUID"));

		if (uid && name)
			cpu_policy_remove(p, s, uid, name);
		return;
	}
	cJSON_ArrayForEach(m, (cJSON_IsArray(aff) ? aff : NULL)) {
		if (!cJSON_IsNumber(m) || m->valuedouble < 0 ||
		    m->valuedouble > 63 || (int)m->valuedouble != m->valuedouble)
			return;
		mask |= UINT64_C(1) << (int)m->valuedouble;
		has = true;
	}
	if (pod_from_json(json_member(j, "pod"), &pod, &err)) {
		fuzz_assert(err.msg);
		cm_error_clear(&err);
		return;
	}
	if (!strcmp(op, "add")) {
		if (cpu_policy_add_pod(p, s, &pod, has ? &mask : NULL, &err))
			fuzz_assert(err.msg);
	} else if (name && (c = pod_container(&pod, name))) {
		if (!has && cpu_policy_admit(p, s, &pod, c, &mask, &has, &err))
			fuzz_assert(err.msg);
		else if (cpu_policy_allocate(p, s, &pod, c, has ? &mask : NULL,
					     &err))
			fuzz_assert(err.msg);
	}
	cm_error_clear(&err);
	pod_free(&pod);
}

static int policy(const cJSON *req, const struct topology *t,
		  struct cm_error *err)
{
	const char *kind, *tm;
	const cJSON *steps = json_member(req, "steps"), *j;
	struct policy_config cfg = { 0 };
	struct cpu_policy p;
	struct cpu_assignments s;
	bool has_num;
	int ret;

	if (json_opt_string(req, "policy", &kind, "", err) ||
	    json_opt_string(req, "topologyManagerPolicy", &tm, "", err) ||
	    !kind || cpu_policy_parse_kind(kind, &cfg.kind, err) ||
	    (tm && tm_policy_parse(tm, &cfg.tm, err)) ||
	    get_options(req, &cfg.opts, err) ||
	    get_cpuset(req, "reservedCpus", &cfg.reserved_cpus,
		       &cfg.has_reserved_cpus, err) ||
	    json_opt_uint(req, "numReservedCpus", CPUSET_MAX_CPUS,
			  &cfg.num_reserved, &has_num, "", err))
		return -EINVAL;
	if (!has_num)
		cfg.num_reserved = (int)cpuset_count(&cfg.reserved_cpus);
	if (cpu_policy_check_config(&cfg, err) ||
	    cpu_policy_init(&p, t, &cfg, err))
		return -EINVAL;
	assignments_init(&s);
	ret = get_state(req, &s, err);
	if (!ret)
		ret = cpu_policy_start(&p, &s, err);
	cJSON_ArrayForEach(j, (ret || !cJSON_IsArray(steps) ? NULL : steps)) {
		step(&p, &s, j);
		/* exclusive CPUs never stay in the shared pool */
		for (unsigned int i = 0; i < s.nr; i++)
			fuzz_assert(!cpuset_intersects(&s.entries[i].cpus,
						       &s.default_set) ||
				    cfg.kind == CPU_POLICY_NONE);
	}
	assignments_free(&s);
	cpu_policy_destroy(&p);
	return ret;
}

/* The fast path and cJSON read the same text the same way. */
static cJSON *parse(const char *text, struct cm_error *err)
{
	cJSON *j = json_parse_text(text, "fuzz", err);
	cJSON *ref = cJSON_ParseWithOpts(text, NULL, true);
	struct cm_error ref_err = { 0 };

	/* what json_parse_text() does after either parser */
	if (ref && json_go_rules(ref, text, "fuzz", &ref_err)) {
		cJSON_Delete(ref);
		ref = NULL;
	}
	cm_error_clear(&ref_err);
	/* printed, not cJSON_Compare(): that one mixes up duplicate keys */
	char *a = j ? cJSON_PrintUnformatted(j) : NULL;
	char *b = ref ? cJSON_PrintUnformatted(ref) : NULL;

	if (!j != !ref || (a && b && strcmp(a, b))) {
		fprintf(stderr, "json_parse_text(): %s\ncJSON: %s\n",
			a ? a : "(refused)", b ? b : "(refused)");
		abort();
	}
	free(a);
	free(b);
	cJSON_Delete(ref);
	return j;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cm_error err = { 0 };
	struct topology *t = NULL;
	char *text = fuzz_text(data, size);
	const cJSON *topo;
	cJSON *req;

	if (!text)
		return 0;
	req = parse(text, &err);
	topo = json_member(req, "topology");
	if (!cJSON_IsObject(req) || !topo || json_member(topo, "sysfs"))
		goto out;
	t = topology_from_json(topo, &err);
	if (!t) {
		fuzz_assert(err.msg);
		goto out;
	}
	if (json_member(req, "policy") || json_member(req, "steps"))
		policy(req, t, &err);
	else
		take(req, t, &err);
out:
	topology_free(t);
	cJSON_Delete(req);
	cm_error_clear(&err);
	free(text);
	return 0;
}
