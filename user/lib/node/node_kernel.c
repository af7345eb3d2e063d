// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's table as one consistent snapshot: GET_STATE, the
 * assignment dump and the topology dump, read again until the generation
 * did not move in between, and what the policy engine makes of it; the
 * node's ASSIGN (node_assign()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "node_internal.h"

static int cpu_cb(const struct cpumgr_cpu *c, void *arg)
{
	struct node *n = arg;
	struct node_cpu *nc;

	/* a power of two or zero: double before each power of two */
	if (!(n->kernel.nr_cpus & (n->kernel.nr_cpus - 1))) {
		struct node_cpu *v = realloc(n->kernel.cpus,
					     (n->kernel.nr_cpus ? 2 * n->kernel.nr_cpus : 64) *
					     sizeof(*v));

		if (!v)
			return -ENOMEM;
		n->kernel.cpus = v;
	}
	nc = &n->kernel.cpus[n->kernel.nr_cpus++];
	memset(nc, 0, sizeof(*nc));
	nc->cpu = (int)c->id;
	nc->known = c->known;
	nc->online = c->online;
	nc->package = (int)c->package;
	nc->die = (int)c->die;
	nc->core = (int)c->core;
	nc->numa = (int)c->numa;
	nc->llc = (int)c->llc;
	nc->core_cpu = -1;
	/* a cpulist is in ascending order: its first number is the lowest */
	if (c->known && c->siblings && *c->siblings) {
		const char *p = c->siblings;
		unsigned int first = 0;

		/* by hand: strtoul() is a tenth of a 4096-CPU refresh */
		for (; *p >= '0' && *p <= '9' && first < CPUSET_MAX_CPUS; p++)
			first = first * 10 + (unsigned int)(*p - '0');
		if (p == c->siblings || first >= CPUSET_MAX_CPUS)
			return -EINVAL;
		nc->core_cpu = (int)first;
	}
	return 0;
}

int node_topology_from_cpus(const struct node_cpu *cpus, unsigned int nr,
			    struct topology **out, struct cm_error *err)
{
	struct topo_cpu_info *info = calloc(nr ? nr : 1, sizeof(*info));
	unsigned int k = 0;

	*out = NULL;
	if (!info)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	for (unsigned int i = 0; i < nr; i++) {
		const struct node_cpu *c = &cpus[i];
		int first = c->core_cpu;

		if (!c->known || !c->online)
			continue;
		info[k].cpu = c->cpu;
		/* machine-unique: the core's lowest thread, as the kubelet */
		info[k].core = first >= 0 ? first : c->cpu;
		info[k].socket = c->package;
		info[k].numa = c->numa;
		info[k].uncore = c->llc;
		k++;
	}
	*out = topology_new(info, k, err);
	free(info);
	if (!*out) {
		cm_error_prefix(err, "the kernel's topology");
		return -EINVAL;
	}
	return 0;
}

static void clear_snapshot(struct node *n)
{
	cpumgr_table_free(&n->kernel.table);
	cpumgr_assignments_free(n->kernel.as, n->kernel.nr_as);
	n->kernel.as = NULL;
	n->kernel.nr_as = 0;
	free(n->kernel.sorted);
	n->kernel.sorted = NULL;
	assignments_free(&n->assignments);
	if (n->policy_ready)
		cpu_policy_destroy(&n->policy);
	n->policy_ready = false;
}

int node_nl_error(struct node *n, const char *what, struct cm_error *err)
{
	const struct cpumgr_nl_error *e = cpumgr_nl_last_error(n->kernel.nl);

	cm_errorf(err, "%s: %s%s%s", what, strerror(e->err ? -e->err : EIO),
		  e->msg[0] ? ": " : "", e->msg);
	return e->err ? e->err : -EIO;
}

static int parse_set(const char *s, struct cpuset *out, const char *what,
		     struct cm_error *err)
{
	if (cpuset_parse(out, s ? s : "", err)) {
		cm_error_prefix(err, "the kernel's %s", what);
		return -EINVAL;
	}
	return 0;
}

/*
 * The CPUs as the kernel lists them now; the topology built from the
 * last list is kept when nothing changed (no CPU went on- or offline),
 * which is every refresh but the first on a quiet machine.
 */
