// SPDX-License-Identifier: GPL-2.0
/*
 * audit: the kernel's rule (README, "The kernel guarantee") checked over
 * every cgroup's effective CPUs, which is what the tasks in it can run
 * on, written or inherited.  A CPU assigned to container K of pod P may
 * appear only in K's bound cgroup and its descendants, K's ancestors,
 * and the ancestors-or-self of P's bound pod cgroup, or below P's pod
 * cgroup where inherited rather than named; with strict reservation,
 * reserved CPUs may appear nowhere in scope.  A container whose
 * partition is pending (CPUMGR_ASSIGNMENT_F_PARTITION_PENDING) has no
 * task yet, and the pool inherits its CPUs until the partition takes
 * them: a cgroup may inherit them meanwhile, as the kernel lets tasks
 * onto them there, but not name them, and not those another container
 * holds too.  A bound container must run on all of its CPUs.
 *
 * The system partition (KEP-5894) is the kernel's exception to strict
 * reservation: its tree may hold the reserved CPUs.  Its pods must run
 * on its CPUs alone, which is cpumgr's rule rather than the kernel's:
 * reconcile gives them back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"

struct audit_ctx {
	const struct cgroupfs *cg;
	const struct cpumgr_assignment *as;
	size_t nr_as;
	struct cpuset *cpus;		/* parsed, parallel to as */
	const struct cpuset *strict_reserved;
	const struct node_audit_system *sys;
	struct cpuset pending;		/* pending containers' alone */
	const char *const *attached;
	struct node_audit *out;
	struct cm_error *err;
};

/* An absolute bound path as a cgroup name, or NULL if elsewhere. */
static const char *name_of(const struct cgroupfs *cg, const char *path)
{
	const char *top = cg->root[CGROUPFS_CPUSET];
	size_t tl = strlen(top);

	if (!path || !path[0] || strncmp(path, top, tl))
		return NULL;
	if (!path[tl])
		return "";
	return path[tl] == '/' ? path + tl + 1 : NULL;
}

static bool populated(const struct audit_ctx *c, const char *name)
{
	struct cm_error err = { 0 };
	pid_t *pids = NULL;
	size_t nr = 0;

	for (const char *const *a = c->attached; a && *a; a++)
		if (!strcmp(*a, name))
			return true;
	if (cgroupfs_pids(c->cg, name, &pids, &nr, &err))
		nr = 0;
	cm_error_clear(&err);
	free(pids);
	return nr > 0;
}

static void add_owner(char *buf, size_t len, const char *who)
{
	size_t used = strlen(buf);

	if (strstr(buf, who))
		return;
	snprintf(buf + used, len - used, "%s%s", used ? ", " : "", who);
}

/* What the pod of assignment i forbids the cgroup of e to hold. */
static void check_pod(const struct audit_ctx *c, size_t first,
		      const struct cgroupfs_walk_entry *e, struct node_offender *o)
{
	const char *name = e->name;
	const struct cpuset *eff = e->effective;
	const char *uid = c->as[first].pod_uid;
	const char *pod_cg = NULL;
	struct cpuset pod, others;

	cpuset_zero(&pod);
	for (size_t i = first; i < c->nr_as; i++) {
		if (strcmp(c->as[i].pod_uid, uid))
			continue;
		cpuset_or(&pod, &pod, &c->cpus[i]);
		if (!pod_cg)
			pod_cg = name_of(c->cg, c->as[i].pod_cgroup_path);
	}
	if (!cpuset_intersects(&pod, eff))
		return;
	if (pod_cg && cgroupfs_at_or_below(pod_cg, name))
		return;
	cpuset_and(&others, eff, &pod);
	for (size_t i = first; i < c->nr_as; i++) {
		const char *cg = name_of(c->cg, c->as[i].cgroup_path);

		if (strcmp(c->as[i].pod_uid, uid) || !cg)
			continue;
		if (cgroupfs_at_or_below(name, cg) ||
		    cgroupfs_at_or_below(cg, name))
			cpuset_andnot(&others, &others, &c->cpus[i]);
	}
	/*
	 * Below its pod cgroup, what it inherits rather than names is fine;
	 * so is, anywhere, a pending container's.
	 */
	if (!cpuset_empty(&others)) {
		struct cm_error err = { 0 };
		struct cpuset own, eased;

		if (e->inherited || cgroupfs_get_cpus(c->cg, name, &own, &err))
			cpuset_zero(&own);
		cm_error_clear(&err);
		cpuset_andnot(&eased, &c->pending, &own);
		cpuset_andnot(&others, &others, &eased);
		if (pod_cg && strcmp(pod_cg, name) &&
		    cgroupfs_at_or_below(name, pod_cg))
			cpuset_and(&others, &others, &own);
	}
	if (cpuset_empty(&others))
		return;
	cpuset_or(&o->cpus, &o->cpus, &others);
	for (size_t i = first; i < c->nr_as; i++) {
		char who[160];

		if (strcmp(c->as[i].pod_uid, uid) ||
		    !cpuset_intersects(&c->cpus[i], &others))
			continue;
		snprintf(who, sizeof(who), "%s/%s", uid, c->as[i].container);
		add_owner(o->owner, sizeof(o->owner), who);
	}
}

/* The CPUs of containers whose partition is pending, and no other's. */
static void pending_alone(struct audit_ctx *c)
{
	struct cpuset others;

	cpuset_zero(&c->pending);
	cpuset_zero(&others);
	for (size_t i = 0; i < c->nr_as; i++) {
		struct cpuset *to = &others;

		if (c->as[i].flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING)
			to = &c->pending;
		cpuset_or(to, to, &c->cpus[i]);
	}
	cpuset_andnot(&c->pending, &c->pending, &others);
}

