// SPDX-License-Identifier: GPL-2.0
/* A cgroup's CPUs and processes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroupfs.h"

static const char *effective_cpus_file(const struct cgroupfs *cg)
{
	return cg->version == 1 ? "cpuset.effective_cpus" :
				  "cpuset.cpus.effective";
}

static const char *effective_mems_file(const struct cgroupfs *cg)
{
	return cg->version == 1 ? "cpuset.effective_mems" :
				  "cpuset.mems.effective";
}

static int read_cpus(const struct cgroupfs *cg, const char *name,
		     const char *file, struct cpuset *out, struct cm_error *err)
{
	char *s;
	int ret = cgroupfs_read(cg, CGROUPFS_CPUSET, name, file, &s, err);

	if (ret)
		return ret;
	ret = cpuset_parse(out, s, err);
	free(s);
	if (ret) {
		char path[PATH_MAX];

		cgroupfs_path(cg, CGROUPFS_CPUSET, name, file, path,
			      sizeof(path), NULL);
		cm_error_prefix(err, "%s", path);
	}
	return ret;
}

int cgroupfs_get_cpus(const struct cgroupfs *cg, const char *name,
		      struct cpuset *out, struct cm_error *err)
{
	return read_cpus(cg, name, "cpuset.cpus", out, err);
}

int cgroupfs_get_effective_cpus(const struct cgroupfs *cg, const char *name,
				struct cpuset *out, struct cm_error *err)
{
	return read_cpus(cg, name, effective_cpus_file(cg), out, err);
}

static bool blank(const char *s)
{
	return !s[strspn(s, " \t\n")];
}

/* v1: a cpuset with empty mems takes no task; give it the parent's. */
static int fill_mems(const struct cgroupfs *cg, const char *name,
		     struct cm_error *err)
{
	char norm[PATH_MAX], *mems, *slash;
	int ret = cgroupfs_name_normalize(name, norm, sizeof(norm), err);

	if (ret || !*norm)
		return ret;
	ret = cgroupfs_read(cg, CGROUPFS_CPUSET, norm, "cpuset.mems", &mems, err);
	if (ret)
		return ret;
	if (!blank(mems)) {
		free(mems);
		return 0;
	}
	free(mems);
	/* norm becomes the parent's name */
	slash = strrchr(norm, '/');
	if (slash)
		*slash = '\0';
	else
		*norm = '\0';
	ret = cgroupfs_read(cg, CGROUPFS_CPUSET, norm, effective_mems_file(cg),
			    &mems, err);
	if (ret)
		return ret;
	mems[strcspn(mems, "\n")] = '\0';
	ret = cgroupfs_write(cg, CGROUPFS_CPUSET, name, "cpuset.mems", mems, err);
	free(mems);
	return ret;
}

static int write_cpus(const struct cgroupfs *cg, const char *name,
		      const struct cpuset *cpus, struct cm_error *err)
{
	char *s;
	int ret;

	/* mems first: if that fails, the CPUs have not changed */
	if (cg->version == 1) {
		ret = fill_mems(cg, name, err);
		if (ret)
			return ret;
	}
	s = cpuset_to_str(cpus);
	if (!s)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = cgroupfs_write(cg, CGROUPFS_CPUSET, name, "cpuset.cpus", s, err);
	free(s);
	return ret;
}

/* The unit systemd realizes cgroup name as, when it does (units set). */
static bool unit_of(const struct cgroupfs *cg, const char *name, char *unit)
{
	return cg->units && cg->version == 2 &&
	       cgroupfs_unit_of(name, unit, CGROUPFS_UNIT_MAX);
}

/* AllowedCPUs=cpus; a unit systemd does not know is none of its. */
static int set_unit(const struct cgroupfs *cg, const char *name,
		    const char *unit, const struct cpuset *cpus,
		    struct cm_error *err)
{
	int ret = cg->units->set_cpus(cg->units, unit, cpus, err);

