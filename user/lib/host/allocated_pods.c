// SPDX-License-Identifier: GPL-2.0
/* The kubelet's allocated_pods_state: one pod's pod-level spec (allocated_pods.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "allocated_pods.h"
#include "checkpoint.h"
#include "gojson.h"
#include "json_util.h"

/* The Checkpoint struct's members as encoding/json fills them. */
struct outer {
	const struct gojson_value *data, *checksum, *version;
};

static int read_outer(const struct gojson_value *root, struct outer *o,
		      struct cm_error *err)
{
	*o = (struct outer){ 0 };
	if (root->type != GOJSON_OBJECT)
		return cm_errorf(err, "json: cannot unmarshal %s into Go value of type state.Checkpoint",
				 gojson_kind(root));
	/* Go's rules: gojson_field_match(), the last one wins */
	for (const struct gojson_value *m = root->child; m; m = m->next) {
		if (gojson_field_match(m, "data"))
			o->data = m;
		else if (gojson_field_match(m, "checksum"))
			o->checksum = m;
		else if (gojson_field_match(m, "version"))
			o->version = m;
	}
	if (o->data && o->data->type != GOJSON_STRING &&
	    o->data->type != GOJSON_NULL)
		return cm_errorf(err, "json: cannot unmarshal %s into Go struct field Checkpoint.data of type string",
				 gojson_kind(o->data));
	if (o->version && o->version->type != GOJSON_STRING &&
	    o->version->type != GOJSON_NULL)
		return cm_errorf(err, "json: cannot unmarshal %s into Go struct field Checkpoint.version of type string",
				 gojson_kind(o->version));
	if (o->checksum && o->checksum->type != GOJSON_NUMBER &&
	    o->checksum->type != GOJSON_NULL)
		return cm_errorf(err, "json: cannot unmarshal %s into Go struct field Checkpoint.checksum of type checksum.Checksum",
				 gojson_kind(o->checksum));
	return 0;
}

/* checksum.Checksum is a uint64: a literal it cannot hold is refused. */
static int read_checksum(const struct gojson_value *v, uint64_t *sum,
			 struct cm_error *err)
{
	char *end;

	*sum = 0;
	if (!v || v->type == GOJSON_NULL)
		return 0;
	errno = 0;
	*sum = strtoull(v->str, &end, 10);
	if (v->str[0] == '-' || *end || errno)
		return cm_errorf(err, "json: cannot unmarshal number %s into Go struct field Checkpoint.checksum of type checksum.Checksum",
				 v->str);
	return 0;
}

static bool is_version(const struct gojson_value *v, const char *want)
{
	size_t len = v && v->type == GOJSON_STRING ? v->len : 0;

	return len == strlen(want) && !memcmp(len ? v->str : "", want, len);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int add_containers(cJSON *spec, const cJSON *resources)
{
	cJSON *cs = cJSON_AddArrayToObject(spec, "containers");
	unsigned int nr = 0, i = 0;
	const char **names;
	const cJSON *c;
	int ret = 0;

	if (!cs)
		return -ENOMEM;
	/* map[string]ResourceRequirements: anything else names none */
	if (!cJSON_IsObject(resources))
		return 0;
	cJSON_ArrayForEach(c, resources)
		nr++;
	names = calloc(nr ? nr : 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	cJSON_ArrayForEach(c, resources)
		names[i++] = c->string;
	qsort(names, nr, sizeof(*names), by_name);
	for (i = 0; i < nr && !ret; i++) {
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(resources,
								  names[i]);
		cJSON *ctr = cJSON_CreateObject();

		if (!ctr || !cJSON_AddItemToArray(cs, ctr) ||
		    !cJSON_AddStringToObject(ctr, "name", names[i]) ||
		    !cJSON_AddItemToObject(ctr, "resources",
					   cJSON_IsObject(r) ?
					   cJSON_Duplicate(r, true) :
					   cJSON_CreateObject()))
			ret = -ENOMEM;
	}
	free(names);
	return ret;
}

/* The pod's entry in data, as a Pod spec; NULL without pod-level resources. */
static int pod_spec(const char *data, size_t len, const char *uid,
		    cJSON **spec, struct cm_error *err)
{
	cJSON *doc = cJSON_ParseWithLength(data, len);
	const cJSON *pod, *level, *crs;
	int ret = 0;

	if (!doc)
		return cm_errorf(err, "data: not JSON");
	pod = cJSON_GetObjectItemCaseSensitive(json_member(doc, "entries"),
					       uid);
	level = pod ? cJSON_GetObjectItem(pod, "PodLevelResources") : NULL;
	crs = pod ? cJSON_GetObjectItem(pod, "ContainerResources") : NULL;
	if (cJSON_IsObject(level)) {
		*spec = cJSON_CreateObject();
		if (!*spec ||
		    !cJSON_AddItemToObject(*spec, "resources",
					   cJSON_Duplicate(level, true)) ||
		    add_containers(*spec, crs)) {
			cJSON_Delete(*spec);
			*spec = NULL;
			cm_errorf(err, "out of memory");
			ret = -ENOMEM;
		}
	}
	cJSON_Delete(doc);
	return ret;
}

static int parse(const char *text, size_t len, const char *uid, cJSON **spec,
		 struct cm_error *err)
{
	struct gojson_value *root = gojson_parse(text, len, err);
	uint64_t sum;
	struct outer o;
	int ret;

	if (!root)
		return -EINVAL;
	ret = read_outer(root, &o, err) ?: read_checksum(o.checksum, &sum, err);
	if (!ret && o.version && o.version->type == GOJSON_STRING &&
	    !is_version(o.version, "") && !is_version(o.version, "v2"))
		ret = cm_errorf(err, "unsupported checkpoint version \"%.*s\": cpumgr reads the unversioned and \"v2\" ones",
				(int)o.version->len, o.version->str);
	/* Checksum.Verify(): checksum.New(data) of the string */
	if (o.data && o.data->type != GOJSON_STRING)
		o.data = NULL;
	if (!ret && sum != checkpoint_string_checksum(o.data ? o.data->str : "",
						      o.data ? o.data->len : 0))
		ret = cm_errorf(err, CHECKPOINT_ERR_CORRUPT);
	if (!ret && o.data)
		ret = pod_spec(o.data->str, o.data->len, uid, spec, err);
	gojson_free(root);
	return ret;
}

int allocated_pod_spec(const char *path, const char *uid, cJSON **spec,
		       struct cm_error *err)
{
	FILE *f = fopen(path, "re");
	size_t len = 0;
	char *text;
	int ret;

	*spec = NULL;
	if (!f)
		return errno == ENOENT ? 0 :
		       cm_errorf(err, "%s: %s", path, strerror(errno));
	text = file_slurp(f, &len);
	fclose(f);
	if (!text)
		return cm_errorf(err, "%s: cannot read it", path);
	ret = parse(text, len, uid, spec, err);
	if (ret)
		gojson_error_prefix(err, path, text, len);
	free(text);
	return ret;
}
