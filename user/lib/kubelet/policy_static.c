// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_internal.h"

int cpu_policy_parse_kind(const char *name, enum cpu_policy_kind *out,
			  struct cm_error *err)
{
	if (!strcmp(name, "none"))
		*out = CPU_POLICY_NONE;
	else if (!strcmp(name, "static"))
		*out = CPU_POLICY_STATIC;
	else
		return cm_errorf(err, "unknown policy: \"%s\"", name);
	return 0;
}

const char *cpu_policy_name(enum cpu_policy_kind kind)
{
	return kind == CPU_POLICY_STATIC ? "static" : "none";
}

/* takeByTopology() with the topology manager hint's NUMA count */
static int take_hinted(const struct cpu_policy *p, const struct cpuset *avail,
		       int num, int hint_numas, struct cpuset *out,
		       struct cm_error *err)
{
	struct alloc_request req = {
		.num_cpus = num,
		.distribute_numa = p->opts.distribute_numa,
		.cpu_group_size = p->opts.full_pcpus_only ? p->cpu_group_size : 1,
		.spread = p->opts.distribute_cores,
		.prefer_uncore = p->opts.prefer_uncore,
		.min_numas = !p->kubelet_minor ||
			     p->kubelet_minor >= KUBELET_MINOR_NUMA_FLOOR ?
			     hint_numas : 0,
	};
	return alloc_take(p->topo, p->ws, avail, &req, out, err);
}

int cpu_policy_take(const struct cpu_policy *p, const struct cpuset *avail,
		    int num, struct cpuset *out, struct cm_error *err)
{
	return take_hinted(p, avail, num, 0, out, err);
}

static int reserve(struct cpu_policy *p, const struct policy_config *cfg,
		   struct cm_error *err)
{
	struct cpuset reserved, all = p->topo->cpus;

	if (cfg->has_reserved_cpus && !cpuset_empty(&cfg->reserved_cpus)) {
		reserved = cfg->reserved_cpus;
	} else {
		struct cm_error ignored = { 0 };

		/* the kubelet ignores the error: the size check says it all */
		cpu_policy_take(p, &all, cfg->num_reserved, &reserved,
				 &ignored);
		cm_error_clear(&ignored);
	}
	if ((int)cpuset_count(&reserved) != cfg->num_reserved) {
		char *r = cpuset_to_str(&reserved);

		cm_errorf(err, "[cpumanager] unable to reserve the required amount of CPUs (size of %s did not equal %d)",
			  r ? r : "", cfg->num_reserved);
		free(r);
		return -EINVAL;
	}
	if (!cpuset_subset(&reserved, &all)) {
		struct cpuset extra;

		cpuset_andnot(&extra, &reserved, &all);
		return cm_errorf(err, "[cpumanager] unable to build the reserved physical CPUs from the reserved set: unknown CPU ID: %d",
				 cpuset_next(&extra, 0));
	}
	p->reserved = reserved;
	topology_cores_closure(p->topo, &reserved, &p->reserved_physical);
	return 0;
}

int cpu_policy_init(struct cpu_policy *p, const struct topology *t,
		    const struct policy_config *cfg, struct cm_error *err)
{
	memset(p, 0, sizeof(*p));
	p->kind = cfg->kind;
	p->topo = t;
	p->tm = cfg->tm;
	p->kubelet_minor = cfg->kubelet_minor;
	p->pod_level = cfg->pod_level;
	if (cfg->kind == CPU_POLICY_NONE) {
		if (cfg->opts.nr_given)
			return cm_errorf(err, "None policy: cannot be used with static policy options");
		return 0;
	}
	if (options_check(&cfg->opts, err) ||
	    options_validate(&cfg->opts, t, cfg->tm, err))
		return -EINVAL;
	p->opts = cfg->opts;
	p->cpu_group_size = topology_cpus_per(t, TOPO_CORE);
	p->ws = alloc_ws_new(t);
	if (!p->ws)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (reserve(p, cfg, err)) {
		cpu_policy_destroy(p);
		return -EINVAL;
	}
	return 0;
}

int cpu_policy_check_config(const struct policy_config *cfg,
			    struct cm_error *err)
{
	if (cfg->kind == CPU_POLICY_STATIC && cfg->num_reserved <= 0 &&
	    !(cfg->has_reserved_cpus && !cpuset_empty(&cfg->reserved_cpus)))
		return cm_errorf(err, "[cpumanager] the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero");
	return 0;
}

