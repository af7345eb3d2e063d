// SPDX-License-Identifier: GPL-2.0
/*
 * `cpumgrctl resize` on a node: bench/cpumgrctl-standin-tree (the
 * kernel's table and a directory for the cgroup v2 hierarchy) on 16 CPUs
 * (8 cores of 2 threads, CPU c and c + 8 on core c), CPUs 0-1 reserved.
 * A Guaranteed container admitted with 2 CPUs and attached, beside a
 * Burstable one on the shared pool: resized 2 -> 4 -> 3 -> 2, each run
 * a new process reading the admission set from the pod file; its cgroup
 * follows (its cpuset, and its CFS weight at once), the shared
 * container's never overlaps it; below the admission set, and past what
 * is free, is refused with nothing changed.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "cfs.h"
#include "standin_node.h"
#include "test_util.h"

#define APP_CG	"cg/kubepods/podg1/app"
#define APP	APP_CG "/cpuset.cpus"
#define WEB	"cg/kubepods/burstable/podb1/web/cpuset.cpus"

/* the stand-in node's fields, with the tree stand-in as ctl */
#define rig standin_node
#define run standin_runf

static bool file_is(const struct rig *r, const char *rel, const char *list)
{
	struct cpuset want, got = standin_cpus(r, rel);

	return !cpuset_parse(&want, list, NULL) && cpuset_equal(&got, &want);
}

static bool apart(const struct rig *r)
{
	struct cpuset a = standin_cpus(r, APP), w = standin_cpus(r, WEB);

	return !cpuset_empty(&a) && !cpuset_intersects(&a, &w);
}

/* DIR/rel/cpu.weight is the kubelet's for a CPU request of milli */
static bool weight_is(const struct rig *r, const char *rel, int64_t milli)
{
	uint64_t w = cfs_shares_to_weight(cfs_milli_cpu_to_shares(milli),
					  CFS_WEIGHT_LINEAR);
	char file[256], want[32];
	const char *got;
	size_t len;

	xsnprintf(file, sizeof(file), "%s/cpu.weight", rel);
	len = (size_t)snprintf(want, sizeof(want), "%llu",
			       (unsigned long long)w);
	got = fake_read(r->dir, file);
	return !strncmp(got, want, len) && (!got[len] || got[len] == '\n');
}

/* DIR/rel's text, "" when there is none */
static char *slurp(const struct rig *r, const char *rel)
{
	char *text = standin_file(r, rel);

	return text ? text : strdup("");
}

/* status --json: container name's admittedCpus is want */
static bool status_admitted(struct rig *r, const char *name, const char *want)
{
	cJSON *j, *c;
	bool seen = false;

	run(r, "status --json");
	j = cJSON_Parse(r->out);
	cJSON_ArrayForEach(c, json_member(j, "containers")) {
		const cJSON *adm = json_member(c, "admittedCpus");
		const cJSON *cn = json_member(c, "container");

		if (cJSON_IsString(cn) && !strcmp(cn->valuestring, name))
			seen = cJSON_IsString(adm) &&
			       !strcmp(adm->valuestring, want);
	}
	cJSON_Delete(j);
	return seen;
}

/* The state a refusal must leave as it was. */
static char *snapshot(const struct rig *r)
{
	char *k = slurp(r, "kernel"), *p = slurp(r, "state/pods/g1.json");
	char *c = slurp(r, "state/cpu_manager_state"), *all;

	if (asprintf(&all, "%s\n--\n%s\n--\n%s", k, p, c) < 0)
		abort();
	free(k);
	free(p);
	free(c);
	return all;
}

FIXTURE(node) {
	struct rig r;
};

FIXTURE_SETUP(node)
{
	struct rig *r = &self->r;

	ASSERT_EQ(0, standin_tree_new(r));
	ASSERT_EQ(0, standin_tree_init(r)) TH_LOG("%s", r->out);
	run(r, "admit g.json");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	run(r, "admit b.json");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	run(r, "attach --pod g1 --container app --cgroup podg1/app --pod-cgroup podg1 --create");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	run(r, "attach --pod b1 --container web --cgroup burstable/podb1/web --pod-cgroup burstable/podb1 --create");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	ASSERT_TRUE(file_is(r, APP, "2,10")) TH_LOG("%s", fake_read(r->dir, APP));
	ASSERT_TRUE(apart(r));
}

