// SPDX-License-Identifier: GPL-2.0
/*
 * Every command of the cpumgr family doing what include/uapi/linux/cpumgr.h
 * says, through the client library, checked against GET_STATE, the dump
 * and sysfs; and one notification per change, carrying the reply's
 * generation.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

#define CGROOT "/sys/fs/cgroup"

FIXTURE(cmds) {
	struct cpumgr_nl *nl;
	struct sft_cpus c;
};

FIXTURE_SETUP(cmds)
{
	self->nl = sft_nl_open();
	ASSERT_NE(NULL, self->nl);
	ASSERT_TRUE(sft_cpus_read(&self->c, 5));
}

FIXTURE_TEARDOWN(cmds)
{
	EXPECT_EQ(0, sft_reset_close(self->nl));
}

static char *sysfs(const char *name)
{
	return sft_read_file(SFT_SYSFS "/%s", name);
}

/* The first test: the module was just loaded by the runner. */
TEST_F(cmds, state_after_load)
{
	char *online = sft_read_file("/sys/devices/system/cpu/online");
	char *version = sysfs("version");
	struct cpumgr_table st;

	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	EXPECT_STREQ(version, st.version);
	EXPECT_EQ((uint32_t)CPUMGR_POLICY_NONE, st.policy);
	EXPECT_EQ(0U, st.options);
	EXPECT_STREQ("", st.reserved_cpus);
	EXPECT_STREQ("", st.exclusive_cpus);
	EXPECT_STREQ(online, st.online_cpus);
	EXPECT_STREQ(online, st.shared_cpus);
	EXPECT_EQ(0U, st.nr_pods);
	EXPECT_EQ(0U, st.nr_assignments);
	cpumgr_table_free(&st);
	free(online);
	free(version);
}

TEST_F(cmds, configure)
{
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_POLICY | CPUMGR_CFG_OPTIONS |
		       CPUMGR_CFG_RESERVED,
		.policy = CPUMGR_POLICY_STATIC,
		.options = CPUMGR_OPT_FULL_PCPUS_ONLY |
			   CPUMGR_OPT_ALIGN_BY_SOCKET,
		.reserved_cpus = self->c.name[0],
	};
	struct cpumgr_table before, st;
	uint64_t gen;

	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &before));
	ASSERT_EQ(0, cpumgr_nl_configure(self->nl, &cfg, NULL, &gen));
	EXPECT_EQ(before.generation + 1, gen);
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	EXPECT_EQ(gen, st.generation);
	EXPECT_EQ((uint32_t)CPUMGR_POLICY_STATIC, st.policy);
	EXPECT_EQ(cfg.options, st.options);
	EXPECT_STREQ(self->c.name[0], st.reserved_cpus);
	/* The reserved CPUs stay in the shared pool. */
	EXPECT_STREQ(st.online_cpus, st.shared_cpus);
	cpumgr_table_free(&st);

	/* Only what is present changes. */
	cfg.set = CPUMGR_CFG_OPTIONS;
	cfg.options = CPUMGR_OPT_STRICT_CPU_RESERVATION;
	ASSERT_EQ(0, cpumgr_nl_configure(self->nl, &cfg, &gen, &gen));
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	EXPECT_EQ((uint32_t)CPUMGR_POLICY_STATIC, st.policy);
	EXPECT_EQ((uint32_t)CPUMGR_OPT_STRICT_CPU_RESERVATION, st.options);
	EXPECT_STREQ(self->c.name[0], st.reserved_cpus);
	EXPECT_EQ(gen, st.generation);
	cpumgr_table_free(&st);
	cpumgr_table_free(&before);
}

