// SPDX-License-Identifier: GPL-2.0
/* A cgroup's cpuset partition, made and undone (quiet_partition.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quiet_partition.h"

#define EXCLUSIVE	"cpuset.cpus.exclusive"
#define PARTITION	"cpuset.cpus.partition"

bool quiet_part_remote(const struct cgroupfs *cg, const char *name)
{
	struct cm_error err = { 0 };
	char top[PATH_MAX], *s = NULL;
	int ret;

	/*
	 * The kernel has the file in every cgroup but the root, or none:
	 * the top one's; the root's own cpuset.cpus.isolated came with it.
	 */
	snprintf(top, sizeof(top), "%.*s", (int)strcspn(name, "/"), name);
	ret = cgroupfs_read(cg, CGROUPFS_CPUSET, top,
			    top[0] ? EXCLUSIVE : "cpuset.cpus.isolated", &s,
			    &err);

	cm_error_clear(&err);
	free(s);
	return cg->version == 2 && !ret;
}

int quiet_part_state(const struct cgroupfs *cg, const char *name,
		     enum quiet_part *state, char *reason, size_t len,
		     struct cm_error *err)
{
	char *s, *open;
	int ret = cgroupfs_read(cg, CGROUPFS_CPUSET, name, PARTITION, &s, err);

	if (ret)
		return ret;
	s[strcspn(s, "\n")] = '\0';
	open = strchr(s, '(');
	if (reason && len)
		snprintf(reason, len, "%.*s", open ? (int)strcspn(open + 1, ")") : 0,
			 open ? open + 1 : "");
	if (strstr(s, "invalid"))
		*state = QUIET_PART_INVALID;
	else if (!strcmp(s, "root"))
		*state = QUIET_PART_ROOT;
	else if (!strcmp(s, "isolated"))
		*state = QUIET_PART_ISOLATED;
	else
		*state = QUIET_PART_MEMBER;
	free(s);
	return 0;
}

/* cpuset.cpus.exclusive of name into *out ("" and missing: empty). */
static int get_exclusive(const struct cgroupfs *cg, const char *name,
			 struct cpuset *out, struct cm_error *err)
{
	char *s;
	int ret = cgroupfs_read(cg, CGROUPFS_CPUSET, name, EXCLUSIVE, &s, err);

	cpuset_zero(out);
	if (ret)
		return ret;
	ret = cpuset_parse(out, s, err);
	free(s);
	return ret;
}

