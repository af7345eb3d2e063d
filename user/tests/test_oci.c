// SPDX-License-Identifier: GPL-2.0
/*
 * The OCI hook's reading of a runtime: who the container is (containerd
 * CRI, CRI-O and cpumgr annotations), its resources, its cgroup under
 * both kubelet cgroup drivers, its pod's QoS class, and the Pod object it
 * is recorded as.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "oci.h"
#include "test_util.h"

static int state(const char *annotations, struct oci_container *c)
{
	char text[2048];
	struct cm_error err = { 0 };
	int ret;

	snprintf(text, sizeof(text),
		 "{\"ociVersion\":\"1.0.2\",\"id\":\"abc\",\"status\":\"created\","
		 "\"pid\":42,\"bundle\":\"/run/b\",\"annotations\":{%s}}",
		 annotations);
	ret = oci_parse_state(text, c, &err);
	cm_error_clear(&err);
	return ret;
}

TEST(identify)
{
	struct oci_container c;

	ASSERT_EQ(0, state("\"io.kubernetes.cri.sandbox-uid\":\"u1\","
			   "\"io.kubernetes.cri.container-name\":\"app\","
			   "\"io.kubernetes.cri.container-type\":\"container\"",
			   &c));
	EXPECT_EQ(OCI_CONTAINER, (int)c.kind);
	EXPECT_STREQ("containerd", c.source);
	EXPECT_STREQ("u1", c.pod_uid);
	EXPECT_STREQ("app", c.name);
	EXPECT_STREQ("abc", c.id);
	EXPECT_EQ(42, c.pid);
	EXPECT_STREQ("/run/b", c.bundle);
	EXPECT_STREQ("", c.pod_name);

	/* the pod's name and namespace, for people */
	ASSERT_EQ(0, state("\"io.kubernetes.cri.sandbox-uid\":\"u1\","
			   "\"io.kubernetes.cri.sandbox-name\":\"web-0\","
			   "\"io.kubernetes.cri.sandbox-namespace\":\"shop\","
			   "\"io.kubernetes.cri.container-name\":\"app\"", &c));
	EXPECT_STREQ("web-0", c.pod_name);
	EXPECT_STREQ("shop", c.pod_namespace);

	/* containerd's sandbox has no container name */
	ASSERT_EQ(0, state("\"io.kubernetes.cri.sandbox-uid\":\"u1\","
			   "\"io.kubernetes.cri.container-type\":\"sandbox\"",
			   &c));
	EXPECT_EQ(OCI_SANDBOX, (int)c.kind);
	EXPECT_STREQ(OCI_SANDBOX_NAME, c.name);

	/* CRI-O, its infra container is "POD" */
	ASSERT_EQ(0, state("\"io.kubernetes.pod.uid\":\"u2\","
			   "\"io.kubernetes.container.name\":\"web\","
			   "\"io.kubernetes.cri-o.ContainerType\":\"container\"",
			   &c));
	EXPECT_EQ(OCI_CONTAINER, (int)c.kind);
	EXPECT_STREQ("cri-o", c.source);
	EXPECT_STREQ("web", c.name);
	ASSERT_EQ(0, state("\"io.kubernetes.pod.uid\":\"u2\","
			   "\"io.kubernetes.pod.name\":\"db-1\","
			   "\"io.kubernetes.pod.namespace\":\"data\","
			   "\"io.kubernetes.container.name\":\"web\"", &c));
	EXPECT_STREQ("db-1", c.pod_name);
	EXPECT_STREQ("data", c.pod_namespace);
	ASSERT_EQ(0, state("\"io.kubernetes.pod.uid\":\"u2\","
			   "\"io.kubernetes.container.name\":\"POD\","
			   "\"io.kubernetes.cri-o.ContainerType\":\"sandbox\"",
			   &c));
	EXPECT_EQ(OCI_SANDBOX, (int)c.kind);

	/* cpumgr's own, with a QoS class */
	ASSERT_EQ(0, state("\"io.cpumgr.pod-uid\":\"u3\","
			   "\"io.cpumgr.container-name\":\"c1\","
			   "\"io.cpumgr.qos\":\"burstable\"", &c));
	EXPECT_STREQ("cpumgr", c.source);
	EXPECT_TRUE(c.has_qos);
	EXPECT_EQ(QOS_BURSTABLE, (int)c.qos);
	EXPECT_NE(0, state("\"io.cpumgr.pod-uid\":\"u3\","
			   "\"io.cpumgr.container-name\":\"c1\","
			   "\"io.cpumgr.qos\":\"gold\"", &c));
	/* a pod without a container name is refused */
	EXPECT_NE(0, state("\"io.cpumgr.pod-uid\":\"u3\"", &c));

	/* nothing we know: unmanaged */
	ASSERT_EQ(0, state("\"org.opencontainers.image.title\":\"x\"", &c));
	EXPECT_EQ(OCI_UNMANAGED, (int)c.kind);
	ASSERT_EQ(0, state("", &c));
	EXPECT_EQ(OCI_UNMANAGED, (int)c.kind);
}