static int read_cpus(struct node *n, struct cm_error *err)
{
	struct node_cpu *old = n->kernel.cpus;
	unsigned int old_nr = n->kernel.nr_cpus;
	int ret;

	n->kernel.cpus = NULL;
	n->kernel.nr_cpus = 0;
	ret = cpumgr_nl_dump_topology(n->kernel.nl, cpu_cb, n);
	if (ret >= 0 && n->kernel.topo && old_nr == n->kernel.nr_cpus &&
	    !memcmp(old, n->kernel.cpus, old_nr * sizeof(*old))) {
		free(old);
		return 0;
	}
	free(old);
	topology_free(n->kernel.topo);
	n->kernel.topo = NULL;
	return ret < 0 ? node_nl_error(n, "dump topology", err) : 0;
}

void node_own_change(struct node *n, uint64_t expect, uint64_t now)
{
	if (n->kernel.cpus && n->kernel.cpus_generation == expect)
		n->kernel.cpus_generation = now;
}

static int read_once(struct node *n, struct cm_error *err)
{
	struct cpumgr_table again = { 0 };
	int ret;

	clear_snapshot(n);
	if (cpumgr_nl_get_table(n->kernel.nl, &n->kernel.table))
		return node_nl_error(n, "get state", err);
	/* the reduced view: the pools and the topology, no assignments */
	ret = n->kernel.table.restricted && n->kernel.restricted_ok ? 0 :
	      cpumgr_nl_list_assignments(n->kernel.nl, &n->kernel.as,
					 &n->kernel.nr_as);
	if (ret < 0)
		return node_nl_error(n, "dump assignments", err);
	/* only our own changes since the CPUs were read: they stand */
	if (!n->kernel.cpus ||
	    n->kernel.table.generation != n->kernel.cpus_generation) {
		ret = read_cpus(n, err);
		if (ret)
			return ret;
	}
	if (cpumgr_nl_get_table(n->kernel.nl, &again))
		return node_nl_error(n, "get state", err);
	ret = again.generation != n->kernel.table.generation ? -EAGAIN : 0;
	if (!ret)
		n->kernel.cpus_generation = n->kernel.table.generation;
	cpumgr_table_free(&again);
	return ret;
}

/* By pod, then container; a NULL container sorts first of its pod. */
static int cmp_as(const char *uid, const char *container,
		  const struct cpumgr_assignment *a)
{
	int c = strcmp(uid, a->pod_uid);

	if (c || !container)
		return c ? c : -1;
	return strcmp(container, a->container);
}

static int cmp_sorted(const void *x, const void *y)
{
	const struct cpumgr_assignment *a = *(const struct cpumgr_assignment *const *)x;

	return cmp_as(a->pod_uid, a->container,
		      *(const struct cpumgr_assignment *const *)y);
}

/* The index of node_assignment(): every call of a node's path asks it. */
static void sort_table(struct node *n)
{
	free(n->kernel.sorted);
	n->kernel.sorted = calloc(n->kernel.nr_as ? n->kernel.nr_as : 1,
				  sizeof(*n->kernel.sorted));
	if (!n->kernel.sorted)
		return;
	for (size_t i = 0; i < n->kernel.nr_as; i++)
		n->kernel.sorted[i] = &n->kernel.as[i];
	qsort(n->kernel.sorted, n->kernel.nr_as, sizeof(*n->kernel.sorted),
	      cmp_sorted);
}

int node_refresh(struct node *n, struct cm_error *err)
{
	int ret = -EAGAIN;

	for (int i = 0; i < 20 && ret == -EAGAIN; i++)
		ret = read_once(n, err);
	if (ret == -EAGAIN)
		return cm_errorf(err, "the kernel's table kept changing"),
		       -EAGAIN;
	if (ret)
		return ret;
	if (parse_set(n->kernel.table.online_cpus, &n->kernel.online, "online CPUs", err) ||
	    parse_set(n->kernel.table.reserved_cpus, &n->kernel.reserved, "reserved CPUs",
		      err) ||
	    parse_set(n->kernel.table.shared_cpus, &n->kernel.shared, "shared CPUs", err) ||
	    parse_set(n->kernel.table.exclusive_cpus, &n->kernel.exclusive, "exclusive CPUs",
		      err))
		return -EINVAL;
	if (!n->kernel.topo) {
		ret = node_topology_from_cpus(n->kernel.cpus, n->kernel.nr_cpus,
					      &n->kernel.topo, err);
		if (ret)
			return ret;
	}
	sort_table(n);
	return node_kernel_state(n, &n->assignments);
}

