// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: the plugin's answers to the runtime, each under one
 * node_open() (the state directory's lock, the kernel's table):
 *
 *   Configure         subscribe to the events below
 *   Synchronize       the runtime's pods and containers after a (re)connect:
 *                     release what is recorded and gone, add and bind
 *                     what runs and is not recorded, tell the runtime
 *                     every cpuset that differs from its own
 *   CreateContainer   before the runtime makes the cgroup: add the
 *                     container (decide or guard, as oci-hook does),
 *                     make its cgroup, bind it, write its cpuset, and
 *                     answer with that cpuset as the adjustment and the
 *                     others' new cpusets as updates; a refusal is the
 *                     call's error and leaves nothing recorded
 *   UpdateContainer   a managed container keeps the cpuset cpumgr gave it,
 *                     but for a resize of its exclusive CPUs (decide
 *                     mode, ctl_nri_resize.c): its new cpuset and the
 *                     others' as updates, or the kubelet's refusal
 *   StopContainer     release it; updates for the others
 *   StateChange       RunPodSandbox: the sandbox on the shared pool;
 *                     RemoveContainer, StopPodSandbox, RemovePodSandbox:
 *                     release, the others' updates sent after the reply
 *                     (UpdateContainers)
 *
 * and, every --sweep-period, whatever the runtime says or not: release
 * what is recorded and whose cgroup is gone (a plugin the runtime
 * launched gets no Synchronize), the others' updates sent.
 *
 * A container's events act on the instance the node's record follows
 * (its cgroup): after a restart in its pod, an earlier instance's
 * removal or stop changes nothing (release()).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "ctl_node.h"
#include "ctl_nri_resize.h"
#include "ctl_nri_update.h"
#include "nri_spec.h"

#define EV(e)	(1 << (NRI__PKG__API__V1ALPHA1__EVENT__##e - 1))
#define EVENTS	(EV(RUN_POD_SANDBOX) | EV(STOP_POD_SANDBOX) |		\
		 EV(REMOVE_POD_SANDBOX) | EV(CREATE_CONTAINER) |	\
		 EV(UPDATE_CONTAINER) | EV(STOP_CONTAINER) |		\
		 EV(REMOVE_CONTAINER))

typedef Nri__Pkg__Api__V1alpha1__ContainerUpdate NriUpdate;

#define refuse ctl_nri_refuse

void ctl_nri_refuse(struct nri_reply *r, int code, const char *fmt, ...)
{
	va_list ap;

	r->code = code;
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
}

void ctl_nri_drop(struct ctl_nri *p)
{
	if (p->cached)
		node_close(&p->node);
	p->cached = false;
}

/*
 * The kept node into n, locked, when no other writer locked the state
 * directory since our last call and the kernel's table is still at the
 * generation we left it: what we read then is what is there now.
 */
static bool take_up(struct ctl_nri *p, struct node *n)
{
	struct cpumgr_table t = { 0 };
	struct cm_error err = { 0 };
	bool same;

	if (!p->cached)
		return false;
	if (checkpoint_store_lock(&p->node.files.store, NODE_LOCK_TIMEOUT_MS,
				  &err)) {
		cm_error_clear(&err);
		ctl_nri_drop(p);
		return false;
	}
	same = !strcmp(p->node.files.store.prev_token, p->token) &&
	       !cpumgr_nl_get_table(p->node.kernel.nl, &t) &&
	       t.generation == p->node.kernel.table.generation;
	cpumgr_table_free(&t);
	if (!same) {
		ctl_nri_drop(p);
		return false;
	}
	*n = p->node;
	p->cached = false;
	memset(&p->node, 0, sizeof(p->node));
	return true;
}

void ctl_nri_close(struct ctl_nri *p, struct node *n)
{
	ctl_nri_drop(p);
	if (n->read_only || n->files.store.lock_fd < 0) {
		node_close(n);
		return;
	}
	snprintf(p->token, sizeof(p->token), "%s", n->files.store.token);
	checkpoint_store_unlock(&n->files.store);
	p->node = *n;
	p->cached = true;
	memset(n, 0, sizeof(*n));
	n->files.store.dir_fd = n->files.store.lock_fd = -1;
}

/*
 * ctl_nri_open(); *kept: the node was the kept one, not swept.  !sweep:
 * not swept either way (StopContainer: the stopped container's cgroup
 * may be gone already, and the sweep would release what it keeps).
 */
