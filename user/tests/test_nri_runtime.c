// SPDX-License-Identifier: GPL-2.0
/*
 * `cpumgrctl nri` against a stand-in runtime that speaks NRI 0.12
 * (tests/nri_runtime.h: no runtime Debian ships does): the whole plugin
 * process (bench/cpumgrctl-standin-tree: the stand-in kernel, a cgroup
 * tree of directories) driven through registration, Configure (the
 * events it subscribes to by the runtime's NRI, its timeouts),
 * Synchronize in parts, NRI 0.12's call per event, UpdatePodSandbox,
 * ValidateContainerAdjustment, and calls that pass the runtime's
 * request timeout: the plugin held by CPUMGR_NRI_STALL, the runtime
 * closing it and creating the container without it, then the plugin's
 * Synchronize on its reconnect, or the daemon's next round, pinning it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "cfs.h"
#include "cpumgr_nl.h"
#include "fake_cgroup.h"
#include "json_util.h"
#include "nri_msg.h"
#include "nri_runtime.h"
#include "test_util.h"

#define EV(e)	(1 << (NRI__PKG__API__V1ALPHA1__EVENT__##e - 1))
#define RUNNING	NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_RUNNING

typedef Nri__Pkg__Api__V1alpha1__PodSandbox Pod;
typedef Nri__Pkg__Api__V1alpha1__Container Ctr;

FIXTURE(plugin) {
	char dir[PATH_MAX], ctl[PATH_MAX + 32], state[PATH_MAX + 8];
	char log[PATH_MAX + 8];
	/* the kubelet's cpu_manager_state the plugin is told, "" none */
	char kstate[PATH_MAX + 32];
	struct nri_rt rt;
	/* the runtime's request timeout, as Configure told it */
	int timeout_ms;
};

/* cpumgrctl (the stand-in's) with args on the fixture's node: its status. */
static int ctl(FIXTURE_DATA(plugin) *self, const char *args)
{
	char cmd[4 * PATH_MAX];

	xsnprintf(cmd, sizeof(cmd), "'%s' %s --state-dir '%s' >>'%s' 2>&1",
		  self->ctl, args, self->state, self->log);
	return system(cmd);
}

FIXTURE_SETUP(plugin)
{
	char exe[PATH_MAX], args[3 * PATH_MAX], kernel[PATH_MAX + 8];

	ASSERT_NE(NULL, realpath("/proc/self/exe", exe));
	*strrchr(exe, '/') = '\0';
	xsnprintf(self->ctl, sizeof(self->ctl),
		  "%s/../bench/cpumgrctl-standin-tree", exe);
	fake_tree_new(self->dir, sizeof(self->dir));
	xsnprintf(self->state, sizeof(self->state), "%s/state", self->dir);
	xsnprintf(self->log, sizeof(self->log), "%s/log", self->dir);
	xsnprintf(kernel, sizeof(kernel), "%s/kernel", self->dir);
	setenv("CPUMGR_STANDIN", kernel, 1);
	xsnprintf(kernel, sizeof(kernel), "%s/assigns", self->dir);
	setenv("CPUMGR_STANDIN_ASSIGNS", kernel, 1);
	/* 1 socket, 1 NUMA node, 16 cores, 2 threads: 32 CPUs */
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 16 2", 1);
	fake_mkdir(self->dir, "cg/kubepods");
	/* the hierarchy's root as the daemon's audit reads it */
	fake_write(self->dir, "cg/cpuset.cpus.effective", "0-31\n");
	xsnprintf(args, sizeof(args),
		  "init --cpu-manager-policy static --reserved-cpus 0-1 "
		  "--cgroup-mount '%s/cg' --cgroup-root '%s/cg/kubepods'",
		  self->dir, self->dir);
	ASSERT_EQ(0, ctl(self, args)) TH_LOG("%s", fake_read(self->dir, "log"));
	self->kstate[0] = '\0';
	self->rt.plugin = 0;
	self->rt.fd = self->rt.listen_fd = -1;
	self->timeout_ms = 10000;
}

FIXTURE_TEARDOWN(plugin)
{
	if (self->rt.plugin)
		nri_rt_stop(&self->rt);
	unsetenv("CPUMGR_NRI_STALL");
	unsetenv("CPUMGR_STANDIN_ASSIGNS");
	unsetenv("CPUMGR_STANDIN_NO_PENDING");
	fake_tree_free(self->dir);
}

/* The plugin started (launched, or dialing the stand-in's socket) and registered. */
static void start(struct __test_metadata *_metadata,
		  FIXTURE_DATA(plugin) *self, bool launched)
{
	const char *a[7] = { "--mode", "decide", "--state-dir", self->state };

	if (self->kstate[0]) {
		a[4] = "--kubelet-state";
		a[5] = self->kstate;
	}
	ASSERT_EQ(0, nri_rt_start(&self->rt, self->ctl, self->dir, self->log,
				  launched, a));
	ASSERT_EQ(0, nri_rt_accept(&self->rt, 10000))
		TH_LOG("%s", fake_read(self->dir, "log"));
}

/*
 * Call method; the answer must come in the runtime's time, OK; its
 * payload into *r (NULL: freed).
 */
static void call_ok(struct __test_metadata *_metadata,
		    FIXTURE_DATA(plugin) *self, const char *method,
		    const ProtobufCMessage *msg, struct nri_response *r)
{
	struct nri_response mine;

	ASSERT_EQ(0, nri_rt_call(&self->rt, method, msg, self->timeout_ms,
				 &mine))
		TH_LOG("%s: %s", method, fake_read(self->dir, "log"));
	EXPECT_EQ(NRI_RPC_OK, mine.code) TH_LOG("%s: %s", method, mine.message);
	if (r)
		*r = mine;
	else
		nri_rpc_response_free(&mine);
}

/* Configure as a runtime of nri_version (or name and version) with timeouts. */
static int32_t configure(struct __test_metadata *_metadata,
			 FIXTURE_DATA(plugin) *self, const char *nri,
			 const char *runtime, const char *version,
			 int64_t request_timeout_ms)
{
	Nri__Pkg__Api__V1alpha1__ConfigureRequest cfg =
		NRI__PKG__API__V1ALPHA1__CONFIGURE_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__ConfigureResponse *out;
	struct nri_response r;
	int32_t events = -1;

	cfg.runtime_name = (char *)runtime;
	cfg.runtime_version = (char *)version;
	cfg.nri_version = (char *)nri;
	cfg.registration_timeout = 5000;
	cfg.request_timeout = request_timeout_ms;
	call_ok(_metadata, self, "Configure", &cfg.base, &r);
	if (request_timeout_ms > 0)
		self->timeout_ms = (int)request_timeout_ms;
	out = nri__pkg__api__v1alpha1__configure_response__unpack(
		NULL, r.payload.len, r.payload.data);
	if (out)
		events = out->events;
	if (out)
		nri__pkg__api__v1alpha1__configure_response__free_unpacked(out, NULL);
	nri_rpc_response_free(&r);
	return events;
}

/* ---- pods and containers as the runtime tells them ---- */

struct pod_msg {
	Pod pod;
	Nri__Pkg__Api__V1alpha1__LinuxPodSandbox lnx;
	/* dir: the pod cgroup, its containers' parent */
	char id[32], uid[32], dir[64], cgroup[96];
};

struct ctr_msg {
	Ctr c;
	struct nri_msg_linux lx;
	struct nri_msg_cri cri;
	char id[48], cgroup[160];
};

/*
 * Pod i below the QoS cgroup qos ("" for Guaranteed, "burstable/"), its
 * sandbox's cgroup made (the runtime makes it first).
 */
static void pod_msg_in(FIXTURE_DATA(plugin) *self, struct pod_msg *m, int i,
		       const char *qos)
{
	char rel[128];

	*m = (struct pod_msg){
		.pod = NRI__PKG__API__V1ALPHA1__POD_SANDBOX__INIT,
		.lnx = NRI__PKG__API__V1ALPHA1__LINUX_POD_SANDBOX__INIT,
	};
	snprintf(m->id, sizeof(m->id), "sandbox-%d", i);
	snprintf(m->uid, sizeof(m->uid), "pod-%d", i);
	snprintf(m->dir, sizeof(m->dir), "/kubepods/%spodpod-%d", qos, i);
	snprintf(m->cgroup, sizeof(m->cgroup), "%s/%s", m->dir, m->id);
	m->pod.id = m->id;
	m->pod.uid = m->uid;
	m->pod.name = m->uid;
	m->pod.namespace_ = "default";
	m->pod.linux = &m->lnx;
	m->lnx.cgroups_path = m->cgroup;
	xsnprintf(rel, sizeof(rel), "cg%s", m->cgroup);
	fake_mkdir(self->dir, rel);
}

