// SPDX-License-Identifier: GPL-2.0
/*
 * Who may change the table: every mutating command needs CAP_SYS_ADMIN in
 * the initial user namespace (-EPERM otherwise, with an extack message,
 * and nothing changes), and the family lives in the initial network
 * namespace only.  Who may read what: GET_TOPOLOGY and GET_STATE are
 * open, but what names tenants is root's: GET_ASSIGNMENT (pod UIDs,
 * container names, cgroup paths and ids) is refused with -EPERM, and
 * GET_STATE leaves the paths of the managed root and the system cgroup
 * out (RESTRICTED), as sysfs keeps pods/, cgroup_root and system_cgroup
 * to root; the other node files are for
 * everyone.  The events group needs CAP_SYS_ADMIN too.  Each caller runs
 * in a child process:
 * uid 65534, root without CAP_SYS_ADMIN, root with CAP_SYS_ADMIN alone,
 * root in a new network namespace.  (Root of a new user namespace is not
 * tried: the guest runs the tests in a chroot, where unshare() of a user
 * namespace is refused.)
 */
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

/*
 * The managed root, held/c's cgroup (and its pod's) below it, and the
 * system cgroup beside that.
 */
#define PERM_ROOT "/sys/fs/cgroup/sft-perm"
#define PERM_CG PERM_ROOT "/c"
#define PERM_SYSTEM PERM_ROOT "/system"

FIXTURE(perm) {
	struct cpumgr_nl *nl;
	struct sft_cpus c;	/* c.name[1] held, c.name[2] free */
};

FIXTURE_SETUP(perm)
{
	struct cpumgr_config root = {
		.set = CPUMGR_CFG_CGROUP_ROOT | CPUMGR_CFG_SYSTEM_CGROUP,
		.cgroup_root = PERM_ROOT,
		.system_cgroup = PERM_SYSTEM,
	};

	self->nl = sft_nl_open();
	ASSERT_NE(NULL, self->nl);
	ASSERT_TRUE(sft_cpus_read(&self->c, 3));
	ASSERT_EQ(0, sft_static(self->nl));
	mkdir(PERM_ROOT, 0755);
	mkdir(PERM_CG, 0755);
	mkdir(PERM_SYSTEM, 0755);
	ASSERT_EQ(0, cpumgr_nl_configure(self->nl, &root, NULL, NULL))
		TH_LOG("%s", cpumgr_nl_errmsg(self->nl));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "held", "c", self->c.name[1], 0,
				      NULL, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_bind(self->nl, "held", "c", PERM_CG, PERM_CG,
				    NULL, NULL))
		TH_LOG("%s", cpumgr_nl_errmsg(self->nl));
}

FIXTURE_TEARDOWN(perm)
{
	EXPECT_EQ(0, sft_reset_close(self->nl));
	rmdir(PERM_CG);
	rmdir(PERM_SYSTEM);
	rmdir(PERM_ROOT);
}

/* Failures of the child, told on stderr and counted in its exit status. */
static int child_fails;

#define CHILD_CHECK(cond, fmt, ...) do {				\
	if (!(cond)) {							\
		fprintf(stderr, "# child: %s: " fmt "\n", #cond,	\
			##__VA_ARGS__);					\
		child_fails++;						\
	}								\
} while (0)

/* One mutating call, which must be refused with EPERM and a message. */
static void expect_eperm(struct cpumgr_nl *nl, const char *what, int ret)
{
	CHILD_CHECK(ret == -EPERM, "%s gave %d (%s)", what, ret,
		    cpumgr_nl_errmsg(nl));
	CHILD_CHECK(cpumgr_nl_errmsg(nl)[0], "%s: no extack message", what);
}

