// SPDX-License-Identifier: GPL-2.0
/*
 * pods/<uid>.json: an admitted pod as the controller needs it later
 * (reconcile, CFS limits, restore of the cgroup bindings):
 *
 *   {"pod": <the Pod object>, "podCgroup": "/sys/fs/cgroup/kubepods/p1",
 *    "containers": {"app": {"cgroup": "...", "removed": false,
 *                           "admittedCpus": "2-3"}}}
 *
 * admittedCpus (after a resize only): the CPUs given at admission.  Not
 * in the checkpoint, which stays the kubelet's format (its checksum
 * covers the kubelet's fields, and the kubelet rewrites it without ours).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "json_util.h"
#include "node.h"
#include "node_internal.h"

void node_pod_free(struct node_pod *p)
{
	pod_free(&p->pod);
	cJSON_Delete(p->obj);
	free(p->c);
	memset(p, 0, sizeof(*p));
}

int node_pod_container(const struct node_pod *p, const char *name)
{
	for (unsigned int i = 0; i < p->pod.nr; i++)
		if (!strcmp(p->pod.containers[i].name, name))
			return (int)i;
	return -1;
}

/* n->pods is sorted by UID (node_load_pods(), node_add_pod()). */
struct node_pod *node_find_pod(struct node *n, const char *uid)
{
	unsigned int lo = 0, hi = n->nr_pods;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = strcmp(n->pods[mid].pod.uid, uid);

