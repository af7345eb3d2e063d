// SPDX-License-Identifier: GPL-2.0
/*
 * The node's system partition (KEP-5894), through whole
 * cpumgrctl processes (bench/cpumgrctl-standin-tree: the stand-in
 * kernel and a cgroup tree of directories) on an 8-CPU machine (4
 * cores, 2 threads), the static policy with CPUs 0-1 reserved.
 *
 * init takes the partition's CPUs (reserved ones only, with a managed
 * root) and makes the system cgroup with them, or takes them from a
 * system cgroup the kubelet made; it keeps the namespaces of before, and
 * refuses a change that would reclassify a recorded pod.  A kube-system
 * pod that asks for exclusive CPUs gets none: placed below the system
 * cgroup its containers run on the partition's, elsewhere on the pool;
 * another pod's exclusive container is not attached there.  Narrowing
 * gives the system cgroup's tree the partition's CPUs, never the pool.
 */

#include "kselftest_harness.h"

#include "fake_cgroup.h"
#include "standin_node.h"
#include "test_util.h"

FIXTURE(sys) {
	struct standin_node sn;
};

#define run(self, ...) \
	(standin_runf(&(self)->sn, __VA_ARGS__), (self)->sn.status)

#define INIT "init --cpu-manager-policy static --reserved-cpus 0-1 " \
	"--cgroup-mount '%s/cgroup' --cgroup-root '%s/cgroup/kubepods' "

static int init(FIXTURE_DATA(sys) *self, const char *more)
{
	return run(self, INIT "%s", self->sn.dir, self->sn.dir, more);
}

FIXTURE_SETUP(sys)
{
	ASSERT_EQ(0, standin_tree_new(&self->sn));
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 4 2", 1);
	fake_mkdir(self->sn.dir, "cgroup/kubepods");
}

FIXTURE_TEARDOWN(sys)
{
	fake_tree_free(self->sn.dir);
}

#define V(rel)	fake_line(self->sn.dir, rel)

/* The shared pool, as the kernel's table has it. */
static const char *shared(FIXTURE_DATA(sys) *self)
{
	static char buf[256];
	cJSON *j;

	standin_runf(&self->sn, "status --json");
	j = cJSON_Parse(self->sn.out);
	xsnprintf(buf, sizeof(buf), "%s",
		  cJSON_GetStringValue(cJSON_GetObjectItem(j, "sharedCpus")) ?: "?");
	cJSON_Delete(j);
	return buf;
}

/* The system cgroup the kernel's table was told, relative to dir. */
static const char *told(FIXTURE_DATA(sys) *self)
{
	static char buf[PATH_MAX];
	const char *v;
	cJSON *j;

	standin_runf(&self->sn, "status --json");
	j = cJSON_Parse(self->sn.out);
	v = cJSON_GetStringValue(cJSON_GetObjectItem(j, "systemCgroup")) ?: "?";
	if (!strncmp(v, self->sn.dir, strlen(self->sn.dir)))
		v += strlen(self->sn.dir);
	xsnprintf(buf, sizeof(buf), "%s", v);
	cJSON_Delete(j);
	return buf;
}

/* A Guaranteed pod in namespace ns whose "app" asks for cpu CPUs. */
static void pod(FIXTURE_DATA(sys) *self, const char *uid, const char *ns,
		const char *cpu)
{
	char text[1024], name[64];

	xsnprintf(text, sizeof(text),
		  "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"%s\",\"uid\":\"%s\"},"
		  "\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"%s\",\"memory\":\"1Gi\"}}}]}}",
		  ns, uid, cpu);
	xsnprintf(name, sizeof(name), "%s.json", uid);
	fake_write(self->sn.dir, name, text);
}

/* Attach pod uid's app in its pod cgroup below parent (of kubepods). */
static int attach(FIXTURE_DATA(sys) *self, const char *parent,
		  const char *uid)
{
	return run(self, "attach --pod %s --container app --cgroup '%s/cgroup/kubepods/%spod%s/app' "
		   "--pod-cgroup '%s/cgroup/kubepods/%spod%s' --create", uid,
		   self->sn.dir, parent, uid, self->sn.dir, parent, uid);
}

