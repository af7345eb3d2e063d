// SPDX-License-Identifier: GPL-2.0
/*
 * Shared CPUs on request: the prefer-shared-cpus.cpumgr.io annotations
 * (pod.h).  Strict where the ecosystem is lax (nri-plugins and CRI-O
 * ignore what they do not understand): a typo would otherwise leave a
 * sidecar holding exclusive CPUs without a word.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "json_util.h"
#include "pod.h"

#define CONTAINER_KEY	"container."

int pod_shared_key(const char *key, const char *value,
		   struct pod_shared_key *k, struct cm_error *err)
{
	size_t plen = strlen(POD_SHARED_CPUS_PREFIX);
	const char *rest = key + plen;

	if (strncmp(key, POD_SHARED_CPUS_PREFIX, plen))
		return 0;
	memset(k, 0, sizeof(*k));
	if (!strcmp(rest, "pod")) {
		k->pod = true;
	} else if (!strncmp(rest, CONTAINER_KEY, strlen(CONTAINER_KEY))) {
		rest += strlen(CONTAINER_KEY);
		if (!pod_name_valid(rest))
			return cm_errorf(err, "annotation %s: \"%s\" is no container name (a DNS label: lower case alphanumerics and '-', at most 63)",
					 key, rest), -EINVAL;
		strcpy(k->container, rest);
	} else {
		return cm_errorf(err, "annotation %s: unknown key (%spod or %s%sNAME)",
				 key, POD_SHARED_CPUS_PREFIX,
				 POD_SHARED_CPUS_PREFIX, CONTAINER_KEY), -EINVAL;
	}
	if (!value || (strcmp(value, "true") && strcmp(value, "false")))
		return cm_errorf(err, "annotation %s: \"%s\": must be \"true\" or \"false\"",
				 key, value ? value : "(not a string)"), -EINVAL;
	k->on = !strcmp(value, "true");
	return 1;
}

int pod_shared_apply(struct pod *p, const cJSON *annotations,
		     struct cm_error *err)
{
	bool named[p->nr ? p->nr : 1];
	int pod_level = -1;
	const cJSON *a;

	if (!annotations)
		return 0;
	if (!cJSON_IsObject(annotations))
		return cm_errorf(err, "metadata.annotations: must be an object");
	memset(named, 0, sizeof(named));
	cJSON_ArrayForEach(a, annotations) {
		struct pod_shared_key k;
		const struct pod_container *c;
		int r = pod_shared_key(a->string, cJSON_GetStringValue(a), &k,
				       err);

		if (r <= 0) {
			if (r)
				return r;
			continue;
		}
		if (k.pod) {
			pod_level = k.on;
			continue;
		}
		c = pod_container(p, k.container);
		if (!c)
			return cm_errorf(err, "annotation %s: the pod has no container \"%s\"",
					 a->string, k.container), -EINVAL;
		named[c - p->containers] = true;
		p->containers[c - p->containers].shared = k.on;
	}
	for (unsigned int i = 0; i < p->nr; i++)
		if (!named[i] && pod_level >= 0)
			p->containers[i].shared = pod_level;
	return 0;
}

int pod_shared_record(cJSON *obj, const char *name, bool shared)
{
	cJSON *meta = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
	cJSON *a = meta ? cJSON_GetObjectItemCaseSensitive(meta, "annotations") :
		   NULL;
	char key[sizeof(POD_SHARED_CPUS_PREFIX CONTAINER_KEY) +
		 CONTAINER_NAME_MAX];

	snprintf(key, sizeof(key), "%s%s%s", POD_SHARED_CPUS_PREFIX,
		 CONTAINER_KEY, name);
	if (a)
		cJSON_DeleteItemFromObjectCaseSensitive(a, key);
	if (!shared)
		return 0;
	if (!meta)
		meta = cJSON_AddObjectToObject(obj, "metadata");
	if (meta && !a)
		a = cJSON_AddObjectToObject(meta, "annotations");
	return a && cJSON_AddStringToObject(a, key, "true") ? 0 : -ENOMEM;
}
