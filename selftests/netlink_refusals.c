// SPDX-License-Identifier: GPL-2.0
/*
 * Every refusal include/uapi/linux/cpumgr.h lists, by errno: each one
 * fails with exactly that errno, says why in the extended ACK and leaves
 * GET_STATE, the dump and sysfs as they were (SFT_REFUSED).
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

/*
 * The table the refusals run against: static policy, the first online
 * CPU reserved, pod "other" holding the fourth.
 */
FIXTURE(refuse) {
	struct cpumgr_nl *nl;
	struct sft_cpus cpus;
	char *possible;
	uint64_t gen;
};

FIXTURE_SETUP(refuse)
{
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_POLICY | CPUMGR_CFG_RESERVED,
		.policy = CPUMGR_POLICY_STATIC,
	};
	self->nl = sft_nl_open();
	ASSERT_NE(NULL, self->nl);
	ASSERT_TRUE(sft_cpus_read(&self->cpus, 4));
	self->possible = sft_read_file("/sys/devices/system/cpu/possible");
	ASSERT_NE(NULL, self->possible);
	cfg.reserved_cpus = self->cpus.name[0];
	ASSERT_EQ(0, cpumgr_nl_configure(self->nl, &cfg, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "other", "c", self->cpus.name[3], 0,
				      NULL, &self->gen, NULL));
}

static int set_online(int cpu, bool on)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return sft_write_file(path, on ? "1" : "0");
}

FIXTURE_TEARDOWN(refuse)
{
	/* enxio_cpu_offline takes the last CPU down. */
	if (self->cpus.n)
		set_online(self->cpus.cpu[self->cpus.n - 1], true);
	free(self->possible);
	EXPECT_EQ(0, sft_reset_close(self->nl));
}

#define NL	self->nl
#define ASSIGN(pod, ctr, cpus) \
	cpumgr_nl_assign(NL, pod, ctr, cpus, 0, NULL, NULL, NULL)
#define RESTORE1(pod, ctr, cpus) ({					\
	struct cpumgr_restore_entry __e = { pod, ctr, cpus, 0, NULL, NULL }; \
	cpumgr_nl_restore(NL, &__e, 1, NULL, NULL);			\
})
#define RESERVE(cpus) ({						\
	struct cpumgr_config __c = { .set = CPUMGR_CFG_RESERVED,	\
				     .reserved_cpus = (cpus) };		\
	cpumgr_nl_configure(NL, &__c, NULL, NULL);			\
})

TEST_F(refuse, einval_missing_attribute)
{
	struct cpumgr_assignment a;

	SFT_REFUSED(NL, EINVAL, ASSIGN(NULL, "c", self->cpus.name[1]));
	SFT_REFUSED(NL, EINVAL, ASSIGN("p", NULL, self->cpus.name[1]));
	SFT_REFUSED(NL, EINVAL, ASSIGN("p", "c", NULL));
	SFT_REFUSED(NL, EINVAL, cpumgr_nl_release(NL, NULL, "c", NULL, NULL));
	SFT_REFUSED(NL, EINVAL, cpumgr_nl_bind(NL, NULL, "c", "", NULL, NULL,
					       NULL));
	SFT_REFUSED(NL, EINVAL, cpumgr_nl_get_assignment(NL, "other", NULL, &a));
	SFT_REFUSED(NL, EINVAL, RESTORE1("p", "c", NULL));
	SFT_REFUSED(NL, EINVAL, RESTORE1("p", NULL, self->cpus.name[1]));
	SFT_REFUSED(NL, EINVAL, RESTORE1(NULL, "c", self->cpus.name[1]));
}

TEST_F(refuse, einval_cpulist_syntax)
{
	static const char *const bad[] = {
		"3-1", "a", ",,", "1,", ",1", " 1", "1 ", "-1", "1-", "1--2",
		"1-2-3", "0x1", "+1", "1;2", "1\n", "01",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		TH_LOG("cpulist \"%s\"", bad[i]);
		SFT_REFUSED(NL, EINVAL, ASSIGN("p", "c", bad[i]));
		SFT_REFUSED(NL, EINVAL, RESTORE1("p", "c", bad[i]));
	}
	/* CONFIGURE parses the reserved CPUs the same way (no assignment
	 * changes here would be ENOTEMPTY, so go empty first). */
	ASSERT_EQ(0, cpumgr_nl_release(NL, "other", NULL, NULL, NULL));
	SFT_REFUSED(NL, EINVAL, RESERVE("3-1"));
	SFT_REFUSED(NL, EINVAL, RESERVE("1,"));
}