TEST_F(cmds, assign_and_get)
{
	struct cpumgr_assignment a, got;
	struct cpumgr_table st;
	char cpus[64];
	uint64_t gen, gen0;

	ASSERT_EQ(0, sft_static(self->nl));
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	gen0 = st.generation;
	cpumgr_table_free(&st);
	snprintf(cpus, sizeof(cpus), "%d-%d", self->c.cpu[2], self->c.cpu[3]);
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "pod-a", "init", cpus,
				      CPUMGR_ASSIGNMENT_F_INIT, &gen0, &gen,
				      &a));
	EXPECT_EQ(gen0 + 1, gen);
	EXPECT_STREQ("pod-a", a.pod_uid);
	EXPECT_STREQ("init", a.container);
	EXPECT_EQ((uint32_t)CPUMGR_ASSIGNMENT_F_INIT, a.flags);
	EXPECT_EQ(gen, a.generation);
	EXPECT_EQ(NULL, a.cgroup_path);

	ASSERT_EQ(0, cpumgr_nl_get_assignment(self->nl, "pod-a", "init", &got));
	EXPECT_STREQ(a.cpus, got.cpus);
	EXPECT_EQ((uint32_t)CPUMGR_ASSIGNMENT_F_INIT, got.flags);
	EXPECT_EQ(gen, got.generation);
	cpumgr_assignment_free(&got);

	/* The app container of the same pod reuses the init container's. */
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "pod-a", "app", self->c.name[2],
				      0, NULL, &gen, NULL));
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	EXPECT_EQ(gen, st.generation);
	EXPECT_STREQ(a.cpus, st.exclusive_cpus);
	EXPECT_EQ(1U, st.nr_pods);
	EXPECT_EQ(2U, st.nr_assignments);
	cpumgr_table_free(&st);

	/* Assigning again replaces the container's CPUs. */
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "pod-a", "init", self->c.name[3],
				      0, NULL, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_get_assignment(self->nl, "pod-a", "init", &got));
	EXPECT_STREQ(self->c.name[3], got.cpus);
	EXPECT_EQ(0U, got.flags);
	cpumgr_assignment_free(&got);
	cpumgr_assignment_free(&a);
}

TEST_F(cmds, release_container_and_pod)
{
	struct cpumgr_assignment got;
	struct cpumgr_table st;
	char both[64];
	uint64_t gen, gen2;

	ASSERT_EQ(0, sft_static(self->nl));
	snprintf(both, sizeof(both), "%d-%d", self->c.cpu[1], self->c.cpu[2]);
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "init", both,
				      CPUMGR_ASSIGNMENT_F_INIT, NULL, NULL,
				      NULL));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "app", self->c.name[1], 0,
				      NULL, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "q", "app", self->c.name[3], 0,
				      NULL, &gen, NULL));

	/* A CPU another container of the pod holds stays assigned. */
	ASSERT_EQ(0, cpumgr_nl_release(self->nl, "p", "init", &gen, &gen2));
	EXPECT_EQ(gen + 1, gen2);
	EXPECT_EQ(-ENOENT, cpumgr_nl_get_assignment(self->nl, "p", "init",
						    &got));
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	snprintf(both, sizeof(both), "%d,%d", self->c.cpu[1], self->c.cpu[3]);
	EXPECT_STREQ(both, st.exclusive_cpus);
	EXPECT_EQ(2U, st.nr_pods);
	EXPECT_EQ(2U, st.nr_assignments);
	cpumgr_table_free(&st);

	/* Without a container, the whole pod goes. */
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "q", "side", self->c.name[4], 0,
				      NULL, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_release(self->nl, "q", NULL, NULL, &gen));
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	EXPECT_EQ(gen, st.generation);
	EXPECT_STREQ(self->c.name[1], st.exclusive_cpus);
	EXPECT_EQ(1U, st.nr_pods);
	EXPECT_EQ(1U, st.nr_assignments);
	cpumgr_table_free(&st);
	EXPECT_EQ(-ENOENT, cpumgr_nl_get_assignment(self->nl, "q", "side",
						    &got));
}

static unsigned long long dir_ino(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? 0 : (unsigned long long)sb.st_ino;
}

