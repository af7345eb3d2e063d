// SPDX-License-Identifier: GPL-2.0
/* OCI runtime hooks: the state, the bundle's config, cgroup paths. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfs.h"
#include "json_util.h"
#include "oci.h"

struct oci_keys {
	const char *source, *uid, *name, *type, *qos, *pod_name, *pod_ns;
};

static const struct oci_keys keys[] = {
	{ "containerd", "io.kubernetes.cri.sandbox-uid",
	  "io.kubernetes.cri.container-name",
	  "io.kubernetes.cri.container-type", NULL,
	  "io.kubernetes.cri.sandbox-name",
	  "io.kubernetes.cri.sandbox-namespace" },
	{ "cri-o", "io.kubernetes.pod.uid", "io.kubernetes.container.name",
	  "io.kubernetes.cri-o.ContainerType", NULL,
	  "io.kubernetes.pod.name", "io.kubernetes.pod.namespace" },
	{ "cpumgr", "io.cpumgr.pod-uid", "io.cpumgr.container-name", NULL,
	  "io.cpumgr.qos", NULL, NULL },
};

static const char *annotation(const cJSON *a, const char *key)
{
	const cJSON *v = key ? json_member(a, key) : NULL;

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int oci_copy(char *dst, size_t len, const char *src, const char *what,
	     struct cm_error *err)
{
	if (strlen(src) >= len)
		return cm_errorf(err, "%s \"%.40s...\" is too long", what, src);
	strcpy(dst, src);
	return 0;
}

static int parse_qos(const char *s, enum pod_qos *out, struct cm_error *err)
{
	static const enum pod_qos all[] = {
		QOS_GUARANTEED, QOS_BURSTABLE, QOS_BEST_EFFORT,
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (!strcasecmp(s, pod_qos_name(all[i]))) {
			*out = all[i];
			return 0;
		}
	}
	return cm_errorf(err, "io.cpumgr.qos \"%s\": not Guaranteed, Burstable or BestEffort",
			 s);
}

void oci_set_pod_name(struct oci_container *c, const char *name,
		      const char *ns)
{
	if (name && strlen(name) < sizeof(c->pod_name))
		strcpy(c->pod_name, name);
	if (ns && strlen(ns) < sizeof(c->pod_namespace))
		strcpy(c->pod_namespace, ns);
}

/* Who the container is; c->kind stays OCI_UNMANAGED without a pod UID. */
static int identify(const cJSON *a, struct oci_container *c,
		    struct cm_error *err)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct oci_keys *k = &keys[i];
		const char *uid = annotation(a, k->uid);
		const char *name = annotation(a, k->name);
		const char *type = annotation(a, k->type);
		const char *qos = annotation(a, k->qos);

		if (!uid || !*uid)
			continue;
		c->source = k->source;
		if (oci_copy(c->pod_uid, sizeof(c->pod_uid), uid, "pod UID", err))
			return -EINVAL;
		c->kind = type && !strcmp(type, "sandbox") ? OCI_SANDBOX :
			  OCI_CONTAINER;
		if (c->kind == OCI_SANDBOX || (name && !strcmp(name, "POD")))
			name = OCI_SANDBOX_NAME;
		if (c->kind == OCI_CONTAINER && name &&
		    !strcmp(name, OCI_SANDBOX_NAME))
			c->kind = OCI_SANDBOX;
		if (!name || !*name)
			return cm_errorf(err, "container %s of pod %s: no %s annotation",
					 c->id, uid, k->name);
		if (oci_copy(c->name, sizeof(c->name), name, "container name",
			 err))
			return -EINVAL;
		if (qos) {
			if (parse_qos(qos, &c->qos, err))
				return -EINVAL;
			c->has_qos = true;
		}
		oci_set_pod_name(c, annotation(a, k->pod_name),
				 annotation(a, k->pod_ns));
		return 0;
	}
	return 0;
}

int oci_isolation_key(struct oci_container *c, const char *key,
		      const char *value, struct cm_error *err)
{
	struct pod_isolation_key k;
	int ret = pod_isolation_key(key, value, &k, err);

	if (ret <= 0 || (!k.pod && strcmp(k.container, c->name)))
		return ret < 0 ? ret : 0;
	if (c->nr_iso_keys == POD_ISO_KEYS_MAX)
		return cm_errorf(err, "annotation %s: more isolation annotations than a container can have",
				 key), -E2BIG;
	c->iso_keys[c->nr_iso_keys++] = k;
	return 1;
}

