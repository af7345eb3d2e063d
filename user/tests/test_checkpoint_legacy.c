// SPDX-License-Identifier: GPL-2.0
/*
 * The kubelet's legacy checkpoint, whole cpumgrctl processes: a
 * cpu_manager_state whose checksum is 0 or missing (the kubelet's old
 * file backend, which its VerifyChecksum() takes unverified) verifies,
 * imports, and is restored by the node from its state directory, each
 * time stored back with its checksum, as the kubelet's next save stores
 * it.  A wrong checksum is still refused.  The node: standin_node.h.
 */
#include "kselftest_harness.h"

#include "standin_node.h"
#include "test_util.h"

/* the kubelet's "Restore valid checkpoint" state, on 8 CPUs */
#define LEGACY_STATE "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-1,6-7\"," \
	"\"entries\":{\"pod\":{\"c1\":\"2-3\",\"c2\":\"4-5\"}}"

FIXTURE(legacy) {
	struct standin_node sn;
};

FIXTURE_SETUP(legacy)
{
	ASSERT_EQ(0, standin_node_init(&self->sn)) TH_LOG("%s", self->sn.out);
}

FIXTURE_TEARDOWN(legacy)
{
	standin_node_free(&self->sn);
}

/* The file stored with the kubelet's checksum, and the kernel's table. */
static void expect_restored(struct __test_metadata *_metadata,
			    const struct standin_node *sn)
{
	char *text = standin_file(sn, "state/cpu_manager_state");
	char *kernel = standin_file(sn, "kernel");

	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, kernel);
	EXPECT_STREQ(LEGACY_STATE ",\"checksum\":101890512}", text);
	CHECK(strstr(kernel, "a pod c1 2-3 0\n") && strstr(kernel, "a pod c2 4-5 0"),
	      "%s", kernel);
	free(text);
	free(kernel);
}

TEST_F(legacy, verify_and_import_take_a_zero_checksum)
{
	cJSON *j;

	fake_write(self->sn.dir, "legacy.json", LEGACY_STATE ",\"checksum\":0}");
	standin_run(&self->sn, "checkpoint verify", "legacy.json");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "valid: policy static, 2 assignments") &&
	      strstr(self->sn.out, "no checksum: the kubelet's old file backend"),
	      "%d %s", self->sn.status, self->sn.out);
	standin_run(&self->sn, "checkpoint verify --json", "legacy.json");
	j = cJSON_Parse(self->sn.out);
	CHECK(self->sn.status == 0 && j && cJSON_IsTrue(cJSON_GetObjectItem(j, "valid")) &&
	      !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "checksum")) ?: "",
		      "none"), "%d %s", self->sn.status, self->sn.out);
	cJSON_Delete(j);
	standin_run(&self->sn, "checkpoint import", "legacy.json");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "stored with one"),
	      "%d %s", self->sn.status, self->sn.out);
	expect_restored(_metadata, &self->sn);
}

TEST_F(legacy, a_wrong_checksum_is_still_refused)
{
	char *before = standin_file(&self->sn, "state/cpu_manager_state"), *after,
	     *table = standin_file(&self->sn, "kernel"), *kernel;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, table);
	fake_write(self->sn.dir, "legacy.json", LEGACY_STATE ",\"checksum\":1337}");
	standin_run(&self->sn, "checkpoint verify", "legacy.json");
	CHECK(self->sn.status == 2 && strstr(self->sn.out, "checkpoint is corrupted"),
	      "%d %s", self->sn.status, self->sn.out);
	standin_run(&self->sn, "checkpoint import", "legacy.json");
	CHECK(self->sn.status == 2 && strstr(self->sn.out, "checkpoint is corrupted"),
	      "%d %s", self->sn.status, self->sn.out);
	/* nothing changed */
	after = standin_file(&self->sn, "state/cpu_manager_state");
	kernel = standin_file(&self->sn, "kernel");
	EXPECT_STREQ(before, after);
	EXPECT_STREQ(table, kernel);
	free(before);
	free(table);
	free(after);
	free(kernel);
}

/* The node's own state directory: restored at the next sync, written back. */
TEST_F(legacy, the_node_restores_a_missing_checksum_and_writes_it)
{
	fake_write(self->sn.dir, "state/cpu_manager_state", LEGACY_STATE "}");
	standin_run(&self->sn, "reconcile", NULL);
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "no checksum") &&
	      strstr(self->sn.out, "restored 2 assignments"), "%d %s",
	      self->sn.status, self->sn.out);
	expect_restored(_metadata, &self->sn);
}

TEST_HARNESS_MAIN
