// SPDX-License-Identifier: GPL-2.0
/* cpumgrctl assign: give one container CPUs in the kernel table. */
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static int cmd_assign(const struct ctl_cmdline *cl)
{
	uint32_t flags = ctl_flag(cl, "init") ? CPUMGR_ASSIGNMENT_F_INIT : 0;
	struct cpumgr_assignment a;
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	bool check;

	if (ctl_flag(cl, "narrowed"))
		flags |= CPUMGR_NL_ASSIGN_NARROWED;
	if (ctl_flag(cl, "partition-pending"))
		flags |= CPUMGR_ASSIGNMENT_F_PARTITION_PENDING;
	if (!ctl_generation(cl, &expect, &check) ||
	    !ctl_parse_cpulist("CPULIST", cl->arg[2], false))
		return CPUMGRCTL_EXIT_USAGE;
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_assign(nl, cl->arg[0], cl->arg[1], cl->arg[2], flags,
			     check ? &expect : NULL, &gen, &a))
		return ctl_nl_fail(nl, "assign %s/%s", cl->arg[0], cl->arg[1]);
	cpumgr_nl_close(nl);
	printf("%s %s cpus %s%s%s generation %llu\n", a.pod_uid, a.container,
	       a.cpus, a.flags & CPUMGR_ASSIGNMENT_F_INIT ? " init" : "",
	       a.flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING ?
	       " partition-pending" : "", (unsigned long long)gen);
	cpumgr_assignment_free(&a);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(assign) = {
	.name = "assign",
	.help = "give a container exclusive CPUs in the kernel table",
	.args = (const struct ctl_pos[]){
		{ "POD", CTL_ANY, NULL, false, "the pod's UID" },
		{ "CONTAINER", CTL_ANY, NULL, false, "the container's name" },
		{ "CPULIST", CTL_ANY, NULL, false, "its CPUs, a cpulist" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		{ "init", 'i', NULL, CTL_ANY, NULL, "an init container's CPUs (its app containers may reuse them)" },
		{ "narrowed", 0, NULL, CTL_ANY, NULL, "the CPUs it gains left every other cgroup first: the kernel refuses the assignment where a cgroup with tasks still holds one" },
		{ "partition-pending", 0, NULL, CTL_ANY, NULL, "it has no task yet, and its cgroup becomes a partition of its CPUs before one: tasks may enter the cgroups that still hold them meanwhile, not its own; an assign without it then is refused while a cgroup with tasks still holds one" },
		CTL_OPT_GENERATION,
		{ NULL }
	},
	.examples = { "cpumgrctl assign 7c5f0d8e-pod app 2-3" },
	.kernel = true,
	.run = cmd_assign,
};
