// SPDX-License-Identifier: GPL-2.0
/* cpumgrctl table: the kernel table's policy, options, pools and counts. */
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"

static void print_human(const struct cpumgr_table *st)
{
	const char *policy = cpumgr_policy_name(st->policy);

	printf("version         %s\n", st->version);
	printf("generation      %llu\n", (unsigned long long)st->generation);
	if (policy)
		printf("policy          %s\n", policy);
	else
		printf("policy          %u\n", st->policy);
	fputs("options         ", stdout);
	ctl_print_options(st->options);
	putchar('\n');
	printf("online cpus     %s\n", ctl_cpus(st->online_cpus));
	printf("reserved cpus   %s\n", ctl_cpus(st->reserved_cpus));
	printf("shared cpus     %s\n", ctl_cpus(st->shared_cpus));
	printf("exclusive cpus  %s\n", ctl_cpus(st->exclusive_cpus));
	printf("pods            %u\n", st->nr_pods);
	printf("assignments     %u\n", st->nr_assignments);
	printf("enforce         %s\n", cpumgr_enforce_name(st->enforce) ?: "?");
	printf("hotplug         %s\n", cpumgr_hotplug_name(st->hotplug) ?: "?");
	printf("cgroup root     %s\n", st->restricted ? "(root's)" :
	       st->cgroup_root && st->cgroup_root[0] ?
	       st->cgroup_root : "(every non-root cgroup)");
	printf("system cgroup   %s\n", st->restricted ? "(root's)" :
	       st->system_cgroup && st->system_cgroup[0] ?
	       st->system_cgroup : "(none)");
	printf("violations      %llu\n", (unsigned long long)st->violations);
	printf("offlines refused %llu\n",
	       (unsigned long long)st->offlines_refused);
	printf("events dropped  %llu\n", (unsigned long long)st->events_dropped);
	printf("guarantee       %s%s\n", st->armed ? "armed" : "NOT ARMED: ",
	       st->armed ? "" : st->unarmed_reason ?: "?");
	printf("probes missed   %llu\n", (unsigned long long)st->probes_missed);
}

static int print_json(const struct cpumgr_table *st)
{
	cJSON *root = cJSON_CreateObject(), *opts;
	const char *policy = cpumgr_policy_name(st->policy);

	/* the module's version, named as version --json names it */
	cJSON_AddStringToObject(root, "module", st->version ? st->version : "");
	cJSON_AddNumberToObject(root, "generation", (double)st->generation);
	if (policy)
		cJSON_AddStringToObject(root, "policy", policy);
	else
		cJSON_AddNumberToObject(root, "policy", st->policy);
	opts = cJSON_AddArrayToObject(root, "options");
	for (uint32_t bit = 1; bit; bit <<= 1) {
		if (st->options & bit && cpumgr_option_name(bit))
			cJSON_AddItemToArray(opts,
				cJSON_CreateString(cpumgr_option_name(bit)));
	}
	cJSON_AddStringToObject(root, "onlineCpus", st->online_cpus ?: "");
	cJSON_AddStringToObject(root, "reservedCpus", st->reserved_cpus ?: "");
	cJSON_AddStringToObject(root, "sharedCpus", st->shared_cpus ?: "");
	cJSON_AddStringToObject(root, "exclusiveCpus", st->exclusive_cpus ?: "");
	cJSON_AddNumberToObject(root, "podCount", st->nr_pods);
	cJSON_AddNumberToObject(root, "assignmentCount", st->nr_assignments);
	cJSON_AddStringToObject(root, "enforce",
				cpumgr_enforce_name(st->enforce) ?: "");
	cJSON_AddStringToObject(root, "hotplug",
				cpumgr_hotplug_name(st->hotplug) ?: "");
	/* absent in the reduced view: "" would mean every cgroup */
	cJSON_AddBoolToObject(root, "restricted", st->restricted);
	if (!st->restricted) {
		cJSON_AddStringToObject(root, "cgroupRoot",
					st->cgroup_root ?: "");
		cJSON_AddStringToObject(root, "systemCgroup",
					st->system_cgroup ?: "");
	}
	cJSON_AddNumberToObject(root, "violations", (double)st->violations);
	cJSON_AddNumberToObject(root, "offlinesRefused",
				(double)st->offlines_refused);
	cJSON_AddNumberToObject(root, "eventsDropped",
				(double)st->events_dropped);
	cJSON_AddBoolToObject(root, "armed", st->armed);
	if (st->unarmed_reason)
		cJSON_AddStringToObject(root, "unarmedReason",
					st->unarmed_reason);
	cJSON_AddNumberToObject(root, "probesMissed",
				(double)st->probes_missed);
	return ctl_print_json(root);
}

static int cmd_table(const struct ctl_cmdline *cl)
{
	struct cpumgr_table st;
	struct cpumgr_nl *nl;
	int ret;

	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_get_table(nl, &st))
		return ctl_nl_fail(nl, "get state");
	cpumgr_nl_close(nl);
	ret = CPUMGRCTL_EXIT_OK;
	if (cl->json)
		ret = print_json(&st);
	else
		print_human(&st);
	cpumgr_table_free(&st);
	return ret;
}

CPUMGRCTL_COMMAND(table) = {
	.name = "table",
	.help = "show the kernel table: policy, options, CPU pools, counts",
	.opts = (const struct ctl_opt[]){
		CTL_OPT_JSON,
		{ NULL }
	},
	.examples = { "cpumgrctl table", "cpumgrctl -j table" },
	.kernel = true,
	.run = cmd_table,
};
