// SPDX-License-Identifier: GPL-2.0
/*
 * A refused attach changes nothing (node_attach.c), on the tree stand-in:
 * a --pid that names no process is refused before any cgroup is made,
 * and an attach that fails after making the container's cgroup (the pod
 * cgroup's cpu.max cannot be written) removes the cgroups it made,
 * unbinds them in the kernel and leaves the pod's record as it was; the
 * pod cgroup that was there before stays.  A second attach then works.
 * A pod cgroup that is a sibling sharing the prefix is refused first.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "standin_node.h"
#include "test_util.h"

#define rig standin_node
#define run standin_runf

#define ATTACH "attach --pod g1 --container app --cgroup podg1/app --pod-cgroup podg1 --create"

FIXTURE(attach) {
	struct rig r;
};

FIXTURE_SETUP(attach)
{
	struct rig *r = &self->r;

	ASSERT_EQ(0, standin_tree_new(r));
	ASSERT_EQ(0, standin_tree_init(r)) TH_LOG("%s", r->out);
	run(r, "admit g.json");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
}

FIXTURE_TEARDOWN(attach)
{
	fake_tree_free(self->r.dir);
}

/* The stand-in kernel's line of g1/app: "a g1 app CPUS FLAGS [CGROUPS]". */
static const char *kernel_line(struct rig *r, char *buf, size_t len)
{
	char *kernel = standin_file(r, "kernel");
	const char *line = kernel ? strstr(kernel, "a g1 app ") : NULL;

	snprintf(buf, len, "%.*s", line ? (int)strcspn(line, "\n") : 0,
		 line ? line : "");
	free(kernel);
	return buf;
}

/* A pid that was a process's and is no more. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

TEST_F(attach, no_such_pid_makes_nothing)
{
	struct rig *r = &self->r;
	char line[256];
	pid_t pid = dead_pid();

	ASSERT_EQ(-1, kill(pid, 0));
	run(r, ATTACH " --pid %d", (int)pid);
	EXPECT_NE(0, r->status);
	EXPECT_NE(NULL, strstr(r->out, "no such process")) TH_LOG("%s", r->out);
	EXPECT_FALSE(fake_exists(r->dir, "cg/kubepods/podg1"));
	EXPECT_STREQ("a g1 app 2,10 0", kernel_line(r, line, sizeof(line)));
	run(r, ATTACH);
	EXPECT_EQ(0, r->status) TH_LOG("%s", r->out);
	EXPECT_TRUE(fake_exists(r->dir, "cg/kubepods/podg1/app/cpuset.cpus"));
}

/* a pod cgroup whose name only begins the container's: refused, nothing made */
TEST_F(attach, a_sibling_is_no_pod_cgroup)
{
	struct rig *r = &self->r;

	run(r, "attach --pod g1 --container app --cgroup podg10/app --pod-cgroup podg1 --create");
	EXPECT_NE(0, r->status);
	EXPECT_NE(NULL, strstr(r->out, "is not below the pod cgroup")) TH_LOG("%s", r->out);
	EXPECT_FALSE(fake_exists(r->dir, "cg/kubepods/podg1"));
	EXPECT_FALSE(fake_exists(r->dir, "cg/kubepods/podg10"));
}

TEST_F(attach, a_failed_step_removes_what_it_made)
{
	struct rig *r = &self->r;
	char *pod, line[256], path[PATH_MAX];

	/* the pod cgroup is there, its cpu.max cannot be written */
	fake_mkdir(r->dir, "cg/kubepods/podg1/cpu.max");
	run(r, ATTACH);
	EXPECT_NE(0, r->status);
	EXPECT_NE(NULL, strstr(r->out, "podg1/cpu.max: Is a directory"))
		TH_LOG("%s", r->out);
	EXPECT_EQ(NULL, strstr(r->out, "undoing")) TH_LOG("%s", r->out);
	EXPECT_FALSE(fake_exists(r->dir, "cg/kubepods/podg1/app"));
	EXPECT_TRUE(fake_exists(r->dir, "cg/kubepods/podg1"));
	EXPECT_STREQ("a g1 app 2,10 0", kernel_line(r, line, sizeof(line)));
	pod = standin_file(r, "state/pods/g1.json");
	ASSERT_NE(NULL, pod);
	EXPECT_EQ(NULL, strstr(pod, "podg1")) TH_LOG("%s", pod);
	free(pod);
	xsnprintf(path, sizeof(path), "%s/cg/kubepods/podg1/cpu.max", r->dir);
	ASSERT_EQ(0, rmdir(path));
	run(r, ATTACH);
	EXPECT_EQ(0, r->status) TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(kernel_line(r, line, sizeof(line)), "/cg/kubepods/podg1/app "))
		TH_LOG("%s", line);
}

TEST_HARNESS_MAIN
