// SPDX-License-Identifier: GPL-2.0
/*
 * Resizing a container's exclusive CPUs (see resize.h).  A grow takes
 * the free SMT siblings of the cores it holds first (not with
 * full-pcpus-only: there it holds whole cores and gets whole free cores),
 * then the policy's best fit inside the NUMA nodes it uses, then inside
 * its sockets, then anywhere.  A shrink gives back what is farthest from
 * the admission set first (another socket, another NUMA node), and
 * within that the CPUs whose cores it keeps least of, highest first, so
 * that what stays is whole cores near the admission set.
 */
#include <errno.h>
#include <string.h>

#include "resize.h"

/* The cores of s whose every CPU is in s. */
static void whole_cores(const struct topology *t, const struct cpuset *s,
			struct cpuset *out)
{
	struct cpuset core, one;
	int cpu;

	cpuset_zero(out);
	cpuset_for_each(cpu, s) {
		cpuset_zero(&one);
		cpuset_set(&one, (unsigned int)cpu);
		topology_cores_closure(t, &one, &core);
		if (cpuset_subset(&core, s))
			cpuset_set(out, (unsigned int)cpu);
	}
}

static int grow(struct cpu_policy *p, const struct cpuset *avail_in,
		const struct cpuset *held, int num, struct cpuset *added,
		struct cm_error *err)
{
	static const enum topo_level levels[] = { TOPO_NUMA, TOPO_SOCKET };
	const struct topology *t = p->topo;
	int need = num - (int)cpuset_count(held), cpu;
	struct cpuset pool, cand, got;

	cpuset_and(&pool, avail_in, &t->cpus);
	cpuset_andnot(&pool, &pool, held);
	cpuset_zero(added);
	if (p->opts.full_pcpus_only) {
		/* the kubelet's checks of Allocate, on what is added */
		if (num % p->cpu_group_size)
			return cm_errorf(err, "SMT Alignment Error: requested %d cpus not multiple cpus per core = %d",
					 num, p->cpu_group_size), -EINVAL;
		cpuset_andnot(&pool, &pool, &p->reserved_physical);
		whole_cores(t, &pool, &cand);
		pool = cand;
		if ((int)cpuset_count(&pool) < need)
			return cm_errorf(err, "SMT Alignment Error: not enough free physical CPUs: available physical CPUs = %u, requested CPUs = %d, CPUs per core = %d",
					 cpuset_count(&pool), need,
					 p->cpu_group_size), -EINVAL;
	}
	if ((int)cpuset_count(&pool) < need)
		return cm_errorf(err, "not enough cpus available to satisfy request: requested=%d, available=%u",
				 need, cpuset_count(&pool)), -ENOSPC;
	if (!p->opts.full_pcpus_only) {
		/* the free threads of its own cores */
		topology_cores_closure(t, held, &cand);
		cpuset_and(&cand, &cand, &pool);
		cpuset_for_each(cpu, &cand) {
			if (!need)
				break;
			cpuset_set(added, (unsigned int)cpu);
			need--;
		}
		cpuset_andnot(&pool, &pool, added);
	}
	if (!need)
		return 0;
	for (size_t i = 0; i < sizeof(levels) / sizeof(*levels); i++) {
		topology_groups_cpus(t, levels[i], held, &cand);
		cpuset_and(&cand, &cand, &pool);
		if ((int)cpuset_count(&cand) < need)
			continue;
		if (!cpu_policy_take(p, &cand, need, &got, err)) {
			cpuset_or(added, added, &got);
			return 0;
		}
		cm_error_clear(err);
	}
	if (cpu_policy_take(p, &pool, need, &got, err)) {
		cpuset_zero(added);
		return -ENOSPC;
	}
	cpuset_or(added, added, &got);
	return 0;
}

/* How far cpu is from the admission set: 2 another socket, 1 another
 * NUMA node, 0 near. */
static int distance(const struct topology *t, int cpu,
		    const struct cpuset *sockets, const struct cpuset *numas)
{
	struct topo_cpu_info i;

	if (!topology_cpu_info(t, cpu, &i))
		return 2;
	if (!cpuset_test(sockets, (unsigned int)i.socket))
		return 2;
	return cpuset_test(numas, (unsigned int)i.numa) ? 0 : 1;
}

