/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer targets: the input as the library's readers
 * see a file (NUL-terminated, no NUL inside), and a check that aborts so
 * libFuzzer keeps the input.
 */
#ifndef CPUMGR_FUZZ_UTIL_H
#define CPUMGR_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes and a NUL after them, as file_slurp() returns a file. */
static inline char *fuzz_copy(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The bytes as a C string; NULL when they hold a NUL (readers refuse it). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	return memchr(data, '\0', size) ? NULL : fuzz_copy(data, size);
}

/*
 * A node to check parsed configurations against, built once: 2 sockets
 * (each its own NUMA node and L3) of 2 cores of 2 threads, CPUs 0-7,
 * core c holding CPUs c and c + 4 as Linux numbers them.
 */
static inline const struct topology *fuzz_topology(void)
{
	static struct topology *t;
	struct topo_cpu_info c[8];
	struct cm_error err = { 0 };

	if (t)
		return t;
	for (int i = 0; i < 8; i++) {
		c[i].cpu = i;
		c[i].core = i % 4;
		c[i].socket = c[i].numa = c[i].uncore = (i % 4) / 2;
	}
	t = topology_new(c, 8, &err);
	if (!t)
		abort();
	return t;
}

#define fuzz_assert(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
			abort();					\
		}							\
	} while (0)

#endif
