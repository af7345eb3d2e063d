// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

static const char *const level_name[TOPO_NR_LEVELS] = {
	[TOPO_CORE] = "core", [TOPO_SOCKET] = "socket",
	[TOPO_NUMA] = "NUMA node", [TOPO_UNCORE] = "uncore cache",
};

static int field(const struct topo_cpu_info *c, enum topo_level lvl)
{
	switch (lvl) {
	case TOPO_CORE:
		return c->core;
	case TOPO_SOCKET:
		return c->socket;
	case TOPO_NUMA:
		return c->numa;
	default:
		return c->uncore;
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_info(const void *a, const void *b)
{
	return cmp_int(&((const struct topo_cpu_info *)a)->cpu,
		       &((const struct topo_cpu_info *)b)->cpu);
}

static void map_free(struct topo_map *m)
{
	free(m->start);
	free(m->item);
	m->start = m->item = NULL;
}

void topology_free(struct topology *t)
{
	if (!t)
		return;
	free(t->cpu_id);
	free(t->cpu_index);
	for (int l = 0; l < TOPO_NR_LEVELS; l++) {
		free(t->cpu_group[l]);
		free(t->id[l]);
		free(t->core_group[l]);
		map_free(&t->cpus_of[l]);
	}
	map_free(&t->cores_of_socket);
	map_free(&t->cores_of_numa);
	map_free(&t->cores_of_uncore);
	map_free(&t->ns_by_numa);
	map_free(&t->ns_by_socket);
	map_free(&t->nu_by_numa);
	free(t->ns_by_socket_pair);
	free(t->cpu_ns_pair);
	free(t->cpu_nu_pair);
	free(t);
}

/*
 * Group nr_items items into nr_groups groups by key[] (a group index per
 * item), items ascending inside each group.
 */
static int map_build(struct topo_map *m, unsigned int nr_groups,
		     const unsigned int *key, unsigned int nr_items)
{
	unsigned int *fill;

	m->nr = nr_groups;
	m->start = calloc(nr_groups + 1, sizeof(*m->start));
	m->item = calloc(nr_items ? nr_items : 1, sizeof(*m->item));
	fill = calloc(nr_groups ? nr_groups : 1, sizeof(*fill));
	if (!m->start || !m->item || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < nr_items; i++)
		m->start[key[i] + 1]++;
	for (unsigned int g = 0; g < nr_groups; g++)
		m->start[g + 1] += m->start[g];
	for (unsigned int i = 0; i < nr_items; i++)
		m->item[m->start[key[i]] + fill[key[i]]++] = i;
	free(fill);
	return 0;
}

/*
 * Dense group index of every CPU at one level, ids ascending.  Ids are
 * below CPUSET_MAX_CPUS (check_records()): lut, that many ints, maps an
 * id to its index without sorting.
 */
static int build_level(struct topology *t, const struct topo_cpu_info *c,
		       enum topo_level lvl, int *lut)
{
	unsigned int n = t->nr_cpus, k = 0;
	int max = 0, *ids;

	for (unsigned int i = 0; i < n; i++)
		if (field(&c[i], lvl) > max)
			max = field(&c[i], lvl);
	memset(lut, 0, (max + 1) * sizeof(*lut));
	for (unsigned int i = 0; i < n; i++)
		lut[field(&c[i], lvl)] = 1;
	for (int id = 0; id <= max; id++)
		k += lut[id];
	ids = malloc(k * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	k = 0;
	for (int id = 0; id <= max; id++)
		if (lut[id]) {
			lut[id] = (int)k;
			ids[k++] = id;
		}
	t->nr[lvl] = k;
	t->id[lvl] = ids;
	t->cpu_group[lvl] = malloc(n * sizeof(unsigned int));
	if (!t->cpu_group[lvl])
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++)
		t->cpu_group[lvl][i] = (unsigned int)lut[field(&c[i], lvl)];
	return map_build(&t->cpus_of[lvl], k, t->cpu_group[lvl], n);
}

static int check_records(const struct topo_cpu_info *c, unsigned int n,
			 struct cm_error *err)
{
	if (!n)
		return cm_errorf(err, "topology has no CPUs");
	for (unsigned int i = 0; i < n; i++) {
		if (c[i].cpu < 0 || c[i].cpu >= CPUSET_MAX_CPUS)
			return cm_errorf(err, "cpu %d: CPU number out of range (0-%d)",
					 c[i].cpu, CPUSET_MAX_CPUS - 1);
		for (int l = 0; l < TOPO_NR_LEVELS; l++) {
			int v = field(&c[i], l);

			if (v < 0 || v >= CPUSET_MAX_CPUS)
				return cm_errorf(err, "cpu %d: %s id %d out of range (0-%d)",
						 c[i].cpu, level_name[l], v,
						 CPUSET_MAX_CPUS - 1);
		}
		if (i && c[i].cpu == c[i - 1].cpu)
			return cm_errorf(err, "cpu %d listed twice", c[i].cpu);
	}
	return 0;
}

/*
 * The records into out in ascending CPU order when they are all valid
 * (every id in range, no CPU twice): placed by CPU number through lut
 * (CPUSET_MAX_CPUS ints), no sort.  Returns nonzero, out unspecified,
 * when one is not.
 */
static int in_cpu_order(const struct topo_cpu_info *c, unsigned int n,
			struct topo_cpu_info *out, int *lut)
{
	uint64_t seen[CPUSET_MAX_CPUS / 64] = { 0 };
	unsigned int k = 0;

	if (!n)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int cpu = (unsigned int)c[i].cpu;

		for (int l = 0; l < TOPO_NR_LEVELS; l++)
			if ((unsigned int)field(&c[i], l) >= CPUSET_MAX_CPUS)
				return -EINVAL;
		if (cpu >= CPUSET_MAX_CPUS ||
		    (seen[cpu / 64] >> (cpu % 64)) & 1)
			return -EINVAL;
		seen[cpu / 64] |= UINT64_C(1) << (cpu % 64);
		lut[cpu] = (int)i;
	}
	for (unsigned int w = 0; w < CPUSET_MAX_CPUS / 64; w++)
		for (uint64_t word = seen[w]; word; word &= word - 1)
			out[k++] = c[lut[w * 64 + __builtin_ctzll(word)]];
	return 0;
}

/* A physical core lives in one socket, one NUMA node, one uncore cache. */
static int build_core_maps(struct topology *t, struct cm_error *err)
{
	unsigned int nc = t->nr[TOPO_CORE];

	for (int l = TOPO_SOCKET; l < TOPO_NR_LEVELS; l++) {
		unsigned int *g = malloc(nc * sizeof(*g));

		if (!g)
			return -ENOMEM;
		t->core_group[l] = g;
		for (unsigned int i = 0; i < nc; i++)
			g[i] = ~0u;
		for (unsigned int i = 0; i < t->nr_cpus; i++) {
			unsigned int core = t->cpu_group[TOPO_CORE][i];
			unsigned int grp = t->cpu_group[l][i];

			if (g[core] != ~0u && g[core] != grp)
				return cm_errorf(err, "core %d spans %ss %d and %d",
						 t->id[TOPO_CORE][core],
						 level_name[l], t->id[l][g[core]],
						 t->id[l][grp]);
			g[core] = grp;
		}
	}
	for (unsigned int i = 0; i < nc; i++) {
		unsigned int sz = t->cpus_of[TOPO_CORE].start[i + 1] -
				  t->cpus_of[TOPO_CORE].start[i];

		if (sz > t->max_core_cpus)
			t->max_core_cpus = sz;
	}
	if (map_build(&t->cores_of_socket, t->nr[TOPO_SOCKET],
		      t->core_group[TOPO_SOCKET], nc) ||
	    map_build(&t->cores_of_numa, t->nr[TOPO_NUMA],
		      t->core_group[TOPO_NUMA], nc) ||
	    map_build(&t->cores_of_uncore, t->nr[TOPO_UNCORE],
		      t->core_group[TOPO_UNCORE], nc))
		return -ENOMEM;
	return 0;
}

/*
 * Pairs (NUMA node, other) that hold at least one CPU: grouped by NUMA
 * node, others ascending.  cpu_pair gets each CPU's pair index.
 */
static int build_pairs(struct topology *t, enum topo_level other,
		       struct topo_map *by_numa, unsigned int **cpu_pair)
{
	unsigned int nn = t->nr[TOPO_NUMA], no = t->nr[other];
	unsigned int *cell, nr_pairs = 0, *key = NULL, *val = NULL;
	int ret = -ENOMEM;

	/* nn * no is small: NUMA nodes times sockets or uncore caches */
	cell = malloc((size_t)nn * no * sizeof(*cell));
	*cpu_pair = malloc(t->nr_cpus * sizeof(unsigned int));
	if (!cell || !*cpu_pair) {
		free(cell);
		return ret;
	}
	for (size_t i = 0; i < (size_t)nn * no; i++)
		cell[i] = ~0u;
	for (unsigned int i = 0; i < t->nr_cpus; i++)
		cell[(size_t)t->cpu_group[TOPO_NUMA][i] * no +
		     t->cpu_group[other][i]] = 0;
	key = calloc((size_t)nn * no + 1, sizeof(*key));
	val = calloc((size_t)nn * no + 1, sizeof(*val));
	if (!key || !val)
		goto out;
	for (unsigned int n = 0; n < nn; n++)
		for (unsigned int o = 0; o < no; o++)
			if (!cell[(size_t)n * no + o]) {
				key[nr_pairs] = n;
				val[nr_pairs] = o;
				cell[(size_t)n * no + o] = nr_pairs++;
			}
	ret = map_build(by_numa, nn, key, nr_pairs);
	if (ret)
		goto out;
	/* map_build keeps insertion order, which is already (NUMA, other) */
	for (unsigned int p = 0; p < nr_pairs; p++)
		by_numa->item[p] = val[p];
	for (unsigned int i = 0; i < t->nr_cpus; i++)
		(*cpu_pair)[i] = cell[(size_t)t->cpu_group[TOPO_NUMA][i] * no +
				      t->cpu_group[other][i]];
out:
	free(cell);
	free(key);
	free(val);
	return ret;
}

/* Socket -> NUMA nodes view of the (NUMA, socket) pairs. */
static int build_socket_view(struct topology *t)
{
	struct topo_map *bn = &t->ns_by_numa;
	unsigned int np = bn->start[bn->nr], *sock, *numa;
	int ret = -ENOMEM;

	sock = malloc((np + 1) * sizeof(*sock));
	numa = malloc((np + 1) * sizeof(*numa));
	if (!sock || !numa)
		goto out;
	for (unsigned int n = 0; n < bn->nr; n++)
		for (unsigned int p = bn->start[n]; p < bn->start[n + 1]; p++) {
			sock[p] = bn->item[p];
			numa[p] = n;
		}
	ret = map_build(&t->ns_by_socket, t->nr[TOPO_SOCKET], sock, np);
	if (ret)
		goto out;
	t->ns_by_socket_pair = malloc((np + 1) * sizeof(unsigned int));
	if (!t->ns_by_socket_pair) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned int k = 0; k < np; k++) {
		unsigned int pair = t->ns_by_socket.item[k];

		t->ns_by_socket_pair[k] = pair;
		t->ns_by_socket.item[k] = numa[pair];
	}
	for (unsigned int s = 0; s < t->ns_by_socket.nr; s++) {
		unsigned int c = t->ns_by_socket.start[s + 1] -
				 t->ns_by_socket.start[s];

		if (c > t->max_socket_numas)
			t->max_socket_numas = c;
	}
	for (unsigned int n = 0; n < bn->nr; n++) {
		unsigned int c = bn->start[n + 1] - bn->start[n];

		if (c > t->max_numa_sockets)
			t->max_numa_sockets = c;
	}
out:
	free(sock);
	free(numa);
	return ret;
}

