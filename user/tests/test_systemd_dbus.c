// SPDX-License-Identifier: GPL-2.0
/*
 * cgroupfs_systemd() on the wire: a stand-in for systemd's manager,
 * served with libsystemd's sd-bus on a private socket of its own (as
 * systemd serves /run/systemd/private), in a thread of this test.  It
 * records each call as it arrived and answers as systemd does:
 * SetUnitProperties of a unit it has, Get of a unit's AllowedCPUs
 * (empty for a unit it has not, as systemd answers for a name it only
 * looked up), org.freedesktop.systemd1.NoSuchUnit for setting one it
 * has not, and Peer.Ping.  Checked: the method, the unit, runtime,
 * the property's name, its signature "ay" and its bytes, the Ping that
 * follows a change, a unit systemd has not, and a connection systemd
 * dropped.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-id128.h>

#include "kselftest_harness.h"

#include "cgroupfs_units.h"
#include "fake_cgroup.h"

#define UNIT_PREFIX	"/org/freedesktop/systemd1/unit"

struct standin {
	char dir[PATH_MAX], address[PATH_MAX + 16];
	int listen_fd;
	pthread_t thread;
	volatile int stop;
	/* drop the first connection after its first call */
	bool hang_up_once;
	unsigned int calls;		/* on the connection served */
	pthread_mutex_t lock;
	char log[4096];			/* one line a call */
	unsigned int connections;
	/* its units and their AllowedCPUs as sent */
	char unit[4][64];
	uint8_t bytes[4][64];
	size_t len[4];
	unsigned int nr;
};

static void note(struct standin *s, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	pthread_mutex_lock(&s->lock);
	n = strlen(s->log);
	va_start(ap, fmt);
	vsnprintf(s->log + n, sizeof(s->log) - n, fmt, ap);
	va_end(ap);
	n = strlen(s->log);
	if (n + 1 < sizeof(s->log))
		strcpy(s->log + n, "\n");
	pthread_mutex_unlock(&s->lock);
}

static int find(const struct standin *s, const char *unit)
{
	for (unsigned int i = 0; i < s->nr; i++)
		if (!strcmp(s->unit[i], unit))
			return (int)i;
	return -1;
}

static void hex(char *out, const uint8_t *b, size_t n)
{
	*out = '\0';
	for (size_t i = 0; i < n; i++)
		sprintf(out + strlen(out), "%s%02x", i ? " " : "", b[i]);
}

/* SetUnitProperties(s name, b runtime, a(sv) properties) */
static int set_properties(struct standin *s, sd_bus_message *m)
{
	const char *name, *prop, *sig;
	char text[256];
	const void *b;
	int runtime, r, i;
	size_t n;

	r = sd_bus_message_read(m, "sb", &name, &runtime);
	if (r >= 0)
		r = sd_bus_message_enter_container(m, 'a', "(sv)");
	i = r >= 0 ? find(s, name) : -1;
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'r', "sv")) > 0) {
		r = sd_bus_message_read(m, "s", &prop);
		if (r >= 0)
			r = sd_bus_message_peek_type(m, NULL, &sig);
		if (r < 0)
			break;
		r = sd_bus_message_enter_container(m, 'v', sig);
		if (r >= 0 && !strcmp(sig, "ay"))
			r = sd_bus_message_read_array(m, 'y', &b, &n);
		else
			r = sd_bus_message_skip(m, sig), n = 0, b = NULL;
		if (r < 0)
			break;
		hex(text, b, n);
		note(s, "SetUnitProperties %s runtime=%d %s %s [%s]", name,
		     runtime, prop, sig, text);
		if (i >= 0 && !strcmp(prop, "AllowedCPUs") && n <= 64) {
			memcpy(s->bytes[i], b, n);
			s->len[i] = n;
		}
		sd_bus_message_exit_container(m);
		sd_bus_message_exit_container(m);
	}
	if (r < 0)
		return sd_bus_reply_method_errorf(m, SD_BUS_ERROR_INVALID_ARGS,
						  "stand-in: %s", strerror(-r));
	if (i < 0)
		return sd_bus_reply_method_errorf(m, "org.freedesktop.systemd1.NoSuchUnit",
						  "Unit %s not found.", name);
	return sd_bus_reply_method_return(m, NULL);
}

