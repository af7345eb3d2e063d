/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgrctl nri: UpdateContainer as an in-place resize (ctl_nri_resize.c). */
#ifndef CPUMGRCTL_CTL_NRI_RESIZE_H
#define CPUMGRCTL_CTL_NRI_RESIZE_H

#include "ctl_nri_update.h"

/*
 * Resize managed container k to num exclusive CPUs: k->told becomes its
 * new cpuset, set the others' updates.  1: it holds no exclusive CPUs
 * (nothing done); -errno with r holding the runtime's error.
 */
int ctl_nri_resize(struct ctl_nri *p, struct ctl_nri_known *k, int num,
		   struct ctl_nri_updates *set, struct nri_reply *r);

#endif
