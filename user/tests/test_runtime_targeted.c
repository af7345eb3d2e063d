// SPDX-License-Identifier: GPL-2.0
/*
 * The NRI plugin's calls reconcile what they change, not the node
 * (node.targeted, node_reconcile_pod()): ctl_runtime_add() and
 * ctl_runtime_release() as `cpumgrctl nri` runs them, on a node of
 * N pods of an exclusive "app" and a shared "sidecar", counting the
 * cgroup files each call opens.  A call that leaves the shared pool as
 * it was opens as many files with 8 pods as with 24; one that moves it
 * opens more only for the cgroups on the pool.  After every call a
 * whole node_reconcile() finds nothing to change: targeted is not less
 * than the whole pass.
 *
 * And the node the plugin keeps between calls (ctl_nri_open(),
 * ctl_nri_close()): taken up again while nothing moved, read again
 * after another writer held the state directory's lock or the kernel's
 * table moved.
 *
 * Linked with bench/kernel_standin.c for the module and with its own
 * cgroupfs_init(): a fake tree (tests/fake_cgroup.h) whose open_file
 * counts.  `init` is bench/cpumgrctl-standin-tree's, as bench_nri's.
 */
#include <libgen.h>
#include <stdarg.h>
#include <unistd.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "cmd.h"
#include "ctl_nri.h"
#include "ctl_nri_gone.h"
#include "ctl_nri_update.h"
#include "ctl_runtime.h"
#include "nri_msg.h"
#include "nri_spec.h"
#include "fake_cgroup.h"
#include "node.h"

static unsigned long opens;

static int counting_open(const char *path, int flags)
{
	opens++;
	return fake_open_file(path, flags);
}

static const struct cgroupfs_ops counting_ops = {
	.open_file = counting_open,
	.remove_dir = fake_remove_dir,
	.v1_root = fake_v1_root,
};

/* cpumgrctl's main.c has the program's; the test's own, on stderr */
void ctl_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void ctl_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* In place of lib/node/cgroupfs_kernel.c's: never the host's cgroups. */
int cgroupfs_init(struct cgroupfs *cg, const char *mount, int version,
		  struct cm_error *err)
{
	return cgroupfs_init_ops(cg, mount, 2, &counting_ops, err);
}

FIXTURE(calls) {
	char dir[PATH_MAX], state[PATH_MAX + 8];
	struct ctl_runtime rt;
	struct cm_error err;
};

/* cpumgrctl (the stand-in's) with ARGS on the fixture's node. */
static int ctl(FIXTURE_DATA(calls) *self, const char *args)
{
	char cmd[8 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), "'%s' %s --state-dir '%s' >/dev/null",
		 getenv("CPUMGR_TEST_CTL"), args, self->state);
	return system(cmd);
}

/* init on the fixture's tree, with --init-cpus mode (NULL: not given). */
static int init_node(FIXTURE_DATA(calls) *self, const char *mode)
{
	char args[4 * PATH_MAX];

	snprintf(args, sizeof(args),
		 "init --cpu-manager-policy static --reserved-cpus 0-1 "
		 "--cgroup-mount '%s/cgroup' --cgroup-root '%s/cgroup/kubepods'%s%s",
		 self->dir, self->dir, mode ? " --init-cpus " : "",
		 mode ? mode : "");
	return ctl(self, args);
}

FIXTURE_SETUP(calls)
{
	char prog[PATH_MAX + 32], exe[PATH_MAX], kernel[PATH_MAX + 8];

	fake_tree_new(self->dir, sizeof(self->dir));
	snprintf(self->state, sizeof(self->state), "%s/state", self->dir);
	snprintf(kernel, sizeof(kernel), "%s/kernel", self->dir);
	ASSERT_NE(NULL, realpath("/proc/self/exe", exe));
	snprintf(prog, sizeof(prog), "%s/../bench/cpumgrctl-standin-tree",
		 dirname(exe));
	setenv("CPUMGR_STANDIN", kernel, 1);
	setenv("CPUMGR_TEST_CTL", prog, 1);
	/* 1 socket, 1 NUMA node, 64 cores, 2 threads: 128 CPUs */
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 64 2", 1);
	fake_mkdir(self->dir, "cgroup/kubepods");
	ASSERT_EQ(0, init_node(self, NULL));
	self->rt.mode = CTL_MODE_DECIDE;
	memset(&self->err, 0, sizeof(self->err));
}

FIXTURE_TEARDOWN(calls)
{
	fake_tree_free(self->dir);
	cm_error_clear(&self->err);
}

/* Pod i's app (2 CPUs, exclusive) or sidecar (250m, shared), as nri. */
static void container(struct oci_container *c, int i, bool app)
{
	memset(c, 0, sizeof(*c));
	c->kind = OCI_CONTAINER;
	c->source = "containerd";
	snprintf(c->pod_uid, sizeof(c->pod_uid), "pod-%04d", i);
	snprintf(c->name, sizeof(c->name), "%s", app ? "app" : "sidecar");
	snprintf(c->id, sizeof(c->id), "%s-%s", c->pod_uid, c->name);
	c->has_qos = true;
	c->qos = QOS_GUARANTEED;
	c->request_milli = c->limit_milli = app ? 2000 : 250;
	snprintf(c->cgroups_path, sizeof(c->cgroups_path),
		 "/kubepods/pod%s/%s", c->pod_uid, c->name);
}

/* One call as ctl_nri.c makes it: add (or release) under node_open(). */
static int call(struct __test_metadata *_metadata, FIXTURE_DATA(calls) *self,
		int i, bool app, bool add, unsigned long *opened)
{
	struct oci_container c;
	char cgroup[PATH_MAX];
	struct node n;
	int ret;

	container(&c, i, app);
	if (node_open(&n, self->state, NODE_NEED_CONFIG, &self->err))
		return -1;
	n.log = NULL;
	n.targeted = true;
	opens = 0;
	/* a failure is negative: || alone would make it 1, a pass */
	if (add)
		ret = ctl_runtime_spec_cgroup(&n, c.cgroups_path, cgroup,
					      sizeof(cgroup), &self->err) ||
		      ctl_runtime_add(&n, &self->rt, &c, cgroup, true,
				      &self->err) ? -1 : 0;
	else
		ret = ctl_runtime_release(&n, c.pod_uid, c.name, &self->err);
	*opened = opens;
	/* the whole pass after it finds nothing left to do */
	if (!ret) {
		n.targeted = false;
		ret = node_reconcile(&n, NULL, &self->err);
		EXPECT_EQ(0, ret) TH_LOG("pod %d %s: a whole reconcile changed %d cgroups after the call",
					 i, c.name, ret);
	}
	node_close(&n);
	return ret < 0 ? -1 : 0;
}

/* Fill pods [from, to): the cgroup files the last pod's calls opened. */
static void fill(struct __test_metadata *_metadata, FIXTURE_DATA(calls) *self,
		 int from, int to, unsigned long *app, unsigned long *sidecar)
{
	for (int i = from; i < to; i++) {
		ASSERT_EQ(0, call(_metadata, self, i, true, true, app))
			TH_LOG("%s", cm_error_msg(&self->err));
		ASSERT_EQ(0, call(_metadata, self, i, false, true, sidecar))
			TH_LOG("%s", cm_error_msg(&self->err));
	}
}

TEST_F(calls, shared_container_cost_does_not_grow_with_the_node)
{
	unsigned long app8, sidecar8, app24, sidecar24, gone8, gone24;

	fill(_metadata, self, 0, 8, &app8, &sidecar8);
	ASSERT_EQ(0, call(_metadata, self, 7, false, false, &gone8))
		TH_LOG("%s", cm_error_msg(&self->err));
	fill(_metadata, self, 7, 24, &app24, &sidecar24);
	ASSERT_EQ(0, call(_metadata, self, 23, false, false, &gone24))
		TH_LOG("%s", cm_error_msg(&self->err));
	/* the pool stays: only the pod's own cgroups, whatever the node */
	EXPECT_EQ(sidecar8, sidecar24);
	EXPECT_EQ(gone8, gone24);
	EXPECT_GT(32ul, sidecar24);
	/* the pool moves: the pods' cgroups and the sidecars follow it (a
	 * read and a write of cpuset.cpus each), and nothing more */
	EXPECT_GE(app8 + 4 * 16, app24);
	EXPECT_LE(app8 + 2 * 16, app24);
}

