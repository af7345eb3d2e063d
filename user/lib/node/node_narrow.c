// SPDX-License-Identifier: GPL-2.0
/*
 * The managed tree's upper cgroups, narrowed so that what container
 * runtimes create below them inherits nothing it may not hold.
 *
 * On cgroup2 a new cgroup inherits its parent's CPUs, and runtimes move
 * a container's first task in before they write its cpuset.cpus.  The
 * kernel refuses a task that would run on another pod's CPUs, so every
 * cgroup a runtime or the kubelet creates a cgroup in must hold no such
 * CPUs.  Those are the managed root's children (QoS cgroups and
 * Guaranteed pods' cgroups) and the QoS cgroups' children (Burstable and
 * BestEffort pods' cgroups).  Each gets the shared pool plus the
 * exclusive CPUs of the containers and pods bound at or below it: a pod
 * cgroup its own pod's, which its new containers may inherit (the
 * kernel's same-pod rule), a QoS cgroup its pods'.  Container cgroups
 * are left to whoever attaches the container.
 *
 * The system partition's cgroup (KEP-5894) and its tree
 * below, which the kubelet lays out as the managed root's, get the
 * partition's CPUs instead: nothing exclusive is bound there.
 *
 * The kubelet names QoS cgroups "burstable" and "besteffort" (cgroupfs
 * driver) or "kubepods-burstable.slice" and "kubepods-besteffort.slice"
 * (systemd driver).  Nothing is narrowed when the managed root is the
 * hierarchy's root (every cgroup of the machine would be), nor on v1,
 * where a new cpuset starts empty and inherits nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node.h"
#include "node_internal.h"

static bool ends_with(const char *s, const char *tail)
{
	size_t sl = strlen(s), tl = strlen(tail);

	return sl >= tl && !strcmp(s + sl - tl, tail);
}

bool node_qos_cgroup(const char *base)
{
	return !strcmp(base, "burstable") || !strcmp(base, "besteffort") ||
	       ends_with(base, "-burstable.slice") ||
	       ends_with(base, "-besteffort.slice");
}

/*
 * What narrowing needs of the table and the pod files, read once for a
 * whole walk: the cgroups bound or attached, sorted, each with the CPUs
 * bound there (none for an attached shared container), so that a
 * narrowed cgroup finds the CPUs bound below it and whether it is a
 * container's own in log time, not by going through every container
 * for each of the node's pod cgroups.
 */
struct narrow_bound {
	const char *path;
	const struct cpuset *cpus;	/* NULL: a container's, no CPUs */
	bool container;			/* a container's cgroup */
};

struct narrow_index {
	struct narrow_bound *v;
	size_t nr;
	/* per assignment: its CPUs, then its CPUs and its pod's pool */
	struct cpuset *cpus;
	/*
	 * The pool moved under a targeted node: every narrowed cgroup
	 * changes, written without being read first.
	 */
	bool moved;
	/* the pool moves by partitions: only cgroups that name CPUs follow */
	bool named_only;
	/* what they hold instead of the pool: the system partition's */
	const struct cpuset *base;
};

static int cmp_bound(const void *a, const void *b)
{
	return strcmp(((const struct narrow_bound *)a)->path,
		      ((const struct narrow_bound *)b)->path);
}

static void index_free(struct narrow_index *x)
{
	free(x->v);
	free(x->cpus);
	memset(x, 0, sizeof(*x));
}

static void index_add(struct narrow_index *x, const char *prefix,
		      const char *path, const struct cpuset *cpus,
		      bool container)
{
	if (path && path[0] &&
	    (!prefix || !strncmp(path, prefix, strlen(prefix))))
		x->v[x->nr++] = (struct narrow_bound){ path, cpus, container };
}

/*
 * The index of the cgroups at or below prefix (NULL: all): a narrowing
 * of one pod's cgroups needs no more.
 */
