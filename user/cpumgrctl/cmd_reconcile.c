// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl reconcile [--pods FILE]: the kubelet's reconcileState and
 * removeStaleState at once: with the node's active pods, drop everything
 * of the others; give every attached container its cpuset and CFS
 * limits.  One line per change.
 */
#include <stdio.h>

#include "cmd.h"
#include "ctl_node.h"
#include "podlist.h"

static int cmd_reconcile(const struct ctl_cmdline *cl)
{
	const char *pods = ctl_val(cl, "pods");
	struct pod_list active = { 0 };
	struct cm_error err = { 0 };
	struct node n;
	int ret, ended = 0;

	if (pods && pod_list_load(pods, &active, &err)) {
		ctl_err("%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_USAGE;
	}
	ret = ctl_node_start(cl, NODE_NEED_CONFIG, &n);
	if (ret) {
		pod_list_free(&active);
		return ret;
	}
	ret = node_sweep_inits(&n, &err);
	if (ret >= 0) {
		ended = ret;
		ret = node_reconcile(&n, pods ? &active : NULL, &err);
	}
	pod_list_free(&active);
	if (ret < 0)
		return ctl_node_fail(&n, &err, "reconcile");
	if (!ret && !ended)
		printf("reconcile: nothing to change\n");
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(reconcile) = {
	.name = "reconcile",
	.help = "drop pods not in FILE; give every attached container its cpuset and CFS limits",
	.opts = (const struct ctl_opt[]){
		{ "pods", 0, "FILE", CTL_FILE, NULL, "the node's active pods (a PodList, JSON or YAML)" },
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl reconcile --pods active-pods.json" },
	.run = cmd_reconcile,
};
