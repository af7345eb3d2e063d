// SPDX-License-Identifier: GPL-2.0
/* What a container is told of its CPUs (ctl_nri_env.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_nri_env.h"

static int add(struct ctl_nri_env *e, const char *key,
	       const struct cpuset *cpus)
{
	Nri__Pkg__Api__V1alpha1__KeyValue kv =
		NRI__PKG__API__V1ALPHA1__KEY_VALUE__INIT;
	char *v = cpuset_to_str(cpus);

	if (!v)
		return -ENOMEM;
	e->values[e->nr] = v;
	e->kv[e->nr] = kv;
	e->kv[e->nr].key = (char *)key;
	e->kv[e->nr].value = v;
	e->ptrs[e->nr] = &e->kv[e->nr];
	e->nr++;
	return 0;
}

int ctl_nri_env_of(struct node *n, const char *pod_uid, const char *name,
		   struct ctl_nri_env *e)
{
	const struct node_pod *p = node_find_pod(n, pod_uid);
	int k = p ? node_pod_container(p, name) : -1;
	const struct cpumgr_assignment *a = node_assignment(n, pod_uid, name);
	struct cpuset own, pool, keep;
	int ret = 0;

	memset(e, 0, sizeof(*e));
	node_pod_shared_cpus(n, p, &pool);
	cpuset_zero(&own);
	if (a && a->cpus && cpuset_parse(&own, a->cpus, NULL))
		cpuset_zero(&own);
	ret |= add(e, "CPUMGR_EXCLUSIVE_CPUS", &own);
	ret |= add(e, "CPUMGR_SHARED_CPUS", &pool);
	if (cpuset_empty(&own))
		return ret | add(e, "OPENSHIFT_SHARED_CPUS", &pool);
	ret |= add(e, "OPENSHIFT_ISOLATED_CPUS", &own);
	if (k < 0)
		return ret;
	e->no_quota = p->pod.containers[k].iso.quota_off;
	if (p->pod.containers[k].iso.irq != POD_IRQ_HOUSEKEEPING)
		return ret;
	node_quiet_housekeeping(n, &p->pod.containers[k].iso, &own, &keep);
	ret |= add(e, "CPUMGR_HOUSEKEEPING_CPUS", &keep);
	ret |= add(e, "OPENSHIFT_HOUSEKEEPING_CPUS", &keep);
	return ret;
}

void ctl_nri_env_free(struct ctl_nri_env *e)
{
	for (size_t i = 0; i < e->nr; i++)
		free(e->values[i]);
	memset(e, 0, sizeof(*e));
}
