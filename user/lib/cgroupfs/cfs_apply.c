// SPDX-License-Identifier: GPL-2.0
/* Writing CFS limits to a cgroup's cpu controller files. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "cfs_apply.h"

/*
 * One file.  When it fails after other files were written (done names
 * them), the message says so: the cgroup is then half updated.
 */
static int put(const struct cgroupfs *cg, const char *name, const char *file,
	       const char *val, const char *done, struct cm_error *err)
{
	int ret = cgroupfs_write(cg, CGROUPFS_CPU, name, file, val, err);

	if (ret && done)
		cm_error_prefix(err, "%s written, not %s", done, file);
	return ret;
}

/* The shares (v1) or the weight (v2): the first file, 0 leaves it. */
static int put_first(const struct cgroupfs *cg, const char *name,
		     const char *file, uint64_t value, const char **done,
		     struct cm_error *err)
{
	char val[32];
	int ret;

	if (!value)
		return 0;
	snprintf(val, sizeof(val), "%" PRIu64, value);
	ret = put(cg, name, file, val, NULL, err);
	if (!ret)
		*done = file;
	return ret;
}

static int apply_v2(const struct cgroupfs *cg, const char *name,
		    const struct cfs_limits *l, struct cm_error *err)
{
	const char *done = NULL;
	char val[64];
	int ret = put_first(cg, name, "cpu.weight", l->weight, &done, err);

	if (ret || !l->set_quota)
		return ret;
	/* quota and period in one write: no moment with half of each */
	if (l->quota > 0)
		snprintf(val, sizeof(val), "%" PRId64 " %" PRIu64, l->quota,
			 l->period);
	else
		snprintf(val, sizeof(val), "max %" PRIu64, l->period);
	return put(cg, name, "cpu.max", val, done, err);
}

static int apply_v1(const struct cgroupfs *cg, const char *name,
		    const struct cfs_limits *l, struct cm_error *err)
{
	const char *done = NULL;
	char val[32], period[32];
	bool again;
	int ret = put_first(cg, name, "cpu.shares", l->shares, &done, err);

	if (ret || !l->set_quota)
		return ret;
	snprintf(period, sizeof(period), "%" PRIu64, l->period);
	snprintf(val, sizeof(val), "%" PRId64, l->quota > 0 ? l->quota : -1);
	/*
	 * The kernel checks the pair each time one of them changes: a
	 * shorter period next to the old quota can exceed the parent's
	 * bandwidth (EINVAL).  Then the quota goes first and the period
	 * after it.
	 */
	ret = put(cg, name, "cpu.cfs_period_us", period, done, err);
	if (ret && ret != -EINVAL)
		return ret;
	again = ret == -EINVAL;
	if (again)
		cm_error_clear(err);
	else
		done = done ? "cpu.shares and cpu.cfs_period_us" :
			      "cpu.cfs_period_us";
	ret = put(cg, name, "cpu.cfs_quota_us", val, done, err);
	if (ret || !again)
		return ret;
	done = l->shares ? "cpu.shares and cpu.cfs_quota_us" :
			   "cpu.cfs_quota_us";
	return put(cg, name, "cpu.cfs_period_us", period, done, err);
}

int cfs_apply(const struct cgroupfs *cg, const char *name,
	      const struct cfs_limits *l, struct cm_error *err)
{
	int ret = cg->version == 1 ? apply_v1(cg, name, l, err) :
				     apply_v2(cg, name, l, err);

	if (ret) {
		char path[PATH_MAX];

		if (!cgroupfs_path(cg, CGROUPFS_CPU, name, NULL, path,
				   sizeof(path), NULL))
			cm_error_prefix(err, "CFS limits of %s", path);
	}
	return ret;
}
