// SPDX-License-Identifier: GPL-2.0
/*
 * The kubelet's static policy tables, ported from
 * pkg/kubelet/cm/cpumanager/policy_static_test.go with its expected
 * results: TestStaticPolicyStart, TestStaticPolicyAdd (the options-
 * insensitive cases under both option sets, the default-options, the
 * full-pcpus-only and the align-by-socket cases, topoQuadSocketFourWayHT
 * included), TestStaticPolicyReuseCPUs, TestStaticPolicyDoNotReuseCPUs,
 * TestStaticPolicyRemove, TestTopologyAwareAllocateCPUs,
 * TestStaticPolicyStartWithResvList, TestStaticPolicyAddWithResvList and
 * TestStaticPolicyAddWithUncoreAlignment.  Container names are lowered to
 * DNS labels, as the API server requires.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "kube_topologies.h"
#include "pod_util.h"
#include "policy_static.h"
#include "test_util.h"

struct assignment {
	const char *pod, *container, *cpus;
};

struct policy_case {
	const char *desc;
	enum kube_topo topo;
	int num_reserved;
	const char *reserved;		/* reservedCPUs, NULL: none */
	const char *options;		/* "name=value,..." */
	struct assignment st[3];	/* state entries */
	const char *st_default;
	const char *req, *lim;		/* makePod("fakePod", container, req, lim) */
	const char *container;
	const char *affinity;		/* topology hint NUMA nodes, NULL: none */
	const char *err;
	const char *exp;		/* NULL: no allocation expected */
};

static const struct policy_case insensitive[] = {
	{ "GuPodMultipleCores, SingleSocketHT, ExpectAllocOneCore", TOPO_SINGLE_SOCKET_HT, 1, NULL, "",
	  { { "fakePod", "fakecontainer100", "2-3,6-7" } }, "0-1,4-5", "2000m", "2000m", "fakecontainer3", NULL, NULL, "1,5" },
	{ "GuPodMultipleCores, DualSocketHT, ExpectAllocOneSocket", TOPO_DUAL_SOCKET_HT, 1, NULL, "",
	  { { "fakePod", "fakecontainer100", "2" } }, "0-1,3-11", "6000m", "6000m", "fakecontainer3", NULL, NULL, "1,3,5,7,9,11" },
	{ "GuPodMultipleCores, DualSocketHT, ExpectAllocThreeCores", TOPO_DUAL_SOCKET_HT, 1, NULL, "",
	  { { "fakePod", "fakecontainer100", "1,5" } }, "0,2-4,6-11", "6000m", "6000m", "fakecontainer3", NULL, NULL, "2-4,8-10" },
	{ "GuPodMultipleCores, DualSocketNoHT, ExpectAllocOneSocket", TOPO_DUAL_SOCKET_NO_HT, 1, NULL, "",
	  { { "fakePod", "fakecontainer100", "" } }, "0-1,3-7", "4000m", "4000m", "fakecontainer1", NULL, NULL, "4-7" },
	{ "GuPodMultipleCores, DualSocketNoHT, ExpectAllocFourCores", TOPO_DUAL_SOCKET_NO_HT, 1, NULL, "",
	  { { "fakePod", "fakecontainer100", "4-5" } }, "0-1,3,6-7", "4000m", "4000m", "fakecontainer1", NULL, NULL, "1,3,6-7" },
	{ "GuPodMultipleCores, DualSocketHT, ExpectAllocOneSocketOneCore", TOPO_DUAL_SOCKET_HT, 1, NULL, "",
	  { { "fakePod", "fakecontainer100", "2" } }, "0-1,3-11", "8000m", "8000m", "fakecontainer3", NULL, NULL, "1,3-5,7,9-11" },
	{ "NonGuPod, SingleSocketHT, NoAlloc", TOPO_SINGLE_SOCKET_HT, 1, NULL, "",
	  { { 0 } }, "0-7", "1000m", "2000m", "fakecontainer1", NULL, NULL, NULL },
	{ "GuPodNonIntegerCore, SingleSocketHT, NoAlloc", TOPO_SINGLE_SOCKET_HT, 1, NULL, "",
	  { { 0 } }, "0-7", "977m", "977m", "fakecontainer4", NULL, NULL, NULL },
	/* largeTopoCPUSet.Difference(X) is written "!X" */
	{ "GuPodMultipleCores, topoQuadSocketFourWayHT, ExpectAllocSock0", TOPO_QUAD_SOCKET_FOUR_WAY_HT, 0, NULL, "",
	  { { "fakePod", "fakecontainer100", "3,11,4,5,6,7" } }, "!3,11,4,5,6,7",
	  "72000m", "72000m", "fakecontainer5", NULL, NULL, KUBE_QUAD_SOCK0 },
	{ "GuPodMultipleCores, topoQuadSocketFourWayHT, ExpectAllocAllFullCoresFromThreeSockets", TOPO_QUAD_SOCKET_FOUR_WAY_HT, 0, NULL, "",
	  { { "fakePod", "fakecontainer100", "!1,25,13,38,2,9,11,35,23,48,12,51,53,173,113,233,54,61" } },
	  "1,25,13,38,2,9,11,35,23,48,12,51,53,173,113,233,54,61",
	  "12000m", "12000m", "fakeccontainer5", NULL, NULL, "1,25,13,38,11,35,23,48,53,173,113,233" },
	{ "GuPodMultipleCores, topoQuadSocketFourWayHT, ExpectAllocAllSock1+FullCore", TOPO_QUAD_SOCKET_FOUR_WAY_HT, 0, NULL, "",
	  { { "fakePod", "fakecontainer100", "!" KUBE_QUAD_SOCK1 ",10,34,22,47,53,173,61,181,108,228,115,235" } },
	  KUBE_QUAD_SOCK1 ",10,34,22,47,53,173,61,181,108,228,115,235",
	  "76000m", "76000m", "fakecontainer5", NULL, NULL, KUBE_QUAD_SOCK1 ",10,34,22,47" },
};