int oci_isolation_check(const struct oci_container *c, struct cm_error *err)
{
	struct pod_isolation iso;

	return pod_isolation_resolve(c->iso_keys, c->nr_iso_keys, c->name,
				     &iso, err);
}

/* The isolation annotations of a spec (the OCI hook's, podman's). */
static int isolation_of(const cJSON *a, struct oci_container *c,
			struct cm_error *err)
{
	const cJSON *m;

	if (!cJSON_IsObject(a))
		return 0;
	cJSON_ArrayForEach(m, a)
		if (oci_isolation_key(c, m->string, cJSON_GetStringValue(m),
				      err) < 0)
			return -EINVAL;
	return oci_isolation_check(c, err);
}

int oci_parse_state(const char *text, struct oci_container *c,
		    struct cm_error *err)
{
	cJSON *j = cJSON_Parse(text);
	const cJSON *id, *pid, *status, *bundle;
	int ret = -EINVAL;

	memset(c, 0, sizeof(*c));
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		return cm_errorf(err, "the state on stdin is not a JSON object");
	}
	id = json_member(j, "id");
	pid = json_member(j, "pid");
	status = json_member(j, "status");
	bundle = json_member(j, "bundle");
	if (!cJSON_IsString(id) || !*id->valuestring) {
		cm_errorf(err, "the state on stdin has no \"id\"");
		goto out;
	}
	if (oci_copy(c->id, sizeof(c->id), id->valuestring, "id", err))
		goto out;
	if (cJSON_IsNumber(pid) && pid->valuedouble > 0 &&
	    pid->valuedouble < INT32_MAX)
		c->pid = (int)pid->valuedouble;
	if (cJSON_IsString(status))
		snprintf(c->status, sizeof(c->status), "%s",
			 status->valuestring);
	if (cJSON_IsString(bundle) &&
	    oci_copy(c->bundle, sizeof(c->bundle), bundle->valuestring, "bundle",
		 err))
		goto out;
	ret = identify(json_member(j, "annotations"), c, err);
out:
	cJSON_Delete(j);
	return ret;
}

static int64_t number(const cJSON *o, const char *k, bool *has)
{
	const cJSON *v = json_member(o, k);

	*has = cJSON_IsNumber(v);
	return *has ? (int64_t)v->valuedouble : 0;
}

int oci_parse_config(const cJSON *config, struct oci_container *c,
		     struct cm_error *err)
{
	const cJSON *lnx = json_member(config, "linux");
	const cJSON *cpu = json_member(json_member(lnx, "resources"), "cpu");
	const cJSON *path = json_member(lnx, "cgroupsPath");
	const cJSON *cpus = json_member(cpu, "cpus");
	bool has_shares, has_quota, has_period;
	int64_t shares, quota, period;

	if (!cJSON_IsObject(config))
		return cm_errorf(err, "config.json is not a JSON object");
	if (c->kind == OCI_UNMANAGED &&
	    identify(json_member(config, "annotations"), c, err))
		return -EINVAL;
	c->nr_iso_keys = 0;
	if (c->kind == OCI_CONTAINER &&
	    isolation_of(json_member(config, "annotations"), c, err))
		return -EINVAL;
	if (cJSON_IsString(path) &&
	    oci_copy(c->cgroups_path, sizeof(c->cgroups_path), path->valuestring,
		 "linux.cgroupsPath", err))
		return -EINVAL;
	shares = number(cpu, "shares", &has_shares);
	quota = number(cpu, "quota", &has_quota);
	period = number(cpu, "period", &has_period);
	c->request_milli = has_shares && shares > 0 ?
			   cfs_shares_to_milli_cpu((uint64_t)shares) : 0;
	c->limit_milli = has_quota ?
			 cfs_quota_to_milli_cpu(quota, has_period &&
						period > 0 ?
					    (uint64_t)period : CFS_QUOTA_PERIOD) :
			 0;
	c->has_cpus = cJSON_IsString(cpus) && *cpus->valuestring;
	if (c->has_cpus && cpuset_parse(&c->cpus, cpus->valuestring, err))
		return cm_error_prefix(err, "linux.resources.cpu.cpus"), -EINVAL;
	return 0;
}

