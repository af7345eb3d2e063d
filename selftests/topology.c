// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/cpumgr/topology against what the guest kernel itself shows
 * under /sys/devices/system/cpu and /sys/devices/system/node.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sftest_util.h"

#define CPU_SYSFS "/sys/devices/system/cpu"
#define TOPOLOGY_FILE "/sys/kernel/cpumgr/topology"

struct cpu_rec {
	bool present;	/* a line for this CPU exists */
	bool seen;
	int online;
	long package, die, core, node, llc;
	char siblings[256];
};

FIXTURE(topo) {
	struct cpu_rec cpu[SFTEST_MAX_CPUS];
	bool possible[SFTEST_MAX_CPUS];
	int lines;
};

/* "cpu online package die core node llc siblings", '-' when unknown. */
static int parse_topology(struct cpu_rec *recs)
{
	char line[512], f[6][32], sib[256];
	int lines = 0, cpu, online;
	FILE *file;

	file = fopen(TOPOLOGY_FILE, "r");
	if (!file)
		return -1;
	while (fgets(line, sizeof(line), file)) {
		struct cpu_rec *r;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%d %d %31s %31s %31s %31s %31s %255s", &cpu,
			   &online, f[0], f[1], f[2], f[3], f[4], sib) != 8 ||
		    cpu < 0 || cpu >= SFTEST_MAX_CPUS || recs[cpu].present) {
			fclose(file);
			return -1;
		}
		r = &recs[cpu];
		r->present = true;
		r->online = online;
		r->seen = strcmp(f[0], "-") != 0;
		if (r->seen) {
			r->package = atol(f[0]);
			r->die = atol(f[1]);
			r->core = atol(f[2]);
			r->node = atol(f[3]);
			r->llc = atol(f[4]);
			snprintf(r->siblings, sizeof(r->siblings), "%s", sib);
		}
		lines++;
	}
	fclose(file);
	return lines;
}

FIXTURE_SETUP(topo)
{
	char *possible = sft_read_file(CPU_SYSFS "/possible");

	ASSERT_NE(NULL, possible);
	ASSERT_TRUE(sft_parse_cpulist(possible, self->possible));
	free(possible);
	memset(self->cpu, 0, sizeof(self->cpu));
	self->lines = parse_topology(self->cpu);
	ASSERT_LT(0, self->lines) TH_LOG("cannot parse %s", TOPOLOGY_FILE);
}

FIXTURE_TEARDOWN(topo)
{
}

static bool cpu_online(int cpu)
{
	long online;

	/* CPUs that cannot go offline (cpu0 usually) have no online file. */
	if (!sft_read_long(&online, CPU_SYSFS "/cpu%d/online", cpu))
		return true;
	return online == 1;
}

TEST_F(topo, one_line_per_possible_cpu)
{
	int cpu, possible = 0;

	for (cpu = 0; cpu < SFTEST_MAX_CPUS; cpu++) {
		EXPECT_EQ(self->possible[cpu], self->cpu[cpu].present)
			TH_LOG("cpu%d", cpu);
		possible += self->possible[cpu];
	}
	EXPECT_EQ(possible, self->lines);
}

TEST_F(topo, online_state)
{
	for (int cpu = 0; cpu < SFTEST_MAX_CPUS; cpu++) {
		if (!self->possible[cpu])
			continue;
		EXPECT_EQ(cpu_online(cpu), self->cpu[cpu].online)
			TH_LOG("cpu%d", cpu);
		/* The module was loaded with every CPU up. */
		EXPECT_TRUE(self->cpu[cpu].seen) TH_LOG("cpu%d", cpu);
	}
}

TEST_F(topo, package_and_core)
{
	long package, core;

	for (int cpu = 0; cpu < SFTEST_MAX_CPUS; cpu++) {
		if (!self->cpu[cpu].seen)
			continue;
		ASSERT_TRUE(sft_read_long(&package,
			CPU_SYSFS "/cpu%d/topology/physical_package_id", cpu));
		ASSERT_TRUE(sft_read_long(&core,
			CPU_SYSFS "/cpu%d/topology/core_id", cpu));
		EXPECT_EQ(package, self->cpu[cpu].package) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(core, self->cpu[cpu].core) TH_LOG("cpu%d", cpu);
	}
}

/*
 * sysfs die_id is per package on 6.1 and system-wide on 6.12; the module
 * reports the logical die, unique on the machine.  Either way two CPUs
 * share a die in one view exactly when they do in the other.
 */
