// SPDX-License-Identifier: GPL-2.0
/*
 * Shared CPUs on request (prefer-shared-cpus.cpumgr.io, pod.h): the
 * annotation's keys and values, a pod's containers taken off exclusive
 * CPUs (the container's key winning over the pod's), every bad
 * annotation refused with its reason; the NRI's pod annotations and the
 * pod record the runtime path keeps; and `cpumgrctl admit` on a node
 * (standin_node.h): the annotated container on the shared pool, the
 * other exclusive, a bad annotation refused with nothing changed.
 */
#include "kselftest_harness.h"

#include "nri_spec.h"
#include "oci.h"
#include "pod.h"
#include "pod_util.h"
#include "standin_node.h"
#include "test_util.h"

#define PREFIX POD_SHARED_CPUS_PREFIX

/* A Guaranteed pod: init "setup" 4 CPUs, "app" 2, "agent" 1, "half" 500m. */
static int pod_with(const char *annotations, struct pod *p,
		    struct cm_error *err)
{
	char text[2048];

#define RES(c) "\"resources\":{\"limits\":{\"cpu\":\"" c "\",\"memory\":\"1Gi\"}}"
	snprintf(text, sizeof(text),
		 "{\"metadata\":{\"uid\":\"u\",\"annotations\":{%s}},\"spec\":{"
		 "\"initContainers\":[{\"name\":\"setup\"," RES("4") "}],"
		 "\"containers\":[{\"name\":\"app\"," RES("2") "},"
		 "{\"name\":\"agent\"," RES("1") "},"
		 "{\"name\":\"half\"," RES("500m") "}]}}", annotations);
#undef RES
	return pod_try_text(p, text, err);
}

static int cpus_of(const struct pod *p, const char *name)
{
	return pod_guaranteed_cpus(p, pod_container(p, name));
}

TEST(keys_and_values)
{
	static const struct {
		const char *key, *value;
		int ret;
		const char *container;	/* NULL: the pod's key */
		bool on;
	} cases[] = {
		{ "io.kubernetes.x", "anything", 0, NULL, false },
		{ "prefer-shared-cpus.resource-policy.nri.io/pod", "true", 0, NULL, false },
		{ PREFIX "pod", "true", 1, NULL, true },
		{ PREFIX "pod", "false", 1, NULL, false },
		{ PREFIX "container.agent", "true", 1, "agent", true },
		{ PREFIX "container.agent", "yes", -EINVAL, NULL, false },
		{ PREFIX "container.agent", "True", -EINVAL, NULL, false },
		{ PREFIX "container.agent", NULL, -EINVAL, NULL, false },
		{ PREFIX "container.Agent", "true", -EINVAL, NULL, false },
		{ PREFIX "container.", "true", -EINVAL, NULL, false },
		{ PREFIX "containers.agent", "true", -EINVAL, NULL, false },
		{ PREFIX "agent", "true", -EINVAL, NULL, false },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pod_shared_key k;
		int ret = pod_shared_key(cases[i].key, cases[i].value, &k, &err);

		CHECK(ret == cases[i].ret, "%s: %d %s", cases[i].key, ret,
		      cm_error_msg(&err));
		if (ret == 1)
			CHECK(k.pod == !cases[i].container && k.on == cases[i].on &&
			      (k.pod || !strcmp(k.container, cases[i].container)),
			      "%s", cases[i].key);
		if (ret < 0)
			CHECK(strstr(cm_error_msg(&err), cases[i].key) != NULL,
			      "%s", cm_error_msg(&err));
		cm_error_clear(&err);
	}
}

TEST(containers_off_exclusive_cpus)
{
	struct cm_error err = { 0 };
	struct pod p;

	/* none: the kubelet's rules */
	ASSERT_EQ(0, pod_with("", &p, &err));
	EXPECT_EQ(2, cpus_of(&p, "app"));
	EXPECT_EQ(1, cpus_of(&p, "agent"));
	EXPECT_EQ(4, pod_guaranteed_cpus_total(&p));
	pod_free(&p);
	/* one container */
	ASSERT_EQ(0, pod_with("\"" PREFIX "container.agent\":\"true\"", &p, &err));
	EXPECT_EQ(2, cpus_of(&p, "app"));
	EXPECT_EQ(0, cpus_of(&p, "agent"));
	EXPECT_EQ(4, cpus_of(&p, "setup"));
	EXPECT_FALSE(pod_container(&p, "app")->shared);
	EXPECT_TRUE(pod_container(&p, "agent")->shared);
	pod_free(&p);
	/* the whole pod, the init container and one app container back out */
	ASSERT_EQ(0, pod_with("\"" PREFIX "pod\":\"true\",\"" PREFIX
			      "container.app\":\"false\"", &p, &err));
	EXPECT_EQ(2, cpus_of(&p, "app"));
	EXPECT_EQ(0, cpus_of(&p, "agent"));
	EXPECT_EQ(0, cpus_of(&p, "setup"));
	EXPECT_EQ(2, pod_guaranteed_cpus_total(&p));
	/* a container that would not get exclusive CPUs is flagged, no more */
	EXPECT_TRUE(pod_container(&p, "half")->shared);
	EXPECT_EQ(0, cpus_of(&p, "half"));
	pod_free(&p);
	/* "false" everywhere: the kubelet's rules again */
	ASSERT_EQ(0, pod_with("\"" PREFIX "pod\":\"false\"", &p, &err));
	EXPECT_EQ(1, cpus_of(&p, "agent"));
	pod_free(&p);
}

