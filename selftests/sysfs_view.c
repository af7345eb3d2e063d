// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/cpumgr/: every file says what GET_STATE and GET_ASSIGNMENT
 * say, and pods/<uid>/<container>/ directories come and go with the
 * table.  A reader without CAP_SYS_ADMIN sees the same in both: the node
 * files but cgroup_root and system_cgroup, whose netlink twins
 * CGROUP_ROOT and SYSTEM_CGROUP are left out of its GET_STATE, and
 * neither pods/ nor GET_ASSIGNMENT.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

FIXTURE(view) {
	struct cpumgr_nl *nl;
	struct sft_cpus cpus;	/* cpus.name[0] left to the system */
};

FIXTURE_SETUP(view)
{
	self->nl = sft_nl_open();
	ASSERT_NE(NULL, self->nl);
	ASSERT_TRUE(sft_cpus_read(&self->cpus, 5));
}

FIXTURE_TEARDOWN(view)
{
	EXPECT_EQ(0, sft_reset_close(self->nl));
}

/* Every node file against GET_STATE. */
/* A cgroup path's file: the table's path to root, refused to others. */
static void path_file_is(struct __test_metadata *_metadata, const char *file,
			 const char *path, bool restricted)
{
	char *f;

	errno = 0;
	f = sft_read_file(file);
	if (restricted) {
		/* root's in both */
		EXPECT_EQ(NULL, f);
		EXPECT_EQ(EACCES, errno);
		EXPECT_EQ(NULL, path);
	} else {
		EXPECT_STREQ(path ? path : "", f);
	}
	free(f);
}

static void check_node_files(struct __test_metadata *_metadata,
			     struct cpumgr_nl *nl)
{
	struct cpumgr_table st;
	char *f, opts[512] = "";
	long gen;

