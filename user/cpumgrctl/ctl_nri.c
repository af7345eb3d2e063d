// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: the plugin's answers to the runtime, each under one
 * node_open() (the state directory's lock, the kernel's table):
 *
 *   Configure         subscribe to the events below (NRI 0.10's too when
 *                     the runtime knows them); note its timeouts
 *   Synchronize       the runtime's pods and containers after a (re)connect:
 *                     release what is recorded and gone, add and bind
 *                     what runs and is not recorded, tell the runtime
 *                     every cpuset that differs from its own
 *                     (ctl_nri_sync.c)
 *   CreateContainer   before the runtime makes the cgroup: add the
 *                     container (decide or guard, as oci-hook does),
 *                     make its cgroup, bind it, write its cpuset, and
 *                     answer with that cpuset as the adjustment and the
 *                     others' new cpusets as updates; a refusal is the
 *                     call's error and leaves nothing recorded
 *   UpdateContainer   a managed container keeps the cpuset cpumgr gave it,
 *                     but for a resize of its exclusive CPUs (decide
 *                     mode, ctl_nri_resize.c): its new cpuset and the
 *                     others' as updates, or the kubelet's refusal; a
 *                     container on the shared pool has its new CPU
 *                     request and limit recorded
 *   StopContainer     release it; updates for the others
 *   RunPodSandbox     the sandbox on the shared pool
 *   RemoveContainer, StopPodSandbox, RemovePodSandbox
 *                     release, the others' updates sent after the reply
 *                     (UpdateContainers)
 *   StateChange       the four above as one call, for runtimes before NRI
 *                     0.12 (from 0.12 the runtime falls back to it for a
 *                     plugin that answers the dedicated call Unimplemented)
 *   UpdatePodSandbox  (0.10) the pod was resized in place: its CPU request
 *                     and limit recorded, its pod cgroup's CFS limits
 *                     follow them
 *   ValidateContainerAdjustment
 *                     (0.10) refuse another plugin's cpuset on CPUs another
 *                     container holds (ctl_nri_validate.c)
 *
 * and, every --sweep-period, whatever the runtime says or not: release
 * what is recorded and whose cgroup is gone (a plugin the runtime
 * launched gets no Synchronize), once gone for a while (its stop may
 * still come: ctl_nri_gone.c), the others' updates sent.
 *
 * The runtime closes the plugin when a call passes its request timeout
 * (2 s by default) and goes on without it: the lock is waited for at
 * most half of that when the runtime said it, and a call that took more
 * than half is said on stderr.
 *
 * A container's events act on the instance the node's record follows
 * (its cgroup): after a restart in its pod, an earlier instance's
 * removal or stop changes nothing (release()).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "cmd.h"
#include "ctl_node.h"
#include "ctl_nri_env.h"
#include "ctl_nri_gone.h"
#include "ctl_nri_pending.h"
#include "ctl_nri_resize.h"
#include "ctl_nri_update.h"
#include "nri_spec.h"
#include "nri_version.h"
#include "kubeletconfig.h"

#define EV(e)	(1 << (NRI__PKG__API__V1ALPHA1__EVENT__##e - 1))
#define EVENTS	(EV(RUN_POD_SANDBOX) | EV(STOP_POD_SANDBOX) |		\
		 EV(REMOVE_POD_SANDBOX) | EV(CREATE_CONTAINER) |	\
		 EV(UPDATE_CONTAINER) | EV(STOP_CONTAINER) |		\
		 EV(REMOVE_CONTAINER))
/* NRI 0.10's: a runtime before it refuses the subscription */
#define EVENTS_0_10	(EV(UPDATE_POD_SANDBOX) |			\
			 EV(VALIDATE_CONTAINER_ADJUSTMENT))

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
 * How long a call waits for the state directory's lock: half the
 * runtime's request timeout when it said it, so that a lock held too
 * long is the call's clear error rather than the runtime's timeout
 * (which closes the plugin and creates the container without it).
 */
static int lock_ms(const struct ctl_nri *p)
{
	return p->request_timeout_ms > 0 ?
	       (int)(p->request_timeout_ms / 2) : NODE_LOCK_TIMEOUT_MS;
}

