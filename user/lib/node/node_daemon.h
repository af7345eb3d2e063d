/* SPDX-License-Identifier: GPL-2.0 */
/* The daemon mode of cpumgrctl: kernel events and a reconcile timer. */
#ifndef CPUMGR_NODE_DAEMON_H
#define CPUMGR_NODE_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

struct node;

/* What a round does. */
enum {
	DAEMON_RECONCILE	= 1 << 0,
	DAEMON_TOPUP		= 1 << 1, DAEMON_AUDIT		= 1 << 2,
	DAEMON_ALL		= DAEMON_RECONCILE | DAEMON_TOPUP | DAEMON_AUDIT,
};

struct node_daemon_opts {
	const char *dir;		/* state directory */
	const char *pods;		/* the node's active pods, or NULL */
	int64_t period_ms;		/* reconcile period */
	FILE *log;			/* one timestamped line per action */
	bool once;			/* one round, then return (tests) */
	/*
	 * The service manager's hook, or NULL (the library does not speak
	 * its protocol): notify("READY=1") after the first round,
	 * notify("WATCHDOG=1") at least every watchdog_ms (when above 0)
	 * while it runs, notify("STOPPING=1") when it ends.
	 */
	void (*notify)(const char *state);
	int64_t watchdog_ms;
	/*
	 * What the command adds to each round (may be NULL), under the
	 * lock after the sync and before the reconcile: cpumgrctl's are the
	 * NRI plugin's calls that did not finish in the runtime's time, whose
	 * containers run without their CPUs.  Returns the number of
	 * containers it changed, or -errno with err set.
	 */
	int (*round_hook)(struct node *n, void *arg, struct cm_error *err);
	void *round_hook_arg;
};

/* Run until SIGTERM or SIGINT; returns 0 then. */
int node_daemon(const struct node_daemon_opts *o, struct cm_error *err);

#endif
