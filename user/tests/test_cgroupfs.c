// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of cgroupfs: names and paths, creating and removing cgroups,
 * CPUs, processes and the walk, on fake v2 and v1 trees (plain
 * directories under $TMPDIR), and a read-only look at the host's own
 * cgroup mount when it has one.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "cgroupfs.h"
#include "fake_cgroup.h"
#include "test_util.h"

static struct cpuset cs(const char *list)
{
	struct cpuset s;

	if (cpuset_parse(&s, list, NULL))
		abort();
	return s;
}

static bool has(const struct cm_error *e, const char *text)
{
	return strstr(cm_error_msg(e), text) != NULL;
}

TEST(detect_and_init)
{
	struct cm_error err = { 0 };
	struct cgroupfs cg;
	char dir[PATH_MAX], path[PATH_MAX];

	fake_tree_new(dir, sizeof(dir));
	EXPECT_EQ(-ENOTSUP, cgroupfs_detect_version(dir, &err));
	CHECK(has(&err, "not a cgroup file system"), "%s", cm_error_msg(&err));
	xsnprintf(path, sizeof(path), "%s/none", dir);
	EXPECT_EQ(-ENOENT, cgroupfs_detect_version(path, &err));
	CHECK(has(&err, "/none: No such file or directory"), "%s",
	      cm_error_msg(&err));
	/* detecting: no cgroup2 here, and no v1 hierarchies either */
	EXPECT_EQ(-ENOENT, cgroupfs_init(&cg, dir, 0, &err));
	CHECK(has(&err, "/cpuset: no cgroup v1 cpuset hierarchy"), "%s",
	      cm_error_msg(&err));
	EXPECT_EQ(-EINVAL, cgroupfs_init(&cg, dir, 3, &err));
	EXPECT_STREQ("cgroup version 3: must be 1 or 2", cm_error_msg(&err));
	EXPECT_EQ(-ENOTDIR, fake_cgroupfs_init(&cg, path, 2, &err));

	ASSERT_EQ(0, fake_cgroupfs_init(&cg, dir, 2, &err));
	EXPECT_EQ(2, cg.version);
	EXPECT_EQ(&fake_cgroup_ops, cg.ops);
	EXPECT_STREQ(dir, cg.root[CGROUPFS_CPUSET]);
	EXPECT_STREQ(dir, cg.root[CGROUPFS_CPU]);

	EXPECT_EQ(-ENOENT, fake_cgroupfs_init(&cg, dir, 1, &err));
	fake_mkdir(dir, "cpuset");
	EXPECT_EQ(-ENOENT, fake_cgroupfs_init(&cg, dir, 1, &err));
	CHECK(has(&err, "no cgroup v1 cpu hierarchy"), "%s", cm_error_msg(&err));
	fake_mkdir(dir, "cpu");
	ASSERT_EQ(0, fake_cgroupfs_init(&cg, dir, 1, &err));
	xsnprintf(path, sizeof(path), "%s/cpu", dir);
	EXPECT_STREQ(path, cg.root[CGROUPFS_CPU]);
	fake_mkdir(dir, "cpu,cpuacct");
	ASSERT_EQ(0, fake_cgroupfs_init(&cg, dir, 1, &err));
	xsnprintf(path, sizeof(path), "%s/cpu,cpuacct", dir);
	EXPECT_STREQ(path, cg.root[CGROUPFS_CPU]);
	xsnprintf(path, sizeof(path), "%s/cpuset", dir);
	EXPECT_STREQ(path, cg.root[CGROUPFS_CPUSET]);
	fake_tree_free(dir);
	cm_error_clear(&err);
}

