// SPDX-License-Identifier: GPL-2.0
/*
 * The NRI plugin's protocol without a runtime: NRI's frames split and
 * joined every way the runtime's multiplexer may send them, ttrpc's
 * Request and Response (the error's text where the runtime reads it),
 * one connection against a fake runtime over a socketpair (register,
 * Configure, a refused CreateContainer, the runtime closing), and what
 * the plugin reads from an NRI container.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "nri.pb-c.h"
#include "nri_conn.h"
#include "nri_spec.h"
#include "nri_version.h"
#include "ttrpc.pb-c.h"

static void put(struct strbuf *out, uint32_t conn, uint32_t stream,
		uint8_t type, const char *payload)
{
	struct cm_error err = { 0 };
	struct nri_msg m = {
		.conn = conn, .stream = stream, .type = type,
		.payload = (const uint8_t *)payload, .len = strlen(payload),
	};

	if (nri_wire_put(out, &m, &err))
		abort();
}

static int next(struct nri_wire *w, struct nri_msg *m, char *text)
{
	struct cm_error err = { 0 };
	int ret = nri_wire_next(w, m, &err);

	cm_error_clear(&err);
	if (ret == 1) {
		memcpy(text, m->payload, m->len);
		text[m->len] = '\0';
	}
	return ret;
}

TEST(frame_layout)
{
	static const uint8_t want[] = {
		0, 0, 0, 2, 0, 0, 0, 13,	/* connection 2, 13 bytes */
		0, 0, 0, 3, 0, 0, 0, 7,		/* 3 bytes, stream 7 */
		1, 0, 'a', 'b', 'c',		/* request, no flags */
	};
	struct strbuf out = STRBUF_INIT;

	put(&out, NRI_CONN_RUNTIME, 7, NRI_MSG_REQUEST, "abc");
	ASSERT_EQ((int)sizeof(want), (int)out.len);
	EXPECT_EQ(0, memcmp(want, out.buf, sizeof(want)));
	strbuf_release(&out);
}

TEST(frames_split_and_joined)
{
	struct strbuf out = STRBUF_INIT;
	struct cm_error err = { 0 };
	struct nri_wire w;
	struct nri_msg m;
	char text[64];

	put(&out, NRI_CONN_PLUGIN, 1, NRI_MSG_REQUEST, "first");
	put(&out, 9, 1, NRI_MSG_REQUEST, "unknown connection");
	put(&out, NRI_CONN_RUNTIME, 3, NRI_MSG_RESPONSE, "second");
	nri_wire_init(&w);
	/* a byte at a time: nothing before each message is whole */
	for (size_t i = 0; i < out.len; i++) {
		ASSERT_EQ(0, nri_wire_feed(&w, out.buf + i, 1, &err));
		if (i + 1 < out.len - (8 + 10 + 6) - (8 + 10 + 18))
			EXPECT_EQ(0, next(&w, &m, text));
	}
	ASSERT_EQ(1, next(&w, &m, text));
	EXPECT_EQ(NRI_CONN_PLUGIN, (int)m.conn);
	EXPECT_EQ(1, (int)m.stream);
	EXPECT_STREQ("first", text);
	ASSERT_EQ(1, next(&w, &m, text));
	EXPECT_EQ(NRI_CONN_RUNTIME, (int)m.conn);
	EXPECT_EQ(NRI_MSG_RESPONSE, (int)m.type);
	EXPECT_STREQ("second", text);
	EXPECT_EQ(0, next(&w, &m, text));
	nri_wire_free(&w);
	strbuf_release(&out);
}

