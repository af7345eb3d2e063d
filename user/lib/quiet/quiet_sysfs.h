/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One value of a kernel file (procfs, sysfs) read or written in one
 * system call, as those files take them.
 */
#ifndef CPUMGR_QUIET_SYSFS_H
#define CPUMGR_QUIET_SYSFS_H

#include <stddef.h>

/* The text of path (its first line, the newline cut) into buf; -errno. */
int quiet_read_value(const char *path, char *buf, size_t len);
/*
 * text in one write(2); -errno (EIO for a short write, and where the
 * kernel refuses: an interrupt that may not move).
 */
int quiet_write_value(const char *path, const char *text);

#endif