/* The host's cgroup mount, read only: it must be understood as it is. */
TEST(host_mount_read_only)
{
	struct cm_error err = { 0 };
	struct cpuset eff;
	struct cgroupfs cg;
	int v = cgroupfs_detect_version(CGROUPFS_MOUNT, NULL);

	if (v < 0 && access(CGROUPFS_MOUNT "/cpuset", F_OK))
		SKIP(return, "no cgroup file system at " CGROUPFS_MOUNT);
	ASSERT_EQ(0, cgroupfs_init(&cg, NULL, 0, &err)) {
		TH_LOG("%s", cm_error_msg(&err));
	}
	EXPECT_NE(&fake_cgroup_ops, cg.ops);
	EXPECT_EQ(v == 2 ? 2 : 1, cg.version);
	EXPECT_EQ(0, cgroupfs_get_effective_cpus(&cg, "/", &eff, &err)) {
		TH_LOG("%s", cm_error_msg(&err));
	}
	EXPECT_FALSE(cpuset_empty(&eff));
	cm_error_clear(&err);
}

TEST(names_and_paths)
{
	static const struct { const char *name, *path; } ok[] = {
		{ "kubepods/pod1/c1", "/r/kubepods/pod1/c1" },
		{ "/kubepods/burstable/", "/r/kubepods/burstable" },
		{ "", "/r" }, { "/", "/r" }, { NULL, "/r" },
		{ "a.slice/b-c.scope", "/r/a.slice/b-c.scope" },
		{ "...", "/r/..." },
	};
	static const char *const bad[] = {
		"a//b", "a/../b", "./a", "..", "a/.", "//a/./b",
	};
	struct cgroupfs cg = { .version = 2 };
	struct cm_error err = { 0 };
	char buf[PATH_MAX];

	strcpy(cg.root[CGROUPFS_CPUSET], "/r");
	strcpy(cg.root[CGROUPFS_CPU], "/r");
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		CHECK(!cgroupfs_path(&cg, CGROUPFS_CPU, ok[i].name, NULL, buf,
				     sizeof(buf),
			       &err), "%s: %s", ok[i].name, cm_error_msg(&err));
		CHECK(!strcmp(buf, ok[i].path), "%s -> %s", ok[i].name, buf);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK(cgroupfs_path(&cg, CGROUPFS_CPU, bad[i], NULL, buf,
				    sizeof(buf),
				    &err) == -EINVAL, "%s accepted", bad[i]);
		CHECK(has(&err, "components are not allowed"), "%s",
		      cm_error_msg(&err));
	}
	EXPECT_EQ(0, cgroupfs_path(&cg, CGROUPFS_CPUSET, "a", "cpuset.cpus", buf,
				   sizeof(buf), &err));
	EXPECT_STREQ("/r/a/cpuset.cpus", buf);
	EXPECT_EQ(-ENAMETOOLONG, cgroupfs_path(&cg, CGROUPFS_CPUSET, "a", "cpuset.cpus",
					       buf, 8, &err));
	EXPECT_EQ(0, cgroupfs_name_normalize("//x/y//", buf, sizeof(buf), &err));
	EXPECT_STREQ("x/y", buf);
	cm_error_clear(&err);
}

FAKE_TREE_FIXTURE(v2);

FIXTURE_SETUP(v2)
{
	memset(&self->err, 0, sizeof(self->err));
	fake_tree_new(self->dir, sizeof(self->dir));
	fake_write(self->dir, "cgroup.subtree_control", "cpu io memory\n");
	fake_write(self->dir, "cpuset.cpus.effective", "0-7\n");
	ASSERT_EQ(0, fake_cgroupfs_init(&self->cg, self->dir, 2, &self->err));
}

