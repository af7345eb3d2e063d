// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl plan [FILE]: offline what-if for the allocator and the static
 * policy.  Reads one JSON request (FILE or stdin), runs plan_run() on it
 * (plan.h has the request's forms) and prints the result.  Exit 0 with
 * the result, or 2 with {"error": "..."} when the request as a whole
 * fails (bad input, or a take that cannot be satisfied).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "cmd.h"
#include "json_util.h"
#include "plan.h"

/* cJSON's layout and a newline, as every other command prints JSON. */
static void print_result(cJSON *res)
{
	char *text = cJSON_Print(res);

	if (text) {
		puts(text);
		free(text);
	} else {
		ctl_err("out of memory");
	}
	fflush(stdout);
}

static int fail(struct cm_error *err)
{
	cJSON *res = cJSON_CreateObject();

	ctl_err("%s", cm_error_msg(err));
	cJSON_AddStringToObject(res, "error", cm_error_msg(err));
	print_result(res);
	cJSON_Delete(res);
	return CPUMGRCTL_EXIT_USAGE;
}

static int cmd_plan(const struct ctl_cmdline *cl)
{
	const char *path = cl->nr ? cl->arg[0] : "-";
	struct cm_error err = { 0 };
	cJSON *req, *res = NULL;
	int ret;

	req = json_load(path, &err);
	/* --kubelet-version: the request's kubeletVersion */
	if (req && cJSON_IsObject(req) && ctl_val(cl, "kubelet-version")) {
		cJSON_DeleteItemFromObjectCaseSensitive(req, "kubeletVersion");
		cJSON_AddStringToObject(req, "kubeletVersion",
					ctl_val(cl, "kubelet-version"));
	}
	if (req)
		res = plan_run(req, &err);
	if (res) {
		print_result(res);
		ret = CPUMGRCTL_EXIT_OK;
	} else {
		ret = fail(&err);
	}
	cJSON_Delete(res);
	cJSON_Delete(req);
	cm_error_clear(&err);
	return ret;
}

CPUMGRCTL_COMMAND(plan) = {
	.name = "plan",
	.help = "offline allocation what-if: read a JSON request, print the kubelet's decision",
	.args = (const struct ctl_pos[]){
		{ "FILE|-", CTL_FILE, NULL, true, "the JSON request (default stdin)" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		{ "json", 'j', NULL, CTL_ANY, NULL, "JSON output (plan prints JSON anyway)" },
		{ "kubelet-version", 0, "VERSION", CTL_ANY, NULL, "answer as that kubelet (1.32 to 1.37) where they differ: option levels, the NUMA floor of a hint, an empty shared pool under strict-cpu-reservation, the checkpoint version (the request's kubeletVersion)" },
		{ NULL }
	},
	.examples = {
		"cpumgrctl plan examples/plan/take-dual-socket-ht.json",
		"echo '{\"topology\": {\"sysfs\": \"/sys\"}, \"available\": \"0-3\", \"count\": 2}' | cpumgrctl plan",
	},
	.always_json = true,
	.run = cmd_plan,
};