TEST(bad_state)
{
	struct cm_error err = { 0 };
	struct oci_container c;

	EXPECT_NE(0, oci_parse_state("", &c, &err));
	cm_error_clear(&err);
	EXPECT_NE(0, oci_parse_state("[]", &c, &err));
	cm_error_clear(&err);
	EXPECT_NE(0, oci_parse_state("{\"pid\":1}", &c, &err));
	cm_error_clear(&err);
	/* poststop: no pid */
	EXPECT_EQ(0, oci_parse_state("{\"id\":\"x\",\"status\":\"stopped\"}",
				     &c, &err));
	EXPECT_EQ(0, c.pid);
}

static int config(const char *text, struct oci_container *c)
{
	struct cm_error err = { 0 };
	cJSON *j = cJSON_Parse(text);
	int ret = oci_parse_config(j, c, &err);

	cJSON_Delete(j);
	cm_error_clear(&err);
	return ret;
}

TEST(resources)
{
	struct oci_container c;

	memset(&c, 0, sizeof(c));
	ASSERT_EQ(0, config("{\"annotations\":{\"io.cpumgr.pod-uid\":\"p\","
			    "\"io.cpumgr.container-name\":\"c\"},"
			    "\"linux\":{\"cgroupsPath\":\"/kubepods/podp/c\","
			    "\"resources\":{\"cpu\":{\"shares\":2048,"
			    "\"quota\":200000,\"period\":100000,\"cpus\":\"2-3\"}}}}",
			    &c));
	/* the config's annotations when the state had none */
	EXPECT_EQ(OCI_CONTAINER, (int)c.kind);
	EXPECT_STREQ("p", c.pod_uid);
	EXPECT_EQ(2000, c.request_milli);
	EXPECT_EQ(2000, c.limit_milli);
	EXPECT_TRUE(c.has_cpus);
	EXPECT_TRUE(cpuset_test(&c.cpus, 2) && cpuset_test(&c.cpus, 3));
	EXPECT_STREQ("/kubepods/podp/c", c.cgroups_path);

	/* burstable: 250m request, no limit; besteffort: 2 shares */
	memset(&c, 0, sizeof(c));
	ASSERT_EQ(0, config("{\"linux\":{\"resources\":{\"cpu\":{\"shares\":256,"
			    "\"quota\":-1,\"period\":100000}}}}", &c));
	EXPECT_EQ(250, c.request_milli);
	EXPECT_EQ(0, c.limit_milli);
	EXPECT_FALSE(c.has_cpus);
	memset(&c, 0, sizeof(c));
	ASSERT_EQ(0, config("{\"linux\":{\"resources\":{\"cpu\":{\"shares\":2}}}}",
			    &c));
	EXPECT_EQ(0, c.request_milli);
	/* no period given: the default 100 ms */
	memset(&c, 0, sizeof(c));
	ASSERT_EQ(0, config("{\"linux\":{\"resources\":{\"cpu\":{\"quota\":50000}}}}",
			    &c));
	EXPECT_EQ(500, c.limit_milli);
	memset(&c, 0, sizeof(c));
	EXPECT_NE(0, config("{\"linux\":{\"resources\":{\"cpu\":{\"cpus\":\"x\"}}}}",
			    &c));
	EXPECT_NE(0, config("[]", &c));
}

