// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup of the pool goes back to inheriting its parent's CPUs when the
 * kernel moves the pool (node_set_cpuset_inherit()), on a fake tree.
 * Before Linux 7.0 the kernel refuses to empty a cpuset with tasks
 * (-ENOSPC, which /dev/full gives the write here): the cgroup then
 * names the pool (not its parent's CPUs, which hold a partition's to
 * come), said once in the log, and a second try changes nothing.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "fake_cgroup.h"
#include "node.h"
#include "node_internal.h"

#define CPUS "kp/pod/c/cpuset.cpus"

/* the empty write to c's cpuset.cpus refused, as by a kernel before 7.0 */
static bool refuse_empty;

static int refusing_open(const char *path, int flags)
{
	const char *tail = path + strlen(path) - strlen("/c/cpuset.cpus");

	if (refuse_empty && (flags & O_WRONLY) && tail > path &&
	    !strcmp(tail, "/c/cpuset.cpus")) {
		refuse_empty = false;
		return open("/dev/full", O_WRONLY | O_CLOEXEC);
	}
	return fake_open_file(path, flags);
}

static const struct cgroupfs_ops refusing_ops = {
	.open_file = refusing_open,
	.remove_dir = fake_remove_dir,
	.v1_root = fake_v1_root,
};

FIXTURE(inherit) {
	char dir[PATH_MAX], *log;
	size_t log_len;
	struct node n;
	struct cpuset pool;
	struct cm_error err;
};

FIXTURE_SETUP(inherit)
{
	fake_tree_new(self->dir, sizeof(self->dir));
	fake_write(self->dir, "kp/pod/cpuset.cpus.effective", "0-1,4-7\n");
	self->pool = (struct cpuset){ 0 };
	ASSERT_EQ(0, cpuset_parse(&self->pool, "0-1,4-5", NULL));
	fake_write(self->dir, CPUS, "2-3\n");
	memset(&self->n, 0, sizeof(self->n));
	self->n.log = open_memstream(&self->log, &self->log_len);
	ASSERT_NE(NULL, self->n.log);
	ASSERT_EQ(0, cgroupfs_init_ops(&self->n.cgroups.fs, self->dir, 2,
				       &refusing_ops, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
}

FIXTURE_TEARDOWN(inherit)
{
	fclose(self->n.log);
	free(self->log);
	fake_tree_free(self->dir);
	cm_error_clear(&self->err);
}

TEST_F(inherit, emptied_where_the_kernel_lets_it)
{
	bool changed;

	EXPECT_EQ(0, node_set_cpuset_inherit(&self->n, "kp/pod/c", &self->pool, &changed,
					     &self->err));
	EXPECT_TRUE(changed);
	EXPECT_STREQ("", fake_line(self->dir, CPUS));
	EXPECT_EQ(0, node_set_cpuset_inherit(&self->n, "kp/pod/c", &self->pool, &changed,
					     &self->err));
	EXPECT_FALSE(changed);
}

TEST_F(inherit, named_where_it_has_tasks_before_7_0)
{
	bool changed;

	refuse_empty = true;
	ASSERT_EQ(0, node_set_cpuset_inherit(&self->n, "kp/pod/c", &self->pool, &changed,
					     &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_TRUE(changed);
	EXPECT_STREQ("0-1,4-5", fake_line(self->dir, CPUS));
	fflush(self->n.log);
	EXPECT_NE(NULL, strstr(self->log, "kp/pod/c: cpuset.cpus 0-1,4-5, the pool's: it has tasks"))
		TH_LOG("%s", self->log);
	/* the next reconcile: refused again, nothing to write */
	refuse_empty = true;
	EXPECT_EQ(0, node_set_cpuset_inherit(&self->n, "kp/pod/c", &self->pool, &changed,
					     &self->err));
	EXPECT_FALSE(changed);
}

TEST_HARNESS_MAIN