/* admit's answer for the pod's app: exclusive or not, and its CPUs. */
static void admitted(struct __test_metadata *_metadata,
		     FIXTURE_DATA(sys) *self, bool system, bool exclusive,
		     const char *cpus)
{
	cJSON *j = cJSON_Parse(self->sn.out), *r, *c;

	ASSERT_TRUE(j != NULL) TH_LOG("%s", self->sn.out);
	r = cJSON_IsArray(j) ? cJSON_GetArrayItem(j, 0) : j;
	EXPECT_EQ(system, cJSON_IsTrue(cJSON_GetObjectItem(r, "systemPartition")));
	c = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "containers"), 0);
	EXPECT_EQ(exclusive, cJSON_IsTrue(cJSON_GetObjectItem(c, "exclusive")));
	if (cpus)
		EXPECT_STREQ(cpus, cJSON_GetStringValue(cJSON_GetObjectItem(c, "cpus")) ?: "");
	cJSON_Delete(j);
}

TEST_F(sys, a_system_pod_runs_on_the_partition_never_exclusive)
{
	ASSERT_EQ(0, init(self, "--system-partition 0-1")) TH_LOG("%s", self->sn.out);
	EXPECT_TRUE(strstr(self->sn.out, "system partition 0-1 namespaces kube-system") != NULL)
		TH_LOG("%s", self->sn.out);
	/* init made the system cgroup, as the kubelet would, and told it */
	EXPECT_STREQ("0-1", V("cgroup/kubepods/system/cpuset.cpus"));
	EXPECT_STREQ("/cgroup/kubepods/system", told(self));

	pod(self, "s1", "kube-system", "2");
	ASSERT_EQ(0, run(self, "admit -j s1.json")) TH_LOG("%s", self->sn.out);
	admitted(_metadata, self, true, false, "0-1");
	ASSERT_EQ(0, attach(self, "system/", "s1")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("0-1", V("cgroup/kubepods/system/pods1/app/cpuset.cpus"));

	/* any other namespace: exclusive CPUs as before */
	pod(self, "u1", "default", "2");
	ASSERT_EQ(0, run(self, "admit -j u1.json")) TH_LOG("%s", self->sn.out);
	admitted(_metadata, self, false, true, NULL);
	/* not below the system cgroup: refused before any cgroup is made */
	EXPECT_NE(0, attach(self, "system/", "u1"));
	EXPECT_TRUE(strstr(self->sn.out, "is in the system partition (KEP-5894)") != NULL)
		TH_LOG("%s", self->sn.out);
	EXPECT_FALSE(fake_exists(self->sn.dir, "cgroup/kubepods/system/podu1"));
	ASSERT_EQ(0, attach(self, "", "u1")) TH_LOG("%s", self->sn.out);
	EXPECT_STRNE("0-1", V("cgroup/kubepods/podu1/app/cpuset.cpus"));
	/* the pool moved; the system pod's CPUs did not */
	ASSERT_EQ(0, run(self, "reconcile")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("0-1", V("cgroup/kubepods/system/pods1/app/cpuset.cpus"));
	EXPECT_STREQ("0-1", V("cgroup/kubepods/system/cpuset.cpus"));
}

TEST_F(sys, other_namespaces_and_only_reserved_cpus)
{
	/* a partition on CPUs the static policy hands out is refused */
	EXPECT_NE(0, init(self, "--system-partition 2-3"));
	EXPECT_TRUE(strstr(self->sn.out, "CPUs 2-3 are not reserved (reserved: 0-1)") != NULL)
		TH_LOG("%s", self->sn.out);
	EXPECT_FALSE(fake_exists(self->sn.dir, "cgroup/kubepods/system"));
	EXPECT_NE(0, init(self, "--system-partition 0 --system-namespaces kube-system,Bad"));
	EXPECT_TRUE(strstr(self->sn.out, "\"Bad\" is not a namespace name") != NULL)
		TH_LOG("%s", self->sn.out);

	ASSERT_EQ(0, init(self, "--system-partition 0 --system-namespaces ops,kube-system"))
		TH_LOG("%s", self->sn.out);
	pod(self, "s2", "ops", "1");
	ASSERT_EQ(0, run(self, "admit -j s2.json")) TH_LOG("%s", self->sn.out);
	admitted(_metadata, self, true, false, "0");
	pod(self, "s3", "kube-system-not", "1");
	ASSERT_EQ(0, run(self, "admit -j s3.json")) TH_LOG("%s", self->sn.out);
	admitted(_metadata, self, false, true, NULL);
}

TEST_F(sys, init_takes_the_partition_the_kubelet_made)
{
	fake_write(self->sn.dir, "cgroup/kubepods/system/cpuset.cpus", "1\n");
	ASSERT_EQ(0, init(self, "")) TH_LOG("%s", self->sn.out);
	EXPECT_TRUE(strstr(self->sn.out, "system partition 1 namespaces kube-system") != NULL)
		TH_LOG("%s", self->sn.out);
	pod(self, "s1", "kube-system", "1");
	ASSERT_EQ(0, run(self, "admit -j s1.json")) TH_LOG("%s", self->sn.out);
	admitted(_metadata, self, true, false, "1");

	/* a recorded system pod stays one: no partition refused, then none */
	EXPECT_NE(0, init(self, "--system-partition none"));
	EXPECT_TRUE(strstr(self->sn.out, "pod s1 (namespace kube-system) is recorded as a system pod: remove it first") != NULL)
		TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, run(self, "remove s1")) TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, init(self, "--system-partition none")) TH_LOG("%s", self->sn.out);
	EXPECT_TRUE(strstr(self->sn.out, "system partition") == NULL)
		TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("", told(self));
}

