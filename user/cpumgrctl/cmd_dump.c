// SPDX-License-Identifier: GPL-2.0
/* cpumgrctl dump: every assignment of the kernel table, one per line. */
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static cJSON *assignment_json(const struct cpumgr_assignment *a)
{
	cJSON *o = cJSON_CreateObject(), *flags;

	cJSON_AddStringToObject(o, "podUID", a->pod_uid);
	cJSON_AddStringToObject(o, "container", a->container);
	cJSON_AddStringToObject(o, "cpus", a->cpus);
	flags = cJSON_AddArrayToObject(o, "flags");
	if (a->flags & CPUMGR_ASSIGNMENT_F_INIT)
		cJSON_AddItemToArray(flags, cJSON_CreateString("init"));
	if (a->flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING)
		cJSON_AddItemToArray(flags,
				     cJSON_CreateString("partition-pending"));
	cJSON_AddNumberToObject(o, "generation", (double)a->generation);
	if (a->cgroup_path) {
		cJSON_AddStringToObject(o, "cgroupPath", a->cgroup_path);
		cJSON_AddNumberToObject(o, "cgroupID", (double)a->cgroup_id);
	}
	if (a->pod_cgroup_path) {
		cJSON_AddStringToObject(o, "podCgroupPath", a->pod_cgroup_path);
		cJSON_AddNumberToObject(o, "podCgroupID",
					(double)a->pod_cgroup_id);
	}
	if (a->pod_cpus)
		cJSON_AddStringToObject(o, "podCpus", a->pod_cpus);
	return o;
}

static int print_json(const struct cpumgr_assignment *list, size_t count)
{
	cJSON *root = cJSON_CreateArray();

	for (size_t i = 0; i < count; i++)
		cJSON_AddItemToArray(root, assignment_json(&list[i]));
	return ctl_print_json(root);
}

static int cmd_dump(const struct ctl_cmdline *cl)
{
	struct cpumgr_assignment *list;
	struct cpumgr_nl *nl;
	int ret;
	size_t count;

	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_list_assignments(nl, &list, &count))
		return ctl_nl_fail(nl, "dump assignments");
	cpumgr_nl_close(nl);
	ret = CPUMGRCTL_EXIT_OK;
	if (cl->json) {
		ret = print_json(list, count);
	} else {
		for (size_t i = 0; i < count; i++) {
			ctl_print_assignment(&list[i]);
			putchar('\n');
		}
	}
	cpumgr_assignments_free(list, count);
	return ret;
}

CPUMGRCTL_COMMAND(dump) = {
	.name = "dump",
	.help = "list every assignment of the kernel table, one per line",
	.opts = (const struct ctl_opt[]){
		CTL_OPT_JSON,
		{ NULL }
	},
	.examples = { "cpumgrctl dump --json" },
	.kernel = true,
	.run = cmd_dump,
};
