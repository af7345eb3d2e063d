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
	static const struct option longopts[] = {
		CTL_STATE_DIR_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	struct cm_error err = { 0 };
	const char *dir = NULL;
	struct node n;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt != CTL_OPT_STATE_DIR)
			return ctl_usage(argv[0]);
		dir = optarg;
	}
	if (argc - optind != 1 && argc - optind != 2)
		return ctl_usage(argv[0]);
	ret = ctl_node_open(&n, dir, NODE_NEED_CONFIG);
	if (ret)
		return ret;
	if (node_remove_check(&n, argv[optind],
			      argc - optind == 2 ? argv[optind + 1] : NULL, &err))
		return ctl_node_bad_input(&n, &err, "remove");
	if (node_remove(&n, argv[optind],
			argc - optind == 2 ? argv[optind + 1] : NULL, &err))
		return ctl_node_fail(&n, &err, "remove");
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(remove, "remove", "POD_UID [CONTAINER] [--state-dir DIR]",
		  "remove a pod, or one of its containers, and release their CPUs",
		  cmd_remove);