/*
 * The kept node into n, locked, when no other writer locked the state
 * directory since our last call and the kernel's table is still at the
 * generation we left it: what we read then is what is there now (1).
 * 0: read it again; -1: the lock was not free in time (r says so).
 */
static int take_up(struct ctl_nri *p, struct node *n, struct nri_reply *r)
{
	struct cpumgr_table t = { 0 };
	struct cm_error err = { 0 };
	bool same;

	if (!p->cached)
		return 0;
	if (checkpoint_store_lock(&p->node.files.store, lock_ms(p), &err)) {
		/* the time is spent: no second wait in node_open() */
		refuse(r, NRI_RPC_FAILED_PRECONDITION, "cpumgr: %s",
		       cm_error_msg(&err));
		cm_error_clear(&err);
		ctl_nri_drop(p);
		return -1;
	}
	same = !strcmp(p->node.files.store.prev_token, p->token) &&
	       !cpumgr_nl_get_table(p->node.kernel.nl, &t) &&
	       t.generation == p->node.kernel.table.generation;
	cpumgr_table_free(&t);
	if (!same) {
		ctl_nri_drop(p);
		return 0;
	}
	*n = p->node;
	p->cached = false;
	memset(&p->node, 0, sizeof(p->node));
	return 1;
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
	int ret = take_up(p, n, r);

	if (ret < 0)
		return -1;
	/*
	 * Kept: no sweep either, the runtime tells us of every container
	 * that goes while we are connected (after a reconnect Synchronize
	 * follows the runtime's list, the tick sweeps every --sweep-period).
	 */
	*kept = ret > 0;
	if (*kept) {
		n->log = p->log;
		n->targeted = true;
		ctl_nri_gone_hold(p, n);
		return 0;
	}
	if (node_open_within(n, ctl_state_dir(p->dir), NODE_NEED_CONFIG,
			     lock_ms(p), &err)) {
		refuse(r, NRI_RPC_FAILED_PRECONDITION, "cpumgr: %s",
		       cm_error_msg(&err));
		cm_error_clear(&err);
		return -1;
	}
	n->log = p->log;
	/* one container a call: its pod, and the others when the pool moved */
	n->targeted = true;
	ctl_nri_gone_hold(p, n);
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
	struct nri_version v;
	char nri[64], timeouts[96];

	if (!in)
		return refuse(r, NRI_RPC_INVALID_ARGUMENT, "Configure: a request that does not parse"), 0;
	nri_version_of_runtime(in->nri_version, in->runtime_name,
			       in->runtime_version, &v);
	p->validates = nri_version_at_least(&v, 0, 10);
	p->registration_timeout_ms = in->registration_timeout;
	p->request_timeout_ms = in->request_timeout;
	if (v.known && !v.inferred)
		snprintf(nri, sizeof(nri), "NRI %s", in->nri_version);
	else
		snprintf(nri, sizeof(nri), "NRI %s", v.known ?
			 "0.10 or newer by its version" : "before 0.10");
	if (in->request_timeout > 0)
		snprintf(timeouts, sizeof(timeouts),
			 "registration timeout %lld ms, request timeout %lld ms",
			 (long long)in->registration_timeout,
			 (long long)in->request_timeout);
	else
		snprintf(timeouts, sizeof(timeouts), "timeouts not said");
	fprintf(stderr, "cpumgrctl: nri: configured by %s %s (%s), %s%s\n",
		in->runtime_name, in->runtime_version, nri, timeouts,
		p->validates ? "; validating adjustments" : "");
	FREE(configure_request, in);
	out.events = EVENTS | (p->validates ? EVENTS_0_10 : 0);
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
	struct ctl_nri_env env = { 0 };
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
	if (nri_spec_shared_cpus(in->pod, &c, &err) ||
	    nri_spec_isolation(in->pod, &c, &err)) {
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
	    ctl_nri_env_of(&n, c.pod_uid, c.name, &env) ||
	    ctl_nri_updates_pod(p, &n, c.id, c.pod_uid, &set)) {
		ret = -ENOMEM;
		node_close(&n);
		goto out;
	}
	ctl_nri_find(p, c.id)->no_quota = env.no_quota;
	node_log(&n, "nri: create %s (%s/%s): cpuset %s%s, %zu updates", c.id,
		 c.pod_uid, c.name, cpus, env.no_quota ? ", no CFS quota" : "",
		 set.nr);
	ctl_nri_close(p, &n);
	ctl_nri_cpu_resources(&res, cpus);
	if (env.no_quota)
		ctl_nri_cpu_no_quota(&res);
	la.resources = &res.res;
	adj.linux = &la;
	adj.n_env = env.nr;
	adj.env = env.ptrs;
	out.adjust = &adj;
	out.n_update = set.nr;
	out.update = set.ptrs;
	ret = pack(r, &out.base);
out:
	cm_error_clear(&err);
	ctl_nri_env_free(&env);
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
	/* the pod goes: none of its containers restarts, none is held */
	if (c->kind == OCI_SANDBOX)
		n.sweep_gone_ok = NULL;
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
 * for a resize of its exclusive CPUs in decide mode; a new CPU request
 * or limit is recorded (ctl_nri_resize.c).
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
	int ret = 0;

	if (!in || !in->container)
		return refuse(r, NRI_RPC_INVALID_ARGUMENT, "UpdateContainer: a request that does not parse"), 0;
	k = ctl_nri_find(p, in->container->id);
	if (k)
		ret = ctl_nri_resize(p, k, in->pod, in->container,
				     in->linux_resources, &set, r);
	if (ret < 0)
		goto out;
	if (k && k->told[0]) {
		ctl_nri_cpu_resources(&u.r, k->told);
		if (k->no_quota)
			ctl_nri_cpu_no_quota(&u.r);
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

/*
 * A pod's event or a container's removal, whether the runtime sends it
 * as its own call (NRI 0.12) or as a StateChange.
 */
static int pod_event(struct ctl_nri *p, int event, const NriPod *pod,
		     const NriContainer *ctr, struct nri_reply *r)
{
	struct oci_container c;

	if (!pod || (event == NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_CONTAINER &&
		     !ctr)) {
		refuse(r, NRI_RPC_INVALID_ARGUMENT, "a request that does not parse");
		return 0;
	}
	switch (event) {
	case NRI__PKG__API__V1ALPHA1__EVENT__RUN_POD_SANDBOX:
		return who(pod, NULL, &c) ? 0 : run_sandbox(p, &c, r);
	case NRI__PKG__API__V1ALPHA1__EVENT__STOP_POD_SANDBOX:
	case NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_POD_SANDBOX:
	case NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_CONTAINER:
		if (who(pod, event ==
			NRI__PKG__API__V1ALPHA1__EVENT__REMOVE_CONTAINER ?
			ctr : NULL, &c))
			return 0;
		/*
		 * No UpdateContainers now: containerd 1.7 deadlocks when a
		 * plugin's UpdateContainers meets the CRI calls that follow
		 * (containerd#13733), and a release only grows the pool,
		 * whose cgroups the node widened already.  The next answer
		 * that may carry updates tells the runtime (ctl_nri_sweep()
		 * leaves a pool that only grew to it too).
		 */
		return release(p, &c, false, NULL);
	default:
		return 0;
	}
}

static int state_change(struct ctl_nri *p, const struct nri_request *req,
			struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__StateChangeEvent *in =
		UNPACK(state_change_event, req);
	Nri__Pkg__Api__V1alpha1__Empty out =
		NRI__PKG__API__V1ALPHA1__EMPTY__INIT;
	int ret;

	if (!in)
		return refuse(r, NRI_RPC_INVALID_ARGUMENT, "StateChange: a request that does not parse"), 0;
	ret = pod_event(p, in->event, in->pod, in->container, r);
	if (!ret && r->code == NRI_RPC_OK)
		ret = pack(r, &out.base);
	FREE(state_change_event, in);
	return ret;
}

/*
 * NRI 0.12's calls of one event each: the request's pod (and container)
 * as StateChange has them, the answer an empty message of its own.
 */
#define EVENT_CALL(fn, type, event, ctr)					\
static int fn(struct ctl_nri *p, const struct nri_request *req,		\
	      struct nri_reply *r)						\
{									\
	Nri__Pkg__Api__V1alpha1__##type##Request *in =			\
		(Nri__Pkg__Api__V1alpha1__##type##Request *)		\
		protobuf_c_message_unpack(				\
			&nri__pkg__api__v1alpha1__##fn##_request__descriptor, \
			NULL, req->payload.len, req->payload.data);	\
	ProtobufCMessage out;						\
	int ret;							\
									\
	if (!in)							\
		return refuse(r, NRI_RPC_INVALID_ARGUMENT,		\
			      #type ": a request that does not parse"), 0; \
	ret = pod_event(p, NRI__PKG__API__V1ALPHA1__EVENT__##event,	\
			in->pod, ctr, r);				\
	protobuf_c_message_init(					\
		&nri__pkg__api__v1alpha1__##fn##_response__descriptor, &out); \
	if (!ret && r->code == NRI_RPC_OK)				\
		ret = pack(r, &out);					\
	protobuf_c_message_free_unpacked(&in->base, NULL);		\
	return ret;							\
}

EVENT_CALL(run_pod_sandbox, RunPodSandbox, RUN_POD_SANDBOX, NULL)
EVENT_CALL(stop_pod_sandbox, StopPodSandbox, STOP_POD_SANDBOX, NULL)
EVENT_CALL(remove_pod_sandbox, RemovePodSandbox, REMOVE_POD_SANDBOX, NULL)
EVENT_CALL(remove_container, RemoveContainer, REMOVE_CONTAINER, in->container)

/*
 * UpdatePodSandbox (NRI 0.10): the pod was resized in place (the CRI's
 * UpdatePodSandboxResources); linux_resources are the pod cgroup's new
 * values, the kubelet's sum over its containers.  Recorded for the pod
 * (node_pod_resized(): the pod cgroup's CFS limits follow them rather
 * than the containers as admitted, which a reconcile would write back);
 * a pod the node has no record of is noted and left.  The containers'
 * own CPUs change with their UpdateContainer.
 */
static int update_pod_sandbox(struct ctl_nri *p, const struct nri_request *req,
			      struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__UpdatePodSandboxRequest *in =
		UNPACK(update_pod_sandbox_request, req);
	Nri__Pkg__Api__V1alpha1__UpdatePodSandboxResponse out =
		NRI__PKG__API__V1ALPHA1__UPDATE_POD_SANDBOX_RESPONSE__INIT;
	struct cm_error err = { 0 };
	struct oci_container c;
	int64_t request, limit;
	struct node n;
	int ret;

	if (!in || !in->pod)
		return refuse(r, NRI_RPC_INVALID_ARGUMENT, "UpdatePodSandbox: a request that does not parse"), 0;
	if (who(in->pod, NULL, &c) || !in->linux_resources ||
	    !in->linux_resources->cpu)
		goto out;
	nri_spec_cpu_milli(in->linux_resources, &request, &limit);
	if (ctl_nri_open(p, &n, r))
		goto out;
	ret = node_pod_resized(&n, c.pod_uid, request, limit, &err);
	if (ret == -ENOENT)
		node_log(&n, "nri: pod %s resized to cpu request %lldm, limit %lldm: no record of it, left",
			 c.pod_uid, (long long)request, (long long)limit);
	else if (ret)
		ctl_err("nri: pod %s resized: %s", c.pod_uid, cm_error_msg(&err));
	else
		fprintf(stderr, "cpumgrctl: nri: pod %s resized: cpu request %lldm, limit %lldm recorded\n",
			c.pod_uid, (long long)request, (long long)limit);
	cm_error_clear(&err);
	ctl_nri_close(p, &n);
out:
	if (in)
		FREE(update_pod_sandbox_request, in);
	return r->code == NRI_RPC_OK ? pack(r, &out.base) : 0;
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

static const struct {
	const char *method;
	int (*fn)(struct ctl_nri *p, const struct nri_request *req,
		  struct nri_reply *r);
} calls[] = {
	{ "Configure", configure },
	{ "Synchronize", ctl_nri_synchronize },
	{ "CreateContainer", create_container },
	{ "UpdateContainer", update_container },
	{ "StopContainer", stop_container },
	{ "RunPodSandbox", run_pod_sandbox },
	{ "StopPodSandbox", stop_pod_sandbox },
	{ "RemovePodSandbox", remove_pod_sandbox },
	{ "RemoveContainer", remove_container },
	{ "UpdatePodSandbox", update_pod_sandbox },
	{ "ValidateContainerAdjustment", ctl_nri_validate },
	{ "StateChange", state_change },
};

int ctl_nri_stall_setup(struct ctl_nri *p, const char *spec)
{
	const char *colon = spec ? strrchr(spec, ':') : NULL;
	struct cm_error err = { 0 };
	int64_t ns = 0;

	if (!spec || !*spec)
		return 0;
	if (!colon || colon == spec ||
	    (size_t)(colon - spec) >= sizeof(p->stall_method) ||
	    go_parse_duration(colon + 1, &ns, &err) || ns < 0 ||
	    ns / 1000000 > 3600 * 1000) {
		ctl_err("CPUMGR_NRI_STALL=%s: METHOD:DURATION expected (CreateContainer:5s), at most 1h%s%s",
			spec, cm_error_msg(&err)[0] ? ": " : "",
			cm_error_msg(&err));
		cm_error_clear(&err);
		return -1;
	}
	snprintf(p->stall_method, sizeof(p->stall_method), "%.*s",
		 (int)(colon - spec), spec);
	p->stall_ms = (unsigned int)(ns / 1000000);
	return 0;
}

/* The injected stall (CPUMGR_NRI_STALL), for the first call of its method. */
static void stall(struct ctl_nri *p, const char *method)
{
	struct timespec ts;

	if (!p->stall_method[0] || strcmp(p->stall_method, method))
		return;
	p->stall_method[0] = '\0';
	fprintf(stderr, "cpumgrctl: nri: CPUMGR_NRI_STALL: holding %s %u ms\n",
		method, p->stall_ms);
	ts.tv_sec = p->stall_ms / 1000;
	ts.tv_nsec = (long)(p->stall_ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * How long the runtime waits for this call: the deadline its ttrpc
 * request carries, else the request timeout Configure told, else NRI's
 * default.
 */
static long long deadline_ms(const struct ctl_nri *p,
			     const struct nri_request *req)
{
	if (req->timeout_nano > 0)
		return req->timeout_nano / 1000000;
	return p->request_timeout_ms > 0 ? p->request_timeout_ms :
	       CTL_NRI_REQUEST_TIMEOUT_MS;
}

int ctl_nri_call(void *ctx, struct nri_conn *c, const struct nri_request *req,
		 struct nri_reply *r)
{
	struct ctl_nri *p = ctx;
	const char *m = req->method;
	long long t0 = clock_mono_ms(), took, limit = deadline_ms(p, req);
	char note[PATH_MAX] = "";
	size_t i;
	int ret;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(m, calls[i].method))
			break;
	if (!strcmp(m, "Shutdown"))
		return 0;
	if (i == sizeof(calls) / sizeof(calls[0]))
		return refuse(r, NRI_RPC_UNIMPLEMENTED, "method %s: not served by cpumgr",
			      m), 0;
	if (calls[i].fn == create_container)
		ctl_nri_pending_note(p, req, note);
	stall(p, m);
	ret = calls[i].fn(p, req, r);
	took = clock_mono_ms() - t0;
	if (r->code != NRI_RPC_OK)
		ctl_err("nri: %s: %s", m, r->message);
	if (took * 2 > limit)
		ctl_err("nri: %s took %lld ms, %s the runtime's request timeout (%lld ms)%s",
			m, took, took >= limit ? "past" : "more than half of",
			limit, took >= limit ?
			": the runtime went on without this answer and closes the connection" :
			"");
	/*
	 * A container refused after the runtime stopped waiting was created
	 * without cpumgr: its note stays for the daemon and Synchronize.
	 */
	if (!(note[0] && (ret < 0 || r->code != NRI_RPC_OK) && took >= limit))
		ctl_nri_pending_done(note);
	return ret;
}