static const struct policy_case others[] = {
	/* defaultOptionsTestCases */
	{ "GuPodSingleCore, SingleSocketHT, ExpectAllocOneCPU", TOPO_SINGLE_SOCKET_HT, 1, NULL, "",
	  { { 0 } }, "0-7", "1000m", "1000m", "fakecontainer2", NULL, NULL, "4" },
	{ "GuPodSingleCore, SingleSocketHT, ExpectError", TOPO_SINGLE_SOCKET_HT, 1, NULL, "",
	  { { 0 } }, "0-7", "8000m", "8000m", "fakecontainer2", NULL,
	  "not enough cpus available to satisfy request: requested=8, available=7", NULL },
	{ "GuPodMultipleCores, SingleSocketHT, ExpectSameAllocation", TOPO_SINGLE_SOCKET_HT, 1, NULL, "",
	  { { "fakePod", "fakecontainer3", "2-3,6-7" } }, "0-1,4-5", "4000m", "4000m", "fakecontainer3", NULL, NULL, "2-3,6-7" },
	{ "GuPodMultipleCores, DualSocketHT, NoAllocExpectError", TOPO_DUAL_SOCKET_HT, 1, NULL, "",
	  { { "fakePod", "fakecontainer100", "1-3" } }, "0,4-11", "10000m", "10000m", "fakecontainer5", NULL,
	  "not enough cpus available to satisfy request: requested=10, available=8", NULL },
	{ "GuPodMultipleCores, SingleSocketHT, NoAllocExpectError", TOPO_SINGLE_SOCKET_HT, 1, NULL, "",
	  { { "fakePod", "fakecontainer100", "1-6" } }, "0,7", "2000m", "2000m", "fakecontainer5", NULL,
	  "not enough cpus available to satisfy request: requested=2, available=1", NULL },
	{ "GuPodMultipleCores, topoQuadSocketFourWayHT, ExpectAllocCPUs", TOPO_QUAD_SOCKET_FOUR_WAY_HT, 0, NULL, "",
	  { { "fakePod", "fakecontainer100", "!10,11,53,37,55,67,52" } }, "10,11,53,67,52",
	  "5000m", "5000m", "fakecontainer5", NULL, NULL, "10,11,53,67,52" },
	{ "GuPodMultipleCores, topoQuadSocketFourWayHT, NoAlloc", TOPO_QUAD_SOCKET_FOUR_WAY_HT, 0, NULL, "",
	  { { "fakePod", "fakecontainer100", "!10,11,53,37,55,67,52" } }, "10,11,53,37,55,67,52",
	  "76000m", "76000m", "fakecontainer5", NULL,
	  "not enough cpus available to satisfy request: requested=76, available=7", NULL },
	/* smtalignOptionTestCases */
	{ "GuPodSingleCore, SingleSocketHT, ExpectAllocOneCPU (full-pcpus-only)", TOPO_SINGLE_SOCKET_HT, 1, NULL, "full-pcpus-only=true",
	  { { 0 } }, "0-7", "1000m", "1000m", "fakecontainer2", NULL,
	  "SMT Alignment Error: requested 1 cpus not multiple cpus per core = 2", NULL },
	{ "GuPodMultipleCores, topoQuadSocketFourWayHT, ExpectAllocOneCPUs", TOPO_QUAD_SOCKET_FOUR_WAY_HT, 8, NULL, "full-pcpus-only=true",
	  { { 0 } }, "0-287", "15000m", "15000m", "fakecontainer15", NULL,
	  "SMT Alignment Error: requested 15 cpus not multiple cpus per core = 4", NULL },
	{ "GuPodManyCores, topoDualSocketHT, ExpectDoNotAllocPartialCPU", TOPO_DUAL_SOCKET_HT, 2, "1,6", "full-pcpus-only=true",
	  { { 0 } }, "0,2-5,7-11", "10000m", "10000m", "fakecontainerbug113537-1", NULL,
	  "SMT Alignment Error: not enough free physical CPUs: available physical CPUs = 8, requested CPUs = 10, CPUs per core = 2", NULL },
	{ "GuPodManyCores, topoDualSocketHT, AutoReserve, ExpectAllocAllCPUs", TOPO_DUAL_SOCKET_HT, 2, NULL, "full-pcpus-only=true",
	  { { 0 } }, "1-5,7-11", "10000m", "10000m", "fakecontainerbug113537-2", NULL, NULL, "1-5,7-11" },
	{ "GuPodManyCores, topoDualSocketHT, ExpectAllocAllCPUs", TOPO_DUAL_SOCKET_HT, 2, "0,6", "full-pcpus-only=true",
	  { { 0 } }, "1-5,7-11", "10000m", "10000m", "fakecontainerbug113537-2", NULL, NULL, "1-5,7-11" },
	/* alignBySocketOptionTestCases */
	{ "Align by socket: true, cpu's within same socket of numa in hint are part of allocation", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, 1, NULL, "align-by-socket=true",
	  { { 0 } }, "2,11,21,22", "2000m", "2000m", "fakecontainer2", "0,2", NULL, "2,11" },
	{ "Align by socket: false, cpu's are taken strictly from NUMA nodes in hint", TOPO_DUAL_SOCKET_MULTI_NUMA_HT, 1, NULL, "align-by-socket=false",
	  { { 0 } }, "2,11,21,22", "2000m", "2000m", "fakecontainer2", "0,2", NULL, "2,21" },
	/* TestStaticPolicyAddWithResvList */
	{ "GuPodSingleCore, SingleSocketHT, ExpectError (reserved 0)", TOPO_SINGLE_SOCKET_HT, 1, "0", "",
	  { { 0 } }, "0-7", "8000m", "8000m", "fakecontainer2", NULL,
	  "not enough cpus available to satisfy request: requested=8, available=7", NULL },
	{ "GuPodSingleCore, SingleSocketHT, ExpectAllocOneCPU (reserved 0-1)", TOPO_SINGLE_SOCKET_HT, 2, "0,1", "",
	  { { 0 } }, "0-7", "1000m", "1000m", "fakecontainer2", NULL, NULL, "4" },
	{ "GuPodMultipleCores, SingleSocketHT, ExpectAllocOneCore (reserved 0-1)", TOPO_SINGLE_SOCKET_HT, 2, "0,1", "",
	  { { "fakePod", "fakecontainer100", "2,3,6,7" } }, "0,1,4,5", "2000m", "2000m", "fakecontainer3", NULL, NULL, "4,5" },
	/*
	 * TestTopologyAwareAllocateCPUs: allocateCPUs() with a NUMA mask,
	 * here through Allocate() with that topology hint.
	 */
	{ "Request 2 CPUs, No BitMask", TOPO_DUAL_SOCKET_HT, 0, NULL, "",
	  { { 0 } }, "0-11", "2", "2", "c", NULL, NULL, "0,6" },
	{ "Request 2 CPUs, BitMask on Socket 0", TOPO_DUAL_SOCKET_HT, 0, NULL, "",
	  { { 0 } }, "0-11", "2", "2", "c", "0", NULL, "0,6" },
	{ "Request 2 CPUs, BitMask on Socket 1", TOPO_DUAL_SOCKET_HT, 0, NULL, "",
	  { { 0 } }, "0-11", "2", "2", "c", "1", NULL, "1,7" },
	{ "Request 8 CPUs, BitMask on Socket 0", TOPO_DUAL_SOCKET_HT, 0, NULL, "",
	  { { 0 } }, "0-11", "8", "8", "c", "0", NULL, "0,6,2,8,4,10,1,7" },
	{ "Request 8 CPUs, BitMask on Socket 1", TOPO_DUAL_SOCKET_HT, 0, NULL, "",
	  { { 0 } }, "0-11", "8", "8", "c", "1", NULL, "1,7,3,9,5,11,0,6" },
};

