// SPDX-License-Identifier: GPL-2.0
/*
 * What the atomic file writer syncs: the checkpoint's way (the file, then
 * its directory after the rename) unless told not to, which the counters
 * and the metrics file are; a directory made for records, or the state
 * directory and its parents, syncs its parent.  fsync() is counted here
 * by defining it in the test: the library's calls bind to this one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "atomic_file.h"
#include "checkpoint.h"
#include "fake_cgroup.h"
#include "metrics.h"
#include "node.h"
#include "test_util.h"

static unsigned int fsyncs;

int fsync(int fd)
{
	fsyncs++;
	return (int)syscall(SYS_fsync, fd);
}

TEST(durable_write_syncs_file_and_directory)
{
	struct cm_error err = { 0 };
	char dir[PATH_MAX], path[PATH_MAX];
	struct stat st;

	fake_tree_new(dir, sizeof(dir));
	fsyncs = 0;
	ASSERT_EQ(0, atomic_file_write(dir, "f", "one", 3, 0644, 0, &err));
	EXPECT_EQ(2u, fsyncs);
	EXPECT_STREQ("one", fake_read(dir, "f"));
	xsnprintf(path, sizeof(path), "%s/f", dir);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0644u, st.st_mode & 0777u);
	EXPECT_EQ(1u, fake_count_entries(dir));
	fake_tree_free(dir);
}

TEST(no_sync_write_replaces_without_syncing)
{
	struct cm_error err = { 0 };
	char dir[PATH_MAX];

	fake_tree_new(dir, sizeof(dir));
	fake_write(dir, "f", "old");
	fsyncs = 0;
	ASSERT_EQ(0, atomic_file_write(dir, "f", "new", 3, 0644,
				       ATOMIC_FILE_NO_SYNC, &err));
	EXPECT_EQ(0u, fsyncs);
	EXPECT_STREQ("new", fake_read(dir, "f"));
	EXPECT_EQ(1u, fake_count_entries(dir));
	/* a directory in the way: refused, nothing left behind */
	fake_mkdir(dir, "d");
	EXPECT_EQ(-EISDIR, atomic_file_write(dir, "d", "x", 1, 0644,
					     ATOMIC_FILE_NO_SYNC, &err));
	EXPECT_EQ(2u, fake_count_entries(dir));
	fake_tree_free(dir);
	cm_error_clear(&err);
}

TEST(mkdir_syncs_the_parent_once)
{
	struct cm_error err = { 0 };
	char dir[PATH_MAX], sub[PATH_MAX], deep[PATH_MAX];

	fake_tree_new(dir, sizeof(dir));
	xsnprintf(sub, sizeof(sub), "%s/pods", dir);
	fsyncs = 0;
	ASSERT_EQ(0, atomic_file_mkdir(sub, 0755, &err));
	EXPECT_EQ(1u, fsyncs);
	EXPECT_TRUE(fake_exists(dir, "pods"));
	/* there already: nothing to make durable */
	ASSERT_EQ(0, atomic_file_mkdir(sub, 0755, &err));
	EXPECT_EQ(1u, fsyncs);
	xsnprintf(deep, sizeof(deep), "%s/missing/pods", dir);
	EXPECT_EQ(-ENOENT, atomic_file_mkdir(deep, 0755, &err));
	EXPECT_NE(NULL, strstr(cm_error_msg(&err), "cannot create"));
	EXPECT_EQ(1u, fsyncs);
	fake_tree_free(dir);
	cm_error_clear(&err);
}

TEST(state_directory_made_with_its_parents_synced)
{
	struct cm_error err = { 0 };
	struct checkpoint_store st;
	char dir[PATH_MAX], state[PATH_MAX];

	fake_tree_new(dir, sizeof(dir));
	xsnprintf(state, sizeof(state), "%s/var/cpumgr", dir);
	fsyncs = 0;
	ASSERT_EQ(0, checkpoint_store_open(&st, state, NULL, true, &err));
	checkpoint_store_close(&st);
	/* two directories made, each parent synced once */
	EXPECT_EQ(2u, fsyncs);
	EXPECT_TRUE(fake_exists(dir, "var/cpumgr"));
	fsyncs = 0;
	ASSERT_EQ(0, checkpoint_store_open(&st, state, NULL, true, &err));
	checkpoint_store_close(&st);
	EXPECT_EQ(0u, fsyncs);
	fake_tree_free(dir);
}

TEST(counters_and_metrics_are_not_synced)
{
	struct cm_error err = { 0 };
	struct node_counters c;
	char dir[PATH_MAX], path[PATH_MAX];
	static struct node n;

	fake_tree_new(dir, sizeof(dir));
	xsnprintf(n.files.dir, sizeof(n.files.dir), "%s", dir);
	fsyncs = 0;
	ASSERT_EQ(0, node_counters_add(&n, 3, 1, &err));
	ASSERT_EQ(0, node_counters_add(&n, 2, 0, &err));
	xsnprintf(path, sizeof(path), "%s/cpumgr.prom", dir);
	ASSERT_EQ(0, prom_write_file(path, "a 1\n", &err));
	EXPECT_EQ(0u, fsyncs);
	ASSERT_EQ(0, node_counters_load(&n, &c));
	EXPECT_EQ(5u, c.pinning_requests);
	EXPECT_EQ(1u, c.pinning_errors);
	/* what a power loss may leave: an empty file, counted from zero */
	fake_write(dir, NODE_COUNTERS_FILE, "");
	ASSERT_EQ(0, node_counters_add(&n, 1, 0, &err));
	ASSERT_EQ(0, node_counters_load(&n, &c));
	EXPECT_EQ(1u, c.pinning_requests);
	EXPECT_EQ(0u, c.pinning_errors);
	/* the state directory's other files keep both syncs */
	fsyncs = 0;
	ASSERT_EQ(0, node_write_file(dir, NODE_CONFIG_FILE, "{}", 2, &err));
	EXPECT_EQ(2u, fsyncs);
	fake_tree_free(dir);
}

TEST_HARNESS_MAIN
