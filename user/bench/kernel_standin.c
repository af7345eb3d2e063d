// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the cpumgr module behind libcpumgr's API, linked instead
 * of the netlink client into bench/cpumgrctl-standin: whole cpumgrctl
 * processes on machines this host is not (4096 CPUs), without a kernel.
 * It keeps what the controller reads back and the kernel's admission
 * rules the controller depends on (the generation, a CPU exclusive to one
 * container and never reserved) and the shared pool as the module
 * reports it (the reserved CPUs in it but under strict-cpu-reservation),
 * not enforcement: no cgroup is refused.
 *
 *   CPUMGR_STANDIN=FILE       its table, kept between processes
 *   CPUMGR_STANDIN_TOPOLOGY   "SOCKETS NUMA_PER_SOCKET CORES_PER_NUMA
 *                             THREADS"; CPU i is thread i / cores of core
 *                             i % cores, as bench_plan lays requests out;
 *                             read at each call, so a test can change the
 *                             machine under a process
 *   CPUMGR_STANDIN_GRANTS=1   every ASSIGN checked as the kernel checks
 *                             one with CPUMGR_A_NARROWED, whether it has
 *                             it or not: for the tests that a controller
 *                             narrows before it gives CPUs (grant_held())
 *   CPUMGR_STANDIN_NO_NARROWED=1  a module that predates CPUMGR_A_NARROWED:
 *                             an ASSIGN with it refused as the kernel's
 *                             strict policy refuses an unknown attribute
 *   CPUMGR_STANDIN_NO_PENDING=1  a module that predates the partition-
 *                             pending flag: an ASSIGN with it refused as
 *                             the kernel's policy mask refuses the bit
 *   CPUMGR_STANDIN_ASSIGNS=FILE  every ASSIGN taken appended to FILE,
 *                             "UID CONTAINER CPUS FLAGS": the order of a
 *                             controller's calls, for its tests
 *
 * Every call reads the file's first line again, as every request sees
 * the kernel's table as it is now, whatever other processes did; the
 * rest only when the generation moved (every change moves it), since
 * the kernel keeps its table in memory and a stand-in that parses
 * every entry on every call would be measuring itself.  The file is
 * text: "generation G policy P options O enforce E hotplug H",
 * "reserved CPUS", "root PATH", then one "a UID CONTAINER CPUS FLAGS
 * [CGROUP POD_CGROUP]" line an assignment, "-" for a cgroup not bound (as
 * the kernel, the stand-in keeps the bindings: a controller that finds
 * them missing binds again), and one "p UID CPUS" line a pod's pool.
 *
 * It sends no event: a subscription (the daemon's) gets a pipe nothing
 * writes to, so that `daemon --once` runs its round on the stand-in.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpumgr_nl.h"
#include "cpuset.h"

/* a CPU list of the stand-in's machines, however fragmented */
#define STANDIN_CPUS_MAX	8192

struct standin_entry {
	char uid[CPUMGR_POD_UID_MAX + 1];
	char container[CPUMGR_CONTAINER_MAX + 1];
	char cpus[STANDIN_CPUS_MAX];
	uint32_t flags;
	char cgroup[PATH_MAX], pod_cgroup[PATH_MAX];	/* "" not bound */
};

/* a pod's pool (KEP-5526): it lives while the pod has an entry */
struct standin_pool {
	char uid[CPUMGR_POD_UID_MAX + 1];
	char cpus[STANDIN_CPUS_MAX];
};

struct cpumgr_nl {
	char path[4096];
	int sockets, numa_per_socket, cores_per_numa, threads;
	uint64_t generation;
	bool loaded;		/* the entries are those of generation */
	uint32_t policy, options, enforce, hotplug;
	char reserved[STANDIN_CPUS_MAX], root[4096];
	char system[4096];	/* KEP-5894's system cgroup, "": none */
	struct standin_entry *e;
	size_t nr, cap;		/* cap doubles: every call reads them all */
	struct standin_pool *pools;
	size_t nr_pools;	/* room for as many as entries (grow()) */
	struct cpumgr_nl_error error;
	int events[2];		/* the subscription's pipe, -1 none */
};

static int cpus_total(const struct cpumgr_nl *nl)
{
	return nl->sockets * nl->numa_per_socket * nl->cores_per_numa *
	       nl->threads;
}

/* The machine as CPUMGR_STANDIN_TOPOLOGY says now; false if it is bad. */
static bool read_machine(struct cpumgr_nl *nl)
{
	const char *topo = getenv("CPUMGR_STANDIN_TOPOLOGY");

	return topo &&
	       sscanf(topo, "%d %d %d %d", &nl->sockets, &nl->numa_per_socket,
		      &nl->cores_per_numa, &nl->threads) == 4 &&
	       cpus_total(nl) > 0 && cpus_total(nl) <= CPUSET_MAX_CPUS;
}

static int fail(struct cpumgr_nl *nl, int err, const char *msg)
{
	memset(&nl->error, 0, sizeof(nl->error));
	nl->error.err = err;
	nl->error.msg = msg;
	nl->error.entry = -1;
	return err;
}

static int load(struct cpumgr_nl *nl);

/* The table as the file holds it now; -errno with the error set. */
static int fresh(struct cpumgr_nl *nl)
{
	int ret = load(nl);

	return ret ? fail(nl, ret, "cannot read the stand-in's table") : 0;
}

/* Room for one more entry. */
static int grow(struct cpumgr_nl *nl)
{
	size_t cap = nl->cap ? 2 * nl->cap : 64;
	void *v;

	if (nl->nr < nl->cap)
		return 0;
	v = realloc(nl->e, cap * sizeof(*nl->e));
	if (!v)
		return -ENOMEM;
	nl->e = v;
	v = realloc(nl->pools, cap * sizeof(*nl->pools));
	if (!v)
		return -ENOMEM;
	nl->pools = v;
	nl->cap = cap;
	return 0;
}

/* The pod's pool, NULL if it has none. */
static struct standin_pool *pool_of(struct cpumgr_nl *nl, const char *uid)
{
	for (size_t i = 0; i < nl->nr_pools; i++)
		if (!strcmp(nl->pools[i].uid, uid))
			return &nl->pools[i];
	return NULL;
}

/* As the kernel: a pool goes with its pod's last entry. */
static void drop_orphan_pools(struct cpumgr_nl *nl)
{
	size_t k = 0;

	for (size_t i = 0; i < nl->nr_pools; i++) {
		bool held = false;

		for (size_t j = 0; j < nl->nr && !held; j++)
			held = !strcmp(nl->e[j].uid, nl->pools[i].uid);
		if (held)
			nl->pools[k++] = nl->pools[i];
	}
	nl->nr_pools = k;
}

/* "-" in the file for a cgroup not bound */
static void put_path(char *dst, const char *src)
{
	snprintf(dst, PATH_MAX, "%s", strcmp(src, "-") ? src : "");
}

static int load(struct cpumgr_nl *nl)
{
	FILE *f = fopen(nl->path, "re");
	char line[STANDIN_CPUS_MAX + 2 * PATH_MAX + 512];
	uint64_t generation;

	if (!f) {
		nl->nr = 0;
		nl->nr_pools = 0;
		nl->loaded = false;
		return errno == ENOENT ? 0 : -errno;
	}
	/* the first line: the table as this process last read it? */
	if (nl->loaded && fgets(line, sizeof(line), f) &&
	    sscanf(line, "generation %lu ", &generation) == 1 &&
	    generation == nl->generation) {
		fclose(f);
		return 0;
	}
	rewind(f);
	nl->nr = 0;
	nl->nr_pools = 0;
	while (fgets(line, sizeof(line), f)) {
		struct standin_entry x;
		char cg[PATH_MAX], pod_cg[PATH_MAX];
		int got;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "generation %lu policy %u options %u enforce %u hotplug %u",
			   &nl->generation, &nl->policy, &nl->options,
			   &nl->enforce, &nl->hotplug) == 5)
			continue;
		if (!strncmp(line, "reserved ", 9)) {
			snprintf(nl->reserved, sizeof(nl->reserved), "%.*s",
				 (int)sizeof(nl->reserved) - 1, line + 9);
		} else if (!strncmp(line, "root ", 5)) {
			snprintf(nl->root, sizeof(nl->root), "%.*s",
				 (int)sizeof(nl->root) - 1, line + 5);
		} else if (!strncmp(line, "system ", 7)) {
			snprintf(nl->system, sizeof(nl->system), "%.*s",
				 (int)sizeof(nl->system) - 1, line + 7);
		} else if ((got = sscanf(line, "a %64s %63s %8191s %u %4095s %4095s",
					 x.uid, x.container, x.cpus, &x.flags,
					 cg, pod_cg)) == 4 || got == 6) {
			if (got == 4)
				strcpy(cg, "-"), strcpy(pod_cg, "-");
			if (grow(nl)) {
				fclose(f);
				return -ENOMEM;
			}
			put_path(x.cgroup, cg);
			put_path(x.pod_cgroup, pod_cg);
			nl->e[nl->nr++] = x;
		} else if (!strncmp(line, "p ", 2) && nl->nr_pools < nl->nr) {
			struct standin_pool *p = &nl->pools[nl->nr_pools];

			/* a pool line follows its pod's entries */
			if (sscanf(line, "p %64s %8191s", p->uid, p->cpus) == 2)
				nl->nr_pools++;
		}
	}
	fclose(f);
	nl->loaded = true;
	return 0;
}