TEST_F(calls, release_moves_the_pool_for_its_members_alone)
{
	unsigned long app, sidecar, released;

	fill(_metadata, self, 0, 16, &app, &sidecar);
	/* an app goes: its CPUs back to the pool, 16 sidecars follow */
	ASSERT_EQ(0, call(_metadata, self, 3, true, false, &released))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_LE(2ul * 15, released);
	EXPECT_GE(app + 4ul, released);
}

/* The plugin's open, container c added, and its close. */
static void plugin_add_container(struct __test_metadata *_metadata,
				 FIXTURE_DATA(calls) *self, struct ctl_nri *p,
				 struct oci_container *c)
{
	struct nri_reply r = { .code = NRI_RPC_OK };
	char cgroup[PATH_MAX];
	struct node n;

	ASSERT_EQ(0, ctl_nri_open(p, &n, &r)) TH_LOG("%s", r.message);
	EXPECT_EQ(0, ctl_runtime_spec_cgroup(&n, c->cgroups_path, cgroup,
					     sizeof(cgroup), &self->err));
	EXPECT_EQ(0, ctl_runtime_add(&n, &self->rt, c, cgroup, true,
				     &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	ctl_nri_close(p, &n);
	EXPECT_TRUE(p->cached);
}

/* The plugin's open, pod i's sidecar added, and its close. */
static void plugin_add(struct __test_metadata *_metadata,
		       FIXTURE_DATA(calls) *self, struct ctl_nri *p, int i)
{
	struct oci_container c;

	container(&c, i, false);
	plugin_add_container(_metadata, self, p, &c);
}

/* Whether the plugin's next open has pod i (and closes again). */
static bool plugin_sees(struct __test_metadata *_metadata, struct ctl_nri *p,
			const char *uid)
{
	struct nri_reply r = { .code = NRI_RPC_OK };
	struct node n;
	bool seen;

	if (ctl_nri_open(p, &n, &r))
		return false;
	seen = node_find_pod(&n, uid) != NULL;
	ctl_nri_close(p, &n);
	return seen;
}

TEST_F(calls, kept_node_until_another_writer_locks)
{
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	char path[2 * PATH_MAX];
	struct node other;

	plugin_add(_metadata, self, &p, 1);
	/* behind the plugin's back, without the lock: not seen */
	snprintf(path, sizeof(path), "%s/pods/pod-0001.json", self->state);
	ASSERT_EQ(0, unlink(path));
	EXPECT_TRUE(plugin_sees(_metadata, &p, "pod-0001"));
	/* a writer that took the lock, changing nothing: read again */
	ASSERT_EQ(0, node_open(&other, self->state, NODE_NEED_CONFIG,
			       &self->err));
	node_close(&other);
	EXPECT_FALSE(plugin_sees(_metadata, &p, "pod-0001"));
	ctl_nri_forget(&p);
	EXPECT_FALSE(p.cached);
}

TEST_F(calls, kept_node_until_the_table_moves)
{
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	struct nri_reply r = { .code = NRI_RPC_OK };
	struct cpumgr_nl *nl;
	struct node n;
	int e;

	plugin_add(_metadata, self, &p, 1);
	/* the kernel's table moves, nobody took the lock */
	nl = cpumgr_nl_open(&e, NULL);
	ASSERT_NE(NULL, nl);
	ASSERT_EQ(0, cpumgr_nl_assign(nl, "pod-9999", "c", "10-11", 0, NULL,
				      NULL, NULL));
	cpumgr_nl_close(nl);
	ASSERT_EQ(0, ctl_nri_open(&p, &n, &r)) TH_LOG("%s", r.message);
	EXPECT_NE(NULL, node_assignment(&n, "pod-9999", "c"));
	ctl_nri_close(&p, &n);
	ctl_nri_forget(&p);
}

/*
 * Pod 1's sidecar, the runtime told of its cpuset at its creation, then
 * pod 2's app added in the plugin's node (left open in *n): c is the
 * app, cgroup its cgroup.
 */
static void sidecar_then_app(struct __test_metadata *_metadata,
			     FIXTURE_DATA(calls) *self, struct ctl_nri *p,
			     struct node *n, struct oci_container *c,
			     char *cgroup)
{
	struct nri_reply r = { .code = NRI_RPC_OK };

	plugin_add(_metadata, self, p, 1);
	container(c, 1, false);
	ASSERT_EQ(0, ctl_nri_open(p, n, &r)) TH_LOG("%s", r.message);
	ASSERT_EQ(0, ctl_nri_cpus_of(n, c->pod_uid, c->name, cgroup,
				     PATH_MAX));
	ASSERT_EQ(0, ctl_nri_remember(p, c, cgroup));
	ctl_nri_close(p, n);
	container(c, 2, true);
	ASSERT_EQ(0, ctl_nri_open(p, n, &r)) TH_LOG("%s", r.message);
	ASSERT_EQ(0, ctl_runtime_spec_cgroup(n, c->cgroups_path, cgroup,
					     PATH_MAX, &self->err));
	ASSERT_EQ(0, ctl_runtime_add(n, &self->rt, c, cgroup, true,
				     &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
}

/*
 * sidecar_then_app(), the node closed, and the tick's first sweep, which
 * tells the sidecar the pool the app's CPUs left.
 */
static void app_placed_and_told(struct __test_metadata *_metadata,
				FIXTURE_DATA(calls) *self, struct ctl_nri *p,
				struct oci_container *c, char *cgroup)
{
	struct ctl_nri_updates set = { 0 };
	struct node n;

	sidecar_then_app(_metadata, self, p, &n, c, cgroup);
	ctl_nri_close(p, &n);
	EXPECT_EQ(1, ctl_nri_sweep(p, &set));
	ctl_nri_updates_free(&set);
}

/*
 * The grace of the tests below, a wait past it, and one of several
 * graces (sweeps far apart: a sighting keeps its first time).
 */
#define GONE_GRACE_MS		300
#define PAST_GRACE_US		(2 * GONE_GRACE_MS * 1000)
#define LONG_PAST_GRACE_US	(4 * GONE_GRACE_MS * 1000)

/*
 * A container whose cgroup went while nothing told the plugin (a plugin
 * the runtime launched gets no Synchronize): the sweep of every
 * --sweep-period releases it once its cgroup was gone for the grace
 * (its stop may still come), its CPUs back to the pool, and the shared
 * containers the plugin told of get their new cpuset.
 */
TEST_F(calls, sweep_releases_what_went_untold)
{
	struct ctl_nri p = { .dir = self->state, .rt = self->rt,
			     .gone_grace_ms = GONE_GRACE_MS };
	struct nri_reply r = { .code = NRI_RPC_OK };
	struct ctl_nri_updates set = { 0 };
	struct oci_container c;
	char cgroup[PATH_MAX];
	struct node n;

	sidecar_then_app(_metadata, self, &p, &n, &c, cgroup);
	ASSERT_NE(NULL, node_assignment(&n, "pod-0002", "app"));
	ctl_nri_close(&p, &n);
	/* the app's CPUs left the pool: the sidecar is told, once */
	EXPECT_EQ(1, ctl_nri_sweep(&p, &set));
	ctl_nri_updates_free(&set);
	/* nothing went: nothing released, nothing to tell */
	EXPECT_EQ(0, ctl_nri_sweep(&p, &set));
	ctl_nri_updates_free(&set);
	/* the app's cgroup goes, untold: kept within the grace */
	ASSERT_EQ(0, fake_remove_dir(cgroup)) TH_LOG("%s", cgroup);
	EXPECT_EQ(0, ctl_nri_sweep(&p, &set));
	ctl_nri_updates_free(&set);
	ASSERT_EQ(0, ctl_nri_open(&p, &n, &r)) TH_LOG("%s", r.message);
	EXPECT_NE(NULL, node_assignment(&n, "pod-0002", "app"));
	ctl_nri_close(&p, &n);
	/* however long until the next sweep (the tick off: calls sweep) */
	usleep(LONG_PAST_GRACE_US);
	EXPECT_LT(0, ctl_nri_sweep(&p, &set));
	EXPECT_TRUE(set.nr && !strcmp(set.ptrs[0]->container_id,
				      "pod-0001-sidecar"));
	ctl_nri_updates_free(&set);
	ASSERT_EQ(0, ctl_nri_open(&p, &n, &r)) TH_LOG("%s", r.message);
	EXPECT_EQ(NULL, node_assignment(&n, "pod-0002", "app"));
	EXPECT_NE(NULL, node_find_pod(&n, "pod-0001"));
	ctl_nri_close(&p, &n);
	ctl_nri_forget(&p);
}

/* msg sent to the plugin as the runtime sends method. */
static void runtime_sends(struct __test_metadata *_metadata,
			  struct ctl_nri *p, const char *method,
			  const ProtobufCMessage *msg)
{
	struct nri_reply r = { .code = NRI_RPC_OK };
	struct nri_request req = { .method = (char *)method };

	req.payload.len = protobuf_c_message_get_packed_size(msg);
	req.payload.data = malloc(req.payload.len);
	ASSERT_NE(NULL, req.payload.data);
	protobuf_c_message_pack(msg, req.payload.data);
	EXPECT_EQ(0, ctl_nri_call(p, NULL, &req, &r));
	EXPECT_EQ(NRI_RPC_OK, r.code) TH_LOG("%s", r.message);
	free(req.payload.data);
	strbuf_release(&r.payload);
}

/* Whether the node at dir keeps c's CPUs for it, marked exited. */
static bool kept_exited(struct __test_metadata *_metadata, const char *dir,
			const struct oci_container *c)
{
	struct cm_error err = { 0 };
	const struct node_pod *pod;
	struct node n;
	bool kept;
	int k;

	if (node_open(&n, dir, NODE_NEED_CONFIG, &err)) {
		TH_LOG("%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return false;
	}
	pod = node_find_pod(&n, c->pod_uid);
	k = pod ? node_pod_container(pod, c->name) : -1;
	kept = k >= 0 && pod->c[k].exited &&
	       node_assignment(&n, c->pod_uid, c->name);
	node_close(&n);
	return kept;
}

/* The runtime's StopContainer of c, sent to the plugin. */
static void runtime_stops(struct __test_metadata *_metadata,
			  struct ctl_nri *p, const struct oci_container *c)
{
	Nri__Pkg__Api__V1alpha1__StopContainerRequest in =
		NRI__PKG__API__V1ALPHA1__STOP_CONTAINER_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxContainer lnx =
		NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER__INIT;
	NriPod pod = NRI__PKG__API__V1ALPHA1__POD_SANDBOX__INIT;
	NriContainer ctr = NRI__PKG__API__V1ALPHA1__CONTAINER__INIT;

	pod.uid = (char *)c->pod_uid;
	pod.name = (char *)c->pod_uid;
	pod.namespace_ = "default";
	ctr.id = (char *)c->id;
	ctr.name = (char *)c->name;
	lnx.cgroups_path = (char *)c->cgroups_path;
	ctr.linux = &lnx;
	in.pod = &pod;
	in.container = &ctr;
	runtime_sends(_metadata, p, "StopContainer", &in.base);
}

/*
 * StopContainer on a node read afresh (another writer held the lock):
 * the stopped container's cgroup is gone already, and a sweep first
 * would release the CPUs the stop keeps.
 */
TEST_F(calls, stop_on_a_node_read_afresh_keeps_the_cpus)
{
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	struct oci_container c;
	char cgroup[PATH_MAX];
	struct node n;

	sidecar_then_app(_metadata, self, &p, &n, &c, cgroup);
	ctl_nri_close(&p, &n);
	ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG, &self->err));
	node_close(&n);
	ASSERT_EQ(0, fake_remove_dir(cgroup)) TH_LOG("%s", cgroup);
	runtime_stops(_metadata, &p, &c);
	EXPECT_TRUE(kept_exited(_metadata, self->state, &c));
	ctl_nri_forget(&p);
}

/*
 * containerd removes a container's cgroup when its task ends and tells
 * the plugin of the stop after, from another goroutine: a sweep in
 * between (the tick's) must not release the CPUs the stop keeps for the
 * container's restart in its pod, nor may one after the grace.
 */
TEST_F(calls, sweep_before_a_late_stop_keeps_the_cpus)
{
	struct ctl_nri p = { .dir = self->state, .rt = self->rt,
			     .gone_grace_ms = GONE_GRACE_MS };
	struct ctl_nri_updates set = { 0 };
	struct oci_container c;
	char cgroup[PATH_MAX];

	app_placed_and_told(_metadata, self, &p, &c, cgroup);
	/* the task ended: its cgroup is gone, the stop not told yet */
	ASSERT_EQ(0, fake_remove_dir(cgroup)) TH_LOG("%s", cgroup);
	EXPECT_EQ(0, ctl_nri_sweep(&p, &set));
	ctl_nri_updates_free(&set);
	runtime_stops(_metadata, &p, &c);
	usleep(PAST_GRACE_US);
	EXPECT_EQ(0, ctl_nri_sweep(&p, &set));
	ctl_nri_updates_free(&set);
	EXPECT_TRUE(kept_exited(_metadata, self->state, &c));
	/* stopped: its sighting is forgotten */
	EXPECT_EQ(0u, p.nr_gone);
	ctl_nri_forget(&p);
}

/*
 * The same on a node read afresh: another writer (the daemon, every
 * round) held the state directory's lock since, so the sweep reads it
 * all again, and holds the container all the same.
 */
TEST_F(calls, sweep_of_a_node_read_afresh_waits_too)
{
	struct ctl_nri p = { .dir = self->state, .rt = self->rt,
			     .gone_grace_ms = GONE_GRACE_MS };
	struct ctl_nri_updates set = { 0 };
	struct oci_container c;
	char cgroup[PATH_MAX];
	struct node other;

	app_placed_and_told(_metadata, self, &p, &c, cgroup);
	ASSERT_EQ(0, fake_remove_dir(cgroup)) TH_LOG("%s", cgroup);
	ASSERT_EQ(0, node_open(&other, self->state, NODE_NEED_CONFIG,
			       &self->err));
	node_close(&other);
	EXPECT_EQ(0, ctl_nri_sweep(&p, &set));
	ctl_nri_updates_free(&set);
	EXPECT_TRUE(plugin_sees(_metadata, &p, "pod-0002"));
	usleep(PAST_GRACE_US);
	EXPECT_LT(0, ctl_nri_sweep(&p, &set));
	ctl_nri_updates_free(&set);
	EXPECT_FALSE(plugin_sees(_metadata, &p, "pod-0002"));
	ctl_nri_forget(&p);
}

/* The grace follows the sweep period within 1 to 10 s; 10 s without. */
TEST(gone_grace_within_bounds)
{
	EXPECT_EQ(CTL_NRI_GONE_GRACE_MS + 0u, ctl_nri_gone_grace_ms(0));
	EXPECT_EQ(CTL_NRI_GONE_GRACE_MIN_MS + 0u, ctl_nri_gone_grace_ms(1));
	EXPECT_EQ(5000u, ctl_nri_gone_grace_ms(5000));
	EXPECT_EQ(CTL_NRI_GONE_GRACE_MS + 0u,
		  ctl_nri_gone_grace_ms(3600 * 1000));
}

#define LISTED_MAX	4u

/* A container as a Synchronize lists it, its CPU resources the kubelet's. */
struct listed {
	NriContainer ctr;
	struct nri_msg_linux lx;
};

static void list_container(struct listed *l, const struct oci_container *c,
			   const char *sandbox, int state)
{
	nri__pkg__api__v1alpha1__container__init(&l->ctr);
	l->ctr.id = (char *)c->id;
	l->ctr.pod_sandbox_id = (char *)sandbox;
	l->ctr.name = (char *)c->name;
	l->ctr.state = state;
	nri_msg_linux(&l->lx, &l->ctr, c->cgroups_path, c->request_milli,
		      c->limit_milli);
}

/* What sync_lists() lists instead of a state: the pod alone, or nothing. */
#define POD_ALONE	(-1)
#define NOT_LISTED	(-2)

/*
 * Synchronize, through ctl_nri_call() as the runtime sends it, listing
 * cs[i] in states[i] and their pods; POD_ALONE lists its pod alone,
 * NOT_LISTED neither it nor its pod (unless another container lists it).
 */
static void sync_lists(struct __test_metadata *_metadata, struct ctl_nri *p,
		       const struct oci_container *cs, const int *states,
		       size_t nr)
{
	Nri__Pkg__Api__V1alpha1__SynchronizeRequest in =
		NRI__PKG__API__V1ALPHA1__SYNCHRONIZE_REQUEST__INIT;
	NriPod pod[LISTED_MAX], *pods[LISTED_MAX];
	char sandbox[LISTED_MAX][OCI_ID_MAX + 1];
	NriContainer *ctrs[LISTED_MAX];
	struct listed l[LISTED_MAX];

	ASSERT_GE(LISTED_MAX, nr);
	for (size_t i = 0; i < nr; i++) {
		size_t k = 0;

		if (states[i] == NOT_LISTED)
			continue;
		while (k < in.n_pods && strcmp(pod[k].uid, cs[i].pod_uid))
			k++;
		if (k == in.n_pods) {
			nri__pkg__api__v1alpha1__pod_sandbox__init(&pod[k]);
			snprintf(sandbox[k], sizeof(sandbox[k]), "sandbox-%s",
				 cs[i].pod_uid);
			pod[k].id = sandbox[k];
			pod[k].uid = (char *)cs[i].pod_uid;
			pod[k].name = (char *)cs[i].pod_uid;
			pod[k].namespace_ = "default";
			pods[in.n_pods++] = &pod[k];
		}
		if (states[i] < 0)
			continue;
		list_container(&l[in.n_containers], &cs[i], sandbox[k],
			       states[i]);
		ctrs[in.n_containers] = &l[in.n_containers].ctr;
		in.n_containers++;
	}
	in.pods = pods;
	in.containers = ctrs;
	runtime_sends(_metadata, p, "Synchronize", &in.base);
}

/* Synchronize: pod 1's sidecar running, pod 2's app in state (or not listed). */
static void sync_app_in(struct __test_metadata *_metadata,
			struct ctl_nri *p, const struct oci_container *app,
			int state)
{
	struct oci_container cs[2];
	const int states[2] = {
		NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_RUNNING,
		state,
	};

	container(&cs[0], 1, false);
	cs[1] = *app;
	sync_lists(_metadata, p, cs, states, 2);
}

/*
 * Synchronize after a runtime's restart (issue 22, item 12): a container
 * the runtime lists in an unknown state (containerd recovering its task)
 * may well run and keeps its CPUs; one it lists as stopped is stopped as
 * StopContainer would have (kept while its pod lives, --init-cpus keep),
 * and so is one it leaves out while it lists its pod; only one whose pod
 * it no longer lists is released.
 */
TEST_F(calls, sync_releases_only_what_the_runtime_no_longer_lists)
{
	const int unknown =
		NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_UNKNOWN;
	const int stopped =
		NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_STOPPED;
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	struct oci_container c;
	char cgroup[PATH_MAX];
	struct node n;

	sidecar_then_app(_metadata, self, &p, &n, &c, cgroup);
	ctl_nri_close(&p, &n);
	sync_app_in(_metadata, &p, &c, unknown);
	ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG, &self->err));
	EXPECT_NE(NULL, node_assignment(&n, c.pod_uid, c.name));
	node_close(&n);

	sync_app_in(_metadata, &p, &c, stopped);
	EXPECT_TRUE(kept_exited(_metadata, self->state, &c));

	sync_app_in(_metadata, &p, &c, POD_ALONE);
	EXPECT_TRUE(kept_exited(_metadata, self->state, &c));

	sync_app_in(_metadata, &p, &c, NOT_LISTED);
	ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG, &self->err));
	EXPECT_EQ(NULL, node_assignment(&n, c.pod_uid, c.name));
	EXPECT_NE(NULL, node_find_pod(&n, "pod-0001"));
	node_close(&n);
	ctl_nri_forget(&p);
}