static void pod_msg(FIXTURE_DATA(plugin) *self, struct pod_msg *m, int i)
{
	pod_msg_in(self, m, i, "");
}

/* Container name of pod p, milli CPUs for request and limit, in state. */
static void ctr_msg(struct ctr_msg *m, const struct pod_msg *p,
		    const char *name, int64_t milli, int state)
{
	*m = (struct ctr_msg){ .c = NRI__PKG__API__V1ALPHA1__CONTAINER__INIT };
	nri_msg_cri(&m->cri, &m->c, p->uid, name);
	snprintf(m->id, sizeof(m->id), "%s-%s", p->uid, name);
	snprintf(m->cgroup, sizeof(m->cgroup), "%s/%s", p->dir, m->id);
	m->c.id = m->id;
	m->c.pod_sandbox_id = (char *)p->id;
	m->c.name = (char *)name;
	m->c.state = state;
	nri_msg_linux(&m->lx, &m->c, m->cgroup, milli, milli);
}

/* The runtime made the container's cgroup and its task runs there. */
static void runs(FIXTURE_DATA(plugin) *self, const struct ctr_msg *m)
{
	char rel[200];

	xsnprintf(rel, sizeof(rel), "cg%s/cgroup.procs", m->cgroup);
	fake_write(self->dir, rel, "4242\n");
}

/*
 * The CPUs the stand-in kernel's table holds for uid/name, or with name
 * NULL the pod's pool (KEP-5526); "": none.
 */
static void held(FIXTURE_DATA(plugin) *self, const char *uid,
		 const char *name, char *out, size_t len)
{
	char path[PATH_MAX + 8], line[4096], u[128], c[128], cpus[2048];
	bool mine;
	FILE *f;

	out[0] = '\0';
	xsnprintf(path, sizeof(path), "%s/kernel", self->dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		mine = name ? sscanf(line, "a %127s %127s %2047s", u, c, cpus) == 3 &&
			      !strcmp(c, name) :
			      sscanf(line, "p %127s %2047s", u, cpus) == 2;
		if (mine && !strcmp(u, uid))
			snprintf(out, len, "%.*s", (int)len - 1, cpus);
	}
	if (f)
		fclose(f);
}

/* The container's cpuset.cpus, as the plugin or the daemon wrote it. */
static const char *cgroup_cpus(FIXTURE_DATA(plugin) *self,
			       const struct ctr_msg *m)
{
	static char text[256];
	char rel[200];

	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus", m->cgroup);
	snprintf(text, sizeof(text), "%s", fake_read(self->dir, rel));
	text[strcspn(text, "\n")] = '\0';
	return text;
}

static void create(struct __test_metadata *_metadata,
		   FIXTURE_DATA(plugin) *self, struct pod_msg *p,
		   struct ctr_msg *c)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerRequest in =
		NRI__PKG__API__V1ALPHA1__CREATE_CONTAINER_REQUEST__INIT;

	in.pod = &p->pod;
	in.container = &c->c;
	call_ok(_metadata, self, "CreateContainer", &in.base, NULL);
}

/* Synchronize with pods and containers, one part (more: not the last). */
static Nri__Pkg__Api__V1alpha1__SynchronizeResponse *
sync_part(struct __test_metadata *_metadata, FIXTURE_DATA(plugin) *self,
	  Pod **pods, size_t n_pods, Ctr **ctrs, size_t n_ctrs, bool more)
{
	Nri__Pkg__Api__V1alpha1__SynchronizeRequest in =
		NRI__PKG__API__V1ALPHA1__SYNCHRONIZE_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__SynchronizeResponse *out;
	struct nri_response r;

	in.pods = pods;
	in.n_pods = n_pods;
	in.containers = ctrs;
	in.n_containers = n_ctrs;
	in.more = more;
	call_ok(_metadata, self, "Synchronize", &in.base, &r);
	out = nri__pkg__api__v1alpha1__synchronize_response__unpack(
		NULL, r.payload.len, r.payload.data);
	nri_rpc_response_free(&r);
	return out;
}

static void sync_empty(struct __test_metadata *_metadata,
		       FIXTURE_DATA(plugin) *self)
{
	nri__pkg__api__v1alpha1__synchronize_response__free_unpacked(
		sync_part(_metadata, self, NULL, 0, NULL, 0, false), NULL);
}

/* ---- the tests ---- */

/*
 * The events subscribed: NRI 0.10's (UpdatePodSandbox, validation) only
 * for a runtime that knows them, by the NRI version it says (0.12) or
 * else by its own version; an older runtime closes a plugin that asks
 * for events it does not know.  The plugin says it speaks 0.12.
 */
TEST_F(plugin, configure_subscribes_by_the_runtimes_nri)
{
	const int32_t legacy = EV(RUN_POD_SANDBOX) | EV(STOP_POD_SANDBOX) |
			       EV(REMOVE_POD_SANDBOX) | EV(CREATE_CONTAINER) |
			       EV(UPDATE_CONTAINER) | EV(STOP_CONTAINER) |
			       EV(REMOVE_CONTAINER);
	const int32_t newer = EV(UPDATE_POD_SANDBOX) |
			      EV(VALIDATE_CONTAINER_ADJUSTMENT);

	start(_metadata, self, true);
	EXPECT_STREQ("v0.12.0", self->rt.plugin_nri);
	EXPECT_EQ(legacy | newer,
		  configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 2000));
	/* containerd 2.1 (NRI 0.8.0) and 1.7 say no NRI version */
	EXPECT_EQ(legacy, configure(_metadata, self, "", "containerd", "2.1.9", 2000));
	EXPECT_EQ(legacy, configure(_metadata, self, "", "containerd", "1.7.24", 0));
	/* containerd 2.2 brought NRI 0.10 */
	EXPECT_EQ(legacy | newer,
		  configure(_metadata, self, "", "containerd", "v2.2.1", 2000));
	EXPECT_NE(NULL, strstr(fake_read(self->dir, "log"),
			       "request timeout 2000 ms"));
}

/*
 * NRI 0.12 calls each event on its own, and falls back to StateChange
 * only for a plugin that answers Unimplemented: RunPodSandbox,
 * RemoveContainer, StopPodSandbox and RemovePodSandbox are served and
 * do what their StateChange did.
 */
TEST_F(plugin, per_event_calls_are_served)
{
	Nri__Pkg__Api__V1alpha1__RunPodSandboxRequest run =
		NRI__PKG__API__V1ALPHA1__RUN_POD_SANDBOX_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__RemoveContainerRequest rm =
		NRI__PKG__API__V1ALPHA1__REMOVE_CONTAINER_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__StopPodSandboxRequest stop =
		NRI__PKG__API__V1ALPHA1__STOP_POD_SANDBOX_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__RemovePodSandboxRequest rmp =
		NRI__PKG__API__V1ALPHA1__REMOVE_POD_SANDBOX_REQUEST__INIT;
	struct pod_msg p;
	struct ctr_msg c;
	char cpus[256];

	start(_metadata, self, true);
	configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 2000);
	sync_empty(_metadata, self);
	pod_msg(self, &p, 1);
	run.pod = &p.pod;
	call_ok(_metadata, self, "RunPodSandbox", &run.base, NULL);
	EXPECT_NE(NULL, strstr(fake_read(self->state, "pods/pod-1.json"),
			       "sandbox-1")) TH_LOG("the sandbox not recorded");
	ctr_msg(&c, &p, "app", 2000, RUNNING);
	create(_metadata, self, &p, &c);
	held(self, "pod-1", "app", cpus, sizeof(cpus));
	ASSERT_STRNE("", cpus);
	/* answered in time: the call's note is gone */
	EXPECT_STREQ("<missing>", fake_read(self->state,
					    "nri-pending/pod-1-app.json"));
	rm.pod = &p.pod;
	rm.container = &c.c;
	call_ok(_metadata, self, "RemoveContainer", &rm.base, NULL);
	held(self, "pod-1", "app", cpus, sizeof(cpus));
	EXPECT_STREQ("", cpus) TH_LOG("RemoveContainer left the app its CPUs");
	stop.pod = &p.pod;
	call_ok(_metadata, self, "StopPodSandbox", &stop.base, NULL);
	rmp.pod = &p.pod;
	call_ok(_metadata, self, "RemovePodSandbox", &rmp.base, NULL);
	EXPECT_STREQ("<missing>", fake_read(self->state, "pods/pod-1.json"));
	EXPECT_EQ(NULL, strstr(fake_read(self->dir, "log"), "not served"));
}

