// SPDX-License-Identifier: GPL-2.0
/*
 * Topping up an assignment that lost CPUs to a release-mode offline
 * (the kernel marks it degraded).  The kubelet has no answer here (a CPU
 * going away means a drain); we give the container back its count from
 * the shared pool, as close to the CPUs it kept as the pool allows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "node.h"
#include "node_internal.h"

/* The first n CPUs of s. */
static void take_first(const struct cpuset *s, int n, struct cpuset *out)
{
	int cpu;

	cpuset_zero(out);
	cpuset_for_each(cpu, s) {
		if (n-- <= 0)
			break;
		cpuset_set(out, (unsigned int)cpu);
	}
}

int node_topup_choose(const struct topology *t, const struct policy_options *o,
		      const struct cpuset *avail, const struct cpuset *have,
		      int missing, struct cpuset *out, struct cm_error *err)
{
	static const enum topo_level levels[] = {
		TOPO_UNCORE, TOPO_NUMA, TOPO_SOCKET,
	};
	struct alloc_request req = {
		.cpu_group_size = 1,
		.prefer_uncore = o && o->prefer_uncore,
	};
	struct cpuset pool, cand, got;

	cpuset_zero(out);
	if (missing <= 0)
		return 0;
	cpuset_andnot(&pool, avail, have);
	cpuset_and(&pool, &pool, &t->cpus);
	if ((int)cpuset_count(&pool) < missing)
		return cm_errorf(err, "not enough cpus available to satisfy request: requested=%d, available=%u",
				 missing, cpuset_count(&pool)), -ENOSPC;
	/* the free SMT siblings of what it kept: the same cores */
	topology_cores_closure(t, have, &cand);
	cpuset_and(&cand, &cand, &pool);
	take_first(&cand, missing, out);
	missing -= (int)cpuset_count(out);
	cpuset_andnot(&pool, &pool, out);
	if (!missing)
		return 0;
	req.num_cpus = missing;
	for (size_t i = 0; i < sizeof(levels) / sizeof(*levels); i++) {
		topology_groups_cpus(t, levels[i], have, &cand);
		cpuset_and(&cand, &cand, &pool);
		if ((int)cpuset_count(&cand) < missing)
			continue;
		if (!alloc_take(t, NULL, &cand, &req, &got, err)) {
			cpuset_or(out, out, &got);
			return 0;
		}
	}
	cm_error_clear(err);
	if (alloc_take(t, NULL, &pool, &req, &got, err))
		return -ENOSPC;
	cpuset_or(out, out, &got);
	return 0;
}

/* Top up one degraded assignment; 1 when it was, 0 when it cannot be. */
static int topup_one(struct node *n, const struct cpumgr_assignment *a,
		     struct cm_error *err)
{
	char uid[POD_UID_MAX + 1], name[CONTAINER_NAME_MAX + 1];
	struct node_pod *p = node_find_pod(n, a->pod_uid);
	int k = p ? node_pod_container(p, a->container) : -1;
	struct cpuset have, avail, more, all;
	uint64_t gen = n->kernel.table.generation, expect;
	uint32_t flags = a->flags & CPUMGR_ASSIGNMENT_F_USER;
	char *text;
	int want, ret;

	strcpy(uid, a->pod_uid);
	strcpy(name, a->container);
	if (k < 0) {
		node_log(n, "top-up: %s/%s: no pod record, cannot tell its size",
			 uid, name);
		return 0;
	}
	want = pod_guaranteed_cpus(&p->pod, &p->pod.containers[k]);
	if (cpuset_parse(&have, a->cpus ? a->cpus : "", err))
		return -EINVAL;
	cpuset_andnot(&avail, &n->assignments.default_set, &n->kernel.reserved);
	ret = node_topup_choose(n->kernel.topo, &n->cfg.opts, &avail, &have,
				want - (int)cpuset_count(&have), &more, err);
	if (ret) {
		cm_error_prefix(err, "top-up %s/%s", uid, name);
		return ret;
	}
	cpuset_or(&all, &have, &more);
	text = cpuset_to_str(&all);
	if (!text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	/*
	 * The ASSIGN also clears the degraded flag, and gives the CPU the
	 * offline took back to the pool: until then no other cgroup may
	 * name it, and the pool without the new CPUs cannot be written
	 * first (node_withhold()).  The shared containers follow right after.
	 */
	expect = gen;
	ret = cpumgr_nl_assign(n->kernel.nl, uid, name, text, flags, &expect,
			       &gen, NULL);
	if (!ret)
		node_own_change(n, expect, gen);
	if (ret) {
		free(text);
		if (ret == -ESTALE)
			return -ESTALE;
		ret = node_nl_error(n, "assign", err);
		cm_error_prefix(err, "top-up %s/%s", uid, name);
		return ret;
	}
	node_log(n, "top-up: %s/%s: now cpus %s", uid, name, text);
	free(text);
	ret = node_refresh(n, err);
	if (!ret && p->c[k].cgroup[0])
		ret = node_apply_container(n, p, (unsigned int)k, false, err);
	return ret < 0 ? ret : 1;
}

int node_topup(struct node *n, struct cm_error *err)
{
	int done = 0, stale = 0;

	for (size_t i = 0; i < n->kernel.nr_as;) {
		int ret;

		if (!(n->kernel.as[i].flags & CPUMGR_ASSIGNMENT_F_DEGRADED)) {
			i++;
			continue;
		}
		ret = topup_one(n, &n->kernel.as[i], err);
		if (ret == -ESTALE && stale++ < 5) {
			ret = node_refresh(n, err);
			i = 0;
			if (!ret)
				continue;
		}
		if (ret < 0)
			return ret;
		if (!ret) {
			i++;
			continue;
		}
		done++;
		/* the table was read again: start over */
		i = 0;
	}
	return done;
}
