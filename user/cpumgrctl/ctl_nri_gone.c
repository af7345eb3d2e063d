// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: a container whose cgroup is gone is swept after a grace
 * (see ctl_nri_gone.h).
 */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "ctl_nri_gone.h"
#include "node_internal.h"
#include "oci.h"

struct ctl_nri_gone {
	char *cgroup;
	long long since_ms;	/* first seen gone, CLOCK_MONOTONIC */
};

/* Whether a container n records, not ended, has cgroup. */
static bool gone_still_recorded(const struct node *n, const char *cgroup)
{
	for (unsigned int i = 0; i < n->nr_pods; i++) {
		const struct node_pod *pod = &n->pods[i];

		for (unsigned int k = 0; k < pod->pod.nr; k++)
			if (!pod->c[k].removed && !pod->c[k].exited &&
			    !strcmp(pod->c[k].cgroup, cgroup))
				return true;
	}
	return false;
}

/* Forget sighting i; the last one takes its place. */
static void gone_drop(struct ctl_nri *p, size_t i)
{
	free(p->gone[i].cgroup);
	p->gone[i] = p->gone[--p->nr_gone];
}

/*
 * Forget the cgroups whose container the node no longer records as
 * running: it stopped, or was released another way.  However far apart
 * the sweeps, one still wanted stays with its first sighting.
 */
static void gone_prune(struct ctl_nri *p, const struct node *n)
{
	size_t i = 0;

	while (i < p->nr_gone) {
		if (gone_still_recorded(n, p->gone[i].cgroup))
			i++;
		else
			gone_drop(p, i);
	}
}

/*
 * node.sweep_gone_ok: whether the cgroup has been gone for the grace,
 * since a sweep first saw it gone; that one is forgotten, its container
 * released.  A pod's sandbox goes at once: it holds no CPUs of its own
 * and never restarts (a new one is another instance), and its record
 * left would keep the pod.
 */
static bool gone_grace_over(void *ctx, const char *name, const char *cgroup)
{
	struct ctl_nri *p = ctx;
	long long now = clock_mono_ms();
	struct ctl_nri_gone *v;

	if (!p->gone_grace_ms || !strcmp(name, OCI_SANDBOX_NAME))
		return true;
	for (size_t i = 0; i < p->nr_gone; i++) {
		if (strcmp(p->gone[i].cgroup, cgroup))
			continue;
		if (now - p->gone[i].since_ms < p->gone_grace_ms)
			return false;
		gone_drop(p, i);
		return true;
	}
	/* what cannot be remembered goes at once, as before the grace */
	v = realloc(p->gone, (p->nr_gone + 1) * sizeof(*v));
	if (!v)
		return true;
	p->gone = v;
	v[p->nr_gone].cgroup = strdup(cgroup);
	if (!v[p->nr_gone].cgroup)
		return true;
	v[p->nr_gone++].since_ms = now;
	return false;
}

unsigned int ctl_nri_gone_grace_ms(unsigned int sweep_ms)
{
	if (!sweep_ms || sweep_ms > CTL_NRI_GONE_GRACE_MS)
		return CTL_NRI_GONE_GRACE_MS;
	return sweep_ms < CTL_NRI_GONE_GRACE_MIN_MS ?
	       CTL_NRI_GONE_GRACE_MIN_MS : sweep_ms;
}

void ctl_nri_gone_hold(struct ctl_nri *p, struct node *n)
{
	if (p->nr_gone)
		gone_prune(p, n);
	n->sweep_gone_ok = gone_grace_over;
	n->sweep_gone_ctx = p;
}

void ctl_nri_gone_forget(struct ctl_nri *p)
{
	for (size_t i = 0; i < p->nr_gone; i++)
		free(p->gone[i].cgroup);
	free(p->gone);
	p->gone = NULL;
	p->nr_gone = 0;
}
