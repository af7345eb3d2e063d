// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl metrics [--output FILE.prom]: the CPU manager's metrics in
 * the Prometheus text format, for node_exporter's textfile collector
 * (written atomically there), or on stdout.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"
#include "metrics.h"

static int fill(const struct node *n, struct cpumgr_metrics *m,
		struct cpumgr_numa_alloc **numa)
{
	struct node_counters cnt;
	struct cpuset shared;
	unsigned int nr = 0;

	node_counters_load(n, &cnt);
	node_shared_pool(n, &shared);
	m->pinning_requests = cnt.pinning_requests;
	m->pinning_errors = cnt.pinning_errors;
	m->shared_pool_millicores = (uint64_t)cpuset_count(&shared) * 1000;
	m->exclusive_cpus = cpuset_count(&n->kernel.exclusive);
	m->violations = n->kernel.table.violations;
	m->offlines_refused = n->kernel.table.offlines_refused;
	m->armed = n->kernel.table.armed;
	m->probes_missed = n->kernel.table.probes_missed;
	*numa = calloc(n->kernel.nr_cpus ? n->kernel.nr_cpus : 1, sizeof(**numa));
	if (!*numa)
		return -1;
	for (unsigned int i = 0; i < n->kernel.nr_cpus; i++) {
		const struct node_cpu *c = &n->kernel.cpus[i];
		unsigned int k;

		if (!c->known)
			continue;
		for (k = 0; k < nr && (*numa)[k].numa != c->numa; k++)
			;
		if (k == nr)
			(*numa)[nr++].numa = c->numa;
		if (cpuset_test(&n->kernel.exclusive, (unsigned int)c->cpu))
			(*numa)[k].cpus++;
	}
	m->numa = *numa;
	m->nr_numa = nr;
	return 0;
}

/* The same numbers for scripts, named as the other commands name them. */
static int print_json(const struct cpumgr_metrics *m)
{
	cJSON *j = cJSON_CreateObject(), *numa;
	bool ok = j &&
		cJSON_AddNumberToObject(j, "pinningRequests", (double)m->pinning_requests) &&
		cJSON_AddNumberToObject(j, "pinningErrors", (double)m->pinning_errors) &&
		cJSON_AddNumberToObject(j, "sharedPoolMillicores",
					(double)m->shared_pool_millicores) &&
		cJSON_AddNumberToObject(j, "exclusiveCpuCount", (double)m->exclusive_cpus) &&
		(numa = cJSON_AddArrayToObject(j, "allocationPerNuma")) &&
		cJSON_AddNumberToObject(j, "violations", (double)m->violations) &&
		cJSON_AddNumberToObject(j, "offlinesRefused", (double)m->offlines_refused) &&
		cJSON_AddBoolToObject(j, "armed", m->armed) &&
		cJSON_AddNumberToObject(j, "probesMissed", (double)m->probes_missed);

	for (unsigned int i = 0; ok && i < m->nr_numa; i++) {
		cJSON *o = cJSON_CreateObject();

		ok = o && cJSON_AddItemToArray(numa, o) &&
		     cJSON_AddNumberToObject(o, "numa", m->numa[i].numa) &&
		     cJSON_AddNumberToObject(o, "exclusiveCpuCount",
					     (double)m->numa[i].cpus);
	}
	if (!ok) {
		cJSON_Delete(j);
		return -1;
	}
	return ctl_print_json(j) ? -1 : 0;
}

static int cmd_metrics(const struct ctl_cmdline *cl)
{
	const char *output = ctl_val(cl, "output");
	struct cpumgr_numa_alloc *numa = NULL;
	struct cpumgr_metrics m = { 0 };
	struct cm_error err = { 0 };
	struct prom_writer w;
	struct node n;
	int ret;

	ret = ctl_node_start(cl, NODE_NEED_CONFIG | NODE_READ_ONLY |
			     NODE_RESTRICTED_OK, &n);
	if (ret)
		return ret;
	prom_init(&w);
	if (fill(&n, &m, &numa)) {
		cm_errorf(&err, "out of memory");
		ret = -1;
	} else {
		ret = cpumgr_metrics_render(&w, &m, &err);
	}
	if (!ret && output)
		ret = prom_write_file(output, prom_text(&w), &err);
	else if (!ret && cl->json)
		ret = print_json(&m) ? cm_errorf(&err, "out of memory") : 0;
	else if (!ret)
		fputs(prom_text(&w), stdout);
	free(numa);
	prom_free(&w);
	if (ret)
		return ctl_node_fail(&n, &err, "metrics");
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(metrics) = {
	.name = "metrics",
	.help = "Prometheus text: pinning requests and errors, pools, per-NUMA allocation, violations",
	.opts = (const struct ctl_opt[]){
		{ "output", 'o', "FILE.prom", CTL_FILE, NULL, "write it there atomically (node_exporter's textfile collector), not on stdout" },
		CTL_OPT_JSON,
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl metrics --output /var/lib/node_exporter/textfile/cpumgr.prom" },
	.run = cmd_metrics,
};
