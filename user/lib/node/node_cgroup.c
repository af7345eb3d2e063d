// SPDX-License-Identifier: GPL-2.0
/*
 * Containers' cgroups: naming them, and giving them their cpuset and CFS
 * limits (node_attach.c attaches a container to its cgroup); the system
 * partition's cgroup (KEP-5894): where it is, and which pods run there.
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

bool node_cgroup_has_tasks(const struct node *n, const char *path)
{
	struct cm_error err = { 0 };
	char name[PATH_MAX];
	pid_t *pids = NULL;
	size_t nr = 0;

	if (node_cgroup_name(n, path, name, sizeof(name), &err) ||
	    cgroupfs_pids(&n->cgroups.fs, name, &pids, &nr, &err))
		nr = 0;
	cm_error_clear(&err);
	free(pids);
	return nr > 0;
}

int node_set_cpuset(struct node *n, const char *name,
		    const struct cpuset *want, bool *changed,
		    struct cm_error *err)
{
	return cgroupfs_ensure_cpus(&n->cgroups.fs, name, want, changed, err);
}

static void describe(const struct cpuset *s, char *buf, size_t len)
{
	if (cpuset_format(s, buf, len) >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

/*
 * Before Linux 7.0 the kernel keeps a v2 cpuset with tasks from going
 * back to no CPUs of its own (validate_change(): -ENOSPC).  There it
 * names the pool: not its parent's CPUs, which still hold those of a
 * partition to come; narrowing keeps it within the pool from then on,
 * and a later reconcile tries again once its tasks are gone.
 */
static int name_pool(struct node *n, const char *name,
		     const struct cpuset *pool, bool *changed,
		     struct cm_error *err)
{
	char path[PATH_MAX], text[256];
	int ret = node_set_cpuset(n, name, pool, changed, err);

	if (!ret && *changed &&
	    !node_cgroup_path(n, name, path, sizeof(path), NULL)) {
		describe(pool, text, sizeof(text));
		node_log(n, "%s: cpuset.cpus %s, the pool's: it has tasks, and this kernel keeps such a cgroup from inheriting again (before Linux 7.0)",
			 path, text);
	}
	return ret;
}

int node_set_cpuset_inherit(struct node *n, const char *name,
			    const struct cpuset *pool, bool *changed,
			    struct cm_error *err)
{
	char *have = NULL;
	int ret = cgroupfs_read(&n->cgroups.fs, CGROUPFS_CPUSET, name,
				"cpuset.cpus", &have, err);

	*changed = false;
	if (!ret && (!have[0] || have[0] == '\n')) {
		free(have);
		return 0;
	}
	free(have);
	if (ret && ret != -ENOENT)
		return ret;
	cm_error_clear(err);
	/* an empty value needs a byte to write: the kernel takes "\n" */
	ret = cgroupfs_write(&n->cgroups.fs, CGROUPFS_CPUSET, name,
			     "cpuset.cpus", "\n", err);
	if (ret == -ENOSPC) {
		cm_error_clear(err);
		return name_pool(n, name, pool, changed, err);
	}
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
		node_pod_shared_cpus(n, p, out);
}

/*
 * The system partition's cgroup (KEP-5894, node system partitions): the
 * kubelet puts the pods of the system namespaces under a "system"
 * cgroup of the managed root, with their own QoS and pod cgroups below
 * it, and gives that cgroup a cpuset of its own:
 *
 *   kubepods/system/{burstable,besteffort,pod<UID>}   (cgroupfs driver)
 *   kubepods.slice/kubepods-system.slice/...          (systemd driver)
 */

/* The system cgroup's directory name, as the kubelet's driver names it. */
static int base_name(const struct node *n, char *out, size_t len)
{
	const char *root = n->cgroups.root_name;
	const char *base = strrchr(root, '/');
	size_t bl;

	if (n->cfg.cgroup_driver != NODE_DRIVER_SYSTEMD)
		return snprintf(out, len, "system") >= (int)len ? -1 : 0;
	/* kubepods.slice: kubepods-system.slice, as its QoS slices */
	base = base ? base + 1 : root;
	bl = strlen(base);
	if (bl > 6 && !strcmp(base + bl - 6, ".slice"))
		bl -= 6;
	return snprintf(out, len, "%.*s-system.slice", (int)bl, base) >=
	       (int)len ? -1 : 0;
}

bool node_system_cgroup_base(const struct node *n, const char *base)
{
	char want[PATH_MAX];

	return node_system_on(&n->cfg) && n->cgroups.root_name[0] &&
	       !base_name(n, want, sizeof(want)) && !strcmp(base, want);
}

/* Where the system cgroup is, configured or not; -ENOENT: no root. */
static int system_name(const struct node *n, char *name, size_t len)
{
	char base[PATH_MAX];

	if (!n->cgroups.root_name[0] || base_name(n, base, sizeof(base)))
		return -ENOENT;
	return snprintf(name, len, "%s/%s", n->cgroups.root_name, base) >=
	       (int)len ? -ENAMETOOLONG : 0;
}

int node_system_cgroup(const struct node *n, char *name, size_t len)
{
	if (!node_system_on(&n->cfg))
		return -ENOENT;
	return system_name(n, name, len);
}

bool node_system_below(const struct node *n, const char *name)
{
	char sys[PATH_MAX];

	return !node_system_cgroup(n, sys, sizeof(sys)) &&
	       cgroupfs_at_or_below(name, sys);
}

/*
 * The partition as the kubelet left it: the system cgroup's own CPUs
 * when it exists and names some.  *found says whether it did.
 */
