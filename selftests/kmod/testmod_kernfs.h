/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test modules' reads of a kernfs node's name and parent:
 * RCU-managed from 6.15, and stable for a cgroup's file and directory,
 * which are never renamed or moved.
 */
#ifndef _TESTMOD_KERNFS_H
#define _TESTMOD_KERNFS_H

#include <linux/kernfs.h>
#include <linux/version.h>

#if KERNEL_VERSION(6, 15, 0) <= LINUX_VERSION_CODE
#define kn_name(kn) rcu_dereference_raw((kn)->name)
#define kn_parent(kn) rcu_dereference_raw((kn)->__parent)
#else
#define kn_name(kn) ((kn)->name)
#define kn_parent(kn) ((kn)->parent)
#endif

#endif /* _TESTMOD_KERNFS_H */
