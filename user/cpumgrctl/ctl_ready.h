/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether the node does its job, for a probe (status --ready): the node
 * set up, the kernel's guarantee armed, no change of settings left
 * refused, and (nri) the NRI plugin registered with the runtime.
 *
 * The plugin says where it is in the state directory: nri.state, one
 * line "STATE MODE PLUGIN SOCKET SINCE" (STATE connecting or
 * registered, SINCE seconds since the epoch), replaced as it changes,
 * while it holds .nri.lock (flock) for as long as it runs.  A reader
 * that can take the lock knows no plugin runs, whatever the line says:
 * the DaemonSet's containers share the directory, not their pids.
 *
 * init --on-busy keep records a change the kernel refused (pods held
 * exclusive CPUs) in the state directory's file "refused", one line,
 * until an init applies one.
 */
#ifndef CPUMGRCTL_CTL_READY_H
#define CPUMGRCTL_CTL_READY_H

#include <stdbool.h>
#include <stddef.h>

#include "node.h"

#define CTL_NRI_STATE		"nri.state"
#define CTL_NRI_LOCK		".nri.lock"
#define CTL_REFUSED		"refused"

/* The running plugin's side: the lock, held until the process ends. */
struct ctl_nri_record {
	const char *dir;
	int lock_fd;		/* -1: another plugin holds it, or no directory */
};

/* Take the lock (a warning if another plugin holds it: then no record). */
void ctl_nri_record_open(struct ctl_nri_record *r, const char *dir);
/* Say where the plugin is: "connecting" or "registered". */
void ctl_nri_record_set(struct ctl_nri_record *r, const char *state,
			const char *mode, const char *plugin,
			const char *socket);

/* The reader's side: what the plugin said, and whether it runs. */
struct ctl_nri_view {
	bool recorded, running;
	char state[16], mode[16], plugin[64], socket[256];
	long long since;
};

void ctl_nri_read(const char *dir, struct ctl_nri_view *v);
/* The refused change's line into buf; false when there is none. */
bool ctl_refused_read(const char *dir, char *buf, size_t len);

/*
 * Ready (true), or why not in why: the kernel's guarantee armed, no
 * refused change, and with nri the plugin running and registered.
 */
bool ctl_ready(const struct node *n, const char *dir, bool nri, char *why,
	       size_t len);

/*
 * The kernel refused a change of policy, options or reserved CPUs: pods
 * hold exclusive CPUs.  err gets them as a prefix (namespace/name from
 * their records, else their UIDs; at most eight) and what to do.
 */
void ctl_name_holders(const struct node *n, struct cm_error *err);
/*
 * init --on-busy keep: say the refusal in err as a warning and record it
 * in dir (err is cleared).  The exit status: 0, or 1 if it could not be
 * recorded.
 */
int ctl_refused_keep(const char *dir, struct cm_error *err);
/* A change applied: no refusal stands any more. */
void ctl_refused_clear(const char *dir);

#endif
