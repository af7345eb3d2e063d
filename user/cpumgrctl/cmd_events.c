// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl events: follow the kernel's notifications and print one line
 * each, the way `ip monitor` does; --json: one JSON object per line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ctl_nl.h"

/* "kind K verdict V cgroup PATH pid P comm C file F cpus L" */
static void print_violation(const struct cpumgr_event *ev)
{
	const char *kind = cpumgr_violation_name(ev->kind);
	const char *verdict = cpumgr_verdict_name(ev->verdict);

	if (kind)
		printf(" kind %s", kind);
	else
		printf(" kind %u", ev->kind);
	if (verdict)
		printf(" verdict %s", verdict);
	else
		printf(" verdict %u", ev->verdict);
	printf(" cgroup %s pid %u comm %s file %s cpus %s",
	       ev->assignment.cgroup_path ?: "(none)", ev->pid, ev->comm,
	       ev->file, ctl_cpus(ev->assignment.cpus));
}

static void print_event(const struct cpumgr_event *ev)
{
	const char *name = cpumgr_event_name(ev->type);
	const struct cpumgr_table *st = &ev->table;

	if (name)
		fputs(name, stdout);
	else
		printf("event %d", ev->type);
	printf(" generation %llu", (unsigned long long)ev->generation);
	switch (ev->type) {
	case CPUMGR_CMD_ASSIGNED_NTF:
	case CPUMGR_CMD_RELEASED_NTF:
	case CPUMGR_CMD_BOUND_NTF:
		putchar(' ');
		ctl_print_assignment(&ev->assignment);
		break;
	case CPUMGR_CMD_CONFIGURED_NTF:
		printf(" policy %s options ",
		       cpumgr_policy_name(st->policy) ?: "unknown");
		ctl_print_options(st->options);
		printf(" reserved %s", ctl_cpus(st->reserved_cpus));
		break;
	case CPUMGR_CMD_RESTORED_NTF:
		printf(" pods %u assignments %u", st->nr_pods,
		       st->nr_assignments);
		break;
	case CPUMGR_CMD_VIOLATION_NTF:
		print_violation(ev);
		break;
	case CPUMGR_CMD_OFFLINE_REFUSED_NTF:
		printf(" cpu %u pid %u comm %s", ev->cpu, ev->pid, ev->comm);
		break;
	case CPUMGR_CMD_CPU_OFFLINE_NTF:
	case CPUMGR_CMD_CPU_ONLINE_NTF:
		printf(" cpu %u", ev->cpu);
		break;
	case CPUMGR_CMD_DEGRADED_NTF:
		printf(" cpu %u ", ev->cpu);
		ctl_print_assignment(&ev->assignment);
		break;
	case CPUMGR_CMD_ARMED_NTF:
		printf(" %s probes-missed %llu", st->armed ? "yes" : "no",
		       (unsigned long long)st->probes_missed);
		if (st->unarmed_reason)
			printf(" reason %s", st->unarmed_reason);
		break;
	}
	putchar('\n');
	/* Readers are often pipes: a line is worth nothing if it waits. */
	fflush(stdout);
}

static void add_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
}

/* The assignment's fields, named as dump --json names them. */
static void add_assignment(cJSON *o, const struct cpumgr_assignment *a)
{
	if (a->pod_uid[0])
		cJSON_AddStringToObject(o, "podUID", a->pod_uid);
	if (a->container[0])
		cJSON_AddStringToObject(o, "container", a->container);
	add_str(o, "cpus", a->cpus);
	if (a->flags & CPUMGR_ASSIGNMENT_F_INIT)
		cJSON_AddBoolToObject(o, "init", true);
	add_str(o, "cgroupPath", a->cgroup_path);
	add_str(o, "podCgroupPath", a->pod_cgroup_path);
}