TEST(bad_annotations_refuse_the_pod)
{
	static const struct {
		const char *annotations, *msg;
	} cases[] = {
		{ "\"" PREFIX "container.agnet\":\"true\"",
		  "annotation " PREFIX "container.agnet: the pod has no container \"agnet\"" },
		{ "\"" PREFIX "container.agent\":\"yes\"",
		  "annotation " PREFIX "container.agent: \"yes\": must be \"true\" or \"false\"" },
		{ "\"" PREFIX "container.agent\":true",
		  "annotation " PREFIX "container.agent: \"(not a string)\": must be \"true\" or \"false\"" },
		{ "\"" PREFIX "container.Agent\":\"true\"",
		  "annotation " PREFIX "container.Agent: \"Agent\" is no container name" },
		{ "\"" PREFIX "pods\":\"true\"",
		  "annotation " PREFIX "pods: unknown key (" PREFIX "pod or " PREFIX "container.NAME)" },
	};
	struct cm_error err = { 0 };
	struct pod p;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(-EINVAL, pod_with(cases[i].annotations, &p, &err));
		CHECK(!strncmp(cm_error_msg(&err), cases[i].msg,
			       strlen(cases[i].msg)), "%s", cm_error_msg(&err));
		cm_error_clear(&err);
	}
	/* the annotations must be an object */
	{
		cJSON *obj = cJSON_Parse("{\"metadata\":{\"uid\":\"u\",\"annotations\":[]},"
					 "\"spec\":{\"containers\":[{\"name\":\"c\"}]}}");

		EXPECT_NE(0, pod_from_json(obj, &p, &err));
		EXPECT_STREQ("metadata.annotations: must be an object",
			     cm_error_msg(&err));
		cJSON_Delete(obj);
		cm_error_clear(&err);
	}
}

TEST(nri_pod_annotations_and_the_pod_record)
{
	Nri__Pkg__Api__V1alpha1__PodSandbox pod =
		NRI__PKG__API__V1ALPHA1__POD_SANDBOX__INIT;
	Nri__Pkg__Api__V1alpha1__PodSandbox__AnnotationsEntry a[2] = {
		NRI__PKG__API__V1ALPHA1__POD_SANDBOX__ANNOTATIONS_ENTRY__INIT,
		NRI__PKG__API__V1ALPHA1__POD_SANDBOX__ANNOTATIONS_ENTRY__INIT,
	};
	Nri__Pkg__Api__V1alpha1__PodSandbox__AnnotationsEntry *ap[2] = {
		&a[0], &a[1],
	};
	struct oci_container c = { .kind = OCI_CONTAINER, .pod_uid = "u",
				   .request_milli = 1000, .limit_milli = 1000 };
	struct cm_error err = { 0 };
	cJSON *obj, *again;
	struct pod p;

	pod.n_annotations = 2;
	pod.annotations = ap;
	a[0].key = PREFIX "pod";
	a[0].value = "true";
	a[1].key = PREFIX "container.app";
	a[1].value = "false";
	/* the pod's key, the container's winning */
	strcpy(c.name, "agent");
	ASSERT_EQ(0, nri_spec_shared_cpus(&pod, &c, &err));
	EXPECT_TRUE(c.shared);
	strcpy(c.name, "app");
	ASSERT_EQ(0, nri_spec_shared_cpus(&pod, &c, &err));
	EXPECT_FALSE(c.shared);
	/* a name the runtime has not told of: not knowable here */
	a[1].key = PREFIX "container.later";
	ASSERT_EQ(0, nri_spec_shared_cpus(&pod, &c, &err));
	EXPECT_TRUE(c.shared);
	/* a bad value refuses */
	a[0].value = "1";
	EXPECT_EQ(-EINVAL, nri_spec_shared_cpus(&pod, &c, &err));
	EXPECT_STREQ("annotation " PREFIX "pod: \"1\": must be \"true\" or \"false\"",
		     cm_error_msg(&err));
	cm_error_clear(&err);

	/* the record: agent shared, then app added exclusive */
	strcpy(c.name, "agent");
	c.shared = true;
	obj = oci_pod_object(NULL, &c, QOS_GUARANTEED);
	ASSERT_NE(NULL, obj);
	strcpy(c.name, "app");
	c.shared = false;
	again = oci_pod_object(obj, &c, QOS_GUARANTEED);
	ASSERT_NE(NULL, again);
	ASSERT_EQ(0, pod_from_json(again, &p, &err)) TH_LOG("%s", cm_error_msg(&err));
	EXPECT_EQ(0, cpus_of(&p, "agent"));
	EXPECT_EQ(1, cpus_of(&p, "app"));
	pod_free(&p);
	cJSON_Delete(again);
	/* agent again, not shared this time: the record's key goes */
	strcpy(c.name, "agent");
	again = oci_pod_object(obj, &c, QOS_GUARANTEED);
	ASSERT_NE(NULL, again);
	ASSERT_EQ(0, pod_from_json(again, &p, &err));
	EXPECT_EQ(1, cpus_of(&p, "agent"));
	pod_free(&p);
	cJSON_Delete(again);
	cJSON_Delete(obj);
}

