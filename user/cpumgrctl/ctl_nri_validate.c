// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: ValidateContainerAdjustment (NRI 0.10 on, subscribed
 * when the runtime knows it).  After every plugin's CreateContainer the
 * runtime asks its validating plugins whether what they asked for
 * together may go: the new container's adjustment and the updates of
 * other containers, with the plugin that set each field (owners).
 *
 * cpumgr refuses a cpuset another plugin set that holds a CPU another
 * container holds exclusively (the kernel's table), but for the CPUs of
 * a container of its pod that ran to its end (the kubelet's reuse of
 * an init container's), with one message naming the plugin, the
 * container, the CPUs and their holder.  The
 * container is then not created, where otherwise the runtime would
 * create it and the kernel refuse its cpuset write.  cpumgr's own
 * cpusets, and another plugin's on CPUs no other pod holds, pass; so
 * does every adjustment without a cpuset, without opening the node.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "ctl_nri_update.h"
#include "nri_spec.h"

typedef Nri__Pkg__Api__V1alpha1__ValidateContainerAdjustmentRequest NriValidate;

/* Who set container id's cpuset: "<index>-<name>", "" when not said. */
static const char *owner_of(const NriValidate *in, const char *id)
{
	const Nri__Pkg__Api__V1alpha1__OwningPlugins *o = in->owners;

	for (size_t i = 0; o && i < o->n_owners; i++) {
		const Nri__Pkg__Api__V1alpha1__FieldOwners *f =
			o->owners[i]->value;

		if (strcmp(o->owners[i]->key, id) || !f)
			continue;
		for (size_t k = 0; k < f->n_simple; k++)
			if (f->simple[k]->key ==
			    NRI__PKG__API__V1ALPHA1__FIELD__CPUSetCPUs)
				return f->simple[k]->value;
	}
	return "";
}

static const char *cpus_in(const NriResources *r)
{
	return r && r->cpu && r->cpu->cpus ? r->cpu->cpus : "";
}

/*
 * Whether assignment a holds CPUs container uid/name may share: its own,
 * or those of a container of its pod that ran to its end (the kubelet's
 * reuse of an init container's CPUs).
 */
static bool may_share(struct node *n, const struct cpumgr_assignment *a,
		      const char *uid, const char *name)
{
	const struct node_pod *pod;
	int k;

	if (strcmp(a->pod_uid, uid))
		return false;
	if (!strcmp(a->container, name))
		return true;
	pod = node_find_pod(n, uid);
	k = pod ? node_pod_container(pod, a->container) : -1;
	return k >= 0 && pod->c[k].exited;
}

/*
 * One cpuset for container id, pod uid and name ("" unknown), set by
 * owner: 0 when it may go, else the refusal in r.
 */
static int check(struct ctl_nri *p, struct node *n, const char *id,
		 const char *uid, const char *name, const char *cpus,
		 const char *owner, struct nri_reply *r)
{
	const struct ctl_nri_known *k = ctl_nri_find(p, id);
	struct cm_error err = { 0 };
	struct cpuset want;

	if (!*cpus || !strcmp(owner, p->self))
		return 0;
	/* no owner said: cpumgr's own when it is what cpumgr told */
	if (!*owner && k && !strcmp(k->told, cpus))
		return 0;
	if (cpuset_parse(&want, cpus, &err)) {
		ctl_nri_refuse(r, NRI_RPC_INVALID_ARGUMENT,
			       "cpumgr: container %s: cpuset \"%s\"%s%s: %s", id,
			       cpus, *owner ? " set by plugin " : "", owner,
			       cm_error_msg(&err));
		cm_error_clear(&err);
		return -1;
	}
	if (!*uid && k) {
		uid = k->pod_uid;
		name = k->name;
	}
	for (size_t i = 0; i < n->kernel.nr_as; i++) {
		const struct cpumgr_assignment *a = &n->kernel.as[i];
		struct cpuset held, both;
		char text[256];

		if (!a->cpus || may_share(n, a, uid, name) ||
		    cpuset_parse(&held, a->cpus, NULL))
			continue;
		cpuset_and(&both, &held, &want);
		if (cpuset_empty(&both))
			continue;
		cpuset_format(&both, text, sizeof(text));
		ctl_nri_refuse(r, NRI_RPC_FAILED_PRECONDITION,
			       "cpumgr: plugin %s puts container %s on CPUs %s, which pod %s container %s holds exclusively",
			       *owner ? owner : "(not said)", id, text,
			       a->pod_uid, a->container);
		return -1;
	}
	return 0;
}

/* Whether another plugin set a cpuset anywhere in the request. */
static bool any_cpuset(struct ctl_nri *p, const NriValidate *in)
{
	const char *id = in->container ? in->container->id : "";

	if (in->adjust && in->adjust->linux &&
	    *cpus_in(in->adjust->linux->resources) &&
	    strcmp(owner_of(in, id), p->self))
		return true;
	for (size_t i = 0; i < in->n_update; i++) {
		const Nri__Pkg__Api__V1alpha1__ContainerUpdate *u =
			in->update[i];

		if (u->linux && *cpus_in(u->linux->resources) &&
		    strcmp(owner_of(in, u->container_id), p->self))
			return true;
	}
	return false;
}

int ctl_nri_validate(struct ctl_nri *p, const struct nri_request *req,
		     struct nri_reply *r)
{
	NriValidate *in = UNPACK(validate_container_adjustment_request, req);
	Nri__Pkg__Api__V1alpha1__ValidateContainerAdjustmentResponse out =
		NRI__PKG__API__V1ALPHA1__VALIDATE_CONTAINER_ADJUSTMENT_RESPONSE__INIT;
	struct nri_reply verdict = { .code = NRI_RPC_OK };
	struct cm_error err = { 0 };
	struct oci_container c;
	const char *id, *uid = "", *name = "";
	struct node n;
	int ret = 0;

	if (!in || !in->container)
		return ctl_nri_refuse(r, NRI_RPC_INVALID_ARGUMENT,
				      "ValidateContainerAdjustment: a request that does not parse"), 0;
	id = in->container->id;
	if (!any_cpuset(p, in))
		goto answer;
	if (!nri_spec_container(in->pod, in->container, &c, &err) &&
	    c.kind != OCI_UNMANAGED) {
		uid = c.pod_uid;
		name = c.name;
	} else if (in->pod) {
		uid = in->pod->uid;
		name = in->container->name;
	}
	cm_error_clear(&err);
	if (ctl_nri_open(p, &n, r))
		goto out;
	if (in->adjust && in->adjust->linux)
		ret = check(p, &n, id, uid, name,
			    cpus_in(in->adjust->linux->resources),
			    owner_of(in, id), &verdict);
	for (size_t i = 0; !ret && i < in->n_update; i++) {
		const Nri__Pkg__Api__V1alpha1__ContainerUpdate *u =
			in->update[i];

		if (u->linux)
			ret = check(p, &n, u->container_id,
				    !strcmp(u->container_id, id) ? uid : "",
				    !strcmp(u->container_id, id) ? name : "",
				    cpus_in(u->linux->resources),
				    owner_of(in, u->container_id), &verdict);
	}
	ctl_nri_close(p, &n);
answer:
	if (verdict.code != NRI_RPC_OK) {
		out.reject = true;
		out.reason = verdict.message;
		ctl_err("nri: refused the adjustment of container %s: %s", id,
			verdict.message);
	}
	ret = nri_rpc_pack(&r->payload, &out.base, NULL);
out:
	FREE(validate_container_adjustment_request, in);
	return ret;
}