TEST_F(v2, create_enables_controllers)
{
	const char *d = self->dir;
	struct cpuset s = cs("2-3");

	ASSERT_EQ(0, cgroupfs_create(&self->cg, "kubepods/pod1/c1", NULL,
				     &self->err)) {
		TH_LOG("%s", cm_error_msg(&self->err));
	}
	EXPECT_TRUE(fake_exists(d, "kubepods/pod1/c1"));
	/* only what each parent lacks, in one write */
	EXPECT_STREQ("+cpuset", fake_read(d, "cgroup.subtree_control"));
	EXPECT_STREQ("+cpuset +cpu",
		     fake_read(d, "kubepods/cgroup.subtree_control"));
	EXPECT_STREQ("+cpuset +cpu",
		     fake_read(d, "kubepods/pod1/cgroup.subtree_control"));
	/* a container is a leaf: it enables nothing, and inherits CPUs */
	EXPECT_FALSE(fake_exists(d, "kubepods/pod1/c1/cgroup.subtree_control"));
	EXPECT_FALSE(fake_exists(d, "kubepods/pod1/c1/cpuset.cpus"));

	fake_write(d, "kubepods/cgroup.subtree_control", "cpuset cpu\n");
	ASSERT_EQ(0, cgroupfs_create(&self->cg, "/kubepods/pod2/", &s, &self->err));
	EXPECT_STREQ("cpuset cpu\n",
		     fake_read(d, "kubepods/cgroup.subtree_control"));
	EXPECT_STREQ("2-3", fake_read(d, "kubepods/pod2/cpuset.cpus"));
	EXPECT_FALSE(fake_exists(d, "kubepods/cpuset.cpus"));
	/* again: nothing to do */
	EXPECT_EQ(0, cgroupfs_create(&self->cg, "kubepods/pod2", &s, &self->err));
	EXPECT_EQ(-EINVAL, cgroupfs_create(&self->cg, "kubepods/../x", NULL,
					   &self->err));
}

TEST_F(v2, cpus)
{
	struct cpuset s = cs("0-3,8"), got;
	char *msg;

	fake_mkdir(self->dir, "c1");
	ASSERT_EQ(0, cgroupfs_set_cpus(&self->cg, "c1", &s, &self->err));
	EXPECT_STREQ("0-3,8", fake_read(self->dir, "c1/cpuset.cpus"));
	ASSERT_EQ(0, cgroupfs_get_cpus(&self->cg, "c1", &got, &self->err));
	EXPECT_TRUE(cpuset_equal(&s, &got));
	/* v2 takes an empty cpuset.cpus: "inherit from the parent" */
	cpuset_zero(&s);
	ASSERT_EQ(0, cgroupfs_set_cpus(&self->cg, "c1", &s, &self->err));
	EXPECT_STREQ("\n", fake_read(self->dir, "c1/cpuset.cpus"));

	EXPECT_EQ(-ENOENT, cgroupfs_get_effective_cpus(&self->cg, "c1", &got,
						       &self->err));
	CHECK(has(&self->err, "/c1/cpuset.cpus.effective: No such file or directory"),
	      "%s", cm_error_msg(&self->err));
	fake_write(self->dir, "c1/cpuset.cpus.effective", "0-1\n");
	ASSERT_EQ(0, cgroupfs_get_effective_cpus(&self->cg, "c1", &got, &self->err));
	EXPECT_TRUE(cpuset_equal(&got, &(struct cpuset){ .w = { 3 } }));
	fake_write(self->dir, "c1/cpuset.cpus.effective", "0-1,x\n");
	EXPECT_EQ(-EINVAL, cgroupfs_get_effective_cpus(&self->cg, "c1", &got,
						       &self->err));
	msg = strdup(cm_error_msg(&self->err));
	CHECK(strstr(msg, "/c1/cpuset.cpus.effective: ") &&
	      strstr(msg, "invalid cpulist"), "%s", msg);
	free(msg);
}

TEST_F(v2, write_errors)
{
	char target[PATH_MAX], expect[PATH_MAX + 64];
	struct cpuset s = cs("1");

	/* a cgroup that is not there */
	EXPECT_EQ(-ENOENT, cgroupfs_set_cpus(&self->cg, "gone", &s, &self->err));
	xsnprintf(expect, sizeof(expect),
		 "%s/gone/cpuset.cpus: No such file or directory", self->dir);
	EXPECT_STREQ(expect, cm_error_msg(&self->err));
	/* a file that takes no value: /dev/full says ENOSPC to every write */
	fake_mkdir(self->dir, "c1");
	xsnprintf(target, sizeof(target), "%s/c1/cpuset.cpus", self->dir);
	ASSERT_EQ(0, symlink("/dev/full", target));
	EXPECT_EQ(-ENOSPC, cgroupfs_set_cpus(&self->cg, "c1", &s, &self->err));
	xsnprintf(expect, sizeof(expect),
		 "%s/c1/cpuset.cpus: write \"1\": No space left on device",
		 self->dir);
	EXPECT_STREQ(expect, cm_error_msg(&self->err));
}

