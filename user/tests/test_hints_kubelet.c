// SPDX-License-Identifier: GPL-2.0
/*
 * The kubelet's topology hint tables, ported from
 * pkg/kubelet/cm/cpumanager/topology_hints_test.go with its expected
 * hints: TestPodGuaranteedCPUs, TestGetTopologyHints and
 * TestGetPodTopologyHints (both on the returnTestCases() table and the
 * machine of returnMachineInfo()) and
 * TestGetPodTopologyHintsWithPolicyOptions.  The kubelet compares hint
 * lists after sorting them, and an empty list like a missing one; so do
 * these tests.  Container names are lowered to DNS labels.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "kube_topologies.h"
#include "pod_util.h"
#include "policy_static.h"
#include "test_util.h"

/* NUMA node masks, as bitmask.NewBitMask(ids...) */
#define N(id) (UINT64_C(1) << (id))

struct want_hint {
	uint64_t numa;
	bool preferred;
};

struct hint_case {
	const char *name;
	const char *request;		/* makePod("fakePod", "fakeContainer", r, r) */
	const char *assigned;		/* that container's CPUs, NULL: none */
	const char *default_set;
	struct want_hint hints[8];	/* numa 0 ends the list */
};

static void check_hints(struct __test_metadata *_metadata, const char *name,
			const struct hint_list *got,
			const struct want_hint *want)
{
	unsigned int n = 0;

	while (n < 8 && want[n].numa)
		n++;
	CHECK(got->nr == n, "%s: %u hints, want %u", name, got->nr, n);
	if (n)
		CHECK(!got->no_preference, "%s: no preference", name);
	for (unsigned int i = 0; i < n; i++) {
		bool found = false;

		for (unsigned int k = 0; k < got->nr; k++)
			if (got->hints[k].numa == want[i].numa &&
			    got->hints[k].preferred == want[i].preferred)
				found = true;
		CHECK(found, "%s: hint %#llx preferred=%d missing", name,
		      (unsigned long long)want[i].numa, want[i].preferred);
	}
}

static void init_policy(struct __test_metadata *_metadata,
			struct cpu_policy *p, const struct topology *t,
			const char *options)
{
	struct policy_config cfg = { .kind = CPU_POLICY_STATIC };
	struct cm_error err = { 0 };

	ASSERT_EQ(0, options_parse_list(&cfg.opts, options, &err));
	ASSERT_EQ(0, cpu_policy_init(p, t, &cfg, &err));
	cm_error_clear(&err);
}

/*
 * makeMultiContainerPodWithOptions(): init containers "initcontainer-<i>"
 * and app containers "appcontainer-<i>", cpu request = limit, memory 1G;
 * a request starting with '+' is a restartable (sidecar) init container.
 */
static void make_options_pod(struct pod *p, const char *const *init,
			     const char *const *app)
{
	char buf[4096];
	int n = snprintf(buf, sizeof(buf),
			 "{\"metadata\":{\"uid\":\"podUID\",\"name\":\"pod\"},"
			 "\"spec\":{\"initContainers\":[");

	for (int pass = 0; pass < 2; pass++) {
		const char *const *list = pass ? app : init;

		for (int i = 0; list[i]; i++) {
			bool sidecar = list[i][0] == '+';
			const char *cpu = list[i] + sidecar;

			n += snprintf(buf + n, sizeof(buf) - (size_t)n,
				      "%s{\"name\":\"%scontainer-%d\",%s"
				      "\"resources\":{\"requests\":{\"cpu\":\"%s\",\"memory\":\"1G\"},"
				      "\"limits\":{\"cpu\":\"%s\",\"memory\":\"1G\"}}}",
				      i ? "," : "", pass ? "app" : "init", i,
				      sidecar ? "\"restartPolicy\":\"Always\"," : "",
				      cpu, cpu);
		}
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s",
			      pass ? "]}}" : "],\"containers\":[");
	}
	pod_from_text(p, buf);
}

