// SPDX-License-Identifier: GPL-2.0
/*
 * Resizing a container's exclusive CPUs (cpu_policy_resize(), the rules
 * of KEP-5554): a grow keeps what is held and adds the nearest CPUs, a
 * shrink gives back what grows added and never goes below the admission
 * set, and every refusal leaves the state as it was.
 *
 * topoDualSocketHT: 12 CPUs, core i % 6 holds CPUs i and i + 6, socket
 * (and NUMA node) i % 2: socket 0 is the even CPUs, socket 1 the odd.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"

#include "kube_topologies.h"
#include "resize.h"
#include "test_util.h"

struct rig {
	struct topology *t;
	struct cpu_policy p;
	struct cpu_assignments s;
	struct cm_error err;
};

/* CPU 0 reserved; "p1"/"app" holds held, others hold taken. */
static void rig_init(struct __test_metadata *_metadata, struct rig *r,
		     const char *options, const char *held, const char *taken)
{
	struct policy_config cfg = {
		.kind = CPU_POLICY_STATIC, .num_reserved = 1,
		.has_reserved_cpus = true,
	};
	struct cpuset h = cs(held), o = cs(taken);

	memset(r, 0, sizeof(*r));
	cfg.reserved_cpus = cs("0");
	r->t = kube_topology(TOPO_DUAL_SOCKET_HT);
	ASSERT_EQ(0, options_parse_list(&cfg.opts, options, &r->err));
	ASSERT_EQ(0, cpu_policy_init(&r->p, r->t, &cfg, &r->err));
	assignments_init(&r->s);
	ASSERT_EQ(0, assignments_set(&r->s, "p1", "app", &h));
	if (!cpuset_empty(&o)) {
		ASSERT_EQ(0, assignments_set(&r->s, "p2", "other", &o));
	}
	cpuset_andnot(&r->s.default_set, &r->t->cpus, &h);
	cpuset_andnot(&r->s.default_set, &r->s.default_set, &o);
}

static void rig_free(struct rig *r)
{
	assignments_free(&r->s);
	cpu_policy_destroy(&r->p);
	topology_free(r->t);
	cm_error_clear(&r->err);
}

static int resize(struct rig *r, int num, const char *admitted,
		  struct cpuset *out)
{
	struct cpuset a = cs(admitted ? admitted : "");
	struct resize_request req = {
		.pod_uid = "p1", .container = "app", .num_cpus = num,
		.admitted = admitted ? &a : NULL,
	};

	cm_error_clear(&r->err);
	return cpu_policy_resize(&r->p, &r->s, &req, out, &r->err);
}

static bool holds(const struct rig *r, const char *list)
{
	const struct cpuset *c = assignments_get(&r->s, "p1", "app");
	struct cpuset want = cs(list);

	return c && cpuset_equal(c, &want);
}

/* The default set is every CPU no container holds. */
static bool consistent(const struct rig *r)
{
	struct cpuset all;

	cpuset_zero(&all);
	for (unsigned int i = 0; i < r->s.nr; i++) {
		if (cpuset_intersects(&all, &r->s.entries[i].cpus))
			return false;
		cpuset_or(&all, &all, &r->s.entries[i].cpus);
	}
	if (cpuset_intersects(&all, &r->s.default_set))
		return false;
	cpuset_or(&all, &all, &r->s.default_set);
	return cpuset_equal(&all, &r->t->cpus);
}

TEST(grow_siblings_then_same_socket_then_back)
{
	struct rig r;
	struct cpuset out;

	rig_init(_metadata, &r, "", "2", "");
	/* the free thread of its own core first */
	ASSERT_EQ(0, resize(&r, 2, "2", &out));
	EXPECT_TRUE(holds(&r, "2,8"));
	EXPECT_TRUE(consistent(&r));
	/* then a whole free core of its socket (CPU 0 is reserved) */
	ASSERT_EQ(0, resize(&r, 4, "2", &out));
	EXPECT_TRUE(holds(&r, "2,4,8,10"));
	EXPECT_TRUE(cpuset_equal(&out, assignments_get(&r.s, "p1", "app")));
	/* back down: a thread of the last core added goes, then the core */
	ASSERT_EQ(0, resize(&r, 3, "2", &out));
	EXPECT_TRUE(holds(&r, "2,4,8"));
	ASSERT_EQ(0, resize(&r, 1, "2", &out));
	EXPECT_TRUE(holds(&r, "2"));
	EXPECT_TRUE(consistent(&r));
	rig_free(&r);
}

