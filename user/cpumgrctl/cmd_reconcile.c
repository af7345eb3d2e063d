// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl reconcile [--pods FILE]: the kubelet's reconcileState and
 * removeStaleState at once: with the node's active pods, drop everything
 * of the others; give every attached container its cpuset and CFS
 * limits.  One line per change.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "ctl_node.h"
#include "podlist.h"

static int cmd_reconcile(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pods", required_argument, NULL, 'p' },
		CTL_STATE_DIR_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *pods = NULL;
	struct pod_list active = { 0 };
	struct cm_error err = { 0 };
	struct node n;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == 'p')
			pods = optarg;
		else if (opt == CTL_OPT_STATE_DIR)
			dir = optarg;
		else
			return ctl_usage(argv[0]);
	}
	if (optind != argc)
		return ctl_usage(argv[0]);
	if (pods && pod_list_load(pods, &active, &err)) {
		ctl_err("reconcile: %s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_USAGE;
	}
	ret = ctl_node_open(&n, dir, NODE_NEED_CONFIG);
	if (ret) {
		pod_list_free(&active);
		return ret;
	}
	ret = node_reconcile(&n, pods ? &active : NULL, &err);
	pod_list_free(&active);
	if (ret < 0)
		return ctl_node_fail(&n, &err, "reconcile");
	if (!ret)
		printf("reconcile: nothing to change\n");
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(reconcile, "reconcile", "[--pods FILE] [--state-dir DIR]",
		  "drop pods not in FILE; give every attached container its cpuset and CFS limits",
		  cmd_reconcile);
