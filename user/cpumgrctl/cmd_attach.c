// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl attach: put an admitted container in its cgroup: bind it in
 * the kernel, write its cpuset (its own CPUs or the shared pool) and its
 * CFS limits, then optionally move a task in.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "ctl_node.h"

static int cmd_attach(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pod", required_argument, NULL, 'p' },
		{ "container", required_argument, NULL, 'c' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "pod-cgroup", required_argument, NULL, 'P' },
		{ "create", no_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, 'i' },
		CTL_STATE_DIR_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	struct node_attach a = { 0 };
	struct cm_error err = { 0 };
	const char *dir = NULL;
	struct node n;
	char *end;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			a.pod_uid = optarg;
			break;
		case 'c':
			a.container = optarg;
			break;
		case 'g':
			a.cgroup = optarg;
			break;
		case 'P':
			a.pod_cgroup = optarg;
			break;
		case 'C':
			a.create = true;
			break;
		case 'i':
			a.pid = (int)strtol(optarg, &end, 10);
			if (*end || a.pid <= 0) {
				ctl_err("--pid: '%s' is not a process id",
					optarg);
				return CPUMGRCTL_EXIT_USAGE;
			}
			break;
		case CTL_OPT_STATE_DIR:
			dir = optarg;
			break;
		default:
			return ctl_usage(argv[0]);
		}
	}
	if (optind != argc || !a.pod_uid || !a.container || !a.cgroup)
		return ctl_usage(argv[0]);
	ret = ctl_node_open(&n, dir, NODE_NEED_CONFIG);
	if (ret)
		return ret;
	if (node_attach_check(&n, &a, &err))
		return ctl_node_bad_input(&n, &err, "attach");
	if (node_attach(&n, &a, &err))
		return ctl_node_fail(&n, &err, "attach");
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(attach, "attach",
		  "--pod UID --container NAME --cgroup PATH [--pod-cgroup PATH] [--create]\n"
		  "\t\t[--pid PID] [--state-dir DIR]",
		  "bind a container to its cgroup (absolute, or relative to the managed root) and apply its CPUs",
		  cmd_attach);
