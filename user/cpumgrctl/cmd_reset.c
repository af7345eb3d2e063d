// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl reset: release every assignment and return the kernel table
 * to its state after load (the counters stay).
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static int cmd_reset(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "generation", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	bool check = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt != 'g')
			return ctl_usage(argv[0]);
		if (!ctl_parse_u64("--generation", optarg, &expect))
			return CPUMGRCTL_EXIT_USAGE;
		check = true;
	}
	if (optind != argc)
		return ctl_usage(argv[0]);
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_reset(nl, check ? &expect : NULL, &gen))
		return ctl_nl_fail(nl, "reset");
	cpumgr_nl_close(nl);
	printf("generation %llu\n", (unsigned long long)gen);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(reset, "reset", "[--generation N]",
		  "release every assignment, back to the state after load (counters stay)",
		  cmd_reset);
