// SPDX-License-Identifier: GPL-2.0
/*
 * The NRI plugin's own cost: `cpumgrctl nri` (decide mode) on a 4096-CPU
 * node (4 sockets x 4 NUMA x 128 cores x 2 threads, CPUs 0-1 reserved)
 * filled with CPUMGR_BENCH_CONTAINERS containers (default 1000: pods of
 * an "app" of 2 exclusive CPUs and a "sidecar" of 250m on the shared
 * pool), the plugin's CPU time per call, p50 / p99 / max:
 *
 *   CreateContainer  each of them, the node filling up (and a row each
 *                    for the apps, whose exclusive CPUs move the shared
 *                    pool, and the sidecars, which leave it)
 *   UpdateContainer  each of them, the node full (what the plugin does
 *                    today: a managed container keeps its cpuset; no
 *                    resize yet)
 *   StopContainer    the first CPUMGR_BENCH_SAMPLE of them (default
 *                    100), the node full (the release: containerd stops
 *                    before it removes; apps and sidecars too)
 *   RemoveContainer  the same, each after its stop (the release again,
 *                    found done)
 *
 * (a call that moves the shared pool costs in proportion to the
 * containers on it, which follow it; the others in proportion to what
 * they change)
 * with the state directory on ext4 (under $TMPDIR, else /tmp, when that
 * is ext4) and on tmpfs (/dev/shm); CPUMGR_BENCH_FS=ext4 or tmpfs runs
 * one.  This program is the runtime (the tests' stand-in,
 * tests/nri_runtime.h): it hands the plugin one end of a socketpair
 * (NRI_PLUGIN_SOCKET, as containerd does for a plugin it launches),
 * answers RegisterPlugin and the plugin's UpdateContainers, and sends
 * the calls.  The plugin is
 * bench/cpumgrctl-standin-tree: kernel_standin.c for the module (its
 * table on /dev/shm, standing for the kernel's memory) and
 * cgroup_standin.c for the cgroups (a directory tree beside the state
 * directory, on the same file system).
 *
 * With CPUMGR_BENCH_KERNEL=real (in a guest: selftests/bench_pool.sh)
 * the plugin is the real cpumgrctl, with the module and the cgroup v2
 * hierarchy at /sys/fs/cgroup (managed root benchpods, CPUs 0-1
 * reserved, --pool-moves CPUMGR_BENCH_POOL: writes or partitions), and
 * what moves the pool is measured as the node fills: CPUMGR_BENCH_CONTAINERS
 * containers on the shared pool (each its pod, each with a sleeping
 * task, as a runtime would put its process in), and at each quarter of
 * them CPUMGR_BENCH_CYCLES (default 20) pods of a 2-CPU app created and
 * removed: each call's wall time (the kernel's waits included: its
 * sched-domain rebuilds, RCU grace periods) and the plugin's CPU time.
 *
 * CPU time: the plugin's process CPU clock (clock_getcpuclockid()) read
 * before the call is sent and after the plugin answered a no-op
 * StateChange sent behind it, so that the work it does after its reply
 * (UpdateContainers for the containers whose shared pool moved) counts;
 * that no-op alone is measured and printed.  Between calls the plugin
 * waits in read(): it is idle.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>

#include "nri.pb-c.h"
#include "nri_msg.h"
#include "nri_runtime.h"

#define TOPOLOGY	"4 4 128 2"
#define APP_CPUS	2

typedef Nri__Pkg__Api__V1alpha1__PodSandbox Pod;
typedef Nri__Pkg__Api__V1alpha1__Container Ctr;

struct runtime {
	struct nri_rt nri;		/* the stand-in runtime's connection */
	clockid_t clock;
	unsigned long updates;		/* ContainerUpdates the plugin sent */
	double wall;			/* the last timed() call's wall ms */
};

/* One container of the bench and what the runtime tells of it. */
struct ctr {
	char pod_id[80], uid[40], pod_name[40], pod_cgroup[96];
	char id[80], name[16], cgroup[192];
	bool app;
};

static void die(const char *what)
{
	fprintf(stderr, "bench_nri: %s\n", what);
	exit(1);
}

