// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl reset: release every assignment and return the kernel table
 * to its state after load (the counters stay).  With a state directory
 * (one init made), pods admitted there are not dropped silently: reset
 * lists them and refuses unless --force, which also clears the pod files
 * and the checkpoint's entries (the configuration stays).  Only when no
 * state directory exists is it the kernel's RESET alone.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"

/* The node's state directory, when there is one to keep in line. */
static int reset_node(const char *dir, bool force, const uint64_t *expect,
		      uint64_t *gen, bool *done)
{
	struct cm_error err = { 0 };
	struct node n;

	*done = false;
	/*
	 * No state directory at all (and none asked for): the kernel
	 * alone.  Any other failure to open it (a bad config.json or pod
	 * file, the lock, cgroups, the module) stops the reset: it must
	 * not skip the guard for admitted pods.
	 */
	if (!dir && access(ctl_state_dir(NULL), F_OK) && errno == ENOENT)
		return CPUMGRCTL_EXIT_OK;
	if (node_open(&n, ctl_state_dir(dir), NODE_NO_SYNC, &err)) {
		ctl_err("%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	*done = true;
	if (n.files.has_config && !force && (n.nr_pods || n.kernel.nr_as)) {
		for (unsigned int i = 0; i < n.nr_pods; i++)
			fprintf(stderr, "admitted: %s (%s)\n",
				n.pods[i].pod.uid, n.pods[i].pod.name ?: "");
		for (size_t i = 0; i < n.kernel.nr_as; i++)
			if (!node_find_pod(&n, n.kernel.as[i].pod_uid))
				fprintf(stderr, "assigned: %s/%s\n",
					n.kernel.as[i].pod_uid, n.kernel.as[i].container);
		ctl_err("pods hold CPUs on this node (listed above): remove them, or reset --force");
		node_close(&n);
		return CPUMGRCTL_EXIT_FAIL;
	}
	if (cpumgr_nl_reset(n.kernel.nl, expect, gen)) {
		node_nl_error(&n, "reset", &err);
		return ctl_node_fail(&n, &err, NULL);
	}
	while (n.nr_pods)
		if (node_delete_pod(&n, n.pods[0].pod.uid, &err))
			return ctl_node_fail(&n, &err, "reset");
	if (n.files.has_config &&
	    (node_refresh(&n, &err) || node_save_checkpoint(&n, NODE_FORCE, &err)))
		return ctl_node_fail(&n, &err, "reset");
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

static int cmd_reset(const struct ctl_cmdline *cl)
{
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	bool check, done;
	int ret;

	if (!ctl_generation(cl, &expect, &check))
		return CPUMGRCTL_EXIT_USAGE;
	ret = reset_node(cl->state_dir, ctl_flag(cl, "force"),
			 check ? &expect : NULL, &gen, &done);
	if (ret)
		return ret;
	if (!done) {
		nl = ctl_nl_open();
		if (!nl)
			return CPUMGRCTL_EXIT_FAIL;
		if (cpumgr_nl_reset(nl, check ? &expect : NULL, &gen))
			return ctl_nl_fail(nl, "reset");
		cpumgr_nl_close(nl);
	}
	printf("generation %llu\n", (unsigned long long)gen);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(reset) = {
	.name = "reset",
	.help = "release every assignment, back to the state after load (counters stay); --force also drops admitted pods",
	.opts = (const struct ctl_opt[]){
		{ "force", 'f', NULL, CTL_ANY, NULL, "also when pods are admitted: drop them and their checkpoint entries" },
		CTL_OPT_GENERATION,
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl reset --force" },
	.run = cmd_reset,
};