/* TestPodGuaranteedCPUs: podGuaranteedCPUs() */
TEST(pod_guaranteed_cpus_table)
{
	static const struct {
		const char *name;
		const char *init[6], *app[3];
		int cpus;
	} cases[] = {
		{ "TestCase01: if requestedCPU == 0, Pod is not Guaranteed Qos", { "0" }, { "0" }, 0 },
		{ "TestCase02: if requestedCPU == 0, Pod is not Guaranteed Qos", { "0" }, { "2" }, 0 },
		{ "TestCase03: if requestedCPU == 0, Pod is not Guaranteed Qos", { "2" }, { "0" }, 0 },
		{ "TestCase04: Guaranteed Pod requests 2 CPUs", { "2" }, { "2" }, 2 },
		{ "TestCase05: Guaranteed Pod requests 5 CPUs", { "5" }, { "5" }, 5 },
		{ "TestCase06: The number of CPUs requested By app is bigger than the number of CPUs requested by init",
		  { "2" }, { "5" }, 5 },
		{ "TestCase07: The number of CPUs requested By init is bigger than the number of CPUs requested by app",
		  { "5" }, { "2" }, 5 },
		{ "TestCase08: Sum of CPUs requested by multiple containers", { "2", "4" }, { "2", "4" }, 6 },
		{ "TestCase09: restartable init container + regular container", { "+1" }, { "1" }, 2 },
		{ "TestCase09: multiple restartable init containers", { "5", "+1", "+2", "+3" }, { "1" }, 7 },
		{ "TestCase11: multiple restartable and regular init containers",
		  { "5", "+1", "+2", "5", "+3" }, { "1" }, 8 },
		{ "TestCase12: restartable init, regular init and regular container", { "+10", "200" }, { "100" }, 210 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pod pod;
		int got;

		make_options_pod(&pod, cases[i].init, cases[i].app);
		got = pod_guaranteed_cpus_total(&pod);
		CHECK(got == cases[i].cpus, "%s: %d, want %d", cases[i].name,
		      got, cases[i].cpus);
		pod_free(&pod);
	}
}

/* returnTestCases() */
static const struct hint_case hint_cases[] = {
	{ "Request 2 CPUs, 4 available on NUMA 0, 6 available on NUMA 1", "2", NULL, "2-11",
	  { { N(0), true }, { N(1), true }, { N(0) | N(1), false } } },
	{ "Request 5 CPUs, 4 available on NUMA 0, 6 available on NUMA 1", "5", NULL, "2-11",
	  { { N(1), true }, { N(0) | N(1), false } } },
	{ "Request 7 CPUs, 4 available on NUMA 0, 6 available on NUMA 1", "7", NULL, "2-11",
	  { { N(0) | N(1), true } } },
	{ "Request 11 CPUs, 4 available on NUMA 0, 6 available on NUMA 1", "11", NULL, "2-11",
	  { { 0 } } },
	{ "Request 2 CPUs, 1 available on NUMA 0, 1 available on NUMA 1", "2", NULL, "0,3",
	  { { N(0) | N(1), false } } },
	{ "Request more CPUs than available", "5", NULL, "0-3",
	  { { 0 } } },
	{ "Regenerate Single-Node NUMA Hints if already allocated 1/2", "2", "0,6", "",
	  { { N(0), true }, { N(0) | N(1), false } } },
	{ "Regenerate Single-Node NUMA Hints if already allocated 1/2 (NUMA 1)", "2", "3,9", "",
	  { { N(1), true }, { N(0) | N(1), false } } },
	{ "Regenerate Cross-NUMA Hints if already allocated", "11", "0-10", "",
	  { { N(0) | N(1), true } } },
	{ "Requested less than already allocated", "2", "0,6,3,9", "",
	  { { 0 } } },
	{ "Requested more than already allocated", "11", "0,6,3,9", "",
	  { { 0 } } },
};

static void run_hint_cases(struct __test_metadata *_metadata, bool pod_scope)
{
	struct topology *t = kube_topology(TOPO_HINTS_MACHINE_INFO);
	struct cpu_policy p;

	init_policy(_metadata, &p, t, "");
	for (size_t i = 0; i < ARRAY_SIZE(hint_cases); i++) {
		const struct hint_case *tc = &hint_cases[i];
		struct cm_error err = { 0 };
		struct hint_list got;
		struct cpu_assignments s;
		struct pod pod;
		int ret;

		assignments_init(&s);
		s.default_set = cs(tc->default_set);
		make_pod(&pod, "fakePod", "fakecontainer", tc->request,
			 tc->request);
		if (tc->assigned) {
			struct cpuset a = cs(tc->assigned);

			ASSERT_EQ(0, assignments_set(&s, "fakePod", "fakecontainer",
						     &a));
		}
		if (pod_scope)
			ret = cpu_policy_pod_hints(&p, &s, &pod, &got, &err);
		else
			ret = cpu_policy_container_hints(&p, &s, &pod,
							 &pod.containers[0],
							 &got, &err);
		CHECK(!ret, "%s: %s", tc->name, cm_error_msg(&err));
		check_hints(_metadata, tc->name, &got, tc->hints);
		hint_list_free(&got);
		cm_error_clear(&err);
		pod_free(&pod);
		assignments_free(&s);
	}
	cpu_policy_destroy(&p);
	topology_free(t);
}

TEST(get_topology_hints)
{
	run_hint_cases(_metadata, false);
}

TEST(get_pod_topology_hints)
{
	run_hint_cases(_metadata, true);
}

TEST(get_pod_topology_hints_with_policy_options)
{
	static const struct {
		struct hint_case c;
		const char *options;
	} cases[] = {
		{ { "AlignBySocket:false, Preferred hints does not contains socket aligned hints",
		    "2", NULL, "2,3,11",
		    { { N(0), true }, { N(0) | N(1), false }, { N(0) | N(2), false },
		      { N(0) | N(3), false }, { N(0) | N(1) | N(2), false },
		      { N(0) | N(1) | N(3), false }, { N(0) | N(2) | N(3), false },
		      { N(0) | N(1) | N(2) | N(3), false } } },
		  "align-by-socket=false" },
		{ { "AlignBySocket:true Preferred hints contains socket aligned hints",
		    "2", NULL, "2,3,11",
		    { { N(0), true }, { N(0) | N(1), true }, { N(0) | N(2), false },
		      { N(0) | N(3), false }, { N(0) | N(1) | N(2), false },
		      { N(0) | N(1) | N(3), false }, { N(0) | N(2) | N(3), false },
		      { N(0) | N(1) | N(2) | N(3), false } } },
		  "align-by-socket=true" },
		{ { "AlignBySocket:true Preferred hints are spread across socket since 2 sockets are required",
		    "41", NULL, "0-28,40-57",
		    { { N(0) | N(1) | N(2), true }, { N(0) | N(1) | N(2) | N(3), true } } },
		  "align-by-socket=true" },
	};
	struct topology *t = kube_topology(TOPO_DUAL_SOCKET_MULTI_NUMA_HT);

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct hint_case *tc = &cases[i].c;
		struct cm_error err = { 0 };
		struct hint_list got;
		struct cpu_policy p;
		struct cpu_assignments s;
		struct pod pod;

		init_policy(_metadata, &p, t, cases[i].options);
		assignments_init(&s);
		s.default_set = cs(tc->default_set);
		make_pod(&pod, "fakePod", "fakecontainer", tc->request,
			 tc->request);
		CHECK(!cpu_policy_pod_hints(&p, &s, &pod, &got, &err),
		      "%s: %s", tc->name, cm_error_msg(&err));
		check_hints(_metadata, tc->name, &got, tc->hints);
		hint_list_free(&got);
		cm_error_clear(&err);
		pod_free(&pod);
		assignments_free(&s);
		cpu_policy_destroy(&p);
	}
	topology_free(t);
}

TEST_HARNESS_MAIN
