// SPDX-License-Identifier: GPL-2.0
/*
 * Quiet CPUs on request (pod.h, pod_isolation.c): CRI-O's annotation
 * names and cpumgr's, their values normalised (CRI-O's deprecated
 * "true"), the container's key winning over the pod's, CRI-O's and
 * cpumgr's keys of one level agreeing or refused, every bad key and
 * value refused with its reason, and the record the runtime paths keep
 * of a pod one container at a time.
 */
#include "kselftest_harness.h"

#include "pod.h"
#include "pod_util.h"
#include "test_util.h"

/* A Guaranteed pod: "app" 2 CPUs, "agent" 1, "half" 500m. */
static int pod_with(const char *annotations, struct pod *p,
		    struct cm_error *err)
{
	char text[4096];

#define RES(c) "\"resources\":{\"limits\":{\"cpu\":\"" c "\",\"memory\":\"1Gi\"}}"
	snprintf(text, sizeof(text),
		 "{\"metadata\":{\"uid\":\"u\",\"annotations\":{%s}},\"spec\":{"
		 "\"containers\":[{\"name\":\"app\"," RES("2") "},"
		 "{\"name\":\"agent\"," RES("1") "},"
		 "{\"name\":\"half\"," RES("500m") "}]}}", annotations);
#undef RES
	return pod_try_text(p, text, err);
}

static const struct pod_isolation *iso_of(const struct pod *p,
					  const char *name)
{
	return &pod_container(p, name)->iso;
}

