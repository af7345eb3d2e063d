// SPDX-License-Identifier: GPL-2.0
/*
 * The kubelet's legacy checkpoint, whole cpumgrctl processes: a
 * cpu_manager_state whose checksum is 0 or missing (the kubelet's old
 * file backend, which its VerifyChecksum() takes unverified) verifies,
 * imports, and is restored by the node from its state directory, each
 * time stored back with its checksum, as the kubelet's next save stores
 * it.  A wrong checksum is still refused.  The cpumgrctl is
 * bench/cpumgrctl-standin (kernel_standin.c for the module), on an
 * 8-CPU machine; the managed cgroup root is the hierarchy's root and no
 * container is attached, so no cgroup of this host is written.
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/magic.h>

#include "kselftest_harness.h"

#include "fake_cgroup.h"
#include "json_util.h"
#include "test_util.h"

/* the kubelet's "Restore valid checkpoint" state, on 8 CPUs */
#define LEGACY_STATE "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-1,6-7\"," \
	"\"entries\":{\"pod\":{\"c1\":\"2-3\",\"c2\":\"4-5\"}}"
#define EMPTY_KERNEL "generation 1 policy 1 options 0 enforce 2 hotplug 0\n" \
	"reserved 0-1\nroot \n"

FIXTURE(legacy) {
	char dir[PATH_MAX], ctl[PATH_MAX], out[8192];
	int status;
};

/* cpumgrctl-standin VERB [FILE in the test's directory] --state-dir ... */
static void run(struct __test_metadata *_metadata,
		FIXTURE_DATA(legacy) *self, const char *verb, const char *file)
{
	char cmd[4 * PATH_MAX];
	size_t len;
	FILE *p;

	xsnprintf(cmd, sizeof(cmd), "'%s' %s %s%s%s --state-dir '%s/state' 2>&1",
		  self->ctl, verb, file ? self->dir : "", file ? "/" : "",
		  file ?: "", self->dir);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	len = fread(self->out, 1, sizeof(self->out) - 1, p);
	self->out[len] = '\0';
	self->status = WEXITSTATUS(pclose(p));
}

static char *state_file(FIXTURE_DATA(legacy) *self, const char *name)
{
	char path[PATH_MAX];
	size_t len;
	char *text;
	FILE *f;

	xsnprintf(path, sizeof(path), "%s/%s", self->dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	text = file_slurp(f, &len);
	fclose(f);
	return text;
}

FIXTURE_SETUP(legacy)
{
	char exe[PATH_MAX], args[PATH_MAX + 128];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct statfs fs;

	ASSERT_LT(0, n);
	exe[n] = '\0';
	/* build/user/tests/test_x -> build/user/bench/cpumgrctl-standin */
	xsnprintf(self->ctl, sizeof(self->ctl), "%s/../bench/cpumgrctl-standin",
		  dirname(exe));
	fake_tree_new(self->dir, sizeof(self->dir));
	fake_write(self->dir, "kernel", EMPTY_KERNEL);
	xsnprintf(exe, sizeof(exe), "%s/kernel", self->dir);
	setenv("CPUMGR_STANDIN", exe, 1);
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 4 2", 1);
	xsnprintf(args, sizeof(args),
		  "init --cpu-manager-policy static --reserved-cpus 0-1 --cgroup-root %s",
		  !statfs("/sys/fs/cgroup", &fs) && fs.f_type == CGROUP2_SUPER_MAGIC ?
		  "/sys/fs/cgroup" : "/sys/fs/cgroup/cpuset");
	run(_metadata, self, args, NULL);
	ASSERT_EQ(0, self->status) TH_LOG("%s", self->out);
}

FIXTURE_TEARDOWN(legacy)
{
	fake_tree_free(self->dir);
}

/* The file stored with the checksum the kubelet computes, and the kernel's table. */
static void expect_restored(struct __test_metadata *_metadata,
			    FIXTURE_DATA(legacy) *self)
{
	char *text = state_file(self, "state/cpu_manager_state");
	char *kernel = state_file(self, "kernel");

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

	fake_write(self->dir, "legacy.json", LEGACY_STATE ",\"checksum\":0}");
	run(_metadata, self, "checkpoint verify", "legacy.json");
	CHECK(self->status == 0 && strstr(self->out, "valid: policy static, 2 assignments") &&
	      strstr(self->out, "no checksum: the kubelet's old file backend"),
	      "%d %s", self->status, self->out);
	run(_metadata, self, "checkpoint verify --json", "legacy.json");
	j = cJSON_Parse(self->out);
	CHECK(self->status == 0 && j && cJSON_IsTrue(cJSON_GetObjectItem(j, "valid")) &&
	      !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "checksum")) ?: "",
		      "none"), "%d %s", self->status, self->out);
	cJSON_Delete(j);
	run(_metadata, self, "checkpoint import", "legacy.json");
	CHECK(self->status == 0 && strstr(self->out, "stored with one"),
	      "%d %s", self->status, self->out);
	expect_restored(_metadata, self);
}

TEST_F(legacy, a_wrong_checksum_is_still_refused)
{
	char *before = state_file(self, "state/cpu_manager_state"), *after,
	     *table = state_file(self, "kernel"), *kernel;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, table);
	fake_write(self->dir, "legacy.json", LEGACY_STATE ",\"checksum\":1337}");
	run(_metadata, self, "checkpoint verify", "legacy.json");
	CHECK(self->status == 2 && strstr(self->out, "checkpoint is corrupted"),
	      "%d %s", self->status, self->out);
	run(_metadata, self, "checkpoint import", "legacy.json");
	CHECK(self->status == 2 && strstr(self->out, "checkpoint is corrupted"),
	      "%d %s", self->status, self->out);
	/* nothing changed */
	after = state_file(self, "state/cpu_manager_state");
	kernel = state_file(self, "kernel");
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
	fake_write(self->dir, "state/cpu_manager_state", LEGACY_STATE "}");
	run(_metadata, self, "reconcile", NULL);
	CHECK(self->status == 0 && strstr(self->out, "no checksum") &&
	      strstr(self->out, "restored 2 assignments"), "%d %s",
	      self->status, self->out);
	expect_restored(_metadata, self);
}

TEST_HARNESS_MAIN
