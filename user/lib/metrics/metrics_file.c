// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics file for node_exporter's textfile collector, replaced
 * atomically: the collector may read the directory at any moment and must
 * see the old file or the new one, never a half-written one.  Not synced:
 * every update rewrites it whole, and one that a power loss emptied is a
 * scrape without cpumgr's numbers, not wrong ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "metrics.h"

int prom_write_file(const char *path, const char *text, struct cm_error *err)
{
	const char *slash = strrchr(path,
				    '/'), *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	char *dir;
	int ret;

	if (n <= 5 || strcmp(base + n - 5, ".prom"))
		return cm_errorf(err, "%s: node_exporter's textfile collector reads only files named *.prom",
				 path);
	/* the temporary file is hidden and not *.prom: the collector skips it */
	dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) :
		      strdup(".");
	if (!dir)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	/* node_exporter runs as another user */
	ret = atomic_file_write(dir, base, text, strlen(text), 0644,
				ATOMIC_FILE_NO_SYNC, err);
	free(dir);
	if (ret)
		cm_error_prefix(err, "%s", path);
	return ret;
}