/*
 * decide, a 1.37 node: pod-1, which the kubelet admitted with pod-level
 * resources (its allocated_pods_state: 4 CPUs; app 2, Guaranteed; log
 * sharing), gets KEP-5526's pool at its sandbox: app's slice and log's
 * share of the rest, the pool out of the shared pool.  Without the file
 * log, Guaranteed by its own 1-CPU request and limit, would get 1 CPU of
 * its own.  pod-2, there without pod-level resources, is decided
 * container by container.  The pod's removal returns the pool.
 */
TEST_F(plugin, decide_gives_a_pod_level_pod_its_pool)
{
	Nri__Pkg__Api__V1alpha1__RunPodSandboxRequest run =
		NRI__PKG__API__V1ALPHA1__RUN_POD_SANDBOX_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__RemoveContainerRequest rm =
		NRI__PKG__API__V1ALPHA1__REMOVE_CONTAINER_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__RemovePodSandboxRequest rmp =
		NRI__PKG__API__V1ALPHA1__REMOVE_POD_SANDBOX_REQUEST__INIT;
	char args[3 * PATH_MAX], src[PATH_MAX], cmd[3 * PATH_MAX];
	char pool[64], app_cpus[64], log_cpus[64], other[64];
	struct ctr_msg app, log, app2;
	struct pod_msg p, q;

	xsnprintf(args, sizeof(args),
		  "init --cpu-manager-policy static --reserved-cpus 0-1 "
		  "--cgroup-mount '%s/cg' --cgroup-root '%s/cg/kubepods' "
		  "--kubelet-version 1.37", self->dir, self->dir);
	ASSERT_EQ(0, ctl(self, args)) TH_LOG("%s", fake_read(self->dir, "log"));
	fake_mkdir(self->dir, "kubelet");
	xsnprintf(self->kstate, sizeof(self->kstate),
		  "%s/kubelet/cpu_manager_state", self->dir);
	xsnprintf(src, sizeof(src), "%s/allocated_pods/nri-pods.json",
		  test_data_dir());
	xsnprintf(cmd, sizeof(cmd), "cp '%s' '%s/kubelet/allocated_pods_state'",
		  src, self->dir);
	ASSERT_EQ(0, system(cmd));
	start(_metadata, self, true);
	configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 5000);
	sync_empty(_metadata, self);
	pod_msg(self, &p, 1);
	run.pod = &p.pod;
	call_ok(_metadata, self, "RunPodSandbox", &run.base, NULL);
	held(self, "pod-1", NULL, pool, sizeof(pool));
	EXPECT_STREQ("2-3,18-19", pool) TH_LOG("%s", fake_read(self->dir, "log"));
	ctr_msg(&app, &p, "app", 2000, RUNNING);
	create(_metadata, self, &p, &app);
	ctr_msg(&log, &p, "log", 1000, RUNNING);
	create(_metadata, self, &p, &log);
	held(self, "pod-1", "app", app_cpus, sizeof(app_cpus));
	held(self, "pod-1", "log", log_cpus, sizeof(log_cpus));
	EXPECT_STREQ("2,18", app_cpus);
	EXPECT_STREQ("3,19", log_cpus);
	EXPECT_STREQ("3,19", cgroup_cpus(self, &log));
	/* pod-2: no pod-level resources, decided as before */
	pod_msg(self, &q, 2);
	run.pod = &q.pod;
	call_ok(_metadata, self, "RunPodSandbox", &run.base, NULL);
	ctr_msg(&app2, &q, "app", 2000, RUNNING);
	create(_metadata, self, &q, &app2);
	held(self, "pod-2", "app", other, sizeof(other));
	EXPECT_STREQ("4,20", other);
	held(self, "pod-2", NULL, other, sizeof(other));
	EXPECT_STREQ("", other);
	/* pod-1 goes, and its pool with it */
	rm.pod = &p.pod;
	rm.container = &app.c;
	call_ok(_metadata, self, "RemoveContainer", &rm.base, NULL);
	rm.container = &log.c;
	call_ok(_metadata, self, "RemoveContainer", &rm.base, NULL);
	rmp.pod = &p.pod;
	call_ok(_metadata, self, "RemovePodSandbox", &rmp.base, NULL);
	held(self, "pod-1", NULL, pool, sizeof(pool));
	EXPECT_STREQ("", pool);
	held(self, "pod-1", "log", log_cpus, sizeof(log_cpus));
	EXPECT_STREQ("", log_cpus);
	EXPECT_STREQ("<missing>", fake_read(self->state, "pods/pod-1.json"));
}

/* A CreateContainer's response, unpacked (free it). */
static Nri__Pkg__Api__V1alpha1__CreateContainerResponse *
create_response(struct __test_metadata *_metadata, FIXTURE_DATA(plugin) *self,
		struct pod_msg *p, struct ctr_msg *c)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerRequest in =
		NRI__PKG__API__V1ALPHA1__CREATE_CONTAINER_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__CreateContainerResponse *out;
	struct nri_response r;

	in.pod = &p->pod;
	in.container = &c->c;
	call_ok(_metadata, self, "CreateContainer", &in.base, &r);
	out = nri__pkg__api__v1alpha1__create_container_response__unpack(
		NULL, r.payload.len, r.payload.data);
	nri_rpc_response_free(&r);
	return out;
}

/* The adjustment's environment as "K=V;..." in the order given. */
static void env_of(const Nri__Pkg__Api__V1alpha1__CreateContainerResponse *r,
		   char *out, size_t len)
{
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; r && r->adjust && i < r->adjust->n_env && at < len;
	     i++)
		at += (size_t)snprintf(out + at, len - at, "%s=%s;",
				       r->adjust->env[i]->key,
				       r->adjust->env[i]->value);
}

/* The quota the adjustment sets, 0 when it sets none. */
static int64_t quota_of(const Nri__Pkg__Api__V1alpha1__CreateContainerResponse *r)
{
	const Nri__Pkg__Api__V1alpha1__LinuxCPU *cpu =
		r && r->adjust && r->adjust->linux && r->adjust->linux->resources ?
		r->adjust->linux->resources->cpu : NULL;

	return cpu && cpu->quota ? cpu->quota->value : 0;
}

/*
 * A pod with CRI-O's isolation annotations (and cpumgr's naming a
 * container): its Guaranteed container is told its CPUs in its
 * environment (cpumgr's names and CRI-O's), gets no CFS quota and an
 * isolated partition on its exclusive CPUs before the runtime makes it;
 * its 500m sidecar is told the shared pool, with quota and no partition.
 * Both are recorded with their pod's annotations, which a restart of the
 * plugin reads again.
 */
