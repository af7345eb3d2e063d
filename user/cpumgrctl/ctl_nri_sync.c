// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: Synchronize.  After the plugin or the runtime
 * restarted, the runtime lists its pods and containers; the node's state
 * follows them, a container's CPUs following its pod's life rather than
 * the list (containerd leaves out the containers that exited and those
 * in an unknown state):
 * - a recorded container the runtime does not list (the instance the
 *   record follows, ctl_runtime_follows()) is left as it is while its
 *   cgroup has tasks (it runs), stopped as StopContainer would have
 *   (its CPUs kept while its pod lives, or released under --init-cpus
 *   release for an init container) when its pod is listed, and released
 *   only when its pod is not (unlisted());
 * - what the runtime lists as stopped is stopped the same way, unless it
 *   restarted in its pod (the runtime lists it alive too: the stopped
 *   one is an earlier instance) or is not the instance recorded;
 * - what runs and is not recorded, or recorded as an earlier instance,
 *   is added and bound (an existing container cannot be refused: when
 *   it cannot get its CPUs it is left as it is, with a warning);
 * - what runs and is recorded, on the shared pool, has the CPU request
 *   and limit the runtime lists recorded (a resize while the plugin was
 *   away);
 * - a container listed in an unknown state (containerd recovering its
 *   task after a restart) is left as it is: it may well run;
 * and every managed container whose cpuset differs from the runtime's
 * gets an update.  Nothing is swept before (a cgroup gone is a
 * container that ended: its pod says whether it keeps its CPUs).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ctl_nri_pending.h"
#include "ctl_nri_update.h"
#include "nri_spec.h"

typedef Nri__Pkg__Api__V1alpha1__SynchronizeRequest NriSync;

static bool alive(const NriContainer *c)
{
	return c->state == NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_CREATED ||
	       c->state == NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_PAUSED ||
	       c->state == NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_RUNNING;
}

static const NriPod *pod_of(const NriSync *in, const NriContainer *c)
{
	for (size_t i = 0; i < in->n_pods; i++)
		if (!strcmp(in->pods[i]->id, c->pod_sandbox_id))
			return in->pods[i];
	return NULL;
}

/*
 * The runtime lists this container, in any state (the sandbox: the
 * pod): the instance the node's record follows, not an earlier one of
 * the name (ctl_runtime_follows()).
 */
static bool runtime_has(struct node *n, const NriSync *in,
			const struct oci_container *cs, size_t nr,
			const char *uid, const char *name)
{
	if (!strcmp(name, OCI_SANDBOX_NAME)) {
		for (size_t i = 0; i < in->n_pods; i++)
			if (!strcmp(in->pods[i]->uid, uid))
				return true;
		return false;
	}
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(cs[i].pod_uid, uid) && !strcmp(cs[i].name, name) &&
		    ctl_runtime_follows(n, uid, name, cs[i].cgroups_path))
			return true;
	return false;
}

static bool pod_listed(const NriSync *in, const char *uid)
{
	for (size_t i = 0; i < in->n_pods; i++)
		if (!strcmp(in->pods[i]->uid, uid))
			return true;
	return false;
}

/* The runtime lists an instance of uid/name that is alive. */
static bool alive_listed(const struct oci_container *cs,
			 const NriContainer **ctrs, size_t nr, const char *uid,
			 const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (alive(ctrs[i]) && !strcmp(cs[i].pod_uid, uid) &&
		    !strcmp(cs[i].name, name))
			return true;
	return false;
}

/*
 * What becomes of container k of pod, which the runtime does not list
 * (containerd lists neither the containers that exited nor those in an
 * unknown state): its CPUs follow its pod's life, not the list.
 *   KEEP     its cgroup has tasks: it runs; or it ran to its end (or
 *            was stopped) already; or another instance of it is alive,
 *            which add_running() binds; or it is its pod's sandbox and
 *            the pod is listed
 *   STOP     its pod is listed: it ended while the plugin was away, and
 *            keeps its CPUs as a StopContainer would have left them
 *   RELEASE  its pod is not listed and nothing runs in its cgroup
 */
enum unlisted { KEEP, STOP, RELEASE };

static enum unlisted unlisted(struct node *n, const NriSync *in,
			      const struct oci_container *cs,
			      const NriContainer **ctrs, size_t nr,
			      const struct node_pod *pod, unsigned int k)
{
	const char *name = pod->pod.containers[k].name;
	bool listed = pod_listed(in, pod->pod.uid);

	if (pod->c[k].cgroup[0] && node_cgroup_has_tasks(n, pod->c[k].cgroup))
		return KEEP;
	if (!listed)
		return RELEASE;
	if (pod->c[k].exited || !strcmp(name, OCI_SANDBOX_NAME) ||
	    alive_listed(cs, ctrs, nr, pod->pod.uid, name))
		return KEEP;
	return STOP;
}