		if (!c)
			return &n->pods[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A pod UID is a file name here: what the kernel takes, and no more. */
static int check_uid(const char *uid, struct cm_error *err)
{
	size_t len = strlen(uid);

	if (!len || len > POD_UID_MAX || strchr(uid, '/') ||
	    !strcmp(uid, ".") || !strcmp(uid, ".."))
		return cm_errorf(err, "pod UID \"%s\": must be 1-%d printable characters without \"/\"",
				 uid, POD_UID_MAX);
	for (const char *p = uid; *p; p++)
		if (*p <= ' ' || *p == 0x7f)
			return cm_errorf(err, "pod UID \"%s\": must be 1-%d printable characters without \"/\"",
					 uid, POD_UID_MAX);
	return 0;
}

static int path_member(const cJSON *j, const char *k, char *out,
		       struct cm_error *err)
{
	const cJSON *v = json_member(j, k);

	out[0] = '\0';
	if (!v)
		return 0;
	if (!cJSON_IsString(v) || strlen(v->valuestring) >= PATH_MAX)
		return cm_errorf(err, "\"%s\" must be a path", k);
	strcpy(out, v->valuestring);
	return 0;
}

/* "podCpu": {"requestMilli": N, "limitMilli": N}, when there is one. */
static int pod_cpu_from_record(struct node_pod *p, const cJSON *j,
			       struct cm_error *err)
{
	const cJSON *req = json_member(j, "requestMilli");
	const cJSON *lim = json_member(j, "limitMilli");

	if (!j)
		return 0;
	if (!cJSON_IsNumber(req) || !cJSON_IsNumber(lim) ||
	    req->valuedouble < 0 || lim->valuedouble < 0 ||
	    req->valuedouble > 1e12 || lim->valuedouble > 1e12)
		return cm_errorf(err, "\"podCpu\" must hold requestMilli and limitMilli, millicores");
	p->has_pod_cpu = true;
	p->pod_cpu_request_milli = (int64_t)req->valuedouble;
	p->pod_cpu_limit_milli = (int64_t)lim->valuedouble;
	return 0;
}

/* The record from its JSON; takes obj's "pod" member. */
static int pod_from_record(struct node_pod *p, cJSON *rec,
			   struct cm_error *err)
{
	const cJSON *cs = json_member(rec, "containers");
	cJSON *obj = cJSON_DetachItemFromObjectCaseSensitive(rec, "pod");

	memset(p, 0, sizeof(*p));
	if (!obj)
		return cm_errorf(err, "no \"pod\" member");
	p->obj = obj;
	if (pod_from_json(obj, &p->pod, err) ||
	    check_uid(p->pod.uid, err) ||
	    path_member(rec, "podCgroup", p->pod_cgroup, err))
		goto bad;
	p->c = calloc(p->pod.nr ? p->pod.nr : 1, sizeof(*p->c));
	if (!p->c) {
		cm_errorf(err, "out of memory");
		goto bad;
	}
	for (unsigned int i = 0; i < p->pod.nr; i++) {
		const cJSON *c = json_member(cs, p->pod.containers[i].name);

		const cJSON *adm = json_member(c, "admittedCpus");

		if (path_member(c, "cgroup", p->c[i].cgroup, err))
			goto bad;
		p->c[i].removed = cJSON_IsTrue(json_member(c, "removed"));
		p->c[i].exited = cJSON_IsTrue(json_member(c, "exited"));
		if (!adm)
			continue;
		if (!cJSON_IsString(adm) ||
		    cpuset_parse(&p->c[i].admitted, adm->valuestring, NULL) ||
		    cpuset_empty(&p->c[i].admitted)) {
			cm_errorf(err, "container %s: \"admittedCpus\" must be a cpulist",
				  p->pod.containers[i].name);
			goto bad;
		}
		p->c[i].has_admitted = true;
	}
	if (pod_cpu_from_record(p, json_member(rec, "podCpu"), err))
		goto bad;
	return 0;
bad:
	node_pod_free(p);
	return -EINVAL;
}

static cJSON *pod_to_record(const struct node_pod *p)
{
	cJSON *rec = cJSON_CreateObject(), *cs, *obj;
	bool ok;

	obj = cJSON_Duplicate(p->obj, true);
	ok = rec && obj && cJSON_AddItemToObject(rec, "pod", obj);
	if (!ok)
		cJSON_Delete(obj);
	ok = ok && cJSON_AddStringToObject(rec, "podCgroup", p->pod_cgroup);
	cs = ok ? cJSON_AddObjectToObject(rec, "containers") : NULL;
	ok = ok && cs;
	for (unsigned int i = 0; ok && i < p->pod.nr; i++) {
		cJSON *c = cJSON_AddObjectToObject(cs,
						   p->pod.containers[i].name);

		ok = c && cJSON_AddStringToObject(c, "cgroup", p->c[i].cgroup) &&
		     cJSON_AddBoolToObject(c, "removed", p->c[i].removed);
		if (ok && p->c[i].exited)
			ok = cJSON_AddBoolToObject(c, "exited", true);
		if (ok && p->c[i].has_admitted) {
			char *t = cpuset_to_str(&p->c[i].admitted);

			ok = t && cJSON_AddStringToObject(c, "admittedCpus", t);
			free(t);
		}
	}
	if (ok && p->has_pod_cpu) {
		cJSON *pc = cJSON_AddObjectToObject(rec, "podCpu");

		ok = pc && cJSON_AddNumberToObject(pc, "requestMilli",
						   (double)p->pod_cpu_request_milli) &&
		     cJSON_AddNumberToObject(pc, "limitMilli",
					     (double)p->pod_cpu_limit_milli);
	}
	if (!ok) {
		cJSON_Delete(rec);
		return NULL;
	}
	return rec;
}

static int pods_dir(const struct node *n, char *buf, size_t len)
{
	return snprintf(buf, len, "%s/%s", n->files.dir, NODE_PODS_DIR) >= (int)len ?
	       -ENAMETOOLONG : 0;
}

static bool is_temp(const char *name)
{
	return name[0] == '.' && strstr(name, ATOMIC_FILE_TMP_INFIX);
}

static int add_record(struct node *n, struct node_pod *p,
		      struct cm_error *err)
{
	struct node_pod *v = realloc(n->pods, (n->nr_pods + 1) * sizeof(*v));

	if (!v) {
		node_pod_free(p);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	n->pods = v;
	n->pods[n->nr_pods++] = *p;
	return 0;
}

static int cmp_pods(const void *a, const void *b)
{
	return strcmp(((const struct node_pod *)a)->pod.uid,
		      ((const struct node_pod *)b)->pod.uid);
}

int node_load_pods(struct node *n, struct cm_error *err)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (pods_dir(n, dir, sizeof(dir)))
		return cm_errorf(err, "%s: path too long", n->files.dir), -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 :
		       (cm_errorf(err, "%s: %s", dir, strerror(errno)), -EIO);
	while (!ret && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct node_pod p;
		cJSON *rec;

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		/* temp files of a writer that died: we hold the lock */
		if (is_temp(de->d_name)) {
			if (!n->read_only)
				unlink(path);
			continue;
		}
		if (len < 6 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		ret = node_read_json(path, &rec, err);
		if (!ret) {
			ret = pod_from_record(&p, rec, err);
			cJSON_Delete(rec);
			if (ret)
				cm_error_prefix(err, "%s", path);
		}
		if (!ret) {
			node_pod_mark_system(n, &p.pod);
			ret = add_record(n, &p, err);
		}
	}
	closedir(d);
	if (n->nr_pods)
		qsort(n->pods, n->nr_pods, sizeof(*n->pods), cmp_pods);
	return ret;
}

int node_save_pod(struct node *n, const struct node_pod *p,
		  struct cm_error *err)
{
	char dir[PATH_MAX], name[POD_UID_MAX + 8];
	cJSON *rec = pod_to_record(p);
	char *text = rec ? cJSON_Print(rec) : NULL;
	int ret;

	cJSON_Delete(rec);
	if (!text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	pods_dir(n, dir, sizeof(dir));
	ret = atomic_file_mkdir(dir, 0755, err);
	if (ret) {
		free(text);
		return ret;
	}
	snprintf(name, sizeof(name), "%s.json", p->pod.uid);
	ret = node_write_file(dir, name, text, strlen(text), err);
	free(text);
	return ret;
}

int node_delete_pod(struct node *n, const char *uid, struct cm_error *err)
{
	char path[PATH_MAX + 80];
	int ret = 0;

	pods_dir(n, path, sizeof(path));
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s.json",
		 uid);
	if (unlink(path) && errno != ENOENT) {
		ret = -errno;
		cm_errorf(err, "cannot remove %s: %s", path, strerror(errno));
	}
	for (unsigned int i = 0; i < n->nr_pods; i++) {
		if (strcmp(n->pods[i].pod.uid, uid))
			continue;
		node_pod_free(&n->pods[i]);
		memmove(&n->pods[i], &n->pods[i + 1],
			(n->nr_pods - i - 1) * sizeof(*n->pods));
		n->nr_pods--;
		break;
	}
	return ret;
}

/* A CPU quantity as a Pod object spells it: "2", "1500m". */
static void cpu_quantity(int64_t milli, char *buf, size_t len)
{
	if (milli % 1000)
		snprintf(buf, len, "%" PRId64 "m", milli);
	else
		snprintf(buf, len, "%" PRId64, milli / 1000);
}

/* resources.<kind>.cpu of container object c: milli, none for 0. */
static int put_cpu(cJSON *c, const char *kind, int64_t milli)
{
	cJSON *res = cJSON_GetObjectItemCaseSensitive(c, "resources"), *q;
	char v[32];

	if (!res && !milli)
		return 0;
	if (!res)
		res = cJSON_AddObjectToObject(c, "resources");
	q = res ? cJSON_GetObjectItemCaseSensitive(res, kind) : NULL;
	if (!q && !milli)
		return 0;
	if (!q)
		q = cJSON_AddObjectToObject(res, kind);
	if (!q)
		return -ENOMEM;
	cJSON_DeleteItemFromObjectCaseSensitive(q, "cpu");
	if (!milli)
		return 0;
	cpu_quantity(milli, v, sizeof(v));
	return cJSON_AddStringToObject(q, "cpu", v) ? 0 : -ENOMEM;
}

/* The container object of spec.containers or spec.initContainers. */
static cJSON *container_object(cJSON *obj, const char *name)
{
	static const char *const lists[] = { "containers", "initContainers" };
	cJSON *spec = cJSON_GetObjectItemCaseSensitive(obj, "spec"), *c;

	for (size_t l = 0; l < 2; l++) {
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(spec, lists[l])) {
			const cJSON *cn = json_member(c, "name");

			if (cJSON_IsString(cn) && !strcmp(cn->valuestring, name))
				return c;
		}
	}
	return NULL;
}

int node_pod_set_cpu(struct node *n, struct node_pod *p, unsigned int k,
		     int64_t request_milli, int64_t limit_milli,
		     struct cm_error *err)
{
	cJSON *obj = cJSON_Duplicate(p->obj, true);
	cJSON *c = obj ? container_object(obj, p->pod.containers[k].name) :
		   NULL;
	struct node_pod next = *p;
	struct pod pod;
	int ret;

	if (!c) {
		cJSON_Delete(obj);
		return cm_errorf(err, "pod %s: cannot record the CPUs of container %s",
				 p->pod.uid, p->pod.containers[k].name), -ENOMEM;
	}
	if (put_cpu(c, "requests", request_milli) ||
	    put_cpu(c, "limits", limit_milli)) {
		cJSON_Delete(obj);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	if (pod_from_json(obj, &pod, err)) {
		cJSON_Delete(obj);
		return -EINVAL;
	}
	node_pod_mark_system(n, &pod);
	/* the file first: the record changes only once it is written */
	next.obj = obj;
	next.pod = pod;
	ret = node_save_pod(n, &next, err);
	if (ret) {
		pod_free(&pod);
		cJSON_Delete(obj);
		return ret;
	}
	pod_free(&p->pod);
	cJSON_Delete(p->obj);
	p->pod = pod;
	p->obj = obj;
	return 0;
}

struct node_pod *node_add_pod(struct node *n, const cJSON *obj,
			      struct cm_error *err)
{
	cJSON *rec = cJSON_CreateObject(), *copy = cJSON_Duplicate(obj, true);
	struct node_pod p, *old;
	int ret;

	if (!rec || !copy || !cJSON_AddItemToObject(rec, "pod", copy)) {
		cJSON_Delete(rec);
		cJSON_Delete(copy);
		cm_errorf(err, "out of memory");
		return NULL;
	}
	ret = pod_from_record(&p, rec, err);
	cJSON_Delete(rec);
	if (ret)
		return NULL;
	node_pod_mark_system(n, &p.pod);
	old = node_find_pod(n, p.pod.uid);
	if (old) {
		/* the pod's own resize stays the pod's */
		p.has_pod_cpu = old->has_pod_cpu;
		p.pod_cpu_request_milli = old->pod_cpu_request_milli;
		p.pod_cpu_limit_milli = old->pod_cpu_limit_milli;
		node_pod_free(old);
		*old = p;
		return old;
	}
	if (add_record(n, &p, err))
		return NULL;
	qsort(n->pods, n->nr_pods, sizeof(*n->pods), cmp_pods);
	return node_find_pod(n, p.pod.uid);
}

bool node_pod_system(const struct node *n, const struct pod *p)
{
	return node_system_namespace(&n->cfg, p->ns);
}

void node_pod_mark_system(const struct node *n, struct pod *p)
{
	if (!node_pod_system(n, p))
		return;
	/* the static policy's guaranteedCPUs() is 0 for each of them */
	for (unsigned int i = 0; i < p->nr; i++)
		p->containers[i].shared = true;
}