int oci_proc_cgroup(const char *text, char *out, size_t len)
{
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t l = end ? (size_t)(end - line) : strlen(line);

		if (l > 3 && !strncmp(line, "0::", 3)) {
			if (l - 3 >= len)
				return -ENAMETOOLONG;
			memcpy(out, line + 3, l - 3);
			out[l - 3] = '\0';
			/* a task that exited in a removed cgroup */
			if (strstr(out, " (deleted)"))
				return -ENOENT;
			return 0;
		}
		line = end ? end + 1 : NULL;
	}
	return -ENOENT;
}

static int append(char *out, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at + n + 1 >= len)
		return -ENAMETOOLONG;
	memcpy(out + *at, s, n);
	*at += n;
	out[*at] = '\0';
	return 0;
}

/* "a-b-c.slice" -> "/a.slice/a-b.slice/a-b-c.slice" */
static int expand_slice(const char *slice, char *out, size_t len, size_t *at)
{
	size_t l = strlen(slice), base;
	const char *dash;

	if (l < 6 || strcmp(slice + l - 6, ".slice"))
		return -EINVAL;
	base = l - 6;
	if (!strcmp(slice, "-.slice"))
		return 0;
	for (dash = slice; (dash = memchr(dash, '-',
					  base - (size_t)(dash - slice)));
	     dash++) {
		if (dash == slice || append(out, len, at, "/", 1) ||
		    append(out, len, at, slice, (size_t)(dash - slice)) ||
		    append(out, len, at, ".slice", 6))
			return -EINVAL;
	}
	return append(out, len, at, "/", 1) ||
	       append(out, len, at, slice, l) ? -EINVAL : 0;
}

int oci_cgroups_path(const char *given, char *out, size_t len,
		     struct cm_error *err)
{
	const char *c1 = strchr(given, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	char slice[256], prefix[128];
	const char *name;
	size_t at = 0;

	out[0] = '\0';
	if (!c1) {
		if (given[0] != '/')
			return cm_errorf(err, "linux.cgroupsPath \"%s\": relative paths are not supported",
					 given);
		return oci_copy(out, len, given, "linux.cgroupsPath", err);
	}
	if (!c2 || strchr(c2 + 1, ':') ||
	    (size_t)(c1 - given) >= sizeof(slice) ||
	    (size_t)(c2 - c1 - 1) >= sizeof(prefix))
		return cm_errorf(err, "linux.cgroupsPath \"%s\": not \"slice:prefix:name\"",
				 given);
	snprintf(slice, sizeof(slice), "%.*s", (int)(c1 - given), given);
	snprintf(prefix, sizeof(prefix), "%.*s", (int)(c2 - c1 - 1), c1 + 1);
	name = c2 + 1;
	if (!slice[0])
		strcpy(slice, "system.slice");
	if (expand_slice(slice, out, len, &at) || !*name)
		return cm_errorf(err, "linux.cgroupsPath \"%s\": bad slice or name",
				 given);
	/* a name that is a unit is taken as it is, else prefix-name.scope */
	if (strlen(name) > 6 && !strcmp(name + strlen(name) - 6, ".slice"))
		return expand_slice(name, out, len, &at) ?
		       cm_errorf(err, "linux.cgroupsPath \"%s\": too long", given) : 0;
	if (append(out, len, &at, "/", 1) ||
	    (prefix[0] && (append(out, len, &at, prefix, strlen(prefix)) ||
			   append(out, len, &at, "-", 1))) ||
	    append(out, len, &at, name, strlen(name)) ||
	    append(out, len, &at, ".scope", 6))
		return cm_errorf(err, "linux.cgroupsPath \"%s\": too long", given);
	return 0;
}

int oci_parent(const char *path, char *out, size_t len)
{
	size_t l = strlen(path);

	while (l > 1 && path[l - 1] == '/')
		l--;
	while (l && path[l - 1] != '/')
		l--;
	while (l > 1 && path[l - 1] == '/')
		l--;
	if (l <= 1 || l >= len)
		return -EINVAL;
	memcpy(out, path, l);
	out[l] = '\0';
	return 0;
}

enum pod_qos oci_qos_of_path(const char *pod_cgroup)
{
	const char *p = pod_cgroup;

