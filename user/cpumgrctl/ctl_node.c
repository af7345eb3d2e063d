// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "ctl_node.h"

int ctl_node_start(const struct ctl_cmdline *cl, unsigned int flags,
		   struct node *n)
{
	return ctl_node_open(n, cl->state_dir, flags);
}

const char *ctl_state_dir(const char *given)
{
	const char *env = getenv("CPUMGR_STATE_DIR");

	if (given)
		return given;
	return env && *env ? env : NODE_STATE_DIR;
}

int ctl_node_open(struct node *n, const char *dir, unsigned int flags)
{
	struct cm_error err = { 0 };

	if (node_open(n, ctl_state_dir(dir), flags, &err)) {
		const char *msg = cm_error_msg(&err);
		char cfg[PATH_MAX];
		bool none, no_module;

		/*
		 * The next step: the module when it is not loaded; else, but
		 * for init itself, a node with no init behind it needs one.
		 */
		snprintf(cfg, sizeof(cfg), "%s/%s", ctl_state_dir(dir),
			 NODE_CONFIG_FILE);
		no_module = strstr(msg, "connect to cpumgr") &&
			    access("/sys/kernel/cpumgr", F_OK);
		none = !(flags & NODE_CREATE) && access(cfg, F_OK) &&
		       errno == ENOENT && !strstr(msg, "cpumgrctl init");
		ctl_err("%s%s", msg,
			no_module ? ": load the module first (modprobe cpumgr)" :
			none ? ": run 'cpumgrctl init' first" : "");
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	n->log = stdout;
	return CPUMGRCTL_EXIT_OK;
}

static int report(struct node *n, struct cm_error *err, const char *what,
		  int status)
{
	ctl_err("%s%s%s", what ? what : "", what ? ": " : "",
		cm_error_msg(err));
	cm_error_clear(err);
	node_close(n);
	return status;
}

int ctl_node_fail(struct node *n, struct cm_error *err, const char *what)
{
	return report(n, err, what, CPUMGRCTL_EXIT_FAIL);
}

int ctl_node_bad_input(struct node *n, struct cm_error *err,
		       const char *what)
{
	return report(n, err, what, CPUMGRCTL_EXIT_USAGE);
}
