// SPDX-License-Identifier: GPL-2.0
/*
 * Pod-level CPU pools (KEP-5526): the pod's pool, its containers' slices
 * and shares, the kubelet's admission texts, removal, and what pod-level
 * resources do to the QoS class and to a container's eligibility.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "kube_topologies.h"
#include "pod_util.h"
#include "policy_static.h"
#include "test_util.h"

/* requests = limits: cpu as given, memory 1G */
#define RES(cpu) "{\"requests\":{\"cpu\":\"" cpu "\",\"memory\":\"1G\"}," \
		 "\"limits\":{\"cpu\":\"" cpu "\",\"memory\":\"1G\"}}"
#define CTR(name, res) "{\"name\":\"" name "\",\"resources\":" res "}"
#define BARE(name) "{\"name\":\"" name "\"}"
#define SIDECAR(name, res) "{\"name\":\"" name "\",\"restartPolicy\":\"Always\",\"resources\":" res "}"
#define POD(pod_res, init, apps) \
	"{\"metadata\":{\"uid\":\"u\",\"name\":\"p\",\"namespace\":\"d\"}," \
	"\"spec\":{\"resources\":" pod_res ",\"initContainers\":[" init "]," \
	"\"containers\":[" apps "]}}"

FIXTURE(pool) {
	struct topology *t;
	struct cpu_policy p;
	struct cpu_assignments s;
	struct cm_error err;
	struct pod pod;
};

FIXTURE_SETUP(pool)
{
	struct policy_config cfg = { .kind = CPU_POLICY_STATIC,
				     .num_reserved = 1, .pod_level = true };

	memset(&self->err, 0, sizeof(self->err));
	memset(&self->pod, 0, sizeof(self->pod));
	self->t = kube_topology(TOPO_SINGLE_SOCKET_HT);
	assignments_init(&self->s);
	ASSERT_EQ(0, cpu_policy_init(&self->p, self->t, &cfg, &self->err));
	ASSERT_EQ(0, cpu_policy_start(&self->p, &self->s, &self->err));
}

FIXTURE_TEARDOWN(pool)
{
	pod_free(&self->pod);
	assignments_free(&self->s);
	cpu_policy_destroy(&self->p);
	topology_free(self->t);
	cm_error_clear(&self->err);
}

static bool has(const struct cpu_assignments *s, const char *c,
		const char *want)
{
	const struct cpuset *got = assignments_get(s, "u", c);
	struct cpuset w = cs(want);

	return got && cpuset_equal(got, &w);
}

static bool pool_is(const struct cpu_assignments *s, const char *want)
{
	const struct cpuset *got = assignments_get_pool(s, "u");
	struct cpuset w = cs(want);

	return *want ? got && cpuset_equal(got, &w) : !got;
}

static bool default_is(const struct cpu_assignments *s, const char *want)
{
	struct cpuset w = cs(want);

	return cpuset_equal(&s->default_set, &w);
}

/* KEP-5526's first example: a slice, and the rest shared in the pod. */
TEST_F(pool, slice_and_shared_rest)
{
	pod_from_text(&self->pod, POD(RES("4"), "",
				      CTR("app", RES("2")) "," BARE("log")));
	EXPECT_TRUE(pod_qos(&self->pod) == QOS_GUARANTEED);
	ASSERT_EQ(0, cpu_policy_add_pod(&self->p, &self->s, &self->pod, NULL,
					&self->err));
	EXPECT_TRUE(pool_is(&self->s, "1-2,5-6"));
	EXPECT_TRUE(has(&self->s, "app", "1,5"));
	EXPECT_TRUE(has(&self->s, "log", "2,6"));
	EXPECT_TRUE(default_is(&self->s, "0,3-4,7"));
	/* admitted again: nothing moves */
	ASSERT_EQ(0, cpu_policy_add_pod(&self->p, &self->s, &self->pod, NULL,
					&self->err));
	EXPECT_TRUE(default_is(&self->s, "0,3-4,7"));
	EXPECT_EQ(2u, self->s.nr);
}

/* A slice stays as admitted; the pool goes back with the last entry. */
TEST_F(pool, removal)
{
	pod_from_text(&self->pod, POD(RES("4"), "",
				      CTR("app", RES("2")) "," BARE("log")));
	ASSERT_EQ(0, cpu_policy_add_pod(&self->p, &self->s, &self->pod, NULL,
					&self->err));
	cpu_policy_remove(&self->p, &self->s, "u", "app");
	EXPECT_TRUE(pool_is(&self->s, "1-2,5-6"));
	EXPECT_TRUE(has(&self->s, "log", "2,6"));
	EXPECT_TRUE(default_is(&self->s, "0,3-4,7"));
	cpu_policy_remove(&self->p, &self->s, "u", "log");
	EXPECT_TRUE(pool_is(&self->s, ""));
	EXPECT_EQ(0u, self->s.nr);
	EXPECT_TRUE(default_is(&self->s, "0-7"));
}

