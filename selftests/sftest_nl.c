// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sftest_nl.h"

struct cpumgr_nl *sft_nl_open(void)
{
	struct cpumgr_nl *nl;
	char *msg = NULL;
	int err;

	nl = cpumgr_nl_open(&err, &msg);
	if (!nl)
		fprintf(stderr, "# cpumgr_nl_open: %s: %s\n", strerror(-err),
			msg ? msg : "");
	free(msg);
	return nl;
}

/* A growing text. */
struct text {
	char *s;
	size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	char *line;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = (t->len + n + 1) * 2;
		char *s = realloc(t->s, cap);

		if (!s) {
			free(line);
			return;
		}
		t->s = s;
		t->cap = cap;
	}
	memcpy(t->s + t->len, line, n + 1);
	t->len += n;
	free(line);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in a directory but "." and "..", sorted; -1 if unreadable. */
static int list_dir(const char *path, char ***names)
{
	struct dirent *de;
	int n = 0, cap = 0;
	char **v = NULL;
	DIR *d;

	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nv;

			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_str);
	*names = v;
	return n;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void add_file(struct text *t, const char *label, const char *path)
{
	char *content = sft_read_file("%s", path);

	text_add(t, "%s: %s\n", label, content ? content : "(unreadable)");
	free(content);
}

static void add_pod(struct text *t, const char *uid)
{
	char path[1024], *cpus, *cgroup, *flags;
	char **names;
	int n;

	snprintf(path, sizeof(path), SFT_SYSFS "/pods/%s/pod_cgroup", uid);
	add_file(t, uid, path);
	snprintf(path, sizeof(path), SFT_SYSFS "/pods/%s/pod_cpus", uid);
	add_file(t, uid, path);
	snprintf(path, sizeof(path), SFT_SYSFS "/pods/%s", uid);
	n = list_dir(path, &names);
	for (int i = 0; i < n; i++) {
		/* the pod's own files; no DNS label has a '_' */
		if (!strcmp(names[i], "pod_cgroup") ||
		    !strcmp(names[i], "pod_cpus"))
			continue;
		cpus = sft_read_file("%s/%s/cpus", path, names[i]);
		cgroup = sft_read_file("%s/%s/cgroup", path, names[i]);
		flags = sft_read_file("%s/%s/flags", path, names[i]);
		text_add(t, "pods/%s/%s: cpus=%s cgroup=%s flags=%s\n", uid,
			 names[i], cpus ?: "?", cgroup ?: "?", flags ?: "?");
		free(cpus);
		free(cgroup);
		free(flags);
	}
	if (n >= 0)
		free_names(names, n);
}

char *sft_sysfs_text(void)
{
	static const char *const files[] = {
		"version", "policy", "options", "generation", "reserved_cpus",
		"shared_cpus", "exclusive_cpus", "enforce", "hotplug",
		"cgroup_root", "violations", "offlines_refused",
		"events_dropped",
	};
	struct text t = { NULL, 0, 0 };
	char path[256], **pods;
	int n;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), SFT_SYSFS "/%s", files[i]);
		add_file(&t, files[i], path);
	}
	n = list_dir(SFT_SYSFS "/pods", &pods);
	if (n < 0) {
		free(t.s);
		return NULL;
	}
	for (int i = 0; i < n; i++)
		add_pod(&t, pods[i]);
	free_names(pods, n);
	return t.s ? t.s : strdup("");
}

int sft_table_read(struct cpumgr_nl *nl, struct sft_table *t)
{
	int err;

	memset(t, 0, sizeof(*t));
	err = cpumgr_nl_get_table(nl, &t->st);
	if (err)
		return err;
	err = cpumgr_nl_list_assignments(nl, &t->a, &t->n);
	if (err) {
		cpumgr_table_free(&t->st);
		return err;
	}
	t->sysfs = sft_sysfs_text();
	if (!t->sysfs) {
		sft_table_free(t);
		return -EIO;
	}
	return 0;
}

void sft_table_free(struct sft_table *t)
{
	cpumgr_table_free(&t->st);
	cpumgr_assignments_free(t->a, t->n);
	free(t->sysfs);
	memset(t, 0, sizeof(*t));
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static bool assignment_eq(const struct cpumgr_assignment *a,
			  const struct cpumgr_assignment *b)
{
	return !strcmp(a->pod_uid, b->pod_uid) &&
	       !strcmp(a->container, b->container) &&
	       str_eq(a->cpus, b->cpus) && a->flags == b->flags &&
	       a->generation == b->generation &&
	       str_eq(a->cgroup_path, b->cgroup_path) &&
	       a->cgroup_id == b->cgroup_id &&
	       str_eq(a->pod_cgroup_path, b->pod_cgroup_path) &&
	       a->pod_cgroup_id == b->pod_cgroup_id;
}

const char *sft_table_diff(const struct sft_table *a, const struct sft_table *b)
{
	const struct cpumgr_table *x = &a->st, *y = &b->st;

	if (x->generation != y->generation)
		return "generation";
	if (x->policy != y->policy || x->options != y->options)
		return "policy or options";
	if (!str_eq(x->reserved_cpus, y->reserved_cpus) ||
	    !str_eq(x->shared_cpus, y->shared_cpus) ||
	    !str_eq(x->exclusive_cpus, y->exclusive_cpus) ||
	    !str_eq(x->online_cpus, y->online_cpus))
		return "CPU sets of GET_STATE";
	if (x->nr_pods != y->nr_pods || x->nr_assignments != y->nr_assignments)
		return "counts of GET_STATE";
	if (a->n != b->n)
		return "number of assignments in the dump";
	for (size_t i = 0; i < a->n; i++) {
		if (!assignment_eq(&a->a[i], &b->a[i]))
			return "an assignment of the dump";
	}
	if (!str_eq(a->sysfs, b->sysfs))
		return "sysfs";
	return NULL;
}

int sft_static(struct cpumgr_nl *nl)
{
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_POLICY | CPUMGR_CFG_OPTIONS |
		       CPUMGR_CFG_RESERVED,
		.policy = CPUMGR_POLICY_STATIC,
		.options = 0,
		.reserved_cpus = "",
	};

	return cpumgr_nl_configure(nl, &cfg, NULL, NULL);
}

int sft_online_cpus(bool *map)
{
	char *online = sft_read_file("/sys/devices/system/cpu/online");
	int n = 0;

	if (!online || !sft_parse_cpulist(online, map)) {
		free(online);
		return -1;
	}
	free(online);
	for (int cpu = 0; cpu < SFTEST_MAX_CPUS; cpu++)
		n += map[cpu];
	return n;
}

bool sft_cpus_read(struct sft_cpus *c, int need)
{
	bool online[SFTEST_MAX_CPUS];

	memset(c, 0, sizeof(*c));
	if (sft_online_cpus(online) < need)
		return false;
	for (int cpu = 0; cpu < SFTEST_MAX_CPUS; cpu++) {
		if (online[cpu])
			c->cpu[c->n++] = cpu;
	}
	for (int i = 0; i < SFT_NAMED_CPUS && i < c->n; i++)
		snprintf(c->name[i], sizeof(c->name[i]), "%d", c->cpu[i]);
	return true;
}

int sft_reset_close(struct cpumgr_nl *nl)
{
	int err;

	if (!nl)
		return 0;
	err = cpumgr_nl_reset(nl, NULL, NULL);
	cpumgr_nl_close(nl);
	return err;
}
