// SPDX-License-Identifier: GPL-2.0
/* Creating and removing cgroups. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroupfs.h"

/* The hierarchies to change: one on v2, cpuset and cpu on v1. */
static int nr_hier(const struct cgroupfs *cg)
{
	return cg->version == 1 ? CGROUPFS_NR_CTRL : 1;
}

static bool has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	while (*s) {
		size_t len;

		s += strspn(s, " \t\n+");
		len = strcspn(s, " \t\n");
		if (len == n && !strncmp(s, word, n))
			return true;
		s += len;
	}
	return false;
}

/* v2: make the children of parent get the cpuset and cpu controllers. */
static int enable_controllers(const struct cgroupfs *cg, const char *parent,
			      struct cm_error *err)
{
	char *s = NULL;
	bool cpuset, cpu;
	int ret = cgroupfs_read(cg, CGROUPFS_CPUSET, parent, "cgroup.subtree_control", &s,
				err);

	if (ret)
		return ret;
	cpuset = s && has_word(s, "cpuset");
	cpu = s && has_word(s, "cpu");
	free(s);
	if (cpuset && cpu)
		return 0;
	/*
	 * Both are threaded controllers: the kernel enables them even in a
	 * cgroup that has processes of its own.
	 */
	return cgroupfs_write(cg, CGROUPFS_CPUSET, parent, "cgroup.subtree_control",
			      !cpuset && !cpu ? "+cpuset +cpu" :
			      !cpuset ? "+cpuset" : "+cpu", err);
}

static int remove_dir(const struct cgroupfs *cg, const char *path,
		      struct cm_error *err)
{
	int e;

	if (!cg->ops->remove_dir(path) || errno == ENOENT)
		return 0;
	e = errno;
	if (e == EBUSY || e == ENOTEMPTY)
		cm_errorf(err, "rmdir %s: %s (it has processes or child cgroups)",
			  path, strerror(e));
	else
		cm_errorf(err, "rmdir %s: %s", path, strerror(e));
	return -e;
}

/* The first depth components of name (normalized, below PATH_MAX). */
static void prefix(const char *name, int depth, char *out)
{
	const char *p = name;
	int i = 0;

	if (depth)
		for (; *p; p++)
			if (*p == '/' && ++i == depth)
				break;
	memcpy(out, name, (size_t)(p - name));
	out[p - name] = '\0';
}

static int count_components(const char *name)
{
	int n = *name ? 1 : 0;

	for (; *name; name++)
		n += *name == '/';
	return n;
}

/* A copy of the parent's value of file (v1: as runc fills new cpusets). */
static int copy_parent(const struct cgroupfs *cg, const char *name,
		       const char *parent, const char *file,
		       struct cm_error *err)
{
	char *s;
	int ret = cgroupfs_read(cg, CGROUPFS_CPUSET, parent, file, &s, err);

	if (ret)
		return ret;
	s[strcspn(s, "\n")] = '\0';
	ret = cgroupfs_write(cg, CGROUPFS_CPUSET, name, file, s, err);
	free(s);
	return ret;
}

/* A new cgroup's own settings, before it is used. */
static int init_new(const struct cgroupfs *cg, enum cgroupfs_ctrl h,
		    const char *name, const char *parent,
		    const struct cpuset *cpus, struct cm_error *err)
{
	int ret;

	if (h != CGROUPFS_CPUSET)
		return 0;
	if (cg->version == 1) {
		ret = copy_parent(cg, name, parent, "cpuset.mems", err);
		if (!ret && !cpus)
			ret = copy_parent(cg, name, parent, "cpuset.cpus",
					  err);
		if (ret || !cpus)
			return ret;
	}
	return cpus ? cgroupfs_set_cpus(cg, name, cpus, err) : 0;
}

/* Undo what cgroupfs_create() made: the directories from depth first down. */
static void roll_back(const struct cgroupfs *cg, const char *name,
		      const int *first, int depth, struct cm_error *err)
{
	char sub[PATH_MAX], path[PATH_MAX];
	struct cm_error e2 = { 0 };

	for (int h = 0; h < nr_hier(cg); h++) {
		if (first[h] < 0)
			continue;
		for (int d = depth; d >= first[h]; d--) {
			prefix(name, d, sub);
			if (cgroupfs_path(cg, h, sub, NULL, path, sizeof(path),
					  NULL) ||
			    !remove_dir(cg, path, &e2))
				continue;
			cm_error_undoing(err, &e2);
			return;
		}
	}
}

int cgroupfs_create(const struct cgroupfs *cg, const char *name,
		    const struct cpuset *cpus, struct cm_error *err)
{
	char norm[PATH_MAX], sub[PATH_MAX], parent[PATH_MAX], path[PATH_MAX];
	int first[CGROUPFS_NR_CTRL] = { -1, -1 };
	int ret, depth, d;

	ret = cgroupfs_name_normalize(name, norm, sizeof(norm), err);
	if (ret)
		return ret;
	depth = count_components(norm);
	for (d = 1; d <= depth; d++) {
		prefix(norm, d, sub);
		prefix(norm, d - 1, parent);
		for (int h = 0; h < nr_hier(cg); h++) {
			if (cg->version == 2) {
				ret = enable_controllers(cg, parent, err);
				if (ret)
					goto fail;
			}
			ret = cgroupfs_path(cg, h, sub, NULL, path,
					    sizeof(path), err);
			if (ret)
				goto fail;
			if (mkdir(path, 0755)) {
				if (errno == EEXIST)
					continue;
				ret = -errno;
				cm_errorf(err, "mkdir %s: %s", path,
					  strerror(-ret));
				goto fail;
			}
			if (first[h] < 0)
				first[h] = d;
			ret = init_new(cg, h, sub, parent, cpus, err);
			if (ret)
				goto fail;
		}
	}
	return 0;
fail:
	roll_back(cg, norm, first, d, err);
	return ret;
}

int cgroupfs_remove(const struct cgroupfs *cg, const char *name,
		    struct cm_error *err)
{
	char norm[PATH_MAX], path[PATH_MAX], done[PATH_MAX];
	int ret = cgroupfs_name_normalize(name, norm, sizeof(norm), err);

	if (ret)
		return ret;
	if (!*norm)
		return cm_errorf(err, "the root cgroup cannot be removed");
	for (int h = 0; h < nr_hier(cg); h++) {
		ret = cgroupfs_path(cg, h, norm, NULL, path, sizeof(path), err);
		if (!ret)
			ret = remove_dir(cg, path, err);
		if (ret && h) {
			cgroupfs_path(cg, 0, norm, NULL, done, sizeof(done),
				      NULL);
			cm_error_prefix(err, "removed %s but not its cpu cgroup",
					done);
		}
		if (ret)
			return ret;
	}
	return 0;
}