TEST_F(plugin, create_tells_the_cpus_and_isolates)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerResponse *r;
	Nri__Pkg__Api__V1alpha1__PodSandbox__AnnotationsEntry a[3], *ap[3];
	static const char *const keys[3] = {
		"cpu-load-balancing.crio.io", "cpu-quota.crio.io",
		"irq-load-balancing.cpumgr.io/container.app",
	};
	static const char *const values[3] = { "disable", "disable",
					       "housekeeping" };
	char env[1024], want[1024], cpus[64], rel[160];
	struct ctr_msg app, side;
	struct pod_msg p;

	start(_metadata, self, true);
	configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 5000);
	sync_empty(_metadata, self);
	pod_msg(self, &p, 1);
	for (int i = 0; i < 3; i++) {
		nri__pkg__api__v1alpha1__pod_sandbox__annotations_entry__init(&a[i]);
		a[i].key = (char *)keys[i];
		a[i].value = (char *)values[i];
		ap[i] = &a[i];
	}
	p.pod.n_annotations = 3;
	p.pod.annotations = ap;
	/* a kernel with cpuset.cpus.exclusive: remote partitions */
	fake_write(self->dir, "cg/kubepods/cpuset.cpus.exclusive", "\n");
	fake_write(self->dir, "cg/kubepods/podpod-1/cpuset.cpus.exclusive", "\n");
	ctr_msg(&app, &p, "app", 4000, RUNNING);
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.exclusive", app.cgroup);
	fake_write(self->dir, rel, "\n");
	r = create_response(_metadata, self, &p, &app);
	ASSERT_NE(NULL, r);
	held(self, "pod-1", "app", cpus, sizeof(cpus));
	ASSERT_STREQ("2-3,18-19", cpus);
	env_of(r, env, sizeof(env));
	xsnprintf(want, sizeof(want),
		  "CPUMGR_EXCLUSIVE_CPUS=%s;CPUMGR_SHARED_CPUS=0-1,4-17,20-31;"
		  "OPENSHIFT_ISOLATED_CPUS=%s;CPUMGR_HOUSEKEEPING_CPUS=2,18;"
		  "OPENSHIFT_HOUSEKEEPING_CPUS=2,18;", cpus, cpus);
	EXPECT_STREQ(want, env);
	EXPECT_EQ(-1, quota_of(r));
	nri__pkg__api__v1alpha1__create_container_response__free_unpacked(r, NULL);
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.partition", app.cgroup);
	EXPECT_STREQ("isolated", fake_read(self->dir, rel));
	EXPECT_STREQ("2-3,18-19", fake_read(self->dir, "cg/kubepods/cpuset.cpus.exclusive"));
	/* the sidecar: the pool, the kubelet's quota, no partition */
	ctr_msg(&side, &p, "side", 500, RUNNING);
	r = create_response(_metadata, self, &p, &side);
	ASSERT_NE(NULL, r);
	env_of(r, env, sizeof(env));
	EXPECT_STREQ("CPUMGR_EXCLUSIVE_CPUS=;CPUMGR_SHARED_CPUS=0-1,4-17,20-31;"
		     "OPENSHIFT_SHARED_CPUS=0-1,4-17,20-31;", env);
	EXPECT_EQ(0, quota_of(r));
	nri__pkg__api__v1alpha1__create_container_response__free_unpacked(r, NULL);
	EXPECT_NE(NULL, strstr(fake_read(self->dir, "log"),
			       "warning: pod pod-1 container side: the pod's cpu-load-balancing=disable,cpu-quota=disable not applied"))
		TH_LOG("%s", fake_read(self->dir, "log"));
	/* recorded with the annotations that concern each */
	EXPECT_NE(NULL, strstr(fake_read(self->state, "pods/pod-1.json"),
			       "\"irq-load-balancing.cpumgr.io/container.app\":\t\"housekeeping\""))
		TH_LOG("%s", fake_read(self->state, "pods/pod-1.json"));
}

/*
 * UpdatePodSandbox: the pod was resized in place.  Its new CPU request
 * and limit are recorded for it, and its pod cgroup's CFS limits follow
 * them: a reconcile no longer writes back those of its containers as
 * admitted.
 */
TEST_F(plugin, update_pod_sandbox_records_the_pods_resources)
{
	Nri__Pkg__Api__V1alpha1__UpdatePodSandboxRequest up =
		NRI__PKG__API__V1ALPHA1__UPDATE_POD_SANDBOX_REQUEST__INIT;
	Ctr pod_side = NRI__PKG__API__V1ALPHA1__CONTAINER__INIT;
	struct nri_msg_linux lx;
	char before[64], after[64];
	const cJSON *pc;
	struct pod_msg p;
	struct ctr_msg c;
	cJSON *rec;

	start(_metadata, self, true);
	configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 2000);
	sync_empty(_metadata, self);
	pod_msg(self, &p, 2);
	/* a shared container of 500m: the pod cgroup's weight from it */
	ctr_msg(&c, &p, "web", 500, RUNNING);
	create(_metadata, self, &p, &c);
	snprintf(before, sizeof(before), "%.63s",
		 fake_read(self->dir, "cg/kubepods/podpod-2/cpu.weight"));
	ASSERT_STRNE("<missing>", before);
	/* the pod grows to a request of 1500m, no limit */
	nri_msg_linux(&lx, &pod_side, "", 1500, 0);
	up.pod = &p.pod;
	up.linux_resources = &lx.res;
	call_ok(_metadata, self, "UpdatePodSandbox", &up.base, NULL);
	rec = cJSON_Parse(fake_read(self->state, "pods/pod-2.json"));
	pc = json_member(rec, "podCpu");
	EXPECT_TRUE(cJSON_IsNumber(json_member(pc, "requestMilli")) &&
		    json_member(pc, "requestMilli")->valueint == 1500 &&
		    cJSON_IsNumber(json_member(pc, "limitMilli")) &&
		    json_member(pc, "limitMilli")->valueint == 0)
		TH_LOG("%s", fake_read(self->state, "pods/pod-2.json"));
	cJSON_Delete(rec);
	snprintf(after, sizeof(after), "%.63s",
		 fake_read(self->dir, "cg/kubepods/podpod-2/cpu.weight"));
	EXPECT_STRNE(before, after);
	/* a whole reconcile keeps the pod's new weight */
	ASSERT_EQ(0, ctl(self, "reconcile"));
	EXPECT_STREQ(after, fake_read(self->dir, "cg/kubepods/podpod-2/cpu.weight"));
	EXPECT_NE(NULL, strstr(fake_read(self->dir, "log"),
			       "pod pod-2 resized: cpu request 1500m"));
}

/* cgroup's file ("cg" + cgroup), its first line. */
static const char *cg_file(FIXTURE_DATA(plugin) *self, const char *cgroup,
			   const char *file)
{
	static char text[256];
	char rel[256];

	xsnprintf(rel, sizeof(rel), "cg%s/%s", cgroup, file);
	snprintf(text, sizeof(text), "%s", fake_read(self->dir, rel));
	text[strcspn(text, "\n")] = '\0';
	return text;
}

/* The cgroup's cpu.weight and cpu.max, for messages. */
static const char *cfs_text(FIXTURE_DATA(plugin) *self, const char *cgroup)
{
	static char text[160];
	int n = snprintf(text, sizeof(text), "cpu.weight %.60s, ",
			 cg_file(self, cgroup, "cpu.weight"));

	snprintf(text + n, sizeof(text) - n, "cpu.max %.60s",
		 cg_file(self, cgroup, "cpu.max"));
	return text;
}

/* The kubelet's cpu.weight for a CPU request (runc's linear conversion). */
static uint64_t weight_of(int64_t request_milli)
{
	return cfs_shares_to_weight(cfs_milli_cpu_to_shares(request_milli),
				    CFS_WEIGHT_LINEAR);
}

/* What a runtime writes to a cgroup: cpu.weight, and cpu.max for a limit. */
static void runtime_cfs(FIXTURE_DATA(plugin) *self, const char *cgroup,
			int64_t request_milli, int64_t limit_milli)
{
	char rel[256], v[64];

	xsnprintf(rel, sizeof(rel), "cg%s/cpu.weight", cgroup);
	xsnprintf(v, sizeof(v), "%llu\n",
		  (unsigned long long)weight_of(request_milli));
	fake_write(self->dir, rel, v);
	xsnprintf(rel, sizeof(rel), "cg%s/cpu.max", cgroup);
	if (limit_milli)
		xsnprintf(v, sizeof(v), "%lld 100000\n",
			  (long long)limit_milli * 100);
	else
		xsnprintf(v, sizeof(v), "max 100000\n");
	fake_write(self->dir, rel, v);
}

/*
 * The CRI's UpdateContainerResources for c, as containerd passes it on:
 * UpdateContainer with the new request and limit, answered OK; then the
 * runtime writes them to the container's cgroup and its record of c
 * holds them.
 */
static void update(struct __test_metadata *_metadata,
		   FIXTURE_DATA(plugin) *self, struct pod_msg *p,
		   struct ctr_msg *c, int64_t request_milli,
		   int64_t limit_milli)
{
	Nri__Pkg__Api__V1alpha1__UpdateContainerRequest in =
		NRI__PKG__API__V1ALPHA1__UPDATE_CONTAINER_REQUEST__INIT;
	Ctr want = NRI__PKG__API__V1ALPHA1__CONTAINER__INIT;
	struct nri_msg_linux lx;

	nri_msg_linux(&lx, &want, "", request_milli, limit_milli);
	in.pod = &p->pod;
	in.container = &c->c;
	in.linux_resources = &lx.res;
	call_ok(_metadata, self, "UpdateContainer", &in.base, NULL);
	runtime_cfs(self, c->cgroup, request_milli, limit_milli);
	nri_msg_linux(&c->lx, &c->c, c->cgroup, request_milli, limit_milli);
}

/* The cgroup's cpu.weight and cpu.max are a runtime's for request, limit. */
static bool cfs_is(FIXTURE_DATA(plugin) *self, const char *cgroup,
		   int64_t request_milli, int64_t limit_milli)
{
	char w[32], max[64];

	snprintf(w, sizeof(w), "%llu",
		 (unsigned long long)weight_of(request_milli));
	if (limit_milli)
		snprintf(max, sizeof(max), "%lld 100000",
			 (long long)limit_milli * 100);
	else
		snprintf(max, sizeof(max), "max 100000");
	return !strcmp(w, cg_file(self, cgroup, "cpu.weight")) &&
	       !strcmp(max, cg_file(self, cgroup, "cpu.max"));
}