static int open_node(struct ctl_nri *p, struct node *n, struct nri_reply *r,
		     bool *kept, bool sweep)
{
	struct cm_error err = { 0 };

	/*
	 * Kept: no sweep either, the runtime tells us of every container
	 * that goes while we are connected (Synchronize sweeps after a
	 * reconnect, the tick every --sweep-period).
	 */
	*kept = take_up(p, n);
	if (*kept) {
		n->log = p->log;
		n->targeted = true;
		return 0;
	}
	if (node_open(n, ctl_state_dir(p->dir), NODE_NEED_CONFIG, &err)) {
		refuse(r, NRI_RPC_FAILED_PRECONDITION, "cpumgr: %s",
		       cm_error_msg(&err));
		cm_error_clear(&err);
		return -1;
	}
	n->log = p->log;
	/* one container a call: its pod, and the others when the pool moved */
	n->targeted = true;
	if (sweep && node_sweep_gone(n, &err) < 0) {
		refuse(r, NRI_RPC_INTERNAL, "cpumgr: %s", cm_error_msg(&err));
		cm_error_clear(&err);
		node_close(n);
		return -1;
	}
	return 0;
}

int ctl_nri_open(struct ctl_nri *p, struct node *n, struct nri_reply *r)
{
	bool kept;

	return open_node(p, n, r, &kept, true);
}

int ctl_nri_open_unswept(struct ctl_nri *p, struct node *n,
			 struct nri_reply *r)
{
	bool kept;

	return open_node(p, n, r, &kept, false);
}

static int pack(struct nri_reply *r, const ProtobufCMessage *m)
{
	struct cm_error err = { 0 };

	if (nri_rpc_pack(&r->payload, m, &err)) {
		cm_error_clear(&err);
		return -ENOMEM;
	}
	return 0;
}

static int configure(struct ctl_nri *p, const struct nri_request *req,
		     struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__ConfigureRequest *in = UNPACK(configure_request, req);
	Nri__Pkg__Api__V1alpha1__ConfigureResponse out =
		NRI__PKG__API__V1ALPHA1__CONFIGURE_RESPONSE__INIT;

	if (!in)
		return refuse(r, NRI_RPC_INVALID_ARGUMENT, "Configure: a request that does not parse"), 0;
	if (p->log)
		fprintf(p->log, "nri: configured by %s %s\n", in->runtime_name,
			in->runtime_version);
	FREE(configure_request, in);
	out.events = EVENTS;
	return pack(r, &out.base);
}

/* The kubelet's text where there is one: no CPUs is "resource exhausted". */
static int refusal_code(const char *msg)
{
	return strstr(msg, "not enough cpus") ? NRI_RPC_RESOURCE_EXHAUSTED :
	       NRI_RPC_FAILED_PRECONDITION;
}

static int create_container(struct ctl_nri *p, const struct nri_request *req,
			    struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerRequest *in =
		UNPACK(create_container_request, req);
	Nri__Pkg__Api__V1alpha1__CreateContainerResponse out =
		NRI__PKG__API__V1ALPHA1__CREATE_CONTAINER_RESPONSE__INIT;
	Nri__Pkg__Api__V1alpha1__ContainerAdjustment adj =
		NRI__PKG__API__V1ALPHA1__CONTAINER_ADJUSTMENT__INIT;
	Nri__Pkg__Api__V1alpha1__LinuxContainerAdjustment la =
		NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER_ADJUSTMENT__INIT;
	struct ctl_nri_updates set = { 0 };
	struct cm_error err = { 0 };
	struct oci_container c;
	char cgroup[PATH_MAX], cpus[256];
	struct ctl_nri_cpu res;
	struct node n;
	int ret = 0;

	if (!in || !in->container)
		return refuse(r, NRI_RPC_INVALID_ARGUMENT, "CreateContainer: a request that does not parse"), 0;
	if (nri_spec_container(in->pod, in->container, &c, &err)) {
		refuse(r, NRI_RPC_INVALID_ARGUMENT, "cpumgr: container %s: %s",
		       in->container->id, cm_error_msg(&err));
		goto out;
	}
	if (c.kind == OCI_UNMANAGED) {
		ret = pack(r, &out.base);
		goto out;
	}
	if (nri_spec_shared_cpus(in->pod, &c, &err)) {
		refuse(r, NRI_RPC_INVALID_ARGUMENT, "cpumgr: pod %s container %s: %s",
		       c.pod_uid, c.name, cm_error_msg(&err));
		goto out;
	}
	if (ctl_nri_open(p, &n, r))
		goto out;
	if (ctl_runtime_spec_cgroup(&n, c.cgroups_path, cgroup, sizeof(cgroup),
				    &err) ||
	    ctl_runtime_add(&n, &p->rt, &c, cgroup, true, &err)) {
		refuse(r, refusal_code(cm_error_msg(&err)),
		       "cpumgr: pod %s container %s: %s", c.pod_uid, c.name,
		       cm_error_msg(&err));
		node_close(&n);
		goto out;
	}
	ctl_nri_cpus_of(&n, c.pod_uid, c.name, cpus, sizeof(cpus));
	if (ctl_nri_remember(p, &c, cpus) ||
	    ctl_nri_updates_pod(p, &n, c.id, c.pod_uid, &set)) {
		ret = -ENOMEM;
		node_close(&n);
		goto out;
	}
	node_log(&n, "nri: create %s (%s/%s): cpuset %s, %zu updates", c.id,
		 c.pod_uid, c.name, cpus, set.nr);
	ctl_nri_close(p, &n);
	ctl_nri_cpu_resources(&res, cpus);
	la.resources = &res.res;
	adj.linux = &la;
	out.adjust = &adj;
	out.n_update = set.nr;
	out.update = set.ptrs;
	ret = pack(r, &out.base);
out:
	cm_error_clear(&err);
	ctl_nri_updates_free(&set);
	if (in)
		FREE(create_container_request, in);
	return ret;
}