static int save(struct cpumgr_nl *nl)
{
	FILE *f = fopen(nl->path, "we");

	if (!f)
		return -errno;
	fprintf(f, "generation %lu policy %u options %u enforce %u hotplug %u\n"
		"reserved %s\nroot %s\n", nl->generation, nl->policy,
		nl->options, nl->enforce, nl->hotplug, nl->reserved, nl->root);
	if (nl->system[0])
		fprintf(f, "system %s\n", nl->system);
	for (size_t i = 0; i < nl->nr; i++) {
		const struct standin_entry *e = &nl->e[i];

		fprintf(f, "a %s %s %s %u", e->uid, e->container, e->cpus,
			e->flags);
		/* bindings only when there are: unbound, the lines as before */
		if (e->cgroup[0] || e->pod_cgroup[0])
			fprintf(f, " %s %s", e->cgroup[0] ? e->cgroup : "-",
				e->pod_cgroup[0] ? e->pod_cgroup : "-");
		fputc('\n', f);
	}
	for (size_t i = 0; i < nl->nr_pools; i++)
		fprintf(f, "p %s %s\n", nl->pools[i].uid, nl->pools[i].cpus);
	return fclose(f) ? -errno : 0;
}

/* A change: the expected generation, then the new one. */
static int change(struct cpumgr_nl *nl, const uint64_t *expect,
		  uint64_t *generation)
{
	int ret;

	if (expect && *expect != nl->generation)
		return fail(nl, -ESTALE, "the table changed");
	nl->generation++;
	ret = save(nl);
	if (ret)
		return fail(nl, ret, "cannot write the stand-in's table");
	if (generation)
		*generation = nl->generation;
	return 0;
}