/* One message cut across two frames, two messages in one frame. */
TEST(messages_across_frames)
{
	static const uint8_t two[] = {
		0, 0, 0, 1, 0, 0, 0, 22,
		0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 'x',
		0, 0, 0, 1, 0, 0, 0, 3, 1, 0, 'y',
		0, 0, 0, 1, 0, 0, 0, 11,	/* next frame */
		0, 0, 0, 3, 0, 0, 0, 5, 1, 0, 'a',
	};
	static const uint8_t rest[] = {
		0, 0, 0, 1, 0, 0, 0, 2, 'b', 'c',
	};
	struct cm_error err = { 0 };
	struct nri_wire w;
	struct nri_msg m;
	char text[64];

	nri_wire_init(&w);
	ASSERT_EQ(0, nri_wire_feed(&w, two, sizeof(two), &err));
	ASSERT_EQ(1, next(&w, &m, text));
	EXPECT_STREQ("x", text);
	ASSERT_EQ(1, next(&w, &m, text));
	EXPECT_STREQ("y", text);
	EXPECT_EQ(3, (int)m.stream);
	/* "abc": 2 of its 3 bytes are in the next frame */
	ASSERT_EQ(0, next(&w, &m, text));
	ASSERT_EQ(0, nri_wire_feed(&w, rest, sizeof(rest), &err));
	ASSERT_EQ(1, next(&w, &m, text));
	EXPECT_EQ(5, (int)m.stream);
	EXPECT_EQ(3, (int)m.len);
	EXPECT_STREQ("abc", text);
	nri_wire_free(&w);
}

TEST(oversized_refused)
{
	static const uint8_t big_frame[] = { 0, 0, 0, 1, 1, 0, 0, 1 };
	static const uint8_t big_msg[] = {
		0, 0, 0, 1, 0, 0, 0, 10,
		0, 0x40, 0, 1, 0, 0, 0, 1, 1, 0,
	};
	struct cm_error err = { 0 };
	struct nri_wire w;
	struct nri_msg m;

	nri_wire_init(&w);
	EXPECT_EQ(-EPROTO, nri_wire_feed(&w, big_frame, sizeof(big_frame),
					 &err));
	EXPECT_NE(NULL, strstr(cm_error_msg(&err), "more than"));
	nri_wire_free(&w);
	cm_error_clear(&err);
	nri_wire_init(&w);
	ASSERT_EQ(0, nri_wire_feed(&w, big_msg, sizeof(big_msg), &err));
	EXPECT_EQ(-EPROTO, nri_wire_next(&w, &m, &err));
	nri_wire_free(&w);
	cm_error_clear(&err);
}

/* google.rpc.Status as the runtime decodes it: code 1, message 2. */
TEST(error_status_on_the_wire)
{
	static const uint8_t want[] = {
		0x0a, 7, 0x08, 8, 0x12, 3, 'n', 'o', '!',
	};
	struct strbuf out = STRBUF_INIT;
	struct cm_error err = { 0 };
	struct nri_response rsp;

	ASSERT_EQ(0, nri_rpc_pack_response(&out, NRI_RPC_RESOURCE_EXHAUSTED,
					   "no!", "ignored", 7, &err));
	ASSERT_EQ((int)sizeof(want), (int)out.len);
	EXPECT_EQ(0, memcmp(want, out.buf, sizeof(want)));
	ASSERT_EQ(0, nri_rpc_unpack_response((uint8_t *)out.buf, out.len,
					     &rsp, &err));
	EXPECT_EQ(NRI_RPC_RESOURCE_EXHAUSTED, rsp.code);
	EXPECT_STREQ("no!", rsp.message);
	nri_rpc_response_free(&rsp);

	/* success: the payload, no status */
	ASSERT_EQ(0, nri_rpc_pack_response(&out, NRI_RPC_OK, NULL, "ok", 2,
					   &err));
	ASSERT_EQ(0, nri_rpc_unpack_response((uint8_t *)out.buf, out.len,
					     &rsp, &err));
	EXPECT_EQ(NRI_RPC_OK, rsp.code);
	EXPECT_STREQ("", rsp.message);
	ASSERT_EQ(2, (int)rsp.payload.len);
	EXPECT_EQ(0, memcmp("ok", rsp.payload.data, 2));
	nri_rpc_response_free(&rsp);
	strbuf_release(&out);
}

/* ---- one connection against a fake runtime ---- */