/*
 * Release a container (or a pod's sandbox), or with stop keep a stopped
 * one's CPUs (ctl_runtime_stop()), and build the others' updates in set
 * (NULL: none); the caller sends them its way.  A failure is logged,
 * never the runtime's error: refusing would not stop the container.
 *
 * Only the instance the node's record follows: after a restart in its
 * pod, the end of an earlier instance of the name (its removal by the
 * kubelet's garbage collection, a late stop) would release or stop the
 * one that runs, its exclusive CPUs back to the pool while it runs on
 * them.  Nothing of that instance is the record's: left alone.
 */
static int release(struct ctl_nri *p, const struct oci_container *c,
		   bool stop, struct ctl_nri_updates *set)
{
	struct nri_reply failed = { .code = NRI_RPC_OK };
	const char *id = c->id, *pod_uid = c->pod_uid, *name = c->name;
	struct cm_error err = { 0 };
	struct node n;
	bool kept;
	int ret = 0;

	ctl_nri_forget_id(p, id);
	if (open_node(p, &n, &failed, &kept, !stop)) {
		ctl_err("nri: release %s (%s/%s): %s", id, pod_uid, name,
			failed.message);
		return 0;
	}
	if (!ctl_runtime_follows(&n, pod_uid, name, c->cgroups_path)) {
		node_log(&n, "nri: %s %s (%s/%s) left alone: an earlier instance, not the one recorded",
			 stop ? "stop" : "removal", id, pod_uid, name);
		ctl_nri_close(p, &n);
		return 0;
	}
	if ((stop ? ctl_runtime_stop : ctl_runtime_release)(&n, pod_uid, name,
							    &err)) {
		ctl_err("nri: release %s (%s/%s): %s", id, pod_uid, name,
			cm_error_msg(&err));
		cm_error_clear(&err);
	} else {
		node_log(&n, "nri: %s %s (%s/%s)", stop ? "stopped" : "released",
			 id, pod_uid, name);
		if (set)
			ret = ctl_nri_updates_pod(p, &n, NULL, pod_uid, set);
		ctl_nri_close(p, &n);
		return ret;
	}
	node_close(&n);
	return ret;
}

/* Who a stopped or removed container or a pod is; -1: none of ours. */
static int who(const NriPod *pod, const NriContainer *ctr,
	       struct oci_container *c)
{
	struct cm_error err = { 0 };
	int ret = ctr ? nri_spec_container(pod, ctr, c, &err) :
		  nri_spec_sandbox(pod, c, &err);

	if (ret)
		ctl_err("nri: %s %s left alone: %s", ctr ? "container" : "pod",
			ctr ? ctr->id : pod->id, cm_error_msg(&err));
	cm_error_clear(&err);
	return ret || c->kind == OCI_UNMANAGED ? -1 : 0;
}

static int stop_container(struct ctl_nri *p, const struct nri_request *req,
			  struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__StopContainerRequest *in =
		UNPACK(stop_container_request, req);
	Nri__Pkg__Api__V1alpha1__StopContainerResponse out =
		NRI__PKG__API__V1ALPHA1__STOP_CONTAINER_RESPONSE__INIT;
	struct ctl_nri_updates set = { 0 };
	struct oci_container c;
	int ret = 0;

	if (!in || !in->container)
		return refuse(r, NRI_RPC_INVALID_ARGUMENT, "StopContainer: a request that does not parse"), 0;
	if (!who(in->pod, in->container, &c))
		ret = release(p, &c, true, &set);
	out.n_update = set.nr;
	out.update = set.ptrs;
	if (!ret && r->code == NRI_RPC_OK)
		ret = pack(r, &out.base);
	ctl_nri_updates_free(&set);
	FREE(stop_container_request, in);
	return ret;
}

