// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl remove UID [CONTAINER]: the kubelet's RemoveContainer for one
 * container, or for every container of the pod; CPUs a sibling still
 * uses stay taken.
 */

#include "cmd.h"
#include "ctl_node.h"

static int cmd_remove(const struct ctl_cmdline *cl)
{
	const char *container = cl->nr == 2 ? cl->arg[1] : NULL;
	struct cm_error err = { 0 };
	struct node n;
	int ret;

	ret = ctl_node_start(cl, NODE_NEED_CONFIG, &n);
	if (ret)
		return ret;
	if (node_remove_check(&n, cl->arg[0], container, &err))
		return ctl_node_bad_input(&n, &err, "remove");
	if (node_remove(&n, cl->arg[0], container, &err))
		return ctl_node_fail(&n, &err, "remove");
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(remove) = {
	.name = "remove",
	.help = "remove a pod, or one of its containers, and release their CPUs",
	.args = (const struct ctl_pos[]){
		{ "POD_UID", CTL_ANY, NULL, false, "the pod's UID" },
		{ "CONTAINER", CTL_ANY, NULL, true, "the container's name (default: the whole pod)" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl remove 7c5f0d8e-pod" },
	.run = cmd_remove,
};