void cpu_policy_destroy(struct cpu_policy *p)
{
	alloc_ws_free(p->ws);
	p->ws = NULL;
}

void cpu_policy_available(const struct cpu_policy *p,
			  const struct cpu_assignments *s, struct cpuset *out)
{
	cpuset_andnot(out, &s->default_set, &p->reserved);
}

void cpu_policy_allocatable(const struct cpu_policy *p, struct cpuset *out)
{
	cpuset_andnot(out, &p->topo->cpus, &p->reserved);
}

/* Build a kubelet message quoting up to three CPU sets. */
static int err_sets(struct cm_error *err, const char *fmt,
		    const struct cpuset *a, const struct cpuset *b)
{
	char *sa = cpuset_to_str(a), *sb = b ? cpuset_to_str(b) : NULL;

	cm_errorf(err, fmt, sa ? sa : "", sb ? sb : "");
	free(sa);
	free(sb);
	return -EINVAL;
}

int cpu_policy_start(const struct cpu_policy *p, struct cpu_assignments *s,
		     struct cm_error *err)
{
	struct cpuset all = p->topo->cpus, known, tmp;

	if (p->kind == CPU_POLICY_NONE)
		return 0;
	if (p->opts.strict_reservation)
		cpuset_andnot(&all, &all, &p->reserved);
	if (cpuset_empty(&s->default_set)) {
		if (s->nr)
			return cm_errorf(err, "default cpuset cannot be empty");
		s->default_set = all;
		return 0;
	}
	if (p->opts.strict_reservation) {
		cpuset_and(&tmp, &p->reserved, &s->default_set);
		if (!cpuset_empty(&tmp))
			return err_sets(err, "some of strictly reserved cpus: \"%s\" are present in defaultCpuSet: \"%s\"",
					&tmp, &s->default_set);
	} else if (!cpuset_subset(&p->reserved, &s->default_set)) {
		return err_sets(err, "not all reserved cpus: \"%s\" are present in defaultCpuSet: \"%s\"",
				&p->reserved, &s->default_set);
	}
	for (unsigned int i = 0; i < s->nr; i++) {
		const struct assignment_entry *e = &s->entries[i];
		char *c, *d;

		if (!cpuset_intersects(&s->default_set, &e->cpus))
			continue;
		c = cpuset_to_str(&e->cpus);
		d = cpuset_to_str(&s->default_set);
		cm_errorf(err, "pod: %s, container: %s cpuset: \"%s\" overlaps with default cpuset \"%s\"",
			  e->pod_uid, e->container, c ? c : "", d ? d : "");
		free(c);
		free(d);
		return -EINVAL;
	}
	known = s->default_set;
	for (unsigned int i = 0; i < s->nr; i++)
		cpuset_or(&known, &known, &s->entries[i].cpus);
	/* PodLevelResourceManagers: the pods' pools are out of the default set */
	assignments_pools_union(s, &tmp);
	cpuset_or(&known, &known, &tmp);
	if (!cpuset_equal(&known, &all))
		return err_sets(err, "current set of available CPUs \"%s\" doesn't match with CPUs in state \"%s\"",
				&all, &known);
	return 0;
}

/* updateCPUsToReuse() */
static void update_reuse(struct cpu_policy *p, const struct pod *pod,
			 const struct pod_container *c,
			 const struct cpuset *cpus)
{
	if (strcmp(p->reuse_pod, pod->uid)) {
		snprintf(p->reuse_pod, sizeof(p->reuse_pod), "%s", pod->uid);
		cpuset_zero(&p->reuse);
	}
	/* a sidecar runs alongside the app containers: never reused */
	if (c->init && !c->restartable)
		cpuset_or(&p->reuse, &p->reuse, cpus);
	else
		cpuset_andnot(&p->reuse, &p->reuse, cpus);
}

void cpu_policy_set_reuse(struct cpu_policy *p, const char *uid,
			  const struct cpuset *cpus)
{
	snprintf(p->reuse_pod, sizeof(p->reuse_pod), "%s", uid);
	p->reuse = *cpus;
}