/*
 * A managed container keeps its cpuset whatever the update says, but
 * for a resize of its exclusive CPUs in decide mode (ctl_nri_resize.c).
 */
static int update_container(struct ctl_nri *p, const struct nri_request *req,
			    struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__UpdateContainerRequest *in =
		UNPACK(update_container_request, req);
	Nri__Pkg__Api__V1alpha1__UpdateContainerResponse out =
		NRI__PKG__API__V1ALPHA1__UPDATE_CONTAINER_RESPONSE__INIT;
	struct ctl_nri_update u = {
		.u = NRI__PKG__API__V1ALPHA1__CONTAINER_UPDATE__INIT,
		.l = NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER_UPDATE__INIT,
	};
	NriUpdate **list = NULL, *one[1] = { &u.u };
	struct ctl_nri_updates set = { 0 };
	struct ctl_nri_known *k;
	int ret = 0, num;

	if (!in || !in->container)
		return refuse(r, NRI_RPC_INVALID_ARGUMENT, "UpdateContainer: a request that does not parse"), 0;
	k = ctl_nri_find(p, in->container->id);
	num = k && p->rt.mode == CTL_MODE_DECIDE ? nri_spec_resize_cpus(in->pod, in->container,
						  in->linux_resources) : 0;
	if (num)
		ret = ctl_nri_resize(p, k, num, &set, r);
	if (ret < 0)
		goto out;
	if (k && k->told[0]) {
		ctl_nri_cpu_resources(&u.r, k->told);
		u.u.container_id = k->id;
		u.u.linux = &u.l;
		u.l.resources = &u.r.res;
		/* the container's own update, then the others' */
		list = set.nr ? set.ptrs : one;
		if (set.nr)
			memmove(list + 1, list, set.nr * sizeof(*list));
		list[0] = &u.u;
		out.n_update = 1 + set.nr;
		out.update = list;
	}
	ret = pack(r, &out.base);
out:
	ctl_nri_updates_free(&set);
	FREE(update_container_request, in);
	return ret < 0 && r->code != NRI_RPC_OK ? 0 : ret;
}

void ctl_nri_add_sandbox(struct ctl_nri *p, struct node *n,
			 struct oci_container *c)
{
	struct cm_error err = { 0 };
	char cgroup[PATH_MAX];

	/* no cgroup named: the pod cgroup's narrowing covers the sandbox */
	if (!c->cgroups_path[0])
		return;
	if (ctl_runtime_spec_cgroup(n, c->cgroups_path, cgroup,
				    sizeof(cgroup), &err) ||
	    ctl_runtime_add(n, &p->rt, c, cgroup, false, &err))
		node_log_sev(n, NODE_LOG_WARNING,
			     "nri: pod %s sandbox %s left alone: %s",
			     c->pod_uid, c->id, cm_error_msg(&err));
	cm_error_clear(&err);
}

static int run_sandbox(struct ctl_nri *p, struct oci_container *c,
		       struct nri_reply *r)
{
	struct node n;

	if (!c->cgroups_path[0] || ctl_nri_open(p, &n, r))
		return 0;
	ctl_nri_add_sandbox(p, &n, c);
	ctl_nri_close(p, &n);
	return 0;
}

static int state_change(struct ctl_nri *p, struct nri_conn *conn,
			const struct nri_request *req, struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__StateChangeEvent *in =
		UNPACK(state_change_event, req);
	Nri__Pkg__Api__V1alpha1__Empty out =
		NRI__PKG__API__V1ALPHA1__EMPTY__INIT;
	struct ctl_nri_updates set = { 0 };
	struct oci_container c;
	int ret = 0;

	if (!in || !in->pod)
		return refuse(r, NRI_RPC_INVALID_ARGUMENT, "StateChange: a request that does not parse"), 0;
	switch (in->event) {
	case NRI__PKG__API__V1ALPHA1__EVENT__RUN_POD_SANDBOX:
		if (!who(in->pod, NULL, &c))
			ret = run_sandbox(p, &c, r);
		break;
	case NRI__PKG__API__V1ALPHA1__EVENT__STOP_POD_SANDBOX:
	case NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_POD_SANDBOX:
	case NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_CONTAINER:
		if (who(in->pod, in->event ==
			NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_CONTAINER ?
			in->container : NULL, &c))
			break;
		/*
		 * No UpdateContainers now: containerd 1.7 deadlocks when a
		 * plugin's UpdateContainers meets the CRI calls that follow
		 * (containerd#13733), and a release only grows the pool,
		 * whose cgroups the node widened already.  The next answer
		 * that may carry updates tells the runtime (ctl_nri_sweep()
		 * leaves a pool that only grew to it too).
		 */
		ret = release(p, &c, false, NULL);
		break;
	default:
		break;
	}
	if (!ret && r->code == NRI_RPC_OK)
		ret = pack(r, &out.base);
	ctl_nri_updates_free(&set);
	FREE(state_change_event, in);
	return ret;
}

