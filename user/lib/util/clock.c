// SPDX-License-Identifier: GPL-2.0
#include <time.h>

#include "clock.h"

long long clock_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