static void init_policy(struct __test_metadata *_metadata,
			struct cpu_policy *p, const struct topology *t,
			int num_reserved, const char *reserved,
			const char *options)
{
	struct policy_config cfg = { .kind = CPU_POLICY_STATIC };
	struct cm_error err = { 0 };

	cfg.num_reserved = num_reserved;
	if (reserved) {
		cfg.has_reserved_cpus = true;
		cfg.reserved_cpus = cs(reserved);
	}
	ASSERT_EQ(0, options_parse_list(&cfg.opts, options, &err));
	ASSERT_EQ(0, cpu_policy_init(p, t, &cfg, &err));
	cm_error_clear(&err);
}

/* A cpulist, or with a leading '!' every CPU of t but those listed. */
static struct cpuset cs_in(const struct topology *t, const char *list)
{
	struct cpuset s;

	if (list[0] != '!')
		return cs(list);
	s = cs(list + 1);
	cpuset_andnot(&s, &t->cpus, &s);
	return s;
}

static void set_state(struct cpu_assignments *s, const struct topology *t,
		      const struct assignment *a, unsigned int n,
		      const char *def)
{
	assignments_init(s);
	for (unsigned int i = 0; i < n && a[i].pod; i++) {
		struct cpuset c = cs_in(t, a[i].cpus);

		assignments_set(s, a[i].pod, a[i].container, &c);
	}
	s->default_set = cs_in(t, def);
}