static int visit(const struct cgroupfs_walk_entry *e, void *arg)
{
	struct audit_ctx *c = arg;
	struct node_offender o, *v;
	bool in_system;

	if (!e->depth)
		return 0;
	c->out->checked++;
	if (!populated(c, e->name))
		return 0;
	memset(&o, 0, sizeof(o));
	in_system = c->sys && cgroupfs_at_or_below(e->name, c->sys->name);
	if (c->strict_reserved && !in_system &&
	    cpuset_intersects(e->effective, c->strict_reserved)) {
		cpuset_and(&o.cpus, e->effective, c->strict_reserved);
		add_owner(o.owner, sizeof(o.owner), "reserved");
	}
	if (in_system && !cpuset_subset(e->effective, &c->sys->cpus)) {
		struct cpuset off;

		cpuset_andnot(&off, e->effective, &c->sys->cpus);
		cpuset_or(&o.cpus, &o.cpus, &off);
		add_owner(o.owner, sizeof(o.owner),
			  "the user pods, not the system partition");
	}
	for (size_t i = 0; i < c->nr_as; i++) {
		bool first = true;

		for (size_t j = 0; j < i && first; j++)
			first = strcmp(c->as[j].pod_uid, c->as[i].pod_uid);
		if (first)
			check_pod(c, i, e, &o);
	}
	/* a bound container that does not run on all of its CPUs */
	for (size_t i = 0; i < c->nr_as; i++) {
		const char *cg = name_of(c->cg, c->as[i].cgroup_path);
		struct cpuset missing;
		char who[160];

		if (!cg || strcmp(cg, e->name))
			continue;
		cpuset_andnot(&missing, &c->cpus[i], e->effective);
		if (cpuset_empty(&missing))
			continue;
		cpuset_or(&o.cpus, &o.cpus, &missing);
		snprintf(who, sizeof(who), "%s/%s, which does not run on them",
			 c->as[i].pod_uid, c->as[i].container);
		add_owner(o.owner, sizeof(o.owner), who);
	}
	if (cpuset_empty(&o.cpus))
		return 0;
	snprintf(o.name, sizeof(o.name), "%s", e->name);
	v = realloc(c->out->v, (c->out->nr + 1) * sizeof(*v));
	if (!v)
		return cm_errorf(c->err, "out of memory"), -ENOMEM;
	c->out->v = v;
	v[c->out->nr++] = o;
	return 0;
}

int node_audit_tree(const struct cgroupfs *cg, const char *root_name,
		    const struct cpumgr_assignment *as, size_t nr_as,
		    const struct cpuset *strict_reserved,
		    const struct node_audit_system *sys,
		    const char *const *attached, struct node_audit *out,
		    struct cm_error *err)
{
	struct audit_ctx c = {
		.cg = cg, .as = as, .nr_as = nr_as,
		.strict_reserved = strict_reserved, .sys = sys,
		.attached = attached,
		.out = out, .err = err,
	};
	int ret;

	memset(out, 0, sizeof(*out));
	c.cpus = calloc(nr_as ? nr_as : 1, sizeof(*c.cpus));
	if (!c.cpus)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	for (size_t i = 0; i < nr_as; i++)
		if (cpuset_parse(&c.cpus[i], as[i].cpus ? as[i].cpus : "",
				 err)) {
			free(c.cpus);
			return -EINVAL;
		}
	pending_alone(&c);
	ret = cgroupfs_walk(cg, root_name, visit, &c, err);
	free(c.cpus);
	if (ret)
		node_audit_free(out);
	return ret;
}

void node_audit_free(struct node_audit *a)
{
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* The kernel holds the system cgroup (a removed one it shows as none). */
static bool holds_system(const struct node *n, char *name, size_t len)
{
	return !node_system_cgroup(n, name, len) &&
	       n->kernel.table.system_cgroup &&
	       n->kernel.table.system_cgroup[0];
}

int node_audit(struct node *n, struct node_audit *out, struct cm_error *err)
{
	char sys_name[PATH_MAX];
	struct node_audit_system sys = {
		.name = sys_name, .cpus = n->cfg.system_cpus,
	};
	const char **attached;
	unsigned int nr = 0;
	int ret;

	attached = calloc(1, sizeof(*attached));
	for (unsigned int i = 0; attached && i < n->nr_pods; i++) {
		const struct node_pod *p = &n->pods[i];

		for (unsigned int k = 0; k < p->pod.nr; k++) {
			const char *name = name_of(&n->cgroups.fs,
						   p->c[k].cgroup);
			const char **v;

			if (p->c[k].removed || !name)
				continue;
			v = realloc(attached, (nr + 2) * sizeof(*v));
			if (!v)
				break;
			attached = v;
			attached[nr++] = name;
			attached[nr] = NULL;
		}
	}
	if (!attached)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = node_audit_tree(&n->cgroups.fs, n->cgroups.root_name,
			      n->kernel.as, n->kernel.nr_as,
			      n->kernel.table.options & CPUMGR_OPT_STRICT_CPU_RESERVATION ?
			      &n->kernel.reserved : NULL,
			      holds_system(n, sys_name, sizeof(sys_name)) ?
			      &sys : NULL, attached, out, err);
	free(attached);
	return ret;
}
