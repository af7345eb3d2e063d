// SPDX-License-Identifier: GPL-2.0
/* Which NRI a runtime speaks (see nri_version.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nri_version.h"

/* "v1.2.3" or "1.2" (anything after the numbers ignored): 0 when read. */
static int numbers(const char *s, int n[3])
{
	char *end;

	n[0] = n[1] = n[2] = 0;
	if (*s == 'v')
		s++;
	for (int i = 0; i < 3; i++) {
		long v;

		if (*s < '0' || *s > '9')
			return i >= 2 ? 0 : -EINVAL;
		v = strtol(s, &end, 10);
		if (v > 100000)
			return -EINVAL;
		n[i] = (int)v;
		s = end;
		if (*s != '.')
			return i >= 1 ? 0 : -EINVAL;
		s++;
	}
	return 0;
}

int nri_version_parse(const char *s, struct nri_version *v)
{
	int n[3];

	memset(v, 0, sizeof(*v));
	if (!s || numbers(s, n))
		return -EINVAL;
	v->major = n[0];
	v->minor = n[1];
	v->patch = n[2];
	v->known = true;
	return 0;
}

/* The first release of each runtime with NRI 0.10. */
static const struct {
	const char *runtime;
	int major, minor;
} first_0_10[] = {
	{ "containerd", 2, 2 },
	{ "cri-o", 1, 34 },
};

void nri_version_of_runtime(const char *nri_version, const char *runtime,
			    const char *runtime_version,
			    struct nri_version *v)
{
	int n[3];

	if (nri_version && *nri_version &&
	    !nri_version_parse(nri_version, v))
		return;
	memset(v, 0, sizeof(*v));
	if (!runtime || !runtime_version || numbers(runtime_version, n))
		return;
	for (size_t i = 0; i < sizeof(first_0_10) / sizeof(first_0_10[0]); i++) {
		if (strcmp(runtime, first_0_10[i].runtime))
			continue;
		if (n[0] > first_0_10[i].major ||
		    (n[0] == first_0_10[i].major && n[1] >= first_0_10[i].minor)) {
			v->minor = 10;
			v->known = v->inferred = true;
		}
	}
}

bool nri_version_at_least(const struct nri_version *v, int major, int minor)
{
	return v->known &&
	       (v->major > major || (v->major == major && v->minor >= minor));
}