int node_system_adopt(struct node *n, bool *found, struct cm_error *err)
{
	char name[PATH_MAX];
	struct cpuset own;
	int ret;

	*found = false;
	if (system_name(n, name, sizeof(name)))
		return 0;
	ret = cgroupfs_get_cpus(&n->cgroups.fs, name, &own, err);
	if (ret == -ENOENT) {
		cm_error_clear(err);
		return 0;
	}
	if (ret)
		return ret;
	n->cfg.system_cpus = own;
	*found = !cpuset_empty(&own);
	return 0;
}

int node_system_path(const struct node *n, char *path, size_t len,
		     struct cm_error *err)
{
	char name[PATH_MAX];

	path[0] = '\0';
	if (node_system_cgroup(n, name, sizeof(name)))
		return 0;
	return node_cgroup_path(n, name, path, len, err);
}

static bool cgroup_below_system(const struct node *n, const char *path)
{
	struct cm_error err = { 0 };
	char name[PATH_MAX];
	bool below = path[0] &&
		     !node_cgroup_name(n, path, name, sizeof(name), &err) &&
		     node_system_below(n, name);

	cm_error_clear(&err);
	return below;
}

bool node_pod_on_partition(const struct node *n, const struct node_pod *p)
{
	bool placed = false;

	if (!node_system_on(&n->cfg))
		return false;
	if (p->pod_cgroup[0])
		return cgroup_below_system(n, p->pod_cgroup);
	for (unsigned int k = 0; k < p->pod.nr; k++) {
		if (!p->c[k].cgroup[0])
			continue;
		if (cgroup_below_system(n, p->c[k].cgroup))
			return true;
		placed = true;
	}
	/* not placed yet: where the kubelet puts a system pod */
	return !placed && node_pod_system(n, &p->pod);
}

void node_cgroup_shared_cpus(const struct node *n, const char *name,
			     struct cpuset *out)
{
	if (node_system_below(n, name))
		*out = n->cfg.system_cpus;
	else
		node_shared_pool(n, out);
}

void node_pod_shared_cpus(const struct node *n, const struct node_pod *p,
			  struct cpuset *out)
{
	if (p && node_pod_on_partition(n, p))
		*out = n->cfg.system_cpus;
	else
		node_shared_pool(n, out);
}

int node_apply_container(struct node *n, const struct node_pod *p,
			 unsigned int k, bool verbose, struct cm_error *err)
{
	const struct pod_container *c = &p->pod.containers[k];
	char name[PATH_MAX], text[256];
	struct cfs_limits l;
	struct cpuset cpus;
	bool exclusive, own, changed;
	int ret, changes = 0;

	ret = node_cgroup_name(n, p->c[k].cgroup, name, sizeof(name), err);
	if (ret)
		return ret;
	node_container_cpus(n, p, k, &cpus, &exclusive);
	/*
	 * A pod pool's sharer holds the pool's rest (written, not
	 * inherited), as no CPU of its own: its quota stays
	 * (ResourceIsolationPod) and nothing is kept off those CPUs.
	 */
	own = exclusive && (!pod_level_resources(&p->pod) ||
			    pod_guaranteed_cpus(&p->pod, c));
	ret = node_quiet_move(n, p, k, name, &cpus, own, verbose, err);
	if (ret < 0)
		return ret;
	changes += ret;
	/* pool moves by partitions: on the pool, what its pod has */
	if (!exclusive && n->cfg.pool_moves == NODE_POOL_PARTITIONS)
		ret = node_set_cpuset_inherit(n, name, &cpus, &changed, err);
	else
		ret = node_set_cpuset(n, name, &cpus, &changed, err);
	if (ret)
		return ret;
	describe(&cpus, text, sizeof(text));
	if (changed || verbose) {
		node_log(n, "%s/%s: %s cpuset.cpus %s (%s)", p->pod.uid,
			 c->name, p->c[k].cgroup, text,
			 own ? "exclusive" : exclusive ? "pod pool" : "shared");
		changes += changed;
	}
	cfs_container_limits(c, own, &n->cfg.cfs, &l);
	/* cpu-quota "disable": none, whatever the limit */
	if (own && c->iso.quota_off) {
		l.set_quota = true;
		l.quota = -1;
	}
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
	ret = node_quiet_container(n, p, k, name, &cpus, own, verbose, err);
	return ret < 0 ? ret : changes + ret;
}

/* A container of the pod with exclusive CPUs asks for no CFS quota. */
static bool pod_quota_off(const struct node *n, const struct node_pod *p)
{
	for (unsigned int k = 0; k < p->pod.nr; k++) {
		struct cpuset cpus;
		bool exclusive;

		if (!p->pod.containers[k].iso.quota_off || p->c[k].removed)
			continue;
		node_container_cpus(n, p, k, &cpus, &exclusive);
		if (exclusive)
			return true;
	}
	return false;
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
	if (p->has_pod_cpu)
		cfs_pod_limits_resized(pod_qos(&p->pod), p->pod_cpu_request_milli,
				       p->pod_cpu_limit_milli,
				       node_pod_exclusive(n, p), &n->cfg.cfs,
				       &l);
	else
		cfs_pod_limits(&p->pod, node_pod_exclusive(n, p),
			       &n->cfg.cfs, &l);
	/* as CRI-O does: the pod's quota would cap the container's */
	if (pod_quota_off(n, p)) {
		l.set_quota = true;
		l.quota = -1;
	}
	ret = node_set_cfs(n, name, &l, &changed, err);
	if (ret)
		return ret;
	if (changed || verbose)
		node_log(n, "%s: %s cpu weight %" PRIu64 " quota %" PRId64
			 " period %" PRIu64, p->pod.uid, p->pod_cgroup,
			 l.weight, l.set_quota ? l.quota : 0, l.period);
	return changed;
}