TEST(proc_cgroup)
{
	char out[256];

	ASSERT_EQ(0, oci_proc_cgroup("0::/kubepods/podp/c\n", out, sizeof(out)));
	EXPECT_STREQ("/kubepods/podp/c", out);
	/* 6.1 with v1 hierarchies beside */
	ASSERT_EQ(0, oci_proc_cgroup("3:cpuset:/\n2:cpu,cpuacct:/x\n0::/a/b",
				     out, sizeof(out)));
	EXPECT_STREQ("/a/b", out);
	EXPECT_EQ(-ENOENT, oci_proc_cgroup("3:cpuset:/\n", out, sizeof(out)));
	EXPECT_EQ(-ENOENT, oci_proc_cgroup("0::/a (deleted)\n", out,
					   sizeof(out)));
	EXPECT_EQ(-ENAMETOOLONG, oci_proc_cgroup("0::/abcdef\n", out, 4));
}

static const char *expand(const char *given, char *out, size_t len)
{
	struct cm_error err = { 0 };
	int ret = oci_cgroups_path(given, out, len, &err);

	cm_error_clear(&err);
	return ret ? NULL : out;
}

TEST(cgroups_path)
{
	char out[512];
	const char *r;

	/* cgroupfs driver */
	r = expand("/kubepods/burstable/podu1/ctr", out, sizeof(out));
	ASSERT_NE(NULL, r);
	EXPECT_STREQ("/kubepods/burstable/podu1/ctr", r);
	/* systemd driver: containerd and CRI-O */
	r = expand("kubepods-burstable-podu_1.slice:cri-containerd:0123",
		   out, sizeof(out));
	ASSERT_NE(NULL, r);
	EXPECT_STREQ("/kubepods.slice/kubepods-burstable.slice/"
		     "kubepods-burstable-podu_1.slice/cri-containerd-0123.scope", r);
	r = expand("kubepods-podu_2.slice:crio:4567", out, sizeof(out));
	ASSERT_NE(NULL, r);
	EXPECT_STREQ("/kubepods.slice/kubepods-podu_2.slice/crio-4567.scope", r);
	r = expand(":runc:x", out, sizeof(out));
	ASSERT_NE(NULL, r);
	EXPECT_STREQ("/system.slice/runc-x.scope", r);
	r = expand("-.slice:p:x", out, sizeof(out));
	ASSERT_NE(NULL, r);
	EXPECT_STREQ("/p-x.scope", r);
	EXPECT_EQ(NULL, expand("relative/path", out, sizeof(out)));
	EXPECT_EQ(NULL, expand("a.slice:b", out, sizeof(out)));
	EXPECT_EQ(NULL, expand("notaslice:b:c", out, sizeof(out)));
	EXPECT_EQ(NULL, expand("a.slice:b:c:d", out, sizeof(out)));
	EXPECT_EQ(NULL, expand("kubepods-x.slice:crio:4567", out, 20));
}

TEST(parent_and_qos)
{
	char out[256];

	ASSERT_EQ(0, oci_parent("/sys/fs/cgroup/kubepods/podu/c", out,
				sizeof(out)));
	EXPECT_STREQ("/sys/fs/cgroup/kubepods/podu", out);
	ASSERT_EQ(0, oci_parent("/a/b//", out, sizeof(out)));
	EXPECT_STREQ("/a", out);
	EXPECT_NE(0, oci_parent("/a", out, sizeof(out)));
	EXPECT_NE(0, oci_parent("/", out, sizeof(out)));

	EXPECT_EQ(QOS_GUARANTEED, (int)oci_qos_of_path("/sys/fs/cgroup/kubepods/podu"));
	EXPECT_EQ(QOS_BURSTABLE,
		  (int)oci_qos_of_path("/sys/fs/cgroup/kubepods/burstable/podu"));
	EXPECT_EQ(QOS_BEST_EFFORT,
		  (int)oci_qos_of_path("/sys/fs/cgroup/kubepods/besteffort/podu"));
	EXPECT_EQ(QOS_GUARANTEED,
		  (int)oci_qos_of_path("/kubepods.slice/kubepods-podu.slice"));
	EXPECT_EQ(QOS_BURSTABLE,
		  (int)oci_qos_of_path("/kubepods.slice/kubepods-burstable.slice/"
				  "kubepods-burstable-podu.slice"));
	EXPECT_EQ(QOS_BEST_EFFORT,
		  (int)oci_qos_of_path("/kubepods.slice/kubepods-besteffort.slice/x"));
	/* only whole components count */
	EXPECT_EQ(QOS_GUARANTEED, (int)oci_qos_of_path("/kubepods/burstablex/p"));
}

