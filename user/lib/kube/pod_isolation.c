// SPDX-License-Identifier: GPL-2.0
/*
 * Quiet CPUs on request: CRI-O's high-performance annotations and
 * cpumgr's own (pod.h).  CRI-O reads them leniently (a value it does not
 * know leaves the default); here a bad key or value of either is refused
 * with its reason, as the prefer-shared-cpus annotations are: a typo
 * would otherwise leave a latency-critical container on a noisy CPU
 * without a word.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "pod.h"

#define CRIO_DOMAIN	".crio.io"
#define CPUMGR_DOMAIN	".cpumgr.io/"
#define CONTAINER_KEY	"container."
/* max_latency:<us>, as CRI-O takes it (a positive int) */
#define MAX_LATENCY	"max_latency:"

static const char *const names[POD_ISO_NR] = {
	[POD_ISO_CPU_LB] = "cpu-load-balancing",
	[POD_ISO_IRQ] = "irq-load-balancing",
	[POD_ISO_QUOTA] = "cpu-quota",
	[POD_ISO_CSTATES] = "cpu-c-states",
	[POD_ISO_GOVERNOR] = "cpu-freq-governor",
};

const char *pod_isolation_name(enum pod_iso_what what)
{
	return names[what];
}

/* A governor's name as cpufreq spells them: [a-z0-9_], 1 to 31 bytes. */
static bool governor_valid(const char *v)
{
	size_t n = strlen(v);

	if (!n || n >= POD_ISO_VALUE_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(islower((unsigned char)v[i]) ||
		      isdigit((unsigned char)v[i]) || v[i] == '_'))
			return false;
	return true;
}

static bool latency_valid(const char *v)
{
	char *end;
	long us;

	if (strncmp(v, MAX_LATENCY, strlen(MAX_LATENCY)))
		return false;
	v += strlen(MAX_LATENCY);
	if (!isdigit((unsigned char)*v))
		return false;
	errno = 0;
	us = strtol(v, &end, 10);
	return !*end && !errno && us > 0 && us <= 2000000000L;
}

/* The value of k, normalised into k->value; -EINVAL with the reason. */
static int value_of(const char *key, const char *v,
		    struct pod_isolation_key *k, struct cm_error *err)
{
	bool off = v && (!strcmp(v, "disable") ||
			 (k->crio && !strcmp(v, "true")));

	if (!v)
		return cm_errorf(err, "annotation %s: not a string", key);
	switch (k->what) {
	case POD_ISO_CPU_LB:
	case POD_ISO_QUOTA:
		if (!off && strcmp(v, "enable"))
			return cm_errorf(err, "annotation %s: \"%s\": must be \"disable\" or \"enable\"",
					 key, v);
		break;
	case POD_ISO_IRQ:
		if (!off && strcmp(v, "enable") && strcmp(v, "housekeeping"))
			return cm_errorf(err, "annotation %s: \"%s\": must be \"disable\", \"housekeeping\" or \"enable\"",
					 key, v);
		break;
	case POD_ISO_CSTATES:
		if (strcmp(v, "enable") && strcmp(v, "disable") &&
		    !latency_valid(v))
			return cm_errorf(err, "annotation %s: \"%s\": must be \"enable\", \"disable\" or \"max_latency:<microseconds>\"",
					 key, v);
		break;
	case POD_ISO_GOVERNOR:
		if (!governor_valid(v))
			return cm_errorf(err, "annotation %s: \"%s\": must be a cpufreq governor's name (lower case, digits, '_')",
					 key, v);
		break;
	default:
		break;
	}
	snprintf(k->value, sizeof(k->value), "%s", off ? "disable" : v);
	return 0;
}

/* rest is "pod" or "container.NAME" (cpumgr's shape) into k. */
static int cpumgr_scope(const char *key, const char *rest,
			struct pod_isolation_key *k, struct cm_error *err)
{
	const char *prefix = key;
	int plen = (int)(rest - key);

	if (!strcmp(rest, "pod")) {
		k->pod = true;
		return 0;
	}
	if (strncmp(rest, CONTAINER_KEY, strlen(CONTAINER_KEY)))
		return cm_errorf(err, "annotation %s: unknown key (%.*spod or %.*s%sNAME)",
				 key, plen, prefix, plen, prefix,
				 CONTAINER_KEY);
	rest += strlen(CONTAINER_KEY);
	if (!pod_name_valid(rest))
		return cm_errorf(err, "annotation %s: \"%s\" is no container name (a DNS label: lower case alphanumerics and '-', at most 63)",
				 key, rest);
	strcpy(k->container, rest);
	return 0;
}

