/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cgroups systemd owns: a slice's or a scope's cgroup is realized by
 * systemd, which writes its cpuset.cpus itself, from the unit's
 * AllowedCPUs, each time it realizes the unit (when the unit, one below
 * it or one beside it starts or stops, and when a property changes).  A
 * unit without AllowedCPUs gets an empty cpuset.cpus: all of its
 * parent's CPUs.  So where systemd owns the tree (the kubelet's systemd
 * cgroup driver: kubepods.slice), a cgroup's CPUs are set in the file,
 * for the kernel to check now, and as the unit's AllowedCPUs, for
 * systemd to write the same again, as runc's systemd cgroup manager
 * does for a container's scope.
 *
 * struct cgroupfs_units is how a struct cgroupfs reaches systemd
 * (cgroupfs.h: units; NULL where systemd owns nothing):
 * cgroupfs_systemd() is systemd's manager over D-Bus
 * (cgroupfs_systemd.c), the unit tests bring stand-ins.
 */
#ifndef CPUMGR_CGROUPFS_UNITS_H
#define CPUMGR_CGROUPFS_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuset.h"
#include "error.h"

/* The longest unit name systemd takes (UNIT_NAME_MAX). */
#define CGROUPFS_UNIT_MAX	256

struct cgroupfs_units {
	/*
	 * The AllowedCPUs systemd has for unit ("x.slice", "y.scope"):
	 * 0, -ENOENT when systemd has no such unit (no message), -errno.
	 */
	int (*get_cpus)(const struct cgroupfs_units *u, const char *unit,
			struct cpuset *out, struct cm_error *err);
	/*
	 * AllowedCPUs=cpus for unit, at run time (as runc sets it: gone
	 * with the unit, or at reboot); returns once systemd has written
	 * the unit's cpuset.cpus.  -ENOENT (no message) when systemd has
	 * no such unit.
	 */
	int (*set_cpus)(const struct cgroupfs_units *u, const char *unit,
			const struct cpuset *cpus, struct cm_error *err);
	void *ctx;
};

/*
 * The unit whose cgroup is name (normalized, relative to the hierarchy
 * root; a leading '/' is allowed), in systemd's layout: a slice
 * "a-b-c.slice" at a.slice/a-b.slice/a-b-c.slice, a scope right below a
 * slice (or at the root, in -.slice).
 * A cgroup not laid out so (kubepods/pod<UID>, a scope's own children,
 * "x.slice" below a slice not its parent) is no unit's: false.
 */
bool cgroupfs_unit_of(const char *name, char *unit, size_t len);

/*
 * AllowedCPUs on the wire (D-Bus "ay"), as systemd reads it and runc
 * writes it: byte i holds CPUs 8i to 8i+7, CPU c in bit c % 8, no
 * trailing zero bytes.  Returns the number of bytes, at most len (the
 * rest of buf is left alone): CPUSET_MAX_CPUS / 8 always fits.
 */
size_t cgroupfs_allowed_cpus_encode(const struct cpuset *s, uint8_t *buf,
				    size_t len);
/* The reverse; -ERANGE for a CPU at or above CPUSET_MAX_CPUS. */
int cgroupfs_allowed_cpus_decode(const uint8_t *buf, size_t len,
				 struct cpuset *out, struct cm_error *err);

/*
 * systemd's manager over D-Bus, libsystemd opened on first use (not
 * linked: cpumgrctl runs without it where systemd owns nothing):
 * address NULL for the system's own systemd (its private socket
 * /run/systemd/private as root, as systemctl uses it, else the system
 * bus; a machine systemd did not boot has no units: -ENOENT), or a
 * D-Bus address ("unix:path=...") of a stand-in.  One connection a
 * process, opened again after a fork or when systemd went away.
 */
const struct cgroupfs_units *cgroupfs_systemd(const char *address);

#endif
