// SPDX-License-Identifier: GPL-2.0
/*
 * Where the kubelets 1.32 to 1.37 differ (kubelet_version.h): version
 * names, the checkpoint each writes, its option levels with the
 * kubelet's CheckPolicyOptionAvailable() texts, the NUMA floor.
 */
#include <string.h>

#include "kselftest_harness.h"

#include "kubelet_version.h"
#include "test_util.h"

TEST(version_names)
{
	static const struct {
		const char *s;
		int minor;	/* 0: refused */
	} cases[] = {
		{ "1.37", 37 }, { "v1.37", 37 }, { "1.36.4", 36 },
		{ "v1.32.0-rc.1", 32 }, { "1.31", 0 }, { "1.38", 0 },
		{ "2.0", 0 }, { "1.", 0 }, { "1.37x", 0 }, { "", 0 },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int minor = 0, ret = kubelet_version_parse(cases[i].s, &minor,
							   &err);

		CHECK(cases[i].minor ? !ret && minor == cases[i].minor : ret,
		      "%s: %d %d %s", cases[i].s, ret, minor,
		      cm_error_msg(&err));
		cm_error_clear(&err);
	}
	kubelet_version_parse("1.38", &(int){ 0 }, &err);
	EXPECT_STREQ("kubelet version 1.38: cpumgr matches kubelets 1.32 to 1.37",
		     cm_error_msg(&err));
	cm_error_clear(&err);
}

TEST(checkpoint_version_of_each)
{
	for (int m = 32; m <= 35; m++) {
		EXPECT_EQ(CHECKPOINT_V2, (int)kubelet_checkpoint_version(m, false));
		EXPECT_EQ(CHECKPOINT_V2, (int)kubelet_checkpoint_version(m, true));
	}
	EXPECT_EQ(CHECKPOINT_V2, (int)kubelet_checkpoint_version(36, false));
	EXPECT_EQ(CHECKPOINT_V3, (int)kubelet_checkpoint_version(36, true));
	EXPECT_EQ(CHECKPOINT_V4, (int)kubelet_checkpoint_version(37, false));
	EXPECT_EQ(CHECKPOINT_V4, (int)kubelet_checkpoint_version(37, true));
}

TEST(option_levels)
{
	struct policy_options o = { .prefer_uncore = true };
	struct cm_error err = { 0 };

	/* alpha in 1.33, beta in 1.34, GA in 1.36: no gate at all */
	EXPECT_NE(0, kubelet_check_options(33, &o, false, true, &err));
	EXPECT_STREQ("CPU Manager Policy Alpha-level Options not enabled, but option \"prefer-align-cpus-by-uncorecache\" provided",
		     cm_error_msg(&err));
	cm_error_clear(&err);
	EXPECT_EQ(0, kubelet_check_options(33, &o, true, true, &err));
	EXPECT_NE(0, kubelet_check_options(35, &o, false, false, &err));
	EXPECT_STREQ("CPU Manager Policy Beta-level Options not enabled, but option \"prefer-align-cpus-by-uncorecache\" provided",
		     cm_error_msg(&err));
	cm_error_clear(&err);
	EXPECT_EQ(0, kubelet_check_options(36, &o, false, false, &err));

	o = (struct policy_options){ .distribute_numa = true };
	EXPECT_NE(0, kubelet_check_options(32, &o, false, true, &err));
	cm_error_clear(&err);
	EXPECT_EQ(0, kubelet_check_options(33, &o, false, true, &err));
	o = (struct policy_options){ .strict_reservation = true };
	EXPECT_NE(0, kubelet_check_options(34, &o, false, false, &err));
	cm_error_clear(&err);
	EXPECT_EQ(0, kubelet_check_options(35, &o, false, false, &err));
	o = (struct policy_options){ .align_by_socket = true };
	EXPECT_NE(0, kubelet_check_options(37, &o, false, true, &err));
	cm_error_clear(&err);
	/* no kubelet named: cpumgr takes every option */
	EXPECT_EQ(0, kubelet_check_options(0, &o, false, false, &err));
}

TEST(numa_floor_from_137)
{
	EXPECT_FALSE(kubelet_numa_hint_floor(36));
	EXPECT_TRUE(kubelet_numa_hint_floor(37));
	EXPECT_TRUE(kubelet_numa_hint_floor(0));
}

TEST_HARNESS_MAIN