TEST(keys_and_values)
{
	static const struct {
		const char *key, *value;
		int ret;
		enum pod_iso_what what;
		bool crio, pod;
		const char *container, *normal;
	} cases[] = {
		{ "io.kubernetes.x", "disable", 0, 0, false, false, NULL, NULL },
		{ "cpu-load-balancing.crio.io.x", "disable", 0, 0, false, false, NULL, NULL },
		{ "cpu-load-balancing.example.io/pod", "disable", 0, 0, false, false, NULL, NULL },
		{ "cpu-load-balancing.crio.io", "disable", 1, POD_ISO_CPU_LB, true, true, "", "disable" },
		{ "cpu-load-balancing.crio.io", "true", 1, POD_ISO_CPU_LB, true, true, "", "disable" },
		{ "cpu-load-balancing.crio.io/app", "enable", 1, POD_ISO_CPU_LB, true, false, "app", "enable" },
		{ "cpu-load-balancing.cpumgr.io/pod", "disable", 1, POD_ISO_CPU_LB, false, true, "", "disable" },
		{ "cpu-load-balancing.cpumgr.io/pod", "true", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-load-balancing.cpumgr.io/container.app", "disable", 1, POD_ISO_CPU_LB, false, false, "app", "disable" },
		{ "cpu-load-balancing.cpumgr.io/container.App", "disable", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-load-balancing.cpumgr.io/app", "disable", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-load-balancing.crio.io/App", "disable", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-load-balancing.crio.io", "disabled", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-load-balancing.crio.io", NULL, -EINVAL, 0, false, false, NULL, NULL },
		{ "irq-load-balancing.crio.io", "housekeeping", 1, POD_ISO_IRQ, true, true, "", "housekeeping" },
		{ "irq-load-balancing.cpumgr.io/container.app", "disable", 1, POD_ISO_IRQ, false, false, "app", "disable" },
		{ "irq-load-balancing.cpumgr.io/pod", "off", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-quota.crio.io", "disable", 1, POD_ISO_QUOTA, true, true, "", "disable" },
		{ "cpu-quota.cpumgr.io/pod", "max", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-c-states.crio.io", "max_latency:10", 1, POD_ISO_CSTATES, true, true, "", "max_latency:10" },
		{ "cpu-c-states.crio.io", "max_latency:0", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-c-states.crio.io", "max_latency:", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-c-states.crio.io", "max_latency:10us", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-c-states.cpumgr.io/pod", "disable", 1, POD_ISO_CSTATES, false, true, "", "disable" },
		{ "cpu-c-states.cpumgr.io/pod", "off", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-freq-governor.crio.io", "performance", 1, POD_ISO_GOVERNOR, true, true, "", "performance" },
		{ "cpu-freq-governor.cpumgr.io/container.app", "schedutil", 1, POD_ISO_GOVERNOR, false, false, "app", "schedutil" },
		{ "cpu-freq-governor.crio.io", "Performance", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-freq-governor.crio.io", "", -EINVAL, 0, false, false, NULL, NULL },
		{ "cpu-freq-governor.crio.io", "a-very-long-governor-name-past-31", -EINVAL, 0, false, false, NULL, NULL },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pod_isolation_key k;
		char again[128];
		int ret = pod_isolation_key(cases[i].key, cases[i].value, &k,
					    &err);

		CHECK(ret == cases[i].ret, "%s=%s: %d %s", cases[i].key,
		      cases[i].value ?: "(null)", ret, cm_error_msg(&err));
		if (ret < 0)
			CHECK(strstr(cm_error_msg(&err), cases[i].key) != NULL,
			      "%s", cm_error_msg(&err));
		cm_error_clear(&err);
		if (ret != 1)
			continue;
		CHECK(k.what == cases[i].what && k.crio == cases[i].crio &&
		      k.pod == cases[i].pod &&
		      !strcmp(k.container, cases[i].container) &&
		      !strcmp(k.value, cases[i].normal), "%s: %d %d %d %s %s",
		      cases[i].key, k.what, k.crio, k.pod, k.container,
		      k.value);
		/* the key spelt again is the key */
		pod_isolation_key_name(&k, again, sizeof(again));
		EXPECT_STREQ(cases[i].key, again);
	}
}

TEST(the_containers_key_wins_over_the_pods)
{
	struct cm_error err = { 0 };
	char text[256];
	struct pod p;

	ASSERT_EQ(0, pod_with("\"cpu-load-balancing.crio.io\":\"disable\","
			      "\"irq-load-balancing.crio.io\":\"housekeeping\","
			      "\"cpu-quota.cpumgr.io/pod\":\"disable\","
			      "\"cpu-load-balancing.crio.io/agent\":\"enable\","
			      "\"irq-load-balancing.cpumgr.io/container.agent\":\"disable\","
			      "\"cpu-c-states.crio.io/app\":\"max_latency:20\","
			      "\"cpu-freq-governor.cpumgr.io/pod\":\"performance\"",
			      &p, &err)) TH_LOG("%s", cm_error_msg(&err));
	EXPECT_TRUE(iso_of(&p, "app")->cpu_lb_off);
	EXPECT_EQ((int)POD_IRQ_HOUSEKEEPING, (int)iso_of(&p, "app")->irq);
	EXPECT_TRUE(iso_of(&p, "app")->quota_off);
	EXPECT_STREQ("max_latency:20", iso_of(&p, "app")->cstates);
	EXPECT_STREQ("performance", iso_of(&p, "app")->governor);
	/* asked by a key naming it: the c-states alone */
	EXPECT_EQ(1u << POD_ISO_CSTATES, iso_of(&p, "app")->by_container);
	EXPECT_FALSE(iso_of(&p, "agent")->cpu_lb_off);
	EXPECT_EQ((int)POD_IRQ_OFF, (int)iso_of(&p, "agent")->irq);
	EXPECT_TRUE(iso_of(&p, "agent")->quota_off);
	EXPECT_STREQ("", iso_of(&p, "agent")->cstates);
	/* "enable" asks for nothing: only the interrupts are the agent's */
	EXPECT_EQ(1u << POD_ISO_IRQ, iso_of(&p, "agent")->by_container);
	pod_isolation_describe(iso_of(&p, "app"), text, sizeof(text));
	EXPECT_STREQ("cpu-load-balancing=disable,irq-load-balancing=housekeeping,"
		     "cpu-quota=disable,cpu-c-states=max_latency:20,"
		     "cpu-freq-governor=performance", text);
	EXPECT_TRUE(pod_isolation_any(iso_of(&p, "half")));
	pod_free(&p);
	/* none: nothing asked */
	ASSERT_EQ(0, pod_with("", &p, &err));
	EXPECT_FALSE(pod_isolation_any(iso_of(&p, "app")));
	pod_isolation_describe(iso_of(&p, "app"), text, sizeof(text));
	EXPECT_STREQ("none", text);
	pod_free(&p);
}

TEST(crio_and_cpumgr_keys_agree_or_are_refused)
{
	struct cm_error err = { 0 };
	struct pod p;

	/* the same ask twice: fine ("true" is "disable") */
	ASSERT_EQ(0, pod_with("\"cpu-load-balancing.crio.io\":\"true\","
			      "\"cpu-load-balancing.cpumgr.io/pod\":\"disable\"",
			      &p, &err)) TH_LOG("%s", cm_error_msg(&err));
	EXPECT_TRUE(iso_of(&p, "app")->cpu_lb_off);
	pod_free(&p);
	/* a container's pair that disagrees */
	EXPECT_EQ(-EINVAL, pod_with("\"cpu-quota.crio.io/app\":\"disable\","
				    "\"cpu-quota.cpumgr.io/container.app\":\"enable\"",
				    &p, &err));
	EXPECT_STREQ("annotations cpu-quota.crio.io/app and cpu-quota.cpumgr.io/container.app disagree (\"disable\", \"enable\")",
		     cm_error_msg(&err));
	cm_error_clear(&err);
}

TEST(bad_annotations_refuse_the_pod)
{
	static const struct {
		const char *annotations, *msg;
	} cases[] = {
		{ "\"cpu-load-balancing.crio.io/agnet\":\"disable\"",
		  "annotation cpu-load-balancing.crio.io/agnet: the pod has no container \"agnet\"" },
		{ "\"cpu-quota.cpumgr.io/container.agnet\":\"disable\"",
		  "annotation cpu-quota.cpumgr.io/container.agnet: the pod has no container \"agnet\"" },
		{ "\"irq-load-balancing.crio.io\":\"housekeep\"",
		  "annotation irq-load-balancing.crio.io: \"housekeep\": must be \"disable\", \"housekeeping\" or \"enable\"" },
		{ "\"cpu-load-balancing.cpumgr.io/pods\":\"disable\"",
		  "annotation cpu-load-balancing.cpumgr.io/pods: unknown key (cpu-load-balancing.cpumgr.io/pod or cpu-load-balancing.cpumgr.io/container.NAME)" },
		{ "\"cpu-c-states.crio.io\":true",
		  "annotation cpu-c-states.crio.io: not a string" },
	};
	struct cm_error err = { 0 };
	struct pod p;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(-EINVAL, pod_with(cases[i].annotations, &p, &err));
		EXPECT_STREQ(cases[i].msg, cm_error_msg(&err));
		cm_error_clear(&err);
	}
}

/* The keys of annotations text (a JSON object's members). */
static size_t keys_of(const char *json, struct pod_isolation_key *keys)
{
	cJSON *j = cJSON_Parse(json), *a;
	struct cm_error err = { 0 };
	size_t n = 0;

	cJSON_ArrayForEach(a, j)
		if (pod_isolation_key(a->string, cJSON_GetStringValue(a),
				      &keys[n], &err) == 1)
			n++;
	cJSON_Delete(j);
	return n;
}

TEST(a_pod_recorded_one_container_at_a_time)
{
	struct pod_isolation_key keys[POD_ISO_KEYS_MAX];
	struct cm_error err = { 0 };
	size_t n = keys_of("{\"cpu-load-balancing.crio.io\":\"true\","
			   "\"irq-load-balancing.crio.io/agent\":\"disable\","
			   "\"cpu-quota.cpumgr.io/container.app\":\"disable\","
			   "\"cpu-quota.cpumgr.io/container.later\":\"disable\"}",
			   keys);
	cJSON *obj = cJSON_Parse("{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":["
				 "{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}},"
				 "{\"name\":\"agent\",\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}]}}");
	struct pod_isolation iso;
	char *text;
	struct pod p;

	ASSERT_EQ((size_t)4, n);
	/* "later" is not known yet: not a refusal where the pod is partial */
	ASSERT_EQ(0, pod_isolation_resolve(keys, n, "app", &iso, &err));
	EXPECT_TRUE(iso.cpu_lb_off && iso.quota_off && iso.irq == POD_IRQ_ON);
	ASSERT_EQ(0, pod_isolation_record(obj, "app", keys, n));
	ASSERT_EQ(0, pod_isolation_record(obj, "agent", keys, n));
	text = cJSON_PrintUnformatted(json_member(json_member(obj, "metadata"),
						  "annotations"));
	/* the pod's key (normalised), app's and agent's, not later's */
	EXPECT_STREQ("{\"cpu-quota.cpumgr.io/container.app\":\"disable\","
		     "\"cpu-load-balancing.crio.io\":\"disable\","
		     "\"irq-load-balancing.crio.io/agent\":\"disable\"}", text);
	free(text);
	ASSERT_EQ(0, pod_from_json(obj, &p, &err)) TH_LOG("%s", cm_error_msg(&err));
	EXPECT_TRUE(iso_of(&p, "agent")->cpu_lb_off);
	EXPECT_EQ((int)POD_IRQ_OFF, (int)iso_of(&p, "agent")->irq);
	EXPECT_FALSE(iso_of(&p, "agent")->quota_off);
	EXPECT_TRUE(iso_of(&p, "app")->quota_off);
	pod_free(&p);
	/* app recorded again without its keys: its own go, the others stay */
	ASSERT_EQ(0, pod_isolation_record(obj, "app", keys, 0));
	text = cJSON_PrintUnformatted(json_member(json_member(obj, "metadata"),
						  "annotations"));
	EXPECT_STREQ("{\"irq-load-balancing.crio.io/agent\":\"disable\"}", text);
	free(text);
	cJSON_Delete(obj);
}

TEST_HARNESS_MAIN