/* Container name's resources.requests.cpu and limits.cpu in pod uid's file. */
static bool recorded(FIXTURE_DATA(plugin) *self, const char *uid,
		     const char *name, const char *request, const char *limit)
{
	char rel[64];
	cJSON *rec, *c;
	bool same = false;

	xsnprintf(rel, sizeof(rel), "pods/%s.json", uid);
	rec = cJSON_Parse(fake_read(self->state, rel));
	cJSON_ArrayForEach(c, json_member(json_member(json_member(rec, "pod"), "spec"),
					  "containers")) {
		const cJSON *res = json_member(c, "resources");
		const cJSON *rq = json_member(json_member(res, "requests"), "cpu");
		const cJSON *lm = json_member(json_member(res, "limits"), "cpu");

		if (strcmp(json_member(c, "name")->valuestring, name))
			continue;
		same = cJSON_IsString(rq) && !strcmp(rq->valuestring, request) &&
		       (limit ? cJSON_IsString(lm) &&
				!strcmp(lm->valuestring, limit) : !lm);
	}
	cJSON_Delete(rec);
	return same;
}

/*
 * The plugin started, pod n in the Burstable QoS class, its container
 * web created and running with a CPU request of 500m and a limit of 1.
 */
static void burstable(struct __test_metadata *_metadata,
		      FIXTURE_DATA(plugin) *self, struct pod_msg *p,
		      struct ctr_msg *c, int n)
{
	start(_metadata, self, true);
	configure(_metadata, self, "", "containerd", "1.7.24", 0);
	sync_empty(_metadata, self);
	pod_msg_in(self, p, n, "burstable/");
	ctr_msg(c, p, "web", 500, RUNNING);
	nri_msg_linux(&c->lx, &c->c, c->cgroup, 500, 1000);
	create(_metadata, self, p, c);
	runs(self, c);
}

/* The plugin started again, the runtime listing pod p and container c. */
static void reconnect(struct __test_metadata *_metadata,
		      FIXTURE_DATA(plugin) *self, struct pod_msg *p,
		      struct ctr_msg *c)
{
	Pod *pods[1] = { &p->pod };
	Ctr *ctrs[1] = { &c->c };

	start(_metadata, self, true);
	configure(_metadata, self, "", "containerd", "1.7.24", 0);
	nri__pkg__api__v1alpha1__synchronize_response__free_unpacked(
		sync_part(_metadata, self, pods, 1, ctrs, 1, false), NULL);
}

/*
 * An in-place resize of a container on the shared pool (a Burstable
 * one: 500m, limit 1): UpdateContainer records its new CPU request and
 * limit in its pod file, so that the daemon's next round keeps the CFS
 * limits the runtime wrote (cpu.weight, cpu.max) rather than writing
 * those it was created with back, for the container and for its pod
 * cgroup (the kubelet's sum over its containers, when the runtime sends
 * no UpdatePodSandbox: containerd before 2.2); so does the plugin
 * started again, which knows the container from the pod file.
 */
TEST_F(plugin, update_container_records_a_shared_containers_resources)
{
	struct pod_msg p;
	struct ctr_msg c;

	burstable(_metadata, self, &p, &c, 10);
	ASSERT_TRUE(cfs_is(self, c.cgroup, 500, 1000))
		TH_LOG("%s", cfs_text(self, c.cgroup));
	ASSERT_TRUE(cfs_is(self, p.dir, 500, 1000));

	/* the kubelet resizes the pod cgroup, then the container */
	runtime_cfs(self, p.dir, 1500, 2000);
	update(_metadata, self, &p, &c, 1500, 2000);
	EXPECT_TRUE(recorded(self, p.uid, "web", "1500m", "2"))
		TH_LOG("%s", fake_read(self->state, "pods/pod-10.json"));
	EXPECT_STRNE("", cgroup_cpus(self, &c));

	ASSERT_EQ(0, ctl(self, "daemon --once"))
		TH_LOG("%s", fake_read(self->dir, "log"));
	EXPECT_TRUE(cfs_is(self, c.cgroup, 1500, 2000))
		TH_LOG("the daemon undid the resize: %s",
		       cfs_text(self, c.cgroup));
	EXPECT_TRUE(cfs_is(self, p.dir, 1500, 2000))
		TH_LOG("the pod cgroup: %s", cfs_text(self, p.dir));

	/* the plugin started again: what it knows comes from the pod file */
	nri_rt_stop(&self->rt);
	reconnect(_metadata, self, &p, &c);
	ASSERT_EQ(0, ctl(self, "reconcile"))
		TH_LOG("%s", fake_read(self->dir, "log"));
	EXPECT_TRUE(cfs_is(self, c.cgroup, 1500, 2000))
		TH_LOG("%s", cfs_text(self, c.cgroup));
	EXPECT_TRUE(cfs_is(self, p.dir, 1500, 2000))
		TH_LOG("%s", cfs_text(self, p.dir));

	/* back to 500m without a limit: none recorded, cpu.max lifted */
	runtime_cfs(self, p.dir, 500, 0);
	update(_metadata, self, &p, &c, 500, 0);
	EXPECT_TRUE(recorded(self, p.uid, "web", "500m", NULL))
		TH_LOG("%s", fake_read(self->state, "pods/pod-10.json"));
	ASSERT_EQ(0, ctl(self, "daemon --once"));
	EXPECT_TRUE(cfs_is(self, c.cgroup, 500, 0))
		TH_LOG("%s", cfs_text(self, c.cgroup));
}

/*
 * A container on the shared pool resized while the plugin was away (the
 * runtime goes on without a plugin it closed): the plugin connected
 * again takes its new CPU request and limit from the runtime's
 * Synchronize, whose reconcile, and the daemon's round after it, keep
 * the runtime's CFS limits.
 */
TEST_F(plugin, a_resize_while_the_plugin_was_away_is_synchronized)
{
	struct pod_msg p;
	struct ctr_msg c;

	burstable(_metadata, self, &p, &c, 12);
	nri_rt_stop(&self->rt);

	/* resized without the plugin: the runtime's values, and its record */
	runtime_cfs(self, p.dir, 1500, 2000);
	runtime_cfs(self, c.cgroup, 1500, 2000);
	nri_msg_linux(&c.lx, &c.c, c.cgroup, 1500, 2000);

	reconnect(_metadata, self, &p, &c);
	EXPECT_TRUE(recorded(self, p.uid, "web", "1500m", "2"))
		TH_LOG("%s", fake_read(self->state, "pods/pod-12.json"));
	EXPECT_TRUE(cfs_is(self, c.cgroup, 1500, 2000))
		TH_LOG("%s", cfs_text(self, c.cgroup));
	ASSERT_EQ(0, ctl(self, "daemon --once"))
		TH_LOG("%s", fake_read(self->dir, "log"));
	EXPECT_TRUE(cfs_is(self, c.cgroup, 1500, 2000))
		TH_LOG("%s", cfs_text(self, c.cgroup));
	EXPECT_TRUE(cfs_is(self, p.dir, 1500, 2000))
		TH_LOG("%s", cfs_text(self, p.dir));
}

/*
 * A container on exclusive CPUs resized in place (2 -> 3 CPUs): its
 * recorded request and limit follow its new CPU count, so that the
 * daemon's round keeps the weight of 3 CPUs the runtime wrote; a second
 * update for the same count (a memory resize) changes nothing.
 */
TEST_F(plugin, an_exclusive_resize_records_the_new_count)
{
	struct pod_msg p;
	struct ctr_msg c;
	char before[256], after[256];

	start(_metadata, self, true);
	configure(_metadata, self, "", "containerd", "1.7.24", 0);
	sync_empty(_metadata, self);
	pod_msg(self, &p, 11);
	ctr_msg(&c, &p, "app", 2000, RUNNING);
	create(_metadata, self, &p, &c);
	runs(self, &c);
	held(self, p.uid, "app", before, sizeof(before));
	ASSERT_STRNE("", before);
	update(_metadata, self, &p, &c, 3000, 3000);
	held(self, p.uid, "app", after, sizeof(after));
	EXPECT_STRNE(before, after);
	EXPECT_STREQ(after, cgroup_cpus(self, &c));
	EXPECT_TRUE(recorded(self, p.uid, "app", "3", "3"))
		TH_LOG("%s", fake_read(self->state, "pods/pod-11.json"));
	update(_metadata, self, &p, &c, 3000, 3000);
	held(self, p.uid, "app", before, sizeof(before));
	EXPECT_STREQ(after, before);
	ASSERT_EQ(0, ctl(self, "daemon --once"))
		TH_LOG("%s", fake_read(self->dir, "log"));
	/* exclusive: no quota (DisableCPUQuotaWithExclusiveCPUs) */
	snprintf(before, sizeof(before), "%llu",
		 (unsigned long long)weight_of(3000));
	EXPECT_STREQ(before, cg_file(self, c.cgroup, "cpu.weight"));
	EXPECT_STREQ(after, cgroup_cpus(self, &c));
}

