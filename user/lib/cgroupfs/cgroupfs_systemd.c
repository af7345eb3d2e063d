// SPDX-License-Identifier: GPL-2.0
/*
 * systemd's manager over D-Bus, for the AllowedCPUs of slices and scopes
 * (cgroupfs_units.h): org.freedesktop.systemd1.Manager.SetUnitProperties
 * (name, runtime true, [("AllowedCPUs", <ay>)]), as runc's systemd cgroup
 * manager sets it, and the unit's AllowedCPUs property read back.
 *
 * libsystemd's sd-bus is opened with dlopen() on first use, not linked:
 * cpumgrctl runs on machines without it, and it loads six more
 * libraries, a third of what a short cpumgrctl process spends (see
 * cpumgrctl/ctl_sd.c).
 *
 * systemd realizes a unit whose property changed in its main loop,
 * before it reads the next message: a Ping after SetUnitProperties
 * returns once systemd has written the unit's cpuset.cpus, so that a
 * later write of ours is never undone by systemd's of an earlier value.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>

#include "cgroupfs_units.h"

#define SD_DEST		"org.freedesktop.systemd1"
#define SD_PATH		"/org/freedesktop/systemd1"
#define SD_MANAGER	"org.freedesktop.systemd1.Manager"
#define SD_NO_UNIT	"org.freedesktop.systemd1.NoSuchUnit"
#define SD_PRIVATE	"unix:path=/run/systemd/private"

/* the functions used, their prototypes from the headers */
#define SD_FUNCS(X)							\
	X(sd_booted) X(sd_bus_new) X(sd_bus_set_address) X(sd_bus_start)	\
	X(sd_bus_open_system) X(sd_bus_flush_close_unref)		\
	X(sd_bus_message_new_method_call) X(sd_bus_message_append)	\
	X(sd_bus_message_open_container) X(sd_bus_message_close_container) \
	X(sd_bus_message_append_array) X(sd_bus_message_read_array)	\
	X(sd_bus_message_unref) X(sd_bus_call) X(sd_bus_call_method)	\
	X(sd_bus_get_property) X(sd_bus_path_encode)			\
	X(sd_bus_error_free) X(sd_bus_error_has_name)

static struct {
	bool loaded;
#define SD_FIELD(f) __typeof__(f) *f;
	SD_FUNCS(SD_FIELD)
} sd;