/* The first sorted entry not before (uid, container); nr_as if none. */
static size_t lower(const struct node *n, const char *uid,
		    const char *container)
{
	size_t lo = 0, hi = n->kernel.nr_as;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_as(uid, container, n->kernel.sorted[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct cpumgr_assignment *node_assignment(const struct node *n,
						const char *pod_uid,
						const char *container)
{
	size_t i;

	if (!n->kernel.sorted) {
		for (i = 0; i < n->kernel.nr_as; i++)
			if (!strcmp(n->kernel.as[i].pod_uid, pod_uid) &&
			    !strcmp(n->kernel.as[i].container, container))
				return &n->kernel.as[i];
		return NULL;
	}
	i = lower(n, pod_uid, container);
	return i < n->kernel.nr_as &&
	       !cmp_as(pod_uid, container, n->kernel.sorted[i]) ?
	       n->kernel.sorted[i] : NULL;
}

bool node_pod_in_kernel(const struct node *n, const char *pod_uid)
{
	size_t i;

	if (!n->kernel.sorted) {
		for (i = 0; i < n->kernel.nr_as; i++)
			if (!strcmp(n->kernel.as[i].pod_uid, pod_uid))
				return true;
		return false;
	}
	i = lower(n, pod_uid, NULL);
	return i < n->kernel.nr_as &&
	       !strcmp(n->kernel.sorted[i]->pod_uid, pod_uid);
}

const char *node_pod_cgroup_bound(const struct node *n, const char *pod_uid)
{
	for (size_t i = 0; i < n->kernel.nr_as; i++) {
		const struct cpumgr_assignment *a = &n->kernel.as[i];

		if (!strcmp(a->pod_uid, pod_uid) && a->pod_cgroup_path &&
		    a->pod_cgroup_path[0])
			return a->pod_cgroup_path;
	}
	return NULL;
}

void node_shared_pool(const struct node *n, struct cpuset *out)
{
	struct cpuset pools;

	*out = n->kernel.shared;
	/* pod pools the kubelet's checkpoint has: not the node's to share */
	assignments_pools_union(&n->assignments, &pools);
	cpuset_andnot(out, out, &pools);
	if (n->kernel.table.options & CPUMGR_OPT_STRICT_CPU_RESERVATION)
		cpuset_andnot(out, out, &n->kernel.reserved);
	/* a resize about to take them (node_resize.c) */
	cpuset_andnot(out, out, &n->withheld);
}

/*
 * The pod-level state kept from the checkpoint, for the pods the node
 * still knows: a pod pool the kernel does not hold (a module older than
 * pools) while the pod has CPUs in the table, a baseline while its
 * container has CPUs.
 */
static int pod_level_state(const struct node *n, struct cpu_assignments *out)
{
	const struct cpu_assignments *pl = &n->files.pod_level;

	for (unsigned int i = 0; i < pl->nr_pods; i++) {
		const char *uid = pl->pods[i].pod_uid;
		/* as the kubelet's: it goes with the pod's last entry */
		bool known = node_pod_in_kernel(n, uid);

		/* the kernel's pool, when it holds one, is the pool */
		if (known && !assignments_get_pool(out, uid) &&
		    assignments_set_pool(out, uid, &pl->pods[i].cpus))
			return -ENOMEM;
	}
	for (unsigned int i = 0; i < pl->nr_baselines; i++) {
		const struct cpu_baseline *b = &pl->baselines[i];

		if (assignments_get(out, b->pod_uid, b->container) &&
		    assignments_set_baseline(out, b->pod_uid, b->container,
					     b->cpus, strlen(b->cpus)))
			return -ENOMEM;
	}
	return 0;
}

int node_kernel_state(const struct node *n, struct cpu_assignments *out)
{
	struct cpuset all = n->kernel.topo->cpus, pools;

	assignments_init(out);
	for (size_t i = 0; i < n->kernel.nr_as; i++) {
		struct cpuset s;

		if (cpuset_parse(&s, n->kernel.as[i].cpus ? n->kernel.as[i].cpus : "", NULL))
			return -EINVAL;
		if (assignments_set(out, n->kernel.as[i].pod_uid,
				    n->kernel.as[i].container, &s))
			return -ENOMEM;
		cpuset_andnot(&all, &all, &s);
		if (!n->kernel.as[i].pod_cpus)
			continue;
		if (cpuset_parse(&s, n->kernel.as[i].pod_cpus, NULL))
			return -EINVAL;
		if (assignments_set_pool(out, n->kernel.as[i].pod_uid, &s))
			return -ENOMEM;
	}
	/* the reduced view has no assignments, but their union */
	if (n->kernel.table.restricted)
		cpuset_andnot(&all, &all, &n->kernel.exclusive);
	if (pod_level_state(n, out))
		return -ENOMEM;
	/* a pod's pool is out of the kubelet's defaultCpuSet */
	assignments_pools_union(out, &pools);
	cpuset_andnot(&all, &all, &pools);
	/* the kubelet's defaultCpuSet: none keeps it empty */
	if (n->kernel.table.policy != CPUMGR_POLICY_STATIC) {
		cpuset_zero(&out->default_set);
		return 0;
	}
	if (n->kernel.table.options & CPUMGR_OPT_STRICT_CPU_RESERVATION)
		cpuset_andnot(&all, &all, &n->kernel.reserved);
	out->default_set = all;
	return 0;
}

static const char *policy_name(const struct node *n)
{
	if (n->files.has_config)
		return cpu_policy_name(n->cfg.policy);
	return n->kernel.table.policy == CPUMGR_POLICY_STATIC ? "static" : "none";
}

char *node_checkpoint_text(const struct node *n, size_t *len)
{
	enum checkpoint_version v = n->files.has_config ?
				    n->cfg.checkpoint_version : CHECKPOINT_V2;

	return checkpoint_format_version(v, policy_name(n), &n->assignments,
					 len);
}

int node_save_checkpoint(struct node *n, unsigned int flags,
			 struct cm_error *err)
{
	char *want, *have = NULL;
	size_t wlen, hlen;
	bool same, ours;
	int ret;

	want = node_checkpoint_text(n, &wlen);
	if (!want)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = checkpoint_store_read(&n->files.store, &have, &hlen, err);
	cm_error_clear(err);
	/* nothing to do: spare the disk a sync */
	same = !ret && hlen == wlen && !memcmp(have, want, wlen);
	/*
	 * The file this node wrote last is a good one: replaced without
	 * parsing it again (checkpoint_store_save() checks another's).
	 */
	ours = !ret && n->files.written && hlen == n->files.written_len &&
	       !memcmp(have, n->files.written, hlen);
	free(have);
	if (same)
		ret = 0;
	else if (ours)
		ret = checkpoint_store_write(&n->files.store, want, wlen, err);
	else
		ret = checkpoint_store_save_text(&n->files.store, want, wlen,
						 flags & NODE_FORCE ?
						 CHECKPOINT_FORCE : 0, err);
	free(n->files.written);
	n->files.written = NULL;
	if (!ret) {
		/* what is there now (checkpoint_store_save() formats it so) */
		n->files.written = want;
		n->files.written_len = wlen;
	} else {
		free(want);
	}
	return ret;
}

int node_policy(struct node *n, struct cm_error *err)
{
	struct policy_config pc;
	int ret;

	if (n->policy_ready)
		return 0;
	node_config_policy(&n->cfg, &pc);
	/* reserved CPUs that went offline are no longer in the topology */
	cpuset_and(&pc.reserved_cpus, &pc.reserved_cpus, &n->kernel.topo->cpus);
	pc.num_reserved = (int)cpuset_count(&pc.reserved_cpus);
	if (pc.kind == CPU_POLICY_STATIC && !pc.num_reserved)
		return cm_errorf(err, "no reserved CPU is online");
	ret = cpu_policy_init(&n->policy, n->kernel.topo, &pc, err);
	if (ret)
		return ret;
	n->policy_ready = true;
	return 0;
}

int node_assign(struct node *n, const char *uid, const char *name,
		const char *cpus, uint32_t flags, const uint64_t *expect,
		uint64_t *gen)
{
	int ret = cpumgr_nl_assign(n->kernel.nl, uid, name, cpus, flags,
				   expect, gen, NULL);

	/*
	 * A module loaded before the flag was (a package upgraded under
	 * running containers keeps the old one until it can be reloaded)
	 * refuses the attribute: the ASSIGN unchecked, as it was then.
	 */
	if (ret == -EINVAL && (flags & CPUMGR_NL_ASSIGN_NARROWED) &&
	    strstr(cpumgr_nl_errmsg(n->kernel.nl), "Unknown attribute")) {
		node_log(n, "%s/%s: the loaded module cannot check that the others let go of its CPUs (reload it): assigned unchecked",
			 uid, name);
		ret = cpumgr_nl_assign(n->kernel.nl, uid, name, cpus,
				       flags & ~CPUMGR_NL_ASSIGN_NARROWED,
				       expect, gen, NULL);
	}
	/*
	 * Nor one loaded before the partition-pending flag, whose policy
	 * refuses the bit: a task joining the pool before the partition is
	 * refused, as it was then.
	 */
	if (ret == -EINVAL &&
	    (flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING) &&
	    strstr(cpumgr_nl_errmsg(n->kernel.nl), "reserved bit set")) {
		node_log(n, "%s/%s: the loaded module cannot hold the pool open until its partition is made (reload it): assigned without",
			 uid, name);
		ret = node_assign(n, uid, name, cpus,
				  flags & ~CPUMGR_ASSIGNMENT_F_PARTITION_PENDING,
				  expect, gen);
	}
	return ret;
}

/* The pod's pool left to the checkpoint, and why: the table stays. */
static int pool_to_checkpoint(struct node *n, const char *uid,
			      const char *why, const uint64_t *expect,
			      uint64_t *gen)
{
	node_log(n, "%s: %s is kept by the checkpoint alone", uid, why);
	if (gen && expect)
		*gen = *expect;
	return 0;
}

int node_assign_pool(struct node *n, const char *uid,
		     const struct cpuset *pool, const uint64_t *expect,
		     uint64_t *gen)
{
	char *text;
	int ret;

	/*
	 * Where partitions move the pool, the pool's rest stays in the
	 * shared cgroups, which a pool in the kernel would keep it out of:
	 * every partition made then is refused.
	 */
	if (n->cfg.pool_moves == NODE_POOL_PARTITIONS)
		return pool_to_checkpoint(n, uid,
					  "the pool moves by partitions: the pod's pool",
					  expect, gen);
	text = cpuset_to_str(pool);
	if (!text)
		return -ENOMEM;
	ret = cpumgr_nl_assign_pool(n->kernel.nl, uid, text, expect, gen);
	free(text);
	/*
	 * A module older than pod pools refuses the attribute: the pool is
	 * kept by the checkpoint alone, its containers' CPUs enforced.
	 */
	if (ret == -EINVAL &&
	    strstr(cpumgr_nl_errmsg(n->kernel.nl), "Unknown attribute"))
		return pool_to_checkpoint(n, uid,
					  "the loaded module does not hold pod pools (reload it): the pool",
					  expect, gen);
	return ret;
}

int node_set_pool(struct node *n, const char *uid, const struct cpuset *pool,
		  struct cm_error *err)
{
	const struct cpuset *have = assignments_get_pool(&n->assignments, uid);

	if (have && cpuset_equal(have, pool))
		return 0;
	if (assignments_set_pool(&n->files.pod_level, uid, pool))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	/* the kubelet's decision whatever the table's generation */
	if (node_assign_pool(n, uid, pool, NULL, NULL))
		return node_nl_error(n, "assign the pod pool", err);
	return node_refresh(n, err);
}