TEST_F(v2, processes)
{
	pid_t *pids = NULL;
	size_t nr = 0;

	fake_mkdir(self->dir, "c1");
	ASSERT_EQ(0, cgroupfs_move(&self->cg, "c1", 1234, &self->err));
	EXPECT_STREQ("1234", fake_read(self->dir, "c1/cgroup.procs"));
	EXPECT_EQ(-EINVAL, cgroupfs_move(&self->cg, "c1", 0, &self->err));
	EXPECT_STREQ("pid 0: not a process id", cm_error_msg(&self->err));

	fake_write(self->dir, "c1/cgroup.procs", "1\n22\n333\n");
	ASSERT_EQ(0, cgroupfs_pids(&self->cg, "c1", &pids, &nr, &self->err));
	ASSERT_EQ(3u, nr);
	EXPECT_EQ(1, pids[0]);
	EXPECT_EQ(22, pids[1]);
	EXPECT_EQ(333, pids[2]);
	free(pids);
	fake_write(self->dir, "c1/cgroup.procs", "");
	ASSERT_EQ(0, cgroupfs_pids(&self->cg, "c1", &pids, &nr, &self->err));
	EXPECT_EQ(0u, nr);
	free(pids);
	fake_write(self->dir, "c1/cgroup.procs", "12\nabc\n");
	EXPECT_EQ(-EINVAL, cgroupfs_pids(&self->cg, "c1", &pids, &nr, &self->err));
	CHECK(has(&self->err, "/c1/cgroup.procs: not a process id: \"abc\""),
	      "%s", cm_error_msg(&self->err));
}

TEST_F(v2, remove)
{
	fake_write(self->dir, "kubepods/pod1/c1/cgroup.procs", "");
	EXPECT_EQ(-ENOTEMPTY, cgroupfs_remove(&self->cg, "kubepods", &self->err));
	CHECK(has(&self->err, "(it has processes or child cgroups)"), "%s",
	      cm_error_msg(&self->err));
	EXPECT_TRUE(fake_exists(self->dir, "kubepods/pod1/c1/cgroup.procs"));
	ASSERT_EQ(0, cgroupfs_remove(&self->cg, "kubepods/pod1/c1", &self->err));
	EXPECT_FALSE(fake_exists(self->dir, "kubepods/pod1/c1"));
	EXPECT_TRUE(fake_exists(self->dir, "kubepods/pod1"));
	/* already gone */
	EXPECT_EQ(0, cgroupfs_remove(&self->cg, "kubepods/pod1/c1", &self->err));
	EXPECT_EQ(-EINVAL, cgroupfs_remove(&self->cg, "/", &self->err));
	EXPECT_STREQ("the root cgroup cannot be removed",
		     cm_error_msg(&self->err));
}

struct seen {
	char text[2048];
	const char *stop_at;
	const char *remove;	/* a directory to remove when visited */
};

static int record(const struct cgroupfs_walk_entry *e, void *arg)
{
	struct seen *s = arg;
	size_t n = strlen(s->text);
	char *cpus = cpuset_to_str(e->effective);

	snprintf(s->text + n, sizeof(s->text) - n, "%s %u %s%s\n",
		 *e->name ? e->name : "/", e->depth, cpus,
		 e->inherited ? " inherited" : "");
	free(cpus);
	if (s->remove) {
		fake_tree_free(s->remove);
		s->remove = NULL;
	}
	return s->stop_at && !strcmp(e->name, s->stop_at) ? 7 : 0;
}

