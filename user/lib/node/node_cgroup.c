// SPDX-License-Identifier: GPL-2.0
/*
 * Containers' cgroups: naming them, giving them their cpuset and CFS
 * limits, and attaching a container to its cgroup in the order the
 * kernel's rules need (bind before the exclusive CPUs are written, write
 * the cpuset before the first task enters).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "node_internal.h"

int node_cgroup_name(const struct node *n, const char *path, char *name,
		     size_t len, struct cm_error *err)
{
	const char *top = n->cgroups.fs.root[CGROUPFS_CPUSET];
	size_t tl = strlen(top);
	char joined[PATH_MAX];

	if (path[0] == '/') {
		if (strncmp(path, top, tl) || (path[tl] && path[tl] != '/'))
			return cm_errorf(err, "cgroup %s: not in the cgroup hierarchy %s",
					 path, top);
		return cgroupfs_name_normalize(path + tl, name, len, err);
	}
	if (snprintf(joined, sizeof(joined), "%s/%s", n->cgroups.root_name, path) >=
	    (int)sizeof(joined))
		return cm_errorf(err, "cgroup %s: %s", path,
				 strerror(ENAMETOOLONG)), -ENAMETOOLONG;
	return cgroupfs_name_normalize(joined, name, len, err);
}

int node_cgroup_path(const struct node *n, const char *name, char *path,
		     size_t len, struct cm_error *err)
{
	return cgroupfs_path(&n->cgroups.fs, CGROUPFS_CPUSET, name, NULL, path,
			     len, err);
}

/* name is strictly below the managed root */
static int check_scope(const struct node *n, const char *name,
		       struct cm_error *err)
{
	size_t rl = strlen(n->cgroups.root_name);

	if (!name[0] || (rl && (strncmp(name, n->cgroups.root_name, rl) ||
				name[rl] != '/')))
		return cm_errorf(err, "cgroup \"%s\" is not below the managed root %s",
				 name, n->cfg.cgroup_root);
	return 0;
}

int node_set_cpuset(struct node *n, const char *name,
		    const struct cpuset *want, bool *changed,
		    struct cm_error *err)
{
	struct cpuset have;
	int ret = cgroupfs_get_cpus(&n->cgroups.fs, name, &have, err);

	*changed = false;
	if (!ret && cpuset_equal(&have, want))
		return 0;
	if (ret && ret != -ENOENT)
		return ret;
	cm_error_clear(err);
	ret = cgroupfs_set_cpus(&n->cgroups.fs, name, want, err);
	*changed = !ret;
	return ret;
}

static int read_u64(const struct cgroupfs *cg, const char *name,
		    const char *file, int64_t *out)
{
	struct cm_error err = { 0 };
	char *s;
	int ret = cgroupfs_read(cg, CGROUPFS_CPU, name, file, &s, &err);

	cm_error_clear(&err);
	if (ret)
		return ret;
	if (!strncmp(s, "max", 3))
		*out = -1;
	else
		*out = strtoll(s, NULL, 10);
	free(s);
	return 0;
}

/* What the cgroup has now, in the terms of l; false if unreadable. */
static bool cfs_same(const struct cgroupfs *cg, const char *name,
		     const struct cfs_limits *l)
{
	int64_t v = 0, q = 0, p = 0;
	struct cm_error err = { 0 };
	char *s;
	bool same;

	if (cg->version == 2) {
		if (l->weight && (read_u64(cg, name, "cpu.weight", &v) ||
				  (uint64_t)v != l->weight))
			return false;
		if (!l->set_quota)
			return true;
		if (cgroupfs_read(cg, CGROUPFS_CPU, name, "cpu.max", &s, &err)) {
			cm_error_clear(&err);
			return false;
		}
		q = strncmp(s, "max", 3) ? strtoll(s, NULL, 10) : -1;
		p = strtoll(s + strcspn(s, " "), NULL, 10);
		free(s);
	} else {
		if (l->shares && (read_u64(cg, name, "cpu.shares", &v) ||
				  (uint64_t)v != l->shares))
			return false;
		if (!l->set_quota)
			return true;
		if (read_u64(cg, name, "cpu.cfs_quota_us", &q) ||
		    read_u64(cg, name, "cpu.cfs_period_us", &p))
			return false;
	}
	same = (uint64_t)p == l->period;
	if (l->quota > 0)
		return same && q == l->quota;
	return same && q < 0;
}

