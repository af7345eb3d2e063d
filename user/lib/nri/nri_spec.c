// SPDX-License-Identifier: GPL-2.0
/* NRI's containers and pods as OCI hook input (see nri_spec.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cfs.h"
#include "nri_spec.h"

/* linux.resources.cpu as config.json has it */
static void add_cpu(cJSON *lnx, const NriResources *r)
{
	const Nri__Pkg__Api__V1alpha1__LinuxCPU *cpu = r ? r->cpu : NULL;
	cJSON *res, *o;

	if (!cpu)
		return;
	res = cJSON_AddObjectToObject(lnx, "resources");
	o = res ? cJSON_AddObjectToObject(res, "cpu") : NULL;
	if (!o)
		return;
	if (cpu->shares)
		cJSON_AddNumberToObject(o, "shares", (double)cpu->shares->value);
	if (cpu->quota)
		cJSON_AddNumberToObject(o, "quota", (double)cpu->quota->value);
	if (cpu->period)
		cJSON_AddNumberToObject(o, "period", (double)cpu->period->value);
	if (cpu->cpus && *cpu->cpus)
		cJSON_AddStringToObject(o, "cpus", cpu->cpus);
}

int nri_spec_container(const NriPod *pod, const NriContainer *ctr,
		       struct oci_container *c, struct cm_error *err)
{
	cJSON *config = cJSON_CreateObject(), *a, *lnx;
	int ret = -ENOMEM;

	memset(c, 0, sizeof(*c));
	a = config ? cJSON_AddObjectToObject(config, "annotations") : NULL;
	lnx = config ? cJSON_AddObjectToObject(config, "linux") : NULL;
	if (!a || !lnx)
		goto out;
	for (size_t i = 0; i < ctr->n_annotations; i++)
		cJSON_AddStringToObject(a, ctr->annotations[i]->key,
					ctr->annotations[i]->value);
	if (ctr->linux) {
		cJSON_AddStringToObject(lnx, "cgroupsPath",
					ctr->linux->cgroups_path);
		add_cpu(lnx, ctr->linux->resources);
	}
	ret = oci_copy(c->id, sizeof(c->id), ctr->id, "container id", err);
	if (!ret)
		ret = oci_parse_config(config, c, err);
	/* the NRI's pod names it, annotations or not */
	if (!ret && pod)
		oci_set_pod_name(c, pod->name, pod->namespace_);
	/* the CRI's annotations say who it is; the NRI says it too */
	if (!ret && c->kind == OCI_UNMANAGED && pod && *pod->uid) {
		c->source = "nri";
		c->kind = OCI_CONTAINER;
		ret = oci_copy(c->pod_uid, sizeof(c->pod_uid), pod->uid,
			   "pod UID", err);
		if (!ret)
			ret = oci_copy(c->name, sizeof(c->name), ctr->name,
				   "container name", err);
	}
out:
	if (ret == -ENOMEM)
		cm_errorf(err, "out of memory");
	cJSON_Delete(config);
	return ret;
}

int nri_spec_shared_cpus(const NriPod *pod, struct oci_container *c,
			 struct cm_error *err)
{
	int pod_level = -1, mine = -1;

	for (size_t i = 0; pod && i < pod->n_annotations; i++) {
		const Nri__Pkg__Api__V1alpha1__PodSandbox__AnnotationsEntry *a =
			pod->annotations[i];
		struct pod_shared_key k;
		int r = pod_shared_key(a->key, a->value, &k, err);

		if (r < 0)
			return r;
		if (r && k.pod)
			pod_level = k.on;
		else if (r && !strcmp(k.container, c->name))
			mine = k.on;
	}
	c->shared = mine >= 0 ? mine : pod_level > 0;
	return 0;
}

int nri_spec_isolation(const NriPod *pod, struct oci_container *c,
		       struct cm_error *err)
{
	c->nr_iso_keys = 0;
	for (size_t i = 0; pod && i < pod->n_annotations; i++)
		if (oci_isolation_key(c, pod->annotations[i]->key,
				      pod->annotations[i]->value, err) < 0)
			return -EINVAL;
	return oci_isolation_check(c, err);
}

/* The CPU milli the kubelet's formulas say res asks for; 0: unknown. */
static int64_t cpu_milli(const NriPod *pod, const NriContainer *ctr,
			 NriResources *res)
{
	Nri__Pkg__Api__V1alpha1__LinuxContainer lnx =
		NRI__PKG__API__V1ALPHA1__LINUX_CONTAINER__INIT;
	NriContainer copy = *ctr;
	struct cm_error err = { 0 };
	struct oci_container c;
	int ret;

	if (!res)
		return 0;
	if (ctr->linux)
		lnx = *ctr->linux;
	lnx.resources = res;
	copy.linux = &lnx;
	ret = nri_spec_container(pod, &copy, &c, &err);
	cm_error_clear(&err);
	if (ret)
		return 0;
	/* quota is off for exclusive CPUs on recent kubelets: shares then */
	return c.limit_milli > 0 ? c.limit_milli : c.request_milli;
}

int nri_spec_resize_cpus(const NriPod *pod, const NriContainer *ctr,
			 NriResources *want)
{
	int64_t to = cpu_milli(pod, ctr, want);
	int64_t now = ctr->linux ? cpu_milli(pod, ctr, ctr->linux->resources) : 0;

	if (to < 1000 || to % 1000 || to == now || to / 1000 > 1 << 20)
		return 0;
	return (int)(to / 1000);
}

void nri_spec_cpu_milli(const NriResources *r, int64_t *request_milli,
			int64_t *limit_milli)
{
	const Nri__Pkg__Api__V1alpha1__LinuxCPU *cpu = r ? r->cpu : NULL;

	*request_milli = cpu && cpu->shares ?
			 cfs_shares_to_milli_cpu(cpu->shares->value) : 0;
	*limit_milli = cpu && cpu->quota ?
		       cfs_quota_to_milli_cpu(cpu->quota->value,
					      cpu->period && cpu->period->value ?
					      cpu->period->value :
					      CFS_QUOTA_PERIOD) : 0;
}

int nri_spec_sandbox(const NriPod *pod, struct oci_container *c,
		     struct cm_error *err)
{
	memset(c, 0, sizeof(*c));
	c->kind = OCI_SANDBOX;
	c->source = "nri";
	strcpy(c->name, OCI_SANDBOX_NAME);
	if (oci_copy(c->id, sizeof(c->id), pod->id, "pod sandbox id", err) ||
	    oci_copy(c->pod_uid, sizeof(c->pod_uid), pod->uid, "pod UID", err))
		return -EINVAL;
	if (!*pod->uid)
		return cm_errorf(err, "pod sandbox %s has no UID", pod->id);
	oci_set_pod_name(c, pod->name, pod->namespace_);
	if (pod->linux && oci_copy(c->cgroups_path, sizeof(c->cgroups_path),
			       pod->linux->cgroups_path, "linux.cgroups_path",
			       err))
		return -EINVAL;
	return 0;
}