static void run_case(struct __test_metadata *_metadata,
		     const struct policy_case *tc, const char *options)
{
	struct topology *t = kube_topology(tc->topo);
	struct cm_error err = { 0 };
	const struct cpuset *got;
	struct cpu_policy p;
	struct cpu_assignments s;
	struct pod pod;
	uint64_t aff = 0;
	int ret;

	init_policy(_metadata, &p, t, tc->num_reserved, tc->reserved, options);
	set_state(&s, t, tc->st, 3, tc->st_default);
	make_pod(&pod, "fakePod", tc->container, tc->req, tc->lim);
	if (tc->affinity) {
		struct cpuset a = cs(tc->affinity);

		aff = a.w[0];
	}
	ret = cpu_policy_allocate(&p, &s, &pod, &pod.containers[0],
				  tc->affinity ? &aff : NULL, &err);
	if (tc->err) {
		CHECK(ret != 0 && !strcmp(tc->err, cm_error_msg(&err)),
		      "%s [%s]: error \"%s\"", tc->desc, options,
		      cm_error_msg(&err));
	} else {
		CHECK(ret == 0, "%s [%s]: %s", tc->desc, options,
		      cm_error_msg(&err));
	}
	got = assignments_get(&s, "fakePod", tc->container);
	if (tc->exp) {
		struct cpuset want = cs(tc->exp);

		CHECK(got && cpuset_equal(got, &want), "%s [%s]: want %s",
		      tc->desc, options, tc->exp);
		CHECK(got && !cpuset_intersects(got, &s.default_set),
		      "%s: assignment overlaps the shared pool", tc->desc);
	} else {
		CHECK(!got, "%s [%s]: unexpected assignment", tc->desc,
		      options);
	}
	cm_error_clear(&err);
	pod_free(&pod);
	assignments_free(&s);
	cpu_policy_destroy(&p);
	topology_free(t);
}

TEST(static_policy_add)
{
	for (size_t i = 0; i < ARRAY_SIZE(insensitive); i++) {
		run_case(_metadata, &insensitive[i], "");
		run_case(_metadata, &insensitive[i], "full-pcpus-only=true");
	}
	for (size_t i = 0; i < ARRAY_SIZE(others); i++)
		run_case(_metadata, &others[i], others[i].options);
}

/*
 * TestStaticPolicyAddWithUncoreAlignment.  The shared pool is every CPU
 * of the topology (or of "base"), less the CPUs of the uncore caches in
 * "minus_uncores", less "minus_cpus", less the reserved CPUs; each app
 * container of makeMultiContainerPod() is allocated in turn.  The kubelet
 * then compares the first container's CPUs when it gives them, else the
 * set of uncore cache ids of every container's CPUs.  Not ported: the two
 * cases on topoSmallSingleSocketSingleNumaPerSocketNoSMTUncore, whose
 * definition no stored copy of policy_test.go holds.
 */
struct uncore_case {
	const char *desc;
	enum kube_topo topo;
	int num_reserved;
	const char *reserved, *options;
	const char *base;		/* NULL: every CPU of the topology */
	const char *minus_uncores, *minus_cpus;
	const char *uid;
	const char *cpus[4];		/* the app containers' requests */
	const char *exp_cpus;		/* expCSet, NULL: not compared */
	const char *exp_uncores;	/* expUncoreCache */
};

#define FULL_UNCORE "full-pcpus-only=true,prefer-align-cpus-by-uncorecache=true"
#define UNCORE "prefer-align-cpus-by-uncorecache=true"
#define STRICT_UNCORE "strict-cpu-reservation=true,prefer-align-cpus-by-uncorecache=true"

