// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl status: policy, modes, pools, the pods' containers and a
 * map of the machine, for an 80-column terminal; --json for scripts.
 */
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"
#include "ctl_status.h"

static int cmd_status(const struct ctl_cmdline *cl)
{
	struct node n;
	cJSON *j;
	int ret;

	ret = ctl_node_start(cl, NODE_READ_ONLY | NODE_RESTRICTED_OK, &n);
	if (ret)
		return ret;
	if (!cl->json) {
		ret = ctl_status_print(stdout, &n, NULL);
		node_close(&n);
		return ret ? CPUMGRCTL_EXIT_FAIL : CPUMGRCTL_EXIT_OK;
	}
	j = ctl_status_json(&n);
	node_close(&n);
	if (!j) {
		ctl_err("out of memory");
		return CPUMGRCTL_EXIT_FAIL;
	}
	return ctl_print_json(j);
}

CPUMGRCTL_COMMAND(status) = {
	.name = "status",
	.help = "the node: policy, pools, pods and a map of which container owns each CPU",
	.opts = (const struct ctl_opt[]){
		CTL_OPT_JSON,
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl status", "cpumgrctl status -j | jq .containers" },
	.run = cmd_status,
};
