// SPDX-License-Identifier: GPL-2.0
/*
 * RESTORE replaces the whole table at once or not at all: a success
 * leaves exactly its entries (dump and sysfs), no pod pool among them, a
 * refusal, whichever entry caused it, leaves the old table intact and
 * blames the entry.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

FIXTURE(restore) {
	struct cpumgr_nl *nl;
	struct sft_cpus cpus;	/* cpus.name[0] left to the system */
};

FIXTURE_SETUP(restore)
{
	self->nl = sft_nl_open();
	ASSERT_NE(NULL, self->nl);
	ASSERT_TRUE(sft_cpus_read(&self->cpus, 6));
	ASSERT_EQ(0, sft_static(self->nl));
	/* The table every test starts from. */
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "old", "a", self->cpus.name[1], 0,
				      NULL, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "old", "b", self->cpus.name[2], 0,
				      NULL, NULL, NULL));
}

FIXTURE_TEARDOWN(restore)
{
	EXPECT_EQ(0, sft_reset_close(self->nl));
	rmdir("/sys/fs/cgroup/sft-restore");
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

TEST_F(restore, replaces_the_table)
{
	const char *cg = "/sys/fs/cgroup/sft-restore";
	struct cpumgr_restore_entry e[] = {
		{ "new", "init", self->cpus.name[3], CPUMGR_ASSIGNMENT_F_INIT, NULL, NULL },
		{ "new", "app", self->cpus.name[3], 0, cg, cg },
		{ "other", "x", self->cpus.name[1], 0, NULL, NULL },
	};
	struct cpumgr_table before, st;
	struct cpumgr_assignment *list, got;
	bool map[SFTEST_MAX_CPUS];
	char *text;
	struct stat sb;
	uint64_t gen;
	size_t n;

	mkdir(cg, 0755);
	ASSERT_EQ(0, stat(cg, &sb));
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &before));
	ASSERT_EQ(0, cpumgr_nl_restore(self->nl, e, 3, &before.generation,
				       &gen)) TH_LOG("%s",
						     cpumgr_nl_errmsg(self->nl));
	EXPECT_EQ(before.generation + 1, gen);

	ASSERT_EQ(0, cpumgr_nl_list_assignments(self->nl, &list, &n));
	ASSERT_EQ(3U, n);
	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < 3; k++) {
			if (!strcmp(list[i].pod_uid, e[k].pod_uid) &&
			    !strcmp(list[i].container, e[k].container))
				break;
		}
		ASSERT_GT(3U, k) TH_LOG("unexpected %s/%s", list[i].pod_uid,
					list[i].container);
		EXPECT_STREQ(e[k].cpus, list[i].cpus);
		EXPECT_EQ(e[k].flags, list[i].flags);
		EXPECT_EQ(gen, list[i].generation);
	}
	cpumgr_assignments_free(list, n);
	ASSERT_EQ(0, cpumgr_nl_get_assignment(self->nl, "new", "app", &got));
	EXPECT_STREQ(cg, got.cgroup_path);
	EXPECT_EQ((uint64_t)sb.st_ino, got.cgroup_id);
	EXPECT_STREQ(cg, got.pod_cgroup_path);
	cpumgr_assignment_free(&got);

	/* Policy, options, reserved CPUs stay; the pools follow. */
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	EXPECT_EQ(before.policy, st.policy);
	EXPECT_EQ(before.options, st.options);
	EXPECT_STREQ(before.reserved_cpus, st.reserved_cpus);
	EXPECT_EQ(2U, st.nr_pods);
	EXPECT_EQ(3U, st.nr_assignments);
	/* Exactly c[0] and c[2]: c[1], the old pod's, went back. */
	ASSERT_TRUE(sft_parse_cpulist(st.exclusive_cpus, map));
	for (int cpu = 0; cpu < SFTEST_MAX_CPUS; cpu++) {
		EXPECT_EQ(cpu == atoi(self->cpus.name[1]) || cpu == atoi(self->cpus.name[3]),
			  map[cpu]) TH_LOG("cpu%d in %s", cpu, st.exclusive_cpus);
	}
	cpumgr_table_free(&st);
	cpumgr_table_free(&before);

	/* sysfs follows: the old pod's directory is gone. */
	EXPECT_FALSE(exists(SFT_SYSFS "/pods/old"));
	text = sft_read_file(SFT_SYSFS "/pods/new/app/cgroup");
	EXPECT_STREQ(cg, text);
	free(text);
	text = sft_read_file(SFT_SYSFS "/pods/new/init/flags");
	EXPECT_STREQ("init", text);
	free(text);
	text = sft_read_file(SFT_SYSFS "/pods/other/x/cpus");
	EXPECT_STREQ(self->cpus.name[1], text);
	free(text);
}