static const struct uncore_case uncore_cases[] = {
	{ "GuPodSingleContainerSaturating, DualSocketHTUncore, ExpectAllocOneUncore, FullUncoreAvail",
	  TOPO_DUAL_SOCKET_SMT_UNCORE, 8, "0,1,96,97,192,193,288,289", FULL_UNCORE, NULL, "0,12", NULL,
	  "with-app-container-saturating", { "16000m" }, NULL, "1" },
	{ "GuPodMainAndSidecarContainer, DualSocketHTUncore, ExpectAllocOneUncore, FullUncoreAvail",
	  TOPO_DUAL_SOCKET_SMT_UNCORE, 8, "0,1,96,97,192,193,288,289", FULL_UNCORE, NULL, "0,12", NULL,
	  "with-app-container-and-sidecar", { "12000m", "2000m" }, NULL, "1" },
	{ "GuPodSidecarAndMainContainer, DualSocketHTUncore, ExpectAllocOneUncore, FullUncoreAvail",
	  TOPO_DUAL_SOCKET_SMT_UNCORE, 8, "0,1,96,97,192,193,288,289", FULL_UNCORE, NULL, "0,12", NULL,
	  "with-sidecar-and-app-container", { "2000m", "12000m" }, NULL, "1" },
	{ "GuPodMainAndManySidecarContainer, DualSocketHTUncore, ExpectAllocOneUncore, FullUncoreAvail",
	  TOPO_DUAL_SOCKET_SMT_UNCORE, 8, "0,1,96,97,192,193,288,289", FULL_UNCORE, NULL, "0,12", NULL,
	  "with-app-container-and-multi-sidecar", { "10000m", "2000m", "2000m", "2000m" }, NULL, "1" },
	{ "GuPodMainAndSidecarContainer, DualSocketHTUncore, ExpectAllocTwoUncore",
	  TOPO_DUAL_SOCKET_SMT_UNCORE, 8, "0,1,96,97,192,193,288,289", FULL_UNCORE, NULL, NULL, NULL,
	  "with-app-container-and-sidecar", { "12000m", "2000m" }, NULL, "0-1" },
	{ "GuPodSingleContainer, SingleSocketSMTSmallUncore, ExpectAllocOneUncore",
	  TOPO_SINGLE_SOCKET_SMT_SMALL_UNCORE, 4, "0,1,64,65", FULL_UNCORE, NULL, NULL, NULL,
	  "with-app-container-saturating", { "8000m" }, NULL, "1" },
	{ "GuPodSingleContainer, SingleSocketSMTSmallUncore, ExpectAllocTwoUncore",
	  TOPO_SINGLE_SOCKET_SMT_SMALL_UNCORE, 4, "0,1,64,65", FULL_UNCORE, NULL, "1", NULL,
	  "with-app-container-saturating", { "12000m" }, NULL, "0,2" },
	{ "GuPodSingleContainer, SingleSocketNoSMTSmallUncore, FragmentedUncore, ExpectAllocThreeUncore",
	  TOPO_SINGLE_SOCKET_NO_SMT_SMALL_UNCORE, 4, "0-3", FULL_UNCORE, NULL, "2,3,5", NULL,
	  "with-app-container-saturating", { "12000m" }, NULL, "1,4,6" },
	{ "GuPodMultiContainer, DualSocketSMTUncore, FragmentedUncore, ExpectAllocOneUncore",
	  TOPO_SMALL_DUAL_SOCKET_NO_SMT_UNCORE, 4, "0,1,32,33", FULL_UNCORE, NULL, "1", NULL,
	  "with-multiple-container", { "4000m", "2000m" }, NULL, "0" },
	{ "GuPodMultiContainer, DualSocketSMTUncore, FragmentedUncore, ExpectAllocTwoUncore",
	  TOPO_SMALL_DUAL_SOCKET_NO_SMT_UNCORE, 4, "0,1,32,33", FULL_UNCORE, NULL, "1", NULL,
	  "with-multiple-container", { "4000m", "4000m" }, NULL, "0,2" },
	{ "GuPodMultiContainer, LargeSingleSocketSMTUncore, PartialUncoreFit, ExpectAllocTwoUncore",
	  TOPO_LARGE_SINGLE_SOCKET_SMT_UNCORE, 4, "0,1,128,129", FULL_UNCORE, NULL, NULL, "8,9,136,137",
	  "with-multiple-container", { "12000m", "12000m" }, NULL, "0-1" },
	{ "GuPodMultiContainer, LargeSingleSocketSMTUncore, PartialUncoreNoFit, ExpectAllocTwoUncore",
	  TOPO_LARGE_SINGLE_SOCKET_SMT_UNCORE, 4, "0,1,128,129", FULL_UNCORE, NULL, NULL, "8,9,136,137",
	  "with-multiple-container", { "14000m", "14000m" }, NULL, "2-3" },
	{ "GuPodLargeSingleContainer, DualSocketNoSMTUncore, FullNUMAsAvail, ExpectAllocFullNUMA",
	  TOPO_DUAL_SOCKET_MULTI_NUMA_UNCORE, 4, "0-3", FULL_UNCORE, NULL, NULL, NULL,
	  "with-large-single-container", { "48000m" }, NULL, "6-11" },
	{ "GuPodSingleContainer, MonoUncoreCacheHT, ExpectAllocCPUSet",
	  TOPO_DUAL_SOCKET_SUB_NUMA_HT_MONO_UNCORE, 4, "0,1,120,121", FULL_UNCORE, NULL, NULL, NULL,
	  "with-single-container", { "6000m" }, "2-4,122-124", "0" },
	{ "GuPodSingleContainer, MonoUncoreCacheHT, ExpectAllocCPUSet (P-cores and E-cores)",
	  TOPO_SINGLE_SOCKET_PCORE_HT_MONO_UNCORE, 2, "0,1", FULL_UNCORE, NULL, NULL, "4-7",
	  "with-single-container", { "6000m" }, "2,3,8,9,16,17", "0" },
	{ "GuPodSingleContainer, LargeSingleSocketUncore, ExpectAllocOneUncore",
	  TOPO_LARGE_SINGLE_SOCKET_UNCORE, 4, "0-3", FULL_UNCORE, NULL, NULL, NULL,
	  "with-single-container", { "8000m" }, NULL, "1" },
	{ "GuPodSingleContainer, MonoUncoreCacheHT, ExpectFragmentedAllocCPUSet",
	  TOPO_SINGLE_SOCKET_UNCORE, 2, "0,1", FULL_UNCORE, NULL, NULL, "6-9,12-15,18-19",
	  "with-single-container", { "12000m" }, "2-5,10-11,16-17,20-23", "0" },
	{ "odd integer required on smt-enabled",
	  TOPO_SINGLE_SOCKET_SMT_SMALL_UNCORE, 4, "0,1,64,65", UNCORE, NULL, NULL, NULL,
	  "with-single-container", { "3000m" }, "2,3,66", NULL },
	{ "odd integer required on odd integer partial uncore",
	  TOPO_SINGLE_SOCKET_SMT_SMALL_UNCORE, 3, "0,1,64", UNCORE, NULL, NULL, NULL,
	  "with-single-container", { "3000m" }, "2,65,66", NULL },
	{ "even integer required on odd integer partial uncore",
	  TOPO_SINGLE_SOCKET_SMT_SMALL_UNCORE, 3, "0,1,64", UNCORE, NULL, NULL, NULL,
	  "with-single-container", { "4000m" }, "4,5,68,69", NULL },
	{ "large odd integer required on smt-enabled",
	  TOPO_SINGLE_SOCKET_SMT_SMALL_UNCORE, 3, "0,1,64", UNCORE, NULL, NULL, NULL,
	  "with-single-container", { "11000m" }, "2,65,66,4-7,68-71", NULL },
	/* the kubelet's shared pool here is the CPUs of SMTSmallUncore: 0-127 */
	{ "odd integer required on HT monolithic uncore",
	  TOPO_DUAL_SOCKET_SUB_NUMA_HT_MONO_UNCORE, 3, "0,1,120", UNCORE, "0-127", NULL, NULL,
	  "with-single-container", { "5000m" }, "2,3,121-123", NULL },
	{ "even integer required on HT monolithic uncore",
	  TOPO_DUAL_SOCKET_SUB_NUMA_HT_MONO_UNCORE, 3, "0,1,120", UNCORE, "0-127", NULL, NULL,
	  "with-single-container", { "4000m" }, "2,3,122,123", NULL },
	{ "GuPodSingleContainer, SingleSocketSMTSmallUncore, StrictReserveCompatability",
	  TOPO_SINGLE_SOCKET_SMT_SMALL_UNCORE, 4, "0,1,64,65", STRICT_UNCORE, NULL, NULL, NULL,
	  "with-single-container", { "2000m" }, "2,66", NULL },
	{ "GuPodSingleContainer, DualSocketHTMonoUncore, StrictReserveCompatability",
	  TOPO_DUAL_SOCKET_SUB_NUMA_HT_MONO_UNCORE, 4, "0,1,120,121", STRICT_UNCORE, NULL, NULL, NULL,
	  "with-single-container", { "4000m" }, "2,3,122,123", NULL },
};

