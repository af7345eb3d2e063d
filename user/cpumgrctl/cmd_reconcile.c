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
	const char *pods = NULL;
	struct pod_list active = { 0 };
	struct cm_error err = { 0 };
	struct node n;
	int ret;
	struct ctl_args args;
	const struct ctl_opt opts[] = {
		{ "pods", NULL, &pods },
		{ NULL },
	};

	ret = ctl_node_args(argc, argv, opts, 0, 0, &args);
	if (ret)
		return ret;
	if (pods && pod_list_load(pods, &active, &err)) {
		ctl_err("reconcile: %s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_USAGE;
	}
	ret = ctl_node_open(&n, args.state_dir, NODE_NEED_CONFIG);
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
