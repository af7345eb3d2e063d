/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_hotplug.c: CPUs going offline and coming online, followed. */
#ifndef _CPUMGR_HOTPLUG_H
#define _CPUMGR_HOTPLUG_H

int cpumgr_hotplug_init(void);
void cpumgr_hotplug_exit(void);

#endif /* _CPUMGR_HOTPLUG_H */
