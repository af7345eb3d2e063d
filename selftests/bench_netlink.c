// SPDX-License-Identifier: GPL-2.0
/*
 * Round trips per second of the cpumgr family, in the guest (make bench,
 * selftests/bench-plan): GET_STATE, an ASSIGN+RELEASE pair and a dump of
 * 320 assignments (five pods of CPUMGR_POD_CONTAINERS_MAX containers,
 * a CPU each), each also as a ratio to GET_STATE of the same run.
 * Prints a table as KTAP comments; fails only when a request fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpumgr_nl.h"
#include "sftest_nl.h"

#define SECONDS_EACH	3.0
#define DUMP_PODS	5
#define DUMP_SIZE	(DUMP_PODS * CPUMGR_POD_CONTAINERS_MAX)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct bench {
	const char *name;
	int (*op)(struct cpumgr_nl *nl, const char *cpu);
	double rate;	/* operations per second */
};

static int op_state(struct cpumgr_nl *nl, const char *cpu)
{
	struct cpumgr_table st;
	int err = cpumgr_nl_get_table(nl, &st);

	cpumgr_table_free(&st);
	return err;
}

static int op_assign_release(struct cpumgr_nl *nl, const char *cpu)
{
	return cpumgr_nl_assign(nl, "bench-pair", "c", cpu, 0, NULL, NULL,
				NULL) ?:
	       cpumgr_nl_release(nl, "bench-pair", NULL, NULL, NULL);
}

static int op_dump(struct cpumgr_nl *nl, const char *cpu)
{
	struct cpumgr_assignment *list;
	size_t n;
	int err = cpumgr_nl_list_assignments(nl, &list, &n);

	if (!err && n != DUMP_SIZE)
		err = -EPROTO;
	cpumgr_assignments_free(list, n);
	return err;
}

/* Run op for about SECONDS_EACH; 0 or the failure. */
static int measure(struct cpumgr_nl *nl, struct bench *b, const char *cpu)
{
	double start = now(), t;
	unsigned long n = 0;
	int err;

	do {
		for (int i = 0; i < 16; i++, n++) {
			err = b->op(nl, cpu);
			if (err)
				return err;
		}
		t = now() - start;
	} while (t < SECONDS_EACH);
	b->rate = n / t;
	return 0;
}

/* DUMP_PODS pods on the online CPUs after @after, one each. */
static int fill_table(struct cpumgr_nl *nl, const bool *online, int after)
{
	char pod[16], ctr[16], cpu[16];
	int p = 0;

	for (int c = after + 1; c < SFTEST_MAX_CPUS && p < DUMP_PODS; c++) {
		if (!online[c])
			continue;
		snprintf(pod, sizeof(pod), "bench-dump%d", p++);
		snprintf(cpu, sizeof(cpu), "%d", c);
		for (int i = 0; i < CPUMGR_POD_CONTAINERS_MAX; i++) {
			snprintf(ctr, sizeof(ctr), "c%d", i);
			if (cpumgr_nl_assign(nl, pod, ctr, cpu, 0, NULL, NULL,
					     NULL))
				return -1;
		}
	}
	return p == DUMP_PODS ? 0 : -1;
}

int main(void)
{
	struct bench b[] = {
		{ "GET_STATE", op_state, 0 },
		{ "ASSIGN+RELEASE", op_assign_release, 0 },
		{ "dump of 320 assignments", op_dump, 0 },
	};
	bool online[SFTEST_MAX_CPUS];
	char cpu[16] = "";
	struct cpumgr_nl *nl;
	int c, err = 0;

	printf("TAP version 13\n1..1\n");
	nl = sft_nl_open();
	if (!nl || sft_online_cpus(online) < DUMP_PODS + 2 || sft_static(nl)) {
		printf("not ok 1 bench_netlink # set-up failed\n");
		return 1;
	}
	for (c = 1; c < SFTEST_MAX_CPUS && !cpu[0]; c++) {
		if (online[c])
			snprintf(cpu, sizeof(cpu), "%d", c);
	}
	err = measure(nl, &b[0], cpu) ?: measure(nl, &b[1], cpu);
	if (!err && fill_table(nl, online, c - 1))
		err = -1;
	err = err ?: measure(nl, &b[2], cpu);
	if (err) {
		printf("# %s\nnot ok 1 bench_netlink\n", cpumgr_nl_errmsg(nl));
		cpumgr_nl_reset(nl, NULL, NULL);
		return 1;
	}
	printf("# %-28s %12s %14s\n", "round trip", "per second",
	       "x GET_STATE");
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		printf("# %-28s %12.0f %14.3f\n", b[i].name, b[i].rate,
		       b[i].rate / b[0].rate);
	printf("# (%.0f s each; x GET_STATE = rate / GET_STATE rate)\n",
	       SECONDS_EACH);
	err = cpumgr_nl_reset(nl, NULL, NULL);
	cpumgr_nl_close(nl);
	printf("%s 1 bench_netlink\n", err ? "not ok" : "ok");
	return err ? 1 : 0;
}
