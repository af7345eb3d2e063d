// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the library's pieces: cpulists, quantities, pods and
 * their QoS class, policy options, topology loaders, the none policy,
 * topology hints and the all-or-nothing pod add.  Fixture files live in
 * user/tests/data of the source tree ($CPUMGR_TEST_DATA overrides).
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "kube_topologies.h"
#include "options.h"
#include "pod_util.h"
#include "policy_static.h"
#include "quantity.h"
#include "test_util.h"
#include "topology_json.h"

TEST(cpulist_parse_and_print)
{
	static const struct { const char *in, *out; } ok[] = {
		{ "", "" }, { "\n", "" }, { "0", "0" }, { "0-3,8", "0-3,8" },
		{ "3,2,1,0", "0-3" }, { "2,3", "2-3" }, { "1-1", "1" },
		{ "0-3\n", "0-3" }, { "0-15:2/4", "0-1,4-5,8-9,12-13" },
		{ "0,2,4-6,8191", "0,2,4-6,8191" }, { "5,5,5", "5" },
		/* runs across words and up to the last CPU */
		{ "63,64", "63-64" }, { "60-130,191-192", "60-130,191-192" },
		{ "0-8191", "0-8191" }, { "8128-8191", "8128-8191" },
	};
	static const char *const bad[] = {
		"a", "-1", "1-", "3-1", "1,,2", ",1", "1,", "0-3:0/4",
		"0-3:5/4", "0-3:1", "1 2", " 1", "8192", "0-99999999999",
		"1\n\n", "0x1",
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		struct cpuset s;
		char buf[64];

		CHECK(!cpuset_parse(&s, ok[i].in, &err), "\"%s\": %s", ok[i].in,
		      cm_error_msg(&err));
		cpuset_format(&s, buf, sizeof(buf));
		CHECK(!strcmp(buf, ok[i].out), "\"%s\" printed \"%s\"",
		      ok[i].in, buf);
	}
	/* snprintf's contract: the whole length, the text cut to fit */
	{
		struct cpuset s = cs("0-3,8");
		char small[4];

		EXPECT_EQ(5u, cpuset_format(&s, small, sizeof(small)));
		EXPECT_STREQ("0-3", small);
		EXPECT_EQ(5u, cpuset_format(&s, NULL, 0));
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct cpuset s = cs("7");

		CHECK(cpuset_parse(&s, bad[i], &err) < 0, "\"%s\" accepted",
		      bad[i]);
		CHECK(cpuset_count(&s) == 1 && cpuset_test(&s, 7),
		      "\"%s\": failed parse changed the set", bad[i]);
		CHECK(strstr(cm_error_msg(&err), "invalid cpulist") != NULL,
		      "message: %s", cm_error_msg(&err));
	}
	cm_error_clear(&err);
}

TEST(quantities)
{
	static const struct { const char *in; long long milli; } ok[] = {
		{ "2", 2000 }, { "2000m", 2000 }, { "1.5", 1500 }, { "500m", 500 },
		{ "1e3", 1000000 }, { "1E-3", 1 }, { "0.0001", 1 }, { "+3", 3000 },
		{ ".5", 500 }, { "1k", 1000000 }, { "100u", 1 }, { "2.", 2000 },
	};
	static const char *const bad[] = {
		"", "abc", "1.2.3", "1e3m", "1 ", "--1", "1Qi", "1e", "1iK",
	};
	struct cm_error err = { 0 };
	struct quantity q, a, b;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		CHECK(!quantity_parse_cpu(ok[i].in, &q, &err), "\"%s\": %s",
		      ok[i].in, cm_error_msg(&err));
		CHECK(quantity_milli_value(&q) == ok[i].milli, "\"%s\": %lld",
		      ok[i].in, (long long)quantity_milli_value(&q));
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(quantity_parse(bad[i], &q, &err) < 0, "\"%s\" accepted",
		      bad[i]);
	EXPECT_NE(0, quantity_parse("1e3m", &q, &err));
	EXPECT_STREQ("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
		     cm_error_msg(&err));
	EXPECT_NE(0, quantity_parse("1iK", &q, &err));
	EXPECT_STREQ("unable to parse quantity's suffix", cm_error_msg(&err));
	/* binary suffixes: fine for memory, an error for cpu */
	EXPECT_EQ(0, quantity_parse("1Ki", &q, &err));
	EXPECT_EQ(1024, quantity_value(&q));
	EXPECT_NE(0, quantity_parse_cpu("1Ki", &q, &err));
	EXPECT_STREQ("cpu quantity \"1Ki\" must not use a binary suffix",
		     cm_error_msg(&err));
	/* Value() and MilliValue() round up */
	quantity_parse("1.0001", &q, &err);
	EXPECT_EQ(2, quantity_value(&q));
	EXPECT_EQ(1001, quantity_milli_value(&q));
	quantity_parse("1Gi", &a, &err);
	quantity_parse("1073741824", &b, &err);
	EXPECT_EQ(0, quantity_cmp(&a, &b));
	cm_error_clear(&err);
}