/* The CPUs the node at dir holds for uid/name into out ("": none). */
static void held_cpus(const char *dir, const char *uid, const char *name,
		      char *out, size_t len)
{
	struct cm_error err = { 0 };
	const struct cpumgr_assignment *a;
	struct node n;

	out[0] = '\0';
	if (node_open(&n, dir, NODE_NEED_CONFIG, &err)) {
		cm_error_clear(&err);
		return;
	}
	a = node_assignment(&n, uid, name);
	snprintf(out, len, "%s", a && a->cpus ? a->cpus : "");
	node_close(&n);
}

/* Pod i's sidecar with 2 CPUs of its own, as the plugin added it. */
static void own_sidecar(struct __test_metadata *_metadata,
			FIXTURE_DATA(calls) *self, struct ctl_nri *p, int i,
			struct oci_container *c)
{
	container(c, i, false);
	c->request_milli = c->limit_milli = 2000;
	plugin_add_container(_metadata, self, p, c);
}

/*
 * A container that restarted in its pod (restartPolicy): the runtime
 * lists its earlier instance, stopped, beside the one that runs, under
 * the same name.  The stopped one is not a stop of the name: nothing
 * about the container changes.  A stop would mark it ended and the add
 * take it up again; under --init-cpus release, the next container of
 * its pod the plugin adds (an app created while the plugin was away)
 * would then give its CPUs back as an init container's, take them, and
 * the restarted sidecar's CPUs would be decided anew.  The same name
 * running in another pod is no restart: a stopped one is stopped.
 */