static int load(struct cm_error *err)
{
	void *h;

	if (sd.loaded)
		return 0;
	h = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return cm_errorf(err, "systemd owns the cgroups, but: %s",
				 dlerror()), -ENOTSUP;
#define SD_LOAD(f)							\
	sd.f = (__typeof__(sd.f))dlsym(h, #f);				\
	if (!sd.f) {							\
		dlclose(h);						\
		return cm_errorf(err, "libsystemd.so.0 lacks %s", #f),	\
		       -ENOTSUP;					\
	}
	SD_FUNCS(SD_LOAD)
	sd.loaded = true;
	return 0;
}

struct sd_units {
	struct cgroupfs_units units;
	char address[256];		/* "": the system's systemd */
};

/* The connection: one a process, to one address. */
static struct {
	sd_bus *bus;
	pid_t pid;
	char address[256];
} conn;

static void disconnect(void)
{
	/* a bus of the parent is not the child's to close */
	if (conn.bus && conn.pid == getpid())
		sd.sd_bus_flush_close_unref(conn.bus);
	conn.bus = NULL;
}

static int open_address(const char *address, sd_bus **bus)
{
	int r = sd.sd_bus_new(bus);

	if (r < 0)
		return r;
	r = sd.sd_bus_set_address(*bus, address);
	if (r >= 0)
		r = sd.sd_bus_start(*bus);
	if (r < 0) {
		sd.sd_bus_flush_close_unref(*bus);
		*bus = NULL;
	}
	return r;
}

static int connect_to(const struct sd_units *u, sd_bus **bus,
		      struct cm_error *err)
{
	const char *what = u->address[0] ? u->address : "systemd";
	int r;

	r = load(err);
	if (r)
		return r;
	if (conn.bus && conn.pid == getpid() &&
	    !strcmp(conn.address, u->address)) {
		*bus = conn.bus;
		return 0;
	}
	disconnect();
	if (u->address[0]) {
		r = open_address(u->address, bus);
	} else {
		/* no systemd, no units: the files are all there is */
		if (sd.sd_booted() <= 0)
			return -ENOENT;
		r = geteuid() ? -EPERM : open_address(SD_PRIVATE, bus);
		if (r < 0)
			r = sd.sd_bus_open_system(bus);
	}
	if (r < 0)
		return cm_errorf(err, "connect to %s over D-Bus: %s", what,
				 strerror(-r)), r;
	conn.bus = *bus;
	conn.pid = getpid();
	snprintf(conn.address, sizeof(conn.address), "%s", u->address);
	return 0;
}

/* The connection went (systemd re-executed, a fork): open it again. */
static bool lost(int r)
{
	return r == -ECONNRESET || r == -ENOTCONN || r == -EPIPE ||
	       r == -ECHILD || r == -ESHUTDOWN;
}

static const char *iface_of(const char *unit)
{
	size_t n = strlen(unit);

	if (n > 6 && !strcmp(unit + n - 6, ".slice"))
		return "org.freedesktop.systemd1.Slice";
	if (n > 6 && !strcmp(unit + n - 6, ".scope"))
		return "org.freedesktop.systemd1.Scope";
	return NULL;
}

static int failed(const char *what, const char *unit, int r,
		  const sd_bus_error *e, struct cm_error *err)
{
	if (sd.sd_bus_error_has_name(e, SD_NO_UNIT))
		return -ENOENT;
	return cm_errorf(err, "systemd: %s of %s: %s", what, unit,
			 e->message ? e->message : strerror(-r)),
	       r < 0 ? r : -EIO;
}

static int get_once(sd_bus *bus, const char *unit, struct cpuset *out,
		    struct cm_error *err)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	const void *bytes = NULL;
	char *path = NULL;
	size_t n = 0;
	int r;

	r = sd.sd_bus_path_encode(SD_PATH "/unit", unit, &path);
	if (r < 0)
		return cm_errorf(err, "systemd: %s: %s", unit, strerror(-r)), r;
	r = sd.sd_bus_get_property(bus, SD_DEST, path, iface_of(unit),
				   "AllowedCPUs", &e, &reply, "ay");
	free(path);
	if (r >= 0)
		r = sd.sd_bus_message_read_array(reply, 'y', &bytes, &n);
	if (r >= 0)
		r = cgroupfs_allowed_cpus_decode(bytes, n, out, err);
	else if (!lost(r))
		r = failed("AllowedCPUs", unit, r, &e, err);
	sd.sd_bus_message_unref(reply);
	sd.sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

static int set_once(sd_bus *bus, const char *unit, const struct cpuset *cpus,
		    struct cm_error *err)
{
	uint8_t bytes[CPUSET_MAX_CPUS / 8];
	size_t n = cgroupfs_allowed_cpus_encode(cpus, bytes, sizeof(bytes));
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	int r;

	r = sd.sd_bus_message_new_method_call(bus, &m, SD_DEST, SD_PATH,
					      SD_MANAGER, "SetUnitProperties");
	if (r >= 0)
		r = sd.sd_bus_message_append(m, "sb", unit, 1);
	if (r >= 0)
		r = sd.sd_bus_message_open_container(m, 'a', "(sv)");
	if (r >= 0)
		r = sd.sd_bus_message_open_container(m, 'r', "sv");
	if (r >= 0)
		r = sd.sd_bus_message_append(m, "s", "AllowedCPUs");
	if (r >= 0)
		r = sd.sd_bus_message_open_container(m, 'v', "ay");
	if (r >= 0)
		r = sd.sd_bus_message_append_array(m, 'y', bytes, n);
	for (int i = 0; i < 3 && r >= 0; i++)
		r = sd.sd_bus_message_close_container(m);
	if (r >= 0)
		r = sd.sd_bus_call(bus, m, 0, &e, NULL);
	/* systemd has realized the unit once it answers the next call */
	if (r >= 0)
		r = sd.sd_bus_call_method(bus, SD_DEST, SD_PATH,
					  "org.freedesktop.DBus.Peer", "Ping",
					  &e, NULL, NULL);
	if (r < 0 && !lost(r))
		r = failed("AllowedCPUs=", unit, r, &e, err);
	sd.sd_bus_message_unref(m);
	sd.sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

/*
 * Set unit's AllowedCPUs to set_to, or read them into out: once, and
 * once more on a new connection when the old one was lost.
 */
static int call(const struct cgroupfs_units *units, const char *unit,
		const struct cpuset *set_to, struct cpuset *out,
		struct cm_error *err)
{
	const struct sd_units *u = units->ctx;
	sd_bus *bus = NULL;
	int r;

	if (!iface_of(unit))
		return cm_errorf(err, "systemd: %s: not a slice or a scope", unit);
	for (int attempt = 0;; attempt++) {
		r = connect_to(u, &bus, err);
		if (!r)
			r = set_to ? set_once(bus, unit, set_to, err) :
				     get_once(bus, unit, out, err);
		if (!lost(r))
			return r;
		disconnect();
		if (attempt)
			return cm_errorf(err, "systemd: the D-Bus connection was lost: %s",
					 strerror(-r)), r;
	}
}

static int sd_get_cpus(const struct cgroupfs_units *units, const char *unit,
		       struct cpuset *out, struct cm_error *err)
{
	return call(units, unit, NULL, out, err);
}

static int sd_set_cpus(const struct cgroupfs_units *units, const char *unit,
		       const struct cpuset *cpus, struct cm_error *err)
{
	return call(units, unit, cpus, NULL, err);
}

const struct cgroupfs_units *cgroupfs_systemd(const char *address)
{
	static struct sd_units u = {
		.units = { .get_cpus = sd_get_cpus, .set_cpus = sd_set_cpus },
	};

	u.units.ctx = &u;
	snprintf(u.address, sizeof(u.address), "%s", address ? address : "");
	return &u.units;
}