/* The QoS examples of the kubelet documentation (examples/pods). */
TEST(pod_qos_and_guaranteed_cpus)
{
	static const struct {
		const char *resources;
		enum pod_qos qos;
		int cpus;
	} cases[] = {
		{ "{}", QOS_BEST_EFFORT, 0 },
		{ "{\"limits\":{\"memory\":\"200Mi\"},\"requests\":{\"memory\":\"100Mi\"}}", QOS_BURSTABLE, 0 },
		{ "{\"limits\":{\"memory\":\"200Mi\",\"cpu\":\"2\"},\"requests\":{\"memory\":\"100Mi\",\"cpu\":\"1\"}}", QOS_BURSTABLE, 0 },
		{ "{\"limits\":{\"memory\":\"200Mi\",\"cpu\":\"2\"},\"requests\":{\"memory\":\"200Mi\",\"cpu\":\"2\"}}", QOS_GUARANTEED, 2 },
		{ "{\"limits\":{\"memory\":\"200Mi\",\"cpu\":\"1.5\"},\"requests\":{\"memory\":\"200Mi\",\"cpu\":\"1.5\"}}", QOS_GUARANTEED, 0 },
		{ "{\"limits\":{\"memory\":\"200Mi\",\"cpu\":\"2\"}}", QOS_GUARANTEED, 2 },
		{ "{\"limits\":{\"memory\":\"1Gi\",\"cpu\":\"2000m\"}}", QOS_GUARANTEED, 2 },
		{ "{\"limits\":{\"cpu\":\"2\"}}", QOS_BURSTABLE, 0 },
		{ "{\"limits\":{\"memory\":\"1G\",\"cpu\":\"0\"},\"requests\":{\"memory\":\"1G\"}}", QOS_BURSTABLE, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char buf[512];
		struct pod p;

		snprintf(buf, sizeof(buf),
			 "{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":%s}]}}",
			 cases[i].resources);
		pod_from_text(&p, buf);
		CHECK(pod_qos(&p) == cases[i].qos, "case %zu: %s", i,
		      pod_qos_name(pod_qos(&p)));
		CHECK(pod_guaranteed_cpus(&p, &p.containers[0]) == cases[i].cpus,
		      "case %zu: cpus", i);
		pod_free(&p);
	}
}

TEST(pod_init_containers_and_errors)
{
	static const char *const bad[] = {
		"[]",
		"{\"metadata\":{},\"spec\":{\"containers\":[{\"name\":\"c\"}]}}",
		"{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[]}}",
		"{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"Bad\"}]}}",
		"{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\"},{\"name\":\"c\"}]}}",
		"{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"2Ki\"}}}]}}",
		"{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"-1\"}}}]}}",
		"{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"restartPolicy\":\"Always\"}]}}",
		"{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\"}]},\"status\":{\"qosClass\":\"Gold\"}}",
	};
	struct cm_error err = { 0 };
	struct pod p;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		cJSON *j = cJSON_Parse(bad[i]);

		CHECK(pod_from_json(j, &p, &err) < 0, "accepted: %s", bad[i]);
		cJSON_Delete(j);
	}
	/* init 4, sidecar 2, apps 2 + 1: max(4, 2 + 3) = 5 */
	pod_from_text(&p, "{\"metadata\":{\"uid\":\"u\"},\"spec\":{"
		"\"initContainers\":[{\"name\":\"i\",\"resources\":{\"limits\":{\"cpu\":\"4\",\"memory\":\"1G\"}}},"
		"{\"name\":\"s\",\"restartPolicy\":\"Always\",\"resources\":{\"limits\":{\"cpu\":\"2\",\"memory\":\"1G\"}}}],"
		"\"containers\":[{\"name\":\"a\",\"resources\":{\"limits\":{\"cpu\":\"2\",\"memory\":\"1G\"}}},"
		"{\"name\":\"b\",\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1G\"}}}]}}");
	EXPECT_EQ((int)QOS_GUARANTEED, (int)pod_qos(&p));
	EXPECT_EQ(2u, p.nr_init);
	EXPECT_TRUE(p.containers[1].restartable);
	EXPECT_EQ(5, pod_guaranteed_cpus_total(&p));
	pod_free(&p);
	/* status.qosClass wins, as GetPodQOS() does */
	pod_from_text(&p, "{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\"}]},\"status\":{\"qosClass\":\"Guaranteed\"}}");
	EXPECT_EQ((int)QOS_GUARANTEED, (int)pod_qos(&p));
	pod_free(&p);
	cm_error_clear(&err);
}

