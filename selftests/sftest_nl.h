/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the selftests that drive the table over netlink: a snapshot
 * of everything the kernel shows (GET_STATE, the assignment dump and the
 * sysfs files), to prove that a refused request changed nothing, and the
 * assertion that does so.  Include after kselftest_harness.h.
 */
#ifndef SFTEST_NL_H
#define SFTEST_NL_H

#include <stdlib.h>
#include <string.h>

#include "cpumgr_nl.h"
#include "sftest_util.h"

#define SFT_SYSFS "/sys/kernel/cpumgr"

/* Everything the kernel shows of the table at one moment. */
struct sft_table {
	struct cpumgr_table st;
	struct cpumgr_assignment *a;
	size_t n;
	char *sysfs;	/* the node files and pods/ tree as text */
};

/* Open a connection; NULL (with the reason on stderr) on failure. */
struct cpumgr_nl *sft_nl_open(void);
/* 0 or -errno. */
int sft_table_read(struct cpumgr_nl *nl, struct sft_table *t);
void sft_table_free(struct sft_table *t);
/* NULL when a and b show the same table, else what differs (static). */
const char *sft_table_diff(const struct sft_table *a,
			   const struct sft_table *b);
/*
 * The sysfs view as one text: "name: content" for each node file, then
 * "pods/UID/CONTAINER: cpus=.. cgroup=.. flags=.." and
 * "pods/UID: pod_cgroup=.." lines, sorted.  NULL on failure.
 */
char *sft_sysfs_text(void);

/* Configure the static policy with nothing reserved; 0 or -errno. */
int sft_static(struct cpumgr_nl *nl);

/* The online CPUs, and how many. */
int sft_online_cpus(bool *map);

/* The online CPUs the tests use: numbers and "N" strings, ascending. */
#define SFT_NAMED_CPUS	8
struct sft_cpus {
	int n;
	int cpu[SFTEST_MAX_CPUS];
	char name[SFT_NAMED_CPUS][16];
};

/* false when fewer than `need` CPUs are online */
bool sft_cpus_read(struct sft_cpus *c, int need);
/* The end of a fixture: RESET (so the module unloads) and close; 0 or
 * the RESET's -errno.  Nothing to do for NULL. */
int sft_reset_close(struct cpumgr_nl *nl);

/*
 * A refused request: `call` (an expression giving 0 or -errno, run on nl)
 * fails with exactly -err, leaves an extended ACK message and changes
 * nothing the kernel shows.
 */
#define SFT_REFUSED(nl, err, call) SFT_REFUSED_AS(nl, err, err, call)

/* The same where the header allows either of two errnos. */
#define SFT_REFUSED_AS(nl, err, err2, call) do {			\
	struct sft_table __b, __a;					\
	const char *__diff;						\
	char *__msg;							\
	int __ret;							\
									\
	ASSERT_EQ(0, sft_table_read((nl), &__b));			\
	__ret = (call);							\
	__msg = strdup(cpumgr_nl_errmsg(nl));				\
	EXPECT_TRUE(__ret == -(err) || __ret == -(err2))		\
		TH_LOG("%s: got %d %s (%s), want %s", #call, __ret,	\
		       strerror(-__ret), __msg, strerror(err));		\
	EXPECT_NE(0, __msg[0]) TH_LOG("%s: no extack message", #call);	\
	ASSERT_EQ(0, sft_table_read((nl), &__a));			\
	__diff = sft_table_diff(&__b, &__a);				\
	EXPECT_EQ(NULL, __diff) TH_LOG("%s changed the table: %s",	\
				       #call, __diff);			\
	if (__ret)							\
		TH_LOG("%s refused: %s", #call, __msg);			\
	free(__msg);							\
	sft_table_free(&__b);						\
	sft_table_free(&__a);						\
} while (0)

#endif