static void walk_tree(const char *d)
{
	fake_write(d, "kubepods/cpuset.cpus.effective", "0-7\n");
	fake_write(d, "kubepods/cgroup.procs", "");
	fake_write(d, "kubepods/pod1/cpuset.cpus.effective", "2-7\n");
	fake_write(d, "kubepods/pod1/c1/cpuset.cpus.effective", "2-3\n");
	fake_mkdir(d, "kubepods/pod1/c2");
	fake_write(d, "kubepods/pod0/cpuset.cpus.effective", "4-7\n");
	fake_write(d, "kubepods/pod0/b/cpuset.cpus.effective", "4\n");
}

TEST_F(v2, walk)
{
	struct seen s = { .text = "" };
	char path[PATH_MAX];

	walk_tree(self->dir);
	ASSERT_EQ(0, cgroupfs_walk(&self->cg, "kubepods", record, &s, &self->err)) {
		TH_LOG("%s", cm_error_msg(&self->err));
	}
	EXPECT_STREQ("kubepods 0 0-7\n"
		     "kubepods/pod0 1 4-7\n"
		     "kubepods/pod0/b 2 4\n"
		     "kubepods/pod1 1 2-7\n"
		     "kubepods/pod1/c1 2 2-3\n"
		     "kubepods/pod1/c2 2 2-7 inherited\n", s.text);

	/* the callback's non-zero return stops the walk */
	memset(&s, 0, sizeof(s));
	s.stop_at = "kubepods/pod0";
	EXPECT_EQ(7, cgroupfs_walk(&self->cg, "/kubepods/", record, &s, &self->err));
	EXPECT_STREQ("kubepods 0 0-7\nkubepods/pod0 1 4-7\n", s.text);

	/* starting where the cpuset controller is off: the parent's CPUs */
	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, cgroupfs_walk(&self->cg, "kubepods/pod1/c2", record, &s,
				   &self->err));
	EXPECT_STREQ("kubepods/pod1/c2 0 2-7 inherited\n", s.text);

	/* a cgroup removed during the walk is skipped */
	memset(&s, 0, sizeof(s));
	xsnprintf(path, sizeof(path), "%s/kubepods/pod1", self->dir);
	s.remove = path;
	ASSERT_EQ(0, cgroupfs_walk(&self->cg, "kubepods/pod0", record, &s,
				   &self->err));
	memset(&s, 0, sizeof(s));
	walk_tree(self->dir);
	fake_mkdir(self->dir, "kubepods/pod1/c1/x");
	s.remove = path;
	ASSERT_EQ(0, cgroupfs_walk(&self->cg, "kubepods", record, &s, &self->err));
	EXPECT_STREQ("kubepods 0 0-7\n"
		     "kubepods/pod0 1 4-7\n"
		     "kubepods/pod0/b 2 4\n", s.text);

	/* the whole hierarchy, from its root */
	memset(&s, 0, sizeof(s));
	walk_tree(self->dir);
	s.stop_at = "kubepods";
	EXPECT_EQ(7, cgroupfs_walk(&self->cg, "", record, &s, &self->err));
	EXPECT_STREQ("/ 0 0-7\nkubepods 1 0-7\n", s.text);

	EXPECT_EQ(-ENOENT, cgroupfs_walk(&self->cg, "nope", record, &s, &self->err));
	CHECK(has(&self->err, "/nope: No such file or directory"), "%s",
	      cm_error_msg(&self->err));
	memset(&s, 0, sizeof(s));
	fake_write(self->dir, "kubepods/pod0/b/cpuset.cpus.effective", "b\n");
	EXPECT_EQ(-EINVAL, cgroupfs_walk(&self->cg, "kubepods", record, &s,
					 &self->err));
	CHECK(has(&self->err, "/kubepods/pod0/b/cpuset.cpus.effective: "),
	      "%s", cm_error_msg(&self->err));
}