TEST(policy_options)
{
	static const struct { const char *list, *err; } cases[] = {
		{ "full-pcpus-only=true", NULL },
		{ "full-pcpus-only=1,distribute-cpus-across-numa=True", NULL },
		{ "bogus=true", "unknown CPU Manager Policy option: \"bogus\"" },
		{ "full-pcpus-only=maybe", "bad value for option \"full-pcpus-only\": strconv.ParseBool: parsing \"maybe\": invalid syntax" },
		{ "full-pcpus-only=true,distribute-cpus-across-cores=true", "static policy options full-pcpus-only and distribute-cpus-across-cores can not be used at the same time" },
		{ "distribute-cpus-across-numa=true,distribute-cpus-across-cores=true", "static policy options distribute-cpus-across-numa and distribute-cpus-across-cores can not be used at the same time" },
		{ "prefer-align-cpus-by-uncorecache=true,distribute-cpus-across-cores=true", "static policy options prefer-align-cpus-by-uncorecache and distribute-cpus-across-cores can not be used at the same time" },
		{ "prefer-align-cpus-by-uncorecache=true,distribute-cpus-across-numa=true", "static policy options prefer-align-cpus-by-uncorecache and distribute-cpus-across-numa can not be used at the same time" },
		{ "strict-cpu-reservation=false,align-by-socket=false", NULL },
	};
	struct topology *multi = kube_topology(TOPO_DUAL_SOCKET_MULTI_NUMA_HT);
	struct topology *fake = kube_topology(TOPO_MULTI_SOCKET_DUAL_SOCKET_PER_NUMA);
	struct cm_error err = { 0 };
	struct policy_options o;
	enum tm_policy tm;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int ret;

		memset(&o, 0, sizeof(o));
		ret = options_parse_list(&o, cases[i].list, &err);
		if (!ret)
			ret = options_check(&o, &err);
		if (cases[i].err)
			CHECK(ret && !strcmp(cases[i].err, cm_error_msg(&err)),
			      "%s: \"%s\"", cases[i].list, cm_error_msg(&err));
		else
			CHECK(!ret, "%s: %s", cases[i].list, cm_error_msg(&err));
	}
	memset(&o, 0, sizeof(o));
	o.align_by_socket = true;
	EXPECT_EQ(0, options_validate(&o, multi, TM_POLICY_BEST_EFFORT, &err));
	EXPECT_NE(0, options_validate(&o, multi, TM_POLICY_SINGLE_NUMA_NODE, &err));
	EXPECT_STREQ("Topolgy manager single-numa-node policy is incompatible with CPUManager align-by-socket policy option",
		     cm_error_msg(&err));
	EXPECT_NE(0, options_validate(&o, fake, TM_POLICY_NONE, &err));
	EXPECT_STREQ("Align by socket is not compatible with hardware where number of sockets are more than number of NUMA",
		     cm_error_msg(&err));
	EXPECT_EQ(0, tm_policy_parse("restricted", &tm, &err));
	EXPECT_EQ((int)TM_POLICY_RESTRICTED, (int)tm);
	EXPECT_NE(0, tm_policy_parse("strict", &tm, &err));
	EXPECT_STREQ("unknown policy: \"strict\"", cm_error_msg(&err));
	cm_error_clear(&err);
	topology_free(multi);
	topology_free(fake);
}

