/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static policy options (pkg/kubelet/cm/cpumanager/policy_options.go) and
 * the topology manager policy name, with the kubelet's validation rules
 * and messages.  Every option level (beta, alpha) is available.
 */
#ifndef CPUMGR_OPTIONS_H
#define CPUMGR_OPTIONS_H

#include <stdbool.h>

#include "error.h"
#include "topology.h"

#define OPT_FULL_PCPUS_ONLY		"full-pcpus-only"
#define OPT_DISTRIBUTE_CPUS_ACROSS_NUMA	"distribute-cpus-across-numa"
#define OPT_ALIGN_BY_SOCKET		"align-by-socket"
#define OPT_DISTRIBUTE_CPUS_ACROSS_CORES "distribute-cpus-across-cores"
#define OPT_STRICT_CPU_RESERVATION	"strict-cpu-reservation"
#define OPT_PREFER_ALIGN_BY_UNCORECACHE	"prefer-align-cpus-by-uncorecache"

struct policy_options {
	bool full_pcpus_only;
	bool distribute_numa;
	bool align_by_socket;
	bool distribute_cores;
	bool strict_reservation;
	bool prefer_uncore;
	unsigned int nr_given;	/* options named, whatever their value */
};

enum tm_policy {
	TM_POLICY_NONE, TM_POLICY_BEST_EFFORT,
	TM_POLICY_RESTRICTED, TM_POLICY_SINGLE_NUMA_NODE,
};

/*
 * Set one option from its name and value.  Values are read the way Go's
 * strconv.ParseBool reads them ("true", "false", "1", "0", "t", "F", ...);
 * unknown names and bad values are errors with the kubelet's text.
 */
int options_set(struct policy_options *o, const char *name, const char *value,
		struct cm_error *err);
/* Parse the kubelet flag form "name=value,name=value" into *o. */
int options_parse_list(struct policy_options *o, const char *list,
		       struct cm_error *err);
/* The options that cannot be combined (NewStaticPolicyOptions). */
int options_check(const struct policy_options *o, struct cm_error *err);
/* Options against the machine and topology manager (ValidateStaticPolicyOptions). */
int options_validate(const struct policy_options *o, const struct topology *t,
		     enum tm_policy tm, struct cm_error *err);

int tm_policy_parse(const char *name, enum tm_policy *out,
		    struct cm_error *err);
const char *tm_policy_name(enum tm_policy tm);

#endif