struct cpumgr_nl *cpumgr_nl_open(int *err, char **msg)
{
	const char *path = getenv("CPUMGR_STANDIN");
	struct cpumgr_nl *nl = calloc(1, sizeof(*nl));
	int ret = -ENOENT;

	if (nl) {
		nl->error.msg = "";
		nl->events[0] = nl->events[1] = -1;
	}
	if (msg)
		*msg = NULL;
	if (nl && path && read_machine(nl)) {
		snprintf(nl->path, sizeof(nl->path), "%s", path);
		ret = load(nl);
		if (!ret)
			return nl;
	}
	if (msg)
		*msg = strdup("no stand-in kernel: set CPUMGR_STANDIN and CPUMGR_STANDIN_TOPOLOGY");
	cpumgr_nl_close(nl);
	*err = ret;
	return NULL;
}

void cpumgr_nl_close(struct cpumgr_nl *nl)
{
	if (nl) {
		free(nl->e);
		free(nl->pools);
		for (int i = 0; i < 2; i++)
			if (nl->events[i] >= 0)
				close(nl->events[i]);
	}
	free(nl);
}

const struct cpumgr_nl_error *cpumgr_nl_last_error(const struct cpumgr_nl *nl)
{
	return &nl->error;
}

const char *cpumgr_nl_errmsg(const struct cpumgr_nl *nl)
{
	return nl->error.msg ? nl->error.msg : "";
}

int cpumgr_nl_family_id(const struct cpumgr_nl *nl)
{
	return 0;
}

