// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl version (and cpumgrctl --version): the controller's version
 * and the module's, if loaded; --json for scripts.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "ctl_nl.h"

#define CPUMGRCTL_VERSION "0.1.0"

static int cmd_version(const struct ctl_cmdline *cl)
{
	char buf[64] = "";
	cJSON *j;
	FILE *f;

	f = fopen("/sys/kernel/cpumgr/version", "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	if (!cl->json) {
		printf("cpumgrctl %s\n", CPUMGRCTL_VERSION);
		if (f)
			printf("cpumgr.ko %s\n", buf);
		else
			printf("cpumgr.ko not loaded\n");
		return CPUMGRCTL_EXIT_OK;
	}
	j = cJSON_CreateObject();
	if (!j || !cJSON_AddStringToObject(j, "cpumgrctl", CPUMGRCTL_VERSION) ||
	    !(f ? cJSON_AddStringToObject(j, "module", buf) :
		  cJSON_AddNullToObject(j, "module"))) {
		cJSON_Delete(j);
		ctl_err("out of memory");
		return CPUMGRCTL_EXIT_FAIL;
	}
	return ctl_print_json(j);
}

CPUMGRCTL_COMMAND(version) = {
	.name = "version",
	.help = "print the controller's and the module's version (--json: cpumgrctl, module or null)",
	.opts = (const struct ctl_opt[]){
		CTL_OPT_JSON,
		{ NULL }
	},
	.examples = { "cpumgrctl --version" },
	.run = cmd_version,
};
