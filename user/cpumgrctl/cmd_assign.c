// SPDX-License-Identifier: GPL-2.0
/* cpumgrctl assign: give one container CPUs in the kernel table. */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static int cmd_assign(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "init", no_argument, NULL, 'i' },
		{ "generation", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	struct cpumgr_assignment a;
	uint64_t expect, gen;
	bool check = false;
	uint32_t flags = 0;
	struct cpumgr_nl *nl;
	int opt;

	while ((opt = getopt_long(argc, argv, "ig:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			flags |= CPUMGR_ASSIGNMENT_F_INIT;
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
	if (argc - optind != 3)
		return ctl_usage(argv[0]);
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_assign(nl, argv[optind], argv[optind + 1],
			     argv[optind + 2], flags, check ? &expect : NULL,
			     &gen, &a))
		return ctl_nl_fail(nl, "assign %s/%s", argv[optind],
				   argv[optind + 1]);
	cpumgr_nl_close(nl);
	printf("%s %s cpus %s%s generation %llu\n", a.pod_uid, a.container,
	       a.cpus, a.flags & CPUMGR_ASSIGNMENT_F_INIT ? " init" : "",
	       (unsigned long long)gen);
	cpumgr_assignment_free(&a);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(assign, "assign", "POD CONTAINER CPULIST [--init] [--generation N]",
		  "give a container exclusive CPUs (--generation: only if the table is at N)",
		  cmd_assign);