	if (ret == -ENOENT) {
		cm_error_clear(err);
		return 0;
	}
	if (ret)
		cm_error_prefix(err, "cgroup %s: cpuset.cpus written, but not the AllowedCPUs of %s",
				name, unit);
	return ret;
}

int cgroupfs_set_cpus(const struct cgroupfs *cg, const char *name,
		      const struct cpuset *cpus, struct cm_error *err)
{
	char unit[CGROUPFS_UNIT_MAX];
	int ret = write_cpus(cg, name, cpus, err);

	if (!ret && unit_of(cg, name, unit))
		ret = set_unit(cg, name, unit, cpus, err);
	return ret;
}

int cgroupfs_ensure_cpus(const struct cgroupfs *cg, const char *name,
			 const struct cpuset *cpus, bool *changed,
			 struct cm_error *err)
{
	char unit[CGROUPFS_UNIT_MAX];
	struct cpuset have;
	int ret = cgroupfs_get_cpus(cg, name, &have, err);

	*changed = false;
	if (ret && ret != -ENOENT)
		return ret;
	cm_error_clear(err);
	if (ret || !cpuset_equal(&have, cpus)) {
		ret = write_cpus(cg, name, cpus, err);
		if (ret)
			return ret;
		*changed = true;
	}
	if (!unit_of(cg, name, unit))
		return 0;
	ret = cg->units->get_cpus(cg->units, unit, &have, err);
	if (ret == -ENOENT) {
		cm_error_clear(err);
		return 0;
	}
	if (ret)
		return ret;
	if (cpuset_equal(&have, cpus))
		return 0;
	ret = set_unit(cg, name, unit, cpus, err);
	*changed = !ret;
	return ret;
}

int cgroupfs_move(const struct cgroupfs *cg, const char *name, pid_t pid,
		  struct cm_error *err)
{
	char val[32], path[PATH_MAX];
	int ret;

	if (pid <= 0)
		return cm_errorf(err, "pid %d: not a process id", (int)pid);
	snprintf(val, sizeof(val), "%d", (int)pid);
	ret = cgroupfs_write(cg, CGROUPFS_CPUSET, name, "cgroup.procs", val, err);
	if (ret || cg->version == 2)
		return ret;
	ret = cgroupfs_write(cg, CGROUPFS_CPU, name, "cgroup.procs", val, err);
	if (ret) {
		cgroupfs_path(cg, CGROUPFS_CPUSET, name, NULL, path,
			      sizeof(path), NULL);
		cm_error_prefix(err, "pid %d joined %s but not its cpu cgroup",
				(int)pid, path);
	}
	return ret;
}

int cgroupfs_pids(const struct cgroupfs *cg, const char *name, pid_t **pids,
		  size_t *nr, struct cm_error *err)
{
	char *s, *line, *save = NULL;
	size_t n = 0, cap = 16;
	pid_t *v = NULL;
	int ret = cgroupfs_read(cg, CGROUPFS_CPUSET, name, "cgroup.procs", &s, err);

	if (ret)
		return ret;
	v = malloc(cap * sizeof(*v));
	if (!v) {
		cm_errorf(err, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *end;
		long p;

		errno = 0;
		p = strtol(line, &end, 10);
		if (end == line || *end || errno || p <= 0 || p > INT_MAX) {
			char path[PATH_MAX];

			cgroupfs_path(cg, CGROUPFS_CPUSET, name, "cgroup.procs", path,
				      sizeof(path), NULL);
			ret = cm_errorf(err, "%s: not a process id: \"%s\"",
					path, line);
			goto out;
		}
		if (n == cap) {
			pid_t *nv = realloc(v, 2 * cap * sizeof(*v));

			if (!nv) {
				cm_errorf(err, "out of memory");
				ret = -ENOMEM;
				goto out;
			}
			v = nv;
			cap *= 2;
		}
		v[n++] = (pid_t)p;
	}
	*pids = v;
	*nr = n;
	v = NULL;
out:
	free(v);
	free(s);
	return ret;
}
