/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon's side of systemd's service protocol (sd_notify), kept in
 * cpumgrctl: libcpumgr does not link libsystemd.
 */
#ifndef CPUMGRCTL_CTL_SD_H
#define CPUMGRCTL_CTL_SD_H

#include <stdint.h>

struct node_daemon_opts;

/* Send one state ("READY=1", ...) to $NOTIFY_SOCKET; nothing without it. */
void ctl_sd_notify(const char *state);

/*
 * Set o's notify hook when systemd waits for notifications, and its
 * watchdog interval (half of $WATCHDOG_USEC, when it is meant for this
 * process).
 */
void ctl_sd_setup(struct node_daemon_opts *o);

#endif
