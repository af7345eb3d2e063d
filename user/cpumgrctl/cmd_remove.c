// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl remove UID [CONTAINER]: the kubelet's RemoveContainer for one
 * container, or for every container of the pod; CPUs a sibling still
 * uses stay taken.
 */
#include <getopt.h>

#include "cmd.h"
#include "ctl_node.h"

static int cmd_remove(int argc, char **argv)
{
	struct cm_error err = { 0 };
	struct node n;
	int ret;
	struct ctl_args args;
	const struct ctl_opt opts[] = {
		{ NULL },
	};

	ret = ctl_node_start(argc, argv, opts, 1, 2, NODE_NEED_CONFIG,
			     &n, &args);
	if (ret)
		return ret;
	if (node_remove_check(&n, args.arg[0],
			      args.nr == 2 ? args.arg[1] : NULL, &err))
		return ctl_node_bad_input(&n, &err, "remove");
	if (node_remove(&n, args.arg[0],
			args.nr == 2 ? args.arg[1] : NULL, &err))
		return ctl_node_fail(&n, &err, "remove");
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(remove, "remove", "POD_UID [CONTAINER] [--state-dir DIR]",
		  "remove a pod, or one of its containers, and release their CPUs",
		  cmd_remove);