static void every_change_refused(struct cpumgr_nl *nl, const char *free_cpu)
{
	struct cpumgr_restore_entry e = { "x", "c", free_cpu, 0, NULL, NULL };
	struct cpumgr_config cfg = { .set = CPUMGR_CFG_POLICY,
				     .policy = CPUMGR_POLICY_NONE };

	expect_eperm(nl, "configure", cpumgr_nl_configure(nl, &cfg, NULL, NULL));
	expect_eperm(nl, "assign", cpumgr_nl_assign(nl, "x", "c", free_cpu, 0,
						    NULL, NULL, NULL));
	expect_eperm(nl, "release container",
		     cpumgr_nl_release(nl, "held", "c", NULL, NULL));
	expect_eperm(nl, "release pod",
		     cpumgr_nl_release(nl, "held", NULL, NULL, NULL));
	expect_eperm(nl, "bind", cpumgr_nl_bind(nl, "held", "c", "", "", NULL,
						NULL));
	expect_eperm(nl, "restore", cpumgr_nl_restore(nl, &e, 1, NULL, NULL));
	expect_eperm(nl, "reset", cpumgr_nl_reset(nl, NULL, NULL));
}

static int count_cpu(const struct cpumgr_cpu *cpu, void *arg)
{
	return 0;
}

/* CAP_SYS_ADMIN reads everything: the cgroup paths, the assignments. */
static void reads_all(struct cpumgr_nl *nl)
{
	struct cpumgr_assignment a;
	struct cpumgr_assignment *list;
	struct cpumgr_table st;
	size_t n;
	int err;

	err = cpumgr_nl_get_table(nl, &st);
	CHILD_CHECK(!err, "%s", cpumgr_nl_errmsg(nl));
	CHILD_CHECK(err || (!st.restricted && st.cgroup_root &&
			    !strcmp(st.cgroup_root, PERM_ROOT)),
		    "restricted %d, root %s", st.restricted, st.cgroup_root);
	CHILD_CHECK(err || (st.system_cgroup &&
			    !strcmp(st.system_cgroup, PERM_SYSTEM)),
		    "system %s", st.system_cgroup);
	cpumgr_table_free(&st);
	CHILD_CHECK(!cpumgr_nl_list_assignments(nl, &list, &n), "%s",
		    cpumgr_nl_errmsg(nl));
	CHILD_CHECK(n == 1, "%zu assignments", n);
	cpumgr_assignments_free(list, n);
	err = cpumgr_nl_get_assignment(nl, "held", "c", &a);
	CHILD_CHECK(!err, "%s", cpumgr_nl_errmsg(nl));
	CHILD_CHECK(err || (a.cgroup_path && !strcmp(a.cgroup_path, PERM_CG)),
		    "cgroup %s", a.cgroup_path);
	cpumgr_assignment_free(&a);
}

/*
 * Anyone else: the node's view (pools, counts, modes, topology), no
 * pod UID, container name, cgroup path or id, nor the managed root or
 * the system cgroup.
 */
static void reads_node_view(struct cpumgr_nl *nl)
{
	struct cpumgr_assignment *list = NULL, a;
	struct cpumgr_table st;
	size_t n = 0;
	int err;

	err = cpumgr_nl_get_table(nl, &st);
	CHILD_CHECK(!err, "%s", cpumgr_nl_errmsg(nl));
	CHILD_CHECK(err || (st.restricted && !st.cgroup_root &&
			    !st.system_cgroup &&
			    st.exclusive_cpus && st.exclusive_cpus[0] &&
			    st.nr_assignments == 1),
		    "restricted %d, root %s, exclusive %s, %u assignments",
		    st.restricted, st.cgroup_root, st.exclusive_cpus,
		    st.nr_assignments);
	cpumgr_table_free(&st);
	/* refused, and why: the dump's in its DONE */
	err = cpumgr_nl_list_assignments(nl, &list, &n);
	CHILD_CHECK(err == -EPERM && !n, "dump: %d, %zu assignments", err, n);
	CHILD_CHECK(strstr(cpumgr_nl_errmsg(nl), "CAP_SYS_ADMIN"), "dump: %s",
		    cpumgr_nl_errmsg(nl));
	if (!err)
		cpumgr_assignments_free(list, n);
	err = cpumgr_nl_get_assignment(nl, "held", "c", &a);
	CHILD_CHECK(err == -EPERM, "get: %d, pod %s cgroup %s", err,
		    a.pod_uid, a.cgroup_path);
	CHILD_CHECK(strstr(cpumgr_nl_errmsg(nl), "CAP_SYS_ADMIN"), "get: %s",
		    cpumgr_nl_errmsg(nl));
	if (!err)
		cpumgr_assignment_free(&a);
}