/* The CPUs held but by entry skip and by pod uid (NULL: none). */
static void exclusive_set(const struct cpumgr_nl *nl, struct cpuset *out,
			  size_t skip, const char *uid)
{
	cpuset_zero(out);
	for (size_t i = 0; i < nl->nr; i++) {
		struct cpuset s;

		if (i != skip && (!uid || strcmp(nl->e[i].uid, uid)) &&
		    !cpuset_parse(&s, nl->e[i].cpus, NULL))
			cpuset_or(out, out, &s);
	}
	for (size_t i = 0; i < nl->nr_pools; i++) {
		struct cpuset s;

		if ((!uid || strcmp(nl->pools[i].uid, uid)) &&
		    !cpuset_parse(&s, nl->pools[i].cpus, NULL))
			cpuset_or(out, out, &s);
	}
}

int cpumgr_nl_get_table(struct cpumgr_nl *nl, struct cpumgr_table *st)
{
	struct cpuset all, reserved, excl, shared;

	if (fresh(nl))
		return nl->error.err;
	memset(st, 0, sizeof(*st));
	cpuset_zero(&all);
	for (int c = 0; c < cpus_total(nl); c++)
		cpuset_set(&all, c);
	if (cpuset_parse(&reserved, nl->reserved, NULL))
		cpuset_zero(&reserved);
	exclusive_set(nl, &excl, (size_t)-1, NULL);
	/* as the module's view: reserved CPUs are shared but under strict */
	cpuset_andnot(&shared, &all, &excl);
	if (nl->options & CPUMGR_OPT_STRICT_CPU_RESERVATION)
		cpuset_andnot(&shared, &shared, &reserved);
	st->version = strdup("stand-in");
	st->generation = nl->generation;
	st->policy = nl->policy;
	st->options = nl->options;
	st->reserved_cpus = strdup(nl->reserved);
	st->shared_cpus = cpuset_to_str(&shared);
	st->exclusive_cpus = cpuset_to_str(&excl);
	st->online_cpus = cpuset_to_str(&all);
	st->nr_assignments = (uint32_t)nl->nr;
	for (size_t i = 0; i < nl->nr; i++)
		st->nr_pods += !i || strcmp(nl->e[i].uid, nl->e[i - 1].uid);
	st->enforce = nl->enforce;
	st->hotplug = nl->hotplug;
	st->cgroup_root = nl->root[0] ? strdup(nl->root) : NULL;
	st->system_cgroup = nl->system[0] ? strdup(nl->system) : NULL;
	st->armed = true;
	return 0;
}

/* The same CPUs in two cpulists (the kernel compares masks). */
static bool same_cpus(const char *a, const char *b)
{
	struct cpuset x, y;

	return !cpuset_parse(&x, a, NULL) && !cpuset_parse(&y, b, NULL) &&
	       cpuset_equal(&x, &y);
}

int cpumgr_nl_configure(struct cpumgr_nl *nl, const struct cpumgr_config *cfg,
			const uint64_t *expect, uint64_t *generation)
{
	if (fresh(nl))
		return nl->error.err;
	/* the kernel's rule: the table's meaning stays while it has entries */
	if (nl->nr &&
	    (((cfg->set & CPUMGR_CFG_POLICY) && cfg->policy != nl->policy) ||
	     ((cfg->set & CPUMGR_CFG_OPTIONS) && cfg->options != nl->options) ||
	     ((cfg->set & CPUMGR_CFG_RESERVED) &&
	      !same_cpus(cfg->reserved_cpus, nl->reserved))))
		return fail(nl, -ENOTEMPTY,
			    "policy, options and reserved CPUs cannot change while assignments exist: RESET first");
	if (cfg->set & CPUMGR_CFG_POLICY)
		nl->policy = cfg->policy;
	if (cfg->set & CPUMGR_CFG_OPTIONS)
		nl->options = cfg->options;
	if (cfg->set & CPUMGR_CFG_RESERVED)
		snprintf(nl->reserved, sizeof(nl->reserved), "%s",
			 cfg->reserved_cpus);
	if (cfg->set & CPUMGR_CFG_ENFORCE)
		nl->enforce = cfg->enforce;
	if (cfg->set & CPUMGR_CFG_HOTPLUG)
		nl->hotplug = cfg->hotplug;
	if (cfg->set & CPUMGR_CFG_CGROUP_ROOT)
		snprintf(nl->root, sizeof(nl->root), "%s", cfg->cgroup_root);
	if (cfg->set & CPUMGR_CFG_SYSTEM_CGROUP)
		snprintf(nl->system, sizeof(nl->system), "%s",
			 cfg->system_cgroup);
	return change(nl, expect, generation);
}