TEST(topology_loaders)
{
	static const char *const bad[] = {
		"{\"cpus\":[]}",
		"{\"cpus\":[{\"cpu\":0,\"core\":0,\"socket\":0}]}",
		"{\"cpus\":[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":0},{\"cpu\":0,\"core\":1,\"socket\":0,\"numa\":0}]}",
		"{\"cpus\":[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":0},{\"cpu\":1,\"core\":0,\"socket\":1,\"numa\":0}]}",
		"{\"cpus\":[{\"cpu\":-1,\"core\":0,\"socket\":0,\"numa\":0}]}",
		"{\"cpus\":[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":0,\"l3\":0}]}",
		"{\"cpus\":[],\"sysfs\":\"/\"}",
		"{\"sysfs\":\"/nonexistent\"}",
	};
	struct cm_error err = { 0 };
	struct topo_cpu_info ci;
	struct topology *t;
	char json[512];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		cJSON *j = cJSON_Parse(bad[i]);

		t = topology_from_json(j, &err);
		CHECK(!t, "accepted: %s", bad[i]);
		topology_free(t);
		cJSON_Delete(j);
	}
	snprintf(json, sizeof(json), "{\"sysfs\":\"%s/sysfs-2s2c2t\"}",
		 test_data_dir());
	{
		cJSON *j = cJSON_Parse(json);

		t = topology_from_json(j, &err);
		cJSON_Delete(j);
	}
	ASSERT_NE(NULL, t);
	EXPECT_EQ(8u, t->nr_cpus);
	EXPECT_EQ(4u, t->nr[TOPO_CORE]);
	EXPECT_EQ(2u, t->nr[TOPO_SOCKET]);
	EXPECT_EQ(2u, t->nr[TOPO_NUMA]);
	EXPECT_EQ(2u, t->nr[TOPO_UNCORE]);
	/* cpu6: package 1, core_id 0: the core named after its lowest CPU, 2 */
	ASSERT_TRUE(topology_cpu_info(t, 6, &ci));
	EXPECT_EQ(2, ci.core);
	EXPECT_EQ(1, ci.socket);
	EXPECT_EQ(1, ci.numa);
	EXPECT_EQ(1, ci.uncore);
	EXPECT_EQ(2, topology_cpus_per(t, TOPO_CORE));
	topology_free(t);
	cm_error_clear(&err);
}

TEST(none_policy)
{
	struct topology *t = kube_topology(TOPO_DUAL_SOCKET_HT);
	struct policy_config cfg = { .kind = CPU_POLICY_NONE };
	struct cm_error err = { 0 };
	struct cpu_policy p;
	struct cpu_assignments s;
	struct pod pod;

	assignments_init(&s);
	ASSERT_EQ(0, cpu_policy_init(&p, t, &cfg, &err));
	EXPECT_EQ(0, cpu_policy_start(&p, &s, &err));
	make_pod(&pod, "u", "c", "2", "2");
	EXPECT_EQ(0, cpu_policy_allocate(&p, &s, &pod, &pod.containers[0],
					 NULL, &err));
	EXPECT_EQ(0u, s.nr);
	EXPECT_TRUE(cpuset_empty(&s.default_set));
	cfg.opts.full_pcpus_only = true;
	cfg.opts.nr_given = 1;
	EXPECT_NE(0, cpu_policy_init(&p, t, &cfg, &err));
	EXPECT_STREQ("None policy: cannot be used with static policy options",
		     cm_error_msg(&err));
	cfg.kind = CPU_POLICY_STATIC;
	cfg.opts.nr_given = 0;
	EXPECT_NE(0, cpu_policy_check_config(&cfg, &err));
	EXPECT_STREQ("[cpumanager] the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero",
		     cm_error_msg(&err));
	cfg.num_reserved = 3;
	cfg.has_reserved_cpus = true;
	cfg.reserved_cpus = cs("0,6");
	EXPECT_NE(0, cpu_policy_init(&p, t, &cfg, &err));
	EXPECT_STREQ("[cpumanager] unable to reserve the required amount of CPUs (size of 0,6 did not equal 3)",
		     cm_error_msg(&err));
	pod_free(&pod);
	assignments_free(&s);
	topology_free(t);
	cm_error_clear(&err);
}