static int index_build(const struct node *n, struct narrow_index *x,
		       const char *prefix, struct cm_error *err)
{
	size_t max = 2 * n->kernel.nr_as;

	memset(x, 0, sizeof(*x));
	for (unsigned int i = 0; i < n->nr_pods; i++)
		max += n->pods[i].pod.nr;
	x->v = calloc(max ? max : 1, sizeof(*x->v));
	x->cpus = calloc(n->kernel.nr_as ? 2 * n->kernel.nr_as : 1,
			 sizeof(*x->cpus));
	if (!x->v || !x->cpus) {
		index_free(x);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	for (size_t i = 0; i < n->kernel.nr_as; i++) {
		const struct cpumgr_assignment *a = &n->kernel.as[i];
		const struct cpuset *cpus = &x->cpus[i];
		struct cpuset *pod = &x->cpus[n->kernel.nr_as + i], pool;

		if (!a->cpus || cpuset_parse(&x->cpus[i], a->cpus, NULL))
			cpus = NULL;
		index_add(x, prefix, a->cgroup_path, cpus, true);
		/* a pod cgroup holds its pool, what no container holds too */
		if (cpus)
			*pod = *cpus;
		if (a->pod_cpus && !cpuset_parse(&pool, a->pod_cpus, NULL))
			cpuset_or(pod, pod, &pool);
		index_add(x, prefix, a->pod_cgroup_path,
			  cpus || a->pod_cpus ? pod : NULL, false);
	}
	for (unsigned int i = 0; i < n->nr_pods; i++)
		for (unsigned int k = 0; k < n->pods[i].pod.nr; k++)
			index_add(x, prefix, n->pods[i].c[k].cgroup, NULL,
				  true);
	qsort(x->v, x->nr, sizeof(*x->v), cmp_bound);
	return 0;
}

/* The first entry not before path. */
static size_t index_lower(const struct narrow_index *x, const char *path)
{
	size_t lo = 0, hi = x->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(x->v[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Whether the cgroup at path is a container's (bound in the kernel or
 * attached by us), and the CPUs bound at or below it in *bound.
 */
static bool index_walk(const struct narrow_index *x, const char *path,
		       struct cpuset *bound)
{
	size_t pl = strlen(path);
	bool container = false;

	cpuset_zero(bound);
	for (size_t i = index_lower(x, path); i < x->nr; i++) {
		const struct narrow_bound *b = &x->v[i];

		if (strncmp(b->path, path, pl))
			break;
		/* below it is path + '/': path + '-' sorts in between */
		if (b->path[pl] != '\0' && b->path[pl] != '/')
			continue;
		if (b->path[pl] == '\0' && b->container)
			container = true;
		if (b->cpus)
			cpuset_or(bound, bound, b->cpus);
	}
	return container;
}

/* Whether the cgroup's cpuset.cpus names CPUs (unread: it does not). */
static bool names_cpus(const struct node *n, const char *name)
{
	struct cm_error err = { 0 };
	struct cpuset own;
	bool named = !cgroupfs_get_cpus(&n->cgroups.fs, name, &own, &err) &&
		     !cpuset_empty(&own);

	cm_error_clear(&err);
	return named;
}

static int narrow_one(struct node *n, const struct narrow_index *x,
		      const char *name, struct cm_error *err)
{
	char path[PATH_MAX], *text;
	struct cpuset want, bound;
	bool changed;
	int ret;

	ret = node_cgroup_path(n, name, path, sizeof(path), err);
	if (ret)
		return ret;
	/* what a cgroup may hold: the shared pool and what is bound below */
	if (index_walk(x, path, &bound) ||
	    (x->named_only && !names_cpus(n, name)))
		return 0;
	if (x->base)
		want = *x->base;
	else
		node_shared_pool(n, &want);
	cpuset_or(&want, &want, &bound);
	/* what a resize is taking stays with the container's ancestors */
	if (cgroupfs_at_or_below(n->withheld_below, path))
		cpuset_or(&want, &want, &n->withheld);
	if (x->moved) {
		ret = cgroupfs_set_cpus(&n->cgroups.fs, name, &want, err);
		changed = !ret;
	} else {
		ret = node_set_cpuset(n, name, &want, &changed, err);
	}
	/*
	 * Gone meanwhile, no cpuset controller there, or refused: say so
	 * and go on with the others (the kernel's rules still hold).
	 */
	if (ret) {
		if (ret != -ENOENT)
			node_log(n, "%s: not narrowed: %s", path,
				 cm_error_msg(err));
		cm_error_clear(err);
		return 0;
	}
	if (!changed)
		return 0;
	text = cpuset_to_str(&want);
	node_log(n, "%s: cpuset.cpus %s (what new cgroups below inherit)",
		 path, text ? text : "?");
	free(text);
	return 1;
}

static int narrow_children(struct node *n, struct narrow_index *x,
			   const char *name, bool qos_level,
			   struct cm_error *err);

/*
 * The system cgroup (name) and its tree, as the managed root's: its QoS
 * cgroups and pod cgroups below it, all given the partition's CPUs,
 * which do not move with the pool.
 */
static int narrow_system(struct node *n, struct narrow_index *x,
			 const char *name, struct cm_error *err)
{
	bool moved = x->moved;
	int changes, ret;

	x->base = &n->cfg.system_cpus;
	x->moved = false;
	changes = narrow_children(n, x, name, true, err);
	ret = changes < 0 ? changes : narrow_one(n, x, name, err);
	x->base = NULL;
	x->moved = moved;
	return ret < 0 ? ret : changes + ret;
}

/* Narrow the children of name (the QoS cgroups' after their own). */
static int narrow_children(struct node *n, struct narrow_index *x,
			   const char *name, bool qos_level,
			   struct cm_error *err)
{
	char path[PATH_MAX], child[PATH_MAX];
	int changes = 0, ret = 0;
	struct dirent *d;
	DIR *dir;

	ret = node_cgroup_path(n, name, path, sizeof(path), err);
	if (ret)
		return ret;
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? 0 :
		       cm_errorf(err, "%s: %s", path, strerror(errno));
	while (ret >= 0 && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		if (snprintf(child, sizeof(child), "%s/%s", name, d->d_name) >=
		    (int)sizeof(child))
			continue;
		ret = 0;
		if (qos_level && !x->base &&
		    node_system_cgroup_base(n, d->d_name)) {
			ret = narrow_system(n, x, child, err);
			if (ret > 0)
				changes += ret;
			continue;
		}
		/* the pods first: the QoS cgroup then holds what they do */
		if (qos_level && node_qos_cgroup(d->d_name))
			ret = narrow_children(n, x, child, false, err);
		if (ret >= 0) {
			changes += ret;
			ret = narrow_one(n, x, child, err);
		}
		if (ret > 0)
			changes += ret;
	}
	closedir(dir);
	return ret < 0 ? ret : changes;
}

/*
 * The pool moves by partitions: nothing below the managed root holds
 * CPUs of its own for the pool (the kernel takes each partition's from
 * what they inherit); the managed root itself holds the CPUs pods may
 * use, the reserved ones left out under strict-cpu-reservation.
 */
static int narrow_root(struct node *n, struct cm_error *err)
{
	struct cpuset want;
	bool changed;
	int ret;

	if (!n->cfg.opts.strict_reservation)
		return 0;
	cpuset_andnot(&want, &n->kernel.online, &n->kernel.reserved);
	ret = node_set_cpuset(n, n->cgroups.root_name, &want, &changed, err);
	if (!ret && changed)
		node_log(n, "%s: cpuset.cpus the CPUs pods may use",
			 n->cfg.cgroup_root);
	return ret < 0 ? ret : changed;
}

int node_narrow(struct node *n, struct cm_error *err)
{
	struct narrow_index x;
	struct cpuset pool;
	int ret;

	if (n->cgroups.fs.version != 2 || !n->cgroups.root_name[0])
		return 0;
	if (n->cfg.pool_moves == NODE_POOL_PARTITIONS)
		return narrow_root(n, err);
	ret = index_build(n, &x, NULL, err);
	node_shared_pool(n, &pool);
	x.moved = n->targeted && !cpuset_equal(&pool, &n->narrowed_pool);
	if (!ret)
		ret = narrow_children(n, &x, n->cgroups.root_name, true, err);
	index_free(&x);
	if (ret >= 0)
		node_shared_pool(n, &n->narrowed_pool);
	return ret;
}

/*
 * The narrowed cgroups at or above the cgroup at path: the managed
 * root's child, and the QoS cgroup's child below it (the pod first),
 * with an index of what is bound below the first.
 */
static int narrow_above(struct node *n, const char *path,
			struct cm_error *err)
{
	size_t rl = strlen(n->cgroups.root_name);
	char name[PATH_MAX], top[PATH_MAX], top_path[PATH_MAX];
	char *slash, *second;
	struct narrow_index x;
	int ret, changes = 0;

	ret = node_cgroup_name(n, path, name, sizeof(name), err);
	if (ret)
		return ret;
	if (strncmp(name, n->cgroups.root_name, rl) || name[rl] != '/')
		return 0;
	/* a system pod's: the system tree, a few pods at most */
	if (node_system_below(n, name)) {
		ret = node_system_cgroup(n, top, sizeof(top));
		if (!ret)
			ret = node_cgroup_path(n, top, top_path,
					       sizeof(top_path), err);
		if (!ret)
			ret = index_build(n, &x, top_path, err);
		if (ret)
			return ret;
		ret = narrow_system(n, &x, top, err);
		index_free(&x);
		return ret;
	}
	/* root/top[/second...] */
	slash = strchr(name + rl + 1, '/');
	snprintf(top, sizeof(top), "%.*s",
		 (int)(slash ? (size_t)(slash - name) : strlen(name)), name);
	ret = node_cgroup_path(n, top, top_path, sizeof(top_path), err);
	if (!ret)
		ret = index_build(n, &x, top_path, err);
	if (ret)
		return ret;
	if (slash && node_qos_cgroup(top + rl + 1)) {
		second = strchr(slash + 1, '/');
		if (second)
			*second = '\0';
		ret = narrow_one(n, &x, name, err);
		if (ret > 0)
			changes += ret;
	}
	if (ret >= 0)
		ret = narrow_one(n, &x, top, err);
	index_free(&x);
	return ret < 0 ? ret : changes + ret;
}

/*
 * A reconcile's: node_narrow(), and where the pool moves by partitions
 * the upper cgroups that name CPUs given the pool as it is now.  Those
 * name no CPU and inherit it, but the daemon gives one it sees created
 * the pool of that moment (node_daemon.c), and one may be written by
 * hand: without this they would keep a pool that has since grown, and
 * the containers below would never run on the CPUs given back.  Not at
 * every admission: a walk of the pod cgroups there would cost what
 * partitions save; they follow within a daemon period.
 */
int node_narrow_tree(struct node *n, struct cm_error *err)
{
	struct narrow_index x;
	int changes, ret;

	changes = node_narrow(n, err);
	if (changes < 0 || n->cfg.pool_moves != NODE_POOL_PARTITIONS ||
	    n->cgroups.fs.version != 2 || !n->cgroups.root_name[0])
		return changes;
	ret = index_build(n, &x, NULL, err);
	if (!ret) {
		x.named_only = true;
		ret = narrow_children(n, &x, n->cgroups.root_name, true, err);
	}
	index_free(&x);
	return ret < 0 ? ret : changes + ret;
}

int node_narrow_pod(struct node *n, const char *pod_cgroup,
		    struct cm_error *err)
{
	struct cpuset pool;

	node_shared_pool(n, &pool);
	if (n->cfg.pool_moves == NODE_POOL_PARTITIONS)
		return 0;
	if (!n->targeted || !cpuset_equal(&pool, &n->narrowed_pool))
		return node_narrow(n, err);
	if (n->cgroups.fs.version != 2 || !n->cgroups.root_name[0] ||
	    !pod_cgroup || !pod_cgroup[0])
		return 0;
	return narrow_above(n, pod_cgroup, err);
}

/* The system partition's cgroup, made and given its CPUs (KEP-5894). */

/*
 * Make the system cgroup when it is missing, with no CPUs of its own:
 * the kernel takes the partition's there only once it knows the cgroup
 * (CONFIGURE), and a new cgroup is another cgroup to it.  1: made.
 */
int node_system_make(struct node *n, struct cm_error *err)
{
	char name[PATH_MAX], path[PATH_MAX];
	int ret;

	if (node_system_cgroup(n, name, sizeof(name)))
		return 0;
	ret = node_cgroup_path(n, name, path, sizeof(path), err);
	if (ret || !access(path, F_OK))
		return ret;
	ret = cgroupfs_create(&n->cgroups.fs, name, NULL, err);
	return ret ? ret : 1;
}

/* A system cgroup made for a CONFIGURE that was refused: gone again. */
void node_system_unmake(struct node *n)
{
	struct cm_error err = { 0 };
	char name[PATH_MAX];

	if (!node_system_cgroup(n, name, sizeof(name)) &&
	    cgroupfs_remove(&n->cgroups.fs, name, &err))
		node_log(n, "%s: not removed: %s", name, cm_error_msg(&err));
	cm_error_clear(&err);
}

/*
 * Give the system cgroup the partition's CPUs: what the kubelet does for
 * it, so that a system pod's cgroup made before the kubelet runs holds
 * no other CPUs.
 */
int node_system_setup(struct node *n, struct cm_error *err)
{
	char name[PATH_MAX];
	bool changed;

	if (node_system_cgroup(n, name, sizeof(name)))
		return 0;
	return node_set_cpuset(n, name, &n->cfg.system_cpus, &changed, err);
}
