/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fake cgroup trees for unit tests: a temporary directory with
 * directories for cgroups and files named like cgroup files.
 */
#ifndef CPUMGR_TESTS_FAKE_CGROUP_H
#define CPUMGR_TESTS_FAKE_CGROUP_H

#define _XOPEN_SOURCE_EXTENDED 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroupfs.h"

/* snprintf that aborts instead of truncating: a test path must fit. */
#define xsnprintf(buf, len, ...) do {					\
	int __n = snprintf(buf, len, __VA_ARGS__);			\
	if (__n < 0 || (size_t)__n >= (size_t)(len))			\
		abort();						\
} while (0)

/* A new empty directory under $TMPDIR (or /tmp); aborts on failure. */
static inline void fake_tree_new(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	xsnprintf(dir, len, "%s/cpumgr-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		abort();
	}
}

static inline int fake_rm_one(const char *path, const struct stat *st,
			      int flag, struct FTW *ftw)
{
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static inline void fake_tree_free(const char *dir)
{
	nftw(dir, fake_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* dir/rel as a directory, with its parents. */
static inline void fake_mkdir(const char *dir, const char *rel)
{
	char path[PATH_MAX];

	xsnprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *p = path + strlen(dir) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		abort();
	}
}

/* dir/rel holding text, its directory created as needed. */
static inline void fake_write(const char *dir, const char *rel,
			      const char *text)
{
	char path[PATH_MAX], sub[PATH_MAX];
	const char *slash = strrchr(rel, '/');
	FILE *f;

	if (slash) {
		xsnprintf(sub, sizeof(sub), "%.*s", (int)(slash - rel), rel);
		fake_mkdir(dir, sub);
	}
	xsnprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		abort();
	}
}

/* The text of dir/rel, or "<missing>"; valid until the next call. */
static inline const char *fake_read(const char *dir, const char *rel)
{
	static char buf[4096];
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	xsnprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return "<missing>";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* The first line of dir/rel, without its newline; as fake_read(). */
static inline const char *fake_line(const char *dir, const char *rel)
{
	static char buf[4096];

	xsnprintf(buf, sizeof(buf), "%s", fake_read(dir, rel));
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static inline bool fake_exists(const char *dir, const char *rel)
{
	char path[PATH_MAX];

	xsnprintf(path, sizeof(path), "%s/%s", dir, rel);
	return !access(path, F_OK);
}

/* The entries of dir, "." and ".." aside. */
static inline unsigned int fake_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned int n = 0;

	while (d && (de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/*
 * What the kernel does for a cgroup that a plain directory does not, done
 * by hand: a cgroup has every interface file (a write creates the one
 * missing here; a v2 cgroup.subtree_control missing here reads empty, as
 * a new cgroup's does, and cpuset.cpus.partition "member"), rmdir takes
 * its files with it, and any directory
 * may stand for a v1 hierarchy's mount.
 */
static inline int fake_open_file(const char *path, int flags)
{
	const char *base = strrchr(path, '/');
	int fd;

	if (flags & (O_WRONLY | O_RDWR))
		return open(path, flags | O_CREAT | O_TRUNC, 0644);
	fd = open(path, flags);
	if (fd < 0 && errno == ENOENT && base &&
	    !strcmp(base + 1, "cgroup.subtree_control"))
		return open("/dev/null", flags);
	/* a v2 cgroup is no partition until written one */
	if (fd < 0 && errno == ENOENT && base &&
	    !strcmp(base + 1, "cpuset.cpus.partition")) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0 && (write(fd, "member\n", 7) != 7 || close(fd)))
			return -1;
		return open(path, flags);
	}
	return fd;
}

static inline int fake_remove_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		struct stat st;

		if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    !S_ISDIR(st.st_mode))
			unlinkat(dirfd(d), de->d_name, 0);
	}
	if (d)
		closedir(d);
	return rmdir(path);
}

static inline bool fake_v1_root(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static const struct cgroupfs_ops fake_cgroup_ops = {
	.open_file = fake_open_file,
	.remove_dir = fake_remove_dir,
	.v1_root = fake_v1_root,
};

/* cgroupfs_init() on a fake tree of cgroup version 1 or 2. */
static inline int fake_cgroupfs_init(struct cgroupfs *cg, const char *dir,
				     int version, struct cm_error *err)
{
	return cgroupfs_init_ops(cg, dir, version, &fake_cgroup_ops, err);
}

/*
 * A kselftest fixture holding a fake tree (self->dir), the cgroupfs on it
 * (self->cg) and an error (self->err), with its teardown; each test file
 * writes the FIXTURE_SETUP() that lays out its tree.
 */
#define FAKE_TREE_FIXTURE(name)						\
	FIXTURE(name) {							\
		char dir[PATH_MAX];					\
		struct cgroupfs cg;					\
		struct cm_error err;					\
	};								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		fake_tree_free(self->dir);				\
		cm_error_clear(&self->err);				\
	}

#endif
