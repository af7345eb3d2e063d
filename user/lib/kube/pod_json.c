// SPDX-License-Identifier: GPL-2.0
/*
 * A Pod from its JSON (the API's v1 Pod): metadata, the containers'
 * requests and limits, then the shared-CPUs annotations (pod_shared.c)
 * and the isolation ones (pod_isolation.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "pod.h"

static const char *const res_name[RES_NR] = { "cpu", "memory" };

/* One of requests/limits: cpu and memory kept, the others checked. */
static int read_list(const cJSON *list, const char *where, bool *has,
		     struct quantity *q, struct cm_error *err)
{
	const cJSON *m;

	if (!list)
		return 0;
	if (!cJSON_IsObject(list))
		return cm_errorf(err, "%s: must be an object", where);
	cJSON_ArrayForEach(m, list) {
		struct quantity tmp = { 0 };
		const char *text;
		char num[32];
		int r = -1;

		/* Quantity.UnmarshalJSON takes a bare number too (cpu: 2) */
		if (cJSON_IsNumber(m))
			text = json_number_text(m, num, sizeof(num));
		else if (cJSON_IsString(m))
			text = m->valuestring;
		else
			return cm_errorf(err, "%s.%s: must be a string quantity",
					 where, m->string);
		for (int i = 0; i < RES_NR; i++)
			if (!strcmp(m->string, res_name[i]))
				r = i;
		if ((r == RES_CPU ? quantity_parse_cpu :
		     quantity_parse)(text, &tmp, err)) {
			cm_error_prefix(err, "%s.%s: \"%s\"", where, m->string,
					text);
			return -EINVAL;
		}
		if (tmp.nano < 0)
			return cm_errorf(err, "%s.%s: \"%s\": must be greater than or equal to 0",
					 where, m->string, text);
		if (r >= 0) {
			has[r] = true;
			q[r] = tmp;
		}
	}
	return 0;
}

static int read_container(const cJSON *j, const char *where, bool init,
			  struct pod_container *c, struct cm_error *err)
{
	const char *name, *policy;
	const cJSON *res;
	char sub[160];

	if (!cJSON_IsObject(j))
		return cm_errorf(err, "%s: must be an object", where);
	if (json_opt_string(j, "name", &name, where, err) ||
	    json_opt_string(j, "restartPolicy", &policy, where, err))
		return -EINVAL;
	if (!name || !pod_name_valid(name))
		return cm_errorf(err, "%s.name: \"%s\": must be a DNS label (lower case alphanumerics and '-', at most 63)",
				 where, name ? name : "");
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->init = init;
	if (policy && (!init || strcmp(policy, "Always")))
		return cm_errorf(err, "%s.restartPolicy: \"%s\": only \"Always\" on an init container is supported",
				 where, policy);
	c->restartable = policy != NULL;
	res = json_member(j, "resources");
	if (res) {
		if (!cJSON_IsObject(res))
			return cm_errorf(err, "%s.resources: must be an object",
					 where);
		snprintf(sub, sizeof(sub), "%s.resources.requests", where);
		if (read_list(json_member(res, "requests"), sub, c->has_request,
			      c->request, err))
			return -EINVAL;
		snprintf(sub, sizeof(sub), "%s.resources.limits", where);
		if (read_list(json_member(res, "limits"), sub, c->has_limit,
			      c->limit, err))
			return -EINVAL;
	}
	/* API defaulting: a request not given defaults to the limit */
	for (int r = 0; r < RES_NR; r++)
		if (c->has_limit[r] && !c->has_request[r]) {
			c->has_request[r] = true;
			c->request[r] = c->limit[r];
		}
	return 0;
}