TEST_F(calls, sync_leaves_a_restarted_container_as_it_is)
{
	const int running =
		NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_RUNNING;
	const int stopped =
		NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_STOPPED;
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	char before[256], after[256], app[256];
	/* pod 8's sidecar's earlier instance, its app, its sidecar now;
	 * pod 9's sidecar */
	struct oci_container cs[4];
	const int first[3] = { stopped, running, running },
		  then[4] = { stopped, running, running, stopped };
	struct cpuset side, got;
	size_t len = 0;
	char *log = NULL;

	ASSERT_EQ(0, init_node(self, "release"));
	p.log = open_memstream(&log, &len);
	ASSERT_NE(NULL, p.log);
	own_sidecar(_metadata, self, &p, 8, &cs[2]);
	own_sidecar(_metadata, self, &p, 9, &cs[3]);
	held_cpus(self->state, "pod-0008", "sidecar", before, sizeof(before));
	ASSERT_EQ(0, cpuset_parse(&side, before, NULL)) TH_LOG("%s", before);
	ASSERT_EQ(2u, cpuset_count(&side));
	cs[0] = cs[2];
	strcpy(cs[0].id, "pod-0008-sidecar-earlier");

	/* the restart alone (both pods run): no stop, nothing taken up */
	cs[1] = cs[0];
	sync_lists(_metadata, &p, cs + 1, first, 3);
	fflush(p.log);
	EXPECT_EQ(NULL, strstr(log, "stopped pod-0008/sidecar"))
		TH_LOG("%s", log);
	held_cpus(self->state, "pod-0008", "sidecar", after, sizeof(after));
	EXPECT_STREQ(before, after);
	EXPECT_FALSE(kept_exited(_metadata, self->state, &cs[2]));

	/* the app the runtime created while the plugin was away, listed
	 * before the sidecar; pod 9's sidecar stopped */
	container(&cs[1], 8, true);
	fake_mkdir(self->dir, "cgroup/kubepods/podpod-0008/app");
	sync_lists(_metadata, &p, cs, then, 4);
	held_cpus(self->state, "pod-0008", "sidecar", after, sizeof(after));
	EXPECT_STREQ(before, after)
		TH_LOG("the sidecar's CPUs were decided anew");
	held_cpus(self->state, "pod-0008", "app", app, sizeof(app));
	ASSERT_EQ(0, cpuset_parse(&got, app, NULL)) TH_LOG("app: \"%s\"", app);
	EXPECT_EQ(2u, cpuset_count(&got));
	EXPECT_FALSE(cpuset_intersects(&got, &side)) TH_LOG("app %s", app);
	/* the same name in another pod is no restart */
	EXPECT_TRUE(kept_exited(_metadata, self->state, &cs[3]));
	fclose(p.log);
	free(log);
	ctl_nri_forget(&p);
}

