// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "json_util.h"
#include "podlist.h"

static const char *str_member(const cJSON *obj, const char *name)
{
	const cJSON *m = json_member(obj, name);

	return cJSON_IsString(m) ? m->valuestring : NULL;
}

/*
 * kind and apiVersion of an object: required at the top level, optional
 * for the items of a PodList (the API server leaves them out there).
 */
static int check_type(const cJSON *obj, bool required, const char **kind,
		      struct cm_error *err)
{
	const char *api = str_member(obj, "apiVersion");

	*kind = str_member(obj, "kind");
	if (!cJSON_IsObject(obj))
		return cm_errorf(err, "not an object");
	if (!*kind && required)
		return cm_errorf(err, "Object 'Kind' is missing");
	if (!api && required)
		return cm_errorf(err, "Object 'apiVersion' is missing");
	if (api && strcmp(api, "v1"))
		return cm_errorf(err, "kind \"%s\" of apiVersion \"%s\": want apiVersion \"v1\"",
				 *kind ? *kind : "", api);
	return 0;
}

static int add_pod(struct pod_list *l, const cJSON *obj, struct cm_error *err)
{
	struct pod *p;

	p = realloc(l->pods, (l->nr + 1) * sizeof(*p));
	if (!p)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	l->pods = p;
	if (pod_from_json(obj, &p[l->nr], err))
		return -EINVAL;
	for (unsigned int i = 0; i < l->nr; i++)
		if (!strcmp(p[i].uid, p[l->nr].uid)) {
			cm_errorf(err, "pod UID \"%s\" given twice (%s/%s and %s/%s)",
				  p[i].uid, p[i].ns, p[i].name, p[l->nr].ns,
				  p[l->nr].name);
			pod_free(&p[l->nr]);
			return -EINVAL;
		}
	l->nr++;
	return 0;
}

static int add_items(struct pod_list *l, const cJSON *list, bool pod_list,
		     struct cm_error *err)
{
	const cJSON *items = json_member(list, "items"), *it;
	int i = 0;

	if (items && !cJSON_IsArray(items))
		return cm_errorf(err, "items: must be an array");
	cJSON_ArrayForEach(it, items) {
		const char *kind;
		int ret;

		/* a List may hold anything; a PodList holds pods */
		ret = check_type(it, !pod_list, &kind, err);
		if (!ret && kind && strcmp(kind, "Pod"))
			ret = cm_errorf(err, "kind \"%s\" is not a Pod", kind);
		if (!ret)
			ret = add_pod(l, it, err);
		if (ret) {
			cm_error_prefix(err, "items[%d]", i);
			return ret;
		}
		i++;
	}
	return 0;
}

static int add_document(struct pod_list *l, const cJSON *doc,
			struct cm_error *err)
{
	const char *kind;

	if (check_type(doc, true, &kind, err))
		return -EINVAL;
	if (!strcmp(kind, "Pod"))
		return add_pod(l, doc, err);
	if (!strcmp(kind, "PodList") || !strcmp(kind, "List"))
		return add_items(l, doc, !strcmp(kind, "PodList"), err);
	return cm_errorf(err, "kind \"%s\" is not a Pod (want Pod, PodList or a List of Pods)",
			 kind);
}

int pod_list_from_docs(const cJSON *docs, const char *name,
		       struct pod_list *out, struct cm_error *err)
{
	int n = cJSON_GetArraySize(docs), i = 0, nr_docs = 0;
	const cJSON *doc;

	memset(out, 0, sizeof(*out));
	cJSON_ArrayForEach(doc, docs)
		nr_docs += !cJSON_IsNull(doc);
	if (!nr_docs)
		return cm_errorf(err, "%s: no objects", name);
	cJSON_ArrayForEach(doc, docs) {
		i++;
		if (cJSON_IsNull(doc))
			continue;
		if (add_document(out, doc, err)) {
			if (n > 1)
				cm_error_prefix(err, "%s: document %d", name, i);
			else
				cm_error_prefix(err, "%s", name);
			pod_list_free(out);
			return -EINVAL;
		}
	}
	return 0;
}

int pod_list_load(const char *path, struct pod_list *out,
		  struct cm_error *err)
{
	cJSON *docs = manifest_load(path, err);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!docs)
		return -EINVAL;
	ret = pod_list_from_docs(docs, strcmp(path, "-") ? path : "stdin", out,
				 err);
	cJSON_Delete(docs);
	return ret;
}

void pod_list_free(struct pod_list *l)
{
	for (unsigned int i = 0; i < l->nr; i++)
		pod_free(&l->pods[i]);
	free(l->pods);
	memset(l, 0, sizeof(*l));
}