TEST_F(refuse, erange)
{
	char big[64];

	SFT_REFUSED(NL, ERANGE, ASSIGN("p", "c", "0-99999"));
	SFT_REFUSED(NL, ERANGE, ASSIGN("p", "c", "99999"));
	SFT_REFUSED(NL, ERANGE, ASSIGN("p", "c", "4294967296"));
	/* One past the possible CPUs: nr_cpu_ids is the last of them + 1. */
	snprintf(big, sizeof(big), "%ld",
		 strtol(strrchr(self->possible, '-') ?
			strrchr(self->possible, '-') + 1 : self->possible,
			NULL, 10) + 1);
	TH_LOG("possible %s, trying %s", self->possible, big);
	SFT_REFUSED(NL, ERANGE, ASSIGN("p", "c", big));
	SFT_REFUSED(NL, ERANGE, RESTORE1("p", "c", big));

}

/*
 * Strings one byte over their limits: refused by the netlink policy
 * (-EINVAL, "Attribute failed policy validation"), or for cpulists by
 * their parser (-EINVAL too), as the header says.
 */
TEST_F(refuse, strings_over_their_limits)
{
	size_t len = CPUMGR_CPULIST_MAX + 1;
	char *list = malloc(len + 1), *path = malloc(CPUMGR_PATH_MAX + 2);
	char name[80];

	memset(name, 'u', sizeof(name));
	name[CPUMGR_POD_UID_MAX + 1] = '\0';
	SFT_REFUSED(NL, EINVAL, ASSIGN(name, "c", self->cpus.name[1]));
	SFT_REFUSED(NL, EINVAL, cpumgr_nl_release(NL, name, NULL, NULL, NULL));
	memset(name, 'c', sizeof(name));
	name[CPUMGR_CONTAINER_MAX + 1] = '\0';
	SFT_REFUSED(NL, EINVAL, ASSIGN("p", name, self->cpus.name[1]));
	SFT_REFUSED(NL, EINVAL, RESTORE1("p", name, self->cpus.name[1]));

	/* Valid syntax, one byte too long: "0,0,0,...,0". */
	for (size_t i = 0; i < len; i++)
		list[i] = i % 2 ? ',' : '0';
	list[len - (len % 2 ? 0 : 1)] = '\0';
	ASSERT_LT((size_t)CPUMGR_CPULIST_MAX, strlen(list));
	SFT_REFUSED(NL, EINVAL, ASSIGN("p", "c", list));
	SFT_REFUSED(NL, EINVAL, RESERVE(list));
	path[0] = '/';
	memset(path + 1, 'd', CPUMGR_PATH_MAX);
	path[CPUMGR_PATH_MAX + 1] = '\0';
	SFT_REFUSED(NL, EINVAL, cpumgr_nl_bind(NL, "other", "c", path, NULL,
					       NULL, NULL));
	free(list);
	free(path);
}

TEST_F(refuse, enodev_cpu_not_present)
{
	char *present = sft_read_file("/sys/devices/system/cpu/present");
	bool p[SFTEST_MAX_CPUS], q[SFTEST_MAX_CPUS];
	char cpu[16] = "";

	ASSERT_TRUE(sft_parse_cpulist(self->possible, p));
	ASSERT_TRUE(sft_parse_cpulist(present, q));
	free(present);
	for (int c = 0; c < SFTEST_MAX_CPUS && !cpu[0]; c++) {
		if (p[c] && !q[c])
			snprintf(cpu, sizeof(cpu), "%d", c);
	}
	if (!cpu[0])
		SKIP(return, "every possible CPU is present");
	SFT_REFUSED(NL, ENODEV, ASSIGN("p", "c", cpu));
}

TEST_F(refuse, enxio_cpu_offline)
{
	int cpu = self->cpus.cpu[self->cpus.n - 1];
	char list[16];

	snprintf(list, sizeof(list), "%d", cpu);
	ASSERT_EQ(0, set_online(cpu, false));
	SFT_REFUSED(NL, ENXIO, ASSIGN("p", "c", list));
	SFT_REFUSED(NL, ENXIO, RESTORE1("p", "c", list));
	ASSERT_EQ(0, cpumgr_nl_release(NL, "other", NULL, NULL, NULL));
	SFT_REFUSED(NL, ENXIO, RESERVE(list));
	EXPECT_EQ(0, set_online(cpu, true));
}