int pod_isolation_key(const char *key, const char *value,
		      struct pod_isolation_key *k, struct cm_error *err)
{
	for (int w = 0; w < POD_ISO_NR; w++) {
		size_t nl = strlen(names[w]);
		const char *rest = key + nl;

		if (strncmp(key, names[w], nl))
			continue;
		memset(k, 0, sizeof(*k));
		k->what = w;
		if (!strncmp(rest, CPUMGR_DOMAIN, strlen(CPUMGR_DOMAIN))) {
			if (cpumgr_scope(key, rest + strlen(CPUMGR_DOMAIN), k,
					 err))
				return -EINVAL;
		} else if (!strncmp(rest, CRIO_DOMAIN, strlen(CRIO_DOMAIN)) &&
			   (!rest[strlen(CRIO_DOMAIN)] ||
			    rest[strlen(CRIO_DOMAIN)] == '/')) {
			k->crio = true;
			rest += strlen(CRIO_DOMAIN);
			k->pod = !*rest;
			if (!k->pod && !pod_name_valid(rest + 1))
				return cm_errorf(err, "annotation %s: \"%s\" is no container name (a DNS label: lower case alphanumerics and '-', at most 63)",
						 key, rest + 1);
			if (!k->pod)
				strcpy(k->container, rest + 1);
		} else {
			return 0;
		}
		return value_of(key, value, k, err) ? -EINVAL : 1;
	}
	return 0;
}

void pod_isolation_key_name(const struct pod_isolation_key *k, char *buf,
			    size_t len)
{
	const char *n = names[k->what];

	if (k->crio)
		snprintf(buf, len, "%s%s%s%s", n, CRIO_DOMAIN,
			 k->pod ? "" : "/", k->pod ? "" : k->container);
	else
		snprintf(buf, len, "%s%s%s%s", n, CPUMGR_DOMAIN,
			 k->pod ? "pod" : CONTAINER_KEY,
			 k->pod ? "" : k->container);
}

/* Whether the normalised value v of what asks for something. */
static bool asks(enum pod_iso_what what, const char *v)
{
	if (what == POD_ISO_CSTATES || what == POD_ISO_GOVERNOR)
		return true;
	return strcmp(v, "enable") != 0;
}

int pod_isolation_resolve(const struct pod_isolation_key *keys, size_t n,
			  const char *name, struct pod_isolation *out,
			  struct cm_error *err)
{
	/* [what][level: 0 the pod's, 1 the container's] */
	const struct pod_isolation_key *got[POD_ISO_NR][2] = { { NULL } };

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const struct pod_isolation_key *k = &keys[i], **slot;
		char a[128], b[128];

		if (!k->pod && strcmp(k->container, name))
			continue;
		slot = &got[k->what][!k->pod];
		if (*slot && strcmp((*slot)->value, k->value)) {
			pod_isolation_key_name(*slot, a, sizeof(a));
			pod_isolation_key_name(k, b, sizeof(b));
			return cm_errorf(err, "annotations %s and %s disagree (\"%s\", \"%s\")",
					 a, b, (*slot)->value, k->value);
		}
		*slot = k;
	}
	for (int w = 0; w < POD_ISO_NR; w++) {
		const struct pod_isolation_key *k = got[w][1] ? got[w][1] :
						    got[w][0];
		const char *v = k ? k->value : NULL;

		if (!v)
			continue;
		if (got[w][1] && asks(w, v))
			out->by_container |= 1u << w;
		switch (w) {
		case POD_ISO_CPU_LB:
			out->cpu_lb_off = !strcmp(v, "disable");
			break;
		case POD_ISO_IRQ:
			out->irq = !strcmp(v, "disable") ? POD_IRQ_OFF :
				   !strcmp(v, "housekeeping") ?
				   POD_IRQ_HOUSEKEEPING : POD_IRQ_ON;
			break;
		case POD_ISO_QUOTA:
			out->quota_off = !strcmp(v, "disable");
			break;
		case POD_ISO_CSTATES:
			snprintf(out->cstates, sizeof(out->cstates), "%s", v);
			break;
		case POD_ISO_GOVERNOR:
			snprintf(out->governor, sizeof(out->governor), "%s", v);
			break;
		}
	}
	return 0;
}