/* Reserved from a count: the kubelet's way, lowest cores first. */
TEST(reserved_from_count)
{
	static const struct { enum kube_topo topo; int n; const char *opts, *want; } cases[] = {
		{ TOPO_SINGLE_SOCKET_HT, 2, "", "0,4" },
		{ TOPO_DUAL_SOCKET_HT, 2, "", "0,6" },
		{ TOPO_DUAL_SOCKET_HT, 3, "", "0,2,6" },
		{ TOPO_DUAL_SOCKET_HT, 2, "distribute-cpus-across-numa=true", "0,6" },
		{ TOPO_DUAL_SOCKET_NO_HT, 1, "", "0" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct topology *t = kube_topology(cases[i].topo);
		struct policy_config cfg = { .kind = CPU_POLICY_STATIC };
		struct cm_error err = { 0 };
		struct cpuset want = cs(cases[i].want);
		struct cpu_policy p;

		cfg.num_reserved = cases[i].n;
		ASSERT_EQ(0, options_parse_list(&cfg.opts, cases[i].opts, &err));
		ASSERT_EQ(0, cpu_policy_init(&p, t, &cfg, &err));
		CHECK(cpuset_equal(&want, &p.reserved), "case %zu", i);
		cpu_policy_destroy(&p);
		topology_free(t);
		cm_error_clear(&err);
	}
}

/* A pod that does not fit changes nothing, reuse set included. */
TEST(add_pod_is_atomic)
{
	struct topology *t = kube_topology(TOPO_SINGLE_SOCKET_HT);
	struct policy_config cfg = { .kind = CPU_POLICY_STATIC, .num_reserved = 1 };
	struct cm_error err = { 0 };
	struct cpu_policy p;
	struct cpu_assignments s;
	struct pod pod;
	struct cpuset before;

	assignments_init(&s);
	ASSERT_EQ(0, cpu_policy_init(&p, t, &cfg, &err));
	ASSERT_EQ(0, cpu_policy_start(&p, &s, &err));
	before = s.default_set;
	make_init_pod(&pod, "u", "2", false, "9");
	EXPECT_NE(0, cpu_policy_add_pod(&p, &s, &pod, NULL, &err));
	EXPECT_STREQ("container appcontainer-0: not enough cpus available to satisfy request: requested=9, available=7",
		     cm_error_msg(&err));
	EXPECT_EQ(0u, s.nr);
	EXPECT_TRUE(cpuset_equal(&before, &s.default_set));
	pod_free(&pod);
	make_init_pod(&pod, "u", "2", false, "3");
	EXPECT_EQ(0, cpu_policy_add_pod(&p, &s, &pod, NULL, &err));
	EXPECT_EQ(2u, s.nr);
	pod_free(&pod);
	assignments_free(&s);
	cpu_policy_destroy(&p);
	topology_free(t);
	cm_error_clear(&err);
}

/* GetTopologyHints() and the topology manager on the 4-NUMA topology. */
TEST(topology_hints)
{
	struct topology *t = kube_topology(TOPO_DUAL_SOCKET_MULTI_NUMA_HT);
	struct policy_config cfg = { .kind = CPU_POLICY_STATIC, .num_reserved = 1 };
	struct cm_error err = { 0 };
	struct hint_list hl;
	struct topo_hint best;
	struct cpu_policy p;
	struct cpu_assignments s;
	struct pod pod;
	bool admit;
	uint64_t aff;
	bool has;

	assignments_init(&s);
	cfg.tm = TM_POLICY_SINGLE_NUMA_NODE;
	ASSERT_EQ(0, cpu_policy_init(&p, t, &cfg, &err));
	ASSERT_EQ(0, cpu_policy_start(&p, &s, &err));
	/* 10 CPUs fit one NUMA node (20 CPUs each); node 0 lost CPU 0 */
	make_pod(&pod, "u", "c", "10", "10");
	ASSERT_EQ(0, cpu_policy_container_hints(&p, &s, &pod, &pod.containers[0],
						&hl, &err));
	EXPECT_EQ(15u, hl.nr);	/* every mask has 10 CPUs free */
	EXPECT_EQ(1u, (unsigned int)hl.hints[0].numa);
	EXPECT_TRUE(hl.hints[0].preferred);
	EXPECT_FALSE(hl.hints[4].preferred);	/* {0,1} */
	topology_manager_merge(t, TM_POLICY_SINGLE_NUMA_NODE, &hl, &best, &admit);
	EXPECT_TRUE(admit);
	EXPECT_EQ(1u, (unsigned int)best.numa);
	hint_list_free(&hl);
	pod_free(&pod);
	/* 30 CPUs need two nodes: single-numa-node refuses */
	make_pod(&pod, "u", "c", "30", "30");
	EXPECT_NE(0, cpu_policy_admit(&p, &s, &pod, &pod.containers[0], &aff,
				      &has, &err));
	EXPECT_STREQ("Resources cannot be allocated with Topology locality",
		     cm_error_msg(&err));
	p.tm = TM_POLICY_BEST_EFFORT;
	EXPECT_EQ(0, cpu_policy_admit(&p, &s, &pod, &pod.containers[0], &aff,
				      &has, &err));
	EXPECT_TRUE(has);
	EXPECT_EQ(3u, (unsigned int)aff);	/* nodes 0 and 1 */
	pod_free(&pod);
	assignments_free(&s);
	cpu_policy_destroy(&p);
	topology_free(t);
	cm_error_clear(&err);
}

/*
 * Found by fuzz_quantity and fuzz_pod: a quantity may be up to 1e27
 * nano-units, whose milli value (and a cpu request's Value() * 1000)
 * does not fit 64 bits.  Saturated, and a guaranteed request that large
 * asks for INT_MAX CPUs, with no signed overflow (UBSan checks it in
 * build/user-san).
 */
TEST(huge_quantities_saturate)
{
	static const char *const huge[] = { ".51E", "1E", "999P", "9e17" };
	struct cm_error err = { 0 };
	struct quantity q;
	struct pod p;
	char buf[512];

	for (size_t i = 0; i < ARRAY_SIZE(huge); i++) {
		ASSERT_EQ(0, quantity_parse_cpu(huge[i], &q, &err));
		CHECK(quantity_milli_value(&q) == INT64_MAX, "\"%s\": %lld",
		      huge[i], (long long)quantity_milli_value(&q));
		snprintf(buf, sizeof(buf),
			 "{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"initContainers\":[{\"name\":\"i\",\"resources\":{\"limits\":{\"cpu\":\"%s\",\"memory\":\"1\"}}}],\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"%s\",\"memory\":\"1\"}}},{\"name\":\"d\",\"resources\":{\"limits\":{\"cpu\":\"%s\",\"memory\":\"1\"}}}]}}",
			 huge[i], huge[i], huge[i]);
		pod_from_text(&p, buf);
		EXPECT_TRUE(pod_qos(&p) == QOS_GUARANTEED);
		EXPECT_EQ(INT_MAX, pod_guaranteed_cpus(&p, &p.containers[1]));
		EXPECT_EQ(INT_MAX, pod_guaranteed_cpus_total(&p));
		pod_free(&p);
	}
	ASSERT_EQ(0, quantity_parse("-1E", &q, &err));
	EXPECT_EQ(INT64_MIN, quantity_milli_value(&q));
	EXPECT_EQ(-1000000000000000000LL, quantity_value(&q));
	/* 0.999999999 rounds up to one CPU both ways, as in the kubelet */
	pod_from_text(&p, "{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"999999999n\",\"memory\":\"1\"}}}]}}");
	EXPECT_EQ(1, pod_guaranteed_cpus(&p, &p.containers[0]));
	pod_free(&p);
	cm_error_clear(&err);
}

/*
 * A topology of no CPUs is refused without sorting an empty array
 * (qsort(NULL, 0) is undefined; UBSan reported it in topology_new()).
 */
TEST(topology_of_no_cpus)
{
	struct cm_error err = { 0 };
	struct topology *t = topology_new(NULL, 0, &err);

	ASSERT_EQ(NULL, t);
	EXPECT_STREQ("topology has no CPUs", cm_error_msg(&err));
	cm_error_clear(&err);
}

TEST_HARNESS_MAIN
