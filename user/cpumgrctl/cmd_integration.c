// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl integration: which of cpumgr's ways into the container
 * runtime are live (show), or every one off (off), the node's own
 * settings left alone.  init --integration chooses one; the package's
 * prerm runs `integration off` on removal, so that no runtime is left
 * with a hook or a plugin naming a cpumgrctl that is gone.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "ctl_integration.h"

static int cmd_integration(const struct ctl_cmdline *cl)
{
	struct ctl_integration_env env;
	struct cm_error err = { 0 };

	ctl_integration_env_default(&env);
	if (cl->nr && !strcmp(cl->arg[0], "off")) {
		if (!ctl_integration_apply(CTL_INTEGRATION_NONE, &env, stdout,
					   &err))
			return CPUMGRCTL_EXIT_OK;
		ctl_err("off: %s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	if (!ctl_integration_show(&env, stdout))
		puts("none: no NRI plugin, no OCI hook of cpumgr's");
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(integration) = {
	.name = "integration",
	.help = "show the ways into the container runtime that are live (NRI units, OCI hooks, a launched NRI plugin), or turn them all off",
	.args = (const struct ctl_pos[]){
		{ "ACTION", CTL_WORD, "show off", true, "show (the default) or off" },
		{ NULL }
	},
	.examples = {
		"cpumgrctl integration",
		"cpumgrctl integration off",
	},
	.run = cmd_integration,
};
