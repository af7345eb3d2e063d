/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU sets as fixed-size bitmaps (a value: copy it with '=').  The text
 * form is the kernel's cpulist syntax ("0-3,8", "0-15:2/4"), printed the
 * way both the kernel and k8s.io/utils/cpuset String() print it: ascending
 * ranges "a-b" (even for two CPUs), single CPUs alone, joined by ',',
 * and "" for the empty set.
 */
#ifndef CPUMGR_CPUSET_H
#define CPUMGR_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Distribution kernels build with NR_CPUS=8192. */
#define CPUSET_MAX_CPUS		8192
#define CPUSET_WORDS		(CPUSET_MAX_CPUS / 64)

struct cpuset {
	uint64_t w[CPUSET_WORDS];
};

void cpuset_zero(struct cpuset *s);
/* cpu must be below CPUSET_MAX_CPUS; out-of-range CPUs are ignored. */
void cpuset_set(struct cpuset *s, unsigned int cpu);
void cpuset_clear(struct cpuset *s, unsigned int cpu);
bool cpuset_test(const struct cpuset *s, unsigned int cpu);
/* Set every CPU of [first, last]. */
void cpuset_set_range(struct cpuset *s, unsigned int first, unsigned int last);

unsigned int cpuset_count(const struct cpuset *s);
bool cpuset_empty(const struct cpuset *s);
bool cpuset_equal(const struct cpuset *a, const struct cpuset *b);
/* a is a subset of b */
bool cpuset_subset(const struct cpuset *a, const struct cpuset *b);
bool cpuset_intersects(const struct cpuset *a, const struct cpuset *b);

/* dst may alias a or b. */
void cpuset_and(struct cpuset *dst, const struct cpuset *a,
		const struct cpuset *b);
void cpuset_or(struct cpuset *dst, const struct cpuset *a,
	       const struct cpuset *b);
void cpuset_andnot(struct cpuset *dst, const struct cpuset *a,
		   const struct cpuset *b);

/* First CPU at or after 'from', or -1. */
int cpuset_next(const struct cpuset *s, int from);
#define cpuset_for_each(cpu, s)						\
	for ((cpu) = cpuset_next((s), 0); (cpu) >= 0;			\
	     (cpu) = cpuset_next((s), (cpu) + 1))

/*
 * Parse a cpulist.  Accepts what the kernel's bitmap_parselist() accepts
 * (groups "N", "A-B", "A-B:USED/GROUP", one optional trailing newline)
 * with CPUs below CPUSET_MAX_CPUS.  On error *s is left untouched, the
 * message is recorded in err and -EINVAL or -ERANGE is returned.
 */
int cpuset_parse(struct cpuset *s, const char *str, struct cm_error *err);
/*
 * Parse a CPU list the way k8s.io/utils/cpuset Parse() takes it (the
 * kubelet's checkpoint and --reserved-cpus): only "N" and "A-B" groups,
 * no stride, no trailing newline.
 */
int cpuset_parse_kube(struct cpuset *s, const char *str, struct cm_error *err);

/*
 * Print s into buf (always NUL-terminated when len > 0); returns the
 * length of the full text, like snprintf.
 */
size_t cpuset_format(const struct cpuset *s, char *buf, size_t len);
/* The text form in a malloc'd string (NULL on allocation failure). */
char *cpuset_to_str(const struct cpuset *s);

#endif
