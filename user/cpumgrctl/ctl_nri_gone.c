// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: a container whose cgroup is gone is swept after a grace
 * (see ctl_nri_gone.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctl_nri_gone.h"
#include "oci.h"

struct ctl_nri_gone {
	char *cgroup;
	long long since_ms;	/* first seen gone, CLOCK_MONOTONIC */
};

static long long gone_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * An entry this much older than the grace was not asked about since it
 * was over (an asked one goes, its container released): its container
 * stopped or went another way.
 */
#define GONE_STALE_GRACES	3

/* Drop the entries no sweep asks about any more. */
static void gone_prune(struct ctl_nri *p, long long now)
{
	size_t i = 0;

	while (i < p->nr_gone) {
		if (now - p->gone[i].since_ms <=
		    (long long)GONE_STALE_GRACES * p->gone_grace_ms) {
			i++;
			continue;
		}
		free(p->gone[i].cgroup);
		p->gone[i] = p->gone[--p->nr_gone];
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
	long long now = gone_now_ms();
	struct ctl_nri_gone *v;

	if (!p->gone_grace_ms || !strcmp(name, OCI_SANDBOX_NAME))
		return true;
	for (size_t i = 0; i < p->nr_gone; i++) {
		if (strcmp(p->gone[i].cgroup, cgroup))
			continue;
		if (now - p->gone[i].since_ms < p->gone_grace_ms)
			return false;
		free(p->gone[i].cgroup);
		p->gone[i] = p->gone[--p->nr_gone];
		return true;
	}
	gone_prune(p, now);
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
	if (!sweep_ms)
		return CTL_NRI_GONE_GRACE_MS;
	return sweep_ms < CTL_NRI_GONE_GRACE_MIN_MS ?
	       CTL_NRI_GONE_GRACE_MIN_MS : sweep_ms;
}

void ctl_nri_gone_hold(struct ctl_nri *p, struct node *n)
{
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
