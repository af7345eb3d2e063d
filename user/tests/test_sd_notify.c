// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl daemon's systemd hook (ctl_sd.c) against a fake
 * NOTIFY_SOCKET: a datagram socket this test binds and reads, as systemd
 * does for a Type=notify service.  The daemon loop itself needs the
 * module; here it is only run where it fails (no module), which must
 * notify nothing.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../cpumgrctl/ctl_sd.h"
#include "node.h"

FIXTURE(notify) {
	char dir[64];
	char path[128];
	int fd;
};

FIXTURE_SETUP(notify)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 2 };

	strcpy(self->dir, "/tmp/cpumgr-sd-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/notify", self->dir);
	self->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, self->fd);
	strcpy(sa.sun_path, self->path);
	ASSERT_EQ(0, bind(self->fd, (struct sockaddr *)&sa, sizeof(sa)));
	setsockopt(self->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setenv("NOTIFY_SOCKET", self->path, 1);
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
}

FIXTURE_TEARDOWN(notify)
{
	close(self->fd);
	unlink(self->path);
	rmdir(self->dir);
	unsetenv("NOTIFY_SOCKET");
}

/* The next datagram, "" when none is waiting. */
static void next_msg(int fd, char *buf, size_t size)
{
	ssize_t n = recv(fd, buf, size - 1, MSG_DONTWAIT);

	buf[n > 0 ? n : 0] = '\0';
}

TEST_F(notify, states_reach_the_socket)
{
	struct node_daemon_opts o = { 0 };
	char buf[256];

	ctl_sd_setup(&o);
	ASSERT_NE(NULL, o.notify);
	EXPECT_EQ(0, o.watchdog_ms);
	o.notify("READY=1");
	o.notify("WATCHDOG=1");
	o.notify("STOPPING=1");
	next_msg(self->fd, buf, sizeof(buf));
	EXPECT_STREQ("READY=1", buf);
	next_msg(self->fd, buf, sizeof(buf));
	EXPECT_STREQ("WATCHDOG=1", buf);
	next_msg(self->fd, buf, sizeof(buf));
	EXPECT_STREQ("STOPPING=1", buf);
	next_msg(self->fd, buf, sizeof(buf));
	EXPECT_STREQ("", buf);
}

TEST_F(notify, watchdog_half_the_interval)
{
	struct node_daemon_opts o = { 0 };
	char pid[32];

	setenv("WATCHDOG_USEC", "30000000", 1);
	ctl_sd_setup(&o);
	EXPECT_EQ(15000, o.watchdog_ms);

	/* meant for another process: no watchdog pings from this one */
	o.watchdog_ms = 0;
	snprintf(pid, sizeof(pid), "%d", (int)getpid() + 1);
	setenv("WATCHDOG_USEC", "30000000", 1);
	setenv("WATCHDOG_PID", pid, 1);
	ctl_sd_setup(&o);
	EXPECT_EQ(0, o.watchdog_ms);
	ASSERT_NE(NULL, o.notify);

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("WATCHDOG_USEC", "30000000", 1);
	setenv("WATCHDOG_PID", pid, 1);
	ctl_sd_setup(&o);
	EXPECT_EQ(15000, o.watchdog_ms);
}

TEST(no_socket_no_hook)
{
	struct node_daemon_opts o = { 0 };

	unsetenv("NOTIFY_SOCKET");
	setenv("WATCHDOG_USEC", "30000000", 1);
	ctl_sd_setup(&o);
	EXPECT_EQ(NULL, o.notify);
	EXPECT_EQ(0, o.watchdog_ms);
	unsetenv("WATCHDOG_USEC");
}

static int calls;

static void count_call(const char *state)
{
	calls++;
}

/* Without the module the daemon fails before its first round: no READY. */
TEST(daemon_without_module_is_not_ready)
{
	struct node_daemon_opts o = {
		.dir = "/nonexistent", .log = stderr, .notify = count_call,
		.watchdog_ms = 10,
	};
	struct cm_error err = { 0 };

	if (!access("/sys/kernel/cpumgr", F_OK))
		SKIP(return, "the module is loaded here");
	EXPECT_NE(0, node_daemon(&o, &err));
	EXPECT_EQ(0, calls);
	cm_error_clear(&err);
}

TEST_HARNESS_MAIN