/* Whether the table binds uid/name to a cgroup whose last part is leaf. */
static bool bound_to(const char *dir, const char *uid, const char *name,
		     const char *leaf)
{
	struct cm_error err = { 0 };
	const struct cpumgr_assignment *a;
	const char *last;
	struct node n;
	bool bound;

	if (node_open(&n, dir, NODE_NEED_CONFIG, &err)) {
		cm_error_clear(&err);
		return false;
	}
	a = node_assignment(&n, uid, name);
	last = a && a->cgroup_path ? strrchr(a->cgroup_path, '/') : NULL;
	bound = last && !strcmp(last + 1, leaf);
	node_close(&n);
	return bound;
}

/* ctr as an NRI message names container c of its pod, cgroups path and all. */
static void nri_names(NriPod *pod, NriContainer *ctr,
		      Nri__Pkg__Api__V1alpha1__LinuxContainer *lnx,
		      const struct oci_container *c)
{
	nri__pkg__api__v1alpha1__pod_sandbox__init(pod);
	nri__pkg__api__v1alpha1__container__init(ctr);
	nri__pkg__api__v1alpha1__linux_container__init(lnx);
	pod->uid = (char *)c->pod_uid;
	pod->name = (char *)c->pod_uid;
	pod->namespace_ = "default";
	ctr->id = (char *)c->id;
	ctr->name = (char *)c->name;
	lnx->cgroups_path = (char *)c->cgroups_path;
	ctr->linux = lnx;
}

/* The runtime's StopContainer, or its RemoveContainer event, for c. */
static void runtime_ends(struct __test_metadata *_metadata, struct ctl_nri *p,
			 const struct oci_container *c, bool remove)
{
	Nri__Pkg__Api__V1alpha1__StopContainerRequest stop =
		NRI__PKG__API__V1ALPHA1__STOP_CONTAINER_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__StateChangeEvent ev =
		NRI__PKG__API__V1ALPHA1__STATE_CHANGE_EVENT__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxContainer lnx;
	NriContainer ctr;
	NriPod pod;

	nri_names(&pod, &ctr, &lnx, c);
	if (remove) {
		ev.event = NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_CONTAINER;
		ev.pod = &pod;
		ev.container = &ctr;
		runtime_sends(_metadata, p, "StateChange", &ev.base);
	} else {
		stop.pod = &pod;
		stop.container = &ctr;
		runtime_sends(_metadata, p, "StopContainer", &stop.base);
	}
}

/* Pod 5's app of 2 CPUs, its instance tag (the runtime's id, its cgroup). */
static void app_instance(struct oci_container *c, const char *tag)
{
	container(c, 5, true);
	snprintf(c->id, sizeof(c->id), "pod-0005-app-%s", tag);
	snprintf(c->cgroups_path, sizeof(c->cgroups_path),
		 "/kubepods/podpod-0005/%s", tag);
}

/*
 * A container that restarted in its pod (restartPolicy): instance A
 * ended and B runs, with A's CPUs.  The kubelet's garbage collection
 * then removes A: containerd's RemoveContainer (and a StopContainer may
 * come late) names A, of the same pod and name.  The node's record
 * follows B (its cgroup): an event for another instance leaves it
 * alone, B keeps its CPUs, bound, and nothing goes back to the pool
 * for the next pod to take.  B's own events are what they always were.
 */
TEST_F(calls, an_earlier_instance_ending_leaves_the_running_one_alone)
{
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	char first[256], now[256], path[2 * PATH_MAX];
	struct oci_container a, b;
	struct cpuset cpus;
	size_t len = 0;
	char *log = NULL;

	p.log = open_memstream(&log, &len);
	ASSERT_NE(NULL, p.log);
	app_instance(&a, "a");
	plugin_add_container(_metadata, self, &p, &a);
	held_cpus(self->state, a.pod_uid, a.name, first, sizeof(first));
	ASSERT_EQ(0, cpuset_parse(&cpus, first, NULL)) TH_LOG("\"%s\"", first);
	ASSERT_EQ(2u, cpuset_count(&cpus));
	/* A ends: its cgroup goes, the runtime stops it */
	snprintf(path, sizeof(path), "%s/cgroup/kubepods/podpod-0005/a",
		 self->dir);
	ASSERT_EQ(0, fake_remove_dir(path)) TH_LOG("%s", path);
	runtime_ends(_metadata, &p, &a, false);
	EXPECT_TRUE(kept_exited(_metadata, self->state, &a));
	/* B, the restart, takes A's CPUs up again */
	app_instance(&b, "b");
	plugin_add_container(_metadata, self, &p, &b);
	held_cpus(self->state, b.pod_uid, b.name, now, sizeof(now));
	ASSERT_STREQ(first, now);

	/* the kubelet's garbage collection removes A; a late stop of A */
	runtime_ends(_metadata, &p, &a, true);
	runtime_ends(_metadata, &p, &a, false);
	held_cpus(self->state, b.pod_uid, b.name, now, sizeof(now));
	EXPECT_STREQ(first, now) TH_LOG("B lost its CPUs to A's removal");
	EXPECT_FALSE(kept_exited(_metadata, self->state, &b))
		TH_LOG("B marked ended by A's stop");
	fflush(p.log);
	EXPECT_EQ(NULL, strstr(log, "released pod-0005-app-a"))
		TH_LOG("%s", log);
	/* and the table still binds B's cgroup to them */
	EXPECT_TRUE(bound_to(self->state, b.pod_uid, b.name, "b"));

	/* B's own: stopped keeps the CPUs, removed gives them back */
	runtime_ends(_metadata, &p, &b, false);
	EXPECT_TRUE(kept_exited(_metadata, self->state, &b));
	runtime_ends(_metadata, &p, &b, true);
	held_cpus(self->state, b.pod_uid, b.name, now, sizeof(now));
	EXPECT_STREQ("", now);
	fclose(p.log);
	free(log);
	ctl_nri_forget(&p);
}

/*
 * Synchronize (containerd restarted) after pod 5's app restarted: the
 * record follows B.  The runtime lists A stopped and B in an unknown
 * state (containerd recovering its task: it may well run): A's stop is
 * none of B's, which keeps its CPUs, not ended.  Then the runtime lists
 * A alone: B ended while its pod lives, and keeps its CPUs as a stop
 * leaves them; then nothing of pod 5: released.
 */
TEST_F(calls, sync_stops_and_releases_the_instance_recorded)
{
	const int stopped =
		NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_STOPPED;
	const int states[2] = {
		stopped, NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_UNKNOWN,
	};
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	char first[256], now[256], path[2 * PATH_MAX];
	struct oci_container cs[2];

	app_instance(&cs[0], "a");
	plugin_add_container(_metadata, self, &p, &cs[0]);
	held_cpus(self->state, "pod-0005", "app", first, sizeof(first));
	snprintf(path, sizeof(path), "%s/cgroup/kubepods/podpod-0005/a",
		 self->dir);
	ASSERT_EQ(0, fake_remove_dir(path)) TH_LOG("%s", path);
	runtime_ends(_metadata, &p, &cs[0], false);
	app_instance(&cs[1], "b");
	plugin_add_container(_metadata, self, &p, &cs[1]);

	sync_lists(_metadata, &p, cs, states, 2);
	EXPECT_FALSE(kept_exited(_metadata, self->state, &cs[1]))
		TH_LOG("B marked ended by A's stop");
	held_cpus(self->state, "pod-0005", "app", now, sizeof(now));
	EXPECT_STREQ(first, now);
	EXPECT_TRUE(bound_to(self->state, "pod-0005", "app", "b"));

	sync_lists(_metadata, &p, cs, states, 1);
	EXPECT_TRUE(kept_exited(_metadata, self->state, &cs[1]));
	held_cpus(self->state, "pod-0005", "app", now, sizeof(now));
	EXPECT_STREQ(first, now);

	sync_lists(_metadata, &p, cs, (const int[]){ NOT_LISTED }, 1);
	held_cpus(self->state, "pod-0005", "app", now, sizeof(now));
	EXPECT_STREQ("", now) TH_LOG("B, its pod gone, kept its CPUs");
	ctl_nri_forget(&p);
}