static void reads_work(struct cpumgr_nl *nl, bool admin)
{
	if (admin)
		reads_all(nl);
	else
		reads_node_view(nl);
	CHILD_CHECK(cpumgr_nl_dump_topology(nl, count_cpu, NULL) > 0, "%s",
		    cpumgr_nl_errmsg(nl));
}

/* The capability sets of this process with only `keep` in them (a mask
 * of CAP_* bits below 64), or everything but `drop`. */
static int set_caps(uint64_t keep, uint64_t drop)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	for (int i = 0; i < 2; i++) {
		uint32_t k = keep >> (32 * i), d = drop >> (32 * i);

		if (keep) {
			data[i].effective &= k;
			data[i].permitted &= k;
			data[i].inheritable &= k;
		}
		data[i].effective &= ~d;
		data[i].permitted &= ~d;
		data[i].inheritable &= ~d;
	}
	return syscall(SYS_capset, &hdr, data);
}

enum caller {
	NOBODY,			/* uid and gid 65534 */
	NO_SYS_ADMIN,		/* root without CAP_SYS_ADMIN */
	ONLY_SYS_ADMIN,		/* root with CAP_SYS_ADMIN and nothing else */
	NETNS,			/* root in a new network namespace */
};

static int become(enum caller who)
{
	switch (who) {
	case NOBODY:
		return setgroups(0, NULL) || setgid(65534) || setuid(65534);
	case NO_SYS_ADMIN:
		/* From the bounding set too: nothing can bring it back. */
		return prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) ||
		       set_caps(0, 1ULL << CAP_SYS_ADMIN);
	case ONLY_SYS_ADMIN:
		return set_caps(1ULL << CAP_SYS_ADMIN, 0);
	case NETNS:
		return unshare(CLONE_NEWNET);
	}
	return -1;
}

/*
 * What uid 65534 may read of sysfs: the node's files, not pods/,
 * cgroup_root nor system_cgroup, as GET_ASSIGNMENT and GET_STATE's
 * CGROUP_ROOT and SYSTEM_CGROUP.
 */
static void sysfs_for_nobody(void)
{
	static const char *const open_files[] = {
		"topology", "shared_cpus", "exclusive_cpus", "reserved_cpus",
		"policy", "generation",
	};
	char *text;

	for (size_t i = 0; i < sizeof(open_files) / sizeof(open_files[0]);
	     i++) {
		text = sft_read_file(SFT_SYSFS "/%s", open_files[i]);
		CHILD_CHECK(text, "%s: %m", open_files[i]);
		free(text);
	}
	CHILD_CHECK(access(SFT_SYSFS "/pods", R_OK) && errno == EACCES,
		    "pods/ can be listed");
	CHILD_CHECK(access(SFT_SYSFS "/pods", X_OK) && errno == EACCES,
		    "pods/ can be entered");
	text = sft_read_file(SFT_SYSFS "/pods/held/c/cpus");
	CHILD_CHECK(!text, "pods/held/c/cpus: %s", text);
	free(text);
	text = sft_read_file(SFT_SYSFS "/cgroup_root");
	CHILD_CHECK(!text && errno == EACCES, "cgroup_root: %s", text);
	free(text);
	text = sft_read_file(SFT_SYSFS "/system_cgroup");
	CHILD_CHECK(!text && errno == EACCES, "system_cgroup: %s", text);
	free(text);
}

