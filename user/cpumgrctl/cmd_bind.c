// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl bind: record in the kernel table the cgroup of a container
 * and/or of its pod, the cgroups allowed to hold the container's CPUs.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static int cmd_bind(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cgroup", required_argument, NULL, 'c' },
		{ "pod-cgroup", required_argument, NULL, 'p' },
		{ "generation", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pod, *container, *cgroup = NULL, *pod_cgroup = NULL;
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	bool check = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cgroup = optarg;
			break;
		case 'p':
			pod_cgroup = optarg;
			break;
		case 'g':
			if (!ctl_parse_u64("--generation", optarg, &expect))
				return CPUMGRCTL_EXIT_USAGE;
			check = true;
			break;
		default:
			return ctl_usage(argv[0]);
		}
	}
	if (argc - optind != 1 && argc - optind != 2)
		return ctl_usage(argv[0]);
	pod = argv[optind];
	container = argc - optind == 2 ? argv[optind + 1] : NULL;
	if (!cgroup && !pod_cgroup) {
		ctl_err("bind: give --cgroup, --pod-cgroup or both");
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (cgroup && !container) {
		ctl_err("bind: --cgroup needs a CONTAINER");
		return CPUMGRCTL_EXIT_USAGE;
	}
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_bind(nl, pod, container, cgroup, pod_cgroup,
			   check ? &expect : NULL, &gen))
		return ctl_nl_fail(nl, "bind %s%s%s", pod, container ? "/" : "",
				   container ?: "");
	cpumgr_nl_close(nl);
	printf("generation %llu\n", (unsigned long long)gen);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(bind, "bind",
		  "POD [CONTAINER] [--cgroup PATH] [--pod-cgroup PATH] [--generation N]",
		  "bind a container and/or its pod to cgroup directories (\"\" unbinds)",
		  cmd_bind);