TEST_F(refuse, enodata_empty_set)
{
	SFT_REFUSED(NL, ENODATA, ASSIGN("p", "c", ""));
	SFT_REFUSED(NL, ENODATA, RESTORE1("p", "c", ""));
}

TEST_F(refuse, eacces_reserved_cpu)
{
	char list[32];

	SFT_REFUSED(NL, EACCES, ASSIGN("p", "c", self->cpus.name[0]));
	snprintf(list, sizeof(list), "%s,%s", self->cpus.name[0], self->cpus.name[1]);
	SFT_REFUSED(NL, EACCES, ASSIGN("p", "c", list));
	SFT_REFUSED(NL, EACCES, RESTORE1("p", "c", list));
	/* Replacing an assignment with a reserved CPU keeps the old one. */
	SFT_REFUSED(NL, EACCES, ASSIGN("other", "c", self->cpus.name[0]));
}

TEST_F(refuse, ebusy_other_pod)
{
	struct cpumgr_restore_entry two[] = {
		{ "p", "c", self->cpus.name[1], 0, NULL, NULL },
		{ "q", "c", self->cpus.name[1], 0, NULL, NULL },
	};
	char list[32];

	SFT_REFUSED(NL, EBUSY, ASSIGN("p", "c", self->cpus.name[3]));
	snprintf(list, sizeof(list), "%s-%s", self->cpus.name[1], self->cpus.name[3]);
	SFT_REFUSED(NL, EBUSY, ASSIGN("p", "c", list));
	SFT_REFUSED(NL, EBUSY, cpumgr_nl_restore(NL, two, 2, NULL, NULL));
	/* Another container of the same pod may share: no refusal. */
	EXPECT_EQ(0, ASSIGN("other", "d", self->cpus.name[3]));
}

TEST_F(refuse, eopnotsupp_policy_none)
{
	ASSERT_EQ(0, cpumgr_nl_reset(NL, NULL, NULL));
	SFT_REFUSED(NL, EOPNOTSUPP, ASSIGN("p", "c", self->cpus.name[1]));
	SFT_REFUSED(NL, EOPNOTSUPP, RESTORE1("p", "c", self->cpus.name[1]));
}

TEST_F(refuse, eilseq_names)
{
	static const char *const pods[] = {
		"", "a/b", "/", ".", "..", "a b", "\x01", "tab\t", "\x7f",
		"caf\xc3\xa9",
	};
	static const char *const containers[] = {
		"", "-a", "a-", "-", "A", "App", "a_b", "a.b", "a b", "a/b",
		"caf\xc3\xa9",
	};
	size_t i;

	for (i = 0; i < sizeof(pods) / sizeof(pods[0]); i++) {
		TH_LOG("pod UID \"%s\"", pods[i]);
		SFT_REFUSED(NL, EILSEQ, ASSIGN(pods[i], "c", self->cpus.name[1]));
		SFT_REFUSED(NL, EILSEQ, RESTORE1(pods[i], "c", self->cpus.name[1]));
	}
	for (i = 0; i < sizeof(containers) / sizeof(containers[0]); i++) {
		TH_LOG("container \"%s\"", containers[i]);
		SFT_REFUSED(NL, EILSEQ, ASSIGN("p", containers[i], self->cpus.name[1]));
		SFT_REFUSED(NL, EILSEQ, RESTORE1("p", containers[i],
						 self->cpus.name[1]));
	}
	/* At the limits, and the odd but valid ones, are accepted. */
	EXPECT_EQ(0, ASSIGN("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
			    "a23456789-123456789-123456789-123456789-123456789-123456789-12",
			    self->cpus.name[1]));
	EXPECT_EQ(0, ASSIGN("~!@#$%^&*()_+.", "0", self->cpus.name[2]));
}

/* The SMT siblings of cpu, as "a,b" or "a-b"; NULL without SMT. */
static char *siblings(int cpu)
{
	char *list = sft_read_file("/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
				   cpu);

	if (list && !strpbrk(list, ",-")) {
		free(list);
		return NULL;
	}
	return list;
}

