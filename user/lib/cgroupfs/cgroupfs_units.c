// SPDX-License-Identifier: GPL-2.0
/*
 * Which unit a cgroup is in systemd's layout, and AllowedCPUs in D-Bus
 * terms (cgroupfs_units.h); nothing here talks to systemd.
 */
#include <errno.h>
#include <string.h>

#include "cgroupfs_units.h"

/* What systemd's unit names are made of (unit_name_is_valid()). */
static bool unit_chars(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr(":-_.\\@", c)))
			return false;
	}
	return n > 0;
}

static bool ends_with(const char *s, size_t n, const char *tail)
{
	size_t tl = strlen(tail);

	return n > tl && !memcmp(s + n - tl, tail, tl);
}

/*
 * A slice's cgroup component at its place: its name without ".slice" is
 * the parent slice's plus "-" and a part without '-' (at the root, a
 * name without '-'), as systemd nests "a-b.slice" in "a.slice".
 */
static bool slice_at(const char *c, size_t n, const char *parent, size_t pn)
{
	size_t stem = n - strlen(".slice");
	const char *part = c;

	if (!ends_with(c, n, ".slice") || !unit_chars(c, n))
		return false;
	if (pn) {
		size_t pstem = pn - strlen(".slice");

		if (stem <= pstem + 1 || memcmp(c, parent, pstem) ||
		    c[pstem] != '-')
			return false;
		part = c + pstem + 1;
	}
	return memchr(part, '-', (size_t)(c + stem - part)) == NULL &&
	       part < c + stem;
}

bool cgroupfs_unit_of(const char *name, char *unit, size_t len)
{
	const char *c = name, *parent = NULL, *slash;
	size_t n, pn = 0;

	while (*c == '/')
		c++;
	if (!*c)
		return false;
	for (;;) {
		slash = strchr(c, '/');
		n = slash ? (size_t)(slash - c) : strlen(c);
		if (!slash)
			break;
		/* every cgroup above is a slice at its place */
		if (!slice_at(c, n, parent, pn))
			return false;
		parent = c;
		pn = n;
		c = slash + 1;
	}
	if (!slice_at(c, n, parent, pn) &&
	    !(ends_with(c, n, ".scope") && unit_chars(c, n)))
		return false;
	if (n >= len || n >= CGROUPFS_UNIT_MAX)
		return false;
	memcpy(unit, c, n);
	unit[n] = '\0';
	return true;
}

size_t cgroupfs_allowed_cpus_encode(const struct cpuset *s, uint8_t *buf,
				    size_t len)
{
	size_t n = 0;
	int cpu;

	cpuset_for_each(cpu, s) {
		size_t byte = (size_t)cpu / 8;

		if (byte >= len)
			break;
		/* bytes skipped over are zero */
		for (; n <= byte; n++)
			buf[n] = 0;
		buf[byte] |= (uint8_t)(1u << (cpu % 8));
	}
	return n;
}

int cgroupfs_allowed_cpus_decode(const uint8_t *buf, size_t len,
				 struct cpuset *out, struct cm_error *err)
{
	cpuset_zero(out);
	for (size_t i = 0; i < len; i++) {
		for (unsigned int bit = 0; bit < 8; bit++) {
			size_t cpu = i * 8 + bit;

			if (!(buf[i] & (1u << bit)))
				continue;
			if (cpu >= CPUSET_MAX_CPUS)
				return cm_errorf(err, "AllowedCPUs: CPU %zu: at most %d CPUs",
						 cpu, CPUSET_MAX_CPUS), -ERANGE;
			cpuset_set(out, (unsigned int)cpu);
		}
	}
	return 0;
}