	ASSERT_EQ(0, cpumgr_nl_get_table(nl, &st));
	f = sft_read_file(SFT_SYSFS "/version");
	EXPECT_STREQ(st.version, f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/policy");
	EXPECT_STREQ(cpumgr_policy_name(st.policy), f);
	free(f);
	for (uint32_t bit = 1; bit <= CPUMGR_OPT_ALL; bit <<= 1) {
		if (st.options & bit)
			snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
				 "%s%s", opts[0] ? "," : "",
				 cpumgr_option_name(bit));
	}
	f = sft_read_file(SFT_SYSFS "/options");
	EXPECT_STREQ(opts, f);
	free(f);
	ASSERT_TRUE(sft_read_long(&gen, SFT_SYSFS "/generation"));
	EXPECT_EQ((long)st.generation, gen);
	f = sft_read_file(SFT_SYSFS "/reserved_cpus");
	EXPECT_STREQ(st.reserved_cpus, f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/shared_cpus");
	EXPECT_STREQ(st.shared_cpus, f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/exclusive_cpus");
	EXPECT_STREQ(st.exclusive_cpus, f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/enforce");
	EXPECT_STREQ(cpumgr_enforce_name(st.enforce), f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/hotplug");
	EXPECT_STREQ(cpumgr_hotplug_name(st.hotplug), f);
	free(f);
	path_file_is(_metadata, SFT_SYSFS "/cgroup_root", st.cgroup_root,
		     st.restricted);
	path_file_is(_metadata, SFT_SYSFS "/system_cgroup", st.system_cgroup,
		     st.restricted);
	ASSERT_TRUE(sft_read_long(&gen, SFT_SYSFS "/violations"));
	EXPECT_EQ((long)st.violations, gen);
	ASSERT_TRUE(sft_read_long(&gen, SFT_SYSFS "/offlines_refused"));
	EXPECT_EQ((long)st.offlines_refused, gen);
	ASSERT_TRUE(sft_read_long(&gen, SFT_SYSFS "/events_dropped"));
	EXPECT_EQ((long)st.events_dropped, gen);
	cpumgr_table_free(&st);
}

/*
 * The same files and GET_STATE for uid 65534 (effective: the saved
 * uid 0 brings root back for the teardown), against a configured root
 * and a bound assignment, which it must not see.
 */
TEST_F(view, reader_without_cap_sys_admin_sees_the_same)
{
	const char *cg = "/sys/fs/cgroup/sft-view-reader";
	struct cpumgr_config root = {
		.set = CPUMGR_CFG_CGROUP_ROOT,
		.cgroup_root = "/sys/fs/cgroup",
	};
	struct cpumgr_assignment *list = NULL, a;
	struct cpumgr_table st;
	struct cpumgr_nl *nl;
	size_t n = 0;

	ASSERT_EQ(0, sft_static(self->nl));
	ASSERT_EQ(0, cpumgr_nl_configure(self->nl, &root, NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "a", self->cpus.name[2], 0,
				      NULL, NULL, NULL));
	mkdir(cg, 0755);
	ASSERT_EQ(0, cpumgr_nl_bind(self->nl, "p", "a", cg, cg, NULL, NULL));

	ASSERT_EQ(0, seteuid(65534));
	nl = sft_nl_open();
	ASSERT_NE(NULL, nl);
	ASSERT_EQ(0, cpumgr_nl_get_table(nl, &st));
	EXPECT_TRUE(st.restricted);
	EXPECT_EQ(NULL, st.cgroup_root);
	EXPECT_EQ(1U, st.nr_assignments);
	cpumgr_table_free(&st);
	check_node_files(_metadata, nl);
	EXPECT_EQ(-EPERM, cpumgr_nl_list_assignments(nl, &list, &n));
	EXPECT_EQ(0U, n);
	EXPECT_EQ(-EPERM, cpumgr_nl_get_assignment(nl, "p", "a", &a));
	/* access() would ask for the real uid, root's */
	EXPECT_NE(0, faccessat(AT_FDCWD, SFT_SYSFS "/pods", R_OK, AT_EACCESS));
	EXPECT_EQ(EACCES, errno);
	cpumgr_nl_close(nl);
	ASSERT_EQ(0, seteuid(0));

	/* and root's view has what the reader's lacks */
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st));
	EXPECT_FALSE(st.restricted);
	EXPECT_STREQ("/sys/fs/cgroup", st.cgroup_root);
	cpumgr_table_free(&st);
	check_node_files(_metadata, self->nl);
	ASSERT_EQ(0, cpumgr_nl_reset(self->nl, NULL, NULL));
	EXPECT_EQ(0, rmdir(cg));
}

static bool exists(const char *fmt, const char *a, const char *b)
{
	char path[512];

	snprintf(path, sizeof(path), fmt, a, b);
	return access(path, F_OK) == 0;
}

TEST_F(view, node_files_follow_the_table)
{
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_POLICY | CPUMGR_CFG_OPTIONS |
		       CPUMGR_CFG_RESERVED,
		.policy = CPUMGR_POLICY_STATIC,
		.options = CPUMGR_OPT_ALIGN_BY_SOCKET |
			   CPUMGR_OPT_STRICT_CPU_RESERVATION,
		.reserved_cpus = self->cpus.name[1],
	};
	struct cpumgr_config modes = {
		.set = CPUMGR_CFG_ENFORCE | CPUMGR_CFG_HOTPLUG |
		       CPUMGR_CFG_CGROUP_ROOT,
		.enforce = CPUMGR_ENFORCE_AUDIT,
		.hotplug = CPUMGR_HOTPLUG_RELEASE,
		.cgroup_root = "/sys/fs/cgroup",
	};

	check_node_files(_metadata, self->nl);
	ASSERT_EQ(0, cpumgr_nl_configure(self->nl, &cfg, NULL, NULL));
	check_node_files(_metadata, self->nl);
	ASSERT_EQ(0, cpumgr_nl_configure(self->nl, &modes, NULL, NULL))
		TH_LOG("%s", cpumgr_nl_errmsg(self->nl));
	check_node_files(_metadata, self->nl);
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "a", self->cpus.name[2], 0, NULL,
				      NULL, NULL));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "q", "a", self->cpus.name[3], 0, NULL,
				      NULL, NULL));
	check_node_files(_metadata, self->nl);
	ASSERT_EQ(0, cpumgr_nl_release(self->nl, "p", NULL, NULL, NULL));
	check_node_files(_metadata, self->nl);
}