TEST_F(sys, where_the_kubelet_put_it_decides_its_cpus)
{
	ASSERT_EQ(0, init(self, "--system-partition 0-1 --system-namespaces ops"))
		TH_LOG("%s", self->sn.out);
	/* init again without the flag: the namespaces of before */
	ASSERT_EQ(0, init(self, "--system-partition 0-1")) TH_LOG("%s", self->sn.out);
	EXPECT_TRUE(strstr(self->sn.out, "namespaces ops") != NULL)
		TH_LOG("%s", self->sn.out);
	/* a kubelet without KEP-5894 puts it with the others: the pool */
	pod(self, "s4", "ops", "2");
	ASSERT_EQ(0, run(self, "admit -j s4.json")) TH_LOG("%s", self->sn.out);
	admitted(_metadata, self, true, false, "0-1");
	ASSERT_EQ(0, attach(self, "burstable/", "s4")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ(shared(self), V("cgroup/kubepods/burstable/pods4/app/cpuset.cpus"));
	/* an ops pod is now recorded: a change of namespaces is refused */
	EXPECT_NE(0, init(self, "--system-partition 0-1 --system-namespaces kube-system"));
	EXPECT_TRUE(strstr(self->sn.out, "pod s4 (namespace ops) is recorded as a system pod") != NULL)
		TH_LOG("%s", self->sn.out);
}

TEST_F(sys, no_partition_without_a_managed_root)
{
	EXPECT_NE(0, run(self, "init --cpu-manager-policy static --reserved-cpus 0-1 "
			 "--cgroup-mount '%s/cgroup' --system-partition 0-1", self->sn.dir));
	EXPECT_TRUE(strstr(self->sn.out, "it needs a managed cgroup root") != NULL)
		TH_LOG("%s", self->sn.out);
}

TEST_F(sys, reconcile_gives_the_system_tree_its_cpus_back)
{
	ASSERT_EQ(0, init(self, "--system-partition 0-1")) TH_LOG("%s", self->sn.out);
	/* the kubelet's QoS and pod cgroups below, written by hand */
	fake_write(self->sn.dir, "cgroup/kubepods/system/burstable/podb/cpuset.cpus", "0-7\n");
	fake_write(self->sn.dir, "cgroup/kubepods/system/burstable/cpuset.cpus", "0-7\n");
	fake_write(self->sn.dir, "cgroup/kubepods/system/cpuset.cpus", "0-7\n");
	fake_write(self->sn.dir, "cgroup/kubepods/burstable/cpuset.cpus", "0-7\n");
	ASSERT_EQ(0, run(self, "reconcile")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("0-1", V("cgroup/kubepods/system/cpuset.cpus"));
	EXPECT_STREQ("0-1", V("cgroup/kubepods/system/burstable/cpuset.cpus"));
	EXPECT_STREQ("0-1", V("cgroup/kubepods/system/burstable/podb/cpuset.cpus"));
	/* the user pods' tree gets the pool */
	EXPECT_STREQ(shared(self), V("cgroup/kubepods/burstable/cpuset.cpus"));
}

TEST_HARNESS_MAIN
