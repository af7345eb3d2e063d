// SPDX-License-Identifier: GPL-2.0
/*
 * A Pod's names, containers, QoS class and Guaranteed CPUs
 * (pod_json.c reads one).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pod.h"

/* RFC 1123 label, as Kubernetes requires for container names */
bool pod_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > CONTAINER_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!(islower((unsigned char)c) || isdigit((unsigned char)c) ||
		      (c == '-' && i && i + 1 < n)))
			return false;
	}
	return true;
}

void pod_free(struct pod *p)
{
	free(p->name);
	free(p->ns);
	free(p->status_qos);
	free(p->containers);
	memset(p, 0, sizeof(*p));
}

const struct pod_container *pod_container(const struct pod *p,
					  const char *name)
{
	for (unsigned int i = 0; i < p->nr; i++)
		if (!strcmp(p->containers[i].name, name))
			return &p->containers[i];
	return NULL;
}

bool pod_level_resources(const struct pod *p)
{
	for (int r = 0; r < RES_NR; r++)
		if (p->has_pod_request[r] || p->has_pod_limit[r])
			return true;
	return false;
}

/*
 * ComputePodQOS(): sum positive cpu and memory requests and limits over
 * app and init containers, or take the pod's own when it sets them;
 * Guaranteed when every container (or the pod) limits both and the sums
 * match, BestEffort when nothing is set.
 */
static void add_positive(bool has, const struct quantity *q, bool *found,
			 struct quantity *sum)
{
	if (has && quantity_positive(q)) {
		sum->nano += q->nano;
		*found = true;
	}
}

static enum pod_qos compute_qos(const struct pod *p)
{
	struct quantity req[RES_NR] = { 0 }, lim[RES_NR] = { 0 };
	bool has_req[RES_NR] = { 0 }, has_lim[RES_NR] = { 0 };
	bool guaranteed = true, pod_level = pod_level_resources(p);
	int nreq = 0, nlim = 0;

	for (unsigned int i = 0; !pod_level && i < p->nr; i++) {
		const struct pod_container *c = &p->containers[i];

		for (int r = 0; r < RES_NR; r++) {
			bool limited = false;

			add_positive(c->has_request[r], &c->request[r],
				     &has_req[r], &req[r]);
			add_positive(c->has_limit[r], &c->limit[r], &limited,
				     &lim[r]);
			/* every container limits both */
			guaranteed &= limited;
			has_lim[r] |= limited;
		}
	}
	for (int r = 0; pod_level && r < RES_NR; r++) {
		add_positive(p->has_pod_request[r], &p->pod_request[r],
			     &has_req[r], &req[r]);
		add_positive(p->has_pod_limit[r], &p->pod_limit[r],
			     &has_lim[r], &lim[r]);
		if (!has_lim[r])
			guaranteed = false;
	}
	for (int r = 0; r < RES_NR; r++) {
		nreq += has_req[r];
		nlim += has_lim[r];
	}
	if (!nreq && !nlim)
		return QOS_BEST_EFFORT;
	for (int r = 0; guaranteed && r < RES_NR; r++)
		if (has_req[r] && (!has_lim[r] ||
				   quantity_cmp(&lim[r], &req[r])))
			guaranteed = false;
	return guaranteed && nreq == nlim ? QOS_GUARANTEED : QOS_BURSTABLE;
}

enum pod_qos pod_qos(const struct pod *p)
{
	if (p->status_qos) {
		if (!strcmp(p->status_qos, "Guaranteed"))
			return QOS_GUARANTEED;
		if (!strcmp(p->status_qos, "Burstable"))
			return QOS_BURSTABLE;
		return QOS_BEST_EFFORT;
	}
	return compute_qos(p);
}

const char *pod_qos_name(enum pod_qos q)
{
	static const char *const names[] = {
		[QOS_GUARANTEED] = "Guaranteed",
		[QOS_BURSTABLE] = "Burstable",
		[QOS_BEST_EFFORT] = "BestEffort",
	};

	return names[q];
}

/* Value() of a CPU quantity when it is a whole number of CPUs, else 0. */
static int integer_cpus(const struct quantity *q)
{
	__int128 nano = q->nano, v, milli;

	if (nano <= 0)
		return 0;
	/*
	 * Value() * 1000 != MilliValue(), both rounded up; in 128 bits, as
	 * a request may be up to 1e18 CPUs.  Past INT_MAX no node has them
	 * anyway.
	 */
	v = (nano + 999999999) / 1000000000;
	milli = (nano + 999999) / 1000000;
	if (v * 1000 != milli)
		return 0;
	return v > INT_MAX ? INT_MAX : (int)v;
}

/* IsContainerEquivalentQOSGuaranteed(): cpu and memory, request = limit */
static bool equivalent_guaranteed(const struct pod_container *c)
{
	for (int r = 0; r < RES_NR; r++)
		if (!c->has_request[r] || !c->has_limit[r] ||
		    quantity_cmp(&c->request[r], &c->limit[r]))
			return false;
	return true;
}

int pod_guaranteed_cpus(const struct pod *p, const struct pod_container *c)
{
	if (pod_qos(p) != QOS_GUARANTEED || !c->has_request[RES_CPU] ||
	    c->shared)
		return 0;
	if (pod_level_resources(p) && !equivalent_guaranteed(c))
		return 0;
	return integer_cpus(&c->request[RES_CPU]);
}

int pod_level_cpus(const struct pod *p)
{
	if (!pod_level_resources(p) || pod_qos(p) != QOS_GUARANTEED ||
	    !p->has_pod_request[RES_CPU])
		return 0;
	return integer_cpus(&p->pod_request[RES_CPU]);
}

int pod_guaranteed_cpus_total(const struct pod *p)
{
	/* each term is at most INT_MAX: no sum overflows 64 bits */
	int64_t by_init = 0, by_sidecars = 0, by_apps = 0, total;

	if (pod_level_resources(p))
		return pod_level_cpus(p);
	for (unsigned int i = 0; i < p->nr; i++) {
		const struct pod_container *c = &p->containers[i];
		int n;

		if (!c->has_request[RES_CPU])
			continue;
		n = pod_guaranteed_cpus(p, c);
		if (!c->init)
			by_apps += n;
		else if (c->restartable)
			by_sidecars += n;
		else if (by_sidecars + n > by_init)
			by_init = by_sidecars + n;
	}
	total = by_init > by_apps + by_sidecars ? by_init : by_apps + by_sidecars;
	return total > INT_MAX ? INT_MAX : (int)total;
}