/* The CPUs of cpu's core that are in s. */
static unsigned int core_in(const struct topology *t, int cpu,
			    const struct cpuset *s, struct cpuset *out)
{
	struct cpuset one;

	cpuset_zero(&one);
	cpuset_set(&one, (unsigned int)cpu);
	topology_cores_closure(t, &one, out);
	cpuset_and(out, out, s);
	return cpuset_count(out);
}

static int shrink(struct cpu_policy *p, const struct cpuset *held,
		  const struct cpuset *admitted, int num,
		  struct cpuset *removed, struct cm_error *err)
{
	const struct topology *t = p->topo;
	int drop = (int)cpuset_count(held) - num;
	struct cpuset extra, kept, sockets, numas, core;

	cpuset_zero(removed);
	if (p->opts.full_pcpus_only && num % p->cpu_group_size)
		return cm_errorf(err, "SMT Alignment Error: requested %d cpus not multiple cpus per core = %d",
				 num, p->cpu_group_size), -EINVAL;
	cpuset_andnot(&extra, held, admitted);
	topology_groups_of(t, TOPO_SOCKET, admitted, &sockets);
	topology_groups_of(t, TOPO_NUMA, admitted, &numas);
	kept = *held;
	while (drop > 0) {
		int best = -1, best_d = -1, best_n = 0, cpu;

		cpuset_for_each(cpu, &extra) {
			int d = distance(t, cpu, &sockets, &numas);
			int n = (int)core_in(t, cpu, &kept, &core);

			/* farthest, then fewest kept on its core, then highest */
			if (d > best_d || (d == best_d && n <= best_n)) {
				best = cpu;
				best_d = d;
				best_n = n;
			}
		}
		if (best < 0)
			break;
		/* whole cores go back whole when they fit */
		if (core_in(t, best, &extra, &core) > (unsigned int)drop ||
		    !p->opts.full_pcpus_only) {
			cpuset_zero(&core);
			cpuset_set(&core, (unsigned int)best);
		}
		cpuset_or(removed, removed, &core);
		cpuset_andnot(&extra, &extra, &core);
		cpuset_andnot(&kept, &kept, &core);
		drop -= (int)cpuset_count(&core);
	}
	return 0;
}

int cpu_policy_resize(struct cpu_policy *p, struct cpu_assignments *s,
		      const struct resize_request *r, struct cpuset *out,
		      struct cm_error *err)
{
	const struct cpuset *have = assignments_get(s, r->pod_uid,
						    r->container);
	struct cpuset held, admitted, avail, delta, next;
	int ret;

	if (p->kind != CPU_POLICY_STATIC)
		return cm_errorf(err, "the policy is none: no exclusive CPUs to resize"), -EINVAL;
	if (!have || cpuset_empty(have))
		return cm_errorf(err, "container %s of pod %s holds no exclusive CPUs",
				 r->container, r->pod_uid), -EINVAL;
	if (r->num_cpus < 1)
		return cm_errorf(err, "a resize needs at least 1 CPU, not %d",
				 r->num_cpus), -EINVAL;
	held = *have;
	admitted = r->admitted ? *r->admitted : held;
	if (r->num_cpus < (int)cpuset_count(&admitted)) {
		char text[256];

		cpuset_format(&admitted, text, sizeof(text));
		return cm_errorf(err, "cannot shrink container %s of pod %s to %d CPUs: it was admitted with %u (%s), and a resize never gives those back",
				 r->container, r->pod_uid, r->num_cpus,
				 cpuset_count(&admitted), text), -EINVAL;
	}
	if (r->num_cpus > (int)cpuset_count(&held)) {
		cpu_policy_available(p, s, &avail);
		ret = grow(p, &avail, &held, r->num_cpus, &delta, err);
		if (ret)
			return ret;
		cpuset_or(&next, &held, &delta);
		cpuset_andnot(&s->default_set, &s->default_set, &delta);
	} else {
		ret = shrink(p, &held, &admitted, r->num_cpus, &delta, err);
		if (ret)
			return ret;
		cpuset_andnot(&next, &held, &delta);
		cpuset_or(&s->default_set, &s->default_set, &delta);
	}
	if (assignments_set(s, r->pod_uid, r->container, &next)) {
		/* undo the default set: nothing changes on a failure */
		if (r->num_cpus > (int)cpuset_count(&held))
			cpuset_or(&s->default_set, &s->default_set, &delta);
		else
			cpuset_andnot(&s->default_set, &s->default_set, &delta);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	*out = next;
	return 0;
}
