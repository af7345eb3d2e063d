// SPDX-License-Identifier: GPL-2.0
/*
 * sd_notify for cpumgrctl daemon: Type=notify and WatchdogSec= in
 * cpumgr.service.  The library's daemon loop calls the hook; only this
 * file knows the protocol, through libsystemd.
 */
#include <stdlib.h>
#include <systemd/sd-daemon.h>

#include "ctl_sd.h"
#include "node_daemon.h"

void ctl_sd_notify(const char *state)
{
	/* errors are systemd's to report: a missed ping ends in a restart */
	sd_notify(0, state);
}

void ctl_sd_setup(struct node_daemon_opts *o)
{
	uint64_t usec = 0;

	if (!getenv("NOTIFY_SOCKET"))
		return;
	o->notify = ctl_sd_notify;
	/* > 0: set, and WATCHDOG_PID (if any) is this process */
	if (sd_watchdog_enabled(0, &usec) > 0 && usec >= 2000)
		o->watchdog_ms = (int64_t)(usec / 2000);
}
