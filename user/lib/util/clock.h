/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Milliseconds of the monotonic clock: for deadlines, periods and ages,
 * which a change of the wall clock must not move.
 */
#ifndef CPUMGR_CLOCK_H
#define CPUMGR_CLOCK_H

long long clock_mono_ms(void);

#endif
