// SPDX-License-Identifier: GPL-2.0
/*
 * In-place resizes (node.h): a running container's exclusive CPUs
 * (node_resize()), a container on the shared pool (its CPU request and
 * limit: node_container_resized()), a pod (node_pod_resized()).  Each is
 * recorded in the pod file, so that a reconcile writes the new CFS
 * limits rather than those of the admission back.
 *
 * A resize of exclusive CPUs:
 *
 * At no moment may two containers run on one CPU, and the kernel refuses
 * a write that drops a CPU its table still gives a bound container
 * ("a container keeps its CPUs"), so the order is:
 *
 *   grow    the new CPUs leave every other cgroup (shared containers and
 *           the narrowed tree get the pool without them: n->withheld),
 *           then ASSIGN gives them to the container (CPUMGR_A_NARROWED:
 *           the kernel refuses it where a cgroup with tasks still holds
 *           one), then its cgroup is widened and the others narrowed
 *           again (a write checked before the ASSIGN may land after);
 *   shrink  ASSIGN gives them back (the container's cgroup still names
 *           them, now shared CPUs, which any cgroup may hold), then its
 *           cgroup is narrowed, then the shared containers get them.
 *
 * The pod file records the admission set (first resize) and the new CPU
 * count in the Pod object, so the CFS weight follows (at once: the
 * container's and its pod's cgroups) and a restart knows how far the
 * container may shrink.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "node_internal.h"
#include "resize.h"

#define RESIZE_TRIES	5

int node_resize_check(struct node *n, const char *uid, const char *name,
		      struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, uid);

	if (n->cfg.policy != CPU_POLICY_STATIC)
		return cm_errorf(err, "the policy is none: no exclusive CPUs to resize"), -EINVAL;
	if (!p)
		return cm_errorf(err, "pod %s is not admitted", uid), -EINVAL;
	if (node_pod_container(p, name) < 0)
		return cm_errorf(err, "pod %s has no container %s", uid, name), -EINVAL;
	if (!node_assignment(n, uid, name))
		return cm_errorf(err, "container %s of pod %s holds no exclusive CPUs (only a Guaranteed container with an integer CPU request does): nothing to resize",
				 name, uid), -EINVAL;
	return 0;
}

/* The pod file after a resize: the admission set, the new count. */
static int record(struct node *n, struct node_pod *p, unsigned int k,
		  const struct cpuset *admitted, int num, struct cm_error *err)
{
	/* a resize that changed nothing records the admission set here */
	if (!p->c[k].has_admitted) {
		p->c[k].has_admitted = true;
		p->c[k].admitted = *admitted;
	}
	return node_pod_set_cpu(n, p, k, (int64_t)num * 1000,
				(int64_t)num * 1000, err);
}

static int assign(struct node *n, const char *uid, const char *name,
		  uint32_t flags, const struct cpuset *cpus, uint64_t *gen,
		  struct cm_error *err)
{
	char *text = cpuset_to_str(cpus);
	uint64_t expect = *gen;
	int ret;

	if (!text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = node_assign(n, uid, name, text, flags, &expect, gen);
	free(text);
	if (!ret)
		node_own_change(n, expect, *gen);
	if (ret == -ESTALE)
		return ret;
	return ret ? node_nl_error(n, "assign", err) : 0;
}

/* Every cgroup in line with the table (and n->withheld); -errno. */
static int apply_all(struct node *n, struct cm_error *err)
{
	int ret = node_reconcile(n, NULL, err);

	return ret < 0 ? ret : 0;
}

/* The resized container's cgroup, when attached. */
static int apply_one(struct node *n, const char *uid, const char *name,
		     struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, uid);
	int k = p ? node_pod_container(p, name) : -1;
	int ret;

	if (k < 0 || p->c[k].removed || !p->c[k].cgroup[0])
		return 0;
	ret = node_apply_container(n, p, (unsigned int)k, false, err);
	return ret < 0 ? ret : 0;
}

/*
 * The generation to ASSIGN against after the cgroups were narrowed: a
 * rebind on the way (node_reconcile() binds what the pod files say)
 * moves the generation without moving a CPU, which is no reason to
 * plan again.  -ESTALE when CPUs moved.
 */
