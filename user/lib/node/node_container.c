// SPDX-License-Identifier: GPL-2.0
/*
 * Containers one at a time, as runtimes start and stop them (the OCI
 * hook): add a container to a pod that may already be admitted, release
 * it idempotently, and forget containers whose cgroup is gone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "node.h"
#include "node_internal.h"

#define ADD_TRIES	5

/* The cgroups recorded for a pod before its record is replaced. */
struct kept {
	char pod_cgroup[PATH_MAX];
	unsigned int nr;
	struct {
		char name[CONTAINER_NAME_MAX + 1];
		struct node_container c;
	} *c;
};

static int keep(const struct node_pod *p, struct kept *k)
{
	memset(k, 0, sizeof(*k));
	if (!p)
		return 0;
	strcpy(k->pod_cgroup, p->pod_cgroup);
	k->c = calloc(p->pod.nr ? p->pod.nr : 1, sizeof(*k->c));
	if (!k->c)
		return -ENOMEM;
	for (unsigned int i = 0; i < p->pod.nr; i++) {
		strcpy(k->c[i].name, p->pod.containers[i].name);
		k->c[i].c = p->c[i];
	}
	k->nr = p->pod.nr;
	return 0;
}

static void restore(struct node_pod *p, const struct kept *k,
		    const char *name)
{
	strcpy(p->pod_cgroup, k->pod_cgroup);
	for (unsigned int i = 0; i < p->pod.nr; i++) {
		for (unsigned int j = 0; j < k->nr; j++)
			if (!strcmp(k->c[j].name, p->pod.containers[i].name))
				p->c[i] = k->c[j].c;
		if (!strcmp(p->pod.containers[i].name, name))
			p->c[i].removed = p->c[i].exited = false;
	}
}

static int assign(struct node *n, const char *uid, const char *name,
		  uint32_t flags, const struct cpuset *cpus, uint64_t *gen,
		  struct cm_error *err)
{
	char *text = cpuset_to_str(cpus);
	uint64_t expect = gen ? *gen : 0;
	int ret;

	if (!text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = node_assign(n, uid, name, text, flags, gen, gen);
	free(text);
	if (!ret && gen)
		node_own_change(n, expect, *gen);
	if (ret == -ESTALE)
		return ret;
	if (ret)
		return node_nl_error(n, "assign", err);
	return 0;
}

static bool is_init(const struct node_pod *p, int k)
{
	return p->pod.containers[k].init && !p->pod.containers[k].restartable;
}

/* Container k of p ran to its end and keeps its CPUs. */
static int keep_exited(struct node *n, struct node_pod *p, int k,
		       struct cm_error *err)
{
	const char *name = p->pod.containers[k].name;
	const struct cpumgr_assignment *a = node_assignment(n, p->pod.uid,
							    name);

	/*
	 * Its cgroup may outlive it: a partition there would keep its CPUs
	 * from the next.  Not when the pool moves by partitions: the pool
	 * inherits what the partition hands back, which the kernel refuses
	 * while the CPUs are still this container's.  The partition stays
	 * (its runtime cannot remove the cgroup either) until the release.
	 */
	if (n->cfg.pool_moves != NODE_POOL_PARTITIONS)
		node_unpartition(n, p, (unsigned int)k);
	p->c[k].exited = true;
	p->c[k].cgroup[0] = '\0';
	node_log(n, "%s/%s ran to its end: it keeps CPUs %s", p->pod.uid,
		 name, a && a->cpus && a->cpus[0] ? a->cpus : "(none)");
	return node_save_pod(n, p, err);
}

int node_stop_container(struct node *n, const char *uid, const char *name,
			struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, uid);
	int k = p ? node_pod_container(p, name) : -1;

	if (k < 0 || p->c[k].removed || p->c[k].exited)
		return 0;
	if (is_init(p, k) && n->cfg.init_cpus == NODE_INIT_CPUS_RELEASE)
		return node_remove(n, uid, name, err) ? -EIO : 0;
	return keep_exited(n, p, k, err);
}

/* The first container of pod uid other than name that ran to its end. */
static int first_exited(const struct node_pod *p, const char *name)
{
	for (unsigned int k = 0; k < p->pod.nr; k++)
		if (p->c[k].exited && !p->c[k].removed &&
		    strcmp(p->pod.containers[k].name, name))
			return (int)k;
	return -1;
}