TEST_F(view, pod_directories_come_and_go)
{
	const char *cg = "/sys/fs/cgroup/sft-view";
	char *f;

	ASSERT_EQ(0, sft_static(self->nl));
	EXPECT_FALSE(exists(SFT_SYSFS "/pods/%s%s", "p", ""));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "init", self->cpus.name[2],
				      CPUMGR_ASSIGNMENT_F_INIT, NULL, NULL,
				      NULL));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "app", self->cpus.name[2], 0,
				      NULL, NULL, NULL));
	EXPECT_TRUE(exists(SFT_SYSFS "/pods/%s/%s", "p", "init"));
	EXPECT_TRUE(exists(SFT_SYSFS "/pods/%s/%s", "p", "app"));
	f = sft_read_file(SFT_SYSFS "/pods/p/init/cpus");
	EXPECT_STREQ(self->cpus.name[2], f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/pods/p/init/flags");
	EXPECT_STREQ("init", f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/pods/p/app/flags");
	EXPECT_STREQ("", f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/pods/p/app/cgroup");
	EXPECT_STREQ("", f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/pods/p/pod_cgroup");
	EXPECT_STREQ("", f);
	free(f);

	/* Replacing the CPUs shows at once. */
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "app", self->cpus.name[3], 0,
				      NULL, NULL, NULL));
	f = sft_read_file(SFT_SYSFS "/pods/p/app/cpus");
	EXPECT_STREQ(self->cpus.name[3], f);
	free(f);

	mkdir(cg, 0755);
	ASSERT_EQ(0, cpumgr_nl_bind(self->nl, "p", "app", cg, cg, NULL, NULL));
	f = sft_read_file(SFT_SYSFS "/pods/p/app/cgroup");
	EXPECT_STREQ(cg, f);
	free(f);
	f = sft_read_file(SFT_SYSFS "/pods/p/pod_cgroup");
	EXPECT_STREQ(cg, f);
	free(f);

	/* The container goes; the pod stays while it has one. */
	ASSERT_EQ(0, cpumgr_nl_release(self->nl, "p", "init", NULL, NULL));
	EXPECT_FALSE(exists(SFT_SYSFS "/pods/%s/%s", "p", "init"));
	EXPECT_TRUE(exists(SFT_SYSFS "/pods/%s/%s", "p", "app"));
	ASSERT_EQ(0, cpumgr_nl_release(self->nl, "p", "app", NULL, NULL));
	EXPECT_FALSE(exists(SFT_SYSFS "/pods/%s%s", "p", ""));

	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "q", "a", self->cpus.name[4], 0, NULL,
				      NULL, NULL));
	EXPECT_TRUE(exists(SFT_SYSFS "/pods/%s/%s", "q", "a"));
	ASSERT_EQ(0, cpumgr_nl_reset(self->nl, NULL, NULL));
	EXPECT_FALSE(exists(SFT_SYSFS "/pods/%s%s", "q", ""));
	EXPECT_EQ(0, rmdir(cg));
}

TEST_F(view, files_are_read_only)
{
	static const char *const files[] = {
		"version", "policy", "options", "generation", "reserved_cpus",
		"shared_cpus", "exclusive_cpus", "topology", "enforce",
		"hotplug", "cgroup_root", "system_cgroup", "violations",
		"offlines_refused", "events_dropped",
		"pods/p/a/cpus", "pods/p/a/cgroup", "pods/p/a/flags",
		"pods/p/pod_cgroup",
	};
	char path[256];
	struct stat sb;

	ASSERT_EQ(0, sft_static(self->nl));
	ASSERT_EQ(0, cpumgr_nl_assign(self->nl, "p", "a", self->cpus.name[2], 0, NULL,
				      NULL, NULL));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), SFT_SYSFS "/%s", files[i]);
		ASSERT_EQ(0, stat(path, &sb)) TH_LOG("%s", path);
		/* pods/ and the cgroup paths are root's: names and paths */
		EXPECT_EQ(strncmp(files[i], "pods/", 5) &&
			  strcmp(files[i], "cgroup_root") &&
			  strcmp(files[i], "system_cgroup") ? 0444U : 0400U,
			  sb.st_mode & 0777) TH_LOG("%s", path);
		EXPECT_GT(0, sft_write_file(path, "0")) TH_LOG("%s", path);
	}
}

TEST_HARNESS_MAIN