/*
 * RESTORE carries no pools: a pod it keeps loses its pool (KEP-5526),
 * whose CPUs another pod of the new table may hold.
 */
TEST_F(restore, drops_pools)
{
	struct cpumgr_restore_entry e[] = {
		{ "old", "a", self->cpus.name[1], 0, NULL, NULL },
		{ "other", "x", self->cpus.name[4], 0, NULL, NULL },
	};
	struct cpumgr_assignment got;
	struct cpumgr_table st;
	bool map[SFTEST_MAX_CPUS];
	char pool[64];
	char *text;

	snprintf(pool, sizeof(pool), "%s,%s,%s", self->cpus.name[1],
		 self->cpus.name[2], self->cpus.name[4]);
	ASSERT_EQ(0, cpumgr_nl_assign_pool(self->nl, "old", pool, NULL, NULL))
		TH_LOG("%s", cpumgr_nl_errmsg(self->nl));
	ASSERT_EQ(0, cpumgr_nl_restore(self->nl, e, 2, NULL, NULL))
		TH_LOG("%s", cpumgr_nl_errmsg(self->nl));
	ASSERT_EQ(0, cpumgr_nl_get_assignment(self->nl, "old", "a", &got));
	EXPECT_EQ(NULL, got.pod_cpus);
	cpumgr_assignment_free(&got);
	text = sft_read_file(SFT_SYSFS "/pods/old/pod_cpus");
	EXPECT_STREQ("", text);
	free(text);
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	ASSERT_TRUE(sft_parse_cpulist(st.exclusive_cpus, map));
	for (int cpu = 0; cpu < SFTEST_MAX_CPUS; cpu++) {
		EXPECT_EQ(cpu == atoi(self->cpus.name[1]) || cpu == atoi(self->cpus.name[4]),
			  map[cpu]) TH_LOG("cpu%d in %s", cpu, st.exclusive_cpus);
	}
	cpumgr_table_free(&st);
}

TEST_F(restore, empty_empties)
{
	struct cpumgr_table st;

	ASSERT_EQ(0, cpumgr_nl_restore(self->nl, NULL, 0, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	EXPECT_EQ(0U, st.nr_pods);
	EXPECT_STREQ("", st.exclusive_cpus);
	EXPECT_EQ((uint32_t)CPUMGR_POLICY_STATIC, st.policy);
	cpumgr_table_free(&st);
	EXPECT_FALSE(exists(SFT_SYSFS "/pods/old"));
}

TEST_F(restore, overlapping_pods_refused_whole)
{
	char both[40];
	struct cpumgr_restore_entry e[] = {
		{ "p", "a", self->cpus.name[3], 0, NULL, NULL },
		{ "q", "a", self->cpus.name[5], 0, NULL, NULL },
		{ "r", "b", both, 0, NULL, NULL },
	};
	const struct cpumgr_nl_error *err;

	snprintf(both, sizeof(both), "%s,%s", self->cpus.name[4], self->cpus.name[5]);
	SFT_REFUSED(self->nl, EBUSY, cpumgr_nl_restore(self->nl, e, 3, NULL,
						       NULL));
	/* Same pod: allowed to share. */
	e[2].pod_uid = "q";
	EXPECT_EQ(0, cpumgr_nl_restore(self->nl, e, 3, NULL, NULL))
		TH_LOG("%s", cpumgr_nl_errmsg(self->nl));

	/* An entry overlapping the *old* table is no conflict: it goes. */
	ASSERT_EQ(0, cpumgr_nl_restore(self->nl, e, 1, NULL, NULL));

	/* One bad entry among good ones; the kernel blames it. */
	e[1].container = "Bad_Name";
	e[2].pod_uid = "r";
	e[2].cpus = self->cpus.name[6];
	SFT_REFUSED(self->nl, EILSEQ, cpumgr_nl_restore(self->nl, e, 3, NULL,
							NULL));
	EXPECT_EQ(-EILSEQ, cpumgr_nl_restore(self->nl, e, 3, NULL, NULL));
	err = cpumgr_nl_last_error(self->nl);
	EXPECT_EQ(CPUMGR_A_ASSIGNMENT, err->attr);
	EXPECT_EQ(1, err->entry);
	EXPECT_EQ(CPUMGR_A_CONTAINER, err->entry_attr);
}

TEST_HARNESS_MAIN
