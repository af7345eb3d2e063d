/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl nri: the cgroups the sweep found gone of containers not known
 * to have stopped.  containerd removes a container's cgroup when its task
 * ends and tells the plugin of the stop after (its exit handling, in
 * another goroutine), and a stopped container keeps its CPUs for its
 * restart in the pod.  A sweep in between would release them: back to
 * the pool, the restart decided afresh.  So the plugin's sweeps release
 * such a container only once its cgroup has been gone for the grace
 * (the sweep period), by which time the stop has come or will not.
 */
#ifndef CPUMGRCTL_CTL_NRI_GONE_H
#define CPUMGRCTL_CTL_NRI_GONE_H

#include "ctl_nri.h"

/* The grace when the sweep period is 0 (no tick; calls still sweep). */
#define CTL_NRI_GONE_GRACE_MS	10000

/* Every sweep on node n (opened by the plugin) waits out the grace. */
void ctl_nri_gone_hold(struct ctl_nri *p, struct node *n);
/* Forget the cgroups seen gone. */
void ctl_nri_gone_forget(struct ctl_nri *p);

#endif
