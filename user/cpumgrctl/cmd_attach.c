// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl attach: put an admitted container in its cgroup: bind it in
 * the kernel, write its cpuset (its own CPUs or the shared pool) and its
 * CFS limits, then optionally move a task in.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "ctl_node.h"

static int cmd_attach(const struct ctl_cmdline *cl)
{
	struct node_attach a = {
		.pod_uid = ctl_val(cl, "pod"),
		.container = ctl_val(cl, "container"),
		.cgroup = ctl_val(cl, "cgroup"),
		.pod_cgroup = ctl_val(cl, "pod-cgroup"),
		.create = ctl_flag(cl, "create"),
	};
	const char *pid = ctl_val(cl, "pid");
	struct cm_error err = { 0 };
	struct node n;
	char *end;
	int ret;

	if (pid) {
		a.pid = (int)strtol(pid, &end, 10);
		if (*end || a.pid <= 0) {
			ctl_err("--pid: '%s' is not a process id", pid);
			return CPUMGRCTL_EXIT_USAGE;
		}
	}
	if (!a.pod_uid || !a.container || !a.cgroup) {
		ctl_err("needs --pod, --container and --cgroup");
		return CPUMGRCTL_EXIT_USAGE;
	}
	ret = ctl_node_start(cl, NODE_NEED_CONFIG, &n);
	if (ret)
		return ret;
	if (node_attach_check(&n, &a, &err))
		return ctl_node_bad_input(&n, &err, "attach");
	if (node_attach(&n, &a, &err))
		return ctl_node_fail(&n, &err, "attach");
	if (n.warning[0])
		ctl_note("%s", n.warning);
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(attach) = {
	.name = "attach",
	.help = "bind a container to its cgroup (absolute, or relative to the managed root) and apply its CPUs",
	.opts = (const struct ctl_opt[]){
		{ "pod", 0, "UID", CTL_ANY, NULL, "the admitted pod (required)" },
		{ "container", 0, "NAME", CTL_ANY, NULL, "its container (required)" },
		{ "cgroup", 0, "PATH", CTL_DIR, NULL, "the container's cgroup (required)" },
		{ "pod-cgroup", 0, "PATH", CTL_DIR, NULL, "the pod's cgroup" },
		{ "create", 0, NULL, CTL_ANY, NULL, "make the cgroups that do not exist" },
		{ "pid", 0, "PID", CTL_ANY, NULL, "then move this process into the container's cgroup" },
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl attach --pod 7c5f0d8e-pod --container app --cgroup pod7c5f/app --create --pid 4242" },
	.run = cmd_attach,
};
