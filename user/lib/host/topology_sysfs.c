// SPDX-License-Identifier: GPL-2.0
/*
 * Topology from a sysfs-shaped tree, laid out as the kernel lays out
 * /sys/devices/system/{cpu,node}.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topology_sysfs.h"

/* snprintf into a PATH_MAX buffer; a path that does not fit is an error. */
static int __attribute__((format(printf, 2, 3)))
path_fmt(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* Read a small sysfs file; returns 0, -ENOENT or another -errno. */
static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

static int read_int(const char *path, int *out, struct cm_error *err)
{
	char buf[64], *end;
	long v;
	int ret = read_text(path, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || (*end && strcmp(end, "\n")) || errno ||
	    v < 0 || v >= CPUSET_MAX_CPUS)
		return cm_errorf(err, "%s: not a valid id: \"%s\"", path, buf);
	*out = (int)v;
	return 0;
}

/* cpuN directories that have a topology/ directory */
static int list_cpus(const char *cpudir, struct cpuset *out,
		     struct cm_error *err)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(cpudir);

	if (!d)
		return cm_errorf(err, "%s: %s", cpudir, strerror(errno));
	cpuset_zero(out);
	while ((de = readdir(d))) {
		char *end;
		long n;

		if (strncmp(de->d_name, "cpu", 3))
			continue;
		n = strtol(de->d_name + 3, &end, 10);
		if (end == de->d_name + 3 || *end || n < 0 ||
		    n >= CPUSET_MAX_CPUS)
			continue;
		path_fmt(path, "%s/%s/topology", cpudir,
			 de->d_name);
		if (!access(path, F_OK))
			cpuset_set(out, (unsigned int)n);
	}
	closedir(d);
	return 0;
}

/* NUMA node of every CPU from nodeN/cpulist; CPUs not listed stay -1. */
static int read_nodes(const char *nodedir, int *node_of,
		      struct cm_error *err)
{
	char path[PATH_MAX], buf[65536];
	struct dirent *de;
	DIR *d = opendir(nodedir);

	if (!d)
		return errno == ENOENT ? 0 :
		       cm_errorf(err, "%s: %s", nodedir, strerror(errno));
	while ((de = readdir(d))) {
		struct cpuset cpus;
		char *end;
		long n;
		int cpu;

		if (strncmp(de->d_name, "node", 4))
			continue;
		n = strtol(de->d_name + 4, &end, 10);
		if (end == de->d_name + 4 || *end || n < 0 ||
		    n >= CPUSET_MAX_CPUS)
			continue;
		path_fmt(path, "%s/%s/cpulist", nodedir,
			 de->d_name);
		if (read_text(path, buf, sizeof(buf)))
			continue;
		if (cpuset_parse(&cpus, buf, err)) {
			cm_error_prefix(err, "%s", path);
			closedir(d);
			return -EINVAL;
		}
		cpuset_for_each(cpu, &cpus)
			node_of[cpu] = (int)n;
	}
	closedir(d);
	return 0;
}

static int read_cpu(const char *cpudir, int cpu, struct topo_cpu_info *ci,
		    bool *has_l3, struct cm_error *err)
{
	char path[PATH_MAX];
	int ret;

	ci->cpu = cpu;
	path_fmt(path, "%s/cpu%d/topology/core_id", cpudir, cpu);
	ret = read_int(path, &ci->core, err);
	if (!ret) {
		path_fmt(path, "%s/cpu%d/topology/physical_package_id",
			 cpudir, cpu);
		ret = read_int(path, &ci->socket, err);
	}
	if (ret == -EINVAL)
		return ret;
	if (ret)
		return cm_errorf(err, "%s: %s", path, strerror(-ret));
	path_fmt(path, "%s/cpu%d/cache/index3/id", cpudir, cpu);
	ret = read_int(path, &ci->uncore, err);
	if (ret == -EINVAL)
		return ret;
	*has_l3 = !ret;
	if (ret)
		ci->uncore = 0;
	return 0;
}

static int cmp_core_key(const void *a, const void *b)
{
	const struct topo_cpu_info *x = a, *y = b;

	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/*
 * Physical core id: the lowest CPU sharing (package, core_id).  Sorting
 * by that key puts each core's lowest CPU first.
 */
static void unique_core_ids(struct topo_cpu_info *c, unsigned int n)
{
	unsigned int i, j;

	qsort(c, n, sizeof(*c), cmp_core_key);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n; j++)
			if (c[j].socket != c[i].socket ||
			    c[j].core != c[i].core)
				break;
		for (unsigned int k = i + 1; k < j; k++)
			c[k].core = c[i].cpu;
		c[i].core = c[i].cpu;
	}
}

struct topology *topology_load_sysfs(const char *dir, struct cm_error *err)
{
	char cpudir[PATH_MAX], path[PATH_MAX], buf[65536];
	struct topo_cpu_info *c = NULL;
	struct topology *t = NULL;
	unsigned int n = 0, nr_l3 = 0;
	struct cpuset cpus, online;
	int *node_of = NULL, cpu;

	if (path_fmt(cpudir, "%s/devices/system/cpu", dir)) {
		cm_errorf(err, "%s: path too long", dir);
		return NULL;
	}
	if (list_cpus(cpudir, &cpus, err))
		return NULL;
	path_fmt(path, "%s/online", cpudir);
	if (!read_text(path, buf, sizeof(buf))) {
		if (cpuset_parse(&online, buf, err)) {
			cm_error_prefix(err, "%s", path);
			return NULL;
		}
		cpuset_and(&cpus, &cpus, &online);
	}
	if (cpuset_empty(&cpus)) {
		cm_errorf(err, "%s: no CPU with a topology directory", cpudir);
		return NULL;
	}
	c = calloc(cpuset_count(&cpus), sizeof(*c));
	node_of = malloc(CPUSET_MAX_CPUS * sizeof(*node_of));
	if (!c || !node_of) {
		cm_errorf(err, "out of memory");
		goto out;
	}
	for (int i = 0; i < CPUSET_MAX_CPUS; i++)
		node_of[i] = -1;
	path_fmt(path, "%s/devices/system/node", dir);
	if (read_nodes(path, node_of, err))
		goto out;
	cpuset_for_each(cpu, &cpus) {
		bool has_l3 = false;

		if (read_cpu(cpudir, cpu, &c[n], &has_l3, err))
			goto out;
		c[n].numa = node_of[cpu] < 0 ? 0 : node_of[cpu];
		nr_l3 += has_l3;
		n++;
	}
	if (nr_l3 && nr_l3 != n) {
		cm_errorf(err, "%s: only %u of %u CPUs have cache/index3/id",
			  cpudir, nr_l3, n);
		goto out;
	}
	unique_core_ids(c, n);
	t = topology_new(c, n, err);
out:
	free(c);
	free(node_of);
	return t;
}
