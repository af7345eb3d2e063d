// SPDX-License-Identifier: GPL-2.0
/*
 * The allocator of the 1.37 kubelet and cpumgr's one rule beyond it:
 *
 * - distribute-cpus-across-numa takes the topology manager hint's NUMA
 *   count as the floor (kubernetes#139456, fixing #139430: a hint over 4
 *   NUMA nodes, for devices on all four, got CPUs on 3).  The case is
 *   #139430's, scaled to the kubelet's topoDualSocketMultiNumaPerSocketHT
 *   (4 NUMA nodes of 20 CPUs; 176 of 256 CPUs there, 48 of 80 here: the
 *   fewest nodes that hold it are 3, the hint says 4).  The kubelet's
 *   test table of that PR is not in the source store, so the expected
 *   CPUs are what the kubelet's algorithm (alloc_distributed.c, ported
 *   with its tie-breaks) gives with that floor: 12 per node, six whole
 *   cores each, CPU 0's core reserved.
 * - with strict-cpu-reservation no allocation empties the shared pool
 *   (#141196: the kubelet lets it and then refuses its own checkpoint,
 *   "default cpuset cannot be empty"; #141197 proposes the refusal).  A
 *   named kubelet lets it pass, and its restart check fails as in the
 *   issue.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "alloc.h"
#include "kube_topologies.h"
#include "pod_util.h"
#include "policy_static.h"
#include "test_util.h"

static void init_policy(struct __test_metadata *_metadata,
			struct cpu_policy *p, const struct topology *t,
			const char *reserved, const char *options, int minor)
{
	struct policy_config cfg = {
		.kind = CPU_POLICY_STATIC,
		.has_reserved_cpus = true,
		.reserved_cpus = cs(reserved),
		.kubelet_minor = minor,
	};
	struct cm_error err = { 0 };

	cfg.num_reserved = (int)cpuset_count(&cfg.reserved_cpus);
	ASSERT_EQ(0, options_parse_list(&cfg.opts, options, &err));
	ASSERT_EQ(0, cpu_policy_init(p, t, &cfg, &err));
	cm_error_clear(&err);
}

static unsigned int numa_nodes(const struct topology *t,
			       const struct cpuset *s)
{
	struct cpuset ids;

	topology_groups_of(t, TOPO_NUMA, s, &ids);
	return cpuset_count(&ids);
}

/* Allocate 48 CPUs under a hint over all four NUMA nodes. */
static void spread_48(struct __test_metadata *_metadata, int minor,
		      struct cpuset *got)
{
	struct topology *t = kube_topology(TOPO_DUAL_SOCKET_MULTI_NUMA_HT);
	struct cm_error err = { 0 };
	struct cpu_assignments s;
	struct cpu_policy p;
	struct pod pod;
	uint64_t all = 0xf;

	init_policy(_metadata, &p, t, "0", "distribute-cpus-across-numa=true",
		    minor);
	assignments_init(&s);
	ASSERT_EQ(0, cpu_policy_start(&p, &s, &err));
	make_pod(&pod, "gpu-pod", "app", "48", "48");
	ASSERT_EQ(0, cpu_policy_allocate(&p, &s, &pod, &pod.containers[0],
					 &all, &err));
	*got = *assignments_get(&s, "gpu-pod", "app");
	EXPECT_EQ(48u, cpuset_count(got));
	pod_free(&pod);
	assignments_free(&s);
	cpu_policy_destroy(&p);
	topology_free(t);
	cm_error_clear(&err);
}

TEST(distribute_numa_hint_is_the_floor)
{
	struct topology *t = kube_topology(TOPO_DUAL_SOCKET_MULTI_NUMA_HT);
	struct cpuset got, want =
		cs("1-6,10-15,20-25,30-35,41-46,50-55,60-65,70-75");

	/* cpumgr and 1.37: the hint's four nodes, 12 CPUs each */
	spread_48(_metadata, 0, &got);
	EXPECT_EQ(4u, numa_nodes(t, &got));
	EXPECT_TRUE(cpuset_equal(&got, &want));
	spread_48(_metadata, 37, &got);
	EXPECT_TRUE(cpuset_equal(&got, &want));
	/* 1.36: the fewest nodes that hold it, #139430's shrink */
	spread_48(_metadata, 36, &got);
	EXPECT_EQ(3u, numa_nodes(t, &got));
	topology_free(t);
}