/* ValidateContainerAdjustment for ctr of pod with cpus set by owner. */
static bool rejected(struct __test_metadata *_metadata,
		     FIXTURE_DATA(plugin) *self, struct pod_msg *p,
		     struct ctr_msg *c, const char *cpus, const char *owner,
		     bool as_update, char *reason, size_t len)
{
	Nri__Pkg__Api__V1alpha1__ValidateContainerAdjustmentRequest v =
		NRI__PKG__API__V1ALPHA1__VALIDATE_CONTAINER_ADJUSTMENT_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__ContainerAdjustment adj =
		NRI__PKG__API__V1ALPHA1__CONTAINER_ADJUSTMENT__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxContainerAdjustment la =
		NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER_ADJUSTMENT__INIT;
	Nri__Pkg__Api__V1alpha1__ContainerUpdate up =
		NRI__PKG__API__V1ALPHA1__CONTAINER_UPDATE__INIT, *ups[1] = { &up };
	Nri__Pkg__Api__V1alpha1__LinuxContainerUpdate lu =
		NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER_UPDATE__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxResources res =
		NRI__PKG__API__V1ALPHA1__LINUX_RESOURCES__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxCPU cpu =
		NRI__PKG__API__V1ALPHA1__LINUX_CPU__INIT;
	Nri__Pkg__Api__V1alpha1__OwningPlugins owners =
		NRI__PKG__API__V1ALPHA1__OWNING_PLUGINS__INIT;
	Nri__Pkg__Api__V1alpha1__OwningPlugins__OwnersEntry oe =
		NRI__PKG__API__V1ALPHA1__OWNING_PLUGINS__OWNERS_ENTRY__INIT, *oes[1] = { &oe };
	Nri__Pkg__Api__V1alpha1__FieldOwners fo =
		NRI__PKG__API__V1ALPHA1__FIELD_OWNERS__INIT;
	Nri__Pkg__Api__V1alpha1__FieldOwners__SimpleEntry se =
		NRI__PKG__API__V1ALPHA1__FIELD_OWNERS__SIMPLE_ENTRY__INIT, *ses[1] = { &se };
	Nri__Pkg__Api__V1alpha1__ValidateContainerAdjustmentResponse *out;
	struct nri_response r;
	bool reject = false;

	cpu.cpus = (char *)cpus;
	res.cpu = &cpu;
	v.pod = &p->pod;
	v.container = &c->c;
	if (as_update) {
		/* another container, already running, moved by the plugin */
		up.container_id = "pod-9-other";
		up.linux = &lu;
		lu.resources = &res;
		v.update = ups;
		v.n_update = 1;
		oe.key = "pod-9-other";
	} else {
		la.resources = &res;
		adj.linux = &la;
		v.adjust = &adj;
		oe.key = c->id;
	}
	se.key = NRI__PKG__API__V1ALPHA1__FIELD__CPUSetCPUs;
	se.value = (char *)owner;
	fo.simple = ses;
	fo.n_simple = 1;
	oe.value = &fo;
	owners.owners = oes;
	owners.n_owners = 1;
	v.owners = &owners;
	call_ok(_metadata, self, "ValidateContainerAdjustment", &v.base, &r);
	out = nri__pkg__api__v1alpha1__validate_container_adjustment_response__unpack(
		NULL, r.payload.len, r.payload.data);
	nri_rpc_response_free(&r);
	if (out) {
		reject = out->reject;
		snprintf(reason, len, "%s", out->reason);
		nri__pkg__api__v1alpha1__validate_container_adjustment_response__free_unpacked(out, NULL);
	}
	return reject;
}

/*
 * A validating plugin: another plugin's cpuset for a new container, or
 * its update of another container, that holds CPUs another container
 * holds exclusively is refused, with the plugin, the CPUs and their
 * holder named; one on the shared pool goes, so does cpumgr's own, the
 * holder's own CPUs for itself, and those of a container of the pod
 * that ran to its end (the kubelet reuses an init container's).
 */
TEST_F(plugin, validation_refuses_another_plugins_cpuset_on_exclusive_cpus)
{
	Nri__Pkg__Api__V1alpha1__StopContainerRequest stop =
		NRI__PKG__API__V1ALPHA1__STOP_CONTAINER_REQUEST__INIT;
	struct pod_msg p3, p4;
	struct ctr_msg app, c4, side, setup;
	char cpus[256], reason[1024];

	start(_metadata, self, true);
	configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 2000);
	sync_empty(_metadata, self);
	pod_msg(self, &p3, 3);
	ctr_msg(&app, &p3, "app", 2000, RUNNING);
	create(_metadata, self, &p3, &app);
	held(self, "pod-3", "app", cpus, sizeof(cpus));
	ASSERT_STRNE("", cpus);
	/* the pool moves by writes: no partition pending */
	xsnprintf(reason, sizeof(reason), "pod-3 app %s 0\n", cpus);
	EXPECT_STREQ(reason, fake_read(self->dir, "assigns"));
	pod_msg(self, &p4, 4);
	ctr_msg(&c4, &p4, "web", 500, RUNNING);

	EXPECT_TRUE(rejected(_metadata, self, &p4, &c4, cpus, "20-other",
			     false, reason, sizeof(reason)));
	EXPECT_NE(NULL, strstr(reason, "plugin 20-other puts container pod-4-web on CPUs"))
		TH_LOG("%s", reason);
	EXPECT_NE(NULL, strstr(reason, "which pod pod-3 container app holds exclusively"))
		TH_LOG("%s", reason);
	EXPECT_TRUE(rejected(_metadata, self, &p4, &c4, cpus, "20-other",
			     true, reason, sizeof(reason)));
	EXPECT_NE(NULL, strstr(reason, "container pod-9-other")) TH_LOG("%s", reason);
	/* the shared pool, and cpumgr's own */
	EXPECT_FALSE(rejected(_metadata, self, &p4, &c4, "30-31", "20-other",
			      false, reason, sizeof(reason))) TH_LOG("%s", reason);
	EXPECT_FALSE(rejected(_metadata, self, &p4, &c4, cpus, "10-cpumgr",
			      false, reason, sizeof(reason))) TH_LOG("%s", reason);
	/* the app's own CPUs for the app; not for a container beside it */
	EXPECT_FALSE(rejected(_metadata, self, &p3, &app, cpus, "20-other",
			      false, reason, sizeof(reason))) TH_LOG("%s", reason);
	ctr_msg(&side, &p3, "side", 500, RUNNING);
	EXPECT_TRUE(rejected(_metadata, self, &p3, &side, cpus, "20-other",
			     false, reason, sizeof(reason)));
	EXPECT_NE(NULL, strstr(reason, "which pod pod-3 container app holds exclusively"))
		TH_LOG("%s", reason);
	/* but those of a container of the pod that ran to its end may go */
	ctr_msg(&setup, &p3, "setup", 2000, RUNNING);
	create(_metadata, self, &p3, &setup);
	held(self, "pod-3", "setup", cpus, sizeof(cpus));
	ASSERT_STRNE("", cpus);
	stop.pod = &p3.pod;
	stop.container = &setup.c;
	call_ok(_metadata, self, "StopContainer", &stop.base, NULL);
	EXPECT_FALSE(rejected(_metadata, self, &p3, &side, cpus, "20-other",
			      false, reason, sizeof(reason))) TH_LOG("%s", reason);
}

/*
 * The node of init --pool-moves partitions on a kernel with
 * cpuset.cpus.exclusive, the plugin started, pod-1 and its container
 * name (2 CPUs) created, its cgroup a partition on *cpus.
 */