/* makeMultiContainerPod() with no init containers, then WithPodUID(). */
static void make_app_pod(struct pod *p, const char *uid,
			 const char *const *cpus)
{
	char buf[2048];
	int n = snprintf(buf, sizeof(buf),
			 "{\"metadata\":{\"uid\":\"%s\",\"name\":\"pod\",\"namespace\":\"d\"},"
			 "\"spec\":{\"initContainers\":[],\"containers\":[", uid);

	for (int i = 0; i < 4 && cpus[i]; i++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      "%s{\"name\":\"appcontainer-%d\",\"resources\":{"
			      "\"requests\":{\"cpu\":\"%s\",\"memory\":\"1G\"},"
			      "\"limits\":{\"cpu\":\"%s\",\"memory\":\"1G\"}}}",
			      i ? "," : "", i, cpus[i], cpus[i]);
	snprintf(buf + n, sizeof(buf) - (size_t)n, "]}}");
	pod_from_text(p, buf);
}

static void uncore_pool(const struct topology *t, const struct uncore_case *tc,
			struct cpuset *pool)
{
	struct cpuset part;
	int id;

	*pool = tc->base ? cs(tc->base) : t->cpus;
	if (tc->minus_uncores) {
		struct cpuset ids = cs(tc->minus_uncores);

		cpuset_for_each(id, &ids) {
			topology_cpus_in(t, TOPO_UNCORE, id, &part);
			cpuset_andnot(pool, pool, &part);
		}
	}
	if (tc->minus_cpus) {
		part = cs(tc->minus_cpus);
		cpuset_andnot(pool, pool, &part);
	}
	part = cs(tc->reserved);
	cpuset_andnot(pool, pool, &part);
}