/* The allocator alone: a floor above what the request covers packs. */
TEST(distribute_numa_floor_in_take)
{
	struct topology *t = kube_topology(TOPO_DUAL_SOCKET_MULTI_NUMA_HT);
	struct alloc_request req = {
		.num_cpus = 48, .distribute_numa = true, .cpu_group_size = 1,
	};
	struct cm_error err = { 0 };
	struct cpuset out, small;

	ASSERT_EQ(0, alloc_take(t, NULL, &t->cpus, &req, &out, &err));
	EXPECT_EQ(3u, numa_nodes(t, &out));
	req.min_numas = 4;
	ASSERT_EQ(0, alloc_take(t, NULL, &t->cpus, &req, &out, &err));
	EXPECT_EQ(4u, numa_nodes(t, &out));
	/* 2 CPUs cannot cover 4 nodes: no combination, packed as before */
	req.num_cpus = 2;
	ASSERT_EQ(0, alloc_take(t, NULL, &t->cpus, &req, &out, &err));
	req.min_numas = 0;
	ASSERT_EQ(0, alloc_take(t, NULL, &t->cpus, &req, &small, &err));
	EXPECT_TRUE(cpuset_equal(&out, &small));
	topology_free(t);
}

/* topoSingleSocketHT, CPU 0 strictly reserved: 7 CPUs in the pool. */
static int take_all(struct __test_metadata *_metadata, int minor, int num,
		    struct cpu_assignments *s, struct cm_error *err)
{
	struct topology *t = kube_topology(TOPO_SINGLE_SOCKET_HT);
	struct cpu_policy p;
	struct pod pod;
	char n[8];
	int ret;

	init_policy(_metadata, &p, t, "0", "strict-cpu-reservation=true",
		    minor);
	assignments_init(s);
	if (cpu_policy_start(&p, s, err))
		abort();
	snprintf(n, sizeof(n), "%d", num);
	make_pod(&pod, "pod", "app", n, n);
	ret = cpu_policy_allocate(&p, s, &pod, &pod.containers[0], NULL, err);
	if (!ret && minor) {
		/* the kubelet's restart: its checkpoint read back */
		struct cpu_assignments back;

		assignments_init(&back);
		assignments_copy(&back, s);
		ret = cpu_policy_start(&p, &back, err) ? 1 : 0;
		assignments_free(&back);
	}
	pod_free(&pod);
	cpu_policy_destroy(&p);
	topology_free(t);
	return ret;
}

TEST(strict_reservation_keeps_the_shared_pool)
{
	struct cm_error err = { 0 };
	struct cpu_assignments s;

	/* 6 of 7 leave one CPU: fine */
	EXPECT_EQ(0, take_all(_metadata, 0, 6, &s, &err));
	EXPECT_EQ(1u, cpuset_count(&s.default_set));
	assignments_free(&s);
	/* 7 of 7 would empty it: refused, nothing changed */
	EXPECT_EQ(-ENOSPC, take_all(_metadata, 0, 7, &s, &err));
	EXPECT_STREQ("not enough cpus available to satisfy request: taking cpus \"1-7\" would leave the shared pool empty (strict-cpu-reservation keeps the reserved cpus out of it)",
		     cm_error_msg(&err));
	EXPECT_EQ(0u, s.nr);
	EXPECT_EQ(7u, cpuset_count(&s.default_set));
	assignments_free(&s);
	cm_error_clear(&err);
	/* the kubelet 1.37 takes it, then refuses its own state */
	EXPECT_EQ(1, take_all(_metadata, 37, 7, &s, &err));
	EXPECT_STREQ("default cpuset cannot be empty", cm_error_msg(&err));
	assignments_free(&s);
	cm_error_clear(&err);
}

TEST_HARNESS_MAIN