static void release_gone(struct ctl_nri *p, struct node *n, const NriSync *in,
			 const struct oci_container *cs,
			 const NriContainer **ctrs, size_t nr)
{
	static const char *const done[] = { "", "stopped", "released" };
	struct cm_error err = { 0 };
	bool again = true;

	/* a release or a stop changes n->pods: start over after each */
	while (again) {
		again = false;
		for (unsigned int i = 0; i < n->nr_pods && !again; i++) {
			struct node_pod *pod = &n->pods[i];

			for (unsigned int k = 0; k < pod->pod.nr && !again; k++) {
				char uid[POD_UID_MAX + 1],
				     name[CONTAINER_NAME_MAX + 1];
				enum unlisted what;

				if (pod->c[k].removed ||
				    runtime_has(n, in, cs, nr, pod->pod.uid,
						pod->pod.containers[k].name))
					continue;
				what = unlisted(n, in, cs, ctrs, nr, pod, k);
				if (what == KEEP)
					continue;
				strcpy(uid, pod->pod.uid);
				strcpy(name, pod->pod.containers[k].name);
				if ((what == STOP ? ctl_runtime_stop :
				     ctl_runtime_release)(n, uid, name, &err))
					node_log_sev(n, NODE_LOG_WARNING,
						     "nri: sync: %s/%s: %s", uid,
						     name, cm_error_msg(&err));
				else
					node_log(n, "nri: sync: %s %s/%s (not listed, %s)",
						 done[what], uid, name,
						 what == STOP ? "its pod is" :
						 "nor its pod, its cgroup without tasks");
				cm_error_clear(&err);
				again = true;
			}
		}
	}
}

/*
 * The runtime lists another instance of cs[i] (its pod, its name) that
 * is alive: the container restarted in its pod, and cs[i] is the
 * earlier instance the runtime keeps.
 */
static bool restarted(const struct oci_container *cs,
		      const NriContainer **ctrs, size_t nr, size_t i)
{
	for (size_t j = 0; j < nr; j++)
		if (j != i && alive(ctrs[j]) &&
		    !strcmp(cs[j].pod_uid, cs[i].pod_uid) &&
		    !strcmp(cs[j].name, cs[i].name))
			return true;
	return false;
}

/*
 * What the runtime lists as stopped stops here too, once; not the
 * earlier instance of a container that restarted: the name's record is
 * the one that runs.  A stop would make it an ended container until
 * add_running() takes it up again, and under --init-cpus release a
 * container of its pod added first would give its CPUs back as an init
 * container's (its own then decided anew).  Nor a stopped instance the
 * record does not follow when the one it follows is listed in an
 * unknown state (containerd recovering it: it may well run).
 */
static void stop_exited(struct node *n, const struct oci_container *cs,
			const NriContainer **ctrs, size_t nr)
{
	struct cm_error err = { 0 };

	for (size_t i = 0; i < nr; i++) {
		const struct oci_container *c = &cs[i];
		const struct node_pod *pod;
		int k;

		if (ctrs[i]->state !=
		    NRI__PKG__API__V1ALPHA1__CONTAINER_STATE__CONTAINER_STOPPED ||
		    restarted(cs, ctrs, nr, i))
			continue;
		pod = node_find_pod(n, c->pod_uid);
		k = pod ? node_pod_container(pod, c->name) : -1;
		if (k < 0 || pod->c[k].removed || pod->c[k].exited ||
		    !ctl_runtime_follows(n, c->pod_uid, c->name,
					 c->cgroups_path))
			continue;
		if (ctl_runtime_stop(n, c->pod_uid, c->name, &err))
			node_log_sev(n, NODE_LOG_WARNING, "nri: sync: %s/%s: %s",
				     c->pod_uid, c->name, cm_error_msg(&err));
		else
			node_log(n, "nri: sync: stopped %s/%s", c->pod_uid,
				 c->name);
		cm_error_clear(&err);
	}
}

static bool attached(struct node *n, const struct oci_container *c)
{
	char cpus[256];

	return !ctl_nri_cpus_of(n, c->pod_uid, c->name, cpus, sizeof(cpus));
}