/*
 * The app restarted while the plugin was away: the record follows A,
 * whose cgroup is still there; the runtime lists A stopped and B
 * running.  B is bound with A's CPUs (the table must let B's cgroup
 * hold them), and A's later removal leaves B alone.
 */
TEST_F(calls, sync_binds_the_instance_that_runs)
{
	const int states[2] = {
		NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_STOPPED,
		NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_RUNNING,
	};
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	char first[256], now[256];
	struct oci_container cs[2];

	app_instance(&cs[0], "a");
	plugin_add_container(_metadata, self, &p, &cs[0]);
	held_cpus(self->state, "pod-0005", "app", first, sizeof(first));
	app_instance(&cs[1], "b");
	fake_mkdir(self->dir, "cgroup/kubepods/podpod-0005/b");

	sync_lists(_metadata, &p, cs, states, 2);
	held_cpus(self->state, "pod-0005", "app", now, sizeof(now));
	EXPECT_STREQ(first, now);
	EXPECT_TRUE(bound_to(self->state, "pod-0005", "app", "b"))
		TH_LOG("the table binds A's cgroup, B runs");
	EXPECT_FALSE(kept_exited(_metadata, self->state, &cs[1]));

	runtime_ends(_metadata, &p, &cs[0], true);
	held_cpus(self->state, "pod-0005", "app", now, sizeof(now));
	EXPECT_STREQ(first, now) TH_LOG("B lost its CPUs to A's removal");
	ctl_nri_forget(&p);
}

/*
 * Issue 28: containerd restarted lists neither the containers that
 * exited nor those in an unknown state.  Under --init-cpus keep (the
 * kubelet's behaviour) an init container that ran to its end keeps its
 * CPUs while its pod lives: a Synchronize that lists the pod and its
 * app, not the init container, leaves them with it.
 */
TEST_F(calls, sync_keeps_an_ended_init_containers_cpus_while_its_pod_lives)
{
	const int states[2] = {
		NOT_LISTED,
		NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_RUNNING,
	};
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	char before[256], now[256], path[2 * PATH_MAX];
	struct oci_container cs[2];

	container(&cs[0], 7, true);
	snprintf(cs[0].name, sizeof(cs[0].name), "setup");
	snprintf(cs[0].id, sizeof(cs[0].id), "pod-0007-setup");
	snprintf(cs[0].cgroups_path, sizeof(cs[0].cgroups_path),
		 "/kubepods/podpod-0007/setup");
	cs[0].request_milli = cs[0].limit_milli = 4000;
	plugin_add_container(_metadata, self, &p, &cs[0]);
	held_cpus(self->state, "pod-0007", "setup", before, sizeof(before));
	ASSERT_STRNE("", before);
	/* it ran to its end: its cgroup goes, the runtime stops it */
	snprintf(path, sizeof(path), "%s/cgroup/kubepods/podpod-0007/setup",
		 self->dir);
	ASSERT_EQ(0, fake_remove_dir(path)) TH_LOG("%s", path);
	runtime_ends(_metadata, &p, &cs[0], false);
	ASSERT_TRUE(kept_exited(_metadata, self->state, &cs[0]));
	container(&cs[1], 7, true);
	plugin_add_container(_metadata, self, &p, &cs[1]);

	/* containerd restarts: the pod and its app, not setup */
	sync_lists(_metadata, &p, cs, states, 2);
	held_cpus(self->state, "pod-0007", "setup", now, sizeof(now));
	EXPECT_STREQ(before, now) TH_LOG("setup's CPUs went back while its pod lives");
	EXPECT_TRUE(kept_exited(_metadata, self->state, &cs[0]));
	ctl_nri_forget(&p);
}

/*
 * Issue 30: a container isolated on a partition that ran to its end
 * keeps its CPUs (for the next container of its pod), and its cgroup may
 * outlive it: its partition is undone at the stop, else the kernel
 * would refuse the next container's partition on those CPUs.
 */
TEST_F(calls, an_ended_containers_partition_undone_at_its_stop)
{
	static const char *const files[][2] = {
		{ "cgroup/kubepods/cpuset.cpus.exclusive", "\n" },
		{ "cgroup/kubepods/podpod-0008/cpuset.cpus.exclusive", "\n" },
		{ "cgroup/kubepods/podpod-0008/app/cpuset.cpus.exclusive", "\n" },
		{ "cgroup/kubepods/podpod-0008/app/cpuset.cpus.partition", "member\n" },
	};
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	struct oci_container c;
	char text[256];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		fake_write(self->dir, files[i][0], files[i][1]);
	container(&c, 8, true);
	c.iso_keys[0].what = POD_ISO_CPU_LB;
	c.iso_keys[0].crio = c.iso_keys[0].pod = true;
	snprintf(c.iso_keys[0].value, sizeof(c.iso_keys[0].value), "disable");
	c.nr_iso_keys = 1;
	plugin_add_container(_metadata, self, &p, &c);
	xsnprintf(text, sizeof(text), "%s",
		  fake_read(self->dir, "cgroup/kubepods/podpod-0008/app/cpuset.cpus.partition"));
	ASSERT_STREQ("isolated", text);
	xsnprintf(text, sizeof(text), "%s",
		  fake_read(self->dir, "cgroup/kubepods/cpuset.cpus.exclusive"));
	ASSERT_STRNE("\n", text);
	/* it ran to its end, its cgroup still there */
	runtime_ends(_metadata, &p, &c, false);
	ASSERT_TRUE(kept_exited(_metadata, self->state, &c));
	EXPECT_STREQ("member", fake_read(self->dir, "cgroup/kubepods/podpod-0008/app/cpuset.cpus.partition"));
	EXPECT_STREQ("\n", fake_read(self->dir, "cgroup/kubepods/podpod-0008/app/cpuset.cpus.exclusive"));
	EXPECT_STREQ("\n", fake_read(self->dir, "cgroup/kubepods/podpod-0008/cpuset.cpus.exclusive"));
	EXPECT_STREQ("\n", fake_read(self->dir, "cgroup/kubepods/cpuset.cpus.exclusive"));
	ctl_nri_forget(&p);
}

/*
 * Issue 28: a running Guaranteed container that the restarted
 * containerd leaves out (it lists it as unknown to the CRI, and not at
 * all to NRI) keeps its exclusive CPUs while its cgroup has tasks,
 * whether the runtime lists its pod or not: they never go back to the
 * shared pool for a shared container to get beside the running task.
 */
TEST_F(calls, sync_keeps_a_running_container_left_out_of_the_list)
{
	const int how[2] = { POD_ALONE, NOT_LISTED };
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	char before[256], now[256];
	struct cpuset cpus, pool;
	struct oci_container c;
	char cgroup[PATH_MAX];
	struct node n;

	sidecar_then_app(_metadata, self, &p, &n, &c, cgroup);
	ctl_nri_close(&p, &n);
	/* its task runs */
	fake_write(cgroup, "cgroup.procs", "4242\n");
	held_cpus(self->state, c.pod_uid, c.name, before, sizeof(before));
	ASSERT_EQ(0, cpuset_parse(&cpus, before, NULL)) TH_LOG("\"%s\"", before);
	for (int i = 0; i < 2; i++) {
		sync_app_in(_metadata, &p, &c, how[i]);
		held_cpus(self->state, c.pod_uid, c.name, now, sizeof(now));
		EXPECT_STREQ(before, now)
			TH_LOG("listed %s: the running app lost its CPUs",
			       how[i] == POD_ALONE ? "its pod alone" : "nothing of it");
		EXPECT_FALSE(kept_exited(_metadata, self->state, &c));
		EXPECT_TRUE(bound_to(self->state, c.pod_uid, c.name, "app"));
		ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG,
				       &self->err));
		node_shared_pool(&n, &pool);
		EXPECT_FALSE(cpuset_intersects(&pool, &cpus));
		node_close(&n);
	}
	ctl_nri_forget(&p);
}