static double cpu_ms(const struct runtime *rt)
{
	struct timespec ts;

	if (clock_gettime(rt->clock, &ts))
		die("the plugin's CPU clock");
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The ContainerUpdates in a response of the plugin's to method. */
static size_t updates_in(const char *method, const struct nri_response *r)
{
	const ProtobufCMessageDescriptor *d =
		!strcmp(method, "CreateContainer") ?
		&nri__pkg__api__v1alpha1__create_container_response__descriptor :
		!strcmp(method, "UpdateContainer") ?
		&nri__pkg__api__v1alpha1__update_container_response__descriptor :
		!strcmp(method, "StopContainer") ?
		&nri__pkg__api__v1alpha1__stop_container_response__descriptor :
		NULL;
	ProtobufCMessage *m;
	size_t n = 0;

	if (!d)
		return 0;
	m = protobuf_c_message_unpack(d, NULL, r->payload.len, r->payload.data);
	if (!m)
		die("a response that does not parse");
	/* each of the three: the repeated "update" field */
	for (unsigned int i = 0; i < d->n_fields; i++)
		if (!strcmp(d->fields[i].name, "update"))
			n = *(const size_t *)((const char *)m +
					      d->fields[i].quantifier_offset);
	protobuf_c_message_free_unpacked(m, NULL);
	return n;
}

/*
 * Call the plugin's method; returns when it answered OK (else exits),
 * counting the ContainerUpdates of its response and those it sent
 * meanwhile (UpdateContainers).
 */
static void call(struct runtime *rt, const char *method,
		 const ProtobufCMessage *msg)
{
	struct nri_response r;

	if (nri_rt_call(&rt->nri, method, msg, -1, &r))
		die("the plugin went away");
	if (r.code != NRI_RPC_OK) {
		fprintf(stderr, "bench_nri: the plugin refused %s: %s\n",
			method, r.message);
		exit(1);
	}
	rt->updates += updates_in(method, &r) + rt->nri.updates;
	rt->nri.updates = 0;
	nri_rpc_response_free(&r);
}

/* A StateChange the plugin does not act on: the end of a call's work. */
static void no_op(struct runtime *rt, Pod *pod)
{
	Nri__Pkg__Api__V1alpha1__StateChangeEvent ev =
		NRI__PKG__API__V1ALPHA1__STATE_CHANGE_EVENT__INIT;

	ev.event = NRI__PKG__API__V1ALPHA1__EVENT__POST_START_CONTAINER;
	ev.pod = pod;
	call(rt, "StateChange", &ev.base);
}

static double wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * The plugin's CPU ms for one call and what it did after its reply; its
 * wall ms in rt->wall.
 */
static double timed(struct runtime *rt, const char *method,
		    const ProtobufCMessage *msg, Pod *pod)
{
	double t0 = cpu_ms(rt), w0 = wall_ms();

	call(rt, method, msg);
	no_op(rt, pod);
	rt->wall = wall_ms() - w0;
	return cpu_ms(rt) - t0;
}

/* ---- the messages ---- */

struct pod_msg {
	Pod pod;
	Nri__Pkg__Api__V1alpha1__LinuxPodSandbox lnx;
};

struct ctr_msg {
	Ctr c;
	struct nri_msg_linux lx;
	struct nri_msg_cri cri;
};

static void pod_msg(struct pod_msg *m, struct ctr *c)
{
	*m = (struct pod_msg){
		.pod = NRI__PKG__API__V1ALPHA1__POD_SANDBOX__INIT,
		.lnx = NRI__PKG__API__V1ALPHA1__LINUX_POD_SANDBOX__INIT,
	};
	m->pod.id = c->pod_id;
	m->pod.uid = c->uid;
	m->pod.name = c->pod_name;
	m->pod.namespace_ = "bench";
	m->pod.linux = &m->lnx;
	m->lnx.cgroup_parent = c->pod_cgroup;
	m->lnx.cgroups_path = c->pod_cgroup;
}

/* As containerd tells it: the CRI's annotations, the kubelet's cpu values. */
static void ctr_msg(struct ctr_msg *m, struct ctr *c)
{
	/* the app APP_CPUS CPUs, the sidecar 250m, requests as limits */
	const int64_t milli = c->app ? APP_CPUS * 1000 : 250;

	*m = (struct ctr_msg){
		.c = NRI__PKG__API__V1ALPHA1__CONTAINER__INIT,
	};
	nri_msg_cri(&m->cri, &m->c, c->uid, c->name);
	m->c.id = c->id;
	m->c.pod_sandbox_id = c->pod_id;
	m->c.name = c->name;
	m->c.state = NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_CREATED;
	nri_msg_linux(&m->lx, &m->c, c->cgroup, milli, milli);
}

/* ---- the node ---- */

static void sh(const char *cmd)
{
	if (system(cmd)) {
		fprintf(stderr, "bench_nri: %s failed\n", cmd);
		exit(1);
	}
}

static void start_plugin(struct runtime *rt, const char *ctl,
			 const char *state)
{
	Nri__Pkg__Api__V1alpha1__ConfigureRequest cfg =
		NRI__PKG__API__V1ALPHA1__CONFIGURE_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__SynchronizeRequest sync =
		NRI__PKG__API__V1ALPHA1__SYNCHRONIZE_REQUEST__INIT;
	const char *args[] = { "--mode", "decide", "--state-dir", state, NULL };

	rt->updates = 0;
	if (nri_rt_start(&rt->nri, ctl, state, "/dev/stderr", true, args))
		die("the plugin did not start");
	if (clock_getcpuclockid(rt->nri.plugin, &rt->clock))
		die("clock_getcpuclockid");
	/* RegisterPlugin first */
	if (nri_rt_accept(&rt->nri, -1))
		die("the plugin did not register");
	cfg.runtime_name = "bench_nri";
	cfg.runtime_version = "1";
	call(rt, "Configure", &cfg.base);
	call(rt, "Synchronize", &sync.base);
}

static void stop_plugin(struct runtime *rt)
{
	nri_rt_stop(&rt->nri);
}

/* ---- figures ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* p50, p99, max of v[0..n) (left in order) and the updates per call. */
static void row(const char *what, const double *in, int n,
		unsigned long updates)
{
	double *v = malloc(n * sizeof(*v));

	if (!v)
		die("out of memory");
	memcpy(v, in, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	printf("  %-18s %8.3f %8.3f %8.3f %10.1f\n", what, v[n / 2],
	       v[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1], v[n - 1],
	       (double)updates / n);
	free(v);
}

/* The file system a directory is on, as the table names it. */
static const char *fs_name(const char *dir)
{
	struct statfs fs;

	if (statfs(dir, &fs))
		return NULL;
	if (fs.f_type == EXT4_SUPER_MAGIC)
		return "ext4";
	if (fs.f_type == TMPFS_MAGIC)
		return "tmpfs";
	return "other";
}

/*
 * The rows of the apps (exclusive CPUs: the shared pool moves, its
 * members follow) and of the sidecars (the pool stays) of what t holds
 * for c[0..nr) in turn.
 */
static void split_rows(const char *app, const char *sidecar, const double *t,
		       int nr, const unsigned long *u)
{
	double *v = calloc(nr, sizeof(*v));
	unsigned long updates[2] = { 0, 0 };
	int k[2] = { 0, 0 };

	if (!v)
		die("out of memory");
	/* c[i] is an app for an even i: apps to the front, sidecars after */
	for (int i = 0; i < nr; i++) {
		int side = i % 2;

		v[side ? (nr + 1) / 2 + k[1] : k[0]] = t[i];
		k[side]++;
		updates[side] += u[i];
	}
	if (k[0])
		row(app, v, k[0], updates[0]);
	if (k[1])
		row(sidecar, v + (nr + 1) / 2, k[1], updates[1]);
	free(v);
}

/* The pods' sandboxes and their containers, the node filling up. */
static void fill(struct runtime *rt, struct ctr *c, int nr, double *t)
{
	unsigned long u0 = rt->updates, *u = calloc(nr, sizeof(*u)), ui;

	if (!u)
		die("out of memory");
	for (int i = 0; i < nr; i++) {
		Nri__Pkg__Api__V1alpha1__CreateContainerRequest req =
			NRI__PKG__API__V1ALPHA1__CREATE_CONTAINER_REQUEST__INIT;
		Nri__Pkg__Api__V1alpha1__StateChangeEvent ev =
			NRI__PKG__API__V1ALPHA1__STATE_CHANGE_EVENT__INIT;
		struct pod_msg pm;
		struct ctr_msg cm;

		pod_msg(&pm, &c[i]);
		ctr_msg(&cm, &c[i]);
		if (c[i].app) {
			ev.event = NRI__PKG__API__V1ALPHA1__EVENT__RUN_POD_SANDBOX;
			ev.pod = &pm.pod;
			call(rt, "StateChange", &ev.base);
		}
		req.pod = &pm.pod;
		req.container = &cm.c;
		ui = rt->updates;
		t[i] = timed(rt, "CreateContainer", &req.base, &pm.pod);
		u[i] = rt->updates - ui;
	}
	row("CreateContainer", t, nr, rt->updates - u0);
	split_rows("  app (pool moves)", "  sidecar", t, nr, u);
	free(u);
}

/* An UpdateContainer of each, resources as they are. */
static void update_all(struct runtime *rt, struct ctr *c, int nr, double *t)
{
	unsigned long u0 = rt->updates;

	for (int i = 0; i < nr; i++) {
		Nri__Pkg__Api__V1alpha1__UpdateContainerRequest req =
			NRI__PKG__API__V1ALPHA1__UPDATE_CONTAINER_REQUEST__INIT;
		struct pod_msg pm;
		struct ctr_msg cm;

		pod_msg(&pm, &c[i]);
		ctr_msg(&cm, &c[i]);
		req.pod = &pm.pod;
		req.container = &cm.c;
		req.linux_resources = &cm.lx.res;
		t[i] = timed(rt, "UpdateContainer", &req.base, &pm.pod);
	}
	row("UpdateContainer", t, nr, rt->updates - u0);
}

/* Stop, then remove, the first nr containers in turn. */
static void empty(struct runtime *rt, struct ctr *c, int nr, double *t,
		  double *rm)
{
	unsigned long u_stop = 0, u_rm = 0, u0, *u = calloc(nr, sizeof(*u));

	if (!u)
		die("out of memory");
	for (int i = 0; i < nr; i++) {
		Nri__Pkg__Api__V1alpha1__StopContainerRequest stop =
			NRI__PKG__API__V1ALPHA1__STOP_CONTAINER_REQUEST__INIT;
		Nri__Pkg__Api__V1alpha1__StateChangeEvent ev =
			NRI__PKG__API__V1ALPHA1__STATE_CHANGE_EVENT__INIT;
		struct pod_msg pm;
		struct ctr_msg cm;

		pod_msg(&pm, &c[i]);
		ctr_msg(&cm, &c[i]);
		stop.pod = &pm.pod;
		stop.container = &cm.c;
		u0 = rt->updates;
		t[i] = timed(rt, "StopContainer", &stop.base, &pm.pod);
		u[i] = rt->updates - u0;
		u_stop += u[i];
		ev.event = NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_CONTAINER;
		ev.pod = &pm.pod;
		ev.container = &cm.c;
		u0 = rt->updates;
		rm[i] = timed(rt, "StateChange", &ev.base, &pm.pod);
		u_rm += rt->updates - u0;
		if (!c[i].app) {
			ev.event = NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_POD_SANDBOX;
			ev.container = NULL;
			call(rt, "StateChange", &ev.base);
		}
	}
	row("StopContainer", t, nr, u_stop);
	split_rows("  app (pool moves)", "  sidecar", t, nr, u);
	free(u);
	row("RemoveContainer", rm, nr, u_rm);
	printf("  (Stop and Remove: the first %d containers, from the full node)\n",
	       nr);
}

/* Pod p/2's app (even i) or sidecar (odd i), as containerd names them. */
static void name_ctr(struct ctr *c, int i)
{
	int p = i / 2;

	c->app = !(i % 2);
	snprintf(c->uid, sizeof(c->uid), "bench-%08d", p);
	snprintf(c->pod_name, sizeof(c->pod_name), "bench-%d", p);
	snprintf(c->pod_id, sizeof(c->pod_id), "sandbox%057d", p);
	snprintf(c->pod_cgroup, sizeof(c->pod_cgroup), "/kubepods/pod%s",
		 c->uid);
	snprintf(c->id, sizeof(c->id), "%064d", i);
	snprintf(c->name, sizeof(c->name), "%s", c->app ? "app" : "sidecar");
	snprintf(c->cgroup, sizeof(c->cgroup), "%s/%s", c->pod_cgroup, c->id);
}

static void run(const char *ctl, const char *base, const char *shm, int nr,
		int sample)
{
	char top[PATH_MAX], state[PATH_MAX + 8], tree[PATH_MAX + 8],
	     kernel[PATH_MAX], cmd[8 * PATH_MAX];
	struct ctr *c = calloc(nr, sizeof(*c));
	double *t = calloc(nr, sizeof(*t)), *rm = calloc(nr, sizeof(*rm));
	double noop[100];
	struct runtime rt;
	struct pod_msg pm;

	if (!c || !t || !rm)
		die("out of memory");
	snprintf(top, sizeof(top), "%s/cpumgr-bench-nri-%d", base, (int)getpid());
	snprintf(state, sizeof(state), "%s/state", top);
	snprintf(tree, sizeof(tree), "%s/cgroup", top);
	snprintf(kernel, sizeof(kernel), "%s/cpumgr-bench-nri-kernel-%d", shm,
		 (int)getpid());
	setenv("CPUMGR_STANDIN", kernel, 1);
	setenv("CPUMGR_STANDIN_TOPOLOGY", TOPOLOGY, 1);
	snprintf(cmd, sizeof(cmd),
		 "rm -rf '%s' '%s' && mkdir -p '%s' && '%s' init --cpu-manager-policy static "
		 "--reserved-cpus 0-1 --cgroup-mount '%s' --cgroup-root '%s/kubepods' "
		 "--state-dir '%s' >/dev/null", top, kernel, tree, ctl, tree, tree,
		 state);
	sh(cmd);
	for (int i = 0; i < nr; i++)
		name_ctr(&c[i], i);
	printf("state directory on %s (%s), %d containers\n", fs_name(base),
	       base, nr);
	start_plugin(&rt, ctl, state);
	pod_msg(&pm, &c[0]);
	for (int i = 0; i < 100; i++) {
		double t0 = cpu_ms(&rt);

		no_op(&rt, &pm.pod);
		noop[i] = cpu_ms(&rt) - t0;
	}
	printf("  %-18s %8s %8s %8s %10s\n", "plugin CPU ms", "p50", "p99",
	       "max", "updates");
	row("(no-op StateChange)", noop, 100, 0);
	fill(&rt, c, nr, t);
	update_all(&rt, c, nr, t);
	empty(&rt, c, sample < nr ? sample : nr, t, rm);
	stop_plugin(&rt);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", top, kernel);
	sh(cmd);
	free(c);
	free(t);
	free(rm);
}

/* ---- the real kernel (a guest): what moves the pool as the node fills ---- */

#define REAL_ROOT	"/sys/fs/cgroup/benchpods"

/* A task in the container's cgroup, sleeping, as the runtime's process. */
static pid_t task_in(const struct ctr *c)
{
	char path[PATH_MAX];
	pid_t p = fork();
	FILE *f;

	if (p < 0)
		die("fork");
	if (!p) {
		/* gone with the bench, however it ends */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	/* moved in before the next call, as a runtime moves its init */
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cgroup.procs", c->cgroup);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", (int)p) < 0 || fclose(f)) {
		kill(p, SIGKILL);
		die("a task's move into its container's cgroup was refused");
	}
	return p;
}

/*
 * CreateContainer of c (its pod's sandbox left out: a cgroup and a task
 * more per pod, no other call of the plugin's); wall and CPU ms.
 */
static void create_one(struct runtime *rt, struct ctr *c, double *wall,
		       double *cpu)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerRequest req =
		NRI__PKG__API__V1ALPHA1__CREATE_CONTAINER_REQUEST__INIT;
	struct pod_msg pm;
	struct ctr_msg cm;

	pod_msg(&pm, c);
	ctr_msg(&cm, c);
	req.pod = &pm.pod;
	req.container = &cm.c;
	*cpu = timed(rt, "CreateContainer", &req.base, &pm.pod);
	*wall = rt->wall;
}