/* One compact JSON object per event and line, the type as the line's. */
static int print_event_json(const struct cpumgr_event *ev)
{
	const struct cpumgr_table *st = &ev->table;
	cJSON *o = cJSON_CreateObject(), *opts;
	const char *name = cpumgr_event_name(ev->type);
	char *text;

	if (!o)
		return -ENOMEM;
	if (name)
		cJSON_AddStringToObject(o, "event", name);
	else
		cJSON_AddNumberToObject(o, "event", ev->type);
	cJSON_AddNumberToObject(o, "generation", (double)ev->generation);
	switch (ev->type) {
	case CPUMGR_CMD_ASSIGNED_NTF:
	case CPUMGR_CMD_RELEASED_NTF:
	case CPUMGR_CMD_BOUND_NTF:
		add_assignment(o, &ev->assignment);
		break;
	case CPUMGR_CMD_CONFIGURED_NTF:
		add_str(o, "policy", cpumgr_policy_name(st->policy) ?: "unknown");
		opts = cJSON_AddArrayToObject(o, "options");
		for (uint32_t bit = 1; opts && bit; bit <<= 1)
			if ((st->options & bit) && cpumgr_option_name(bit))
				cJSON_AddItemToArray(opts, cJSON_CreateString(
						cpumgr_option_name(bit)));
		add_str(o, "reservedCpus", st->reserved_cpus ?: "");
		break;
	case CPUMGR_CMD_RESTORED_NTF:
		cJSON_AddNumberToObject(o, "podCount", st->nr_pods);
		cJSON_AddNumberToObject(o, "assignmentCount",
					st->nr_assignments);
		break;
	case CPUMGR_CMD_VIOLATION_NTF:
		add_str(o, "kind", cpumgr_violation_name(ev->kind));
		add_str(o, "verdict", cpumgr_verdict_name(ev->verdict));
		add_str(o, "cgroupPath", ev->assignment.cgroup_path ?: "");
		cJSON_AddNumberToObject(o, "pid", ev->pid);
		cJSON_AddStringToObject(o, "comm", ev->comm);
		cJSON_AddStringToObject(o, "file", ev->file);
		add_str(o, "cpus", ev->assignment.cpus ?: "");
		break;
	case CPUMGR_CMD_OFFLINE_REFUSED_NTF:
		cJSON_AddNumberToObject(o, "cpu", ev->cpu);
		cJSON_AddNumberToObject(o, "pid", ev->pid);
		cJSON_AddStringToObject(o, "comm", ev->comm);
		break;
	case CPUMGR_CMD_CPU_OFFLINE_NTF:
	case CPUMGR_CMD_CPU_ONLINE_NTF:
		cJSON_AddNumberToObject(o, "cpu", ev->cpu);
		break;
	case CPUMGR_CMD_DEGRADED_NTF:
		cJSON_AddNumberToObject(o, "cpu", ev->cpu);
		add_assignment(o, &ev->assignment);
		break;
	case CPUMGR_CMD_ARMED_NTF:
		cJSON_AddBoolToObject(o, "armed", st->armed);
		add_str(o, "unarmedReason", st->unarmed_reason);
		cJSON_AddNumberToObject(o, "probesMissed",
					(double)st->probes_missed);
		break;
	}
	text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!text)
		return -ENOMEM;
	puts(text);
	free(text);
	fflush(stdout);
	return 0;
}

static int cmd_events(const struct ctl_cmdline *cl)
{
	const char *c = ctl_val(cl, "count");
	uint64_t count = 0, seen = 0;
	struct cpumgr_event ev;
	struct cpumgr_nl *nl;
	int err;

	if (c && !ctl_parse_u64("--count", c, &count))
		return CPUMGRCTL_EXIT_USAGE;
	if (c && !count) {
		ctl_err("--count: '%s': needs a positive number", c);
		return CPUMGRCTL_EXIT_USAGE;
	}
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_subscribe(nl))
		return ctl_nl_fail(nl, "subscribe to events");
	while (!count || seen < count) {
		err = cpumgr_nl_recv_event(nl, &ev, -1);
		if (err == -ENOBUFS) {
			/* Say so and go on: the next events are still true. */
			ctl_err("%s: %s", strerror(ENOBUFS),
				cpumgr_nl_errmsg(nl));
			continue;
		}
		if (err)
			return ctl_nl_fail(nl, "receive events");
		if (!cl->json)
			print_event(&ev);
		else if (print_event_json(&ev)) {
			cpumgr_event_free(&ev);
			ctl_err("events: out of memory");
			cpumgr_nl_close(nl);
			return CPUMGRCTL_EXIT_FAIL;
		}
		cpumgr_event_free(&ev);
		seen++;
	}
	cpumgr_nl_close(nl);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(events) = {
	.name = "events",
	.help = "print the kernel's notifications as they come, one line (--json: one object) each",
	.opts = (const struct ctl_opt[]){
		{ "count", 'c', "N", CTL_ANY, NULL, "stop after N notifications" },
		CTL_OPT_JSON,
		{ NULL }
	},
	.examples = { "cpumgrctl events --json --count 10" },
	.kernel = true,
	.run = cmd_events,
};