static int same_cpus(const struct node *n, const struct resize_request *r,
		     const struct cpuset *held, const struct cpuset *excl,
		     uint64_t *gen)
{
	const struct cpumgr_assignment *a = node_assignment(n, r->pod_uid,
							    r->container);
	struct cpuset now;

	if (n->kernel.table.generation == *gen)
		return 0;
	if (!a || !a->cpus || cpuset_parse(&now, a->cpus, NULL) ||
	    !cpuset_equal(&now, held) || !cpuset_equal(excl, &n->kernel.exclusive))
		return -ESTALE;
	*gen = n->kernel.table.generation;
	return 0;
}

/*
 * Before the first change: the admission set into the pod file, so that
 * a resize cut short (killed, a cgroup refused) cannot make the larger
 * set the one it may not shrink below.
 */
static int record_admitted(struct node *n, const char *uid, const char *name,
			   const struct cpuset *held, struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, uid);
	int k = p ? node_pod_container(p, name) : -1;

	if (k < 0)
		return cm_errorf(err, "pod %s went away during the resize", uid), -EIO;
	if (p->c[k].has_admitted)
		return 0;
	p->c[k].has_admitted = true;
	p->c[k].admitted = *held;
	return node_save_pod(n, p, err);
}

/* One try against the table as read; -ESTALE when it moved. */
static int try_resize(struct node *n, int t, const struct resize_request *r,
		      const char *below, struct cpuset *held,
		      struct cpuset *next, struct cm_error *err)
{
	const struct cpumgr_assignment *a;
	uint64_t gen;
	struct cpu_assignments st;
	struct cpuset added, excl;
	uint32_t flags;
	int ret;

	ret = node_try_state(n, t, &st, err);
	if (ret)
		return ret;
	a = node_assignment(n, r->pod_uid, r->container);
	if (!a || !a->cpus || cpuset_parse(held, a->cpus, NULL)) {
		assignments_free(&st);
		return cm_errorf(err, "container %s of pod %s no longer holds exclusive CPUs",
				 r->container, r->pod_uid), -EINVAL;
	}
	flags = a->flags & CPUMGR_ASSIGNMENT_F_USER;
	gen = n->kernel.table.generation;
	excl = n->kernel.exclusive;
	ret = cpu_policy_resize(&n->policy, &st, r, next, err);
	assignments_free(&st);
	if (ret || cpuset_equal(held, next))
		return ret;
	ret = record_admitted(n, r->pod_uid, r->container, held, err);
	if (ret)
		return ret;
	cpuset_andnot(&added, next, held);
	if (!cpuset_empty(&added)) {
		/* grow: out of every other cgroup first */
		n->withheld = added;
		n->withheld_below = below;
		ret = apply_all(n, err);
		if (!ret)
			ret = same_cpus(n, r, held, &excl, &gen);
		if (!ret)
			ret = assign(n, r->pod_uid, r->container,
				     flags | (node_narrows_first(n) ?
					      CPUMGR_NL_ASSIGN_NARROWED : 0),
				     next, &gen, err);
		cpuset_zero(&n->withheld);
		n->withheld_below = NULL;
		if (ret) {
			struct cm_error again = { 0 };

			/* not taken: the others get them back */
			if (apply_all(n, &again))
				node_log(n, "resize: %s", cm_error_msg(&again));
			cm_error_clear(&again);
			return ret;
		}
		ret = node_refresh(n, err);
		if (!ret)
			ret = apply_all(n, err);
		return ret;
	}
	/* shrink: the table, the container, then the others */
	ret = assign(n, r->pod_uid, r->container, flags, next, &gen, err);
	if (!ret)
		ret = node_refresh(n, err);
	if (!ret)
		ret = apply_one(n, r->pod_uid, r->container, err);
	if (!ret)
		ret = apply_all(n, err);
	return ret;
}

int node_resize(struct node *n, const char *uid, const char *name, int num,
		struct cpuset *out, struct cm_error *err)
{
	struct resize_request r = {
		.pod_uid = uid, .container = name, .num_cpus = num,
	};
	char below[PATH_MAX], *text;
	struct cpuset held, next, admitted;
	struct node_pod *p;
	int ret, k;

