// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "go_strconv.h"
#include "options.h"

struct option_desc {
	const char *name;
	size_t field;
};

static const struct option_desc option_table[] = {
	{ OPT_FULL_PCPUS_ONLY, offsetof(struct policy_options,
					full_pcpus_only) },
	{ OPT_DISTRIBUTE_CPUS_ACROSS_NUMA,
	  offsetof(struct policy_options, distribute_numa) },
	{ OPT_ALIGN_BY_SOCKET, offsetof(struct policy_options,
					align_by_socket) },
	{ OPT_DISTRIBUTE_CPUS_ACROSS_CORES,
	  offsetof(struct policy_options, distribute_cores) },
	{ OPT_STRICT_CPU_RESERVATION,
	  offsetof(struct policy_options, strict_reservation) },
	{ OPT_PREFER_ALIGN_BY_UNCORECACHE,
	  offsetof(struct policy_options, prefer_uncore) },
};

int options_set(struct policy_options *o, const char *name, const char *value,
		struct cm_error *err)
{
	for (size_t i = 0; i < sizeof(option_table) / sizeof(option_table[0]);
	     i++) {
		bool v;

		if (strcmp(name, option_table[i].name))
			continue;
		if (go_parse_bool(value, &v))
			return cm_errorf(err, "bad value for option \"%s\": strconv.ParseBool: parsing \"%s\": invalid syntax",
					 name, value);
		*(bool *)((char *)o + option_table[i].field) = v;
		o->nr_given++;
		return 0;
	}
	return cm_errorf(err, "unknown CPU Manager Policy option: \"%s\"", name);
}

int options_parse_list(struct policy_options *o, const char *list,
		       struct cm_error *err)
{
	struct policy_options tmp = *o;
	char *copy = strdup(list), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq) {
			ret = cm_errorf(err, "invalid policy option \"%s\": expected name=value",
					tok);
			break;
		}
		*eq = '\0';
		ret = options_set(&tmp, tok, eq + 1, err);
	}
	free(copy);
	if (!ret)
		*o = tmp;
	return ret;
}

static int incompatible(struct cm_error *err, const char *a, const char *b)
{
	return cm_errorf(err, "static policy options %s and %s can not be used at the same time",
			 a, b);
}

int options_check(const struct policy_options *o, struct cm_error *err)
{
	if (o->full_pcpus_only && o->distribute_cores)
		return incompatible(err, OPT_FULL_PCPUS_ONLY,
				    OPT_DISTRIBUTE_CPUS_ACROSS_CORES);
	if (o->distribute_numa && o->distribute_cores)
		return incompatible(err, OPT_DISTRIBUTE_CPUS_ACROSS_NUMA,
				    OPT_DISTRIBUTE_CPUS_ACROSS_CORES);
	if (o->prefer_uncore && o->distribute_cores)
		return incompatible(err, OPT_PREFER_ALIGN_BY_UNCORECACHE,
				    OPT_DISTRIBUTE_CPUS_ACROSS_CORES);
	if (o->prefer_uncore && o->distribute_numa)
		return incompatible(err, OPT_PREFER_ALIGN_BY_UNCORECACHE,
				    OPT_DISTRIBUTE_CPUS_ACROSS_NUMA);
	return 0;
}

int options_validate(const struct policy_options *o, const struct topology *t,
		     enum tm_policy tm, struct cm_error *err)
{
	if (!o->align_by_socket)
		return 0;
	if (tm == TM_POLICY_SINGLE_NUMA_NODE)
		return cm_errorf(err, "Topolgy manager %s policy is incompatible with CPUManager %s policy option",
				 tm_policy_name(tm), OPT_ALIGN_BY_SOCKET);
	if (t->nr[TOPO_SOCKET] > t->nr[TOPO_NUMA])
		return cm_errorf(err, "Align by socket is not compatible with hardware where number of sockets are more than number of NUMA");
	return 0;
}

static const char *const tm_names[] = {
	[TM_POLICY_NONE] = "none",
	[TM_POLICY_BEST_EFFORT] = "best-effort",
	[TM_POLICY_RESTRICTED] = "restricted",
	[TM_POLICY_SINGLE_NUMA_NODE] = "single-numa-node",
};

int tm_policy_parse(const char *name, enum tm_policy *out,
		    struct cm_error *err)
{
	for (size_t i = 0; i < sizeof(tm_names) / sizeof(tm_names[0]); i++)
		if (!strcmp(name, tm_names[i])) {
			*out = (enum tm_policy)i;
			return 0;
		}
	return cm_errorf(err, "unknown policy: \"%s\"", name);
}

const char *tm_policy_name(enum tm_policy tm)
{
	return tm_names[tm];
}