TEST_F(cmds, bind_cgroups)
{
	const char *pod_cg = CGROOT "/sft-bind-pod";
	const char *ctr_cg = CGROOT "/sft-bind-pod/app";
	struct cpumgr_assignment got;
	char *text;
	uint64_t gen, gen2;

	ASSERT_EQ(0, sft_static(self->nl));
	rmdir(ctr_cg);
	rmdir(pod_cg);
	ASSERT_EQ(0, mkdir(pod_cg, 0755));
	ASSERT_EQ(0, mkdir(ctr_cg, 0755));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "pod-b", "app", self->c.name[2],
				      0, NULL, &gen, NULL));

	ASSERT_EQ(0, cpumgr_nl_bind(self->nl, "pod-b", "app", ctr_cg, pod_cg,
				    &gen, &gen2));
	EXPECT_EQ(gen + 1, gen2);
	ASSERT_EQ(0, cpumgr_nl_get_assignment(self->nl, "pod-b", "app", &got));
	EXPECT_STREQ(ctr_cg, got.cgroup_path);
	EXPECT_EQ(dir_ino(ctr_cg), got.cgroup_id);
	EXPECT_STREQ(pod_cg, got.pod_cgroup_path);
	EXPECT_EQ(dir_ino(pod_cg), got.pod_cgroup_id);
	cpumgr_assignment_free(&got);
	text = sysfs("pods/pod-b/app/cgroup");
	EXPECT_STREQ(ctr_cg, text);
	free(text);
	text = sysfs("pods/pod-b/pod_cgroup");
	EXPECT_STREQ(pod_cg, text);
	free(text);

	/* "" unbinds; a path left out stays as it was. */
	ASSERT_EQ(0, cpumgr_nl_bind(self->nl, "pod-b", "app", "", NULL, NULL,
				    NULL));
	ASSERT_EQ(0, cpumgr_nl_get_assignment(self->nl, "pod-b", "app", &got));
	EXPECT_EQ(NULL, got.cgroup_path);
	EXPECT_EQ(0U, got.cgroup_id);
	EXPECT_STREQ(pod_cg, got.pod_cgroup_path);
	cpumgr_assignment_free(&got);
	ASSERT_EQ(0, cpumgr_nl_bind(self->nl, "pod-b", NULL, NULL, "", NULL,
				    NULL));
	ASSERT_EQ(0, cpumgr_nl_get_assignment(self->nl, "pod-b", "app", &got));
	EXPECT_EQ(NULL, got.pod_cgroup_path);
	EXPECT_EQ(0U, got.pod_cgroup_id);
	cpumgr_assignment_free(&got);
	text = sysfs("pods/pod-b/app/cgroup");
	EXPECT_STREQ("", text);
	free(text);

	EXPECT_EQ(0, cpumgr_nl_reset(self->nl, NULL, NULL));
	EXPECT_EQ(0, rmdir(ctr_cg));
	EXPECT_EQ(0, rmdir(pod_cg));
}

static int count_cb(const struct cpumgr_assignment *a, void *arg)
{
	struct cpumgr_assignment *seen = arg;

	/* Remember the last one and count through the generation field. */
	seen->flags++;
	seen->generation = a->generation;
	return 0;
}

TEST_F(cmds, dump_assignments)
{
	struct cpumgr_assignment *list, seen = { .flags = 0 };
	char pod[16], ctr[16];
	size_t n;
	uint64_t gen;
	int i;

	ASSERT_EQ(0, sft_static(self->nl));
	for (i = 0; i < self->c.n; i++) {
		snprintf(pod, sizeof(pod), "pod%d", i % 3);
		snprintf(ctr, sizeof(ctr), "c%d", i);
		ASSERT_EQ(0, cpumgr_nl_assign(self->nl, pod, ctr,
					      i < 8 ? self->c.name[i] : "",
					      0, NULL, &gen, NULL))
			TH_LOG("%s", cpumgr_nl_errmsg(self->nl));
		if (i == 7)
			break;
	}
	ASSERT_EQ(0, cpumgr_nl_list_assignments(self->nl, &list, &n));
	ASSERT_EQ((size_t)i + (i < self->c.n), n);
	for (size_t k = 0; k < n; k++) {
		int c = atoi(list[k].container + 1);

		snprintf(pod, sizeof(pod), "pod%d", c % 3);
		EXPECT_STREQ(pod, list[k].pod_uid);
		EXPECT_STREQ(self->c.name[c], list[k].cpus);
		/* One dump, one generation: the table's. */
		EXPECT_EQ(gen, list[k].generation);
	}
	cpumgr_assignments_free(list, n);
	EXPECT_EQ((int)n, cpumgr_nl_dump_assignments(self->nl, count_cb, &seen));
	EXPECT_EQ(n, seen.flags);
}

