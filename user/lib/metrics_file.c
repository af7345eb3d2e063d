// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics file for node_exporter's textfile collector, replaced
 * atomically: the collector may read the directory at any moment and must
 * see the old file or the new one, never a half-written one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics.h"

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int prom_write_file(const char *path, const char *text, struct cm_error *err)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	char tmp[PATH_MAX];
	int fd, ret, len;

	if (n <= 5 || strcmp(base + n - 5, ".prom"))
		return cm_errorf(err, "%s: node_exporter's textfile collector reads only files named *.prom",
				 path);
	/* same directory, so rename() is atomic; hidden and not *.prom */
	len = snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX",
		       slash ? (int)(slash - path + 1) : 0, path, base);
	if (len < 0 || (size_t)len >= sizeof(tmp)) {
		cm_errorf(err, "%s: %s", path, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		cm_errorf(err, "%s: cannot create a temporary file: %s", path,
			  strerror(-ret));
		return ret;
	}
	/* mkostemp() makes it 0600: node_exporter runs as another user */
	ret = fchmod(fd, 0644) ? -errno : 0;
	if (!ret)
		ret = write_all(fd, text, strlen(text));
	/* a crash after the rename must not leave an empty file behind */
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		cm_errorf(err, "%s: %s", path, strerror(-ret));
	}
	return ret;
}
