// SPDX-License-Identifier: GPL-2.0
/* cpumgrctl release: give a container's or a whole pod's CPUs back. */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static int cmd_release(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "generation", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pod, *container;
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	bool check = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "g:", longopts, NULL)) != -1) {
		if (opt != 'g')
			return ctl_usage(argv[0]);
		if (!ctl_parse_u64("--generation", optarg, &expect))
			return CPUMGRCTL_EXIT_USAGE;
		check = true;
	}
	if (argc - optind != 1 && argc - optind != 2)
		return ctl_usage(argv[0]);
	pod = argv[optind];
	container = argc - optind == 2 ? argv[optind + 1] : NULL;
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_release(nl, pod, container, check ? &expect : NULL, &gen))
		return ctl_nl_fail(nl, "release %s%s%s", pod,
				   container ? "/" : "", container ?: "");
	cpumgr_nl_close(nl);
	printf("generation %llu\n", (unsigned long long)gen);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(release, "release", "POD [CONTAINER] [--generation N]",
		  "release a container's CPUs, or every container of the pod",
		  cmd_release);
