// SPDX-License-Identifier: GPL-2.0
/*
 * status: the node at a glance on an 80-column terminal.  The pools, a
 * table of the pods' containers, and a map of the machine (sockets, NUMA
 * nodes, cores, threads) with each CPU marked: reserved, shared, offline,
 * or the key of the container that owns it.  --json has the same facts
 * for scripts.  A caller without CAP_SYS_ADMIN gets the kernel's reduced
 * view: the pools and the map, exclusive CPUs marked X, no containers
 * (which are root's, as in the kernel).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ctl_status.h"

/* Container keys: letters, then digits; R and X mean other things. */
static const char keys[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQSTUVWYZ0123456789";

#define KEY_MORE	'+'
#define MARK_RESERVED	'R'
#define MARK_SHARED	'.'
#define MARK_OFFLINE	'-'
#define MARK_EXCLUSIVE	'X'	/* the reduced view: whose is root's */

/* One row of the pod table. */
struct row {
	const char *uid, *pod, *container, *qos, *cgroup;
	const struct cpumgr_assignment *a;
	/* the admission set a resize recorded, or NULL */
	const struct cpuset *admitted;
	char key;
};

struct view {
	struct row *rows;
	unsigned int nr;
};

static const char *short_cgroup(const struct node *n, const char *path)
{
	const char *root = n->cfg.cgroup_root;
	size_t rl = strlen(root);

	if (!path || !path[0])
		return "-";
	if (!strncmp(path, root, rl) && path[rl] == '/')
		return path + rl + 1;
	return path;
}

static int add_row(struct view *v, const struct row *r)
{
	struct row *nv = realloc(v->rows, (v->nr + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	v->rows = nv;
	v->rows[v->nr++] = *r;
	return 0;
}

/* Pods with records, then assignments no record explains. */
static int build(const struct node *n, struct view *v)
{
	unsigned int next = 0;

	memset(v, 0, sizeof(*v));
	if (n->kernel.table.restricted)
		return 0;
	for (unsigned int i = 0; i < n->nr_pods; i++) {
		const struct node_pod *p = &n->pods[i];

		for (unsigned int k = 0; k < p->pod.nr; k++) {
			struct row r = {
				.uid = p->pod.uid,
				.pod = p->pod.name && *p->pod.name ?
				       p->pod.name : p->pod.uid,
				.container = p->pod.containers[k].name,
				.qos = pod_qos_name(pod_qos(&p->pod)),
				.cgroup = p->c[k].removed ? "(removed)" :
					  p->c[k].exited ? "(exited)" :
					  short_cgroup(n, p->c[k].cgroup),
				.a = node_assignment(n, p->pod.uid,
						     p->pod.containers[k].name),
				.admitted = p->c[k].has_admitted ?
					    &p->c[k].admitted : NULL,
			};

			if (add_row(v, &r))
				return -ENOMEM;
		}
	}
	for (size_t i = 0; i < n->kernel.nr_as; i++) {
		const struct cpumgr_assignment *a = &n->kernel.as[i];
		const struct node_pod *p = NULL;
		struct row r = {
			.uid = a->pod_uid, .pod = a->pod_uid,
			.container = a->container, .qos = "-",
			.cgroup = short_cgroup(n, a->cgroup_path), .a = a,
		};

		for (unsigned int k = 0; k < n->nr_pods && !p; k++)
			if (!strcmp(n->pods[k].pod.uid, a->pod_uid) &&
			    node_pod_container(&n->pods[k], a->container) >= 0)
				p = &n->pods[k];
		if (!p && add_row(v, &r))
			return -ENOMEM;
	}
	for (unsigned int i = 0; i < v->nr; i++) {
		if (!v->rows[i].a)
			continue;
		v->rows[i].key = next < sizeof(keys) - 1 ? keys[next] :
							   KEY_MORE;
		next++;
	}
	return 0;
}

/* " admitted 2-3" when a resize moved the container off its admission set. */
static void resized(const struct row *r, char *flags, size_t len)
{
	struct cpuset now;
	char text[24];
	size_t at = strlen(flags);

	if (!r->admitted || !r->a || !r->a->cpus ||
	    cpuset_parse(&now, r->a->cpus, NULL) ||
	    cpuset_equal(&now, r->admitted))
		return;
	cpuset_format(r->admitted, text, sizeof(text));
	snprintf(flags + at, len - at, " admitted %s", text);
}

static void cpus_of(const struct cpumgr_assignment *a, struct cpuset *s)
{
	if (!a || !a->cpus || cpuset_parse(s, a->cpus, NULL))
		cpuset_zero(s);
}

/* The mark of one CPU: an app container wins over the init it reuses. */
static char mark(const struct node *n, const struct view *v,
		 const struct node_cpu *c)
{
	char key = 0;

	if (!c->online)
		return MARK_OFFLINE;
	for (unsigned int i = 0; i < v->nr; i++) {
		const struct row *r = &v->rows[i];
		struct cpuset s;

		cpus_of(r->a, &s);
		if (!cpuset_test(&s, (unsigned int)c->cpu))
			continue;
		if (!key || !(r->a->flags & CPUMGR_ASSIGNMENT_F_INIT))
			key = r->key;
	}
	if (key)
		return key;
	if (cpuset_test(&n->kernel.exclusive, (unsigned int)c->cpu))
		return MARK_EXCLUSIVE;
	if (cpuset_test(&n->kernel.reserved, (unsigned int)c->cpu))
		return MARK_RESERVED;
	return MARK_SHARED;
}

static void fit(char *buf, size_t w, const char *s)
{
	size_t len = strlen(s);

	if (len <= w) {
		snprintf(buf, w + 1, "%s", s);
		return;
	}
	/* keep the end: UIDs and paths differ there */
	snprintf(buf, w + 1, "~%s", s + len - (w - 1));
}

static void print_set(FILE *f, const char *label, const struct cpuset *s)
{
	char text[64];

	if (cpuset_format(s, text, sizeof(text)) >= sizeof(text))
		strcpy(text + sizeof(text) - 4, "...");
	fprintf(f, "%-10s%-40s %u CPU%s\n", label, text[0] ? text : "(none)",
		cpuset_count(s), ctl_plural(cpuset_count(s)));
}

static void print_head(FILE *f, const struct node *n)
{
	struct cpuset offline, known;
	uint32_t opts = n->kernel.table.options;

	fprintf(f, "policy    %s", cpumgr_policy_name(n->kernel.table.policy) ?: "?");
	if (opts) {
		const char *sep = " (";

		for (uint32_t b = 1; b & CPUMGR_OPT_ALL; b <<= 1) {
			if (!(opts & b))
				continue;
			fprintf(f, "%s%s", sep, cpumgr_option_name(b));
			sep = ", ";
		}
		fputc(')', f);
	}
	fputc('\n', f);
	fprintf(f, "modes     enforce %s, hotplug %s, generation %llu\n",
		cpumgr_enforce_name(n->kernel.table.enforce) ?: "?",
		cpumgr_hotplug_name(n->kernel.table.hotplug) ?: "?",
		(unsigned long long)n->kernel.table.generation);
	fprintf(f, "cgroups   %s\n", n->kernel.table.restricted ? "(root's)" :
		n->kernel.table.cgroup_root && n->kernel.table.cgroup_root[0] ?
		n->kernel.table.cgroup_root : "(every non-root cgroup)");
	/* KEP-5894's system partition, on the reserved CPUs */
	if (n->kernel.table.system_cgroup && n->kernel.table.system_cgroup[0])
		fprintf(f, "system    %s\n", n->kernel.table.system_cgroup);
	if (n->kernel.table.armed)
		fprintf(f, "guarantee armed, %llu calls missed by the probes\n",
			(unsigned long long)n->kernel.table.probes_missed);
	else
		fprintf(f, "guarantee NOT ARMED: %s\n",
			n->kernel.table.unarmed_reason ?: "?");
	cpuset_zero(&known);
	for (unsigned int i = 0; i < n->kernel.nr_cpus; i++)
		if (n->kernel.cpus[i].known)
			cpuset_set(&known, (unsigned int)n->kernel.cpus[i].cpu);
	cpuset_andnot(&offline, &known, &n->kernel.online);
	print_set(f, "reserved", &n->kernel.reserved);
	print_set(f, "shared", &n->kernel.shared);
	print_set(f, "exclusive", &n->kernel.exclusive);
	print_set(f, "offline", &offline);
}

/* " pod pool 2-5" for a container of a pod with a pool (KEP-5526). */
static void pool_of(const struct row *r, char *flags, size_t len)
{
	size_t at = strlen(flags);
	char text[24];

	if (!r->a->pod_cpus)
		return;
	fit(text, sizeof(text) - 1, r->a->pod_cpus);
	snprintf(flags + at, len - at, " pod pool %s", text);
}

/* A table row's columns before CGROUP: KEY, POD, CONTAINER, QOS, CPUS */
#define ROW_LEAD (4 + 19 + 15 + 12 + 12)

static void print_table(FILE *f, const struct node *n, const struct view *v,
			unsigned int width)
{
	char pod[19], ctr[15], cpus[12], cg[81], flags[64];
	unsigned int cgw = width > ROW_LEAD + 2 ? width - ROW_LEAD - 2 : 8;

	if (n->kernel.table.restricted) {
		fputs("\npods and containers: root's (CAP_SYS_ADMIN)\n", f);
		return;
	}
	if (!v->nr) {
		fputs("\nno pods admitted\n", f);
		return;
	}
	fprintf(f, "\n%-3s %-18s %-14s %-11s %-11s %s\n", "KEY", "POD",
		"CONTAINER", "QOS", "CPUS", "CGROUP");
	for (unsigned int i = 0; i < v->nr; i++) {
		const struct row *r = &v->rows[i];

		flags[0] = '\0';
		fit(pod, 18, r->pod);
		fit(ctr, 14, r->container);
		if (r->a) {
			fit(cpus, 11, r->a->cpus ? r->a->cpus : "");
			if (r->a->flags & CPUMGR_ASSIGNMENT_F_DEGRADED)
				strcpy(flags, " degraded");
			if (r->a->flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING)
				strcat(flags, " partition-pending");
			resized(r, flags, sizeof(flags));
			pool_of(r, flags, sizeof(flags));
		} else {
			strcpy(cpus, "shared");
		}
		fit(cg, cgw < 80 ? cgw : 80, r->cgroup);
		fprintf(f, "%-3c %-18s %-14s %-11s %-11s %s",
			r->a ? r->key : '-', pod, ctr, r->qos, cpus, cg);
		/* what does not fit the row goes below it, under POD */
		if (ROW_LEAD + strlen(cg) + strlen(flags) > width)
			fprintf(f, "\n   %s\n", flags);
		else
			fprintf(f, "%s\n", flags);
	}
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct node_cpu *x = *(const struct node_cpu *const *)a;
	const struct node_cpu *y = *(const struct node_cpu *const *)b;
	int cx = x->core_cpu, cy = y->core_cpu;

	if (x->package != y->package)
		return x->package - y->package;
	if (x->numa != y->numa)
		return x->numa - y->numa;
	if (cx != cy)
		return cx - cy;
	return x->cpu - y->cpu;
}

static int digits(int v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/* One NUMA node of one socket: its cores in rows that fit the width. */
static void print_node(FILE *f, const struct node *n, const struct view *v,
		       const struct node_cpu **c, unsigned int nr,
		       unsigned int width, int w)
{
	unsigned int i = 0;

	while (i < nr) {
		char ids[512] = "", marks[512] = "";
		size_t used = 0, li = 0, lm = 0;

		/* whole cores per line */
		while (i < nr) {
			int core = c[i]->core_cpu;
			unsigned int j = i, cw;

			while (j < nr && c[j]->core_cpu == core)
				j++;
			cw = (j - i) * (unsigned int)(w + 1) + 2;
			if (used && 8 + used + cw > width)
				break;
			if (li + cw + 8 > sizeof(ids))
				break;
			for (; i < j; i++) {
				li += (size_t)sprintf(ids + li, " %*d", w,
						      c[i]->cpu);
				lm += (size_t)sprintf(marks + lm, " %*c", w,
						      mark(n, v, c[i]));
			}
			li += (size_t)sprintf(ids + li, " |");
			lm += (size_t)sprintf(marks + lm, " |");
			used += cw;
		}
		if (li >= 2) {
			ids[li - 2] = '\0';
			marks[lm - 2] = '\0';
		}
		fprintf(f, "    cpu %s\n        %s\n", ids, marks);
	}
}

int ctl_status_map(FILE *f, const struct node *n, unsigned int width)
{
	const struct node_cpu **c = calloc(n->kernel.nr_cpus ? n->kernel.nr_cpus : 1,
					   sizeof(*c));
	unsigned int nr = 0, unknown = 0;
	struct view v;
	int w = 1;

	if (!c || build(n, &v)) {
		free(c);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < n->kernel.nr_cpus; i++) {
		if (!n->kernel.cpus[i].known) {
			unknown++;
			continue;
		}
		c[nr++] = &n->kernel.cpus[i];
		if (digits(n->kernel.cpus[i].cpu) > w)
			w = digits(n->kernel.cpus[i].cpu);
	}
	qsort(c, nr, sizeof(*c), cmp_cpu);
	for (unsigned int i = 0; i < nr;) {
		unsigned int j = i;

		if (!i || c[i]->package != c[i - 1]->package)
			fprintf(f, "socket %d\n", c[i]->package);
		while (j < nr && c[j]->package == c[i]->package &&
		       c[j]->numa == c[i]->numa)
			j++;
		fprintf(f, "  numa node %d (llc %d)\n", c[i]->numa, c[i]->llc);
		print_node(f, n, &v, c + i, j - i, width, w);
		i = j;
	}
	if (unknown)
		fprintf(f, "%u CPU%s never online since the module loaded\n",
			unknown, ctl_plural(unknown));
	if (n->kernel.table.restricted)
		fprintf(f, "key: %c reserved  %c shared  %c offline  %c exclusive (whose: root's)\n",
			MARK_RESERVED, MARK_SHARED, MARK_OFFLINE,
			MARK_EXCLUSIVE);
	else
		fprintf(f, "key: %c reserved  %c shared  %c offline  other: the container of that KEY\n",
			MARK_RESERVED, MARK_SHARED, MARK_OFFLINE);
	free(v.rows);
	free(c);
	return 0;
}

int ctl_status_print(FILE *f, const struct node *n,
		     const struct ctl_status_opts *o)
{
	unsigned int width = o && o->width ? o->width : 80;
	struct view v;

	if (build(n, &v))
		return -ENOMEM;
	print_head(f, n);
	print_table(f, n, &v, width);
	free(v.rows);
	fputc('\n', f);
	return ctl_status_map(f, n, width);
}

/* ---- JSON ---- */

static bool add_set(cJSON *o, const char *k, const struct cpuset *s)
{
	char *t = cpuset_to_str(s);
	bool ok = t && cJSON_AddStringToObject(o, k, t);

	free(t);
	return ok;
}

static cJSON *row_json(const struct row *r)
{
	cJSON *j = cJSON_CreateObject();
	bool ok = j && cJSON_AddStringToObject(j, "podUID", r->uid) &&
		  cJSON_AddStringToObject(j, "podName", r->pod) &&
		  cJSON_AddStringToObject(j, "container", r->container) &&
		  cJSON_AddStringToObject(j, "qos", r->qos) &&
		  cJSON_AddStringToObject(j, "cgroupPath", r->cgroup) &&
		  cJSON_AddBoolToObject(j, "exclusive", r->a != NULL);

	if (ok && r->a) {
		char key[2] = { r->key, 0 };

		ok = cJSON_AddStringToObject(j, "cpus",
					     r->a->cpus ? r->a->cpus : "") &&
		     cJSON_AddStringToObject(j, "key", key) &&
		     cJSON_AddBoolToObject(j, "init", r->a->flags &
					   CPUMGR_ASSIGNMENT_F_INIT) &&
		     cJSON_AddBoolToObject(j, "degraded", r->a->flags &
					   CPUMGR_ASSIGNMENT_F_DEGRADED) &&
		     cJSON_AddBoolToObject(j, "partitionPending", r->a->flags &
					   CPUMGR_ASSIGNMENT_F_PARTITION_PENDING) &&
		     (r->admitted ? add_set(j, "admittedCpus", r->admitted) :
		      cJSON_AddStringToObject(j, "admittedCpus",
					      r->a->cpus ? r->a->cpus : "") != NULL) &&
		     (!r->a->pod_cpus ||
		      cJSON_AddStringToObject(j, "podCpus", r->a->pod_cpus));
	}
	if (!ok) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

static cJSON *cpu_json(const struct node *n, const struct view *v,
		       const struct node_cpu *c)
{
	cJSON *j = cJSON_CreateObject();
	char m = c->known ? mark(n, v, c) : MARK_OFFLINE;
	const char *owner = m == MARK_OFFLINE ? "offline" :
			    m == MARK_RESERVED ? "reserved" :
			    m == MARK_SHARED ? "shared" : "exclusive";
	bool ok = j && cJSON_AddNumberToObject(j, "cpu", c->cpu) &&
		  cJSON_AddBoolToObject(j, "online", c->online) &&
		  cJSON_AddStringToObject(j, "pool", owner);

	if (ok && c->known)
		ok = cJSON_AddNumberToObject(j, "socket", c->package) &&
		     cJSON_AddNumberToObject(j, "numa", c->numa) &&
		     cJSON_AddNumberToObject(j, "core", c->core_cpu) &&
		     cJSON_AddNumberToObject(j, "uncore", c->llc);
	if (ok && !strcmp(owner, "exclusive") && m != MARK_EXCLUSIVE) {
		char key[2] = { m, 0 };

		ok = cJSON_AddStringToObject(j, "key", key) != NULL;
	}
	if (!ok) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

cJSON *ctl_status_json(const struct node *n)
{
	cJSON *j = cJSON_CreateObject(), *opts, *rows, *cpus;
	struct view v;
	bool ok;

	if (!j || build(n, &v)) {
		cJSON_Delete(j);
		return NULL;
	}
	ok = cJSON_AddStringToObject(j, "policy",
				     cpumgr_policy_name(n->kernel.table.policy) ?: "") &&
	     (opts = cJSON_AddArrayToObject(j, "options")) &&
	     cJSON_AddStringToObject(j, "enforce",
				     cpumgr_enforce_name(n->kernel.table.enforce) ?: "") &&
	     cJSON_AddStringToObject(j, "hotplug",
				     cpumgr_hotplug_name(n->kernel.table.hotplug) ?: "") &&
	     cJSON_AddBoolToObject(j, "restricted", n->kernel.table.restricted) &&
	     /* absent in the reduced view: "" would mean every cgroup */
	     (n->kernel.table.restricted ||
	      cJSON_AddStringToObject(j, "cgroupRoot", n->kernel.table.cgroup_root ?
				      n->kernel.table.cgroup_root : "")) &&
	     (n->kernel.table.restricted ||
	      cJSON_AddStringToObject(j, "systemCgroup", n->kernel.table.system_cgroup ?
				      n->kernel.table.system_cgroup : "")) &&
	     cJSON_AddNumberToObject(j, "generation",
				     (double)n->kernel.table.generation) &&
	     cJSON_AddBoolToObject(j, "armed", n->kernel.table.armed) &&
	     (n->kernel.table.armed ||
	      cJSON_AddStringToObject(j, "unarmedReason",
				      n->kernel.table.unarmed_reason ?: "")) &&
	     cJSON_AddNumberToObject(j, "probesMissed",
				     (double)n->kernel.table.probes_missed) &&
	     add_set(j, "reservedCpus", &n->kernel.reserved) &&
	     add_set(j, "sharedCpus", &n->kernel.shared) &&
	     add_set(j, "exclusiveCpus", &n->kernel.exclusive) &&
	     add_set(j, "onlineCpus", &n->kernel.online) &&
	     (rows = cJSON_AddArrayToObject(j, "containers")) &&
	     (cpus = cJSON_AddArrayToObject(j, "cpus"));
	for (uint32_t b = 1; ok && (b & CPUMGR_OPT_ALL); b <<= 1)
		if (n->kernel.table.options & b)
			ok = cJSON_AddItemToArray(opts, cJSON_CreateString(
					cpumgr_option_name(b)));
	for (unsigned int i = 0; ok && i < v.nr; i++)
		ok = cJSON_AddItemToArray(rows, row_json(&v.rows[i]));
	for (unsigned int i = 0; ok && i < n->kernel.nr_cpus; i++)
		ok = cJSON_AddItemToArray(cpus, cpu_json(n, &v,
							 &n->kernel.cpus[i]));
	free(v.rows);
	if (!ok) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}