/*
 * Before container name of pod uid gets its CPUs: the kubelet creates a
 * container only once the init containers before it ran to their end,
 * so the pod's other containers that did were init containers.  Under
 * --init-cpus release their CPUs go back now (what this container takes
 * of them is the kubelet's reuse); under keep this container may reuse
 * the CPUs they hold that no running container of the pod has (*reuse).
 * When the pool moves by partitions they go back now under keep too:
 * the partition an ended one keeps lets no other take them, and the
 * kubelet's reuse gives this container its choice of the free CPUs and
 * theirs, which is what it then chooses from; those it leaves are
 * shared from now on, not from the pod's removal.
 */
static int reuse_exited(struct node *n, const char *uid, const char *name,
			struct cpuset *reuse, struct cm_error *err)
{
	bool release = n->cfg.init_cpus == NODE_INIT_CPUS_RELEASE ||
		       n->cfg.pool_moves == NODE_POOL_PARTITIONS;
	struct cpuset live, cpus;
	struct node_pod *p;
	int k;

	while (release &&
	       (p = node_find_pod(n, uid)) && (k = first_exited(p, name)) >= 0)
		if (node_remove(n, uid, p->pod.containers[k].name, err))
			return -EIO;
	cpuset_zero(reuse);
	cpuset_zero(&live);
	p = node_find_pod(n, uid);
	if (!p)
		return 0;
	for (unsigned int i = 0; i < p->pod.nr; i++) {
		const struct cpumgr_assignment *a =
			node_assignment(n, uid, p->pod.containers[i].name);

		if (p->c[i].removed || !a || !a->cpus ||
		    cpuset_parse(&cpus, a->cpus, NULL))
			continue;
		cpuset_or(p->c[i].exited ? reuse : &live,
			  p->c[i].exited ? reuse : &live, &cpus);
	}
	cpuset_andnot(reuse, reuse, &live);
	return 0;
}

/*
 * The static policy's Allocate for one container, then ASSIGN, checked
 * by the kernel unless the container already runs (NODE_ADD_DECIDE_RUNNING).
 */
static int decide(struct node *n, const struct pod *pod,
		  const struct pod_container *c, const struct cpuset *reuse,
		  enum node_add_how how, bool *assigned, struct cm_error *err)
{
	int ret = -ESTALE;

	for (int t = 0; t < ADD_TRIES && ret == -ESTALE; t++) {
		const struct cpuset *got;
		uint64_t gen = n->kernel.table.generation;
		struct cpu_assignments st;

		ret = node_try_state(n, t, &st, err);
		if (ret)
			return ret;
		cpu_policy_set_reuse(&n->policy, pod->uid, reuse);
		ret = cpu_policy_allocate(&n->policy, &st, pod, c, NULL, err);
		got = ret ? NULL : assignments_get(&st, pod->uid, c->name);
		if (got) {
			const struct node_pod *p = node_find_pod(n, pod->uid);
			uint32_t flags = 0;

			/* the others let go of them first (node_withhold()) */
			node_withhold(n, pod->uid, got, NULL,
				      p ? p->pod_cgroup : NULL, &flags, &gen);
			if (how == NODE_ADD_DECIDE_RUNNING)
				flags &= ~CPUMGR_NL_ASSIGN_NARROWED;
			/* the caller makes its partition before a task */
			if (how == NODE_ADD_DECIDE_NEW && node_quiet_pending(n))
				flags |= CPUMGR_ASSIGNMENT_F_PARTITION_PENDING;
			ret = assign(n, pod->uid, c->name, flags, got, &gen,
				     err);
			node_withhold_end(n, pod->uid, !ret);
			*assigned = !ret;
		}
		assignments_free(&st);
	}
	if (ret == -ESTALE)
		cm_errorf(err, "the kernel's table kept changing");
	return ret;
}

int node_add_container(struct node *n, const cJSON *obj, const char *name,
		       enum node_add_how how, const struct cpuset *cpus,
		       struct cm_error *err)
{
	const struct cpumgr_assignment *a;
	const struct pod_container *c;
	bool assigned = false;
	struct node_pod *p;
	struct kept k = { 0 };
	struct pod pod;
	int ret;