FAKE_TREE_FIXTURE(v1);

FIXTURE_SETUP(v1)
{
	memset(&self->err, 0, sizeof(self->err));
	fake_tree_new(self->dir, sizeof(self->dir));
	fake_write(self->dir, "cpuset/cpuset.cpus", "0-7\n");
	fake_write(self->dir, "cpuset/cpuset.mems", "0-1\n");
	fake_write(self->dir, "cpuset/cpuset.effective_cpus", "0-7\n");
	fake_write(self->dir, "cpuset/cpuset.effective_mems", "0-1\n");
	fake_mkdir(self->dir, "cpu,cpuacct");
	ASSERT_EQ(0, fake_cgroupfs_init(&self->cg, self->dir, 1, &self->err));
}

TEST_F(v1, create_fills_new_cpusets)
{
	const char *d = self->dir;
	struct cpuset s = cs("2-3");

	ASSERT_EQ(0, cgroupfs_create(&self->cg, "kubepods/pod1/c1", NULL,
				     &self->err)) {
		TH_LOG("%s", cm_error_msg(&self->err));
	}
	/* every new cpuset gets its parent's CPUs and memory nodes */
	EXPECT_STREQ("0-7", fake_read(d, "cpuset/kubepods/cpuset.cpus"));
	EXPECT_STREQ("0-1", fake_read(d, "cpuset/kubepods/cpuset.mems"));
	EXPECT_STREQ("0-7", fake_read(d, "cpuset/kubepods/pod1/c1/cpuset.cpus"));
	EXPECT_STREQ("0-1", fake_read(d, "cpuset/kubepods/pod1/c1/cpuset.mems"));
	EXPECT_TRUE(fake_exists(d, "cpu,cpuacct/kubepods/pod1/c1"));
	EXPECT_FALSE(fake_exists(d, "cpuset/cgroup.subtree_control"));

	/* or the CPUs asked for */
	ASSERT_EQ(0, cgroupfs_create(&self->cg, "kubepods/pod2", &s, &self->err));
	EXPECT_STREQ("2-3", fake_read(d, "cpuset/kubepods/pod2/cpuset.cpus"));
	EXPECT_STREQ("0-1", fake_read(d, "cpuset/kubepods/pod2/cpuset.mems"));
	EXPECT_TRUE(fake_exists(d, "cpu,cpuacct/kubepods/pod2"));
}

TEST_F(v1, create_rolls_back)
{
	const char *d = self->dir;
	char expect[PATH_MAX + 64];

	/* the cpu hierarchy cannot take x/y: x there is a file */
	fake_write(d, "cpu,cpuacct/x", "");
	EXPECT_EQ(-ENOTDIR, cgroupfs_create(&self->cg, "x/y", NULL, &self->err));
	xsnprintf(expect, sizeof(expect),
		 "mkdir %s/cpu,cpuacct/x/y: Not a directory", d);
	EXPECT_STREQ(expect, cm_error_msg(&self->err));
	/* what it created in the cpuset hierarchy is gone again */
	EXPECT_FALSE(fake_exists(d, "cpuset/x"));
	EXPECT_TRUE(fake_exists(d, "cpu,cpuacct/x"));
}

