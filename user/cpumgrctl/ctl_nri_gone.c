// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: a container whose cgroup is gone is swept after a grace
 * (see ctl_nri_gone.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctl_nri_gone.h"

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
 * Seen gone long before and never asked about since: its container was
 * released or stopped another way (a sweep asks at each call).
 */
static void gone_prune(struct ctl_nri *p, long long now)
{
	size_t i = 0;

	while (i < p->nr_gone) {
		if (now - p->gone[i].since_ms <= 3LL * p->gone_grace_ms) {
			i++;
			continue;
		}
		free(p->gone[i].cgroup);
		p->gone[i] = p->gone[--p->nr_gone];
	}
}

/* node.sweep_gone_ok: the first time a cgroup is seen gone, not yet. */
static bool gone_ok(void *ctx, const char *cgroup)
{
	struct ctl_nri *p = ctx;
	long long now = gone_now_ms();
	struct ctl_nri_gone *v;

	if (!p->gone_grace_ms)
		return true;
	gone_prune(p, now);
	for (size_t i = 0; i < p->nr_gone; i++)
		if (!strcmp(p->gone[i].cgroup, cgroup))
			return now - p->gone[i].since_ms >= p->gone_grace_ms;
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

void ctl_nri_gone_hold(struct ctl_nri *p, struct node *n)
{
	n->sweep_gone_ok = gone_ok;
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