static ssize_t find(const struct cpumgr_nl *nl, const char *uid,
		    const char *container)
{
	for (size_t i = 0; i < nl->nr; i++)
		if (!strcmp(nl->e[i].uid, uid) &&
		    (!container || !strcmp(nl->e[i].container, container)))
			return (ssize_t)i;
	return -1;
}

static void fill(struct cpumgr_nl *nl, const struct standin_entry *e,
		 struct cpumgr_assignment *a)
{
	const struct standin_pool *pool = pool_of(nl, e->uid);

	memset(a, 0, sizeof(*a));
	if (pool)
		a->pod_cpus = strdup(pool->cpus);
	snprintf(a->pod_uid, sizeof(a->pod_uid), "%s", e->uid);
	snprintf(a->container, sizeof(a->container), "%s", e->container);
	a->cpus = strdup(e->cpus);
	a->flags = e->flags;
	a->generation = nl->generation;
	/* a bound cgroup has its path and a non-zero id */
	if (e->cgroup[0]) {
		a->cgroup_path = strdup(e->cgroup);
		a->cgroup_id = 1;
	}
	if (e->pod_cgroup[0]) {
		a->pod_cgroup_path = strdup(e->pod_cgroup);
		a->pod_cgroup_id = 1;
	}
}

/* PATH is DIR or below it. */
static bool at_or_below(const char *path, const char *dir)
{
	size_t dl = strlen(dir);

	return dir[0] && !strncmp(path, dir, dl) &&
	       (path[dl] == '\0' || path[dl] == '/');
}

/* What grant_held()'s walk looks for, and what it found. */
static struct {
	const struct standin_entry *x;
	const char *root;
	struct cpuset added;
	char found[PATH_MAX];
} grant;

/* What DIR/cpuset.cpus names; empty when it names nothing or is not there. */
static void named_cpus(const char *dir, struct cpuset *named)
{
	char file[PATH_MAX + 16];
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	cpuset_zero(named);
	snprintf(file, sizeof(file), "%s/cpuset.cpus", dir);
	f = fopen(file, "r");
	if (!f)
		return;
	if (getline(&text, &len, f) <= 0 || cpuset_parse(named, text, NULL))
		cpuset_zero(named);
	free(text);
	fclose(f);
}

/*
 * What a cgroup at path holds, as cgroup2 gives it: what it names, else
 * what the nearest ancestor below the root that names CPUs does, else
 * every CPU.
 */
