// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int stage(int dir_fd, const char *dir, const char *name,
		 const void *data, size_t len, mode_t mode, bool sync,
		 char **tmp_name, struct cm_error *err)
{
	char *path;
	int fd, ret;

	*tmp_name = NULL;
	if (asprintf(&path, "%s/.%s" ATOMIC_FILE_TMP_INFIX "XXXXXX", dir,
		     name) < 0)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		cm_errorf(err, "cannot create a temporary file in %s/: %s",
			  dir, strerror(-ret));
		free(path);
		return ret;
	}
	/* mkostemp() makes it 0600: other users may have to read it */
	ret = mode && fchmod(fd, mode) ? -errno : 0;
	if (!ret)
		ret = write_all(fd, data, len);
	/* a crash after the rename must not leave an empty file behind */
	if (!ret && sync && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret) {
		unlink(path);
		cm_errorf(err, "cannot write %s: %s", path, strerror(-ret));
		free(path);
		return ret;
	}
	*tmp_name = strdup(strrchr(path, '/') + 1);
	if (!*tmp_name) {
		unlink(path);
		free(path);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	free(path);
	return 0;
}

static int commit(int dir_fd, const char *dir, const char *tmp_name,
		  const char *name, bool sync, struct cm_error *err)
{
	int e;

	if (renameat(dir_fd, tmp_name, dir_fd, name)) {
		e = errno;
		unlinkat(dir_fd, tmp_name, 0);
		cm_errorf(err, "cannot rename into %s/%s: %s", dir, name,
			  strerror(e));
		return -e;
	}
	/* the rename is durable only once the directory is */
	if (sync && fsync(dir_fd)) {
		e = errno;
		cm_errorf(err, "cannot sync %s/: %s", dir, strerror(e));
		return -e;
	}
	return 0;
}

int atomic_file_stage(int dir_fd, const char *dir, const char *name,
		      const void *data, size_t len, mode_t mode,
		      char **tmp_name, struct cm_error *err)
{
	return stage(dir_fd, dir, name, data, len, mode, true, tmp_name, err);
}

int atomic_file_commit(int dir_fd, const char *dir, const char *tmp_name,
		       const char *name, struct cm_error *err)
{
	return commit(dir_fd, dir, tmp_name, name, true, err);
}

int atomic_file_write(const char *dir, const char *name, const void *data,
		      size_t len, mode_t mode, unsigned int flags,
		      struct cm_error *err)
{
	int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool sync = !(flags & ATOMIC_FILE_NO_SYNC);
	char *tmp;
	int ret;

	if (dir_fd < 0) {
		ret = -errno;
		cm_errorf(err, "cannot open %s: %s", dir, strerror(-ret));
		return ret;
	}
	ret = stage(dir_fd, dir, name, data, len, mode, sync, &tmp, err);
	if (!ret)
		ret = commit(dir_fd, dir, tmp, name, sync, err);
	free(tmp);
	close(dir_fd);
	return ret;
}

int atomic_file_mkdir(const char *path, mode_t mode, struct cm_error *err)
{
	char *parent, *slash;
	int fd, e = 0;

	if (mkdir(path, mode)) {
		e = errno == EEXIST ? 0 : errno;
		if (e)
			cm_errorf(err, "cannot create %s: %s", path, strerror(e));
		return -e;
	}
	parent = strdup(path);
	if (!parent)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	slash = strrchr(parent, '/');
	if (slash)
		slash[slash == parent] = '\0';
	fd = open(slash ? parent : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd)) {
		e = errno;
		cm_errorf(err, "cannot sync %s/: %s", slash ? parent : ".",
			  strerror(e));
	}
	if (fd >= 0)
		close(fd);
	free(parent);
	return -e;
}