TEST(static_policy_add_with_uncore_alignment)
{
	for (size_t i = 0; i < ARRAY_SIZE(uncore_cases); i++) {
		const struct uncore_case *tc = &uncore_cases[i];
		struct topology *t = kube_topology(tc->topo);
		struct cm_error err = { 0 };
		struct cpuset ids;
		struct cpu_policy p;
		struct cpu_assignments s;
		struct pod pod;
		bool ok = true;

		init_policy(_metadata, &p, t, tc->num_reserved, tc->reserved,
			    tc->options);
		assignments_init(&s);
		uncore_pool(t, tc, &s.default_set);
		make_app_pod(&pod, tc->uid, tc->cpus);
		for (unsigned int k = 0; k < pod.nr && ok; k++) {
			ok = !cpu_policy_allocate(&p, &s, &pod,
						  &pod.containers[k], NULL,
						  &err);
			CHECK(ok, "%s: container %u: %s", tc->desc, k,
			      cm_error_msg(&err));
		}
		cpuset_zero(&ids);
		for (unsigned int k = 0; k < pod.nr && ok; k++) {
			const struct cpuset *got =
				assignments_get(&s, tc->uid,
						pod.containers[k].name);
			int cpu;

			CHECK(got != NULL, "%s: container %u unassigned", tc->desc, k);
			if (!got)
				break;
			if (!k && tc->exp_cpus) {
				struct cpuset want = cs(tc->exp_cpus);
				char *g = cpuset_to_str(got);

				CHECK(cpuset_equal(got, &want),
				      "%s: got %s, want %s", tc->desc, g,
				      tc->exp_cpus);
				free(g);
			}
			cpuset_for_each(cpu, got) {
				struct topo_cpu_info ci;

				if (topology_cpu_info(t, cpu, &ci))
					cpuset_set(&ids, ci.uncore);
			}
		}
		if (ok && !tc->exp_cpus) {
			struct cpuset want = cs(tc->exp_uncores);
			char *g = cpuset_to_str(&ids);

			CHECK(cpuset_equal(&ids, &want),
			      "%s: uncore caches %s, want %s", tc->desc, g,
			      tc->exp_uncores);
			free(g);
		}
		cm_error_clear(&err);
		pod_free(&pod);
		assignments_free(&s);
		cpu_policy_destroy(&p);
		topology_free(t);
	}
}

/*
 * TestStaticPolicyStart and TestStaticPolicyStartWithResvList (the latter
 * with reservedCPUs 0-1; new_err: NewStaticPolicy() fails), on
 * topoDualSocketHT.
 */
TEST(static_policy_start)
{
	static const struct {
		const char *desc;
		int num_reserved;
		const char *reserved, *options;
		struct assignment st[2];
		const char *def, *new_err, *err, *exp;
	} cases[] = {
		{ "non-corrupted state", 0, NULL, "", { { "fakePod", "0", "0" } }, "1-11", NULL, NULL, "1-11" },
		{ "empty cpuset", 1, NULL, "", { { 0 } }, "", NULL, NULL, "0-11" },
		{ "reserved cores 0 & 6 are not present in available cpuset", 2, NULL, "", { { 0 } }, "0-1", NULL,
		  "not all reserved cpus: \"0,6\" are present in defaultCpuSet: \"0-1\"", NULL },
		{ "some of reserved cores are present in available cpuset (StrictCPUReservationOption)", 2, NULL, "strict-cpu-reservation=true", { { 0 } }, "0-1", NULL,
		  "some of strictly reserved cpus: \"0\" are present in defaultCpuSet: \"0-1\"", NULL },
		{ "assigned core 2 is still present in available cpuset", 0, NULL, "", { { "fakePod", "0", "0-2" } }, "2-11", NULL,
		  "pod: fakePod, container: 0 cpuset: \"0-2\" overlaps with default cpuset \"2-11\"", NULL },
		{ "assigned core 2 is still present in available cpuset (StrictCPUReservationOption)", 0, NULL, "strict-cpu-reservation=true", { { "fakePod", "0", "0-2" } }, "2-11", NULL,
		  "pod: fakePod, container: 0 cpuset: \"0-2\" overlaps with default cpuset \"2-11\"", NULL },
		{ "core 12 is not present in topology but is in state cpuset", 0, NULL, "", { { "fakePod", "0", "0-2" }, { "fakePod", "1", "3-4" } }, "5-12", NULL,
		  "current set of available CPUs \"0-11\" doesn't match with CPUs in state \"0-12\"", NULL },
		{ "core 11 is present in topology but is not in state cpuset", 0, NULL, "", { { "fakePod", "0", "0-2" }, { "fakePod", "1", "3-4" } }, "5-10", NULL,
		  "current set of available CPUs \"0-11\" doesn't match with CPUs in state \"0-10\"", NULL },
		/* TestStaticPolicyStartWithResvList */
		{ "empty cpuset (reserved 0-1)", 2, "0-1", "", { { 0 } }, "", NULL, NULL, "0-11" },
		{ "empty cpuset with StrictCPUReservationOption enabled", 2, "0-1", "strict-cpu-reservation=true", { { 0 } }, "", NULL, NULL, "2-11" },
		{ "reserved cores 0 & 1 are not present in available cpuset", 2, "0-1", "", { { 0 } }, "2-5", NULL,
		  "not all reserved cpus: \"0-1\" are present in defaultCpuSet: \"2-5\"", NULL },
		{ "reserved cores 0 & 1 are present in available cpuset with StrictCPUReservationOption enabled", 2, "0-1", "strict-cpu-reservation=true", { { 0 } }, "0-5", NULL,
		  "some of strictly reserved cpus: \"0-1\" are present in defaultCpuSet: \"0-5\"", NULL },
		{ "inconsistency between numReservedCPUs and reserved", 1, "0-1", "", { { 0 } }, "0-11",
		  "[cpumanager] unable to reserve the required amount of CPUs (size of 0-1 did not equal 1)", NULL, NULL },
	};
	struct topology *t = kube_topology(TOPO_DUAL_SOCKET_HT);

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct policy_config cfg = { .kind = CPU_POLICY_STATIC };
		struct cm_error err = { 0 };
		struct cpu_policy p;
		struct cpu_assignments s;
		int ret;

		cfg.num_reserved = cases[i].num_reserved;
		if (cases[i].reserved) {
			cfg.has_reserved_cpus = true;
			cfg.reserved_cpus = cs(cases[i].reserved);
		}
		ASSERT_EQ(0, options_parse_list(&cfg.opts, cases[i].options,
						&err));
		ret = cpu_policy_init(&p, t, &cfg, &err);
		if (cases[i].new_err) {
			CHECK(ret && !strcmp(cases[i].new_err, cm_error_msg(&err)),
			      "%s: \"%s\"", cases[i].desc, cm_error_msg(&err));
			cm_error_clear(&err);
			continue;
		}
		ASSERT_EQ(0, ret);
		set_state(&s, t, cases[i].st, 2, cases[i].def);
		ret = cpu_policy_start(&p, &s, &err);
		if (cases[i].err) {
			CHECK(ret && !strcmp(cases[i].err, cm_error_msg(&err)),
			      "%s: \"%s\"", cases[i].desc, cm_error_msg(&err));
		} else {
			struct cpuset want = cs(cases[i].exp);

			CHECK(!ret, "%s: %s", cases[i].desc, cm_error_msg(&err));
			CHECK(cpuset_equal(&want, &s.default_set), "%s: default",
			      cases[i].desc);
		}
		cm_error_clear(&err);
		assignments_free(&s);
		cpu_policy_destroy(&p);
	}
	topology_free(t);
}

