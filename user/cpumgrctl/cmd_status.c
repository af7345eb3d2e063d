// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl status: policy, modes, pools, the pods' containers and a
 * map of the machine, for an 80-column terminal; --json for scripts.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"
#include "ctl_ready.h"
#include "ctl_status.h"

/* The NRI plugin's state and a refused change, when there are. */
static void print_runtime(const char *dir)
{
	struct ctl_nri_view v;
	char refused[1024];

	ctl_nri_read(dir, &v);
	if (v.running && v.recorded)
		printf("\nnri plugin: %s %s, mode %s, %s\n", v.plugin, v.state,
		       v.mode, v.socket);
	else if (v.recorded)
		printf("\nnri plugin: not running (it was %s %s)\n", v.plugin,
		       v.state);
	if (ctl_refused_read(dir, refused, sizeof(refused)))
		printf("\nrefused change (the node runs its old settings): %s\n",
		       refused);
}

/*
 * --ready WHAT: exit 0 when the node does its job (ctl_ready()), 1 with
 * the reason otherwise; a probe's command.
 */
static int ready(const struct ctl_cmdline *cl, struct node *n,
		 const char *what)
{
	const char *dir = ctl_state_dir(cl->state_dir);
	char why[1536];
	bool ok = ctl_ready(n, dir, !strcmp(what, "nri"), why, sizeof(why));
	cJSON *j;

	node_close(n);
	if (cl->json) {
		j = cJSON_CreateObject();
		if (!j || !cJSON_AddBoolToObject(j, "ready", ok) ||
		    (!ok && !cJSON_AddStringToObject(j, "reason", why))) {
			cJSON_Delete(j);
			ctl_err("out of memory");
			return CPUMGRCTL_EXIT_FAIL;
		}
		ctl_print_json(j);
	} else if (ok) {
		printf("ready (%s)\n", what);
	}
	if (ok)
		return CPUMGRCTL_EXIT_OK;
	ctl_err("not ready: %s", why);
	return CPUMGRCTL_EXIT_FAIL;
}

static int cmd_status(const struct ctl_cmdline *cl)
{
	const char *what = ctl_val(cl, "ready");
	struct node n;
	cJSON *j;
	int ret;

	ret = ctl_node_start(cl, NODE_READ_ONLY | NODE_RESTRICTED_OK, &n);
	if (ret)
		return ret;
	if (what)
		return ready(cl, &n, what);
	if (!cl->json) {
		ret = ctl_status_print(stdout, &n, NULL);
		node_close(&n);
		print_runtime(ctl_state_dir(cl->state_dir));
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
		{ "ready", 0, "WHAT", CTL_WORD, "node nri", "a probe: exit 0 when the node is set up, the kernel's guarantee armed and no change of settings refused (node), and the NRI plugin registered with the runtime (nri); else 1, the reason on stderr" },
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl status", "cpumgrctl status -j | jq .containers",
		      "cpumgrctl status --ready nri" },
	.run = cmd_status,
};
