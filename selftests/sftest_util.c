// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sftest_util.h"

static char *read_path(const char *path)
{
	char buf[65536];
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len < 0)
		return NULL;
	while (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	return strdup(buf);
}

char *sft_read_file(const char *fmt, ...)
{
	char path[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return read_path(path);
}

bool sft_read_long(long *val, const char *fmt, ...)
{
	char path[4096], *text, *end;
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	text = read_path(path);
	if (!text)
		return false;
	errno = 0;
	*val = strtol(text, &end, 10);
	ok = !errno && end != text && *end == '\0';
	free(text);
	return ok;
}

int sft_write_file(const char *path, const char *text)
{
	ssize_t len = strlen(text), ret;
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, text, len);
	if (ret < 0)
		err = -errno;
	else if (ret != len)
		err = -EIO;
	close(fd);
	return err;
}

bool sft_parse_cpulist(const char *list, bool *map)
{
	const char *p = list;
	long first, last;
	char *end;

	memset(map, 0, SFTEST_MAX_CPUS * sizeof(*map));
	if (!*p)
		return true;
	for (;;) {
		if (!isdigit((unsigned char)*p))
			return false;
		first = strtol(p, &end, 10);
		last = first;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return false;
			last = strtol(p, &end, 10);
			p = end;
		}
		if (first > last || last >= SFTEST_MAX_CPUS)
			return false;
		while (first <= last)
			map[first++] = true;
		if (!*p)
			return true;
		if (*p++ != ',')
			return false;
	}
}
