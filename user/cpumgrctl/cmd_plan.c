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
		ctl_err("plan: out of memory");
	}
	fflush(stdout);
}

static int fail(struct cm_error *err)
{
	cJSON *res = cJSON_CreateObject();

	ctl_err("plan: %s", cm_error_msg(err));
	cJSON_AddStringToObject(res, "error", cm_error_msg(err));
	print_result(res);
	cJSON_Delete(res);
	return CPUMGRCTL_EXIT_USAGE;
}

static int cmd_plan(int argc, char **argv)
{
	struct cm_error err = { 0 };
	const char *path = "-";
	cJSON *req, *res = NULL;
	int ret;

	if (argc > 2 || (argc == 2 && (!strcmp(argv[1], "-h") ||
				       !strcmp(argv[1], "--help"))))
		return ctl_usage(argv[0]);
	if (argc == 2)
		path = argv[1];
	req = json_load(path, &err);
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

CPUMGRCTL_COMMAND(plan, "plan", "[FILE|-]",
		  "offline allocation what-if: read a JSON request, print the kubelet's decision",
		  cmd_plan);
