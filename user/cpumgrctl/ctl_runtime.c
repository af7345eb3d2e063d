// SPDX-License-Identifier: GPL-2.0
/* One container of a runtime: add and bind it, or release it (ctl_runtime.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "allocated_pods.h"
#include "checkpoint.h"
#include "cmd.h"
#include "ctl_runtime.h"
#include "gojson.h"
#include "json_util.h"

int ctl_runtime_mode(const char *s, enum ctl_runtime_mode *mode)
{
	if (!strcmp(s, "decide"))
		*mode = CTL_MODE_DECIDE;
	else if (!strcmp(s, "guard"))
		*mode = CTL_MODE_GUARD;
	else
		return -EINVAL;
	return 0;
}

int ctl_runtime_spec_cgroup(const struct node *n, const char *cgroups_path,
			    char *out, size_t len, struct cm_error *err)
{
	char rel[PATH_MAX];

	if (!cgroups_path || !*cgroups_path)
		return cm_errorf(err, "no cgroup: linux.cgroupsPath is empty");
	if (oci_cgroups_path(cgroups_path, rel, sizeof(rel), err))
		return -EINVAL;
	if (snprintf(out, len, "%s%s", n->cgroups.fs.root[CGROUPFS_CPUSET], rel) >= (int)len)
		return cm_errorf(err, "cgroup %s: path too long", rel);
	return 0;
}

/*
 * guard: the kubelet's checkpoint has CPUs for the container, of its own
 * or, in a pod with a pod pool (1.36 v3, 1.37 v4), the pool's shared
 * CPUs its spec names: held for the pod in the table (containers of one
 * pod may share CPUs), out of every other pod's reach.
 */
static int kubelet_decided(const struct ctl_runtime *rt,
			   const struct oci_container *c, bool *decided,
			   struct cpuset *pool, struct cm_error *err)
{
	const struct cpuset *kept;
	struct checkpoint cp;
	size_t len = 0;
	char *text;
	FILE *f = fopen(rt->kubelet_state, "re");

	*decided = false;
	cpuset_zero(pool);
	if (!f)
		return errno == ENOENT ? 0 :
		       cm_errorf(err, "%s: %s", rt->kubelet_state,
				 strerror(errno));
	text = file_slurp(f, &len);
	fclose(f);
	if (!text)
		return cm_errorf(err, "%s: cannot read it", rt->kubelet_state);
	if (checkpoint_parse(text, len, NULL, &cp, err)) {
		gojson_error_prefix(err, rt->kubelet_state, text, len);
		free(text);
		return -EINVAL;
	}
	free(text);
	*decided = checkpoint_decided(&cp, c->pod_uid, c->name) !=
		   CHECKPOINT_SHARED;
	kept = assignments_get_pool(&cp.state, c->pod_uid);
	if (kept)
		*pool = *kept;
	checkpoint_free(&cp);
	return 0;
}

/* How the container's CPUs are chosen; in guard mode, the pod's pool. */
static int how_to_add(const struct ctl_runtime *rt, struct oci_container *c,
		      enum node_add_how *how, struct cpuset *pool,
		      struct cm_error *err)
{
	bool decided;

	*how = NODE_ADD_DECIDE;
	cpuset_zero(pool);
	if (c->kind == OCI_SANDBOX) {
		*how = NODE_ADD_SHARED;
		c->request_milli = c->limit_milli = 0;
	} else if (rt->mode == CTL_MODE_GUARD) {
		/* the kubelet decided: its CPUs, whatever the pod asks */
		c->shared = false;
		if (kubelet_decided(rt, c, &decided, pool, err))
			return -EINVAL;
		*how = decided ? NODE_ADD_CPUS : NODE_ADD_SHARED;
		if (decided && !c->has_cpus)
			return cm_errorf(err, "the kubelet's checkpoint %s has CPUs for it, its spec has no linux.resources.cpu.cpus",
					 rt->kubelet_state);
	}
	return 0;
}

/*
 * decide: a pod the kubelet admitted with pod-level resources (its
 * allocated_pods_state, beside its cpu_manager_state) is admitted whole
 * at its first call, as `admit` admits it: its pool, its containers'
 * slices and shares.  Nothing the CRI carries tells such a pod.
 */
static int admit_pod_level(struct node *n, const struct ctl_runtime *rt,
			   const struct oci_container *c, enum pod_qos qos,
			   struct cm_error *err)
{
	const char *state = rt->kubelet_state, *slash;
	char path[PATH_MAX];
	cJSON *spec, *obj;
	int ret, dir;