/* The container and its pod gone, as containerd tells it; wall and CPU ms. */
static void remove_one(struct runtime *rt, struct ctr *c, pid_t task,
		       double *wall, double *cpu)
{
	Nri__Pkg__Api__V1alpha1__StopContainerRequest stop =
		NRI__PKG__API__V1ALPHA1__STOP_CONTAINER_REQUEST__INIT;
	Nri__Pkg__Api__V1alpha1__StateChangeEvent ev =
		NRI__PKG__API__V1ALPHA1__STATE_CHANGE_EVENT__INIT;
	char path[PATH_MAX];
	struct pod_msg pm;
	struct ctr_msg cm;

	pod_msg(&pm, c);
	ctr_msg(&cm, c);
	/* the runtime: its task ends, its cgroup goes */
	if (task > 0) {
		kill(task, SIGKILL);
		waitpid(task, NULL, 0);
	}
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s", c->cgroup);
	stop.pod = &pm.pod;
	stop.container = &cm.c;
	*cpu = timed(rt, "StopContainer", &stop.base, &pm.pod);
	*wall = rt->wall;
	rmdir(path);
	ev.event = NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_CONTAINER;
	ev.pod = &pm.pod;
	ev.container = &cm.c;
	*cpu += timed(rt, "StateChange", &ev.base, &pm.pod);
	*wall += rt->wall;
	ev.event = NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_POD_SANDBOX;
	ev.container = NULL;
	call(rt, "StateChange", &ev.base);
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s", c->pod_cgroup);
	rmdir(path);
}

