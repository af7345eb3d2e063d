/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_sysfs.c: /sys/kernel/cpumgr/, the module's state. */
#ifndef _CPUMGR_SYSFS_H
#define _CPUMGR_SYSFS_H

int cpumgr_sysfs_init(void);
void cpumgr_sysfs_exit(void);

#endif /* _CPUMGR_SYSFS_H */