/* The runtime's StateChange event for pod 6's sandbox of id, its cgroup tag. */
static void sandbox_event(struct __test_metadata *_metadata, struct ctl_nri *p,
			  int event, const char *id)
{
	Nri__Pkg__Api__V1alpha1__StateChangeEvent ev =
		NRI__PKG__API__V1ALPHA1__STATE_CHANGE_EVENT__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxPodSandbox lnx =
		NRI__PKG__API__V1ALPHA1__LINUX_POD_SANDBOX__INIT;
	NriPod pod = NRI__PKG__API__V1ALPHA1__POD_SANDBOX__INIT;
	char path[64];

	snprintf(path, sizeof(path), "/kubepods/podpod-0006/%s", id);
	pod.id = (char *)id;
	pod.uid = "pod-0006";
	pod.name = "pod-0006";
	pod.namespace_ = "default";
	lnx.cgroups_path = path;
	pod.linux = &lnx;
	ev.event = event;
	ev.pod = &pod;
	runtime_sends(_metadata, p, "StateChange", &ev.base);
}

/* The cgroup leaf pod 6's sandbox record is attached to ("": none). */
static void sandbox_leaf(const char *dir, char *out, size_t len)
{
	struct cm_error err = { 0 };
	const struct node_pod *pod;
	const char *last;
	struct node n;
	int k;

	out[0] = '\0';
	if (node_open(&n, dir, NODE_NEED_CONFIG, &err)) {
		cm_error_clear(&err);
		return;
	}
	pod = node_find_pod(&n, "pod-0006");
	k = pod ? node_pod_container(pod, OCI_SANDBOX_NAME) : -1;
	last = k >= 0 && !pod->c[k].removed ? strrchr(pod->c[k].cgroup, '/') :
	       NULL;
	snprintf(out, len, "%s", last ? last + 1 : "");
	node_close(&n);
}

/*
 * The same for a pod's sandbox: the kubelet recreates a dead sandbox
 * (same pod UID, a new id and cgroup) after stopping the old one, and
 * removes the old one later.  That StopPodSandbox or RemovePodSandbox
 * leaves the new sandbox recorded; the new one's own releases it.
 */
TEST_F(calls, an_earlier_sandbox_ending_leaves_the_new_one_alone)
{
	const int run = NRI__PKG__API__V1ALPHA1__EVENT__RUN_POD_SANDBOX,
		  stop = NRI__PKG__API__V1ALPHA1__EVENT__STOP_POD_SANDBOX,
		  remove = NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_POD_SANDBOX;
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	char leaf[PATH_MAX];

	/* the runtime makes the sandbox's cgroup before RunPodSandbox */
	fake_mkdir(self->dir, "cgroup/kubepods/podpod-0006/s1");
	fake_mkdir(self->dir, "cgroup/kubepods/podpod-0006/s2");
	sandbox_event(_metadata, &p, run, "s1");
	sandbox_leaf(self->state, leaf, sizeof(leaf));
	ASSERT_STREQ("s1", leaf);
	sandbox_event(_metadata, &p, run, "s2");
	sandbox_leaf(self->state, leaf, sizeof(leaf));
	ASSERT_STREQ("s2", leaf);
	sandbox_event(_metadata, &p, stop, "s1");
	sandbox_event(_metadata, &p, remove, "s1");
	sandbox_leaf(self->state, leaf, sizeof(leaf));
	EXPECT_STREQ("s2", leaf) TH_LOG("the old sandbox's end released the new one");
	sandbox_event(_metadata, &p, stop, "s2");
	sandbox_leaf(self->state, leaf, sizeof(leaf));
	EXPECT_STREQ("", leaf);
	ctl_nri_forget(&p);
}

/*
 * A pod's sandbox stops with a container whose cgroup is gone and whose
 * stop never came: no container of the pod restarts, so the grace holds
 * nothing and the pod goes with its sandbox.
 */
TEST_F(calls, a_sandbox_ending_releases_what_the_grace_held)
{
	const int run = NRI__PKG__API__V1ALPHA1__EVENT__RUN_POD_SANDBOX,
		  stop = NRI__PKG__API__V1ALPHA1__EVENT__STOP_POD_SANDBOX;
	struct ctl_nri p = { .dir = self->state, .rt = self->rt,
			     .gone_grace_ms = 60 * 1000 };
	struct oci_container c;
	char path[2 * PATH_MAX];

	fake_mkdir(self->dir, "cgroup/kubepods/podpod-0006/s1");
	sandbox_event(_metadata, &p, run, "s1");
	container(&c, 6, true);
	plugin_add_container(_metadata, self, &p, &c);
	ASSERT_TRUE(plugin_sees(_metadata, &p, "pod-0006"));
	snprintf(path, sizeof(path), "%s/cgroup%s", self->dir, c.cgroups_path);
	ASSERT_EQ(0, fake_remove_dir(path)) TH_LOG("%s", path);
	sandbox_event(_metadata, &p, stop, "s1");
	EXPECT_FALSE(plugin_sees(_metadata, &p, "pod-0006"));
	ctl_nri_forget(&p);
}

/*
 * A pod whose container stopped and whose sandbox's cgroup is gone (the
 * sandbox's own events not the plugin's: left alone, or lost) goes at
 * the next sweep: a sandbox holds no CPUs to keep for a restart.
 */
TEST_F(calls, a_gone_sandbox_is_swept_at_once)
{
	const int run = NRI__PKG__API__V1ALPHA1__EVENT__RUN_POD_SANDBOX;
	struct ctl_nri p = { .dir = self->state, .rt = self->rt,
			     .gone_grace_ms = 60 * 1000 };
	struct ctl_nri_updates set = { 0 };
	struct oci_container c;
	char path[2 * PATH_MAX];

	fake_mkdir(self->dir, "cgroup/kubepods/podpod-0006/s1");
	sandbox_event(_metadata, &p, run, "s1");
	container(&c, 6, false);
	plugin_add_container(_metadata, self, &p, &c);
	runtime_stops(_metadata, &p, &c);
	snprintf(path, sizeof(path), "%s/cgroup/kubepods/podpod-0006/s1",
		 self->dir);
	ASSERT_EQ(0, fake_remove_dir(path)) TH_LOG("%s", path);
	EXPECT_LE(0, ctl_nri_sweep(&p, &set));
	ctl_nri_updates_free(&set);
	EXPECT_FALSE(plugin_sees(_metadata, &p, "pod-0006"));
	ctl_nri_forget(&p);
}

/*
 * A release at an event only grows the pool: the tick does not call the
 * runtime for it (containerd#13733), the next answer carries it.
 */