static void partitions_created(struct __test_metadata *_metadata,
			       FIXTURE_DATA(plugin) *self, struct pod_msg *p,
			       struct ctr_msg *c, const char *name, char *cpus,
			       size_t len)
{
	char args[3 * PATH_MAX], rel[200];

	fake_write(self->dir, "cg/kubepods/cpuset.cpus.exclusive", "\n");
	xsnprintf(args, sizeof(args),
		  "init --cpu-manager-policy static --reserved-cpus 0-1 "
		  "--cgroup-mount '%s/cg' --cgroup-root '%s/cg/kubepods' "
		  "--pool-moves partitions", self->dir, self->dir);
	ASSERT_EQ(0, ctl(self, args)) TH_LOG("%s", fake_read(self->dir, "log"));
	start(_metadata, self, true);
	configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 5000);
	sync_empty(_metadata, self);
	pod_msg(self, p, 1);
	fake_write(self->dir, "cg/kubepods/podpod-1/cpuset.cpus.exclusive", "\n");
	ctr_msg(c, p, name, 2000, RUNNING);
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.exclusive", c->cgroup);
	fake_write(self->dir, rel, "\n");
	create(_metadata, self, p, c);
	held(self, "pod-1", name, cpus, len);
	ASSERT_STRNE("", cpus);
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.partition", c->cgroup);
	EXPECT_STREQ("root", fake_read(self->dir, rel));
}

/*
 * partitions_created(), then the container ended: its partition stays,
 * with the CPUs it keeps.
 */
static void partitions_ended(struct __test_metadata *_metadata,
			     FIXTURE_DATA(plugin) *self, struct pod_msg *p,
			     struct ctr_msg *c, const char *name, char *cpus,
			     size_t len)
{
	Nri__Pkg__Api__V1alpha1__StopContainerRequest stop =
		NRI__PKG__API__V1ALPHA1__STOP_CONTAINER_REQUEST__INIT;
	char rel[200], want[400];

	partitions_created(_metadata, self, p, c, name, cpus, len);
	/* its partition pending from its ASSIGN until it was made */
	xsnprintf(want, sizeof(want), "pod-1 %s %s %u\npod-1 %s %s 0\n", name,
		  cpus, (unsigned int)CPUMGR_ASSIGNMENT_F_PARTITION_PENDING, name,
		  cpus);
	EXPECT_STREQ(want, fake_read(self->dir, "assigns"));
	xsnprintf(rel, sizeof(rel), "cg%s/cgroup.events", c->cgroup);
	fake_write(self->dir, rel, "populated 0\nfrozen 0\n");
	stop.pod = &p->pod;
	stop.container = &c->c;
	call_ok(_metadata, self, "StopContainer", &stop.base, NULL);
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.partition", c->cgroup);
	EXPECT_STREQ("root", fake_read(self->dir, rel));
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.exclusive", c->cgroup);
	EXPECT_STREQ(cpus, fake_read(self->dir, rel));
}

/*
 * The pool moved by partitions beside a module loaded before the
 * partition-pending flag (a package upgraded under running containers):
 * the container is assigned without it, and its partition made.
 */
TEST_F(plugin, partitions_with_a_module_before_the_pending_flag)
{
	char cpus[64], want[200];
	struct ctr_msg app;
	struct pod_msg p;

	setenv("CPUMGR_STANDIN_NO_PENDING", "1", 1);
	partitions_created(_metadata, self, &p, &app, "app", cpus,
			   sizeof(cpus));
	unsetenv("CPUMGR_STANDIN_NO_PENDING");
	xsnprintf(want, sizeof(want), "pod-1 app %s 0\n", cpus);
	EXPECT_STREQ(want, fake_read(self->dir, "assigns"));
}

/*
 * The pool moved by partitions (init --pool-moves partitions): a
 * container that ends keeps its CPUs in its cgroup's partition (the
 * kernel refuses its runtime's removal of the cgroup meanwhile); its
 * restart in the pod gets them back through that partition, which goes
 * first; its removal undoes the partition and removes the cgroup its
 * runtime left.
 */
TEST_F(plugin, partitions_an_ended_containers_cgroup_keeps_its_cpus)
{
	Nri__Pkg__Api__V1alpha1__StopContainerRequest stop =
		NRI__PKG__API__V1ALPHA1__STOP_CONTAINER_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__RemoveContainerRequest rm =
		NRI__PKG__API__V1ALPHA1__REMOVE_CONTAINER_REQUEST__INIT;
	char cpus[64], again[64], rel[200];
	char want[400];
	struct ctr_msg app, next;
	struct pod_msg p;

	partitions_ended(_metadata, self, &p, &app, "app", cpus, sizeof(cpus));
	stop.pod = &p.pod;
	/* attempt 1, a new container ID: the CPUs through the old partition */
	ctr_msg(&next, &p, "app", 2000, RUNNING);
	snprintf(next.id, sizeof(next.id), "pod-1-app-1");
	snprintf(next.cgroup, sizeof(next.cgroup), "%s/%s", p.dir, next.id);
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.exclusive", next.cgroup);
	fake_write(self->dir, rel, "\n");
	xsnprintf(rel, sizeof(rel), "cg%s/cgroup.events", next.cgroup);
	fake_write(self->dir, rel, "populated 0\nfrozen 0\n");
	create(_metadata, self, &p, &next);
	held(self, "pod-1", "app", again, sizeof(again));
	EXPECT_STREQ(cpus, again);
	/* released, assigned again pending, and that cleared once made */
	xsnprintf(want, sizeof(want), "pod-1 app %s %u\npod-1 app %s 0\n",
		  cpus, (unsigned int)CPUMGR_ASSIGNMENT_F_PARTITION_PENDING, cpus);
	EXPECT_STREQ(want, fake_read(self->dir, "assigns") + strlen(want));
	xsnprintf(rel, sizeof(rel), "cg%s", app.cgroup);
	EXPECT_FALSE(fake_exists(self->dir, rel)) TH_LOG("%s", fake_read(self->dir, "log"));
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.partition", next.cgroup);
	EXPECT_STREQ("root", fake_read(self->dir, rel));
	/* not started yet, a round later: its own partition is no leftover */
	ASSERT_EQ(0, ctl(self, "reconcile")) TH_LOG("%s", fake_read(self->dir, "log"));
	EXPECT_STREQ("root", fake_read(self->dir, rel));
	held(self, "pod-1", "app", again, sizeof(again));
	EXPECT_STREQ(cpus, again);
	/* it ends and goes: the cgroup its runtime left goes with its CPUs */
	stop.container = &next.c;
	call_ok(_metadata, self, "StopContainer", &stop.base, NULL);
	rm.pod = &p.pod;
	rm.container = &next.c;
	call_ok(_metadata, self, "RemoveContainer", &rm.base, NULL);
	held(self, "pod-1", "app", again, sizeof(again));
	EXPECT_STREQ("", again);
	xsnprintf(rel, sizeof(rel), "cg%s", next.cgroup);
	EXPECT_FALSE(fake_exists(self->dir, rel)) TH_LOG("%s", fake_read(self->dir, "log"));
	/* and its CPUs out of the ancestors' exclusive ones */
	EXPECT_EQ(NULL, strpbrk(fake_read(self->dir, "cg/kubepods/cpuset.cpus.exclusive"),
				"0123456789"));
}

/*
 * The pool moved by partitions, --init-cpus keep: an init container
 * that ended holds its CPUs in its partition, which no other may take;
 * the app created next gets them back as the kubelet's reuse would
 * give them (its choice of the free CPUs and these), the init released
 * first, its partition undone and the cgroup its runtime left removed.
 */
TEST_F(plugin, partitions_an_app_reuses_an_ended_init_containers_cpus)
{
	char cpus[64], got[64], rel[200];
	struct ctr_msg setup, app;
	struct pod_msg p;

	partitions_ended(_metadata, self, &p, &setup, "setup", cpus,
			 sizeof(cpus));
	ctr_msg(&app, &p, "app", 2000, RUNNING);
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.exclusive", app.cgroup);
	fake_write(self->dir, rel, "\n");
	create(_metadata, self, &p, &app);
	held(self, "pod-1", "app", got, sizeof(got));
	EXPECT_STREQ(cpus, got) TH_LOG("%s", fake_read(self->dir, "log"));
	held(self, "pod-1", "setup", got, sizeof(got));
	EXPECT_STREQ("", got);
	xsnprintf(rel, sizeof(rel), "cg%s", setup.cgroup);
	EXPECT_FALSE(fake_exists(self->dir, rel)) TH_LOG("%s", fake_read(self->dir, "log"));
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.partition", app.cgroup);
	EXPECT_STREQ("root", fake_read(self->dir, rel));
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus.exclusive", app.cgroup);
	EXPECT_STREQ(cpus, fake_read(self->dir, rel));
}

