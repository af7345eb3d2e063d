/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the unit tests (on top of kselftest_harness.h). */
#ifndef CPUMGR_TESTS_TEST_UTIL_H
#define CPUMGR_TESTS_TEST_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

/*
 * The source tree the tests were built from (user/Makefile passes it), so
 * that fixtures are found whatever the working directory; "." only for a
 * build without it (a checker's).
 */
#ifndef CPUMGR_SRC_TOP
#define CPUMGR_SRC_TOP "."
#endif

/* user/tests/data of that tree; $CPUMGR_TEST_DATA overrides. */
static inline const char *test_data_dir(void)
{
	return getenv("CPUMGR_TEST_DATA") ?: CPUMGR_SRC_TOP "/user/tests/data";
}

/*
 * For a file name of examples/plan (dir): false unless it is a request
 * (NAME.json, not NAME.expected.json); else the paths of the request and
 * of its expectation, each of len bytes.
 */
/*
 * A checkpoint fixture's bytes (user/tests/data/checkpoint/NAME,
 * malloc'd), NULL when it cannot be read.
 */
static inline char *checkpoint_fixture(const char *name, size_t *len)
{
	char path[512];
	char *buf;
	FILE *f;

	snprintf(path, sizeof(path), "%s/checkpoint/%s", test_data_dir(), name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	buf = file_slurp(f, len);
	fclose(f);
	return buf;
}

static inline bool plan_example(const char *dir, const char *name, char *req,
				char *exp, size_t len)
{
	size_t n = strlen(name);

	if (n < 6 || strcmp(name + n - 5, ".json") ||
	    strstr(name, ".expected.json"))
		return false;
	snprintf(req, len, "%s/%s", dir, name);
	snprintf(exp, len, "%s/%.*s.expected.json", dir, (int)(n - 5), name);
	return true;
}

/*
 * EXPECT_TRUE(cond) that explains itself only when it fails (and reads
 * as a plain statement to static checkers); cond is evaluated once.
 */
#define CHECK(cond, fmt, ...) do {					\
	bool __check_ok = (cond);					\
									\
	if (!__check_ok)						\
		TH_LOG(fmt, ##__VA_ARGS__);				\
	EXPECT_TRUE(__check_ok);					\
} while (0)

#endif