int node_set_cfs(struct node *n, const char *name, const struct cfs_limits *l,
		 bool *changed, struct cm_error *err)
{
	int ret;

	*changed = false;
	if (cfs_same(&n->cgroups.fs, name, l))
		return 0;
	ret = cfs_apply(&n->cgroups.fs, name, l, err);
	*changed = !ret;
	return ret;
}

bool node_pod_exclusive(const struct node *n, const struct node_pod *p)
{
	return node_pod_in_kernel(n, p->pod.uid);
}

/* The CPUs container k of p runs on: its own, or the shared pool. */
void node_container_cpus(const struct node *n, const struct node_pod *p,
			 unsigned int k, struct cpuset *out, bool *exclusive)
{
	const struct cpumgr_assignment *a =
		node_assignment(n, p->pod.uid, p->pod.containers[k].name);

	*exclusive = a && a->cpus &&
		     !cpuset_parse(out, a->cpus, NULL) && !cpuset_empty(out);
	if (!*exclusive)
		node_shared_pool(n, out);
}

static void describe(const struct cpuset *s, char *buf, size_t len)
{
	if (cpuset_format(s, buf, len) >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

int node_apply_container(struct node *n, const struct node_pod *p,
			 unsigned int k, bool verbose, struct cm_error *err)
{
	const struct pod_container *c = &p->pod.containers[k];
	char name[PATH_MAX], text[256];
	struct cfs_limits l;
	struct cpuset cpus;
	bool exclusive, changed;
	int ret, changes = 0;

	ret = node_cgroup_name(n, p->c[k].cgroup, name, sizeof(name), err);
	if (ret)
		return ret;
	node_container_cpus(n, p, k, &cpus, &exclusive);
	ret = node_set_cpuset(n, name, &cpus, &changed, err);
	if (ret)
		return ret;
	describe(&cpus, text, sizeof(text));
	if (changed || verbose) {
		node_log(n, "%s/%s: %s cpuset.cpus %s (%s)", p->pod.uid,
			 c->name, p->c[k].cgroup, text,
			 exclusive ? "exclusive" : "shared");
		changes += changed;
	}
	cfs_container_limits(c, exclusive, &n->cfg.cfs, &l);
	ret = node_set_cfs(n, name, &l, &changed, err);
	if (ret)
		return ret;
	if (changed || verbose) {
		node_log(n, "%s/%s: %s cpu weight %" PRIu64 " quota %" PRId64
			 " period %" PRIu64, p->pod.uid, c->name,
			 p->c[k].cgroup, l.weight, l.set_quota ? l.quota : 0,
			 l.period);
		changes += changed;
	}
	return changes;
}

int node_apply_pod(struct node *n, const struct node_pod *p, bool verbose,
		   struct cm_error *err)
{
	char name[PATH_MAX];
	struct cfs_limits l;
	bool changed;
	int ret;

	if (!p->pod_cgroup[0])
		return 0;
	ret = node_cgroup_name(n, p->pod_cgroup, name, sizeof(name), err);
	if (ret)
		return ret;
	cfs_pod_limits(&p->pod, node_pod_exclusive(n, p), &n->cfg.cfs, &l);
	ret = node_set_cfs(n, name, &l, &changed, err);
	if (ret)
		return ret;
	if (changed || verbose)
		node_log(n, "%s: %s cpu weight %" PRIu64 " quota %" PRId64
			 " period %" PRIu64, p->pod.uid, p->pod_cgroup,
			 l.weight, l.set_quota ? l.quota : 0, l.period);
	return changed;
}

static int abs_path(struct node *n, const char *given, char *name,
		    char *path, struct cm_error *err)
{
	int ret = node_cgroup_name(n, given, name, PATH_MAX, err);

	if (!ret)
		ret = check_scope(n, name, err);
	if (!ret)
		ret = node_cgroup_path(n, name, path, PATH_MAX, err);
	return ret;
}

/*
 * New cgroups inherit their parent's CPUs on v2: no write, and no task
 * yet, so nothing for the kernel to refuse.  A v1 cpuset must be given
 * CPUs before it takes a task: the shared pool, which anyone may hold.
 */
static int create(struct node *n, const char *name, struct cm_error *err)
{
	struct cpuset shared;

	node_shared_pool(n, &shared);
	return cgroupfs_create(&n->cgroups.fs, name,
			       n->cgroups.fs.version == 1 ? &shared : NULL,
			       err);
}

/* The arguments name an attached-to-be container and cgroups it may take. */
static int attach_check(struct node *n, const struct node_attach *a,
			char *cname, char *cpath, char *pname, char *ppath,
			struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, a->pod_uid);
	int k;

	if (!p)
		return cm_errorf(err, "pod %s is not admitted", a->pod_uid);
	k = node_pod_container(p, a->container);
	if (k < 0 || p->c[k].removed)
		return cm_errorf(err, "pod %s has no container %s%s",
				 a->pod_uid, a->container,
				 k >= 0 ? " (removed)" : "");
	if (abs_path(n, a->cgroup, cname, cpath, err) ||
	    (a->pod_cgroup && abs_path(n, a->pod_cgroup, pname, ppath, err)))
		return -EINVAL;
	if (a->pod_cgroup && strncmp(cname, pname, strlen(pname)))
		return cm_errorf(err, "cgroup %s is not below the pod cgroup %s",
				 cpath, ppath);
	return k;
}

int node_attach_check(struct node *n, const struct node_attach *a,
		      struct cm_error *err)
{
	char cname[PATH_MAX], cpath[PATH_MAX], pname[PATH_MAX],
	     ppath[PATH_MAX];

	return attach_check(n, a, cname, cpath, pname, ppath, err) < 0 ?
	       -EINVAL : 0;
}

/* Every assignment of the pod has pod_cgroup bound already. */
static bool pod_bound(const struct node *n, const char *uid,
		      const char *pod_cgroup)
{
	bool any = false;

	for (size_t i = 0; i < n->kernel.nr_as; i++) {
		const struct cpumgr_assignment *as = &n->kernel.as[i];

		if (strcmp(as->pod_uid, uid))
			continue;
		if (!as->pod_cgroup_path ||
		    strcmp(as->pod_cgroup_path, pod_cgroup))
			return false;
		any = true;
	}
	return any;
}

int node_attach(struct node *n, const struct node_attach *a,
		struct cm_error *err)
{
	char cname[PATH_MAX], cpath[PATH_MAX], pname[PATH_MAX],
	     ppath[PATH_MAX];
	struct node_pod *p = node_find_pod(n, a->pod_uid);
	bool in_kernel, exclusive;
	struct cpuset cpus;
	int k, ret;

	k = attach_check(n, a, cname, cpath, pname, ppath, err);
	if (k < 0)
		return k;
	if (a->create && ((a->pod_cgroup && create(n, pname, err)) ||
			  create(n, cname, err)))
		return -EIO;
	node_container_cpus(n, p, (unsigned int)k, &cpus, &exclusive);
	in_kernel = node_pod_in_kernel(n, p->pod.uid);
	/* bind first: only then may the cgroup hold the exclusive CPUs */
	if (exclusive ||
	    (in_kernel && a->pod_cgroup && !pod_bound(n, p->pod.uid, ppath))) {
		ret = cpumgr_nl_bind(n->kernel.nl, p->pod.uid,
				     exclusive ? a->container : NULL,
				     exclusive ? cpath : NULL,
				     a->pod_cgroup ? ppath : NULL, NULL, NULL);
		if (ret)
			return node_nl_error(n, "bind", err);
		ret = node_refresh(n, err);
		if (ret)
			return ret;
	}
	strcpy(p->c[k].cgroup, cpath);
	if (a->pod_cgroup)
		strcpy(p->pod_cgroup, ppath);
	/*
	 * The pod cgroup first gets the pod's CPUs (v2: a cgroup's CPUs
	 * are its own within its parent's, or all of its parent's).
	 */
	if (node_narrow_pod(n, p->pod_cgroup, err) < 0)
		return -EIO;
	ret = node_apply_container(n, p, (unsigned int)k, true, err);
	if (ret >= 0)
		ret = node_apply_pod(n, p, true, err);
	if (ret >= 0)
		ret = node_save_pod(n, p, err);
	/* the cpuset is in place: the first task may enter */
	if (ret >= 0 && a->pid) {
		ret = cgroupfs_move(&n->cgroups.fs, cname, a->pid, err);
		if (!ret)
			node_log(n, "%s/%s: pid %d moved into %s", p->pod.uid,
				 a->container, a->pid, cpath);
	}
	return ret < 0 ? ret : 0;
}