/* validatePodScopeResources(): the kubelet's texts; nothing changes. */
TEST_F(pool, budget_refusals)
{
	static const struct {
		const char *pod, *msg;
	} cases[] = {
		{ POD(RES("4"), "", CTR("a", RES("2")) "," CTR("b", RES("2")) ","
		      BARE("log")),
		  "pod rejected, sum of exclusive container cpu requests equals pod budget, leaving no cpus for shared containers" },
		{ POD(RES("4"), SIDECAR("s", RES("4")), BARE("app")),
		  "pod rejected, sum of exclusive container cpu requests equals pod budget, leaving no cpus for shared containers" },
		{ POD(RES("4"), CTR("i", RES("5")), CTR("app", RES("4"))),
		  "pod rejected, largest exclusive init container requests 5 cpus, but only 4 available" },
		{ POD(RES("4"), SIDECAR("s", RES("2")) "," CTR("i", RES("3")),
		      CTR("app", RES("2"))),
		  "pod rejected, largest exclusive init container requests 3 cpus, but only 2 available" },
		{ POD(RES("2"), SIDECAR("s", RES("2")) "," BARE("i"),
		      CTR("app", RES("1"))),
		  "pod rejected, pod has shared init containers but no cpus available for them" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pod pod;

		pod_from_text(&pod, cases[i].pod);
		EXPECT_NE(0, cpu_policy_add_pod(&self->p, &self->s, &pod, NULL,
						&self->err));
		CHECK(!strcmp(cm_error_msg(&self->err), cases[i].msg),
		      "case %zu: %s", i, cm_error_msg(&self->err));
		EXPECT_EQ(0u, self->s.nr);
		EXPECT_TRUE(pool_is(&self->s, ""));
		EXPECT_TRUE(default_is(&self->s, "0-7"));
		pod_free(&pod);
	}
}

/*
 * A sidecar's slice is never taken again; a standard init container's
 * is, by the app containers after it.
 */
TEST_F(pool, init_reused_sidecar_kept)
{
	pod_from_text(&self->pod,
		      POD(RES("6"), SIDECAR("s", RES("2")) "," CTR("i", RES("4")),
			  CTR("app", RES("2")) "," BARE("log")));
	ASSERT_EQ(0, cpu_policy_add_pod(&self->p, &self->s, &self->pod, NULL,
					&self->err));
	EXPECT_TRUE(pool_is(&self->s, "1-3,5-7"));
	EXPECT_TRUE(has(&self->s, "s", "1,5"));
	EXPECT_TRUE(has(&self->s, "i", "2-3,6-7"));
	EXPECT_TRUE(has(&self->s, "app", "2,6"));
	EXPECT_TRUE(has(&self->s, "log", "3,7"));
	EXPECT_TRUE(default_is(&self->s, "0,4"));
}

/* Who qualifies: cpu and memory request = limit, a whole CPU count. */
TEST_F(pool, eligibility)
{
	pod_from_text(&self->pod,
		      POD(RES("4"), "",
			  "{\"name\":\"cpu-only\",\"resources\":{\"limits\":{\"cpu\":\"1\"}}},"
			  CTR("milli", RES("1500m")) "," CTR("whole", RES("1"))));
	EXPECT_EQ(0, pod_guaranteed_cpus(&self->pod, &self->pod.containers[0]));
	EXPECT_EQ(1, pod_guaranteed_cpus(&self->pod, &self->pod.containers[2]));
	ASSERT_EQ(0, cpu_policy_add_pod(&self->p, &self->s, &self->pod, NULL,
					&self->err));
	EXPECT_TRUE(pool_is(&self->s, "1-2,5-6"));
	EXPECT_TRUE(has(&self->s, "whole", "1"));
	EXPECT_TRUE(has(&self->s, "cpu-only", "2,5-6"));
	EXPECT_TRUE(has(&self->s, "milli", "2,5-6"));
}

/* No pool: no gate, a Burstable pod, a fraction of a CPU. */
TEST_F(pool, no_pool)
{
	static const char *const pods[] = {
		POD("{\"requests\":{\"cpu\":\"2\",\"memory\":\"2G\"},\"limits\":{\"cpu\":\"4\",\"memory\":\"2G\"}}",
		    "", CTR("app", RES("1"))),
		POD(RES("2500m"), "", CTR("app", RES("1"))),
		POD("{\"limits\":{\"cpu\":\"2\"}}", "", CTR("app", RES("1"))),
	};
	struct policy_config off = { .kind = CPU_POLICY_STATIC,
				     .num_reserved = 1 };
	struct cpu_policy p;

	for (size_t i = 0; i < ARRAY_SIZE(pods); i++) {
		struct pod pod;

		pod_from_text(&pod, pods[i]);
		EXPECT_EQ(0, cpu_policy_add_pod(&self->p, &self->s, &pod, NULL,
						&self->err));
		CHECK(self->s.nr == 0 && default_is(&self->s, "0-7"),
		      "case %zu", i);
		pod_free(&pod);
	}
	/* without PodLevelResourceManagers, even a Guaranteed pod shares */
	ASSERT_EQ(0, cpu_policy_init(&p, self->t, &off, &self->err));
	pod_from_text(&self->pod, POD(RES("4"), "", CTR("app", RES("2"))));
	EXPECT_EQ(0, cpu_policy_add_pod(&p, &self->s, &self->pod, NULL,
					&self->err));
	EXPECT_EQ(0u, self->s.nr);
	EXPECT_TRUE(pool_is(&self->s, ""));
	cpu_policy_destroy(&p);
}

/* KEP-2837: the pod's own resources decide its QoS class. */
TEST(pod_level_qos)
{
	static const struct {
		const char *pod;
		enum pod_qos qos;
	} cases[] = {
		{ POD(RES("2"), "", BARE("a")), QOS_GUARANTEED },
		{ POD("{\"limits\":{\"cpu\":\"2\",\"memory\":\"1G\"}}", "", BARE("a")),
		  QOS_GUARANTEED },
		{ POD("{\"limits\":{\"cpu\":\"2\"}}", "", CTR("a", RES("1"))),
		  QOS_BURSTABLE },
		{ POD("{\"requests\":{\"cpu\":\"1\"}}", "", BARE("a")),
		  QOS_BURSTABLE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pod pod;

		pod_from_text(&pod, cases[i].pod);
		CHECK(pod_qos(&pod) == cases[i].qos, "case %zu: %s", i,
		      pod_qos_name(pod_qos(&pod)));
		pod_free(&pod);
	}
}

/* The pool follows the topology manager's pod-scope hint. */
TEST(pool_numa_aligned)
{
	struct topology *t = kube_topology(TOPO_DUAL_SOCKET_HT);
	struct policy_config cfg = { .kind = CPU_POLICY_STATIC,
				     .num_reserved = 1, .pod_level = true,
				     .tm = TM_POLICY_SINGLE_NUMA_NODE };
	struct cm_error err = { 0 };
	struct cpu_assignments s;
	struct cpu_policy p;
	struct pod pod;
	const struct cpuset *pool;
	struct cpuset numa1 = cs("1,3,5,7,9,11");

	assignments_init(&s);
	ASSERT_EQ(0, cpu_policy_init(&p, t, &cfg, &err));
	ASSERT_EQ(0, cpu_policy_start(&p, &s, &err));
	/* NUMA 0 has 5 free CPUs: a pool of 6 fits on NUMA 1 alone */
	pod_from_text(&pod, POD(RES("6"), "", CTR("app", RES("2")) "," BARE("b")));
	ASSERT_EQ(0, cpu_policy_add_pod(&p, &s, &pod, NULL, &err));
	pool = assignments_get_pool(&s, "u");
	ASSERT_TRUE(pool != NULL);
	EXPECT_TRUE(cpuset_equal(pool, &numa1));
	pod_free(&pod);
	/* and a pod whose budget leaves its sharer nothing: no hint to meet */
	pod_from_text(&pod, POD(RES("2"), "", CTR("app", RES("2")) "," BARE("b")));
	pod.uid[0] = 'v';
	EXPECT_NE(0, cpu_policy_add_pod(&p, &s, &pod, NULL, &err));
	EXPECT_STREQ("Resources cannot be allocated with Topology locality",
		     cm_error_msg(&err));
	pod_free(&pod);
	assignments_free(&s);
	cpu_policy_destroy(&p);
	topology_free(t);
	cm_error_clear(&err);
}

TEST_HARNESS_MAIN