	/* no kubelet named: none to ask */
	if (!state)
		return 0;
	slash = strrchr(state, '/');
	dir = slash ? (int)(slash - state + 1) : 0;
	if (snprintf(path, sizeof(path), "%.*s%s", dir, state,
		     ALLOCATED_PODS_FILE) >= (int)sizeof(path))
		return cm_errorf(err, "%s: path too long", state);
	if (allocated_pod_spec(path, c->pod_uid, &spec, err))
		return -EINVAL;
	if (!spec)
		return 0;
	/* its pod-level spec in place of the one container's */
	obj = oci_pod_object(NULL, c, qos);
	if (!obj || !cJSON_ReplaceItemInObjectCaseSensitive(obj, "spec", spec)) {
		cJSON_Delete(spec);
		cJSON_Delete(obj);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	ret = node_admit_pod(n, obj, err);
	cJSON_Delete(obj);
	if (ret)
		cm_error_prefix(err, "its pod-level resources (%s)", path);
	else
		node_log(n, "pod %s: pod-level resources in %s, admitted whole",
			 c->pod_uid, path);
	return ret;
}

int ctl_runtime_add(struct node *n, const struct ctl_runtime *rt,
		    struct oci_container *c, const char *cgroup, bool create,
		    struct cm_error *err)
{
	char pod_cgroup[PATH_MAX], name[PATH_MAX];
	struct node_attach a = { 0 };
	struct cm_error ignored = { 0 };
	enum node_add_how how;
	struct cpuset pool;
	struct node_pod *p;
	struct stat st;
	bool existed;
	enum pod_qos qos;
	cJSON *obj;
	int ret;

	if (oci_parent(cgroup, pod_cgroup, sizeof(pod_cgroup)))
		return cm_errorf(err, "cgroup %s has no parent", cgroup);
	qos = c->has_qos ? c->qos : oci_qos_of_path(pod_cgroup);
	if (how_to_add(rt, c, &how, &pool, err))
		return -EINVAL;
	if (how == NODE_ADD_DECIDE && node_cgroup_has_tasks(n, cgroup))
		how = NODE_ADD_DECIDE_RUNNING;
	else if (how == NODE_ADD_DECIDE && create)
		how = NODE_ADD_DECIDE_NEW;
	p = node_find_pod(n, c->pod_uid);
	if (!p && rt->mode == CTL_MODE_DECIDE) {
		if (admit_pod_level(n, rt, c, qos, err))
			return -EINVAL;
		p = node_find_pod(n, c->pod_uid);
	}
	obj = oci_pod_object(p ? p->obj : NULL, c, qos);
	if (!obj)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = node_add_container(n, obj, c->name, how, &c->cpus, err);
	cJSON_Delete(obj);
	/* the kubelet's pod pool, held once its container's CPUs are */
	if (!ret && !cpuset_empty(&pool))
		ret = node_set_pool(n, c->pod_uid, &pool, err);
	if (ret)
		return ret;
	existed = !stat(cgroup, &st);
	a.pod_uid = c->pod_uid;
	a.container = c->name;
	a.cgroup = cgroup;
	a.pod_cgroup = pod_cgroup;
	a.create = create;
	ret = node_attach(n, &a, err);
	if (!ret && node_reconcile_pod(n, c->pod_uid, err) < 0)
		ret = -EIO;
	if (!ret && n->warning[0])
		ctl_note("%s", n->warning);
	n->warning[0] = '\0';
	if (!ret)
		return 0;
	/* refused: nothing recorded stays, nor a cgroup this call made */
	if (node_remove(n, c->pod_uid, c->name, &ignored))
		cm_error_clear(&ignored);
	if (create && !existed &&
	    !node_cgroup_name(n, cgroup, name, sizeof(name), &ignored))
		cgroupfs_remove(&n->cgroups.fs, name, &ignored);
	if (node_sweep_gone(n, &ignored) < 0)
		cm_error_clear(&ignored);
	cm_error_clear(&ignored);
	return ret;
}

int ctl_runtime_release(struct node *n, const char *pod_uid,
			const char *name, struct cm_error *err)
{
	const struct node_pod *p = node_find_pod(n, pod_uid);
	int k = p ? node_pod_container(p, name) : -1;

	if ((k >= 0 && !p->c[k].removed) ||
	    node_assignment(n, pod_uid, name)) {
		if (node_remove(n, pod_uid, name, err))
			return -EINVAL;
	}
	/* the pod goes with its last container; the others get the
	 * shared pool as it now is */
	if (node_sweep_pod(n, pod_uid, err) < 0 ||
	    node_reconcile_pod(n, pod_uid, err) < 0)
		return -EINVAL;
	return 0;
}

int ctl_runtime_stop(struct node *n, const char *pod_uid, const char *name,
		     struct cm_error *err)
{
	const struct node_pod *p = node_find_pod(n, pod_uid);

	if (!p || node_pod_container(p, name) < 0)
		return ctl_runtime_release(n, pod_uid, name, err);
	if (node_stop_container(n, pod_uid, name, err) ||
	    node_reconcile_pod(n, pod_uid, err) < 0)
		return -EINVAL;
	return 0;
}

bool ctl_runtime_follows(struct node *n, const char *pod_uid,
			 const char *name, const char *cgroups_path)
{
	const struct node_pod *p = node_find_pod(n, pod_uid);
	int k = p ? node_pod_container(p, name) : -1;
	char given[PATH_MAX], theirs[PATH_MAX], ours[PATH_MAX];
	struct cm_error err = { 0 };
	bool same = true;

	if (k < 0 || !p->c[k].cgroup[0] || !cgroups_path || !*cgroups_path)
		return true;
	/* as cgroup names: the same cgroup however its path was spelt */
	if (!ctl_runtime_spec_cgroup(n, cgroups_path, given, sizeof(given),
				     &err) &&
	    !node_cgroup_name(n, given, theirs, sizeof(theirs), &err) &&
	    !node_cgroup_name(n, p->c[k].cgroup, ours, sizeof(ours), &err))
		same = !strcmp(theirs, ours);
	cm_error_clear(&err);
	return same;
}
