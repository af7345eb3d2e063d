// SPDX-License-Identifier: GPL-2.0
/* cpumgrctl pool: set a pod's pool (KEP-5526) in the kernel table. */
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static int cmd_pool(const struct ctl_cmdline *cl)
{
	const char *pod = cl->arg[0], *cpus = cl->arg[1];
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	bool check;

	if (!ctl_generation(cl, &expect, &check) ||
	    !ctl_parse_cpulist("CPULIST", cpus, true))
		return CPUMGRCTL_EXIT_USAGE;
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_assign_pool(nl, pod, cpus, check ? &expect : NULL, &gen))
		return ctl_nl_fail(nl, "pool %s", pod);
	cpumgr_nl_close(nl);
	printf("%s pod-cpus %s generation %llu\n", pod,
	       *cpus ? cpus : "(none)", (unsigned long long)gen);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(pool) = {
	.name = "pool",
	.help = "set the pool of a pod the kernel table holds (KEP-5526 pod-level resources): the CPUs its containers' slices and shares come from; those no container holds stay in the pod's cgroups",
	.args = (const struct ctl_pos[]){
		{ "POD", CTL_ANY, NULL, false, "the pod's UID" },
		{ "CPULIST", CTL_ANY, NULL, false, "the pool, a cpulist holding every CPU of the pod's containers (\"\" drops it; it goes with the pod's last container anyway)" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		CTL_OPT_GENERATION,
		{ NULL }
	},
	.examples = { "cpumgrctl pool 7c5f0d8e-pod 2-5" },
	.kernel = true,
	.run = cmd_pool,
};