static void pod_reuse(const struct cpu_policy *p, const char *uid,
		      struct cpuset *out)
{
	if (!strcmp(p->reuse_pod, uid))
		*out = p->reuse;
	else
		cpuset_zero(out);
}

/* full-pcpus-only: whole cores, and that many free */
int cpu_policy_check_smt(const struct cpu_policy *p,
			 const struct cpu_assignments *s, int num,
			 struct cm_error *err)
{
	struct cpuset phys;
	int avail_phys;

	if (!p->opts.full_pcpus_only)
		return 0;
	if (num % p->cpu_group_size)
		return cm_errorf(err, "SMT Alignment Error: requested %d cpus not multiple cpus per core = %d",
				 num, p->cpu_group_size);
	/*
	 * Reserved CPUs need not be whole cores: count their siblings as
	 * unavailable too, or the allocator would split a core.
	 */
	cpuset_andnot(&phys, &s->default_set, &p->reserved_physical);
	avail_phys = (int)cpuset_count(&phys);
	if (num > avail_phys)
		return cm_errorf(err, "SMT Alignment Error: not enough free physical CPUs: available physical CPUs = %d, requested CPUs = %d, CPUs per core = %d",
				 avail_phys, num, p->cpu_group_size);
	return 0;
}

/* getAlignedCPUs(): the allocatable CPUs on the affinity's NUMA nodes (or sockets). */
static void aligned_cpus(const struct cpu_policy *p, uint64_t affinity,
			 const struct cpuset *allocatable, struct cpuset *out)
{
	const struct topology *t = p->topo;
	struct cpuset part, sockets;
	int id;

	cpuset_zero(out);
	cpuset_zero(&sockets);
	for (int n = 0; n < 64; n++) {
		if (!(affinity >> n & 1))
			continue;
		topology_cpus_in(t, TOPO_NUMA, n, &part);
		if (p->opts.align_by_socket) {
			struct cpuset s;

			topology_groups_of(t, TOPO_SOCKET, &part, &s);
			cpuset_or(&sockets, &sockets, &s);
			continue;
		}
		cpuset_and(&part, &part, allocatable);
		cpuset_or(out, out, &part);
	}
	cpuset_for_each(id, &sockets) {
		topology_cpus_in(t, TOPO_SOCKET, id, &part);
		cpuset_and(&part, &part, allocatable);
		cpuset_or(out, out, &part);
	}
}

/* allocateCPUs() */
int cpu_policy_allocate_cpus(struct cpu_policy *p, struct cpu_assignments *s,
			     int num, const uint64_t *affinity,
			     const struct cpuset *reuse, struct cpuset *result,
			     struct cm_error *err)
{
	struct cpuset allocatable, aligned, rest, got;
	int n_aligned;

	cpu_policy_available(p, s, &allocatable);
	cpuset_or(&allocatable, &allocatable, reuse);
	cpuset_zero(result);
	if (affinity) {
		aligned_cpus(p, *affinity, &allocatable, &aligned);
		n_aligned = (int)cpuset_count(&aligned);
		if (num < n_aligned)
			n_aligned = num;
		if (take_hinted(p, &aligned, n_aligned,
				__builtin_popcountll(*affinity), &got, err))
			return -EINVAL;
		*result = got;
	}
	cpuset_andnot(&rest, &allocatable, result);
	if (cpu_policy_take(p, &rest, num - (int)cpuset_count(result), &got,
			     err))
		return -EINVAL;
	cpuset_or(result, result, &got);
	return 0;
}

/*
 * With strict-cpu-reservation the reserved CPUs are out of the shared
 * pool, so exclusive CPUs can take all of it; the kubelet then refuses
 * its own checkpoint at restart ("default cpuset cannot be empty",
 * kubernetes#141196).  cpumgr refuses that allocation instead, as the
 * kubelet's proposed fix (#141197) does; a named kubelet lets it pass.
 */
int cpu_policy_empties_shared_pool(const struct cpu_policy *p,
				   const struct cpu_assignments *s,
				   const struct cpuset *result,
				   struct cm_error *err)
{
	struct cpuset left;
	char *r;