TEST(pod_object)
{
	struct cm_error err = { 0 };
	struct oci_container c;
	cJSON *one, *two;
	struct pod p;

	memset(&c, 0, sizeof(c));
	strcpy(c.pod_uid, "u1");
	strcpy(c.name, "app");
	c.request_milli = c.limit_milli = 2000;
	one = oci_pod_object(NULL, &c, QOS_GUARANTEED);
	ASSERT_NE(NULL, one);
	ASSERT_EQ(0, pod_from_json(one, &p, &err));
	EXPECT_STREQ("u1", p.uid);
	ASSERT_EQ(1U, p.nr);
	EXPECT_EQ(QOS_GUARANTEED, (int)pod_qos(&p));
	EXPECT_EQ(2, pod_guaranteed_cpus(&p, &p.containers[0]));
	pod_free(&p);

	/* a second container joins; the first one is replaced in place */
	strcpy(c.name, "side");
	c.request_milli = 100;
	c.limit_milli = 0;
	two = oci_pod_object(one, &c, QOS_BURSTABLE);
	ASSERT_NE(NULL, two);
	ASSERT_EQ(0, pod_from_json(two, &p, &err));
	ASSERT_EQ(2U, p.nr);
	/* the recorded class stays: status.qosClass */
	EXPECT_EQ(QOS_GUARANTEED, (int)pod_qos(&p));
	EXPECT_EQ(0, pod_guaranteed_cpus(&p, &p.containers[1]));
	pod_free(&p);
	cJSON_Delete(one);
	strcpy(c.name, "app");
	c.request_milli = c.limit_milli = 1000;
	one = oci_pod_object(two, &c, QOS_GUARANTEED);
	ASSERT_NE(NULL, one);
	ASSERT_EQ(0, pod_from_json(one, &p, &err));
	ASSERT_EQ(2U, p.nr);
	EXPECT_STREQ("app", p.containers[0].name);
	EXPECT_EQ(1, pod_guaranteed_cpus(&p, &p.containers[0]));
	pod_free(&p);
	cJSON_Delete(one);
	cJSON_Delete(two);

	/* a known name and namespace go into metadata; one too long is
	 * left out rather than refusing the container */
	memset(&c, 0, sizeof(c));
	strcpy(c.pod_uid, "u3");
	strcpy(c.name, "app");
	oci_set_pod_name(&c, "web-0", "shop");
	one = oci_pod_object(NULL, &c, QOS_BEST_EFFORT);
	ASSERT_NE(NULL, one);
	ASSERT_EQ(0, pod_from_json(one, &p, &err));
	EXPECT_STREQ("web-0", p.name);
	EXPECT_STREQ("shop", p.ns);
	pod_free(&p);
	cJSON_Delete(one);
	{
		char long_ns[OCI_POD_NAMESPACE_MAX + 2];

		memset(long_ns, 'n', sizeof(long_ns) - 1);
		long_ns[sizeof(long_ns) - 1] = '\0';
		memset(&c, 0, sizeof(c));
		oci_set_pod_name(&c, "web-0", long_ns);
		EXPECT_STREQ("web-0", c.pod_name);
		EXPECT_STREQ("", c.pod_namespace);
	}

	/* no resources: BestEffort when the class says so */
	memset(&c, 0, sizeof(c));
	strcpy(c.pod_uid, "u2");
	strcpy(c.name, "be");
	one = oci_pod_object(NULL, &c, QOS_BEST_EFFORT);
	ASSERT_NE(NULL, one);
	ASSERT_EQ(0, pod_from_json(one, &p, &err));
	EXPECT_EQ(QOS_BEST_EFFORT, (int)pod_qos(&p));
	pod_free(&p);
	cJSON_Delete(one);
}

TEST_HARNESS_MAIN
