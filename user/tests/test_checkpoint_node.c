// SPDX-License-Identifier: GPL-2.0
/*
 * The checkpoint versions in a node, whole cpumgrctl processes on the
 * stand-in kernel (standin_node.h: 8 CPUs, static, 0-1 reserved): init
 * --kubelet-version writes the kubelet's version; an imported v4's pod
 * pool is kept in the node's checkpoint, out of the default set, through
 * later opens; the v4 the node writes is byte for byte the one imported
 * (built by the kubelet's rules, its checksums computed apart from
 * cpumgr's code: test_checkpoint_v4.c's head says how); a 1.37 node
 * admits a pod pool and keeps it there.
 */
#include "kselftest_harness.h"

#include "standin_node.h"
#include "test_util.h"

/* 1.37's file for "static", every CPU shared */
#define V4_EMPTY "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-7\",\"checksum\":14413152," \
	"\"data\":\"{\\\"policyName\\\":\\\"static\\\",\\\"defaultCpuSet\\\":\\\"0-7\\\"}\"," \
	"\"dataChecksum\":3294586087}"

/* pod's pool 2-5: c1's slice 2-3, 4-5 shared in the pod */
#define V4_POOL "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-1,6-7\",\"entries\":" \
	"{\"pod\":{\"c1\":\"2-3\"}},\"checksum\":597235251,\"data\":\"{\\\"policyName\\\":" \
	"\\\"static\\\",\\\"defaultCpuSet\\\":\\\"0-1,6-7\\\",\\\"entries\\\":{\\\"pod\\\":" \
	"{\\\"c1\\\":\\\"2-3\\\"}},\\\"podEntries\\\":{\\\"pod\\\":{\\\"cpuSet\\\":\\\"2-5\\\"}}}\"," \
	"\"dataChecksum\":1709627508}"

FIXTURE(versions) {
	struct standin_node sn;
};

FIXTURE_SETUP(versions)
{
	ASSERT_EQ(0, standin_node_init(&self->sn)) TH_LOG("%s", self->sn.out);
}

FIXTURE_TEARDOWN(versions)
{
	standin_node_free(&self->sn);
}

static void init_as(struct standin_node *sn, const char *extra)
{
	char args[PATH_MAX];
	struct statfs fs;

	xsnprintf(args, sizeof(args),
		  "init --cpu-manager-policy static --reserved-cpus 0-1 --cgroup-root %s %s",
		  !statfs("/sys/fs/cgroup", &fs) && fs.f_type == CGROUP2_SUPER_MAGIC ?
		  "/sys/fs/cgroup" : "/sys/fs/cgroup/cpuset", extra);
	standin_run(sn, args, NULL);
}

TEST_F(versions, init_writes_the_kubelets_version)
{
	char *text, *cfg;

	init_as(&self->sn, "--kubelet-version 1.37");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "kubelet 1.37: checkpoint v4"),
	      "%d %s", self->sn.status, self->sn.out);
	text = standin_file(&self->sn, "state/cpu_manager_state");
	cfg = standin_file(&self->sn, "state/config.json");
	EXPECT_STREQ(V4_EMPTY, text ?: "");
	CHECK(cfg && strstr(cfg, "\"kubeletVersion\":\t\"1.37\"") &&
	      strstr(cfg, "\"checkpointVersion\":\t\"v4\""), "%s", cfg ?: "");
	free(text);
	free(cfg);
	/* without a kubelet named: v2 again */
	init_as(&self->sn, "");
	text = standin_file(&self->sn, "state/cpu_manager_state");
	EXPECT_STREQ("{\"policyName\":\"static\",\"defaultCpuSet\":\"0-7\",\"checksum\":14413152}",
		     text ?: "");
	free(text);
	/* 1.32 did not have strict-cpu-reservation on without its alpha gate */
	init_as(&self->sn, "--kubelet-version 1.32 --cpu-manager-policy-options strict-cpu-reservation=true");
	CHECK(self->sn.status == 2 &&
	      strstr(self->sn.out, "CPU Manager Policy Alpha-level Options not enabled, but option \"strict-cpu-reservation\" provided"),
	      "%d %s", self->sn.status, self->sn.out);
}

TEST_F(versions, an_imported_pod_pool_stays)
{
	char *text, *kernel;

	init_as(&self->sn, "--kubelet-version 1.37");
	ASSERT_EQ(0, self->sn.status);
	fake_write(self->sn.dir, "v4.json", V4_POOL);
	standin_run(&self->sn, "checkpoint verify", "v4.json");
	CHECK(self->sn.status == 0 &&
	      strstr(self->sn.out, "valid: policy static, 1 assignment, 1 pod pool (v4)"),
	      "%d %s", self->sn.status, self->sn.out);
	standin_run(&self->sn, "checkpoint import", "v4.json");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "pod pools kept"),
	      "%d %s", self->sn.status, self->sn.out);
	text = standin_file(&self->sn, "state/cpu_manager_state");
	kernel = standin_file(&self->sn, "kernel");
	EXPECT_STREQ(V4_POOL, text ?: "");
	CHECK(kernel && strstr(kernel, "a pod c1 2-3 0\n"), "%s", kernel ?: "");
	free(text);
	free(kernel);
	/* another process, another save: the pool is still there */
	standin_run(&self->sn, "reconcile", NULL);
	EXPECT_EQ(0, self->sn.status);
	text = standin_file(&self->sn, "state/cpu_manager_state");
	EXPECT_STREQ(V4_POOL, text ?: "");
	free(text);
	standin_run(&self->sn, "checkpoint export", NULL);
	CHECK(strstr(self->sn.out, "podEntries"), "%s", self->sn.out);
}

