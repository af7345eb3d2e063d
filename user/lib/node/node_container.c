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
			p->c[i].removed = false;
	}
}

static int assign(struct node *n, const char *uid, const char *name,
		  const struct cpuset *cpus, uint64_t *gen,
		  struct cm_error *err)
{
	char *text = cpuset_to_str(cpus);
	uint64_t expect = gen ? *gen : 0;
	int ret;

	if (!text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = cpumgr_nl_assign(n->kernel.nl, uid, name, text, 0, gen, gen,
			       NULL);
	free(text);
	if (!ret && gen)
		node_own_change(n, expect, *gen);
	if (ret == -ESTALE)
		return ret;
	if (ret)
		return node_nl_error(n, "assign", err);
	return 0;
}

/* The static policy's Allocate for one container, then ASSIGN. */
static int decide(struct node *n, const struct pod *pod,
		  const struct pod_container *c, bool *assigned,
		  struct cm_error *err)
{
	int ret = -ESTALE;

	for (int t = 0; t < ADD_TRIES && ret == -ESTALE; t++) {
		const struct cpuset *got;
		uint64_t gen = n->kernel.table.generation;
		struct cpu_assignments st;

		ret = node_try_state(n, t, &st, err);
		if (ret)
			return ret;
		ret = cpu_policy_allocate(&n->policy, &st, pod, c, NULL, err);
		got = ret ? NULL : assignments_get(&st, pod->uid, c->name);
		if (got) {
			ret = assign(n, pod->uid, c->name, got, &gen, err);
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
			ret = assign(n, pod.uid, name, cpus, NULL, err);
			assigned = !ret;
		}
	} else if (how == NODE_ADD_DECIDE && !a &&
		   n->cfg.policy == CPU_POLICY_STATIC) {
		ret = decide(n, &pod, c, &assigned, err);
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

static bool all_removed(const struct node_pod *p)
{
	for (unsigned int i = 0; i < p->pod.nr; i++)
		if (!p->c[i].removed)
			return false;
	return p->pod.nr > 0;
}

/*
 * Pod p, if a container's cgroup is gone or none is left: its UID and
 * which container (NULL: the pod) to remove; false if neither.
 */
static bool sweepable(const struct node_pod *p, char *uid, char *name,
		      const char **which)
{
	strcpy(uid, p->pod.uid);
	*which = NULL;
	for (unsigned int k = 0; k < p->pod.nr && !*which; k++)
		if (!p->c[k].removed && p->c[k].cgroup[0] &&
		    gone(p->c[k].cgroup))
			*which = strcpy(name, p->pod.containers[k].name);
	return *which || all_removed(p);
}

static int sweep(struct node *n, const char *uid, const char *which,
		 struct cm_error *err)
{
	node_log(n, "%s%s%s: %s", uid, which ? "/" : "", which ? which : "",
		 which ? "its cgroup is gone" : "no container left");
	return node_remove(n, uid, which, err) ? -EIO : 0;
}

int node_sweep_gone(struct node *n, struct cm_error *err)
{
	char uid[POD_UID_MAX + 1], name[CONTAINER_NAME_MAX + 1];
	const char *which;
	int removed = 0;
	bool again = true;

	while (again) {
		again = false;
		for (unsigned int i = 0; i < n->nr_pods && !again; i++) {
			if (!sweepable(&n->pods[i], uid, name, &which))
				continue;
			if (sweep(n, uid, which, err))
				return -EIO;
			removed++;
			again = true;
		}
	}
	return removed;
}

int node_sweep_pod(struct node *n, const char *uid, struct cm_error *err)
{
	char id[POD_UID_MAX + 1], name[CONTAINER_NAME_MAX + 1];
	const struct node_pod *p;
	const char *which;
	int removed = 0;

	if (!n->targeted)
		return node_sweep_gone(n, err);
	while ((p = node_find_pod(n, uid)) && sweepable(p, id, name, &which)) {
		if (sweep(n, id, which, err))
			return -EIO;
		removed++;
	}
	return removed;
}