	if (!p->opts.strict_reservation || p->kubelet_minor)
		return 0;
	cpuset_andnot(&left, &s->default_set, result);
	if (!cpuset_empty(&left))
		return 0;
	r = cpuset_to_str(result);
	cm_errorf(err, "not enough cpus available to satisfy request: taking cpus \"%s\" would leave the shared pool empty (strict-cpu-reservation keeps the reserved cpus out of it)",
		  r ? r : "");
	free(r);
	return -ENOSPC;
}

int cpu_policy_allocate(struct cpu_policy *p, struct cpu_assignments *s,
			const struct pod *pod, const struct pod_container *c,
			const uint64_t *affinity, struct cm_error *err)
{
	const struct cpuset *have;
	struct cpuset reuse, result;
	int num;

	if (p->kind == CPU_POLICY_NONE)
		return 0;
	/* a pod pool is allocated for the whole pod (AllocatePod) */
	if (pod_level_resources(pod))
		return 0;
	num = pod_guaranteed_cpus(pod, c);
	if (!num)
		return 0;	/* the shared pool */
	if (cpu_policy_check_smt(p, s, num, err))
		return -EINVAL;
	have = assignments_get(s, pod->uid, c->name);
	if (have) {
		result = *have;
		update_reuse(p, pod, c, &result);
		return 0;
	}
	pod_reuse(p, pod->uid, &reuse);
	if (cpu_policy_allocate_cpus(p, s, num, affinity, &reuse, &result,
				     err))
		return -EINVAL;
	if (cpu_policy_empties_shared_pool(p, s, &result, err))
		return -ENOSPC;
	if (assignments_set(s, pod->uid, c->name, &result))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	cpuset_andnot(&s->default_set, &s->default_set, &result);
	update_reuse(p, pod, c, &result);
	return 0;
}

void cpu_policy_remove(struct cpu_policy *p, struct cpu_assignments *s,
		       const char *pod_uid, const char *container)
{
	const struct cpuset *have;
	struct cpuset in_use, release;

	if (p->kind == CPU_POLICY_NONE)
		return;
	have = assignments_get(s, pod_uid, container);
	if (!have)
		return;
	if (assignments_get_pool(s, pod_uid)) {
		cpu_policy_remove_pooled(s, pod_uid, container);
		return;
	}
	assignments_pod_cpus(s, pod_uid, container, &in_use);
	cpuset_andnot(&release, have, &in_use);
	assignments_delete(s, pod_uid, container);
	cpuset_or(&s->default_set, &s->default_set, &release);
}

/*
 * validatePodScopeResources(): a budget the slices leave nothing of for
 * a container that shares.  The kubelet's words (its admission reason is
 * EmptyPodSharedPoolError).
 */
int cpu_policy_pod_budget(const struct pod *pod, int total,
			  struct cm_error *err)
{
	int64_t sidecars = 0, apps = 0;
	bool shared = false;

	for (unsigned int i = 0; i < pod->nr; i++) {
		const struct pod_container *c = &pod->containers[i];
		int n = pod_guaranteed_cpus(pod, c);

		if (c->init && !c->restartable) {
			if (n && n > total - sidecars)
				return cm_errorf(err, "pod rejected, largest exclusive init container requests %d cpus, but only %d available",
						 n, (int)(total - sidecars));
			if (!n && sidecars >= total)
				return cm_errorf(err, "pod rejected, pod has shared init containers but no cpus available for them");
		} else if (n) {
			*(c->init ? &sidecars : &apps) += n;
		} else {
			shared = true;
		}
	}
	if (shared && sidecars + apps >= total)
		return cm_errorf(err, "pod rejected, sum of exclusive container cpu requests equals pod budget, leaving no cpus for shared containers");
	return 0;
}

/*
 * A slice is not given back to the pod's shared pool: its containers'
 * CPUs stay as admitted, and the pool returns whole with the last entry.
 */
void cpu_policy_remove_pooled(struct cpu_assignments *s, const char *pod_uid,
			      const char *container)
{
	const struct cpuset *pool;
	struct cpuset left;

	assignments_delete(s, pod_uid, container);
	assignments_pod_cpus(s, pod_uid, NULL, &left);
	pool = assignments_get_pool(s, pod_uid);
	if (!cpuset_empty(&left) || !pool)
		return;
	cpuset_or(&s->default_set, &s->default_set, pool);
	assignments_delete_pool(s, pod_uid);
}
