/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_armed_watch.c: whether the guarantee is armed, watched. */
#ifndef _CPUMGR_ARMED_WATCH_H
#define _CPUMGR_ARMED_WATCH_H

void cpumgr_armed_watch_init(void);
void cpumgr_armed_watch_exit(void);

#endif /* _CPUMGR_ARMED_WATCH_H */