static int plugin_call(void *ctx, struct nri_conn *c,
		       const struct nri_request *req, struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__ConfigureResponse cfg =
		NRI__PKG__API__V1ALPHA1__CONFIGURE_RESPONSE__INIT;
	struct cm_error err = { 0 };

	if (!strcmp(req->method, "Configure")) {
		cfg.events = 1 << 3;
		return nri_rpc_pack(&r->payload, &cfg.base, &err);
	}
	r->code = NRI_RPC_RESOURCE_EXHAUSTED;
	snprintf(r->message, sizeof(r->message), "refused %s", req->method);
	return 0;
}

static void runtime_send(int fd, uint32_t stream, const char *method)
{
	Nri__Pkg__Api__V1alpha1__Empty e = NRI__PKG__API__V1ALPHA1__EMPTY__INIT;
	struct strbuf req = STRBUF_INIT, out = STRBUF_INIT;
	struct cm_error err = { 0 };
	struct nri_msg m = {
		.conn = NRI_CONN_PLUGIN, .stream = stream,
		.type = NRI_MSG_REQUEST,
	};

	if (nri_rpc_pack_request(&req, NRI_SERVICE_PLUGIN, method, &e.base,
				 &err))
		abort();
	m.payload = (const uint8_t *)req.buf;
	m.len = req.len;
	if (nri_wire_put(&out, &m, &err) ||
	    write(fd, out.buf, out.len) != (ssize_t)out.len)
		abort();
	strbuf_release(&req);
	strbuf_release(&out);
}

/* The next message from the plugin, read off the socket. */
static int runtime_read(int fd, struct nri_wire *w, struct nri_msg *m)
{
	struct cm_error err = { 0 };
	char buf[4096];
	int ret;

	while (!(ret = nri_wire_next(w, m, &err))) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0 || nri_wire_feed(w, buf, (size_t)n, &err))
			return -1;
	}
	return ret;
}

/*
 * A plugin process on sv[1] that registers and serves with h; sv[0] is
 * the runtime's end.  It exits 0 when it was registered, then the
 * runtime closed the connection with none of its calls unanswered.
 */
static pid_t plugin_start(int sv[2], const struct nri_handler *h)
{
	Nri__Pkg__Api__V1alpha1__RegisterPluginRequest reg =
		NRI__PKG__API__V1ALPHA1__REGISTER_PLUGIN_REQUEST__INIT;
	struct cm_error err = { 0 };
	struct nri_conn c;
	pid_t pid;
	int ret;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	pid = fork();
	if (pid) {
		close(sv[1]);
		return pid;
	}
	close(sv[0]);
	nri_conn_init(&c, sv[1], NULL);
	reg.plugin_name = "test";
	reg.plugin_idx = "10";
	ret = nri_conn_call(&c, "RegisterPlugin", &reg.base, &err);
	if (!ret)
		ret = nri_conn_serve(&c, h, &err);
	_exit(!ret && c.registered && !c.nr_pending ? 0 : 1);
}

/* The plugin's RegisterPlugin, on the runtime's connection, stream 1, answered. */
static void runtime_register(struct __test_metadata *_metadata, int fd,
			     struct nri_wire *w)
{
	Ttrpc__Response ok = TTRPC__RESPONSE__INIT;
	struct strbuf out = STRBUF_INIT, rsp = STRBUF_INIT;
	struct cm_error err = { 0 };
	struct nri_request req;
	struct nri_msg m;

	ASSERT_EQ(1, runtime_read(fd, w, &m));
	EXPECT_EQ(NRI_CONN_RUNTIME, (int)m.conn);
	EXPECT_EQ(NRI_MSG_REQUEST, (int)m.type);
	EXPECT_EQ(1, (int)m.stream);
	ASSERT_EQ(0, nri_rpc_unpack_request(m.payload, m.len, &req, &err));
	EXPECT_STREQ(NRI_SERVICE_RUNTIME, req.service);
	EXPECT_STREQ("RegisterPlugin", req.method);
	nri_rpc_request_free(&req);
	ASSERT_EQ(0, nri_rpc_pack(&rsp, &ok.base, &err));
	m.type = NRI_MSG_RESPONSE;
	m.payload = (const uint8_t *)rsp.buf;
	m.len = rsp.len;
	ASSERT_EQ(0, nri_wire_put(&out, &m, &err));
	ASSERT_EQ((ssize_t)out.len, write(fd, out.buf, out.len));
	strbuf_release(&out);
	strbuf_release(&rsp);
}

