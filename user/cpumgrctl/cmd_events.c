// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl events: follow the kernel's notifications and print one line
 * each, the way `ip monitor` does.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
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
	const struct cpumgr_state *st = &ev->state;

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
	}
	putchar('\n');
	/* Readers are often pipes: a line is worth nothing if it waits. */
	fflush(stdout);
}

static int cmd_events(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t count = 0, seen = 0;
	struct cpumgr_event ev;
	struct cpumgr_nl *nl;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "c:", longopts, NULL)) != -1) {
		if (opt != 'c')
			return ctl_usage(argv[0]);
		if (!ctl_parse_u64("--count", optarg, &count) || !count) {
			ctl_err("--count: needs a positive number");
			return CPUMGRCTL_EXIT_USAGE;
		}
	}
	if (optind != argc)
		return ctl_usage(argv[0]);
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_subscribe(nl))
		return ctl_nl_fail(nl, "subscribe to events");
	while (!count || seen < count) {
		err = cpumgr_nl_recv_event(nl, &ev, -1);
		if (err == -ENOBUFS) {
			/* Say so and go on: the next events are still true. */
			ctl_err("events: %s: %s", strerror(ENOBUFS),
				cpumgr_nl_errmsg(nl));
			continue;
		}
		if (err)
			return ctl_nl_fail(nl, "receive events");
		print_event(&ev);
		cpumgr_event_free(&ev);
		seen++;
	}
	cpumgr_nl_close(nl);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(events, "events", "[--count N]",
		  "print the kernel's notifications as they come, one line each",
		  cmd_events);
