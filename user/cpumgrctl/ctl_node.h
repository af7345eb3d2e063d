/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the node subcommands share: the --state-dir option, opening the
 * node (lock, kernel, sync) and one-line failures.
 */
#ifndef CPUMGRCTL_CTL_NODE_H
#define CPUMGRCTL_CTL_NODE_H

#include <getopt.h>
#include <stdbool.h>

#include "node.h"

/* getopt_long() value of --state-dir, the same in every subcommand. */
#define CTL_OPT_STATE_DIR	0x100
#define CTL_STATE_DIR_OPTION \
	{ "state-dir", required_argument, NULL, CTL_OPT_STATE_DIR }

/*
 * One option of a node subcommand besides --state-dir: a flag (on is
 * set true when given) or an option with a value (*value is set).
 */
struct ctl_opt {
	const char *name;
	bool *on;
	const char **value;
};

#define CTL_MAX_OPTS	8

/* What ctl_node_args() read: --state-dir and the positional arguments. */
struct ctl_args {
	const char *state_dir;	/* NULL when not given */
	char **arg;
	int nr;
};

/*
 * The opening every node subcommand shares: read its options (opts ends
 * with a NULL name) and --state-dir from argv, and min..max positional
 * arguments.  0, or the usage exit code after printing the usage.
 */
int ctl_node_args(int argc, char **argv, const struct ctl_opt *opts,
		  int min, int max, struct ctl_args *out);

/*
 * ctl_node_args() and ctl_node_open() in one, for the subcommands that
 * have nothing to check between reading argv and opening the node.
 */
int ctl_node_start(int argc, char **argv, const struct ctl_opt *opts,
		   int min, int max, unsigned int flags, struct node *n,
		   struct ctl_args *args);

/* The state directory: --state-dir, else CPUMGR_STATE_DIR, else default. */
const char *ctl_state_dir(const char *given);

/* node_open() with commands' output on stdout; prints the failure. */
int ctl_node_open(struct node *n, const char *dir, unsigned int flags);
/* "cpumgrctl: <what>: <message>", closes the node; returns 1. */
int ctl_node_fail(struct node *n, struct cm_error *err, const char *what);
/* The same for arguments or a file the node cannot take; returns 2. */
int ctl_node_bad_input(struct node *n, struct cm_error *err,
		       const char *what);

#endif