/*
 * Synchronize in parts (NRI 0.8 splits a list too big for a message):
 * each part but the last is answered with more set and no update, and
 * the last acts on the whole list.
 */
TEST_F(plugin, synchronize_in_parts)
{
	Nri__Pkg__Api__V1alpha1__SynchronizeResponse *out;
	struct pod_msg p5, p6;
	struct ctr_msg a5, a6;
	Pod *pods[2] = { &p5.pod, &p6.pod };
	Ctr *ctrs[2] = { &a5.c, &a6.c };
	char cpus5[256], cpus6[256];

	start(_metadata, self, true);
	configure(_metadata, self, "", "containerd", "2.1.9", 2000);
	pod_msg(self, &p5, 5);
	pod_msg(self, &p6, 6);
	ctr_msg(&a5, &p5, "app", 2000, RUNNING);
	ctr_msg(&a6, &p6, "app", 2000, RUNNING);
	runs(self, &a5);
	runs(self, &a6);
	out = sync_part(_metadata, self, pods, 1, ctrs, 1, true);
	ASSERT_NE(NULL, out);
	EXPECT_TRUE(out->more);
	EXPECT_EQ(0, (int)out->n_update);
	nri__pkg__api__v1alpha1__synchronize_response__free_unpacked(out, NULL);
	held(self, "pod-5", "app", cpus5, sizeof(cpus5));
	EXPECT_STREQ("", cpus5) TH_LOG("a part acted on alone");
	out = sync_part(_metadata, self, pods + 1, 1, ctrs + 1, 1, false);
	ASSERT_NE(NULL, out);
	EXPECT_FALSE(out->more);
	EXPECT_EQ(2, (int)out->n_update);
	nri__pkg__api__v1alpha1__synchronize_response__free_unpacked(out, NULL);
	held(self, "pod-5", "app", cpus5, sizeof(cpus5));
	held(self, "pod-6", "app", cpus6, sizeof(cpus6));
	EXPECT_STRNE("", cpus5);
	EXPECT_STRNE("", cpus6);
	EXPECT_STREQ(cpus5, cgroup_cpus(self, &a5));
}

/*
 * A call that comes close to the runtime's request timeout is said; the
 * state directory's lock is waited for half the timeout at most, so that
 * a lock held too long is the call's own clear error, in time.
 */
TEST_F(plugin, calls_answer_within_the_runtimes_timeout)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerRequest in =
		NRI__PKG__API__V1ALPHA1__CREATE_CONTAINER_REQUEST__INIT;
	char lock[PATH_MAX + 32];
	struct nri_response r;
	struct pod_msg p;
	struct ctr_msg c;
	int fd;

	setenv("CPUMGR_NRI_STALL", "CreateContainer:1100ms", 1);
	start(_metadata, self, true);
	configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 2000);
	sync_empty(_metadata, self);
	pod_msg(self, &p, 7);
	ctr_msg(&c, &p, "app", 2000, RUNNING);
	create(_metadata, self, &p, &c);
	EXPECT_NE(NULL, strstr(fake_read(self->dir, "log"),
			       "CreateContainer took"))
		TH_LOG("%s", fake_read(self->dir, "log"));
	EXPECT_NE(NULL, strstr(fake_read(self->dir, "log"),
			       "more than half of the runtime's request timeout (2000 ms)"));

	/* another cpumgrctl holds the lock */
	xsnprintf(lock, sizeof(lock), "%s/.cpu_manager_state.lock", self->state);
	fd = open(lock, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, flock(fd, LOCK_EX));
	ctr_msg(&c, &p, "web", 500, RUNNING);
	in.pod = &p.pod;
	in.container = &c.c;
	ASSERT_EQ(0, nri_rt_call(&self->rt, "CreateContainer", &in.base, 2000, &r))
		TH_LOG("no answer in the runtime's time");
	EXPECT_NE(NRI_RPC_OK, r.code);
	EXPECT_NE(NULL, strstr(r.message, "cpumgr: ")) TH_LOG("%s", r.message);
	nri_rpc_response_free(&r);
	close(fd);
}

/*
 * Pod i's app created with the plugin held past the runtime's request
 * timeout of 500 ms (CPUMGR_NRI_STALL=CreateContainer:stall): the
 * runtime closes the plugin and creates the container without cpumgr's
 * cpuset; it runs.
 */
static void create_past_the_timeout(struct __test_metadata *_metadata,
				    FIXTURE_DATA(plugin) *self, bool launched,
				    const char *stall, int i,
				    struct pod_msg *p, struct ctr_msg *c)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerRequest in =
		NRI__PKG__API__V1ALPHA1__CREATE_CONTAINER_REQUEST__INIT;
	char env[64];
	struct nri_response r;

	xsnprintf(env, sizeof(env), "CreateContainer:%s", stall);
	setenv("CPUMGR_NRI_STALL", env, 1);
	start(_metadata, self, launched);
	configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 500);
	/* the other calls are waited for as long as they take, on a busy host */
	self->timeout_ms = 10000;
	sync_empty(_metadata, self);
	pod_msg(self, p, i);
	ctr_msg(c, p, "app", 2000, RUNNING);
	in.pod = &p->pod;
	in.container = &c->c;
	ASSERT_EQ(-ETIMEDOUT, nri_rt_call(&self->rt, "CreateContainer",
					  &in.base, 500, &r));
	runs(self, c);
}

/*
 * A CreateContainer held past the runtime's request timeout: the
 * runtime created the container without cpumgr's cpuset (its spec's:
 * the shared pool).  The plugin, connected again, finds it in its
 * Synchronize and pins it: its exclusive CPUs in the table and in its
 * cgroup's cpuset at once, and an update for the runtime.
 */
TEST_F(plugin, a_call_past_the_timeout_is_pinned_on_the_reconnect)
{
	Nri__Pkg__Api__V1alpha1__SynchronizeResponse *out;
	struct pod_msg p;
	struct ctr_msg c;
	Pod *pods[1] = { &p.pod };
	Ctr *ctrs[1] = { &c.c };
	char cpus[256], rel[200];

	create_past_the_timeout(_metadata, self, false, "1500ms", 8, &p, &c);
	ASSERT_EQ(0, nri_rt_accept(&self->rt, 10000))
		TH_LOG("the plugin did not connect again: %s",
		       fake_read(self->dir, "log"));
	/* the runtime gave it its spec's cpuset meanwhile: the shared pool */
	xsnprintf(rel, sizeof(rel), "cg%s/cpuset.cpus", c.cgroup);
	fake_write(self->dir, rel, "2-31\n");
	configure(_metadata, self, "v0.12.2", "containerd", "2.4.0", 2000);
	out = sync_part(_metadata, self, pods, 1, ctrs, 1, false);
	ASSERT_NE(NULL, out);
	held(self, "pod-8", "app", cpus, sizeof(cpus));
	ASSERT_STRNE("", cpus);
	EXPECT_STREQ(cpus, cgroup_cpus(self, &c));
	ASSERT_EQ(1, (int)out->n_update);
	EXPECT_STREQ(c.id, out->update[0]->container_id);
	EXPECT_STREQ(cpus, out->update[0]->linux->resources->cpu->cpus);
	nri__pkg__api__v1alpha1__synchronize_response__free_unpacked(out, NULL);
	EXPECT_NE(NULL, strstr(fake_read(self->dir, "log"),
			       "past the runtime's request timeout (500 ms)"));
}

/*
 * The same call with a plugin the runtime launched: no reconnect, and
 * the plugin still held.  The daemon's next round finds the call noted
 * and unfinished, the container running without its CPUs, and pins it.
 */
TEST_F(plugin, a_call_past_the_timeout_is_pinned_by_the_daemons_round)
{
	char cpus[256], note[128];
	struct pod_msg p;
	struct ctr_msg c;

	create_past_the_timeout(_metadata, self, true, "5s", 9, &p, &c);
	xsnprintf(note, sizeof(note), "nri-pending/%s.json", c.id);
	EXPECT_STRNE("<missing>", fake_read(self->state, note));
	ASSERT_EQ(0, ctl(self, "daemon --once"))
		TH_LOG("%s", fake_read(self->dir, "log"));
	held(self, "pod-9", "app", cpus, sizeof(cpus));
	ASSERT_STRNE("", cpus) TH_LOG("%s", fake_read(self->dir, "log"));
	EXPECT_STREQ(cpus, cgroup_cpus(self, &c));
	EXPECT_STREQ("<missing>", fake_read(self->state, note));
	EXPECT_NE(NULL, strstr(fake_read(self->dir, "log"),
			       "created without cpumgr's answer"));
}

TEST_HARNESS_MAIN
