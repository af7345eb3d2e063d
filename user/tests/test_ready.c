// SPDX-License-Identifier: GPL-2.0
/*
 * Probes that mean it (ctl_ready.c), with whole cpumgrctl processes on
 * the stand-in kernel (tests/standin_node.h): status --ready node is the
 * node set up and armed, --ready nri also an NRI plugin that holds its
 * lock and says it registered; a change of reserved CPUs while a pod
 * holds CPUs is refused naming the pod, and with --on-busy keep the
 * node keeps its settings, the refusal recorded until an init applies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "standin_node.h"
#include "test_util.h"
#include "../cpumgrctl/ctl_ready.h"

/* the functions of ctl_ready.c that write messages link against these */
bool ctl_err_severity;
const char *ctl_cmd_name = "test";

void ctl_err(const char *fmt, ...)
{
	(void)fmt;
}

void ctl_note(const char *fmt, ...)
{
	(void)fmt;
}

FIXTURE(ready) {
	struct standin_node sn;
	char state[PATH_MAX];
};

FIXTURE_SETUP(ready)
{
	ASSERT_EQ(0, standin_node_init(&self->sn)) TH_LOG("%s", self->sn.out);
	snprintf(self->state, sizeof(self->state), "%s/state", self->sn.dir);
}

FIXTURE_TEARDOWN(ready)
{
	standin_node_free(&self->sn);
}

/* A plugin of its own: a child that records STATE and waits on a pipe. */
static pid_t plugin(const char *dir, const char *state, int *stop)
{
	int go[2], ready[2];
	pid_t pid;
	char c;

	if (pipe(go) || pipe(ready))
		abort();
	pid = fork();
	if (pid == 0) {
		struct ctl_nri_record r;

		close(go[1]);
		close(ready[0]);
		ctl_nri_record_open(&r, dir);
		ctl_nri_record_set(&r, state, "decide", "10-cpumgr",
				   "/var/run/nri/nri.sock");
		if (write(ready[1], "x", 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		abort();
	close(ready[0]);
	*stop = go[1];
	return pid;
}

static void end(pid_t pid, int stop)
{
	close(stop);
	waitpid(pid, NULL, 0);
}

TEST_F(ready, node_and_the_registered_plugin)
{
	int stop;
	pid_t pid;

	standin_run(&self->sn, "status --ready node", NULL);
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "ready (node)"),
	      "%d %s", self->sn.status, self->sn.out);
	/* no plugin: nri is not ready, one line saying so */
	standin_run(&self->sn, "status --ready nri", NULL);
	CHECK(self->sn.status == 1 &&
	      strstr(self->sn.out, "cpumgrctl: status: not ready: no NRI plugin runs"),
	      "%d %s", self->sn.status, self->sn.out);

	/* a plugin that connects but has not registered */
	pid = plugin(self->state, "connecting", &stop);
	standin_run(&self->sn, "status --ready nri", NULL);
	CHECK(self->sn.status == 1 &&
	      strstr(self->sn.out, "not registered with the runtime (connecting to /var/run/nri/nri.sock)"),
	      "%d %s", self->sn.status, self->sn.out);
	end(pid, stop);

	/* registered: ready, --json too, and status shows it */
	pid = plugin(self->state, "registered", &stop);
	standin_run(&self->sn, "status --ready nri", NULL);
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "ready (nri)"),
	      "%d %s", self->sn.status, self->sn.out);
	standin_run(&self->sn, "status --ready nri -j", NULL);
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "\"ready\":\ttrue"),
	      "%d %s", self->sn.status, self->sn.out);
	standin_run(&self->sn, "status", NULL);
	CHECK(strstr(self->sn.out, "nri plugin: 10-cpumgr registered, mode decide"),
	      "%s", self->sn.out);
	end(pid, stop);

	/* the plugin gone, its record left: not ready */
	standin_run(&self->sn, "status --ready nri -j", NULL);
	CHECK(self->sn.status == 1 && strstr(self->sn.out, "\"ready\":\tfalse") &&
	      strstr(self->sn.out, "no NRI plugin runs"), "%d %s",
	      self->sn.status, self->sn.out);
	standin_run(&self->sn, "status", NULL);
	CHECK(strstr(self->sn.out, "nri plugin: not running (it was 10-cpumgr registered)"),
	      "%s", self->sn.out);
}

static void write_pod(struct standin_node *sn)
{
	fake_write(sn->dir, "pod.json",
		   "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"db\",\"namespace\":\"shop\",\"uid\":\"u1\"},"
		   "\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}}]}}");
}

/* init as the fixture's, with these reserved CPUs and options */
static void init(struct standin_node *sn, const char *reserved,
		 const char *more)
{
	char args[PATH_MAX + 256];

	snprintf(args, sizeof(args),
		 "init --cpu-manager-policy static --cgroup-root %s --reserved-cpus %s %s",
		 standin_cgroup_root(), reserved, more);
	standin_run(sn, args, NULL);
}

TEST_F(ready, a_refused_change_names_the_pods_and_keeps_the_node)
{
	char *before, *after;

	write_pod(&self->sn);
	standin_run(&self->sn, "admit", "pod.json");
	ASSERT_EQ(0, self->sn.status) TH_LOG("%s", self->sn.out);
	before = standin_file(&self->sn, "state/config.json");
	ASSERT_NE(NULL, before);

	/* refused, the pod named, nothing changed */
	init(&self->sn, "0-2", "");
	CHECK(self->sn.status == 1 &&
	      strstr(self->sn.out, "pods hold exclusive CPUs (shop/db (u1)): drain them first") &&
	      strstr(self->sn.out, "cannot change while assignments exist"),
	      "%d %s", self->sn.status, self->sn.out);

	/* --on-busy keep: a warning, exit 0, the old settings, recorded */
	init(&self->sn, "0-2", "--on-busy keep");
	CHECK(self->sn.status == 0 &&
	      strstr(self->sn.out, "warning: the change was refused, the node keeps the settings it runs: pods hold exclusive CPUs (shop/db (u1))"),
	      "%d %s", self->sn.status, self->sn.out);
	after = standin_file(&self->sn, "state/config.json");
	ASSERT_NE(NULL, after);
	EXPECT_STREQ(before, after);
	free(after);
	standin_run(&self->sn, "status --ready node", NULL);
	CHECK(self->sn.status == 1 &&
	      strstr(self->sn.out, "not ready: a change of settings was refused, the node runs its old ones: pods hold exclusive CPUs (shop/db (u1))"),
	      "%d %s", self->sn.status, self->sn.out);
	standin_run(&self->sn, "status", NULL);
	CHECK(strstr(self->sn.out, "refused change (the node runs its old settings): pods hold"),
	      "%s", self->sn.out);

	/* the settings it runs, again: applied, the refusal gone */
	init(&self->sn, "0-1", "--on-busy keep");
	CHECK(self->sn.status == 0 && !strstr(self->sn.out, "refused"), "%d %s",
	      self->sn.status, self->sn.out);
	standin_run(&self->sn, "status --ready node", NULL);
	CHECK(self->sn.status == 0, "%d %s", self->sn.status, self->sn.out);

	/* drained: the change goes through */
	standin_run(&self->sn, "remove u1", NULL);
	ASSERT_EQ(0, self->sn.status) TH_LOG("%s", self->sn.out);
	init(&self->sn, "0-2", "--on-busy keep");
	CHECK(self->sn.status == 0 && strstr(self->sn.out, "reserved 0-2"),
	      "%d %s", self->sn.status, self->sn.out);
	free(before);
}

TEST_HARNESS_MAIN