FIXTURE_TEARDOWN(node)
{
	fake_tree_free(self->r.dir);
}

TEST_F(node, grow_shrink_and_back)
{
	struct rig *r = &self->r;
	struct cpuset web;
	char *pod;

	run(r, "resize g1 app 4");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	EXPECT_TRUE(file_is(r, APP, "2-3,10-11")) TH_LOG("%s", fake_read(r->dir, APP));
	EXPECT_TRUE(file_is(r, WEB, "0-1,4-9,12-15")) TH_LOG("%s", fake_read(r->dir, WEB));
	CHECK(strstr(r->out, "g1 app 2-3,10-11 (admitted 2,10)") != NULL, "%s", r->out);
	/* the CFS weight of 4 CPUs at once, the container's and its pod's */
	EXPECT_TRUE(weight_is(r, APP_CG, 4000))
		TH_LOG("%s", fake_read(r->dir, APP_CG "/cpu.weight"));
	EXPECT_TRUE(weight_is(r, "cg/kubepods/podg1", 4000));
	/* status shows the admission set, text and JSON */
	run(r, "status");
	CHECK(strstr(r->out, "admitted 2,10") != NULL, "%s", r->out);
	EXPECT_TRUE(status_admitted(r, "app", "2,10"));
	/* the pod file: the admission set and the new count */
	pod = slurp(r, "state/pods/g1.json");
	CHECK(strstr(pod, "\"admittedCpus\":\t\"2,10\"") != NULL, "%s", pod);
	CHECK(strstr(pod, "\"cpu\":\t\"4\"") != NULL, "%s", pod);
	free(pod);

	/* each run a new process: the admission set comes from the pod file */
	run(r, "resize g1 app 3");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	EXPECT_TRUE(file_is(r, APP, "2-3,10")) TH_LOG("%s", fake_read(r->dir, APP));
	EXPECT_TRUE(weight_is(r, APP_CG, 3000));
	EXPECT_TRUE(apart(r));
	web = standin_cpus(r, WEB);
	EXPECT_TRUE(cpuset_test(&web, 11));

	run(r, "resize g1 app 2");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	EXPECT_TRUE(file_is(r, APP, "2,10"));
	EXPECT_TRUE(file_is(r, WEB, "0-1,3-9,11-15")) TH_LOG("%s", fake_read(r->dir, WEB));
	EXPECT_TRUE(status_admitted(r, "app", "2,10"));
}

TEST_F(node, refusals_change_nothing)
{
	struct rig *r = &self->r;
	char *before, *after;

	run(r, "resize g1 app 4");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	before = snapshot(r);

	/* below the admission set */
	run(r, "resize g1 app 1");
	EXPECT_EQ(2, r->status);
	CHECK(strstr(r->out, "cpumgrctl: resize: cannot shrink container app of pod g1 to 1 CPUs: it was admitted with 2 (2,10)") != NULL,
	      "%s", r->out);
	/* more than is free: 14 allocatable, 4 held, 10 free */
	run(r, "resize g1 app 15");
	EXPECT_EQ(1, r->status);
	CHECK(strstr(r->out, "not enough cpus available to satisfy request: requested=11, available=10") != NULL,
	      "%s", r->out);
	/* not a count, no such container, no exclusive CPUs */
	run(r, "resize g1 app 2.5");
	EXPECT_EQ(2, r->status);
	run(r, "resize g1 nope 2");
	EXPECT_EQ(2, r->status);
	CHECK(strstr(r->out, "pod g1 has no container nope") != NULL, "%s", r->out);
	run(r, "resize b1 web 2");
	EXPECT_EQ(2, r->status);
	CHECK(strstr(r->out, "holds no exclusive CPUs") != NULL, "%s", r->out);

	after = snapshot(r);
	EXPECT_STREQ(before, after);
	EXPECT_TRUE(file_is(r, APP, "2-3,10-11"));
	EXPECT_TRUE(file_is(r, WEB, "0-1,4-9,12-15")) TH_LOG("%s", fake_read(r->dir, WEB));
	free(before);
	free(after);
}

TEST_HARNESS_MAIN