TEST_F(refuse, edom_full_pcpus_only)
{
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_OPTIONS,
		.options = CPUMGR_OPT_FULL_PCPUS_ONLY,
	};
	char *core = siblings(self->cpus.cpu[self->cpus.n - 1]);

	if (!core)
		SKIP(return, "no SMT: every CPU is a whole core");
	ASSERT_EQ(0, cpumgr_nl_release(NL, "other", NULL, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_configure(NL, &cfg, NULL, NULL));
	/* One thread of a two-thread core. */
	SFT_REFUSED(NL, EDOM, ASSIGN("p", "c",
				     self->cpus.name[self->cpus.n > 7 ? 7 : 3]));
	SFT_REFUSED(NL, EDOM, RESTORE1("p", "c",
				       self->cpus.name[self->cpus.n > 7 ? 7 : 3]));
	EXPECT_EQ(0, ASSIGN("p", "c", core)) TH_LOG("%s", cpumgr_nl_errmsg(NL));
	free(core);
}

/*
 * A pod holds CPUMGR_POD_CONTAINERS_MAX containers at most: a task's
 * check, with preemption off, visits each of them.  An ASSIGN of one
 * more, and a RESTORE naming one more, are refused; one already there
 * may still be changed.
 */
TEST_F(refuse, enospc_pod_containers)
{
	struct cpumgr_restore_entry e[CPUMGR_POD_CONTAINERS_MAX + 1];
	char names[CPUMGR_POD_CONTAINERS_MAX + 1][16];
	const char *cpu = self->cpus.name[1];
	int i;

	for (i = 0; i <= CPUMGR_POD_CONTAINERS_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "c%d", i);
		e[i] = (struct cpumgr_restore_entry){ "full", names[i], cpu, 0,
						      NULL, NULL };
	}
	SFT_REFUSED(NL, ENOSPC, cpumgr_nl_restore(NL, e,
						  CPUMGR_POD_CONTAINERS_MAX + 1,
						  NULL, NULL));
	for (i = 0; i < CPUMGR_POD_CONTAINERS_MAX; i++)
		ASSERT_EQ(0, ASSIGN("full", names[i], cpu)) TH_LOG("%s", names[i]);
	SFT_REFUSED(NL, ENOSPC, ASSIGN("full", names[i], cpu));
	EXPECT_EQ(0, ASSIGN("full", names[0], self->cpus.name[2]));
	/* other pods are not counted with it */
	EXPECT_EQ(0, ASSIGN("other", names[i], self->cpus.name[3]));
	ASSERT_EQ(0, cpumgr_nl_release(NL, "full", NULL, NULL, NULL));
	e[0].pod_uid = "other";
	e[0].cpus = self->cpus.name[3];
	EXPECT_EQ(0, cpumgr_nl_restore(NL, e, CPUMGR_POD_CONTAINERS_MAX, NULL,
				       NULL));
}

TEST_F(refuse, enoent_unknown)
{
	struct cpumgr_assignment a;

	SFT_REFUSED(NL, ENOENT, cpumgr_nl_release(NL, "nope", NULL, NULL, NULL));
	SFT_REFUSED(NL, ENOENT, cpumgr_nl_release(NL, "nope", "c", NULL, NULL));
	SFT_REFUSED(NL, ENOENT, cpumgr_nl_release(NL, "other", "d", NULL, NULL));
	SFT_REFUSED(NL, ENOENT, cpumgr_nl_bind(NL, "nope", "c", "", NULL, NULL,
					       NULL));
	SFT_REFUSED(NL, ENOENT, cpumgr_nl_bind(NL, "other", "d", "", NULL,
					       NULL, NULL));
	SFT_REFUSED(NL, ENOENT, cpumgr_nl_bind(NL, "nope", NULL, NULL, "",
					       NULL, NULL));
	SFT_REFUSED(NL, ENOENT, cpumgr_nl_get_assignment(NL, "nope", "c", &a));
	SFT_REFUSED(NL, ENOENT, cpumgr_nl_get_assignment(NL, "other", "d", &a));
}