FIXTURE(node) {
	struct standin_node sn;
};

FIXTURE_SETUP(node)
{
	ASSERT_EQ(0, standin_node_init(&self->sn)) TH_LOG("%s", self->sn.out);
}

FIXTURE_TEARDOWN(node)
{
	standin_node_free(&self->sn);
}

static void write_pod(struct standin_node *sn, const char *annotation)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u1\","
		 "\"annotations\":{%s}},\"spec\":{\"containers\":["
		 "{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}},"
		 "{\"name\":\"agent\",\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}]}}",
		 annotation);
	fake_write(sn->dir, "pod.json", text);
}

TEST_F(node, admit_puts_the_annotated_container_on_the_shared_pool)
{
	bool agent = false;
	cJSON *j, *c;
	char *kernel;

	write_pod(&self->sn, "\"" PREFIX "container.agent\":\"true\"");
	standin_run(&self->sn, "admit", "pod.json");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "u1 app exclusive ") &&
	      strstr(self->sn.out, "u1 agent shared "), "%d %s",
	      self->sn.status, self->sn.out);
	kernel = standin_file(&self->sn, "kernel");
	ASSERT_NE(NULL, kernel);
	CHECK(strstr(kernel, "a u1 app ") && !strstr(kernel, "a u1 agent "),
	      "%s", kernel);
	free(kernel);
	/* the node reads its pod record back: status shows agent shared */
	standin_run(&self->sn, "status --json", NULL);
	j = cJSON_Parse(self->sn.out);
	ASSERT_NE(NULL, j) TH_LOG("%s", self->sn.out);
	cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "containers"))
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(c, "container")) ?: "",
			    "agent"))
			agent = cJSON_IsFalse(cJSON_GetObjectItem(c, "exclusive"));
	EXPECT_TRUE(agent) TH_LOG("%s", self->sn.out);
	cJSON_Delete(j);
}

TEST_F(node, admit_without_it_gives_both_exclusive_cpus)
{
	write_pod(&self->sn, "");
	standin_run(&self->sn, "admit", "pod.json");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "u1 app exclusive ") &&
	      strstr(self->sn.out, "u1 agent exclusive "), "%d %s",
	      self->sn.status, self->sn.out);
}

TEST_F(node, admit_refuses_a_bad_annotation_and_changes_nothing)
{
	static const char *const bad[] = {
		"\"" PREFIX "container.agnet\":\"true\"",
		"\"" PREFIX "container.agent\":\"on\"",
	};
	char *before = standin_file(&self->sn, "kernel");

	ASSERT_NE(NULL, before);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *after;

		write_pod(&self->sn, bad[i]);
		standin_run(&self->sn, "admit", "pod.json");
		CHECK(self->sn.status != 0 &&
		      strstr(self->sn.out, "annotation " PREFIX "container.ag"),
		      "%d %s", self->sn.status, self->sn.out);
		after = standin_file(&self->sn, "kernel");
		EXPECT_STREQ(before, after);
		free(after);
	}
	free(before);
}

TEST_HARNESS_MAIN