/*
 * Nothing swept and the pool only grew since the runtime was told (a
 * release at an event): the next answer tells it, not a call of ours
 * (containerd#13733, state_change()).
 */
static bool only_grew(const struct ctl_nri *p, struct node *n)
{
	struct cpuset pool;

	node_shared_pool(n, &pool);
	return p->told_pool_known && cpuset_subset(&p->told_pool, &pool);
}

int ctl_nri_sweep(struct ctl_nri *p, struct ctl_nri_updates *set)
{
	struct nri_reply failed = { .code = NRI_RPC_OK };
	struct cm_error err = { 0 };
	struct node n;
	bool kept;
	int ret = 0;

	if (open_node(p, &n, &failed, &kept, true)) {
		ctl_err("nri: sweep: %s", failed.message);
		return 0;
	}
	/* a node read afresh was swept by the open itself */
	if (kept)
		ret = node_sweep_gone(&n, &err);
	if (ret < 0) {
		ctl_err("nri: sweep: %s", cm_error_msg(&err));
		cm_error_clear(&err);
	} else if (!(kept && !ret && only_grew(p, &n))) {
		ret = ctl_nri_updates(p, &n, NULL, set);
	}
	ctl_nri_close(p, &n);
	return ret < 0 ? ret : (int)set->nr;
}

int ctl_nri_tick(void *ctx, struct nri_conn *c)
{
	struct ctl_nri_updates set = { 0 };
	struct cm_error err = { 0 };
	int ret = ctl_nri_sweep(ctx, &set);

	if (ret > 0) {
		Nri__Pkg__Api__V1alpha1__UpdateContainersRequest u =
			NRI__PKG__API__V1ALPHA1__UPDATE_CONTAINERS_REQUEST__INIT;

		u.n_update = set.nr;
		u.update = set.ptrs;
		ret = nri_conn_call(c, "UpdateContainers", &u.base, &err);
		if (ret)
			ctl_err("nri: sweep: %s", cm_error_msg(&err));
		cm_error_clear(&err);
	}
	ctl_nri_updates_free(&set);
	/* a failed sweep waits for the next; a dead connection is not ours */
	return 0;
}

void ctl_nri_response(void *ctx, struct nri_conn *c, const char *method,
		      const struct nri_response *rsp)
{
	struct ctl_nri *p = ctx;

	if (rsp->code != NRI_RPC_OK)
		ctl_err("nri: the runtime refused %s: %s (code %d)", method,
			rsp->message, rsp->code);
	else if (!strcmp(method, "RegisterPlugin"))
		fprintf(stderr, "cpumgrctl: nri: registered with the runtime\n");
	else if (p->log)
		fprintf(p->log, "nri: %s done\n", method);
}

int ctl_nri_call(void *ctx, struct nri_conn *c, const struct nri_request *req,
		 struct nri_reply *r)
{
	struct ctl_nri *p = ctx;
	const char *m = req->method;
	int ret;

	if (!strcmp(m, "Configure"))
		ret = configure(p, req, r);
	else if (!strcmp(m, "Synchronize"))
		ret = ctl_nri_synchronize(p, req, r);
	else if (!strcmp(m, "CreateContainer"))
		ret = create_container(p, req, r);
	else if (!strcmp(m, "UpdateContainer"))
		ret = update_container(p, req, r);
	else if (!strcmp(m, "StopContainer"))
		ret = stop_container(p, req, r);
	else if (!strcmp(m, "StateChange"))
		ret = state_change(p, c, req, r);
	else if (!strcmp(m, "Shutdown"))
		ret = 0;
	else
		return refuse(r, NRI_RPC_UNIMPLEMENTED, "method %s: not served by cpumgr",
			      m), 0;
	if (r->code != NRI_RPC_OK)
		ctl_err("nri: %s: %s", m, r->message);
	return ret;
}