/* Properties.Get(s interface, s property) of a unit's object */
static int get_property(struct standin *s, sd_bus_message *m)
{
	sd_bus_message *reply = NULL;
	const char *iface, *prop;
	char *unit = NULL;
	int r, i;

	r = sd_bus_message_read(m, "ss", &iface, &prop);
	if (r >= 0)
		r = sd_bus_path_decode(sd_bus_message_get_path(m), UNIT_PREFIX,
				       &unit);
	if (r <= 0) {
		free(unit);
		return sd_bus_reply_method_errorf(m, SD_BUS_ERROR_UNKNOWN_OBJECT,
						  "stand-in: no such object");
	}
	note(s, "Get %s %s %s", unit, iface, prop);
	i = find(s, unit);
	free(unit);
	r = sd_bus_message_new_method_return(m, &reply);
	if (r >= 0)
		r = sd_bus_message_open_container(reply, 'v', "ay");
	if (r >= 0)
		r = sd_bus_message_append_array(reply, 'y',
						i >= 0 ? s->bytes[i] : NULL,
						i >= 0 ? s->len[i] : 0);
	if (r >= 0)
		r = sd_bus_message_close_container(reply);
	if (r >= 0)
		r = sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	return r;
}

static int on_message(sd_bus_message *m, void *arg, sd_bus_error *e)
{
	struct standin *s = arg;

	uint8_t type = 0;

	if (sd_bus_message_get_type(m, &type) >= 0 &&
	    type == SD_BUS_MESSAGE_METHOD_CALL)
		s->calls++;
	if (sd_bus_message_is_method_call(m, "org.freedesktop.systemd1.Manager",
					  "SetUnitProperties"))
		return set_properties(s, m) < 0 ? -EIO : 1;
	if (sd_bus_message_is_method_call(m, "org.freedesktop.DBus.Properties",
					  "Get"))
		return get_property(s, m) < 0 ? -EIO : 1;
	if (sd_bus_message_is_method_call(m, "org.freedesktop.DBus.Peer", "Ping"))
		note(s, "Ping");
	/* sd-bus answers Ping itself */
	return 0;
}

static void serve(struct standin *s, int fd)
{
	sd_bus *bus = NULL;
	sd_id128_t id;
	int r;

	sd_id128_randomize(&id);
	if (sd_bus_new(&bus) < 0 || sd_bus_set_fd(bus, fd, fd) < 0 ||
	    sd_bus_set_server(bus, 1, id) < 0 ||
	    sd_bus_add_filter(bus, NULL, on_message, s) < 0 ||
	    sd_bus_start(bus) < 0) {
		close(fd);
		sd_bus_unref(bus);
		return;
	}
	s->calls = 0;
	while (!s->stop) {
		r = sd_bus_process(bus, NULL);
		if (r < 0)
			break;
		if (s->hang_up_once && s->calls) {
			/* the reply goes out, then the connection */
			s->hang_up_once = false;
			break;
		}
		if (r == 0)
			sd_bus_wait(bus, 100000);
	}
	sd_bus_flush_close_unref(bus);
}

static void *standin_main(void *arg)
{
	struct standin *s = arg;

	while (!s->stop) {
		struct pollfd p = { .fd = s->listen_fd, .events = POLLIN };
		int fd;

		if (poll(&p, 1, 100) <= 0)
			continue;
		fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			continue;
		pthread_mutex_lock(&s->lock);
		s->connections++;
		pthread_mutex_unlock(&s->lock);
		serve(s, fd);
	}
	return NULL;
}

static void standin_start(struct standin *s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	fake_tree_new(s->dir, sizeof(s->dir));
	xsnprintf(sa.sun_path, sizeof(sa.sun_path), "%s/bus", s->dir);
	xsnprintf(s->address, sizeof(s->address), "unix:path=%s", sa.sun_path);
	s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->listen_fd < 0 ||
	    bind(s->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(s->listen_fd, 4) ||
	    pthread_create(&s->thread, NULL, standin_main, s))
		abort();
}

static void standin_stop(struct standin *s)
{
	s->stop = 1;
	pthread_join(s->thread, NULL);
	close(s->listen_fd);
	fake_tree_free(s->dir);
}

static void standin_unit(struct standin *s, const char *unit)
{
	strcpy(s->unit[s->nr++], unit);
}

/* The log so far, and empty it. */
static char *take_log(struct standin *s)
{
	char *log;

	pthread_mutex_lock(&s->lock);
	log = strdup(s->log);
	s->log[0] = '\0';
	pthread_mutex_unlock(&s->lock);
	return log;
}

static struct cpuset cs(const char *list)
{
	struct cpuset s;

	if (cpuset_parse(&s, list, NULL))
		abort();
	return s;
}