struct topology *topology_new(const struct topo_cpu_info *cpus,
			      unsigned int nr, struct cm_error *err)
{
	struct topo_cpu_info *c = NULL;
	struct topology *t;
	int *lut = NULL;

	if (nr > CPUSET_MAX_CPUS) {
		cm_errorf(err, "topology has %u CPUs, more than %d", nr,
			  CPUSET_MAX_CPUS);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (nr)
		c = malloc(nr * sizeof(*c));
	if (!t || (nr && !c))
		goto nomem;
	lut = malloc(CPUSET_MAX_CPUS * sizeof(*lut));
	if (!lut)
		goto nomem;
	if (in_cpu_order(cpus, nr, c, lut)) {
		/* something to refuse: find it in CPU order, as always */
		/* no CPUs, no array: neither memcpy() nor qsort() take NULL */
		if (nr) {
			memcpy(c, cpus, nr * sizeof(*c));
			qsort(c, nr, sizeof(*c), cmp_info);
		}
		if (check_records(c, nr, err))
			goto fail;
	}

	t->nr_cpus = nr;
	t->max_cpu = c[nr - 1].cpu;
	t->nw = (nr + 63) / 64;
	t->cpu_id = malloc(nr * sizeof(int));
	t->cpu_index = malloc((t->max_cpu + 1) * sizeof(int));
	if (!t->cpu_id || !t->cpu_index)
		goto nomem;
	for (int i = 0; i <= t->max_cpu; i++)
		t->cpu_index[i] = -1;
	for (unsigned int i = 0; i < nr; i++) {
		t->cpu_id[i] = c[i].cpu;
		t->cpu_index[c[i].cpu] = (int)i;
		cpuset_set(&t->cpus, c[i].cpu);
	}
	for (int l = 0; l < TOPO_NR_LEVELS; l++)
		if (build_level(t, c, l, lut))
			goto nomem;
	if (build_core_maps(t, err))
		goto fail;
	if (build_pairs(t, TOPO_SOCKET, &t->ns_by_numa, &t->cpu_ns_pair) ||
	    build_pairs(t, TOPO_UNCORE, &t->nu_by_numa, &t->cpu_nu_pair) ||
	    build_socket_view(t))
		goto nomem;
	free(c);
	free(lut);
	return t;
nomem:
	cm_errorf(err, "out of memory building the topology");
fail:
	free(c);
	free(lut);
	topology_free(t);
	return NULL;
}

int topology_cpus_per(const struct topology *t, enum topo_level lvl)
{
	return t->nr[lvl] ? (int)(t->nr_cpus / t->nr[lvl]) : 0;
}

int topology_group_of_id(const struct topology *t, enum topo_level lvl,
			 int id)
{
	int *hit = bsearch(&id, t->id[lvl], t->nr[lvl], sizeof(int), cmp_int);

	return hit ? (int)(hit - t->id[lvl]) : -1;
}

void topology_cpus_in(const struct topology *t, enum topo_level lvl, int id,
		      struct cpuset *out)
{
	int g = topology_group_of_id(t, lvl, id);
	const struct topo_map *m = &t->cpus_of[lvl];

	cpuset_zero(out);
	if (g < 0)
		return;
	for (unsigned int k = m->start[g]; k < m->start[g + 1]; k++)
		cpuset_set(out, t->cpu_id[m->item[k]]);
}

bool topology_cpu_info(const struct topology *t, int cpu,
		       struct topo_cpu_info *out)
{
	int i;

	if (cpu < 0 || cpu > t->max_cpu || (i = t->cpu_index[cpu]) < 0)
		return false;
	out->cpu = cpu;
	out->core = t->id[TOPO_CORE][t->cpu_group[TOPO_CORE][i]];
	out->socket = t->id[TOPO_SOCKET][t->cpu_group[TOPO_SOCKET][i]];
	out->numa = t->id[TOPO_NUMA][t->cpu_group[TOPO_NUMA][i]];
	out->uncore = t->id[TOPO_UNCORE][t->cpu_group[TOPO_UNCORE][i]];
	return true;
}

void topology_cores_closure(const struct topology *t, const struct cpuset *s,
			    struct cpuset *out)
{
	const struct topo_map *m = &t->cpus_of[TOPO_CORE];
	struct cpuset res;
	int cpu;

	cpuset_zero(&res);
	cpuset_for_each(cpu, s) {
		unsigned int core;

		if (cpu > t->max_cpu || t->cpu_index[cpu] < 0)
			continue;
		core = t->cpu_group[TOPO_CORE][t->cpu_index[cpu]];
		for (unsigned int k = m->start[core]; k < m->start[core + 1]; k++)
			cpuset_set(&res, t->cpu_id[m->item[k]]);
	}
	*out = res;
}

void topology_groups_of(const struct topology *t, enum topo_level lvl,
			const struct cpuset *s, struct cpuset *ids)
{
	struct cpuset res;
	int cpu;

	cpuset_zero(&res);
	cpuset_for_each(cpu, s) {
		if (cpu > t->max_cpu || t->cpu_index[cpu] < 0)
			continue;
		cpuset_set(&res,
			   t->id[lvl][t->cpu_group[lvl][t->cpu_index[cpu]]]);
	}
	*ids = res;
}

void topology_groups_cpus(const struct topology *t, enum topo_level lvl,
			  const struct cpuset *s, struct cpuset *out)
{
	struct cpuset ids, part;
	int id;

	cpuset_zero(out);
	topology_groups_of(t, lvl, s, &ids);
	cpuset_for_each(id, &ids) {
		topology_cpus_in(t, lvl, id, &part);
		cpuset_or(out, out, &part);
	}
}
