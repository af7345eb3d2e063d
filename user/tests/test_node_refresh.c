// SPDX-License-Identifier: GPL-2.0
/*
 * node_refresh() keeps the CPU list and topology it read while the
 * table moved only by this process's own generation-checked changes,
 * and reads them again after any other change.  Linked with
 * bench/kernel_standin.c in place of the netlink client, whose machine
 * ($CPUMGR_STANDIN_TOPOLOGY) the test changes under the node: a refresh
 * that reads the CPUs again sees the new machine, one that keeps them
 * does not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "fake_cgroup.h"
#include "node.h"
#include "node_internal.h"

FIXTURE(refresh) {
	char dir[PATH_MAX], table[PATH_MAX + 16];
	struct node n;
	struct cm_error err;
};

FIXTURE_SETUP(refresh)
{
	FILE *f;
	int closed;

	fake_tree_new(self->dir, sizeof(self->dir));
	snprintf(self->table, sizeof(self->table), "%s/kernel", self->dir);
	f = fopen(self->table, "w");
	ASSERT_NE(NULL, f);
	fputs("generation 5 policy 1 options 0 enforce 0 hotplug 0\nreserved 0\nroot \n",
	      f);
	closed = fclose(f);
	ASSERT_EQ(0, closed);
	setenv("CPUMGR_STANDIN", self->table, 1);
	/* 1 socket, 1 NUMA node, 4 cores, 2 threads: 8 CPUs */
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 4 2", 1);
	memset(&self->err, 0, sizeof(self->err));
	ASSERT_EQ(0, node_open(&self->n, self->dir, NODE_NO_SYNC, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	ASSERT_EQ(8u, self->n.kernel.nr_cpus);
}

FIXTURE_TEARDOWN(refresh)
{
	node_close(&self->n);
	fake_tree_free(self->dir);
	cm_error_clear(&self->err);
}

/* Assign 2-3 expecting the generation read, as admit does. */
static int own_assign(struct node *n)
{
	uint64_t expect = n->kernel.table.generation, gen = expect;
	int ret = cpumgr_nl_assign(n->kernel.nl, "uid-1", "app", "2-3", 0,
				   &expect, &gen, NULL);

	if (!ret)
		node_own_change(n, expect, gen);
	return ret;
}

TEST_F(refresh, own_change_keeps_the_cpus)
{
	const struct topology *before = self->n.kernel.topo;

	ASSERT_EQ(0, own_assign(&self->n));
	/* the machine "changed", but no generation but ours came in between */
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 8 2", 1);
	ASSERT_EQ(0, node_refresh(&self->n, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_EQ(8u, self->n.kernel.nr_cpus);
	EXPECT_EQ(before, self->n.kernel.topo);
	EXPECT_EQ(6u, self->n.kernel.table.generation);
	EXPECT_NE(NULL, node_assignment(&self->n, "uid-1", "app"));
}

TEST_F(refresh, other_change_reads_them_again)
{
	struct cpumgr_config cfg = { .set = CPUMGR_CFG_ENFORCE, .enforce = 1 };
	struct cpumgr_nl *other;
	int e;

	ASSERT_EQ(0, own_assign(&self->n));
	/* another process's change, and a CPU list that is not the same */
	other = cpumgr_nl_open(&e, NULL);
	ASSERT_NE(NULL, other);
	ASSERT_EQ(0, cpumgr_nl_configure(other, &cfg, NULL, NULL));
	cpumgr_nl_close(other);
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 8 2", 1);
	ASSERT_EQ(0, node_refresh(&self->n, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_EQ(16u, self->n.kernel.nr_cpus);
	EXPECT_EQ(16u, cpuset_count(&self->n.kernel.topo->cpus));
}

/* A change made without an expected generation vouches for nothing. */
TEST_F(refresh, unchecked_change_reads_them_again)
{
	ASSERT_EQ(0, cpumgr_nl_assign(self->n.kernel.nl, "uid-1", "app", "2-3",
				      0, NULL, NULL, NULL));
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 8 2", 1);
	ASSERT_EQ(0, node_refresh(&self->n, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_EQ(16u, self->n.kernel.nr_cpus);
}

TEST_HARNESS_MAIN
