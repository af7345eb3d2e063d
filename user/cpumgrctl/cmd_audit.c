// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl audit: check every cgroup of the managed tree against the
 * kernel's rule by what its tasks can actually run on
 * (cpuset.cpus.effective), inherited CPUs included.  Exit 3 with one
 * line per offender, 0 when the node is clean, 1 when it could not run.
 * Reads only: no lock, no sync, any user who can read the tree.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "ctl_node.h"

static int cmd_audit(int argc, char **argv)
{
	static const struct option longopts[] = {
		CTL_STATE_DIR_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	struct cm_error err = { 0 };
	struct node_audit a;
	const char *dir = NULL;
	struct node n;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt != CTL_OPT_STATE_DIR)
			return ctl_usage(argv[0]);
		dir = optarg;
	}
	if (optind != argc)
		return ctl_usage(argv[0]);
	ret = ctl_node_open(&n, dir, NODE_NEED_CONFIG | NODE_READ_ONLY);
	if (ret)
		return ret;
	if (node_audit(&n, &a, &err))
		return ctl_node_fail(&n, &err, "audit");
	for (unsigned int i = 0; i < a.nr; i++) {
		char *cpus = cpuset_to_str(&a.v[i].cpus);

		printf("offender %s cpus %s of %s\n", a.v[i].name,
		       cpus ? cpus : "?", a.v[i].owner);
		free(cpus);
	}
	if (!a.nr)
		printf("audit: clean, %u cgroups checked under %s\n",
		       a.checked, n.cfg.cgroup_root);
	ret = a.nr ? CPUMGRCTL_EXIT_FOUND : CPUMGRCTL_EXIT_OK;
	node_audit_free(&a);
	node_close(&n);
	return ret;
}

CPUMGRCTL_COMMAND(audit, "audit", "[--state-dir DIR]",
		  "list cgroups that can run on CPUs they may not hold (exit 3 if any)",
		  cmd_audit);
