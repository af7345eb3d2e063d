/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the unit tests (on top of kselftest_harness.h). */
#ifndef CPUMGR_TESTS_TEST_UTIL_H
#define CPUMGR_TESTS_TEST_UTIL_H

#include <stdbool.h>
#include <stdlib.h>

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
