// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching a container to its cgroup in the order the kernel's rules
 * need: bind before the exclusive CPUs are written, narrow the upper
 * cgroups (node_narrow.c), write the cpuset before the first task
 * enters.  Apart from node_cgroup.c: node_narrow.c uses that file and
 * this one calls node_narrow(), so neither calls back into the other.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "node.h"
#include "node_internal.h"

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
 * CPUs before it takes a task: the shared pool, which anyone may hold,
 * or below the system cgroup the partition's (v1 takes no more than its
 * parent holds).
 */
static int create(struct node *n, const char *name, struct cm_error *err)
{
	struct cpuset shared;

	node_cgroup_shared_cpus(n, name, &shared);
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
	/* its pod cgroup or below, not a sibling sharing the prefix */
	if (a->pod_cgroup && (strncmp(cname, pname, strlen(pname)) ||
			      (cname[strlen(pname)] &&
			       cname[strlen(pname)] != '/')))
		return cm_errorf(err, "cgroup %s is not below the pod cgroup %s",
				 cpath, ppath);
	/* the kernel refuses the BIND too; before any cgroup is made */
	if (node_pod_in_kernel(n, p->pod.uid) &&
	    (node_system_below(n, cname) ||
	     (a->pod_cgroup && node_system_below(n, pname))))
		return cm_errorf(err, "cgroup %s is in the system partition (KEP-5894): pod %s holds exclusive CPUs, which system pods never get",
				 cpath, a->pod_uid);
	/* a cgroup.procs write would refuse it, after the cgroups are made */
	if (a->pid && kill(a->pid, 0) && errno == ESRCH)
		return cm_errorf(err, "--pid %d: no such process", a->pid);
	if (node_quiet_check(n, p, (unsigned int)k, err))
		return -EINVAL;
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

/*
 * What a refused attach puts back: the cgroups it made (made_top the
 * shallowest of them, "" none), the kernel's binding of the pod and its
 * container as it was (bound_*: this attach changed it; NULL unbound), and
 * the cgroups the record named (saved: this attach wrote the record).
 */
struct attach_undo {
	char made_top[PATH_MAX];
	bool bound_container, bound_pod, saved;
	char *cgroup, *pod_cgroup;
	char rec_cgroup[PATH_MAX], rec_pod_cgroup[PATH_MAX];
};

/* The shallowest of name (below the mount) and its parents not there yet. */
static void first_missing(const struct node *n, const char *name, char *top)
{
	char path[PATH_MAX];
	struct stat st;

	for (const char *s = name;; s++) {
		s += strcspn(s, "/");
		snprintf(top, PATH_MAX, "%.*s", (int)(s - name), name);
		if (cgroupfs_path(&n->cgroups.fs, CGROUPFS_CPUSET, top, NULL,
				  path, sizeof(path), NULL) || stat(path, &st))
			return;
		if (!*s)
			break;
	}
	top[0] = '\0';
}

/* Remove name and its parents up to top, deepest first. */
static int remove_made(struct node *n, const char *name, const char *top,
		       struct cm_error *err)
{
	char sub[PATH_MAX], *slash;
	int ret;

	snprintf(sub, sizeof(sub), "%s", name);
	for (;;) {
		ret = cgroupfs_remove(&n->cgroups.fs, sub, err);
		slash = strrchr(sub, '/');
		if (ret || strlen(sub) <= strlen(top) || !slash)
			return ret;
		*slash = '\0';
	}
}

static void keep(const struct node *n, const struct node_attach *a,
		 const struct node_pod *p, unsigned int k, const char *cname,
		 struct attach_undo *u)
{
	const struct cpumgr_assignment *as =
		node_assignment(n, p->pod.uid, p->pod.containers[k].name);
	const char *pod_cgroup = node_pod_cgroup_bound(n, p->pod.uid);

	if (a->create)
		first_missing(n, cname, u->made_top);
	u->cgroup = as && as->cgroup_path ? strdup(as->cgroup_path) : NULL;
	u->pod_cgroup = pod_cgroup ? strdup(pod_cgroup) : NULL;
	strcpy(u->rec_cgroup, p->c[k].cgroup);
	strcpy(u->rec_pod_cgroup, p->pod_cgroup);
}

/* A binding to put back: "" unbinds. */
static const char *or_none(const char *path)
{
	return path ? path : "";
}

/*
 * Only once the cgroups it made are gone: a cgroup that stays (a task
 * moved in, or the kernel keeps it) stays bound and recorded as the
 * attach left it, for the next attach to finish.
 */
static void undo(struct node *n, struct node_pod *p, unsigned int k,
		 const struct node_attach *a, const char *cname,
		 const struct attach_undo *u, struct cm_error *err)
{
	struct cm_error e2 = { 0 };

	if (!u->made_top[0] || remove_made(n, cname, u->made_top, &e2))
		goto out;
	if ((u->bound_container || u->bound_pod) &&
	    (cpumgr_nl_bind(n->kernel.nl, p->pod.uid,
			    u->bound_container ? a->container : NULL,
			    u->bound_container ? or_none(u->cgroup) : NULL,
			    u->bound_pod ? or_none(u->pod_cgroup) : NULL,
			    NULL, NULL) ||
	     node_refresh(n, &e2))) {
		if (!e2.msg)
			node_nl_error(n, "bind", &e2);
		goto out;
	}
	strcpy(p->c[k].cgroup, u->rec_cgroup);
	strcpy(p->pod_cgroup, u->rec_pod_cgroup);
	if (u->saved)
		node_save_pod(n, p, &e2);
out:
	cm_error_undoing(err, &e2);
}

static int attach(struct node *n, const struct node_attach *a,
		  struct node_pod *p, unsigned int k, const char *cname,
		  const char *cpath, const char *ppath, struct attach_undo *u,
		  struct cm_error *err)
{
	bool in_kernel, exclusive;
	struct cpuset cpus;
	int ret;

	node_container_cpus(n, p, k, &cpus, &exclusive);
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
		u->bound_container = exclusive;
		u->bound_pod = a->pod_cgroup;
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
	node_quiet_warn(n, p, k);
	ret = node_apply_container(n, p, k, true, err);
	if (ret >= 0)
		ret = node_apply_pod(n, p, true, err);
	if (ret >= 0)
		ret = node_save_pod(n, p, err);
	u->saved = ret >= 0;
	/* what it asks of the node: interrupts, idle states, governors */
	if (ret >= 0)
		ret = node_quiet_sync(n, err);
	/* the cpuset is in place: the first task may enter */
	if (ret >= 0 && a->pid) {
		ret = cgroupfs_move(&n->cgroups.fs, cname, a->pid, err);
		if (!ret)
			node_log(n, "%s/%s: pid %d moved into %s", p->pod.uid,
				 a->container, a->pid, cpath);
	}
	return ret < 0 ? ret : 0;
}

int node_attach(struct node *n, const struct node_attach *a,
		struct cm_error *err)
{
	char cname[PATH_MAX], cpath[PATH_MAX], pname[PATH_MAX],
	     ppath[PATH_MAX];
	struct node_pod *p = node_find_pod(n, a->pod_uid);
	struct attach_undo u = { 0 };
	int k, ret;

	k = attach_check(n, a, cname, cpath, pname, ppath, err);
	if (k < 0)
		return k;
	keep(n, a, p, (unsigned int)k, cname, &u);
	if (a->create && ((a->pod_cgroup && create(n, pname, err)) ||
			  create(n, cname, err)))
		ret = -EIO;
	else
		ret = attach(n, a, p, (unsigned int)k, cname, cpath, ppath, &u,
			     err);
	if (ret)
		undo(n, p, (unsigned int)k, a, cname, &u, err);
	free(u.cgroup);
	free(u.pod_cgroup);
	return ret;
}