	while (p && *p) {
		size_t l;

		p += strspn(p, "/");
		l = strcspn(p, "/");
		if ((l == 9 && !strncmp(p, "burstable", 9)) ||
		    (l == 24 && !strncmp(p, "kubepods-burstable.slice", 24)))
			return QOS_BURSTABLE;
		if ((l == 10 && !strncmp(p, "besteffort", 10)) ||
		    (l == 25 && !strncmp(p, "kubepods-besteffort.slice", 25)))
			return QOS_BEST_EFFORT;
		p += l;
	}
	return QOS_GUARANTEED;
}

static cJSON *resources(const struct oci_container *c)
{
	cJSON *r = cJSON_CreateObject(), *q;
	char v[32];

	if (!r)
		return NULL;
	if (c->request_milli) {
		q = cJSON_AddObjectToObject(r, "requests");
		snprintf(v, sizeof(v), "%" PRId64 "m", c->request_milli);
		if (!q || !cJSON_AddStringToObject(q, "cpu", v))
			goto fail;
	}
	if (c->limit_milli) {
		q = cJSON_AddObjectToObject(r, "limits");
		snprintf(v, sizeof(v), "%" PRId64 "m", c->limit_milli);
		if (!q || !cJSON_AddStringToObject(q, "cpu", v))
			goto fail;
	}
	return r;
fail:
	cJSON_Delete(r);
	return NULL;
}

static cJSON *new_pod(const struct oci_container *c, enum pod_qos qos)
{
	cJSON *pod = cJSON_CreateObject(), *meta, *status;
	bool ok;

	ok = pod && cJSON_AddStringToObject(pod, "apiVersion", "v1") &&
	     cJSON_AddStringToObject(pod, "kind", "Pod");
	meta = ok ? cJSON_AddObjectToObject(pod, "metadata") : NULL;
	ok = meta && cJSON_AddStringToObject(meta, "uid", c->pod_uid) &&
	     (!*c->pod_name ||
	      cJSON_AddStringToObject(meta, "name", c->pod_name)) &&
	     (!*c->pod_namespace ||
	      cJSON_AddStringToObject(meta, "namespace", c->pod_namespace)) &&
	     cJSON_AddObjectToObject(pod, "spec");
	status = ok ? cJSON_AddObjectToObject(pod, "status") : NULL;
	ok = status && cJSON_AddStringToObject(status, "qosClass",
					       pod_qos_name(qos));
	if (!ok) {
		cJSON_Delete(pod);
		return NULL;
	}
	return pod;
}

cJSON *oci_pod_object(const cJSON *pod, const struct oci_container *c,
		      enum pod_qos qos)
{
	cJSON *obj = pod ? cJSON_Duplicate(pod, true) : new_pod(c, qos);
	cJSON *spec, *cs, *ctr, *old;
	int i;

	if (!obj)
		return NULL;
	spec = cJSON_GetObjectItemCaseSensitive(obj, "spec");
	if (!spec)
		spec = cJSON_AddObjectToObject(obj, "spec");
	cs = spec ? cJSON_GetObjectItemCaseSensitive(spec, "containers") : NULL;
	if (spec && !cs)
		cs = cJSON_AddArrayToObject(spec, "containers");
	ctr = cJSON_CreateObject();
	if (!cs || !cJSON_IsArray(cs) || !ctr ||
	    !cJSON_AddStringToObject(ctr, "name", c->name) ||
	    !cJSON_AddItemToObject(ctr, "resources", resources(c)))
		goto fail;
	for (i = 0; (old = cJSON_GetArrayItem(cs, i)); i++) {
		const cJSON *name = json_member(old, "name");

		if (cJSON_IsString(name) && !strcmp(name->valuestring, c->name))
			break;
	}
	if (old ? !cJSON_ReplaceItemInArray(cs, i, ctr) :
		  !cJSON_AddItemToArray(cs, ctr))
		goto fail;
	/* the array holds it now */
	ctr = NULL;
	if (!pod_shared_record(obj, c->name, c->shared) &&
	    !pod_isolation_record(obj, c->name, c->iso_keys, c->nr_iso_keys))
		return obj;
fail:
	cJSON_Delete(ctr);
	cJSON_Delete(obj);
	return NULL;
}