int pod_isolation_apply(struct pod *p, const cJSON *annotations,
			struct cm_error *err)
{
	struct pod_isolation_key *keys;
	size_t n = 0;
	const cJSON *a;
	int ret = 0;

	if (!annotations)
		return 0;
	if (!cJSON_IsObject(annotations))
		return cm_errorf(err, "metadata.annotations: must be an object");
	keys = calloc((size_t)cJSON_GetArraySize(annotations) + 1,
		      sizeof(*keys));
	if (!keys)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	cJSON_ArrayForEach(a, annotations) {
		int r = pod_isolation_key(a->string, cJSON_GetStringValue(a),
					  &keys[n], err);

		if (r < 0) {
			ret = r;
			goto out;
		}
		if (!r)
			continue;
		if (!keys[n].pod && !pod_container(p, keys[n].container)) {
			ret = cm_errorf(err, "annotation %s: the pod has no container \"%s\"",
					a->string, keys[n].container);
			goto out;
		}
		n++;
	}
	for (unsigned int i = 0; i < p->nr && !ret; i++)
		ret = pod_isolation_resolve(keys, n, p->containers[i].name,
					    &p->containers[i].iso, err);
out:
	free(keys);
	return ret;
}

int pod_isolation_record(cJSON *obj, const char *name,
			 const struct pod_isolation_key *keys, size_t n)
{
	cJSON *meta = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
	cJSON *a = meta ? cJSON_GetObjectItemCaseSensitive(meta, "annotations") :
		   NULL;
	struct pod_isolation_key k;
	struct cm_error err = { 0 };
	char key[128];
	cJSON *e, *next;

	/* the pod's keys and name's go; other containers' stay */
	for (e = a ? a->child : NULL; e; e = next) {
		next = e->next;
		if (pod_isolation_key(e->string, cJSON_GetStringValue(e), &k,
				      &err) > 0 &&
		    (k.pod || !strcmp(k.container, name)))
			cJSON_Delete(cJSON_DetachItemViaPointer(a, e));
		cm_error_clear(&err);
	}
	for (size_t i = 0; i < n; i++) {
		if (!keys[i].pod && strcmp(keys[i].container, name))
			continue;
		if (!meta)
			meta = cJSON_AddObjectToObject(obj, "metadata");
		if (meta && !a)
			a = cJSON_AddObjectToObject(meta, "annotations");
		pod_isolation_key_name(&keys[i], key, sizeof(key));
		if (!a)
			return -ENOMEM;
		cJSON_DeleteItemFromObjectCaseSensitive(a, key);
		if (!cJSON_AddStringToObject(a, key, keys[i].value))
			return -ENOMEM;
	}
	return 0;
}

bool pod_isolation_any(const struct pod_isolation *iso)
{
	return iso->cpu_lb_off || iso->irq != POD_IRQ_ON || iso->quota_off ||
	       iso->cstates[0] || iso->governor[0];
}

void pod_isolation_describe(const struct pod_isolation *iso, char *buf,
			    size_t len)
{
	size_t at = 0;

#define ADD(...) do {							\
	if (at < len)							\
		at += (size_t)snprintf(buf + at, len - at, "%s",	\
				       at ? "," : "");			\
	if (at < len)							\
		at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__); \
} while (0)
	if (len)
		buf[0] = '\0';
	if (iso->cpu_lb_off)
		ADD("%s=disable", names[POD_ISO_CPU_LB]);
	if (iso->irq == POD_IRQ_OFF)
		ADD("%s=disable", names[POD_ISO_IRQ]);
	else if (iso->irq == POD_IRQ_HOUSEKEEPING)
		ADD("%s=housekeeping", names[POD_ISO_IRQ]);
	if (iso->quota_off)
		ADD("%s=disable", names[POD_ISO_QUOTA]);
	if (iso->cstates[0])
		ADD("%s=%s", names[POD_ISO_CSTATES], iso->cstates);
	if (iso->governor[0])
		ADD("%s=%s", names[POD_ISO_GOVERNOR], iso->governor);
#undef ADD
	if (!at && len)
		snprintf(buf, len, "none");
}