	ret = node_resize_check(n, uid, name, err);
	if (ret)
		return ret;
	p = node_find_pod(n, uid);
	k = node_pod_container(p, name);
	/* the cgroups that keep withheld CPUs: the container's and above */
	snprintf(below, sizeof(below), "%s",
		 p->c[k].cgroup[0] ? p->c[k].cgroup : p->pod_cgroup);
	if (p->c[k].has_admitted)
		r.admitted = &p->c[k].admitted;
	ret = -ESTALE;
	for (int t = 0; t < RESIZE_TRIES && ret == -ESTALE; t++)
		ret = try_resize(n, t, &r, below[0] ? below : NULL, &held,
				 &next, err);
	if (ret == -ESTALE)
		cm_errorf(err, "the kernel's table kept changing");
	if (ret)
		return ret;
	/* the table was read again: the record may have moved */
	p = node_find_pod(n, uid);
	k = p ? node_pod_container(p, name) : -1;
	if (k < 0)
		return cm_errorf(err, "pod %s went away during the resize", uid), -EIO;
	admitted = p->c[k].has_admitted ? p->c[k].admitted : held;
	ret = node_save_checkpoint(n, 0, err);
	if (!ret)
		ret = record(n, p, (unsigned int)k, &admitted, num, err);
	/* the CFS weight of the new count, now rather than at a reconcile */
	if (!ret)
		ret = node_reconcile_one(n, p, err);
	if (ret < 0)
		return ret;
	*out = next;
	text = cpuset_to_str(&next);
	node_log(n, "resized %s/%s to %d CPU%s: %s", uid, name, num,
		 num == 1 ? "" : "s", text ? text : "?");
	free(text);
	return 0;
}

/* The request or limit of a container as its record has it; 0: none. */
static int64_t cpu_of(const struct pod_container *c, bool limit)
{
	if (limit)
		return c->has_limit[RES_CPU] ?
		       quantity_milli_value(&c->limit[RES_CPU]) : 0;
	return c->has_request[RES_CPU] ?
	       quantity_milli_value(&c->request[RES_CPU]) : 0;
}

int node_container_resized(struct node *n, const char *uid, const char *name,
			   int64_t request_milli, int64_t limit_milli,
			   struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, uid);
	int k = p ? node_pod_container(p, name) : -1;
	struct cm_error again = { 0 };
	const struct pod_container *c;
	int ret;

	if (k < 0)
		return cm_errorf(err, "pod %s has no container %s recorded",
				 uid, name), -ENOENT;
	if (request_milli < 0 || limit_milli < 0 ||
	    request_milli > NODE_CPU_MILLI_MAX || limit_milli > NODE_CPU_MILLI_MAX)
		return cm_errorf(err, "container %s of pod %s: CPU request %lldm, limit %lldm: out of range",
				 name, uid, (long long)request_milli,
				 (long long)limit_milli), -EINVAL;
	if (node_assignment(n, uid, name))
		return cm_errorf(err, "container %s of pod %s holds exclusive CPUs: only a resize of them (to another whole number) changes its CPUs",
				 name, uid), -EINVAL;
	c = &p->pod.containers[k];
	if (cpu_of(c, false) == request_milli && cpu_of(c, true) == limit_milli)
		return 0;
	ret = node_pod_set_cpu(n, p, (unsigned int)k, request_milli,
			       limit_milli, err);
	if (ret)
		return ret;
	node_log(n, "%s/%s: resized in place: cpu request %lldm, limit %lldm",
		 uid, name, (long long)request_milli, (long long)limit_milli);
	/*
	 * Its cgroup, and the pod's, whose limits sum its containers'.  The
	 * record stands when a cgroup refuses: each reconcile tries again.
	 */
	if (node_reconcile_one(n, p, &again) < 0)
		node_log_sev(n, NODE_LOG_WARNING, "%s/%s: %s", uid, name,
			     cm_error_msg(&again));
	cm_error_clear(&again);
	return 0;
}

int node_pod_resized(struct node *n, const char *uid, int64_t request_milli,
		     int64_t limit_milli, struct cm_error *err)
{
	struct node_pod *p = node_find_pod(n, uid);
	int ret;

	if (!p)
		return cm_errorf(err, "pod %s is not recorded", uid), -ENOENT;
	if (p->has_pod_cpu && p->pod_cpu_request_milli == request_milli &&
	    p->pod_cpu_limit_milli == limit_milli)
		return 0;
	p->has_pod_cpu = true;
	p->pod_cpu_request_milli = request_milli;
	p->pod_cpu_limit_milli = limit_milli;
	ret = node_save_pod(n, p, err);
	if (ret)
		return ret;
	node_log(n, "%s: resized in place: cpu request %lldm, limit %lldm",
		 uid, (long long)request_milli, (long long)limit_milli);
	if (!p->pod_cgroup[0])
		return 0;
	ret = node_apply_pod(n, p, false, err);
	return ret < 0 ? ret : 0;
}
