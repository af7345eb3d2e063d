/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl nri: the CreateContainer calls not done, one file each in
 * the state directory's nri-pending/ ("<container id>.json": the plugin's
 * mode and the request as the runtime sent it), written before the
 * call is served and removed once it is done.  A call that passes the
 * runtime's request timeout leaves the container created by the runtime
 * without cpumgr's cpuset (NRI closes the plugin and goes on), and so
 * does a plugin that dies in one: the file stays and says which
 * container that was.  The daemon's round (ctl_nri_pending_round(), its
 * hook) adds and pins each such container that runs (its cgroup has
 * tasks) as the call would have; the plugin's next Synchronize does the
 * same from the runtime's list, and removes the files.  A file whose
 * container never ran goes after CTL_NRI_PENDING_MAX_S.
 */
#ifndef CPUMGRCTL_CTL_NRI_PENDING_H
#define CPUMGRCTL_CTL_NRI_PENDING_H

#include <limits.h>

#include "ctl_nri.h"

#define CTL_NRI_PENDING_DIR	"nri-pending"
#define CTL_NRI_PENDING_MAX_S	600

/*
 * Note the call (a CreateContainer request) before it is served; path
 * (PATH_MAX) gets the file, "" when none was written (an id that is no
 * file name, a write that failed: said on stderr, the call goes on).
 */
void ctl_nri_pending_note(struct ctl_nri *p, const struct nri_request *req,
			  char *path);
/* The call is done: its file goes. */
void ctl_nri_pending_done(const char *path);
/* Every file goes (Synchronize: the runtime's list says what runs). */
void ctl_nri_pending_clear(struct ctl_nri *p);
/*
 * The daemon's hook (node_daemon_opts.round_hook), under its lock: pin
 * the containers of the calls left unfinished that run.  Returns how
 * many were added, or -errno.
 */
int ctl_nri_pending_round(struct node *n, void *arg, struct cm_error *err);

#endif
