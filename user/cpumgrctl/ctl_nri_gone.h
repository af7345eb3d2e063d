/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl nri: the cgroups the sweep found gone of containers not known
 * to have stopped.  containerd removes a container's cgroup when its task
 * ends and tells the plugin of the stop after (its exit handling, in
 * another goroutine), and a stopped container keeps its CPUs for its
 * restart in the pod.  A sweep in between would release them: back to
 * the pool, the restart decided afresh.  So the plugin's sweeps release
 * such a container only once a sweep saw its cgroup gone the grace (the
 * sweep period, 1 to 10 s) before, by which time the stop has come or
 * will not.
 * A pod's sandbox going releases its containers at once: none of them
 * restarts.
 */
#ifndef CPUMGRCTL_CTL_NRI_GONE_H
#define CPUMGRCTL_CTL_NRI_GONE_H

#include "ctl_nri.h"

/*
 * The grace when the sweep period is 0 (no tick; calls still sweep), and
 * the longest: containerd's exit handling takes far less, and a longer
 * sweep period would keep the CPUs of a container gone untold as long.
 */
#define CTL_NRI_GONE_GRACE_MS		10000
/* The least grace: a shorter sweep period still waits this long. */
#define CTL_NRI_GONE_GRACE_MIN_MS	1000

/* The grace for a --sweep-period of sweep_ms (0: none). */
unsigned int ctl_nri_gone_grace_ms(unsigned int sweep_ms);

/*
 * Every sweep on node n (opened by the plugin) waits out the grace; the
 * cgroups of containers n no longer records as running are forgotten.
 */
void ctl_nri_gone_hold(struct ctl_nri *p, struct node *n);
/* Forget the cgroups seen gone. */
void ctl_nri_gone_forget(struct ctl_nri *p);

#endif