static int topo_cb(const struct cpumgr_cpu *cpu, void *arg)
{
	struct __test_metadata *_metadata = arg;
	char line[512], want[512];
	FILE *f;
	bool found = false;

	f = fopen(SFT_SYSFS "/topology", "r");
	if (!f)
		return -1;
	if (cpu->known)
		snprintf(want, sizeof(want), "%u %d %u %u %u %u %u %s\n",
			 cpu->id, cpu->online, cpu->package, cpu->die,
			 cpu->core, cpu->numa, cpu->llc, cpu->siblings);
	else
		snprintf(want, sizeof(want), "%u %d - - - - - -\n", cpu->id,
			 cpu->online);
	while (fgets(line, sizeof(line), f)) {
		if (atoi(line) == (int)cpu->id && line[0] != '#') {
			EXPECT_STREQ(want, line);
			found = true;
		}
	}
	fclose(f);
	EXPECT_TRUE(found) TH_LOG("cpu%u not in the topology file", cpu->id);
	return 0;
}

TEST_F(cmds, topology_dump_matches_sysfs)
{
	char *possible = sft_read_file("/sys/devices/system/cpu/possible");
	bool map[SFTEST_MAX_CPUS];
	int n = 0;

	ASSERT_TRUE(sft_parse_cpulist(possible, map));
	for (int c = 0; c < SFTEST_MAX_CPUS; c++)
		n += map[c];
	EXPECT_EQ(n, cpumgr_nl_dump_topology(self->nl, topo_cb, _metadata));
	free(possible);
}

TEST_F(cmds, reset)
{
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_POLICY | CPUMGR_CFG_RESERVED,
		.policy = CPUMGR_POLICY_STATIC,
		.reserved_cpus = self->c.name[0],
	};
	struct cpumgr_table st;
	uint64_t gen, gen2;
	char *pods;

	ASSERT_EQ(0, cpumgr_nl_configure(self->nl, &cfg, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "r", "a", self->c.name[1], 0,
				      NULL, &gen, NULL));
	ASSERT_EQ(0, cpumgr_nl_reset(self->nl, &gen, &gen2));
	EXPECT_EQ(gen + 1, gen2);
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	EXPECT_EQ(gen2, st.generation);
	EXPECT_EQ((uint32_t)CPUMGR_POLICY_NONE, st.policy);
	EXPECT_EQ(0U, st.options);
	EXPECT_STREQ("", st.reserved_cpus);
	EXPECT_STREQ("", st.exclusive_cpus);
	EXPECT_STREQ(st.online_cpus, st.shared_cpus);
	EXPECT_EQ(0U, st.nr_pods);
	cpumgr_table_free(&st);
	pods = sft_sysfs_text();
	ASSERT_NE(NULL, pods);
	EXPECT_EQ(NULL, strstr(pods, "pods/")) TH_LOG("%s", pods);
	free(pods);
}

/* The next event, which must come within a second. */
static int next_event(struct cpumgr_nl *nl, struct cpumgr_event *ev)
{
	return cpumgr_nl_recv_event(nl, ev, 1000);
}

