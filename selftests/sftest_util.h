/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the selftests: files, cpulists, the module. */
#ifndef SFTEST_UTIL_H
#define SFTEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#define SFTEST_MAX_CPUS 1024

/*
 * After kselftest_harness.h: its 30 s per test is too short for a TCG
 * guest on a busy 2-core host running a KASAN kernel.  The guest runner
 * has its own, longer timeout for the whole run.
 */
#ifdef TEST_TIMEOUT_DEFAULT
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 600
#endif

/* Read a whole (small) file into a malloc'ed string, trailing newline
 * removed; NULL if it cannot be read. */
char *sft_read_file(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* Read one integer from a file; false if absent or not a number. */
bool sft_read_long(long *val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Write a string to a file; 0 or -errno. */
int sft_write_file(const char *path, const char *text);

/* Parse a kernel cpulist ("0-3,8") into a bool map of SFTEST_MAX_CPUS
 * entries; false on a syntax error.  Independent of user/lib on purpose:
 * the selftests check the kernel's output with their own reading. */
bool sft_parse_cpulist(const char *list, bool *map);

#endif