/* The cpuset the runtime has for it, as cpumgr prints cpulists. */
static void runtime_cpus(const NriContainer *ctr, char *out, size_t len)
{
	const char *s = ctr->linux && ctr->linux->resources &&
			ctr->linux->resources->cpu ?
			ctr->linux->resources->cpu->cpus : "";
	struct cm_error err = { 0 };
	struct cpuset set;

	if (*s && !cpuset_parse(&set, s, &err))
		cpuset_format(&set, out, len);
	else
		snprintf(out, len, "%s", s);
	cm_error_clear(&err);
}

/*
 * A recorded container that runs, on the shared pool: the CPU request
 * and limit the runtime lists for it into its record, where it was
 * resized in place while the plugin was away (a call past the runtime's
 * timeout, a plugin started again); the reconcile after keeps them.
 */
static void follow_resize(struct node *n, const struct oci_container *c,
			  const NriContainer *ctr)
{
	struct cm_error err = { 0 };

	if (!ctr->linux || !ctr->linux->resources ||
	    !ctr->linux->resources->cpu ||
	    node_assignment(n, c->pod_uid, c->name))
		return;
	if (node_container_resized(n, c->pod_uid, c->name, c->request_milli,
				   c->limit_milli, &err))
		node_log_sev(n, NODE_LOG_WARNING, "nri: sync: %s (%s/%s): %s",
			     c->id, c->pod_uid, c->name, cm_error_msg(&err));
	cm_error_clear(&err);
}

static void add_running(struct ctl_nri *p, struct node *n, const NriSync *in,
			struct oci_container *cs, const NriContainer **ctrs,
			size_t nr)
{
	struct cm_error err = { 0 };
	char cgroup[PATH_MAX], told[256];

	for (size_t i = 0; i < in->n_pods; i++) {
		struct oci_container sb;

		if (nri_spec_sandbox(in->pods[i], &sb, &err) ||
		    attached(n, &sb)) {
			cm_error_clear(&err);
			continue;
		}
		ctl_nri_add_sandbox(p, n, &sb);
	}
	for (size_t i = 0; i < nr; i++) {
		struct oci_container *c = &cs[i];

		if (!alive(ctrs[i]))
			continue;
		if (attached(n, c) &&
		    ctl_runtime_follows(n, c->pod_uid, c->name,
					c->cgroups_path))
			follow_resize(n, c, ctrs[i]);
		/* recorded as an earlier instance: its CPUs, bound anew */
		else if (ctl_runtime_spec_cgroup(n, c->cgroups_path, cgroup,
						 sizeof(cgroup), &err) ||
			 ctl_runtime_add(n, &p->rt, c, cgroup, false, &err)) {
			node_log_sev(n, NODE_LOG_WARNING,
				     "nri: sync: %s (%s/%s) left as it is: %s",
				     c->id, c->pod_uid, c->name,
				     cm_error_msg(&err));
			cm_error_clear(&err);
			continue;
		}
		runtime_cpus(ctrs[i], told, sizeof(told));
		if (ctl_nri_remember(p, c, told))
			return;
	}
}