FIXTURE(bus) {
	struct standin s;
	const struct cgroupfs_units *u;
	struct cm_error err;
};

FIXTURE_SETUP(bus)
{
	memset(&self->err, 0, sizeof(self->err));
	standin_start(&self->s);
	standin_unit(&self->s, "kubepods-burstable.slice");
	standin_unit(&self->s, "cri-containerd-0123abc.scope");
	self->u = cgroupfs_systemd(self->s.address);
}

FIXTURE_TEARDOWN(bus)
{
	cm_error_clear(&self->err);
	standin_stop(&self->s);
}

/* runc's encoding, runtime, and a Ping once it is done */
TEST_F(bus, set_allowed_cpus)
{
	struct cpuset s = cs("1,4-7,9"), got;
	char *log;

	ASSERT_EQ(0, self->u->set_cpus(self->u, "kubepods-burstable.slice", &s,
				       &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	log = take_log(&self->s);
	EXPECT_STREQ("SetUnitProperties kubepods-burstable.slice runtime=1 AllowedCPUs ay [f2 02]\n"
		     "Ping\n", log);
	free(log);
	ASSERT_EQ(0, self->u->get_cpus(self->u, "kubepods-burstable.slice", &got,
				       &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_TRUE(cpuset_equal(&s, &got));
	log = take_log(&self->s);
	EXPECT_STREQ("Get kubepods-burstable.slice org.freedesktop.systemd1.Slice AllowedCPUs\n",
		     log);
	free(log);
	/* a scope's interface is the Scope one */
	s = cs("3");
	ASSERT_EQ(0, self->u->set_cpus(self->u, "cri-containerd-0123abc.scope",
				       &s, &self->err));
	ASSERT_EQ(0, self->u->get_cpus(self->u, "cri-containerd-0123abc.scope",
				       &got, &self->err));
	EXPECT_TRUE(cpuset_equal(&s, &got));
	log = take_log(&self->s);
	EXPECT_STREQ("SetUnitProperties cri-containerd-0123abc.scope runtime=1 AllowedCPUs ay [08]\n"
		     "Ping\n"
		     "Get cri-containerd-0123abc.scope org.freedesktop.systemd1.Scope AllowedCPUs\n",
		     log);
	free(log);
	/* one connection for all of it */
	EXPECT_EQ(1, self->s.connections);
}

/* A unit systemd has not: -ENOENT, no message. */
TEST_F(bus, no_such_unit)
{
	struct cpuset s = cs("1"), got = cs("5");

	EXPECT_EQ(-ENOENT, self->u->set_cpus(self->u, "kubepods-podx.slice", &s,
					     &self->err));
	EXPECT_STREQ("", cm_error_msg(&self->err));
	/* systemd answers a name it only looked up: nothing allowed */
	EXPECT_EQ(0, self->u->get_cpus(self->u, "kubepods-podx.slice", &got,
				       &self->err));
	EXPECT_TRUE(cpuset_empty(&got));
	/* not a slice or a scope: never asked */
	EXPECT_EQ(-EINVAL, self->u->set_cpus(self->u, "containerd.service", &s,
					     &self->err));
	EXPECT_STREQ("systemd: containerd.service: not a slice or a scope",
		     cm_error_msg(&self->err));
}

/* systemd went (re-executed): the next call connects again. */
TEST_F(bus, connection_dropped)
{
	struct cpuset s = cs("2"), got;

	self->s.hang_up_once = true;
	ASSERT_EQ(0, self->u->get_cpus(self->u, "kubepods-burstable.slice", &got,
				       &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	ASSERT_EQ(0, self->u->set_cpus(self->u, "kubepods-burstable.slice", &s,
				       &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_LE(2, self->s.connections);
	ASSERT_EQ(0, self->u->get_cpus(self->u, "kubepods-burstable.slice", &got,
				       &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_TRUE(cpuset_equal(&s, &got));
}

/* Nothing listens: one error naming the address. */
TEST(no_systemd)
{
	const struct cgroupfs_units *u = cgroupfs_systemd("unix:path=/nonexistent/bus");
	struct cm_error err = { 0 };
	struct cpuset s = cs("1");

	EXPECT_GT(0, u->set_cpus(u, "kubepods.slice", &s, &err));
	EXPECT_STREQ("connect to unix:path=/nonexistent/bus over D-Bus: No such file or directory",
		     cm_error_msg(&err));
	cm_error_clear(&err);
}

TEST_HARNESS_MAIN