TEST_F(v1, cpus_need_mems)
{
	const char *d = self->dir;
	struct cpuset s = cs("4-5"), got;

	/* a cpuset made by someone else, without memory nodes yet */
	fake_write(d, "cpuset/other/cpuset.mems", "\n");
	fake_write(d, "cpuset/other/cpuset.effective_cpus", "4-5\n");
	ASSERT_EQ(0, cgroupfs_set_cpus(&self->cg, "other", &s, &self->err));
	EXPECT_STREQ("0-1", fake_read(d, "cpuset/other/cpuset.mems"));
	EXPECT_STREQ("4-5", fake_read(d, "cpuset/other/cpuset.cpus"));
	ASSERT_EQ(0, cgroupfs_get_effective_cpus(&self->cg, "other", &got,
						 &self->err));
	EXPECT_TRUE(cpuset_equal(&s, &got));
	/* mems already set: left alone */
	fake_write(d, "cpuset/other/cpuset.mems", "1\n");
	ASSERT_EQ(0, cgroupfs_set_cpus(&self->cg, "other", &s, &self->err));
	EXPECT_STREQ("1\n", fake_read(d, "cpuset/other/cpuset.mems"));
	/* no mems to copy: nothing written, the CPUs included */
	fake_write(d, "cpuset/a/cpuset.effective_cpus", "");
	fake_write(d, "cpuset/a/b/cpuset.mems", "");
	EXPECT_EQ(-ENOENT, cgroupfs_set_cpus(&self->cg, "a/b", &s, &self->err));
	CHECK(has(&self->err, "/cpuset/a/cpuset.effective_mems: No such file"),
	      "%s", cm_error_msg(&self->err));
	EXPECT_FALSE(fake_exists(d, "cpuset/a/b/cpuset.cpus"));
}

TEST_F(v1, processes_in_both_hierarchies)
{
	const char *d = self->dir;
	char target[PATH_MAX], expect[3 * PATH_MAX];

	ASSERT_EQ(0, cgroupfs_create(&self->cg, "c1", NULL, &self->err));
	ASSERT_EQ(0, cgroupfs_move(&self->cg, "c1", 42, &self->err));
	EXPECT_STREQ("42", fake_read(d, "cpuset/c1/cgroup.procs"));
	EXPECT_STREQ("42", fake_read(d, "cpu,cpuacct/c1/cgroup.procs"));
	/* the second move fails: the message says where the process is */
	xsnprintf(target, sizeof(target), "%s/cpu,cpuacct/c1/cgroup.procs", d);
	unlink(target);
	ASSERT_EQ(0, symlink("/dev/full", target));
	EXPECT_EQ(-ENOSPC, cgroupfs_move(&self->cg, "c1", 43, &self->err));
	xsnprintf(expect, sizeof(expect),
		 "pid 43 joined %s/cpuset/c1 but not its cpu cgroup: %s: write \"43\": No space left on device",
		 d, target);
	EXPECT_STREQ(expect, cm_error_msg(&self->err));
}

TEST_F(v1, remove_from_both)
{
	const char *d = self->dir;
	char expect[3 * PATH_MAX];

	ASSERT_EQ(0, cgroupfs_create(&self->cg, "a/b", NULL, &self->err));
	ASSERT_EQ(0, cgroupfs_remove(&self->cg, "a/b", &self->err));
	EXPECT_FALSE(fake_exists(d, "cpuset/a/b"));
	EXPECT_FALSE(fake_exists(d, "cpu,cpuacct/a/b"));
	/* the cpu side still has a child: half removed, and said so */
	fake_mkdir(d, "cpu,cpuacct/a/other");
	EXPECT_EQ(-ENOTEMPTY, cgroupfs_remove(&self->cg, "a", &self->err));
	xsnprintf(expect, sizeof(expect),
		 "removed %s/cpuset/a but not its cpu cgroup: rmdir %s/cpu,cpuacct/a: Directory not empty (it has processes or child cgroups)",
		 d, d);
	EXPECT_STREQ(expect, cm_error_msg(&self->err));
}

TEST_F(v1, walk_reads_effective_cpus)
{
	struct seen s = { .text = "" };

	ASSERT_EQ(0, cgroupfs_create(&self->cg, "k/p", NULL, &self->err));
	fake_write(self->dir, "cpuset/k/cpuset.effective_cpus", "0-3\n");
	fake_write(self->dir, "cpuset/k/p/cpuset.effective_cpus", "1\n");
	ASSERT_EQ(0, cgroupfs_walk(&self->cg, "", record, &s, &self->err));
	EXPECT_STREQ("/ 0 0-7\nk 1 0-3\nk/p 2 1\n", s.text);
}

TEST_HARNESS_MAIN
