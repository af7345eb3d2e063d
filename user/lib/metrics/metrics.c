// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgr's metrics.  Families that mean what the kubelet's mean carry
 * the kubelet's names and help texts (pkg/kubelet/metrics/metrics.go),
 * so dashboards and alerts written for the kubelet's CPU manager read
 * them after a relabel of the "kubelet_" prefix.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

static const char *const kind_name[CPUMGR_METRICS_KINDS] = {
	[CPUMGR_VIOLATION_WRITE] = "write",
	[CPUMGR_VIOLATION_INHERIT] = "inherit",
	[CPUMGR_VIOLATION_PARTITION] = "partition",
	[CPUMGR_VIOLATION_ATTACH] = "attach",
	[CPUMGR_VIOLATION_FORK] = "fork",
};

static const char *const verdict_name[CPUMGR_METRICS_VERDICTS] = {
	[CPUMGR_VERDICT_AUDITED] = "audited",
	[CPUMGR_VERDICT_REFUSED] = "refused",
};

static int one(struct prom_writer *w, const char *name, enum prom_type type,
	       const char *help, uint64_t value, struct cm_error *err)
{
	int ret = prom_family(w, name, type, help, err);

	return ret ? ret : prom_sample_u64(w, NULL, 0, value, err);
}

static int cmp_node(const void *a, const void *b)
{
	const struct cpumgr_numa_alloc *x = a, *y = b;

	return (x->numa > y->numa) - (x->numa < y->numa);
}

static int per_numa(struct prom_writer *w, const struct cpumgr_metrics *m,
		    struct cm_error *err)
{
	struct cpumgr_numa_alloc *v = NULL;
	int ret;

	if (m->nr_numa) {
		v = malloc(m->nr_numa * sizeof(*v));
		if (!v)
			return cm_errorf(err, "out of memory"), -ENOMEM;
		memcpy(v, m->numa, m->nr_numa * sizeof(*v));
		qsort(v, m->nr_numa, sizeof(*v), cmp_node);
	}
	ret = prom_family(w, "cpu_manager_allocation_per_numa", PROM_GAUGE,
			  "Number of CPUs allocated per NUMA node", err);
	for (unsigned int i = 0; i < m->nr_numa && !ret; i++) {
		char node[16];
		struct prom_label l = { "numa_node", node };

		if (v[i].numa < 0 || (i && v[i].numa == v[i - 1].numa)) {
			ret = cm_errorf(err, "NUMA node %d: negative or given twice",
					v[i].numa);
			break;
		}
		snprintf(node, sizeof(node), "%d", v[i].numa);
		ret = prom_sample_u64(w, &l, 1, v[i].cpus, err);
	}
	free(v);
	return ret;
}

static int violations(struct prom_writer *w, const struct cpumgr_metrics *m,
		      struct cm_error *err)
{
	int ret = prom_family(w, "cpumgr_violations_total", PROM_COUNTER,
			      "Cpuset writes and task moves that would break CPU exclusivity, seen by the cpumgr kernel module: refused (enforce mode) or let through (audit mode).",
			      err);

	if (ret || !m->by_kind)
		return ret ? ret : prom_sample_u64(w, NULL, 0, m->violations,
						   err);
	for (int k = 0; k < CPUMGR_METRICS_KINDS; k++)
		for (int v = 0; v < CPUMGR_METRICS_VERDICTS; v++) {
			struct prom_label l[] = {
				{ "kind", kind_name[k] },
				{ "verdict", verdict_name[v] },
			};

			ret = prom_sample_u64(w, l, 2, m->violations_by[k][v],
					      err);
			if (ret)
				return ret;
		}
	return 0;
}

int cpumgr_metrics_render(struct prom_writer *w, const struct cpumgr_metrics *m,
			  struct cm_error *err)
{
	int ret;

	ret = one(w, "cpu_manager_pinning_requests_total", PROM_COUNTER,
		  "The number of cpu core allocations which required pinning.",
		  m->pinning_requests, err);
	if (!ret)
		ret = one(w, "cpu_manager_pinning_errors_total", PROM_COUNTER,
			  "The number of cpu core allocations which required pinning failed.",
			  m->pinning_errors, err);
	if (!ret)
		ret = one(w, "cpu_manager_shared_pool_size_millicores",
			  PROM_GAUGE,
			  "The size of the shared CPU pool for non-guaranteed QoS pods, in millicores.",
			  m->shared_pool_millicores, err);
	if (!ret)
		ret = one(w, "cpu_manager_exclusive_cpu_allocation_count",
			  PROM_GAUGE,
			  "The total number of CPUs exclusively allocated to containers running on this node",
			  m->exclusive_cpus, err);
	if (!ret)
		ret = per_numa(w, m, err);
	if (!ret)
		ret = violations(w, m, err);
	if (!ret)
		ret = one(w, "cpumgr_offlines_refused_total", PROM_COUNTER,
			  "CPU offlines the cpumgr kernel module refused because the CPU was exclusively assigned (hotplug mode protect).",
			  m->offlines_refused, err);
	if (!ret)
		ret = one(w, "cpumgr_guarantee_armed", PROM_GAUGE,
			  "1 when the cpumgr kernel module's probes are in place and fire, 0 when the guarantee is off (kprobes disabled, kernel.ftrace_enabled=0).",
			  m->armed, err);
	if (!ret)
		ret = one(w, "cpumgr_probes_missed_total", PROM_COUNTER,
			  "Calls the cpumgr kernel module's probes missed (another kprobe was running): they went unchecked.",
			  m->probes_missed, err);
	return ret;
}
