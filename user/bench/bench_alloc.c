// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation decisions per second on 128-, 1024- and 4096-CPU machines
 * with half their CPUs busy, for requests of 1, 4, 16, 64 and 512 CPUs,
 * packed (the default) and distributed across NUMA nodes.  Prints the
 * median and 99th percentile time of one decision, decisions per second
 * and the memory one decision works in (its reusable workspace; a
 * decision allocates nothing else).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "alloc.h"
#include "topology.h"

struct machine {
	const char *name;
	int sockets, numa_per_socket, cores_per_socket, threads, l3_cores;
};

static const struct machine machines[] = {
	{ "128 CPUs: 2 sockets x 2 NUMA x 16 cores x 2 threads", 2, 2, 32, 2, 8 },
	{ "1024 CPUs: 4 sockets x 2 NUMA x 64 cores x 2 threads", 4, 2, 128, 2, 8 },
	{ "4096 CPUs: 8 sockets x 2 NUMA x 128 cores x 2 threads", 8, 2, 256, 2, 8 },
};

static const int requests[] = { 1, 4, 16, 64, 512 };

/* Linux numbering: first thread of every core, then the siblings. */
static struct topology *build(const struct machine *m)
{
	int cores = m->sockets * m->cores_per_socket;
	int n = cores * m->threads;
	struct topo_cpu_info *c = calloc(n, sizeof(*c));
	struct cm_error err = { 0 };
	struct topology *t;

	for (int i = 0; i < n; i++) {
		int core = i % cores;
		int socket = core / m->cores_per_socket;
		int in_socket = core % m->cores_per_socket;

		c[i].cpu = i;
		c[i].core = core;
		c[i].socket = socket;
		c[i].numa = socket * m->numa_per_socket +
			    in_socket / (m->cores_per_socket / m->numa_per_socket);
		c[i].uncore = core / m->l3_cores;
	}
	t = topology_new(c, n, &err);
	if (!t) {
		fprintf(stderr, "bench topology: %s\n", cm_error_msg(&err));
		exit(1);
	}
	free(c);
	return t;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Half the CPUs busy, scattered (a long-running node is fragmented). */
static void half_busy(const struct topology *t, struct cpuset *avail)
{
	unsigned int n = t->nr_cpus, busy = 0;

	*avail = t->cpus;
	while (busy < n / 2) {
		unsigned int cpu = next_rand() % n;

		if (cpuset_test(avail, cpu)) {
			cpuset_clear(avail, cpu);
			busy++;
		}
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define MAX_SAMPLES 4000

static void run(const struct topology *t, struct alloc_ws *ws,
		const struct cpuset *avail, int num, bool distribute)
{
	static double samples[MAX_SAMPLES];
	struct alloc_request req = {
		.num_cpus = num, .distribute_numa = distribute,
		.cpu_group_size = 1,
	};
	struct cm_error err = { 0 };
	double budget = 30e6, spent = 0;
	struct cpuset out;
	int n = 0;

	if ((unsigned int)num > cpuset_count(avail)) {
		printf("  %-11s %5d  %10s\n", distribute ? "distributed" :
		       "packed", num, "(more than free)");
		return;
	}
	while (n < MAX_SAMPLES && (spent < budget || n < 50)) {
		double t0 = now_ns();

		if (alloc_take(t, ws, avail, &req, &out, &err)) {
			printf("  error: %s\n", cm_error_msg(&err));
			cm_error_clear(&err);
			return;
		}
		samples[n] = now_ns() - t0;
		spent += samples[n++];
	}
	qsort(samples, n, sizeof(double), cmp_double);
	printf("  %-11s %5d  %10.2f  %10.2f  %12.0f\n",
	       distribute ? "distributed" : "packed", num,
	       samples[n / 2] / 1e3, samples[(n * 99) / 100] / 1e3,
	       1e9 / samples[n / 2]);
}

int main(void)
{
	for (size_t m = 0; m < sizeof(machines) / sizeof(machines[0]); m++) {
		struct topology *t = build(&machines[m]);
		struct alloc_ws *ws = alloc_ws_new(t);
		struct cpuset avail;

		half_busy(t, &avail);
		printf("%s, %u free\n", machines[m].name, cpuset_count(&avail));
		printf("  memory per decision: %zu bytes (workspace, reused; no allocation per decision)\n",
		       alloc_ws_size(t));
		printf("  %-11s %5s  %10s  %10s  %12s\n", "mode", "cpus",
		       "median us", "p99 us", "decisions/s");
		for (int d = 0; d < 2; d++)
			for (size_t r = 0; r < sizeof(requests) / sizeof(requests[0]); r++)
				run(t, ws, &avail, requests[r], d);
		printf("\n");
		alloc_ws_free(ws);
		topology_free(t);
	}
	return 0;
}
