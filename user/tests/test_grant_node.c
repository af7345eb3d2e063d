// SPDX-License-Identifier: GPL-2.0
/*
 * CPUs a container gains leave every other cgroup before the ASSIGN that
 * gives them (node_withhold(); issue 32, item 5), on the tree stand-in with
 * CPUMGR_STANDIN_GRANTS: it checks every ASSIGN as the kernel checks one
 * with CPUMGR_A_NARROWED, every cgroup counting as having tasks, and
 * refuses it where another cgroup still names a CPU it gives.  A
 * Guaranteed pod g1 admitted and attached first, then a Burstable one
 * whose container web runs on the shared pool: a second Guaranteed pod
 * admitted then, and g1's container grown, both take CPUs web holds.
 */
#include "kselftest_harness.h"

#include "standin_node.h"
#include "test_util.h"

#define WEB	"cg/kubepods/burstable/podb1/web/cpuset.cpus"

#define rig standin_node
#define run standin_runf

FIXTURE(grant) {
	struct rig r;
};

FIXTURE_SETUP(grant)
{
	struct rig *r = &self->r;

	ASSERT_EQ(0, standin_tree_new(r));
	setenv("CPUMGR_STANDIN_GRANTS", "1", 1);
	ASSERT_EQ(0, standin_tree_init(r)) TH_LOG("%s", r->out);
	fake_write(r->dir, "g2.json",
		   "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"g2\",\"uid\":\"g2\"},"
		   "\"spec\":{\"containers\":[{\"name\":\"db\",\"resources\":{"
		   "\"requests\":{\"cpu\":\"2\",\"memory\":\"1Gi\"},"
		   "\"limits\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}}]}}");
	run(r, "admit g.json");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	run(r, "attach --pod g1 --container app --cgroup podg1/app --pod-cgroup podg1 --create");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	run(r, "admit b.json");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	run(r, "attach --pod b1 --container web --cgroup burstable/podb1/web --pod-cgroup burstable/podb1 --create");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
}

FIXTURE_TEARDOWN(grant)
{
	unsetenv("CPUMGR_STANDIN_GRANTS");
	fake_tree_free(self->r.dir);
}

/*
 * web runs on every CPU but g1's, the reserved ones too (shared but under
 * strict-cpu-reservation): g2's come from it
 */
TEST_F(grant, admission_narrows_first)
{
	struct rig *r = &self->r;
	struct cpuset web = standin_cpus(r, WEB), db;
	char *kernel, *line, cpus[64];

	ASSERT_EQ(14, (int)cpuset_count(&web)) TH_LOG("%s", fake_read(r->dir, WEB));
	run(r, "admit g2.json");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	kernel = standin_file(r, "kernel");
	ASSERT_TRUE(kernel != NULL);
	/* "a UID CONTAINER CPUS FLAGS ..." */
	line = strstr(kernel, "a g2 db ");
	ASSERT_TRUE(line != NULL) TH_LOG("%s", kernel);
	ASSERT_EQ(1, sscanf(line + 8, "%63s", cpus));
	ASSERT_EQ(0, cpuset_parse(&db, cpus, NULL));
	free(kernel);
	web = standin_cpus(r, WEB);
	EXPECT_FALSE(cpuset_intersects(&web, &db)) TH_LOG("%s", fake_read(r->dir, WEB));
}

TEST_F(grant, grow_narrows_first)
{
	struct rig *r = &self->r;

	run(r, "resize g1 app 4");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	EXPECT_STREQ("2-3,10-11", fake_read(r->dir, "cg/kubepods/podg1/app/cpuset.cpus"));
	EXPECT_STREQ("0-1,4-9,12-15", fake_read(r->dir, WEB));
}

/*
 * The stand-in's check can refuse: a cgroup in a pod that no container
 * of the node's is bound to, which the controller leaves as it is.
 */
TEST_F(grant, a_cgroup_left_holding_refuses)
{
	struct rig *r = &self->r;

	fake_mkdir(r->dir, "cg/kubepods/burstable/podb1/stray");
	fake_write(r->dir, "cg/kubepods/burstable/podb1/stray/cpuset.cpus",
		   "2-15\n");
	run(r, "admit g2.json");
	EXPECT_NE(0, r->status);
	CHECK(strstr(r->out, "CPU still held by a cgroup with tasks") != NULL,
	      "%s", r->out);
}

/* a module loaded before the flag was: the ASSIGN unchecked, and said */
TEST_F(grant, old_module_assigns_unchecked)
{
	struct rig *r = &self->r;

	setenv("CPUMGR_STANDIN_NO_NARROWED", "1", 1);
	run(r, "admit g2.json");
	unsetenv("CPUMGR_STANDIN_NO_NARROWED");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	CHECK(strstr(r->out, "g2/db: the loaded module cannot check that the others let go of its CPUs (reload it): assigned unchecked") != NULL,
	      "%s", r->out);
	CHECK(strstr(r->out, "g2 db exclusive") != NULL, "%s", r->out);
}

TEST_HARNESS_MAIN
