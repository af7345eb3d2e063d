// SPDX-License-Identifier: GPL-2.0
/*
 * sd_notify for cpumgrctl daemon: Type=notify and WatchdogSec= in
 * cpumgr.service.  The library's daemon loop calls the hook; only this
 * file knows the protocol, through libsystemd.
 *
 * libsystemd is opened when systemd waits for notifications, not linked:
 * it loads six more libraries (gcrypt, gpg-error, zstd, lz4, lzma, cap),
 * a third of what a short cpumgrctl process spends before its work.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <systemd/sd-daemon.h>

#include "ctl_sd.h"
#include "node.h"

/* the header's prototypes, so a mismatch does not compile */
static __typeof__(sd_notify) *notify_fn;
static __typeof__(sd_watchdog_enabled) *watchdog_fn;

static bool load_libsystemd(void)
{
	void *h = notify_fn ? NULL : dlopen("libsystemd.so.0",
					    RTLD_NOW | RTLD_LOCAL);

	if (notify_fn)
		return true;
	if (!h) {
		fprintf(stderr, "cpumgrctl: daemon: systemd waits for notifications, but: %s\n",
			dlerror());
		return false;
	}
	notify_fn = (__typeof__(notify_fn))dlsym(h, "sd_notify");
	watchdog_fn = (__typeof__(watchdog_fn))dlsym(h, "sd_watchdog_enabled");
	if (!notify_fn || !watchdog_fn) {
		fprintf(stderr, "cpumgrctl: daemon: libsystemd.so.0 lacks sd_notify\n");
		notify_fn = NULL;
		dlclose(h);
		return false;
	}
	return true;
}

void ctl_sd_notify(const char *state)
{
	/* errors are systemd's to report: a missed ping ends in a restart */
	if (notify_fn)
		notify_fn(0, state);
}

void ctl_sd_setup(struct node_daemon_opts *o)
{
	uint64_t usec = 0;

	if (!getenv("NOTIFY_SOCKET") || !load_libsystemd())
		return;
	o->notify = ctl_sd_notify;
	/* > 0: set, and WATCHDOG_PID (if any) is this process */
	if (watchdog_fn(0, &usec) > 0 && usec >= 2000)
		o->watchdog_ms = (int64_t)(usec / 2000);
}
