/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the node subcommands share: opening the node (lock, kernel,
 * sync) from the command line and one-line failures.
 */
#ifndef CPUMGRCTL_CTL_NODE_H
#define CPUMGRCTL_CTL_NODE_H

#include <stdbool.h>

#include "cmd.h"
#include "node.h"

/* The state directory: --state-dir, else CPUMGR_STATE_DIR, else default. */
const char *ctl_state_dir(const char *given);

/*
 * node_open() with commands' output on stdout; prints the failure (with
 * "run 'cpumgrctl init' first" when there is no state directory).
 */
int ctl_node_open(struct node *n, const char *dir, unsigned int flags);
/* ctl_node_open() on the command line's --state-dir. */
int ctl_node_start(const struct ctl_cmdline *cl, unsigned int flags,
		   struct node *n);
/* "cpumgrctl: CMD: <what>: <message>", closes the node; returns 1. */
int ctl_node_fail(struct node *n, struct cm_error *err, const char *what);
/* The same for arguments or a file the node cannot take; returns 2. */
int ctl_node_bad_input(struct node *n, struct cm_error *err,
		       const char *what);

#endif
