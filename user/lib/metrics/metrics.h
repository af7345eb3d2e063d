/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metrics in the Prometheus text exposition format (version 0.0.4), for
 * node_exporter's textfile collector: a small writer of counter and
 * gauge families, and cpumgr's own metrics rendered from a plain struct
 * the controller fills.
 *
 * The writer refuses what the collector would refuse or silently
 * mangle: invalid metric and label names (no ':' either, which the data
 * model keeps for recording rules), label values that are not UTF-8, a
 * family written twice, samples outside a family, negative counters and
 * counters not named *_total.  Timestamps are never written: the
 * textfile collector rejects them.
 */
#ifndef CPUMGR_METRICS_H
#define CPUMGR_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/cpumgr.h>

#include "error.h"
#include "strbuf.h"

enum prom_type { PROM_COUNTER, PROM_GAUGE };

struct prom_label {
	const char *name, *value;
};

struct prom_writer {
	struct strbuf text;	/* the text so far */
	char **families;	/* names written, to refuse one twice */
	size_t nr_families;
	enum prom_type type;	/* of the last family */
};

void prom_init(struct prom_writer *w);
void prom_free(struct prom_writer *w);
/* The text so far ("" when empty); valid until the next call. */
const char *prom_text(const struct prom_writer *w);

/* [a-zA-Z_][a-zA-Z0-9_]* (colons are for recording rules). */
bool prom_metric_name_ok(const char *name);
/* [a-zA-Z_][a-zA-Z0-9_]*, not starting with "__" (reserved). */
bool prom_label_name_ok(const char *name);

/* Start a family: "# HELP" (escaped) and "# TYPE" lines. */
int prom_family(struct prom_writer *w, const char *name, enum prom_type type,
		const char *help, struct cm_error *err);
/* A sample of the last family, with its labels (escaped values). */
int prom_sample_u64(struct prom_writer *w, const struct prom_label *labels,
		    size_t nr, uint64_t value, struct cm_error *err);
int prom_sample_i64(struct prom_writer *w, const struct prom_label *labels,
		    size_t nr, int64_t value, struct cm_error *err);
/* NaN, +Inf, -Inf, or the shortest text that reads back as value. */
int prom_sample_double(struct prom_writer *w, const struct prom_label *labels,
		       size_t nr, double value, struct cm_error *err);

/*
 * Replace path with text atomically, as the textfile collector needs: a
 * hidden temporary file in the same directory (not matching *.prom),
 * mode 0644 so node_exporter's user can read it, fsync, rename.  path
 * must end in ".prom", the only files the collector reads.
 */
int prom_write_file(const char *path, const char *text, struct cm_error *err);

/* enum cpumgr_violation and enum cpumgr_verdict of the uAPI */
#define CPUMGR_METRICS_KINDS	(CPUMGR_VIOLATION_FORK + 1)
#define CPUMGR_METRICS_VERDICTS	(CPUMGR_VERDICT_REFUSED + 1)

struct cpumgr_numa_alloc {
	int numa;		/* the NUMA node */
	uint64_t cpus;		/* its CPUs exclusively allocated */
};

/*
 * What the controller knows.  The names of the kubelet's metrics
 * (pkg/kubelet/metrics/metrics.go, without its "kubelet_" subsystem,
 * since the kubelet is not the one exporting them) where the meaning is
 * the same, "cpumgr_" for what only cpumgr has.
 */
struct cpumgr_metrics {
	/*
	 * cpu_manager_pinning_requests_total, _errors_total: containers
	 * that needed exclusive CPUs, and those that could not get them
	 */
	uint64_t pinning_requests, pinning_errors;
	/* cpu_manager_shared_pool_size_millicores */
	uint64_t shared_pool_millicores;
	/* cpu_manager_exclusive_cpu_allocation_count */
	uint64_t exclusive_cpus;
	/* cpu_manager_allocation_per_numa{numa_node}: every node, even at 0 */
	const struct cpumgr_numa_alloc *numa;
	unsigned int nr_numa;
	/*
	 * cpumgr_violations_total: the kernel's count since the module
	 * loaded, or, when by_kind is set, one series per kind and verdict
	 * (the controller's count of violation events) instead: kind is
	 * write, inherit, partition, attach or fork, verdict audited or
	 * refused, indexed by the uAPI's enums.
	 */
	uint64_t violations;
	bool by_kind;
	uint64_t violations_by[CPUMGR_METRICS_KINDS][CPUMGR_METRICS_VERDICTS];
	/* cpumgr_offlines_refused_total */
	uint64_t offlines_refused;
	/* cpumgr_guarantee_armed, cpumgr_probes_missed_total */
	bool armed;
	uint64_t probes_missed;
};

/* Append cpumgr's families to w; NUMA nodes come out in ascending order. */
int cpumgr_metrics_render(struct prom_writer *w, const struct cpumgr_metrics *m,
			  struct cm_error *err);

#endif
