// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl bind: record in the kernel table the cgroup of a container
 * and/or of its pod, the cgroups allowed to hold the container's CPUs.
 */
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static int cmd_bind(const struct ctl_cmdline *cl)
{
	const char *pod = cl->arg[0], *container = cl->nr == 2 ? cl->arg[1] : NULL;
	const char *cgroup = ctl_val(cl, "cgroup");
	const char *pod_cgroup = ctl_val(cl, "pod-cgroup");
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	bool check;

	if (!ctl_generation(cl, &expect, &check))
		return CPUMGRCTL_EXIT_USAGE;
	if (!cgroup && !pod_cgroup) {
		ctl_err("give --cgroup, --pod-cgroup or both");
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (cgroup && !container) {
		ctl_err("--cgroup needs a CONTAINER");
		return CPUMGRCTL_EXIT_USAGE;
	}
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_bind(nl, pod, container, cgroup, pod_cgroup,
			   check ? &expect : NULL, &gen))
		return ctl_nl_fail(nl, "bind %s%s%s", pod, container ? "/" : "",
				   container ?: "");
	cpumgr_nl_close(nl);
	printf("generation %llu\n", (unsigned long long)gen);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(bind) = {
	.name = "bind",
	.help = "bind a container and/or its pod to cgroup directories (\"\" unbinds)",
	.args = (const struct ctl_pos[]){
		{ "POD", CTL_ANY, NULL, false, "the pod's UID" },
		{ "CONTAINER", CTL_ANY, NULL, true, "the container's name (needed with --cgroup)" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		{ "cgroup", 0, "PATH", CTL_DIR, NULL, "the container's cgroup directory" },
		{ "pod-cgroup", 0, "PATH", CTL_DIR, NULL, "the pod's cgroup directory" },
		CTL_OPT_GENERATION,
		{ NULL }
	},
	.examples = { "cpumgrctl bind 7c5f0d8e-pod app --cgroup /sys/fs/cgroup/kubepods/pod7c5f/app" },
	.kernel = true,
	.run = cmd_bind,
};