TEST_F(calls, grown_pool_waits_for_the_next_answer)
{
	struct ctl_nri p = { .dir = self->state, .rt = self->rt };
	struct nri_reply r = { .code = NRI_RPC_OK };
	struct ctl_nri_updates set = { 0 };
	struct oci_container c;
	char cgroup[PATH_MAX];
	struct node n;

	/* the pool shrank: the tick tells the sidecar */
	app_placed_and_told(_metadata, self, &p, &c, cgroup);
	/* the app goes at an event (RemoveContainer) */
	ASSERT_EQ(0, ctl_nri_open(&p, &n, &r)) TH_LOG("%s", r.message);
	ASSERT_EQ(0, ctl_runtime_release(&n, c.pod_uid, c.name, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	ctl_nri_close(&p, &n);
	EXPECT_EQ(0, ctl_nri_sweep(&p, &set));
	ctl_nri_updates_free(&set);
	/* the next answer (here a CreateContainer's) tells the sidecar */
	ASSERT_EQ(0, ctl_nri_open(&p, &n, &r)) TH_LOG("%s", r.message);
	ASSERT_EQ(0, ctl_nri_updates(&p, &n, NULL, &set));
	EXPECT_TRUE(set.nr == 1 && !strcmp(set.ptrs[0]->container_id,
					   "pod-0001-sidecar"));
	ctl_nri_updates_free(&set);
	ctl_nri_close(&p, &n);
	ctl_nri_forget(&p);
}

/*
 * The kubelet's order in one pod: an init container "setup" of 4 CPUs
 * runs to its end (its cgroup goes, the runtime's StopContainer), then
 * the app of 2 CPUs and a shared sidecar are added.  mode: init's
 * --init-cpus.  Returns setup's CPUs; *app the app's.
 */
static void init_then_app(struct __test_metadata *_metadata,
			  FIXTURE_DATA(calls) *self, const char *mode,
			  struct cpuset *setup, struct cpuset *app)
{
	char cgroup[PATH_MAX];
	struct oci_container c;
	const struct cpumgr_assignment *a;
	struct node n;
	int k;

	ASSERT_EQ(0, init_node(self, mode)) TH_LOG("--init-cpus %s", mode);
	container(&c, 7, true);
	snprintf(c.name, sizeof(c.name), "setup");
	c.request_milli = c.limit_milli = 4000;
	snprintf(c.cgroups_path, sizeof(c.cgroups_path),
		 "/kubepods/pod%s/setup", c.pod_uid);
	ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG, &self->err));
	n.log = NULL;
	n.targeted = true;
	ASSERT_EQ(0, ctl_runtime_spec_cgroup(&n, c.cgroups_path, cgroup,
					     sizeof(cgroup), &self->err));
	ASSERT_EQ(0, ctl_runtime_add(&n, &self->rt, &c, cgroup, true,
				     &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	a = node_assignment(&n, c.pod_uid, "setup");
	ASSERT_TRUE(a && a->cpus);
	ASSERT_EQ(0, cpuset_parse(setup, a->cpus, NULL));
	ASSERT_EQ(4u, cpuset_count(setup));
	/* it ran to its end: the runtime removes its cgroup, then stops it */
	ASSERT_EQ(0, fake_remove_dir(cgroup)) TH_LOG("%s", cgroup);
	ASSERT_EQ(0, ctl_runtime_stop(&n, c.pod_uid, "setup", &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	/* the sweep of a gone cgroup leaves a container that ran to its end */
	ASSERT_LE(0, node_sweep_gone(&n, &self->err));
	a = node_assignment(&n, c.pod_uid, "setup");
	k = node_pod_container(node_find_pod(&n, c.pod_uid), "setup");
	ASSERT_LE(0, k);
	EXPECT_TRUE(node_find_pod(&n, c.pod_uid)->c[k].exited);
	EXPECT_TRUE(a && a->cpus) TH_LOG("setup lost its CPUs when it stopped");
	node_close(&n);
	ASSERT_EQ(0, call(_metadata, self, 7, true, true,
			  &(unsigned long){ 0 }))
		TH_LOG("%s", cm_error_msg(&self->err));
	ASSERT_EQ(0, call(_metadata, self, 7, false, true,
			  &(unsigned long){ 0 }))
		TH_LOG("%s", cm_error_msg(&self->err));
	ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG, &self->err));
	a = node_assignment(&n, c.pod_uid, "app");
	ASSERT_TRUE(a && a->cpus);
	ASSERT_EQ(0, cpuset_parse(app, a->cpus, NULL));
	/* the kubelet's reuse: the app's CPUs are taken from setup's */
	EXPECT_TRUE(cpuset_subset(app, setup)) TH_LOG("app %s", a->cpus);
	node_close(&n);
}

/* What holds CPU cpu in the table: "" for the shared pool. */
static const char *holder(struct node *n, int cpu)
{
	for (size_t i = 0; i < n->kernel.nr_as; i++) {
		const struct cpumgr_assignment *a = &n->kernel.as[i];
		struct cpuset s;

		if (a->cpus && !cpuset_parse(&s, a->cpus, NULL) &&
		    cpuset_test(&s, cpu))
			return a->container;
	}
	return "";
}

TEST_F(calls, init_cpus_keep_holds_them_as_the_kubelet_does)
{
	struct cpuset setup, app;
	struct node n;
	int cpu;

	init_then_app(_metadata, self, "keep", &setup, &app);
	ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG, &self->err));
	/* kubernetes#112228: setup keeps what the app does not reuse */
	cpuset_for_each(cpu, &setup)
		if (!cpuset_test(&app, cpu))
			EXPECT_STREQ("setup", holder(&n, cpu));
	node_close(&n);
	/* the pod goes with its app and sidecar: setup's CPUs too */
	ASSERT_EQ(0, call(_metadata, self, 7, true, false,
			  &(unsigned long){ 0 }));
	ASSERT_EQ(0, call(_metadata, self, 7, false, false,
			  &(unsigned long){ 0 }));
	ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG, &self->err));
	EXPECT_EQ(NULL, node_find_pod(&n, "pod-0007"));
	EXPECT_EQ(0u, n.kernel.nr_as);
	node_close(&n);
}

TEST_F(calls, init_cpus_release_gives_back_what_no_container_reuses)
{
	struct cpuset setup, app;
	struct node n;
	int cpu;

	init_then_app(_metadata, self, "release", &setup, &app);
	ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG, &self->err));
	EXPECT_EQ(NULL, node_assignment(&n, "pod-0007", "setup"));
	cpuset_for_each(cpu, &setup)
		if (!cpuset_test(&app, cpu))
			EXPECT_STREQ("", holder(&n, cpu))
				TH_LOG("CPU %d not back in the shared pool", cpu);
	node_close(&n);
}

/*
 * After admit (the pod names its init container), the init container's
 * end is its cgroup going: the daemon's and reconcile's sweep.
 */
TEST_F(calls, admitted_init_container_ends_when_its_cgroup_goes)
{
	static const char pod[] =
		"{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"uid\": \"u1\"}, \"spec\": {"
		"\"initContainers\": [{\"name\": \"setup\", \"resources\": {"
		"\"requests\": {\"cpu\": \"4\", \"memory\": \"1Mi\"},"
		"\"limits\": {\"cpu\": \"4\", \"memory\": \"1Mi\"}}}],"
		"\"containers\": [{\"name\": \"app\", \"resources\": {"
		"\"requests\": {\"cpu\": \"2\", \"memory\": \"1Mi\"},"
		"\"limits\": {\"cpu\": \"2\", \"memory\": \"1Mi\"}}}]}}";
	char file[PATH_MAX + 16], args[4 * PATH_MAX], cgroup[PATH_MAX + 64];
	const char *mode[] = { "keep", "release" };
	bool written = false;
	FILE *f;

	snprintf(file, sizeof(file), "%s/pod.json", self->dir);
	f = fopen(file, "w");
	if (f) {
		written = fputs(pod, f) >= 0;
		written &= !fclose(f);
	}
	ASSERT_TRUE(written) TH_LOG("%s", file);
	snprintf(cgroup, sizeof(cgroup), "%s/cgroup/kubepods/podu1/setup",
		 self->dir);
	for (int i = 0; i < 2; i++) {
		const struct cpumgr_assignment *setup, *app;
		struct node n;
		int k;

		ASSERT_EQ(0, init_node(self, mode[i])) TH_LOG("%s", mode[i]);
		snprintf(args, sizeof(args), "admit '%s'", file);
		ASSERT_EQ(0, ctl(self, args));
		ASSERT_EQ(0, ctl(self, "attach --pod u1 --container setup "
				 "--cgroup podu1/setup --pod-cgroup podu1 --create"));
		ASSERT_EQ(0, node_open(&n, self->state, NODE_NEED_CONFIG,
				       &self->err));
		n.log = NULL;
		/* still running: nothing ended */
		EXPECT_EQ(0, node_sweep_inits(&n, &self->err));
		ASSERT_EQ(0, fake_remove_dir(cgroup)) TH_LOG("%s", cgroup);
		EXPECT_EQ(1, node_sweep_inits(&n, &self->err))
			TH_LOG("%s", cm_error_msg(&self->err));
		setup = node_assignment(&n, "u1", "setup");
		app = node_assignment(&n, "u1", "app");
		k = node_pod_container(node_find_pod(&n, "u1"), "setup");
		EXPECT_TRUE(app != NULL);
		if (i == 0) {
			EXPECT_TRUE(setup && k >= 0 &&
				    node_find_pod(&n, "u1")->c[k].exited)
				TH_LOG("keep: setup lost its CPUs");
		} else {
			EXPECT_EQ(NULL, setup) TH_LOG("release: setup kept %s",
						      setup->cpus);
		}
		/* once is enough */
		EXPECT_EQ(0, node_sweep_inits(&n, &self->err));
		node_close(&n);
		ASSERT_EQ(0, ctl(self, "remove u1"));
	}
}

TEST_HARNESS_MAIN