static int read_containers(const cJSON *spec, const char *field, bool init,
			   struct pod *p, struct cm_error *err)
{
	const cJSON *arr = json_member(spec, field), *j;
	char where[96];
	int i = 0;

	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return cm_errorf(err, "spec.%s: must be an array", field);
	cJSON_ArrayForEach(j, arr) {
		struct pod_container *c = &p->containers[p->nr];

		snprintf(where, sizeof(where), "spec.%s[%d]", field, i++);
		if (read_container(j, where, init, c, err))
			return -EINVAL;
		for (unsigned int k = 0; k < p->nr; k++)
			if (!strcmp(p->containers[k].name, c->name))
				return cm_errorf(err, "%s.name: Duplicate value: \"%s\"",
						 where, c->name);
		p->nr++;
	}
	return 0;
}

/* spec.resources, defaulted as a container's: a request to its limit */
static int read_pod_resources(const cJSON *spec, struct pod *p,
			      struct cm_error *err)
{
	const cJSON *res = json_member(spec, "resources");

	if (!res)
		return 0;
	if (!cJSON_IsObject(res))
		return cm_errorf(err, "spec.resources: must be an object");
	if (read_list(json_member(res, "requests"), "spec.resources.requests",
		      p->has_pod_request, p->pod_request, err) ||
	    read_list(json_member(res, "limits"), "spec.resources.limits",
		      p->has_pod_limit, p->pod_limit, err))
		return -EINVAL;
	for (int r = 0; r < RES_NR; r++)
		if (p->has_pod_limit[r] && !p->has_pod_request[r]) {
			p->has_pod_request[r] = true;
			p->pod_request[r] = p->pod_limit[r];
		}
	return 0;
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

int pod_from_json(const cJSON *obj, struct pod *p, struct cm_error *err)
{
	const cJSON *meta, *spec, *status, *a, *b;
	const char *uid, *name, *ns, *qos = NULL;
	unsigned int total;

	memset(p, 0, sizeof(*p));
	if (!cJSON_IsObject(obj))
		return cm_errorf(err, "pod: must be an object");
	meta = json_member(obj, "metadata");
	spec = json_member(obj, "spec");
	status = json_member(obj, "status");
	if (!cJSON_IsObject(meta) || !cJSON_IsObject(spec))
		return cm_errorf(err, "pod: metadata and spec must be objects");
	if (json_opt_string(meta, "uid", &uid, "metadata", err) ||
	    json_opt_string(meta, "name", &name, "metadata", err) ||
	    json_opt_string(meta, "namespace", &ns, "metadata", err) ||
	    (cJSON_IsObject(status) &&
	     json_opt_string(status, "qosClass", &qos, "status", err)))
		return -EINVAL;
	if (!uid || !*uid || strlen(uid) > POD_UID_MAX)
		return cm_errorf(err, "metadata.uid: required, at most %d bytes",
				 POD_UID_MAX);
	if (qos && strcmp(qos, "Guaranteed") && strcmp(qos, "Burstable") &&
	    strcmp(qos, "BestEffort"))
		return cm_errorf(err, "status.qosClass: \"%s\": unknown QoS class",
				 qos);
	a = json_member(spec, "initContainers");
	b = json_member(spec, "containers");
	total = (unsigned int)((cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0) +
			       (cJSON_IsArray(b) ? cJSON_GetArraySize(b) : 0));
	snprintf(p->uid, sizeof(p->uid), "%s", uid);
	p->name = dup_or_empty(name);
	p->ns = dup_or_empty(ns);
	p->status_qos = qos ? strdup(qos) : NULL;
	p->containers = calloc(total ? total : 1, sizeof(*p->containers));
	if (!p->name || !p->ns || (qos && !p->status_qos) || !p->containers) {
		pod_free(p);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	if (read_containers(spec, "initContainers", true, p, err))
		goto fail;
	p->nr_init = p->nr;
	if (read_containers(spec, "containers", false, p, err))
		goto fail;
	if (read_pod_resources(spec, p, err))
		goto fail;
	if (p->nr == p->nr_init) {
		cm_errorf(err, "spec.containers: Required value");
		goto fail;
	}
	if (pod_shared_apply(p, json_member(meta, "annotations"), err) ||
	    pod_isolation_apply(p, json_member(meta, "annotations"), err))
		goto fail;
	return 0;
fail:
	pod_free(p);
	return -EINVAL;
}
