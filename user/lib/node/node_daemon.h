/* SPDX-License-Identifier: GPL-2.0 */
/* The daemon mode of cpumgrctl: kernel events and a reconcile timer. */
#ifndef CPUMGR_NODE_DAEMON_H
#define CPUMGR_NODE_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

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
};

/* Run until SIGTERM or SIGINT; returns 0 then. */
int node_daemon(const struct node_daemon_opts *o, struct cm_error *err);

#endif