/* p50, p99, max of wall ms, and the CPU ms's p50 beside. */
static void wall_row(const char *what, const double *wall, const double *cpu,
		     int n)
{
	double *w = malloc(n * sizeof(*w)), *c = malloc(n * sizeof(*c));

	if (!w || !c)
		die("out of memory");
	memcpy(w, wall, n * sizeof(*w));
	memcpy(c, cpu, n * sizeof(*c));
	qsort(w, n, sizeof(*w), cmp_double);
	qsort(c, n, sizeof(*c), cmp_double);
	printf("  %-26s %8.3f %8.3f %8.3f %9.3f\n", what, w[n / 2],
	       w[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1], w[n - 1],
	       c[n / 2]);
	free(w);
	free(c);
}

static void run_real(const char *ctl, const char *shm, const char *pool,
		     int nr, int cycles)
{
	char state[PATH_MAX + 32], cmd[4 * PATH_MAX], what[64];
	struct ctr *c = calloc(nr, sizeof(*c)), app;
	double *w = calloc(nr, sizeof(*w)), *t = calloc(nr, sizeof(*t));
	double *aw = calloc(cycles, sizeof(*aw)), *at = calloc(cycles, sizeof(*at));
	double *rw = calloc(cycles, sizeof(*rw)), *rt_ = calloc(cycles, sizeof(*rt_));
	pid_t *task = calloc(nr, sizeof(*task));
	struct runtime rt;
	int filled = 0;

	if (!c || !w || !t || !aw || !at || !rw || !rt_ || !task)
		die("out of memory");
	snprintf(state, sizeof(state), "%s/cpumgr-bench-pool-%d", shm, (int)getpid());
	snprintf(cmd, sizeof(cmd),
		 "echo +cpuset +cpu >/sys/fs/cgroup/cgroup.subtree_control && "
		 "mkdir -p " REAL_ROOT " && '%s' init --cpu-manager-policy static "
		 "--reserved-cpus 0-1 --cgroup-root " REAL_ROOT " --pool-moves %s "
		 "--enforce %s --state-dir '%s' >/dev/null && "
		 "echo +cpuset +cpu >" REAL_ROOT "/cgroup.subtree_control",
		 ctl, pool, getenv("CPUMGR_BENCH_ENFORCE") ?: "enforce", state);
	sh(cmd);
	for (int i = 0; i < nr; i++) {
		name_ctr(&c[i], 2 * i + 1);
		snprintf(c[i].uid, sizeof(c[i].uid), "side-%08d", i);
		snprintf(c[i].pod_id, sizeof(c[i].pod_id), "sandbox-side-%d", i);
		snprintf(c[i].pod_cgroup, sizeof(c[i].pod_cgroup),
			 "/benchpods/pod%s", c[i].uid);
		snprintf(c[i].cgroup, sizeof(c[i].cgroup), "%s/%s",
			 c[i].pod_cgroup, c[i].id);
	}
	name_ctr(&app, 0);
	snprintf(app.pod_cgroup, sizeof(app.pod_cgroup), "/benchpods/pod%s",
		 app.uid);
	snprintf(app.cgroup, sizeof(app.cgroup), "%s/%s", app.pod_cgroup,
		 app.id);
	printf("pool moves by %s, state directory on %s, %d containers on the shared pool with a task each\n",
	       pool, fs_name(shm), nr);
	start_plugin(&rt, ctl, state);
	printf("  %-26s %8s %8s %8s %9s\n", "wall ms (CPU: the plugin's)",
	       "p50", "p99", "max", "CPU p50");
	for (int q = 1; q <= 4; q++) {
		int to = nr * q / 4;

		for (; filled < to; filled++) {
			create_one(&rt, &c[filled], &w[filled], &t[filled]);
			task[filled] = task_in(&c[filled]);
		}
		snprintf(what, sizeof(what), "sidecar Create, to %d", to);
		wall_row(what, w + nr * (q - 1) / 4, t + nr * (q - 1) / 4,
			 to - nr * (q - 1) / 4);
		for (int k = 0; k < cycles; k++) {
			pid_t p;

			create_one(&rt, &app, &aw[k], &at[k]);
			p = task_in(&app);
			remove_one(&rt, &app, p, &rw[k], &rt_[k]);
		}
		snprintf(what, sizeof(what), "app Create at %d", to);
		wall_row(what, aw, at, cycles);
		snprintf(what, sizeof(what), "app Stop+Remove at %d", to);
		wall_row(what, rw, rt_, cycles);
	}
	for (int i = 0; i < nr; i++) {
		kill(task[i], SIGKILL);
		waitpid(task[i], NULL, 0);
	}
	stop_plugin(&rt);
	snprintf(cmd, sizeof(cmd), "'%s' reset --force --state-dir '%s' >/dev/null 2>&1; "
		 "find " REAL_ROOT " -depth -type d -exec rmdir {} + 2>/dev/null; rm -rf '%s'",
		 ctl, state, state);
	if (system(cmd))
		fprintf(stderr, "bench_nri: the node's cleanup failed\n");
	free(c);
	free(w);
	free(t);
	free(aw);
	free(at);
	free(rw);
	free(rt_);
	free(task);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR") ?: "/tmp";
	int nr = atoi(getenv("CPUMGR_BENCH_CONTAINERS") ?: "1000");
	int sample = atoi(getenv("CPUMGR_BENCH_SAMPLE") ?: "100");
	const char *only = getenv("CPUMGR_BENCH_FS") ?: "";
	const char *shm = access("/dev/shm", W_OK) ? NULL : "/dev/shm";
	char ctl[PATH_MAX + 32], exe[PATH_MAX], *slash;
	ssize_t n;

	if (nr < 2)
		nr = 2;
	nr -= nr % 2;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(ctl, sizeof(ctl), "%s/cpumgrctl-standin-tree", exe);
	signal(SIGPIPE, SIG_IGN);
	/* a row as soon as it is measured: a run takes minutes */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(getenv("CPUMGR_BENCH_KERNEL") ?: "", "real")) {
		int cycles = atoi(getenv("CPUMGR_BENCH_CYCLES") ?: "20");

		snprintf(ctl, sizeof(ctl), "%s/../cpumgrctl", exe);
		printf("cpumgrctl nri (decide), the module and cgroups of this kernel\n");
		run_real(ctl, shm ? shm : tmp, getenv("CPUMGR_BENCH_POOL") ?: "writes",
			 nr, cycles > 0 ? cycles : 1);
		return 0;
	}
	printf("cpumgrctl nri (decide), the runtime's calls on %s CPUs, the kernel and cgroups stood in for\n",
	       "4096");
	if (sample < 1)
		sample = 1;
	if (strcmp(only, "tmpfs") && fs_name(tmp) && !strcmp(fs_name(tmp), "ext4"))
		run(ctl, tmp, shm ? shm : tmp, nr, sample);
	else if (strcmp(only, "tmpfs"))
		printf("state directory on ext4: skipped, %s is not ext4 (TMPDIR=DIR on ext4)\n",
		       tmp);
	if (strcmp(only, "ext4") && shm)
		run(ctl, shm, shm, nr, sample);
	else if (strcmp(only, "ext4"))
		printf("state directory on tmpfs: skipped, no /dev/shm\n");
	return 0;
}