TEST_F(refuse, estale_generation)
{
	struct cpumgr_restore_entry e = { "p", "c", self->cpus.name[1], 0, NULL, NULL };
	struct cpumgr_config cfg = { .set = CPUMGR_CFG_POLICY,
				     .policy = CPUMGR_POLICY_STATIC };
	uint64_t stale[] = { self->gen - 1, self->gen + 1, 0 };

	for (size_t i = 0; i < sizeof(stale) / sizeof(stale[0]); i++) {
		uint64_t *g = &stale[i];

		TH_LOG("expecting generation %llu at %llu",
		       (unsigned long long)*g, (unsigned long long)self->gen);
		SFT_REFUSED(NL, ESTALE, cpumgr_nl_configure(NL, &cfg, g, NULL));
		SFT_REFUSED(NL, ESTALE, cpumgr_nl_assign(NL, "p", "c",
							 self->cpus.name[1], 0, g,
							 NULL, NULL));
		SFT_REFUSED(NL, ESTALE, cpumgr_nl_release(NL, "other", NULL, g,
							  NULL));
		SFT_REFUSED(NL, ESTALE, cpumgr_nl_bind(NL, "other", "c", "",
						       NULL, g, NULL));
		SFT_REFUSED(NL, ESTALE, cpumgr_nl_restore(NL, &e, 1, g, NULL));
		SFT_REFUSED(NL, ESTALE, cpumgr_nl_reset(NL, g, NULL));
	}
	/* The right one works. */
	EXPECT_EQ(0, cpumgr_nl_release(NL, "other", NULL, &self->gen, NULL));
}

TEST_F(refuse, enotempty_configure_with_assignments)
{
	struct cpumgr_config cfg = { .set = CPUMGR_CFG_POLICY,
				     .policy = CPUMGR_POLICY_NONE };

	SFT_REFUSED(NL, ENOTEMPTY, cpumgr_nl_configure(NL, &cfg, NULL, NULL));
	cfg.set = CPUMGR_CFG_OPTIONS;
	cfg.options = CPUMGR_OPT_ALIGN_BY_SOCKET;
	SFT_REFUSED(NL, ENOTEMPTY, cpumgr_nl_configure(NL, &cfg, NULL, NULL));
	SFT_REFUSED(NL, ENOTEMPTY, RESERVE(self->cpus.name[1]));
	SFT_REFUSED(NL, ENOTEMPTY, RESERVE(""));
	/* The same values are no change, and allowed. */
	cfg.set = CPUMGR_CFG_POLICY | CPUMGR_CFG_OPTIONS | CPUMGR_CFG_RESERVED;
	cfg.policy = CPUMGR_POLICY_STATIC;
	cfg.options = 0;
	cfg.reserved_cpus = self->cpus.name[0];
	EXPECT_EQ(0, cpumgr_nl_configure(NL, &cfg, NULL, NULL))
		TH_LOG("%s", cpumgr_nl_errmsg(NL));
}

TEST_F(refuse, enotdir_not_a_cgroup)
{
	SFT_REFUSED(NL, ENOTDIR, cpumgr_nl_bind(NL, "other", "c", "/etc", NULL,
						NULL, NULL));
	SFT_REFUSED(NL, ENOTDIR, cpumgr_nl_bind(NL, "other", "c", "/tmp",
						NULL, NULL, NULL));
	SFT_REFUSED(NL, ENOTDIR, cpumgr_nl_bind(NL, "other", NULL, NULL,
						"/sys/fs/cgroup/cgroup.procs",
						NULL, NULL));
}

TEST_F(refuse, einval_bad_options)
{
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_OPTIONS,
		.options = CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_CORES |
			   CPUMGR_OPT_FULL_PCPUS_ONLY,
	};

	ASSERT_EQ(0, cpumgr_nl_release(NL, "other", NULL, NULL, NULL));
	SFT_REFUSED(NL, EINVAL, cpumgr_nl_configure(NL, &cfg, NULL, NULL));
	cfg.options = CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_CORES |
		      CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_NUMA;
	SFT_REFUSED(NL, EINVAL, cpumgr_nl_configure(NL, &cfg, NULL, NULL));
	/* Options need the static policy. */
	cfg.set = CPUMGR_CFG_POLICY | CPUMGR_CFG_OPTIONS;
	cfg.policy = CPUMGR_POLICY_NONE;
	cfg.options = CPUMGR_OPT_ALIGN_BY_SOCKET;
	SFT_REFUSED(NL, EINVAL, cpumgr_nl_configure(NL, &cfg, NULL, NULL));
}

TEST_HARNESS_MAIN