	if (pod_from_json(obj, &pod, err))
		return -EINVAL;
	node_pod_mark_system(n, &pod);
	c = pod_container(&pod, name);
	if (!c) {
		pod_free(&pod);
		return cm_errorf(err, "pod %s has no container %s", pod.uid,
				 name);
	}
	a = node_assignment(n, pod.uid, name);
	ret = 0;
	if (how == NODE_ADD_CPUS) {
		struct cpuset have;

		if (!a || !a->cpus || cpuset_parse(&have, a->cpus, NULL) ||
		    !cpuset_equal(&have, cpus)) {
			ret = assign(n, pod.uid, name, 0, cpus, NULL, err);
			assigned = !ret;
		}
	} else if ((how == NODE_ADD_DECIDE || how == NODE_ADD_DECIDE_NEW ||
		    how == NODE_ADD_DECIDE_RUNNING) && !a &&
		   n->cfg.policy == CPU_POLICY_STATIC &&
		   !node_pod_system(n, &pod)) {
		struct cpuset reuse;

		ret = reuse_exited(n, pod.uid, name, &reuse, err);
		if (!ret)
			ret = decide(n, &pod, c, &reuse, how, &assigned,
				     err);
	}
	/* the table as this change left it; unchanged, as it was read */
	if (!ret && assigned)
		ret = node_refresh(n, err);
	if (!ret && assigned)
		ret = node_save_checkpoint(n, 0, err);
	if (!ret)
		ret = keep(node_find_pod(n, pod.uid), &k) ?
		      cm_errorf(err, "out of memory") : 0;
	if (!ret) {
		p = node_add_pod(n, obj, err);
		if (p) {
			restore(p, &k, name);
			ret = node_save_pod(n, p, err);
		} else {
			ret = -EINVAL;
		}
		free(k.c);
	}
	node_counters_add(n, assigned || ret ? 1 : 0, ret ? 1 : 0, NULL);
	pod_free(&pod);
	return ret;
}

static bool gone(const char *path)
{
	struct stat st;

	return stat(path, &st) != 0;
}

/* Every container removed, or kept after it ran to its end. */
static bool all_removed(const struct node_pod *p)
{
	bool any = false;

	for (unsigned int i = 0; i < p->pod.nr; i++) {
		if (!p->c[i].removed && !p->c[i].exited)
			return false;
		any |= p->c[i].removed;
	}
	return any;
}

/* Whether container name of n, its cgroup gone, may be swept now. */
static bool gone_ok(const struct node *n, const char *name,
		    const char *cgroup)
{
	return !n->sweep_gone_ok ||
	       n->sweep_gone_ok(n->sweep_gone_ctx, name, cgroup);
}

/*
 * Pod p, if a container's cgroup is gone or none is left: its UID and
 * which container (NULL: the pod) to remove; false if neither.
 * inits: its init containers' cgroups alone.
 */
static bool sweepable(const struct node *n, const struct node_pod *p,
		      bool inits, char *uid, char *name, const char **which)
{
	strcpy(uid, p->pod.uid);
	*which = NULL;
	for (unsigned int k = 0; k < p->pod.nr && !*which; k++)
		if ((!inits || is_init(p, (int)k)) && !p->c[k].removed &&
		    !p->c[k].exited && p->c[k].cgroup[0] &&
		    gone(p->c[k].cgroup) &&
		    gone_ok(n, p->pod.containers[k].name, p->c[k].cgroup))
			*which = strcpy(name, p->pod.containers[k].name);
	return *which || (!inits && all_removed(p));
}

/* An init container whose cgroup is gone ran to its end: --init-cpus. */
static int sweep(struct node *n, const char *uid, const char *which,
		 struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, uid);
	int k = p && which ? node_pod_container(p, which) : -1;

	node_log(n, "%s%s%s: %s", uid, which ? "/" : "", which ? which : "",
		 which ? "its cgroup is gone" : "no container left");
	if (k >= 0 && is_init(p, k))
		return node_stop_container(n, uid, which, err) ? -EIO : 0;
	return node_remove(n, uid, which, err) ? -EIO : 0;
}

static int sweep_all(struct node *n, bool inits, struct cm_error *err)
{
	char uid[POD_UID_MAX + 1], name[CONTAINER_NAME_MAX + 1];
	const char *which;
	int removed = 0;
	bool again = true;

	while (again) {
		again = false;
		for (unsigned int i = 0; i < n->nr_pods && !again; i++) {
			if (!sweepable(n, &n->pods[i], inits, uid, name,
				       &which))
				continue;
			if (sweep(n, uid, which, err))
				return -EIO;
			removed++;
			again = true;
		}
	}
	return removed;
}

int node_sweep_gone(struct node *n, struct cm_error *err)
{
	return sweep_all(n, false, err);
}

int node_sweep_inits(struct node *n, struct cm_error *err)
{
	return sweep_all(n, true, err);
}

int node_sweep_pod(struct node *n, const char *uid, struct cm_error *err)
{
	char id[POD_UID_MAX + 1], name[CONTAINER_NAME_MAX + 1];
	const struct node_pod *p;
	const char *which;
	int removed = 0;

	if (!n->targeted)
		return node_sweep_gone(n, err);
	while ((p = node_find_pod(n, uid)) &&
	       sweepable(n, p, false, id, name, &which)) {
		if (sweep(n, id, which, err))
			return -EIO;
		removed++;
	}
	return removed;
}