static void held_cpus(const char *path, struct cpuset *eff)
{
	char dir[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	for (;;) {
		named_cpus(dir, eff);
		if (!cpuset_empty(eff))
			return;
		slash = strrchr(dir, '/');
		if (!slash || !at_or_below(dir, grant.root) ||
		    !strcmp(dir, grant.root))
			break;
		*slash = '\0';
	}
	for (unsigned int cpu = 0; cpu < CPUSET_MAX_CPUS; cpu++)
		cpuset_set(eff, cpu);
}

static int grant_visit(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	struct cpuset named, eff;

	if (type != FTW_D || !strcmp(path, grant.root) ||
	    at_or_below(grant.x->cgroup, path) ||
	    at_or_below(grant.x->pod_cgroup, path) ||
	    at_or_below(path, grant.x->cgroup))
		return 0;
	/* a new cgroup of a pod the table has the cgroup of: the pod's */
	named_cpus(path, &named);
	if (cpuset_empty(&named) && at_or_below(path, grant.x->pod_cgroup))
		return 0;
	held_cpus(path, &eff);
	if (!cpuset_intersects(&eff, &grant.added))
		return 0;
	snprintf(grant.found, sizeof(grant.found), "%s", path);
	return 1;
}

/*
 * Under CPUMGR_STANDIN_GRANTS, the kernel's check of a narrowed ASSIGN
 * (cpumgr_check_grant.c) on the cgroup tree below the managed root,
 * where every cgroup counts as having tasks: the CPUs x gains (held: it
 * holds now) may be held only at or above its cgroup or its pod's, below
 * its own, or by a cgroup below its pod's naming none.  Whether another
 * cgroup holds one.
 */
static bool grant_held(const struct cpumgr_nl *nl, const struct standin_entry *x,
		       const struct cpuset *want, const struct cpuset *held)
{
	const char *on = getenv("CPUMGR_STANDIN_GRANTS");

	if (!on || strcmp(on, "1") || !nl->root[0])
		return false;
	grant.x = x;
	grant.root = nl->root;
	grant.added = *want;
	cpuset_andnot(&grant.added, &grant.added, held);
	grant.found[0] = '\0';
	return !cpuset_empty(&grant.added) &&
	       nftw(nl->root, grant_visit, 16, FTW_PHYS) == 1;
}

static void assign_log(const struct standin_entry *x)
{
	const char *path = getenv("CPUMGR_STANDIN_ASSIGNS");
	FILE *f = path && *path ? fopen(path, "a") : NULL;

	if (!f)
		return;
	fprintf(f, "%s %s %s %u\n", x->uid, x->container, x->cpus, x->flags);
	fclose(f);
}

int cpumgr_nl_assign(struct cpumgr_nl *nl, const char *pod_uid,
		     const char *container, const char *cpus, uint32_t flags,
		     const uint64_t *expect, uint64_t *generation,
		     struct cpumgr_assignment *out)
{
	const char *old = getenv("CPUMGR_STANDIN_NO_NARROWED");
	static char refused[PATH_MAX + 64];
	struct cpuset want, taken, reserved, held;
	struct standin_entry x = { 0 };
	ssize_t i, pod;
	int ret;

	if (fresh(nl))
		return nl->error.err;
	if ((flags & CPUMGR_NL_ASSIGN_NARROWED) && old && !strcmp(old, "1"))
		return fail(nl, -EINVAL, "Unknown attribute type");
	old = getenv("CPUMGR_STANDIN_NO_PENDING");
	if ((flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING) && old &&
	    !strcmp(old, "1"))
		return fail(nl, -EINVAL, "reserved bit set");
	/* what the kernel would check against cgroups: not a flag it keeps */
	flags &= ~CPUMGR_NL_ASSIGN_NARROWED;
	i = find(nl, pod_uid, container);
	if (cpuset_parse(&want, cpus, NULL) || cpuset_empty(&want))
		return fail(nl, -EINVAL, "bad CPU list");
	/* as the kernel: containers of one pod may share (init reuse) */
	exclusive_set(nl, &taken, i < 0 ? (size_t)-1 : (size_t)i, pod_uid);
	if (!cpuset_parse(&reserved, nl->reserved, NULL))
		cpuset_or(&taken, &taken, &reserved);
	if (cpuset_intersects(&want, &taken))
		return fail(nl, -EBUSY, "CPUs held by another container or reserved");
	snprintf(x.uid, sizeof(x.uid), "%s", pod_uid);
	snprintf(x.container, sizeof(x.container), "%s", container);
	snprintf(x.cpus, sizeof(x.cpus), "%s", cpus);
	x.flags = flags;
	/* the pod's binding is the pod's, the container's stays its own */
	if (i >= 0)
		strcpy(x.cgroup, nl->e[i].cgroup);
	pod = find(nl, pod_uid, NULL);
	if (pod >= 0)
		strcpy(x.pod_cgroup, nl->e[pod].pod_cgroup);
	cpuset_zero(&held);
	if (i >= 0 && cpuset_parse(&held, nl->e[i].cpus, NULL))
		cpuset_zero(&held);
	/* the ASSIGN that clears a pending partition: all of them */
	if (i >= 0 && (nl->e[i].flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING) &&
	    !(flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING))
		cpuset_zero(&held);
	if (grant_held(nl, &x, &want, &held)) {
		snprintf(refused, sizeof(refused),
			 "CPU still held by a cgroup with tasks: %s", grant.found);
		return fail(nl, -EBUSY, refused);
	}
	if (i < 0) {
		if (grow(nl))
			return fail(nl, -ENOMEM, "out of memory");
		i = (ssize_t)nl->nr++;
	}
	nl->e[i] = x;
	ret = change(nl, expect, generation);
	if (!ret)
		assign_log(&x);
	if (!ret && out)
		fill(nl, &nl->e[i], out);
	return ret;
}

int cpumgr_nl_release(struct cpumgr_nl *nl, const char *pod_uid,
		      const char *container, const uint64_t *expect,
		      uint64_t *generation)
{
	size_t k = 0;

	if (fresh(nl))
		return nl->error.err;
	for (size_t i = 0; i < nl->nr; i++)
		if (strcmp(nl->e[i].uid, pod_uid) ||
		    (container && strcmp(nl->e[i].container, container)))
			nl->e[k++] = nl->e[i];
	if (k == nl->nr)
		return fail(nl, -ENOENT, "no such assignment");
	nl->nr = k;
	drop_orphan_pools(nl);
	return change(nl, expect, generation);
}

int cpumgr_nl_assign_pool(struct cpumgr_nl *nl, const char *pod_uid,
			  const char *cpus, const uint64_t *expect,
			  uint64_t *generation)
{
	struct cpuset want, held, s, taken;
	struct standin_pool *p;

	if (fresh(nl))
		return nl->error.err;
	if (find(nl, pod_uid, NULL) < 0)
		return fail(nl, -ENOENT, "no such pod: a pool is set after its containers");
	if (cpuset_parse(&want, cpus, NULL))
		return fail(nl, -EINVAL, "bad CPU list");
	cpuset_zero(&held);
	for (size_t i = 0; i < nl->nr; i++)
		if (!strcmp(nl->e[i].uid, pod_uid) &&
		    !cpuset_parse(&s, nl->e[i].cpus, NULL))
			cpuset_or(&held, &held, &s);
	if (!cpuset_empty(&want) && !cpuset_subset(&held, &want))
		return fail(nl, -EINVAL, "a pod pool holds its containers' CPUs");
	exclusive_set(nl, &taken, (size_t)-1, pod_uid);
	if (!cpuset_parse(&s, nl->reserved, NULL))
		cpuset_or(&taken, &taken, &s);
	if (cpuset_intersects(&want, &taken))
		return fail(nl, -EBUSY, "CPUs held by another pod or reserved");
	p = pool_of(nl, pod_uid);
	if (cpuset_empty(&want)) {
		if (p)
			*p = nl->pools[--nl->nr_pools];
	} else {
		if (!p)
			p = &nl->pools[nl->nr_pools++];
		snprintf(p->uid, sizeof(p->uid), "%s", pod_uid);
		snprintf(p->cpus, sizeof(p->cpus), "%s", cpus);
	}
	return change(nl, expect, generation);
}

int cpumgr_nl_bind(struct cpumgr_nl *nl, const char *pod_uid,
		   const char *container, const char *cgroup_path,
		   const char *pod_cgroup_path, const uint64_t *expect,
		   uint64_t *generation)
{
	ssize_t i;

	if (fresh(nl))
		return nl->error.err;
	i = find(nl, pod_uid, container);
	if (i < 0)
		return fail(nl, -ENOENT, "no such assignment");
	if (container && cgroup_path)
		snprintf(nl->e[i].cgroup, sizeof(nl->e[i].cgroup), "%s",
			 cgroup_path);
	for (size_t k = 0; pod_cgroup_path && k < nl->nr; k++)
		if (!strcmp(nl->e[k].uid, pod_uid))
			snprintf(nl->e[k].pod_cgroup,
				 sizeof(nl->e[k].pod_cgroup), "%s",
				 pod_cgroup_path);
	return change(nl, expect, generation);
}

int cpumgr_nl_get_assignment(struct cpumgr_nl *nl, const char *pod_uid,
			     const char *container,
			     struct cpumgr_assignment *out)
{
	ssize_t i;

	if (fresh(nl))
		return nl->error.err;
	i = find(nl, pod_uid, container);
	if (i < 0)
		return fail(nl, -ENOENT, "no such assignment");
	fill(nl, &nl->e[i], out);
	return 0;
}

int cpumgr_nl_list_assignments(struct cpumgr_nl *nl,
			       struct cpumgr_assignment **list, size_t *count)
{
	*list = NULL;
	*count = 0;
	if (fresh(nl))
		return nl->error.err;
	*list = calloc(nl->nr ? nl->nr : 1, sizeof(**list));
	if (!*list)
		return fail(nl, -ENOMEM, "out of memory");
	for (size_t i = 0; i < nl->nr; i++)
		fill(nl, &nl->e[i], &(*list)[i]);
	*count = nl->nr;
	return (int)nl->nr;
}

int cpumgr_nl_dump_assignments(struct cpumgr_nl *nl, cpumgr_assignment_cb cb,
			       void *arg)
{
	if (fresh(nl))
		return nl->error.err;
	for (size_t i = 0; i < nl->nr; i++) {
		struct cpumgr_assignment a;
		int ret;

		fill(nl, &nl->e[i], &a);
		ret = cb(&a, arg);
		cpumgr_assignment_free(&a);
		if (ret)
			return ret;
	}
	return (int)nl->nr;
}

/* "n" in decimal at p; returns the end (the stand-in's own cost is not
 * what is measured: no printf per CPU) */
static char *put_uint(char *p, unsigned int n)
{
	char tmp[12];
	int k = 0;

	do {
		tmp[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (k)
		*p++ = tmp[--k];
	return p;
}

int cpumgr_nl_dump_topology(struct cpumgr_nl *nl, cpumgr_cpu_cb cb, void *arg)
{
	char sib[16 * 12];
	int cores;

	if (!read_machine(nl))
		return fail(nl, -EINVAL, "bad CPUMGR_STANDIN_TOPOLOGY");
	cores = nl->sockets * nl->numa_per_socket * nl->cores_per_numa;

	for (int id = 0; id < cpus_total(nl); id++) {
		int core = id % cores, numa = core / nl->cores_per_numa;
		struct cpumgr_cpu c = {
			.id = (uint32_t)id, .known = true, .online = true,
			.package = (uint32_t)(numa / nl->numa_per_socket),
			.core = (uint32_t)core, .numa = (uint32_t)numa,
			.llc = (uint32_t)(core / 16), .siblings = sib,
		};
		char *p = sib;
		int ret;

		/* the core's threads, ascending: a cpulist */
		for (int t = 0; t < nl->threads && t < 16; t++) {
			if (t)
				*p++ = ',';
			p = put_uint(p, (unsigned int)(core + t * cores));
		}
		*p = '\0';
		ret = cb(&c, arg);
		if (ret)
			return ret;
	}
	return cpus_total(nl);
}

int cpumgr_nl_restore(struct cpumgr_nl *nl,
		      const struct cpumgr_restore_entry *entries, size_t count,
		      const uint64_t *expect, uint64_t *generation)
{
	void *v;

	if (fresh(nl))
		return nl->error.err;
	if (count > nl->cap) {
		v = realloc(nl->e, count * sizeof(*nl->e));
		if (!v)
			return fail(nl, -ENOMEM, "out of memory");
		nl->e = v;
		v = realloc(nl->pools, count * sizeof(*nl->pools));
		if (!v)
			return fail(nl, -ENOMEM, "out of memory");
		nl->pools = v;
		nl->cap = count;
	}
	for (size_t i = 0; i < count; i++) {
		memset(&nl->e[i], 0, sizeof(nl->e[i]));
		snprintf(nl->e[i].uid, sizeof(nl->e[i].uid), "%s",
			 entries[i].pod_uid);
		snprintf(nl->e[i].container, sizeof(nl->e[i].container), "%s",
			 entries[i].container);
		snprintf(nl->e[i].cpus, sizeof(nl->e[i].cpus), "%s",
			 entries[i].cpus);
		nl->e[i].flags = entries[i].flags;
	}
	nl->nr = count;
	nl->nr_pools = 0;
	return change(nl, expect, generation);
}

int cpumgr_nl_reset(struct cpumgr_nl *nl, const uint64_t *expect,
		    uint64_t *generation)
{
	if (fresh(nl))
		return nl->error.err;
	nl->nr = 0;
	nl->nr_pools = 0;
	nl->policy = 0;
	nl->reserved[0] = nl->root[0] = nl->system[0] = '\0';
	return change(nl, expect, generation);
}

int cpumgr_nl_subscribe(struct cpumgr_nl *nl)
{
	if (nl->events[0] < 0 && pipe2(nl->events, O_CLOEXEC | O_NONBLOCK))
		return fail(nl, -errno, "the stand-in's event pipe");
	return 0;
}

int cpumgr_nl_event_fd(const struct cpumgr_nl *nl)
{
	return nl->events[0] >= 0 ? nl->events[0] : -EOPNOTSUPP;
}

int cpumgr_nl_recv_event(struct cpumgr_nl *nl, struct cpumgr_event *ev,
			 int timeout_ms)
{
	return nl->events[0] >= 0 ? -EAGAIN :
	       fail(nl, -EOPNOTSUPP, "not subscribed");
}