#define POOL_POD "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":" \
	"{\"uid\":\"pp\",\"name\":\"pool\",\"namespace\":\"d\"},\"spec\":" \
	"{\"resources\":{\"limits\":{\"cpu\":\"4\",\"memory\":\"1G\"}},\"containers\":" \
	"[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"2\",\"memory\":\"512M\"}}}," \
	"{\"name\":\"log\"}]}}"

/*
 * A 1.37 node admits a pod with pod-level resources the kubelet's way
 * (KEP-5526): a pool of 4, app's slice in the kernel, log on the rest of
 * the pool, the pool in the checkpoint's podEntries; a v2 node (its
 * kubelet's gate off) leaves both on the shared pool.
 */
TEST_F(versions, an_admitted_pod_pool)
{
	char *text, *kernel;

	init_as(&self->sn, "--kubelet-version 1.37");
	ASSERT_EQ(0, self->sn.status);
	fake_write(self->sn.dir, "pod.json", POOL_POD);
	standin_run(&self->sn, "admit", "pod.json");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "pp (pod pool) 2-3,6-7") &&
	      strstr(self->sn.out, "pp app exclusive 2,6") &&
	      strstr(self->sn.out, "pp log pod-shared 3,7"),
	      "%d %s", self->sn.status, self->sn.out);
	kernel = standin_file(&self->sn, "kernel");
	CHECK(kernel && strstr(kernel, "a pp app 2,6 0\n") &&
	      strstr(kernel, "a pp log 3,7 0\n") &&
	      strstr(kernel, "p pp 2-3,6-7\n"), "%s", kernel ?: "");
	text = standin_file(&self->sn, "state/cpu_manager_state");
	CHECK(text && strstr(text, "\"defaultCpuSet\":\"0-1,4-5\"") &&
	      strstr(text, "\\\"podEntries\\\":{\\\"pp\\\":{\\\"cpuSet\\\":\\\"2-3,6-7\\\"}}"),
	      "%s", text ?: "");
	free(text);
	free(kernel);
	/* a slice gone stays the pod's; the pool goes with the last one */
	standin_run(&self->sn, "remove pp app", NULL);
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "released CPUs (none)"),
	      "%d %s", self->sn.status, self->sn.out);
	standin_run(&self->sn, "remove pp log", NULL);
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "released CPUs 2-3,6-7"),
	      "%d %s", self->sn.status, self->sn.out);
	init_as(&self->sn, "");
	standin_run(&self->sn, "admit", "pod.json");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "pp app shared 0-7"),
	      "%d %s", self->sn.status, self->sn.out);
}

/*
 * A pool's sharers cannot each be a partition of its rest: a node whose
 * pool moves by partitions refuses a pod pool, says why, and changes
 * nothing (the tree stand-in, which has cpuset.cpus.exclusive).
 */
TEST(a_pool_where_partitions_move_the_pool)
{
	struct standin_node sn;
	char *kernel;

	ASSERT_EQ(0, standin_tree_new(&sn));
	fake_mkdir(sn.dir, "cg/kubepods");
	fake_write(sn.dir, "cg/kubepods/cpuset.cpus.exclusive", "\n");
	standin_runf(&sn, "init --cpu-manager-policy static --reserved-cpus 0-1 "
		     "--cgroup-mount %s/cg --cgroup-root %s/cg/kubepods "
		     "--kubelet-version 1.37 --pool-moves partitions",
		     sn.dir, sn.dir);
	ASSERT_EQ(0, sn.status) TH_LOG("%s", sn.out);
	fake_write(sn.dir, "pod.json", POOL_POD);
	standin_runf(&sn, "admit pod.json");
	CHECK(sn.status != 0 &&
	      strstr(sn.out, "a pod pool (pod-level resources, KEP-5526) and --pool-moves partitions do not go together"),
	      "%d %s", sn.status, sn.out);
	kernel = standin_file(&sn, "kernel");
	CHECK(kernel && !strstr(kernel, "\na ") && !strstr(kernel, "\np "),
	      "%s", kernel ?: "");
	free(kernel);
	fake_tree_free(sn.dir);
}

/* A v2 node cannot write pools: it says so. */
TEST_F(versions, a_v2_node_says_it_drops_pools)
{
	fake_write(self->sn.dir, "v4.json", V4_POOL);
	standin_run(&self->sn, "checkpoint import", "v4.json");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "pod pools dropped"),
	      "%d %s", self->sn.status, self->sn.out);
}

TEST_HARNESS_MAIN