TEST_F(cmds, one_event_per_change)
{
	struct cpumgr_restore_entry entry = {
		.pod_uid = "r", .container = "c", .cpus = self->c.name[3],
	};
	struct cpumgr_event ev;
	uint64_t gen;

	/* CONFIGURE first, unobserved: netlink_configured has it. */
	ASSERT_EQ(0, sft_static(self->nl));
	ASSERT_EQ(0, cpumgr_nl_subscribe(self->nl));
	ASSERT_LE(0, cpumgr_nl_event_fd(self->nl));

	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "c", self->c.name[1],
				      CPUMGR_ASSIGNMENT_F_INIT, NULL, &gen,
				      NULL));
	ASSERT_EQ(0, next_event(self->nl, &ev));
	EXPECT_EQ(CPUMGR_CMD_ASSIGNED_NTF, ev.type);
	EXPECT_EQ(gen, ev.generation);
	EXPECT_STREQ("p", ev.assignment.pod_uid);
	EXPECT_STREQ("c", ev.assignment.container);
	EXPECT_STREQ(self->c.name[1], ev.assignment.cpus);
	EXPECT_EQ((uint32_t)CPUMGR_ASSIGNMENT_F_INIT, ev.assignment.flags);
	cpumgr_event_free(&ev);

	ASSERT_EQ(0, cpumgr_nl_bind(self->nl, "p", "c", "", NULL, NULL, &gen));
	ASSERT_EQ(0, next_event(self->nl, &ev));
	EXPECT_EQ(CPUMGR_CMD_BOUND_NTF, ev.type);
	EXPECT_EQ(gen, ev.generation);
	EXPECT_STREQ("p", ev.assignment.pod_uid);
	EXPECT_STREQ("c", ev.assignment.container);
	EXPECT_STREQ("", ev.assignment.cgroup_path);
	EXPECT_EQ(NULL, ev.assignment.pod_cgroup_path);
	cpumgr_event_free(&ev);

	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "d", self->c.name[2], 0,
				      NULL, NULL, NULL));
	ASSERT_EQ(0, next_event(self->nl, &ev));
	cpumgr_event_free(&ev);
	ASSERT_EQ(0, cpumgr_nl_release(self->nl, "p", "c", NULL, &gen));
	ASSERT_EQ(0, next_event(self->nl, &ev));
	EXPECT_EQ(CPUMGR_CMD_RELEASED_NTF, ev.type);
	EXPECT_EQ(gen, ev.generation);
	EXPECT_STREQ("p", ev.assignment.pod_uid);
	EXPECT_STREQ("c", ev.assignment.container);
	EXPECT_STREQ(self->c.name[1], ev.assignment.cpus);
	cpumgr_event_free(&ev);
	ASSERT_EQ(0, cpumgr_nl_release(self->nl, "p", NULL, NULL, &gen));
	ASSERT_EQ(0, next_event(self->nl, &ev));
	EXPECT_EQ(CPUMGR_CMD_RELEASED_NTF, ev.type);
	EXPECT_EQ(gen, ev.generation);
	EXPECT_STREQ("", ev.assignment.container);
	EXPECT_STREQ(self->c.name[2], ev.assignment.cpus);
	cpumgr_event_free(&ev);

	ASSERT_EQ(0, cpumgr_nl_restore(self->nl, &entry, 1, NULL, &gen));
	ASSERT_EQ(0, next_event(self->nl, &ev));
	EXPECT_EQ(CPUMGR_CMD_RESTORED_NTF, ev.type);
	EXPECT_EQ(gen, ev.generation);
	EXPECT_EQ(1U, ev.table.nr_pods);
	EXPECT_EQ(1U, ev.table.nr_assignments);
	cpumgr_event_free(&ev);

	ASSERT_EQ(0, cpumgr_nl_reset(self->nl, NULL, &gen));
	ASSERT_EQ(0, next_event(self->nl, &ev));
	EXPECT_EQ(CPUMGR_CMD_RESET_NTF, ev.type);
	EXPECT_EQ(gen, ev.generation);
	cpumgr_event_free(&ev);

	/* A refusal is no change: no event. */
	EXPECT_EQ(-ENOENT, cpumgr_nl_release(self->nl, "nope", NULL, NULL,
					     NULL));
	EXPECT_EQ(-EAGAIN, cpumgr_nl_recv_event(self->nl, &ev, 300));
}

TEST_HARNESS_MAIN