/* TestStaticPolicyReuseCPUs and TestStaticPolicyDoNotReuseCPUs */
TEST(static_policy_reuse)
{
	struct topology *t = kube_topology(TOPO_SINGLE_SOCKET_HT);
	struct cm_error err = { 0 };
	struct cpuset want;

	for (int sidecar = 0; sidecar < 2; sidecar++) {
		struct cpu_policy p;
		struct cpu_assignments s;
		struct pod pod;

		init_policy(_metadata, &p, t, 0, NULL, "");
		set_state(&s, t, NULL, 0, "0-7");
		make_init_pod(&pod, "fakePod", "4000m", sidecar, "2000m");
		for (unsigned int i = 0; i < pod.nr; i++)
			EXPECT_EQ(0, cpu_policy_allocate(&p, &s, &pod,
							 &pod.containers[i],
							 NULL, &err));
		want = cs(sidecar ? "3,7" : "2-3,6-7");
		CHECK(cpuset_equal(&want, &s.default_set),
		      "sidecar=%d: default after allocation", sidecar);
		if (!sidecar) {
			cpu_policy_remove(&p, &s, "fakePod", "initcontainer-0");
			want = cs("1-3,5-7");
			CHECK(cpuset_equal(&want, &s.default_set),
			      "default after removing the init container");
			CHECK(!assignments_get(&s, "fakePod", "initcontainer-0"),
			      "init container still assigned");
		}
		pod_free(&pod);
		assignments_free(&s);
		cpu_policy_destroy(&p);
	}
	topology_free(t);
}

TEST(static_policy_remove)
{
	static const struct {
		const char *desc, *container;
		struct assignment st[2];
		const char *def, *exp;
	} cases[] = {
		{ "SingleSocketHT, DeAllocOneContainer", "fakecontainer1",
		  { { "fakePod", "fakecontainer1", "1-3" } }, "4-7", "1-7" },
		{ "SingleSocketHT, DeAllocOneContainer, BeginEmpty", "fakecontainer1",
		  { { "fakePod", "fakecontainer1", "1-3" }, { "fakePod", "fakecontainer2", "4-7" } }, "", "1-3" },
		{ "SingleSocketHT, DeAllocTwoContainer", "fakecontainer1",
		  { { "fakePod", "fakecontainer1", "1,3,5" }, { "fakePod", "fakecontainer2", "2,4" } }, "6-7", "1,3,5-7" },
		{ "SingleSocketHT, NoDeAlloc", "fakecontainer2",
		  { { "fakePod", "fakecontainer1", "1,3,5" } }, "2,4,6-7", "2,4,6-7" },
	};
	struct topology *t = kube_topology(TOPO_SINGLE_SOCKET_HT);

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cpu_policy p;
		struct cpu_assignments s;
		struct cpuset want = cs(cases[i].exp);

		init_policy(_metadata, &p, t, 0, NULL, "");
		set_state(&s, t, cases[i].st, 2, cases[i].def);
		cpu_policy_remove(&p, &s, "fakePod", cases[i].container);
		CHECK(cpuset_equal(&want, &s.default_set), "%s", cases[i].desc);
		CHECK(!assignments_get(&s, "fakePod", cases[i].container), "%s: still assigned",
		      cases[i].desc);
		assignments_free(&s);
		cpu_policy_destroy(&p);
	}
	topology_free(t);
}

TEST_HARNESS_MAIN
