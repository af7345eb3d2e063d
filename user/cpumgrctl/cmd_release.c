// SPDX-License-Identifier: GPL-2.0
/* cpumgrctl release: give a container's or a whole pod's CPUs back. */
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static int cmd_release(const struct ctl_cmdline *cl)
{
	const char *pod = cl->arg[0], *container = cl->nr == 2 ? cl->arg[1] : NULL;
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	bool check;

	if (!ctl_generation(cl, &expect, &check))
		return CPUMGRCTL_EXIT_USAGE;
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_release(nl, pod, container, check ? &expect : NULL, &gen))
		return ctl_nl_fail(nl, "release %s%s%s", pod,
				   container ? "/" : "", container ?: "");
	cpumgr_nl_close(nl);
	printf("generation %llu\n", (unsigned long long)gen);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(release) = {
	.name = "release",
	.help = "release a container's CPUs, or every container of the pod",
	.args = (const struct ctl_pos[]){
		{ "POD", CTL_ANY, NULL, false, "the pod's UID" },
		{ "CONTAINER", CTL_ANY, NULL, true, "the container's name (default: every container of the pod)" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		CTL_OPT_GENERATION,
		{ NULL }
	},
	.examples = { "cpumgrctl release 7c5f0d8e-pod app" },
	.kernel = true,
	.run = cmd_release,
};