/* name's cpuset.cpus.exclusive: exactly cpus (NULL: none). */
static int put_exclusive(const struct cgroupfs *cg, const char *name,
			 const struct cpuset *cpus, struct cm_error *err)
{
	struct cpuset none;
	char *text;
	int ret;

	cpuset_zero(&none);
	text = cpuset_to_str(cpus ? cpus : &none);

	if (!text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	/* an empty value needs a byte to write: the kernel takes "\n" */
	ret = cgroupfs_write(cg, CGROUPFS_CPUSET, name, EXCLUSIVE,
			     text[0] ? text : "\n", err);
	free(text);
	return ret;
}

/* name's cpuset.cpus.exclusive with add in and drop out. */
static int change_exclusive(const struct cgroupfs *cg, const char *name,
			    const struct cpuset *add, const struct cpuset *drop,
			    struct cm_error *err)
{
	struct cpuset have, want;
	int ret = get_exclusive(cg, name, &have, err);

	if (ret)
		return ret;
	want = have;
	if (add)
		cpuset_or(&want, &want, add);
	if (drop)
		cpuset_andnot(&want, &want, drop);
	return cpuset_equal(&want, &have) ? 0 :
	       put_exclusive(cg, name, &want, err);
}

/*
 * The ancestors of name below the root cgroup, top first, into
 * names[]: their number, or -ENAMETOOLONG.
 */
#define DEPTH_MAX	64

static int ancestors(const char *name, char names[][PATH_MAX], int max)
{
	int nr = 0;

	for (const char *p = name; (p = strchr(p, '/')); p++) {
		if (nr == max)
			return -ENAMETOOLONG;
		snprintf(names[nr++], PATH_MAX, "%.*s", (int)(p - name), name);
	}
	return nr;
}

static int write_state(const struct cgroupfs *cg, const char *name,
		       const char *state, struct cm_error *err)
{
	return cgroupfs_write(cg, CGROUPFS_CPUSET, name, PARTITION, state,
			      err);
}

/* Read back after a write: valid, or the kernel's reason in err. */
static int check_valid(const struct cgroupfs *cg, const char *name,
		       enum quiet_part want, struct cm_error *err)
{
	enum quiet_part got;
	char why[256];
	int ret = quiet_part_state(cg, name, &got, why, sizeof(why), err);

	if (ret)
		return ret;
	if (got == want)
		return 0;
	return cm_errorf(err, "cgroup %s: the kernel made it an invalid partition (%s)",
			 name, why[0] ? why : "no reason given");
}

static int make_local(const struct cgroupfs *cg, const char *name,
		      enum quiet_part want, bool *changed,
		      struct cm_error *err)
{
	char parent[PATH_MAX];
	enum quiet_part p;
	int ret;

	cgroupfs_parent(name, parent, sizeof(parent));
	ret = quiet_part_state(cg, parent, &p, NULL, 0, err);
	if (ret == -ENOENT && !parent[0])
		p = QUIET_PART_ROOT;	/* the root cgroup: always one */
	else if (ret)
		return ret;
	if (p != QUIET_PART_ROOT && p != QUIET_PART_ISOLATED)
		return cm_errorf(err, "this kernel has no cpuset.cpus.exclusive (Linux 6.7 and later make remote partitions): a partition must be a local one, and its parent %s is no partition root",
				 parent), -EOPNOTSUPP;
	ret = write_state(cg, name, want == QUIET_PART_ISOLATED ? "isolated" :
			  "root", err);
	*changed = !ret;
	if (!ret)
		ret = check_valid(cg, name, want, err);
	if (ret == -EINVAL) {
		struct cm_error ignored = { 0 };

		write_state(cg, name, "member", &ignored);
		cm_error_clear(&ignored);
	}
	return ret;
}

/*
 * A valid partition that moves grows its ancestors first and shrinks them
 * after, so that it always holds CPUs they have.  The CPUs it names but no
 * longer runs on (one a release-mode offline took from its container,
 * which no container holds now) leave the ancestors with that growth:
 * they run nothing there, and the module refuses a cpuset.cpus.exclusive
 * naming CPUs that are not whole containers'.
 */
static void stale_cpus(const struct cgroupfs *cg, const char *name,
		       bool valid, const struct cpuset *old,
		       const struct cpuset *cpus, struct cpuset *stale)
{
	struct cm_error err = { 0 };
	struct cpuset eff;

	cpuset_zero(stale);
	/* unread, none: the move is tried as it always was */
	if (!valid || cgroupfs_get_effective_cpus(cg, name, &eff, &err)) {
		cm_error_clear(&err);
		return;
	}
	cpuset_andnot(stale, old, cpus);
	cpuset_andnot(stale, stale, &eff);
}

int quiet_part_make(const struct cgroupfs *cg, const char *name,
		    const struct cpuset *cpus, bool isolated, bool *changed,
		    struct cm_error *err)
{
	enum quiet_part want = isolated ? QUIET_PART_ISOLATED : QUIET_PART_ROOT;
	char (*up)[PATH_MAX];
	struct cpuset old, gone, stale;
	enum quiet_part state;
	int nr, ret;

	*changed = false;
	ret = quiet_part_state(cg, name, &state, NULL, 0, err);
	if (ret)
		return ret;
	if (!quiet_part_remote(cg, name)) {
		if (state == want)
			return 0;
		return make_local(cg, name, want, changed, err);
	}
	ret = get_exclusive(cg, name, &old, err);
	if (ret)
		return ret;
	if (state == want && cpuset_equal(&old, cpus))
		return 0;
	stale_cpus(cg, name, state == want, &old, cpus, &stale);
	up = calloc(DEPTH_MAX, sizeof(*up));
	if (!up)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	nr = ancestors(name, up, DEPTH_MAX);
	if (nr < 0) {
		free(up);
		return cm_errorf(err, "cgroup %s: deeper than %d levels", name,
				 DEPTH_MAX), nr;
	}
	*changed = true;
	for (int i = 0; i < nr && !ret; i++)
		ret = change_exclusive(cg, up[i], cpus, &stale, err);
	if (!ret && !cpuset_equal(&old, cpus))
		ret = put_exclusive(cg, name, cpus, err);
	if (!ret && state != want)
		ret = write_state(cg, name, isolated ? "isolated" : "root", err);
	if (!ret)
		ret = check_valid(cg, name, want, err);
	if (ret) {
		struct cm_error ignored = { 0 };
		char parent[PATH_MAX];

		cgroupfs_parent(name, parent, sizeof(parent));
		if (state == want) {
			/* a valid partition that failed to move stays */
			put_exclusive(cg, name, &old, &ignored);
			cpuset_andnot(&gone, cpus, &old);
			for (int i = nr - 1; i >= 0; i--)
				change_exclusive(cg, up[i], NULL, &gone,
						 &ignored);
		} else {
			cpuset_or(&gone, cpus, &old);
			quiet_part_undo(cg, parent, name, &gone, &ignored);
		}
		cm_error_clear(&ignored);
		free(up);
		return ret;
	}
	/* a partition moved: the CPUs it left go from the ancestors */
	cpuset_andnot(&gone, &old, cpus);
	for (int i = nr - 1; i >= 0 && !ret && !cpuset_empty(&gone); i--)
		ret = change_exclusive(cg, up[i], NULL, &gone, err);
	free(up);
	return ret;
}

int quiet_part_undo(const struct cgroupfs *cg, const char *parent,
		    const char *name, const struct cpuset *given,
		    struct cm_error *err)
{
	struct cpuset cpus, own;
	char (*up)[PATH_MAX];
	enum quiet_part state;
	int nr, ret = 0;

	cpuset_zero(&cpus);
	if (given)
		cpus = *given;
	if (name && !quiet_part_state(cg, name, &state, NULL, 0, err)) {
		if (state != QUIET_PART_MEMBER)
			ret = write_state(cg, name, "member", err);
		/* what it held goes up too, whatever the caller thinks */
		if (!ret && quiet_part_remote(cg, name) &&
		    !get_exclusive(cg, name, &own, err)) {
			cpuset_or(&cpus, &cpus, &own);
			if (!cpuset_empty(&own))
				ret = put_exclusive(cg, name, NULL, err);
		}
		if (ret && ret != -ENOENT)
			return ret;
	}
	cm_error_clear(err);
	if (cpuset_empty(&cpus))
		return 0;
	if (!parent[0])
		return 0;
	up = calloc(DEPTH_MAX + 1, sizeof(*up));
	if (!up)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	nr = ancestors(parent, up, DEPTH_MAX);
	if (nr < 0) {
		free(up);
		return cm_errorf(err, "cgroup %s: deeper than %d levels",
				 parent, DEPTH_MAX), nr;
	}
	snprintf(up[nr++], PATH_MAX, "%s", parent);
	/* one gone (or, on 6.1, no such file): the next up may hold them */
	for (int i = nr - 1; i >= 0; i--) {
		ret = change_exclusive(cg, up[i], NULL, &cpus, err);
		if (ret == -ENOENT) {
			cm_error_clear(err);
			ret = 0;
		}
		if (ret)
			break;
	}
	free(up);
	return ret;
}

bool quiet_unpopulated(const struct cgroupfs *cg, const char *name)
{
	struct cm_error err = { 0 };
	char *s = NULL;
	bool empty;

	empty = !cgroupfs_read(cg, CGROUPFS_CPUSET, name, "cgroup.events", &s,
			       &err) && strstr(s, "populated 0");
	free(s);
	cm_error_clear(&err);
	return empty;
}

/* Cgroup name: a partition on some of cpus with no task in or below it. */
static bool left_behind(const struct cgroupfs *cg, const char *name,
			const struct cpuset *cpus)
{
	struct cm_error err = { 0 };
	enum quiet_part state;
	struct cpuset own;
	bool left;

	left = !quiet_part_state(cg, name, &state, NULL, 0, &err) &&
	       state != QUIET_PART_MEMBER &&
	       !get_exclusive(cg, name, &own, &err) &&
	       cpuset_intersects(&own, cpus) && quiet_unpopulated(cg, name);
	cm_error_clear(&err);
	return left;
}

int quiet_part_left(const struct cgroupfs *cg, const char *parent,
		    bool (*wanted)(const char *name, void *arg), void *arg,
		    const struct cpuset *cpus, bool remove, unsigned int *found,
		    struct cm_error *err)
{
	char dir[PATH_MAX], name[PATH_MAX];
	struct dirent *d;
	DIR *dp;
	int ret;

	*found = 0;
	if (cg->version != 2 || !parent[0])
		return 0;
	ret = cgroupfs_path(cg, CGROUPFS_CPUSET, parent, NULL, dir,
			    sizeof(dir), err);
	if (ret)
		return ret;
	dp = opendir(dir);
	if (!dp)
		return errno == ENOENT ? 0 :
		       (cm_errorf(err, "%s: %s", dir, strerror(errno)), -errno);
	while (!ret && (d = readdir(dp))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.' ||
		    snprintf(name, sizeof(name), "%s/%s", parent, d->d_name) >=
		    (int)sizeof(name) || !left_behind(cg, name, cpus) ||
		    wanted(name, arg))
			continue;
		if (remove)
			ret = quiet_part_undo(cg, parent, name, NULL, err);
		if (remove && !ret)
			ret = cgroupfs_remove(cg, name, err);
		if (!ret)
			(*found)++;
	}
	closedir(dp);
	return ret;
}