/* Run in a child: become `who`, connect (after, so the socket is its). */
static int child(enum caller who, const char *free_cpu)
{
	struct cpumgr_nl *nl;
	char *msg = NULL;
	uint64_t gen;
	int err;

	if (become(who)) {
		fprintf(stderr, "# child: cannot become caller %d: %m\n", who);
		return 100;
	}
	nl = cpumgr_nl_open(&err, &msg);
	if (who == NETNS) {
		CHILD_CHECK(!nl && err == -ENOENT, "open in a new netns: %d %s",
			    err, msg ? msg : "");
		free(msg);
		cpumgr_nl_close(nl);
		return child_fails;
	}
	if (!nl) {
		fprintf(stderr, "# child: open: %s: %s\n", strerror(-err), msg);
		free(msg);
		return 101;
	}
	reads_work(nl, who == ONLY_SYS_ADMIN);
	if (who == NOBODY)
		sysfs_for_nobody();
	err = cpumgr_nl_subscribe(nl);
	CHILD_CHECK(err == (who == ONLY_SYS_ADMIN ? 0 : -EPERM),
		    "events subscription: %d %s", err, cpumgr_nl_errmsg(nl));
	if (who == ONLY_SYS_ADMIN) {
		/* CAP_SYS_ADMIN is what the header asks for, and enough. */
		CHILD_CHECK(!cpumgr_nl_assign(nl, "x", "c", free_cpu, 0, NULL,
					      &gen, NULL),
			    "%s", cpumgr_nl_errmsg(nl));
		CHILD_CHECK(!cpumgr_nl_release(nl, "x", NULL, &gen, NULL),
			    "%s", cpumgr_nl_errmsg(nl));
	} else {
		every_change_refused(nl, free_cpu);
	}
	cpumgr_nl_close(nl);
	return child_fails;
}

static int run_child(enum caller who, const char *free_cpu)
{
	int status;
	pid_t pid;

	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		_exit(child(who, free_cpu));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void check_caller(struct __test_metadata *_metadata,
			 FIXTURE_DATA(perm) *self, enum caller who)
{
	struct sft_table before, after;
	const char *diff;

	ASSERT_EQ(0, sft_table_read(self->nl, &before));
	EXPECT_EQ(0, run_child(who, self->c.name[2]));
	ASSERT_EQ(0, sft_table_read(self->nl, &after));
	diff = sft_table_diff(&before, &after);
	/* CAP_SYS_ADMIN alone assigned and released: two changes. */
	if (who == ONLY_SYS_ADMIN) {
		EXPECT_EQ(before.st.generation + 2, after.st.generation);
	} else {
		EXPECT_EQ(NULL, diff) TH_LOG("the table changed: %s", diff);
	}
	sft_table_free(&before);
	sft_table_free(&after);
}

/* As root: the modes that keep pods/ to root. */
TEST_F(perm, sysfs_modes)
{
	struct stat st;

	ASSERT_EQ(0, stat(SFT_SYSFS "/pods", &st));
	EXPECT_EQ(0700U, st.st_mode & 07777);
	ASSERT_EQ(0, stat(SFT_SYSFS "/pods/held/c/cpus", &st));
	EXPECT_EQ(0400U, st.st_mode & 07777);
	ASSERT_EQ(0, stat(SFT_SYSFS "/pods/held/pod_cgroup", &st));
	EXPECT_EQ(0400U, st.st_mode & 07777);
	ASSERT_EQ(0, stat(SFT_SYSFS "/cgroup_root", &st));
	EXPECT_EQ(0400U, st.st_mode & 07777);
	ASSERT_EQ(0, stat(SFT_SYSFS "/system_cgroup", &st));
	EXPECT_EQ(0400U, st.st_mode & 07777);
	ASSERT_EQ(0, stat(SFT_SYSFS "/topology", &st));
	EXPECT_EQ(0444U, st.st_mode & 07777);
}

TEST_F(perm, uid_65534)
{
	check_caller(_metadata, self, NOBODY);
}

TEST_F(perm, root_without_cap_sys_admin)
{
	check_caller(_metadata, self, NO_SYS_ADMIN);
}

TEST_F(perm, cap_sys_admin_alone_is_enough)
{
	check_caller(_metadata, self, ONLY_SYS_ADMIN);
}

TEST_F(perm, initial_network_namespace_only)
{
	check_caller(_metadata, self, NETNS);
}

TEST_HARNESS_MAIN