TEST_F(topo, logical_die)
{
	long die_a, die_b;
	int a, b;

	for (a = 0; a < SFTEST_MAX_CPUS; a++) {
		if (!self->cpu[a].seen)
			continue;
		ASSERT_TRUE(sft_read_long(&die_a,
			CPU_SYSFS "/cpu%d/topology/die_id", a));
		for (b = a + 1; b < SFTEST_MAX_CPUS; b++) {
			bool same_sysfs, same_module;

			if (!self->cpu[b].seen)
				continue;
			ASSERT_TRUE(sft_read_long(&die_b,
				CPU_SYSFS "/cpu%d/topology/die_id", b));
			same_sysfs = die_a == die_b &&
				self->cpu[a].package == self->cpu[b].package;
			same_module = self->cpu[a].die == self->cpu[b].die;
			EXPECT_EQ(same_sysfs, same_module)
				TH_LOG("cpu%d and cpu%d", a, b);
		}
	}
}

TEST_F(topo, numa_node)
{
	bool node_cpus[SFTEST_MAX_CPUS];
	int node, cpu, found = 0;
	char *list;

	for (node = 0; node < SFTEST_MAX_CPUS; node++) {
		list = sft_read_file("/sys/devices/system/node/node%d/cpulist",
				     node);
		if (!list)
			continue;
		ASSERT_TRUE(sft_parse_cpulist(list, node_cpus));
		free(list);
		for (cpu = 0; cpu < SFTEST_MAX_CPUS; cpu++) {
			if (!node_cpus[cpu])
				continue;
			EXPECT_EQ(node, self->cpu[cpu].node)
				TH_LOG("cpu%d", cpu);
			found++;
		}
	}
	EXPECT_LT(0, found);
}

/*
 * The module reports the kernel's own LLC id (derived from APIC ids),
 * which need not be the number sysfs shows as cache/index3/id: two CPUs
 * must share it exactly when they share the L3.
 */
TEST_F(topo, last_level_cache)
{
	bool shared[SFTEST_MAX_CPUS];
	long level, id_a, id_b;
	char *list;
	int a, b;

	for (a = 0; a < SFTEST_MAX_CPUS; a++) {
		if (!self->cpu[a].seen)
			continue;
		ASSERT_TRUE(sft_read_long(&level,
			CPU_SYSFS "/cpu%d/cache/index3/level", a));
		ASSERT_EQ(3, level);
		ASSERT_TRUE(sft_read_long(&id_a,
			CPU_SYSFS "/cpu%d/cache/index3/id", a));
		list = sft_read_file(CPU_SYSFS "/cpu%d/cache/index3/shared_cpu_list",
				     a);
		ASSERT_NE(NULL, list);
		ASSERT_TRUE(sft_parse_cpulist(list, shared));
		free(list);
		for (b = 0; b < SFTEST_MAX_CPUS; b++) {
			bool same = self->cpu[a].llc == self->cpu[b].llc;

			if (!self->cpu[b].seen)
				continue;
			ASSERT_TRUE(sft_read_long(&id_b,
				CPU_SYSFS "/cpu%d/cache/index3/id", b));
			EXPECT_EQ(shared[b], same) TH_LOG("cpu%d and cpu%d", a, b);
			EXPECT_EQ(id_a == id_b, same) TH_LOG("cpu%d and cpu%d", a, b);
		}
	}
}

TEST_F(topo, smt_siblings)
{
	char *list;

	for (int cpu = 0; cpu < SFTEST_MAX_CPUS; cpu++) {
		if (!self->cpu[cpu].seen)
			continue;
		list = sft_read_file(CPU_SYSFS "/cpu%d/topology/thread_siblings_list",
				     cpu);
		ASSERT_NE(NULL, list);
		EXPECT_STREQ(list, self->cpu[cpu].siblings) TH_LOG("cpu%d", cpu);
		free(list);
	}
}

/* Reads at every offset and size give the same bytes as one big read. */
TEST(topology_file_reads_in_pieces)
{
	static char whole[65536], piece[65536];
	ssize_t len, got;
	FILE *f;

	f = fopen(TOPOLOGY_FILE, "r");
	ASSERT_NE(NULL, f);
	len = fread(whole, 1, sizeof(whole), f);
	fclose(f);
	ASSERT_LT(0, len);
	ASSERT_GT((ssize_t)sizeof(whole), len);

	for (size_t chunk = 1; chunk <= 4096; chunk = chunk * 2 + 1) {
		int fd = open(TOPOLOGY_FILE, O_RDONLY);
		ssize_t n;

		ASSERT_LE(0, fd);
		got = 0;
		while ((n = read(fd, piece + got, chunk)) > 0)
			got += n;
		close(fd);
		ASSERT_EQ(len, got) TH_LOG("chunk %zu", chunk);
		ASSERT_EQ(0, memcmp(whole, piece, len)) TH_LOG("chunk %zu", chunk);
	}
}

TEST_HARNESS_MAIN