/* The node in line with the runtime's whole list (see the top). */
static int sync_all(struct ctl_nri *p, const NriSync *in, struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__SynchronizeResponse out =
		NRI__PKG__API__V1ALPHA1__SYNCHRONIZE_RESPONSE__INIT;
	struct ctl_nri_updates set = { 0 };
	const NriContainer **ctrs = NULL;
	struct oci_container *cs = NULL;
	struct cm_error err = { 0 };
	struct node n;
	size_t nr = 0;
	int ret = -ENOMEM;

	ctl_nri_forget(p);
	cs = calloc(in->n_containers + 1, sizeof(*cs));
	ctrs = calloc(in->n_containers + 1, sizeof(*ctrs));
	if (!cs || !ctrs)
		goto out;
	for (size_t i = 0; i < in->n_containers; i++) {
		const NriContainer *ctr = in->containers[i];

		if (nri_spec_container(pod_of(in, ctr), ctr, &cs[nr], &err) ||
		    cs[nr].kind == OCI_UNMANAGED) {
			cm_error_clear(&err);
			continue;
		}
		/* running already: its pod's request as far as it reads */
		if (alive(ctr) &&
		    (nri_spec_shared_cpus(pod_of(in, ctr), &cs[nr], &err) ||
		     nri_spec_isolation(pod_of(in, ctr), &cs[nr], &err))) {
			fprintf(stderr, "cpumgrctl: nri: sync: %s (%s/%s): %s\n",
				ctr->id, cs[nr].pod_uid, cs[nr].name,
				cm_error_msg(&err));
			cm_error_clear(&err);
		}
		ctrs[nr++] = ctr;
	}
	ret = 0;
	/* after a (re)connect, whatever happened meanwhile: read it all */
	ctl_nri_drop(p);
	if (ctl_nri_open_unswept(p, &n, r))
		goto out;
	/* and every cgroup */
	n.targeted = false;
	release_gone(p, &n, in, cs, ctrs, nr);
	stop_exited(&n, cs, ctrs, nr);
	add_running(p, &n, in, cs, ctrs, nr);
	/*
	 * every container the node knows on its CPUs: one the runtime made
	 * or changed while the plugin was away (a call past the runtime's
	 * timeout) runs on them from now, not from the runtime's update
	 */
	if (node_reconcile(&n, NULL, &err) < 0) {
		node_log_sev(&n, NODE_LOG_WARNING, "nri: sync: %s",
			     cm_error_msg(&err));
		cm_error_clear(&err);
	}
	/* the calls left unfinished are in the list: done with */
	ctl_nri_pending_clear(p);
	ret = ctl_nri_updates(p, &n, NULL, &set);
	fprintf(stderr, "cpumgrctl: nri: synchronized: %zu pod%s, %zu container%s, %zu managed, %zu update%s\n",
		in->n_pods, ctl_plural(in->n_pods), in->n_containers,
		ctl_plural(in->n_containers), p->nr_known, set.nr,
		ctl_plural(set.nr));
	ctl_nri_close(p, &n);
	out.n_update = set.nr;
	out.update = set.ptrs;
	if (!ret)
		ret = nri_rpc_pack(&r->payload, &out.base, &err);
	cm_error_clear(&err);
out:
	ctl_nri_updates_free(&set);
	free(cs);
	free(ctrs);
	return ret;
}

void ctl_nri_sync_parts_free(struct ctl_nri *p)
{
	for (size_t i = 0; i < p->nr_parts; i++)
		FREE(synchronize_request, p->parts[i]);
	free(p->parts);
	p->parts = NULL;
	p->nr_parts = 0;
}

/*
 * The parts of a Synchronize (NRI 0.8 splits one too big for a
 * message) and its last one as one list; the messages stay the parts'.
 */
static int join(struct ctl_nri *p, NriSync *last, NriSync *all)
{
	size_t pods = last->n_pods, ctrs = last->n_containers;

	for (size_t i = 0; i < p->nr_parts; i++) {
		pods += p->parts[i]->n_pods;
		ctrs += p->parts[i]->n_containers;
	}
	all->pods = calloc(pods + 1, sizeof(*all->pods));
	all->containers = calloc(ctrs + 1, sizeof(*all->containers));
	if (!all->pods || !all->containers)
		return -ENOMEM;
	for (size_t i = 0; i <= p->nr_parts; i++) {
		const NriSync *part = i < p->nr_parts ? p->parts[i] : last;

		for (size_t k = 0; k < part->n_pods; k++)
			all->pods[all->n_pods++] = part->pods[k];
		for (size_t k = 0; k < part->n_containers; k++)
			all->containers[all->n_containers++] = part->containers[k];
	}
	return 0;
}

int ctl_nri_synchronize(struct ctl_nri *p, const struct nri_request *req,
			struct nri_reply *r)
{
	Nri__Pkg__Api__V1alpha1__SynchronizeResponse more =
		NRI__PKG__API__V1ALPHA1__SYNCHRONIZE_RESPONSE__INIT;
	NriSync *in = UNPACK(synchronize_request, req), **v;
	NriSync all = NRI__PKG__API__V1ALPHA1__SYNCHRONIZE_REQUEST__INIT;
	int ret;

	if (!in) {
		ctl_nri_refuse(r, NRI_RPC_INVALID_ARGUMENT,
			       "Synchronize: a request that does not parse");
		return 0;
	}
	if (in->more) {
		/* a part: kept until the last, answered with no update */
		v = realloc(p->parts, (p->nr_parts + 1) * sizeof(*v));
		if (!v) {
			FREE(synchronize_request, in);
			return -ENOMEM;
		}
		p->parts = v;
		p->parts[p->nr_parts++] = in;
		more.more = true;
		return nri_rpc_pack(&r->payload, &more.base, NULL);
	}
	ret = join(p, in, &all);
	if (!ret)
		ret = sync_all(p, &all, r);
	if (!ret && p->nr_parts)
		fprintf(stderr, "cpumgrctl: nri: synchronized in %zu parts\n",
			p->nr_parts + 1);
	free(all.pods);
	free(all.containers);
	ctl_nri_sync_parts_free(p);
	FREE(synchronize_request, in);
	return ret;
}