TEST(fake_runtime)
{
	const struct nri_handler h = { .call = plugin_call };
	Nri__Pkg__Api__V1alpha1__ConfigureResponse *cfg;
	struct cm_error err = { 0 };
	struct nri_response r;
	struct nri_wire w;
	struct nri_msg m;
	int sv[2], status;
	pid_t pid;

	pid = plugin_start(sv, &h);
	ASSERT_LE(0, pid);
	nri_wire_init(&w);

	runtime_register(_metadata, sv[0], &w);

	/* Configure: the plugin's events */
	runtime_send(sv[0], 1, "Configure");
	ASSERT_EQ(1, runtime_read(sv[0], &w, &m));
	EXPECT_EQ(NRI_CONN_PLUGIN, (int)m.conn);
	EXPECT_EQ(NRI_MSG_RESPONSE, (int)m.type);
	EXPECT_EQ(1, (int)m.stream);
	ASSERT_EQ(0, nri_rpc_unpack_response(m.payload, m.len, &r, &err));
	EXPECT_EQ(NRI_RPC_OK, r.code);
	cfg = nri__pkg__api__v1alpha1__configure_response__unpack(
		NULL, r.payload.len, r.payload.data);
	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(1 << 3, cfg->events);
	nri__pkg__api__v1alpha1__configure_response__free_unpacked(cfg, NULL);
	nri_rpc_response_free(&r);

	/* a refusal: the status with its text */
	runtime_send(sv[0], 3, "CreateContainer");
	ASSERT_EQ(1, runtime_read(sv[0], &w, &m));
	EXPECT_EQ(3, (int)m.stream);
	ASSERT_EQ(0, nri_rpc_unpack_response(m.payload, m.len, &r, &err));
	EXPECT_EQ(NRI_RPC_RESOURCE_EXHAUSTED, r.code);
	EXPECT_STREQ("refused CreateContainer", r.message);
	nri_rpc_response_free(&r);

	close(sv[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	nri_wire_free(&w);
}

/* The plugin's tick: one UpdateContainers call, unasked. */
static int plugin_tick(void *ctx, struct nri_conn *c)
{
	Nri__Pkg__Api__V1alpha1__UpdateContainersRequest u =
		NRI__PKG__API__V1ALPHA1__UPDATE_CONTAINERS_REQUEST__INIT;
	struct cm_error err = { 0 };
	int ret = nri_conn_call(c, "UpdateContainers", &u.base, &err);

	cm_error_clear(&err);
	return ret;
}

/*
 * A runtime that says nothing after the registration still gets the
 * plugin's tick (the NRI plugin's sweep: a plugin the runtime launched
 * gets no Synchronize).
 */
TEST(tick_while_the_runtime_is_quiet)
{
	const struct nri_handler h = {
		.call = plugin_call, .tick = plugin_tick, .tick_ms = 50,
	};
	struct cm_error err = { 0 };
	struct nri_request req;
	struct nri_wire w;
	struct nri_msg m;
	int sv[2], status;
	pid_t pid;

	pid = plugin_start(sv, &h);
	ASSERT_LE(0, pid);
	nri_wire_init(&w);
	runtime_register(_metadata, sv[0], &w);

	/* nothing more from the runtime: the tick's call comes */
	ASSERT_EQ(1, runtime_read(sv[0], &w, &m));
	EXPECT_EQ(NRI_CONN_RUNTIME, (int)m.conn);
	EXPECT_EQ(NRI_MSG_REQUEST, (int)m.type);
	ASSERT_EQ(0, nri_rpc_unpack_request(m.payload, m.len, &req, &err));
	EXPECT_STREQ("UpdateContainers", req.method);
	nri_rpc_request_free(&req);

	close(sv[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	nri_wire_free(&w);
}

/* ---- what the plugin reads from an NRI container ---- */

TEST(container_spec)
{
	Nri__Pkg__Api__V1alpha1__PodSandbox pod =
		NRI__PKG__API__V1ALPHA1__POD_SANDBOX__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxPodSandbox plnx =
		NRI__PKG__API__V1ALPHA1__LINUX_POD_SANDBOX__INIT;
	Nri__Pkg__Api__V1alpha1__Container ctr =
		NRI__PKG__API__V1ALPHA1__CONTAINER__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxContainer lnx =
		NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxResources res =
		NRI__PKG__API__V1ALPHA1__LINUX_RESOURCES__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxCPU cpu =
		NRI__PKG__API__V1ALPHA1__LINUX_CPU__INIT;
	Nri__Pkg__Api__V1alpha1__OptionalUInt64 shares =
		NRI__PKG__API__V1ALPHA1__OPTIONAL_UINT64__INIT;
	Nri__Pkg__Api__V1alpha1__OptionalInt64 quota =
		NRI__PKG__API__V1ALPHA1__OPTIONAL_INT64__INIT;
	Nri__Pkg__Api__V1alpha1__OptionalUInt64 period =
		NRI__PKG__API__V1ALPHA1__OPTIONAL_UINT64__INIT;
	Nri__Pkg__Api__V1alpha1__Container__AnnotationsEntry a[2] = {
		NRI__PKG__API__V1ALPHA1__CONTAINER__ANNOTATIONS_ENTRY__INIT,
		NRI__PKG__API__V1ALPHA1__CONTAINER__ANNOTATIONS_ENTRY__INIT,
	};
	Nri__Pkg__Api__V1alpha1__Container__AnnotationsEntry *ap[2] = {
		&a[0], &a[1],
	};
	struct cm_error err = { 0 };
	struct oci_container c;

	pod.id = "sb1";
	pod.uid = "u-nri";
	pod.name = "web-0";
	pod.namespace_ = "shop";
	pod.linux = &plnx;
	plnx.cgroups_path = "/kubepods/podu-nri/sb1";
	ctr.id = "c1";
	ctr.name = "app-nri";
	ctr.linux = &lnx;
	lnx.cgroups_path = "/kubepods/podu1/c1";
	lnx.resources = &res;
	res.cpu = &cpu;
	cpu.shares = &shares;
	cpu.quota = &quota;
	cpu.period = &period;
	cpu.cpus = "2-3";
	shares.value = 2048;
	quota.value = 200000;
	period.value = 100000;
	a[0].key = "io.kubernetes.cri.sandbox-uid";
	a[0].value = "u1";
	a[1].key = "io.kubernetes.cri.container-name";
	a[1].value = "app";
	ctr.n_annotations = 2;
	ctr.annotations = ap;

	/* the CRI's annotations first, the kubelet's formulas inverted */
	ASSERT_EQ(0, nri_spec_container(&pod, &ctr, &c, &err));
	EXPECT_EQ(OCI_CONTAINER, (int)c.kind);
	EXPECT_STREQ("containerd", c.source);
	EXPECT_STREQ("c1", c.id);
	EXPECT_STREQ("u1", c.pod_uid);
	EXPECT_STREQ("app", c.name);
	EXPECT_EQ(2000, c.request_milli);
	EXPECT_EQ(2000, c.limit_milli);
	EXPECT_TRUE(c.has_cpus);
	EXPECT_EQ(2, (int)cpuset_count(&c.cpus));
	EXPECT_STREQ("/kubepods/podu1/c1", c.cgroups_path);

	/* without them, the NRI's pod UID and container name */
	ctr.n_annotations = 0;
	cpu.quota = NULL;
	cpu.cpus = "";
	shares.value = 512;
	ASSERT_EQ(0, nri_spec_container(&pod, &ctr, &c, &err));
	EXPECT_EQ(OCI_CONTAINER, (int)c.kind);
	EXPECT_STREQ("nri", c.source);
	EXPECT_STREQ("u-nri", c.pod_uid);
	EXPECT_STREQ("app-nri", c.name);
	EXPECT_STREQ("web-0", c.pod_name);
	EXPECT_STREQ("shop", c.pod_namespace);
	EXPECT_EQ(500, c.request_milli);
	EXPECT_EQ(0, c.limit_milli);
	EXPECT_FALSE(c.has_cpus);

	/* a bad cpuset is one clear error */
	cpu.cpus = "2-";
	EXPECT_NE(0, nri_spec_container(&pod, &ctr, &c, &err));
	EXPECT_NE(NULL, strstr(cm_error_msg(&err), "linux.resources.cpu.cpus"));
	cm_error_clear(&err);

	/* the sandbox, by the pod's cgroup */
	ASSERT_EQ(0, nri_spec_sandbox(&pod, &c, &err));
	EXPECT_EQ(OCI_SANDBOX, (int)c.kind);
	EXPECT_STREQ(OCI_SANDBOX_NAME, c.name);
	EXPECT_STREQ("u-nri", c.pod_uid);
	EXPECT_STREQ("web-0", c.pod_name);
	EXPECT_STREQ("shop", c.pod_namespace);
	EXPECT_STREQ("/kubepods/podu-nri/sb1", c.cgroups_path);
}

/* UpdateContainer: which updates are an in-place resize, to how many */
TEST(resize_cpus)
{
	Nri__Pkg__Api__V1alpha1__PodSandbox pod =
		NRI__PKG__API__V1ALPHA1__POD_SANDBOX__INIT;
	Nri__Pkg__Api__V1alpha1__Container ctr =
		NRI__PKG__API__V1ALPHA1__CONTAINER__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxContainer lnx =
		NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxResources now =
		NRI__PKG__API__V1ALPHA1__LINUX_RESOURCES__INIT,
		to = NRI__PKG__API__V1ALPHA1__LINUX_RESOURCES__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxCPU now_cpu =
		NRI__PKG__API__V1ALPHA1__LINUX_CPU__INIT,
		to_cpu = NRI__PKG__API__V1ALPHA1__LINUX_CPU__INIT;
	Nri__Pkg__Api__V1alpha1__OptionalUInt64 now_shares =
		NRI__PKG__API__V1ALPHA1__OPTIONAL_UINT64__INIT,
		to_shares = NRI__PKG__API__V1ALPHA1__OPTIONAL_UINT64__INIT,
		period = NRI__PKG__API__V1ALPHA1__OPTIONAL_UINT64__INIT;
	Nri__Pkg__Api__V1alpha1__OptionalInt64 to_quota =
		NRI__PKG__API__V1ALPHA1__OPTIONAL_INT64__INIT;

	pod.id = "sb1";
	pod.uid = "u1";
	ctr.id = "c1";
	ctr.name = "app";
	ctr.linux = &lnx;
	lnx.resources = &now;
	now.cpu = &now_cpu;
	now_cpu.shares = &now_shares;
	now_shares.value = 2048;		/* 2 CPUs, no quota */
	to.cpu = &to_cpu;
	to_cpu.shares = &to_shares;
	to_cpu.period = &period;
	period.value = 100000;

	/* quota off for exclusive CPUs: the shares say 4 */
	to_shares.value = 4096;
	EXPECT_EQ(4, nri_spec_resize_cpus(&pod, &ctr, &to));
	/* the quota, when there is one, says 3 */
	to_cpu.quota = &to_quota;
	to_quota.value = 300000;
	to_shares.value = 3072;
	EXPECT_EQ(3, nri_spec_resize_cpus(&pod, &ctr, &to));
	/* the same count: no resize */
	to_quota.value = 200000;
	to_shares.value = 2048;
	EXPECT_EQ(0, nri_spec_resize_cpus(&pod, &ctr, &to));
	/* a fraction is no exclusive count */
	to_quota.value = 150000;
	to_shares.value = 1536;
	EXPECT_EQ(0, nri_spec_resize_cpus(&pod, &ctr, &to));
	/* no resources given, or none known now */
	EXPECT_EQ(0, nri_spec_resize_cpus(&pod, &ctr, NULL));
	lnx.resources = NULL;
	to_quota.value = 100000;
	to_shares.value = 1024;
	EXPECT_EQ(1, nri_spec_resize_cpus(&pod, &ctr, &to));
}

/* Which NRI a runtime speaks: said from 0.12, else by its own version. */
TEST(runtime_nri_version)
{
	struct nri_version v;

	ASSERT_EQ(0, nri_version_parse("v0.12.2", &v));
	EXPECT_EQ(12, v.minor);
	EXPECT_EQ(2, v.patch);
	EXPECT_EQ(0, nri_version_parse("0.10", &v));
	EXPECT_TRUE(nri_version_at_least(&v, 0, 10));
	EXPECT_EQ(0, nri_version_parse("v0.12.0-rc.1", &v));
	EXPECT_NE(0, nri_version_parse("unknown", &v));
	EXPECT_NE(0, nri_version_parse("v1", &v));
	EXPECT_NE(0, nri_version_parse("", &v));

	nri_version_of_runtime("v0.9.0", "containerd", "2.4.0", &v);
	EXPECT_FALSE(nri_version_at_least(&v, 0, 10));
	EXPECT_FALSE(v.inferred);
	nri_version_of_runtime("", "containerd", "2.1.9", &v);
	EXPECT_FALSE(nri_version_at_least(&v, 0, 10));
	nri_version_of_runtime("", "containerd", "v2.2.0", &v);
	EXPECT_TRUE(nri_version_at_least(&v, 0, 10));
	EXPECT_TRUE(v.inferred);
	nri_version_of_runtime(NULL, "containerd", "3.0.1", &v);
	EXPECT_TRUE(nri_version_at_least(&v, 0, 10));
	nri_version_of_runtime("", "cri-o", "1.33.4", &v);
	EXPECT_FALSE(nri_version_at_least(&v, 0, 10));
	nri_version_of_runtime("", "cri-o", "1.34.0", &v);
	EXPECT_TRUE(nri_version_at_least(&v, 0, 10));
	nri_version_of_runtime("", "other", "9.9.9", &v);
	EXPECT_FALSE(nri_version_at_least(&v, 0, 10));
}

/*
 * The runtime sends fields cpumgr does not describe (a container's args,
 * env, mounts, a newer NRI's): protobuf-c skips them, the ones described
 * read as sent.
 */
TEST(fields_not_described_are_skipped)
{
	Nri__Pkg__Api__V1alpha1__Container ctr =
		NRI__PKG__API__V1ALPHA1__CONTAINER__INIT, *got;
	static const uint8_t more[] = {
		0x3a, 3, 'a', 'r', 'g',		/* 7 args: "arg" */
		0x42, 3, 'A', '=', '1',		/* 8 env: "A=1" */
		0x88, 0x02, 7,			/* 33, no NRI field: 7 */
		0xa0, 0x01, 42,			/* 20, a varint */
	};
	uint8_t buf[256];
	size_t n;

	ctr.id = "c1";
	ctr.name = "app";
	ctr.state = NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_RUNNING;
	n = nri__pkg__api__v1alpha1__container__pack(&ctr, buf);
	ASSERT_GE(sizeof(buf), n + sizeof(more));
	memcpy(buf + n, more, sizeof(more));
	got = nri__pkg__api__v1alpha1__container__unpack(NULL, n + sizeof(more),
							 buf);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ("c1", got->id);
	EXPECT_STREQ("app", got->name);
	EXPECT_EQ(NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_RUNNING,
		  (int)got->state);
	nri__pkg__api__v1alpha1__container__free_unpacked(got, NULL);
}

TEST_HARNESS_MAIN
