// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl status: policy, modes, pools, the pods' containers and a
 * map of the machine, for an 80-column terminal; --json for scripts.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"
#include "ctl_status.h"

static int cmd_status(int argc, char **argv)
{
	bool json = false;
	struct node n;
	cJSON *j;
	int ret;
	struct ctl_args args;
	const struct ctl_opt opts[] = {
		{ "json", &json, NULL },
		{ NULL },
	};

	ret = ctl_node_start(argc, argv, opts, 0, 0, NODE_READ_ONLY,
			     &n, &args);
	if (ret)
		return ret;
	if (!json) {
		ret = ctl_status_print(stdout, &n, NULL);
		node_close(&n);
		return ret ? CPUMGRCTL_EXIT_FAIL : CPUMGRCTL_EXIT_OK;
	}
	j = ctl_status_json(&n);
	node_close(&n);
	if (!j) {
		ctl_err("status: out of memory");
		return CPUMGRCTL_EXIT_FAIL;
	}
	return ctl_print_json(j);
}

CPUMGRCTL_COMMAND(status, "status", "[--json] [--state-dir DIR]",
		  "the node: policy, pools, pods and a map of which container owns each CPU",
		  cmd_status);
