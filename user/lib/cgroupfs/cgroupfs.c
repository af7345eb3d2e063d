// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup file system: which version, where the hierarchies are, how a
 * cgroup name becomes a path, and reading and writing one cgroup file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "cgroupfs.h"

/* Where distributions mount the v1 cpu controller (systemd links "cpu"). */
static const char *const v1_cpu_dirs[] = {
	"cpu,cpuacct", "cpu", "cpuacct,cpu",
};

int cgroupfs_detect_version(const char *dir, struct cm_error *err)
{
	struct statfs st;

	if (statfs(dir, &st)) {
		int e = errno;

		cm_errorf(err, "%s: %s", dir, strerror(e));
		return -e;
	}
	if (st.f_type == CGROUP2_SUPER_MAGIC)
		return 2;
	if (st.f_type == CGROUP_SUPER_MAGIC)
		return 1;
	cm_errorf(err, "%s: not a cgroup file system (statfs type %#lx)", dir,
		  (unsigned long)st.f_type);
	return -ENOTSUP;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool v1_root(const struct cgroupfs *cg, const char *path)
{
	return cg->ops->v1_root(path);
}

static int set_root(char *root, const char *mount, const char *sub,
		    struct cm_error *err)
{
	int n = snprintf(root, PATH_MAX, "%s%s%s", mount, sub ? "/" : "",
			 sub ? sub : "");

	if (n < 0 || n >= PATH_MAX) {
		cm_errorf(err, "%s: %s", mount, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	return 0;
}

static int init_v1(struct cgroupfs *cg, const char *mount,
		   struct cm_error *err)
{
	int ret = set_root(cg->root[CGROUPFS_CPUSET], mount, "cpuset", err);

	if (ret)
		return ret;
	if (!v1_root(cg, cg->root[CGROUPFS_CPUSET])) {
		cm_errorf(err, "%s: no cgroup v1 cpuset hierarchy",
			  cg->root[CGROUPFS_CPUSET]);
		return -ENOENT;
	}
	for (size_t i = 0; i < sizeof(v1_cpu_dirs) / sizeof(*v1_cpu_dirs);
	     i++) {
		ret = set_root(cg->root[CGROUPFS_CPU], mount, v1_cpu_dirs[i],
			       err);
		if (ret)
			return ret;
		if (v1_root(cg, cg->root[CGROUPFS_CPU]))
			return 0;
	}
	cm_errorf(err, "%s: no cgroup v1 cpu hierarchy (cpu,cpuacct, cpu or cpuacct,cpu)",
		  mount);
	return -ENOENT;
}

int cgroupfs_init_ops(struct cgroupfs *cg, const char *mount, int version,
		      const struct cgroupfs_ops *ops, struct cm_error *err)
{
	int ret;

	memset(cg, 0, sizeof(*cg));
	cg->ops = ops;
	if (!mount)
		mount = CGROUPFS_MOUNT;
	if (version < 0 || version > 2)
		return cm_errorf(err, "cgroup version %d: must be 1 or 2",
				 version);
	if (!version) {
		/* v1 layouts mount a tmpfs at the top, the hierarchies below */
		ret = cgroupfs_detect_version(mount, err);
		if (ret < 0 && ret != -ENOTSUP)
			return ret;
		if (ret == -ENOTSUP)
			cm_error_clear(err);	/* not an error here */
		version = ret == 2 ? 2 : 1;
	} else if (!is_dir(mount)) {
		cm_errorf(err, "%s: not a directory", mount);
		return -ENOTDIR;
	}
	cg->version = version;
	if (version == 1)
		return init_v1(cg, mount, err);
	ret = set_root(cg->root[CGROUPFS_CPUSET], mount, NULL, err);
	if (!ret)
		ret = set_root(cg->root[CGROUPFS_CPU], mount, NULL, err);
	return ret;
}

void cgroupfs_parent(const char *name, char *out, size_t len)
{
	const char *slash = strrchr(name, '/');

	snprintf(out, len, "%.*s", slash ? (int)(slash - name) : 0, name);
}

bool cgroupfs_at_or_below(const char *path, const char *dir)
{
	size_t dl = strlen(dir);

	if (!dl)
		return path != NULL;
	return path && !strncmp(path, dir, dl) &&
	       (path[dl] == '\0' || path[dl] == '/');
}

int cgroupfs_name_normalize(const char *name, char *out, size_t len,
			    struct cm_error *err)
{
	const char *p = name ? name : "", *end, *q;
	size_t n = 0;

	while (*p == '/')
		p++;
	end = p + strlen(p);
	while (end > p && end[-1] == '/')
		end--;
	for (q = p; q < end;) {
		const char *c = memchr(q, '/', (size_t)(end - q));
		size_t clen;

		if (!c)
			c = end;
		clen = (size_t)(c - q);
		if (!clen || (clen == 1 && q[0] == '.') ||
		    (clen == 2 && q[0] == '.' && q[1] == '.'))
			return cm_errorf(err, "cgroup name \"%s\": empty, \".\" and \"..\" components are not allowed",
					 name);
		q = c + 1;
	}
	n = (size_t)(end - p);
	if (n >= len) {
		cm_errorf(err, "cgroup name \"%s\": %s", name,
			  strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

int cgroupfs_path(const struct cgroupfs *cg, enum cgroupfs_ctrl ctrl,
		  const char *name,
		  const char *file, char *buf, size_t len, struct cm_error *err)
{
	char norm[PATH_MAX];
	int ret = cgroupfs_name_normalize(name, norm, sizeof(norm), err);
	int n;

	if (ret)
		return ret;
	n = snprintf(buf, len, "%s%s%s%s%s", cg->root[ctrl], *norm ? "/" : "",
		     norm, file ? "/" : "", file ? file : "");
	if (n < 0 || (size_t)n >= len) {
		cm_errorf(err, "cgroup \"%s\" under %s: %s", norm,
			  cg->root[ctrl], strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	return 0;
}

/* The whole file, however long (cgroup.procs can be); -errno. */
static int read_all(const struct cgroupfs *cg, const char *path, char **out)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	int fd, e = 0;

	if (!buf)
		return -ENOMEM;
	fd = cg->ops->open_file(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		free(buf);
		return -e;
	}
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				e = ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			break;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (e) {
		free(buf);
		return -e;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

int cgroupfs_read(const struct cgroupfs *cg, enum cgroupfs_ctrl ctrl,
		  const char *name,
		  const char *file, char **out, struct cm_error *err)
{
	char path[PATH_MAX];
	int ret = cgroupfs_path(cg, ctrl, name, file, path, sizeof(path), err);

	if (ret)
		return ret;
	ret = read_all(cg, path, out);
	if (ret)
		cm_errorf(err, "%s: %s", path, strerror(-ret));
	return ret;
}

/*
 * One write(2) of the whole value: cgroup files parse what one write
 * brings, so a value split over two writes would be two values.  An
 * empty value is written as "\n" (a zero-length write may never reach
 * the file's handler).
 */
static int write_value(const struct cgroupfs *cg, const char *path,
		       const char *value, struct cm_error *err)
{
	const char *buf = *value ? value : "\n";
	size_t len = strlen(buf);
	ssize_t n;
	int fd, e;

	fd = cg->ops->open_file(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		cm_errorf(err, "%s: %s", path, strerror(e));
		return -e;
	}
	do {
		n = write(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	e = n < 0 ? errno : 0;
	if (close(fd) && !e && n >= 0)
		e = errno;
	if (e) {
		cm_errorf(err, "%s: write \"%s\": %s", path, value,
			  strerror(e));
		return -e;
	}
	if ((size_t)n != len) {
		cm_errorf(err, "%s: write \"%s\": short write (%zd of %zu bytes)",
			  path, value, n, len);
		return -EIO;
	}
	return 0;
}

int cgroupfs_write(const struct cgroupfs *cg, enum cgroupfs_ctrl ctrl,
		   const char *name,
		   const char *file, const char *value, struct cm_error *err)
{
	char path[PATH_MAX];
	int ret = cgroupfs_path(cg, ctrl, name, file, path, sizeof(path), err);

	if (ret)
		return ret;
	return write_value(cg, path, value, err);
}
