// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kubelet_version.h"

int kubelet_version_parse(const char *s, int *minor, struct cm_error *err)
{
	const char *p = s + (*s == 'v');
	char *end;
	long m;

	if (strncmp(p, "1.", 2) || !isdigit((unsigned char)p[2]))
		goto bad;
	m = strtol(p + 2, &end, 10);
	/* a patch release and a pre-release suffix are the same minor */
	if (*end && *end != '.' && *end != '-')
		goto bad;
	if (m < KUBELET_MINOR_FIRST || m > KUBELET_MINOR_LAST)
		return cm_errorf(err, "kubelet version %s: cpumgr matches kubelets 1.%d to 1.%d",
				 s, KUBELET_MINOR_FIRST, KUBELET_MINOR_LAST);
	*minor = (int)m;
	return 0;
bad:
	return cm_errorf(err, "kubelet version \"%s\": expected 1.MINOR (as \"1.37\" or \"v1.37.2\")",
			 s);
}

enum checkpoint_version kubelet_checkpoint_version(int minor, bool pod_level)
{
	if (minor >= 37)
		return CHECKPOINT_V4;
	if (minor == 36 && pod_level)
		return CHECKPOINT_V3;
	return CHECKPOINT_V2;
}

enum level { LEVEL_GA, LEVEL_BETA, LEVEL_ALPHA };

static enum level option_level(int minor, const char *name)
{
	if (!strcmp(name, OPT_FULL_PCPUS_ONLY))
		return minor >= 33 ? LEVEL_GA : LEVEL_BETA;
	if (!strcmp(name, OPT_DISTRIBUTE_CPUS_ACROSS_NUMA))
		return minor >= 33 ? LEVEL_BETA : LEVEL_ALPHA;
	if (!strcmp(name, OPT_STRICT_CPU_RESERVATION))
		return minor >= 35 ? LEVEL_GA :
		       minor >= 33 ? LEVEL_BETA : LEVEL_ALPHA;
	if (!strcmp(name, OPT_PREFER_ALIGN_BY_UNCORECACHE))
		return minor >= 36 ? LEVEL_GA :
		       minor >= 34 ? LEVEL_BETA : LEVEL_ALPHA;
	return LEVEL_ALPHA;	/* align-by-socket, distribute-cpus-across-cores */
}

int kubelet_check_options(int minor, const struct policy_options *o,
			  bool alpha_gate, bool beta_gate,
			  struct cm_error *err)
{
	const struct {
		const char *name;
		bool set;
	} opts[] = {
		{ OPT_FULL_PCPUS_ONLY, o->full_pcpus_only },
		{ OPT_DISTRIBUTE_CPUS_ACROSS_NUMA, o->distribute_numa },
		{ OPT_ALIGN_BY_SOCKET, o->align_by_socket },
		{ OPT_DISTRIBUTE_CPUS_ACROSS_CORES, o->distribute_cores },
		{ OPT_STRICT_CPU_RESERVATION, o->strict_reservation },
		{ OPT_PREFER_ALIGN_BY_UNCORECACHE, o->prefer_uncore },
	};

	if (!minor)
		return 0;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		enum level l;

		if (!opts[i].set)
			continue;
		l = option_level(minor, opts[i].name);
		if (l == LEVEL_ALPHA && !alpha_gate)
			return cm_errorf(err, "CPU Manager Policy Alpha-level Options not enabled, but option \"%s\" provided",
					 opts[i].name);
		if (l == LEVEL_BETA && !beta_gate)
			return cm_errorf(err, "CPU Manager Policy Beta-level Options not enabled, but option \"%s\" provided",
					 opts[i].name);
	}
	return 0;
}

bool kubelet_numa_hint_floor(int minor)
{
	return !minor || minor >= KUBELET_MINOR_NUMA_FLOOR;
}
