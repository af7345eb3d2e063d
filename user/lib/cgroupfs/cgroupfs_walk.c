// SPDX-License-Identifier: GPL-2.0
/*
 * Walk a cpuset hierarchy reading every cgroup's effective CPUs: what
 * `cpumgrctl audit` checks, since a cgroup that inherits its CPUs was
 * never written and so never seen by the kernel's write hook.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroupfs.h"

struct walk {
	const struct cgroupfs *cg;
	cgroupfs_walk_fn fn;
	void *arg;
	struct cm_error *err;
	char name[PATH_MAX];		/* the cgroup being visited */
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The child directories of path, sorted; -errno (-ENOENT: it is gone). */
static int children(const char *path, char ***out, size_t *nr)
{
	DIR *d = opendir(path);
	struct dirent *de;
	size_t n = 0, cap = 0;
	char **v = NULL;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type != DT_DIR &&
		    (de->d_type != DT_UNKNOWN ||
		     fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		     !S_ISDIR(st.st_mode)))
			continue;
		if (n == cap) {
			char **nv = realloc(v,
					    (cap ? 2 * cap : 8) * sizeof(*v));

			if (!nv)
				goto oom;
			v = nv;
			cap = cap ? 2 * cap : 8;
		}
		v[n] = strdup(de->d_name);
		if (!v[n])
			goto oom;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*out = v;
	*nr = n;
	return 0;
oom:
	closedir(d);
	free_names(v, n);
	return -ENOMEM;
}

/*
 * The effective CPUs of the walk's start when it has no file of its own:
 * the nearest ancestor's.
 */
static int ancestor_effective(struct walk *w, struct cpuset *eff)
{
	char name[PATH_MAX];

	strcpy(name, w->name);
	while (*name) {
		char *slash = strrchr(name, '/');
		int ret;

		if (slash)
			*slash = '\0';
		else
			*name = '\0';
		ret = cgroupfs_get_effective_cpus(w->cg, name, eff, w->err);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

/* Per level, on the heap: cgroup trees can be deep. */
struct level {
	struct cpuset eff;
	char path[PATH_MAX];
};

static int visit(struct walk *w, unsigned int depth,
		 const struct cpuset *parent_eff)
{
	struct cgroupfs_walk_entry e = { .name = w->name, .depth = depth };
	struct level *l = malloc(sizeof(*l));
	struct cpuset *eff;
	char **kids = NULL, *path;
	size_t nr = 0, len = strlen(w->name);
	int ret;

	if (!l)
		return cm_errorf(w->err, "out of memory"), -ENOMEM;
	eff = &l->eff;
	path = l->path;
	ret = cgroupfs_path(w->cg, CGROUPFS_CPUSET, w->name, NULL, path,
			    PATH_MAX, w->err);
	if (ret)
		goto out;
	ret = cgroupfs_get_effective_cpus(w->cg, w->name, eff, w->err);
	/* a cgroup being removed answers ENODEV: gone too */
	if (ret == -ENODEV && depth) {
		ret = 0;
		goto out;
	}
	if (ret == -ENOENT) {
		struct stat st;

		if (stat(path, &st)) {
			/* removed under us; the start must exist, though */
			ret = 0;
			if (!depth) {
				cm_errorf(w->err, "%s: %s", path,
					  strerror(ENOENT));
				ret = -ENOENT;
			}
			goto out;
		}
		/* no cpuset controller here: the parent's CPUs apply */
		e.inherited = true;
		if (parent_eff) {
			*eff = *parent_eff;
			ret = 0;
		} else {
			ret = ancestor_effective(w, eff);
		}
	}
	if (ret)
		goto out;
	e.path = path;
	e.effective = eff;
	ret = w->fn(&e, w->arg);
	if (ret)
		goto out;
	ret = children(path, &kids, &nr);
	if (ret == -ENOENT && depth) {
		ret = 0;
		goto out;
	}
	if (ret) {
		cm_errorf(w->err, "%s: %s", path, strerror(-ret));
		goto out;
	}
	for (size_t i = 0; i < nr && !ret; i++) {
		int n = snprintf(w->name + len, sizeof(w->name) - len, "%s%s",
				 len ? "/" : "", kids[i]);

		if (n < 0 || (size_t)n >= sizeof(w->name) - len) {
			cm_errorf(w->err, "%s/%s: %s", path, kids[i],
				  strerror(ENAMETOOLONG));
			ret = -ENAMETOOLONG;
			break;
		}
		ret = visit(w, depth + 1, eff);
		w->name[len] = '\0';
	}
out:
	free_names(kids, nr);
	free(l);
	return ret;
}

int cgroupfs_walk(const struct cgroupfs *cg, const char *name,
		  cgroupfs_walk_fn fn, void *arg, struct cm_error *err)
{
	struct walk *w = malloc(sizeof(*w));
	int ret;

	if (!w)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	w->cg = cg;
	w->fn = fn;
	w->arg = arg;
	w->err = err;
	ret = cgroupfs_name_normalize(name, w->name, sizeof(w->name), err);
	if (!ret)
		ret = visit(w, 0, NULL);
	free(w);
	return ret;
}
