/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgrctl nri: UpdateContainer as an in-place resize (ctl_nri_resize.c). */
#ifndef CPUMGRCTL_CTL_NRI_RESIZE_H
#define CPUMGRCTL_CTL_NRI_RESIZE_H

#include "ctl_nri_update.h"
#include "nri_spec.h"

/*
 * Managed container k (ctr of pod) updated to want: a container on
 * exclusive CPUs resized to the whole number of CPUs want asks for
 * (decide mode), k->told its new cpuset and set the others' updates (0);
 * one on the shared pool has its new CPU request and limit recorded (1:
 * nothing changes for the others); 1 too when the update changes no
 * CPU request or limit.  -errno with r holding the runtime's error.
 */
int ctl_nri_resize(struct ctl_nri *p, struct ctl_nri_known *k,
		   const NriPod *pod, const NriContainer *ctr,
		   NriResources *want, struct ctl_nri_updates *set,
		   struct nri_reply *r);

#endif