TEST(grow_crosses_to_another_socket_when_its_own_is_full)
{
	struct rig r;
	struct cpuset out;

	/* socket 0 has nothing free but CPU 6 (CPU 0 is reserved) */
	rig_init(_metadata, &r, "", "2,8", "4,10");
	ASSERT_EQ(0, resize(&r, 5, "2,8", &out));
	EXPECT_TRUE(cpuset_test(&out, 6));
	EXPECT_EQ(5U, cpuset_count(&out));
	EXPECT_TRUE(consistent(&r));
	/* a shrink gives back the other socket's CPUs first */
	ASSERT_EQ(0, resize(&r, 3, "2,8", &out));
	EXPECT_TRUE(holds(&r, "2,6,8"));
	EXPECT_TRUE(consistent(&r));
	rig_free(&r);
}

TEST(full_pcpus_only_whole_cores)
{
	struct rig r;
	struct cpuset out, before, closure;

	/* socket 0: core 2 held, core 4 half taken: whole cores elsewhere */
	rig_init(_metadata, &r, "full-pcpus-only=true", "2,8", "4");
	before = r.s.default_set;
	EXPECT_EQ(-EINVAL, resize(&r, 3, "2,8", &out));
	CHECK(strstr(cm_error_msg(&r.err), "SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2"),
	      "%s", cm_error_msg(&r.err));
	EXPECT_TRUE(holds(&r, "2,8"));
	EXPECT_TRUE(cpuset_equal(&before, &r.s.default_set));
	ASSERT_EQ(0, resize(&r, 4, "2,8", &out));
	EXPECT_EQ(4U, cpuset_count(&out));
	/* not the half-free core 4, not the reserved core 0: socket 1 */
	EXPECT_FALSE(cpuset_test(&out, 10));
	EXPECT_FALSE(cpuset_test(&out, 6));
	topology_cores_closure(r.t, &out, &closure);
	EXPECT_TRUE(cpuset_equal(&closure, &out));
	/* a shrink by an odd count would split a core */
	EXPECT_EQ(-EINVAL, resize(&r, 3, "2,8", &out));
	ASSERT_EQ(0, resize(&r, 2, "2,8", &out));
	EXPECT_TRUE(holds(&r, "2,8"));
	EXPECT_TRUE(consistent(&r));
	rig_free(&r);
}

TEST(refusals_change_nothing)
{
	struct rig r;
	struct resize_request sidecar = {
		.pod_uid = "p1", .container = "sidecar", .num_cpus = 2,
	};
	struct cpuset out, before, held;

	rig_init(_metadata, &r, "", "2,8", "1-5,7,9-11");
	before = r.s.default_set;
	held = *assignments_get(&r.s, "p1", "app");
	out = cs("1");
	/* only CPU 6 is free */
	EXPECT_EQ(-ENOSPC, resize(&r, 4, "2,8", &out));
	CHECK(strstr(cm_error_msg(&r.err), "not enough cpus available to satisfy request: requested=2, available=1"),
	      "%s", cm_error_msg(&r.err));
	/* below the admission set */
	EXPECT_EQ(-EINVAL, resize(&r, 1, "2,8", &out));
	CHECK(strstr(cm_error_msg(&r.err), "admitted with 2 (2,8)"), "%s",
	      cm_error_msg(&r.err));
	/* no admission set given: what it holds is the admission set */
	EXPECT_EQ(-EINVAL, resize(&r, 1, NULL, &out));
	EXPECT_EQ(-EINVAL, resize(&r, 0, "2", &out));
	EXPECT_TRUE(cpuset_equal(&before, &r.s.default_set));
	EXPECT_TRUE(cpuset_equal(&held, assignments_get(&r.s, "p1", "app")));
	EXPECT_TRUE(cpuset_equal(&out, &(struct cpuset){ 0 }) == false &&
		    cpuset_count(&out) == 1 && cpuset_test(&out, 1));
	/* a container with no exclusive CPUs has nothing to resize */
	EXPECT_EQ(-EINVAL, cpu_policy_resize(&r.p, &r.s, &sidecar, &out,
					     &r.err));
	CHECK(strstr(cm_error_msg(&r.err), "holds no exclusive CPUs"),
	      "%s", cm_error_msg(&r.err));
	EXPECT_TRUE(cpuset_equal(&before, &r.s.default_set));
	rig_free(&r);
}

TEST(same_count_is_no_change)
{
	struct rig r;
	struct cpuset out;

	rig_init(_metadata, &r, "", "2,8", "");
	ASSERT_EQ(0, resize(&r, 2, "2", &out));
	EXPECT_TRUE(holds(&r, "2,8"));
	EXPECT_TRUE(consistent(&r));
	rig_free(&r);
}

TEST_HARNESS_MAIN
