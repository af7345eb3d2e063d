// SPDX-License-Identifier: GPL-2.0
/*
 * What exclusivity costs (make bench, selftests/bench-plan), in the guest:
 *
 * - a cpuset.cpus write of a cgroup2 cpuset (alternately "6" and "6-7"),
 *   module not loaded, loaded with an empty table, loaded with CPUs 2-3
 *   assigned (every write is checked against the table), and refused
 *   (writes of "2-3");
 * - taking an assigned CPU offline, refused in protect mode, against a
 *   successful offline and online of a shared CPU.
 *
 * The write phases alternate over several rounds in one guest run, each
 * after a warm-up; the table gives the median and the fastest round of
 * each (the host's other load only ever adds time), and their ratios to
 * the module not loaded.  Needs 8 CPUs.  Prints a table as KTAP comments; fails only
 * when something does not behave (a write refused or not as expected).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpumgr_nl.h"

#define CG		"/sys/fs/cgroup/cpumgr-bench"
#define CPUS_DIR	"/sys/devices/system/cpu"
#define ROUNDS		8
#define WRITES		2000
#define WARMUP		200
#define REFUSED_OFFLINES 500
#define OFFLINE_CYCLES	10

enum phase { UNLOADED, EMPTY, ASSIGNED, REFUSED, NR_PHASES };

static const char *const phase_names[NR_PHASES] = {
	"module not loaded",
	"loaded, empty table",
	"loaded, CPUs 2-3 assigned, write allowed",
	"loaded, write refused (EBUSY)",
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int load(void)
{
	const char *path = getenv("CPUMGR_MODULE");
	int fd, ret = 0;

	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0) {
		fprintf(stderr, "# cannot open the module (CPUMGR_MODULE)\n");
		return -ENOENT;
	}
	if (syscall(SYS_finit_module, fd, "", 0))
		ret = -errno;
	close(fd);
	return ret;
}

static int unload(void)
{
	return syscall(SYS_delete_module, "cpumgr", O_NONBLOCK) ? -errno : 0;
}

/* The static policy and CPUs 2-3 for one container, bound nowhere. */
static int assign(void)
{
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_POLICY, .policy = CPUMGR_POLICY_STATIC,
	};
	struct cpumgr_nl *nl = cpumgr_nl_open(NULL, NULL);
	int err;

	if (!nl)
		return -ENOENT;
	err = cpumgr_nl_configure(nl, &cfg, NULL, NULL) ?:
	      cpumgr_nl_assign(nl, "bench", "c", "2-3", 0, NULL, NULL, NULL);
	if (err)
		fprintf(stderr, "# %s\n", cpumgr_nl_errmsg(nl));
	cpumgr_nl_close(nl);
	return err;
}

static int reset(void)
{
	struct cpumgr_nl *nl = cpumgr_nl_open(NULL, NULL);
	int err;

	if (!nl)
		return -ENOENT;
	err = cpumgr_nl_reset(nl, NULL, NULL);
	cpumgr_nl_close(nl);
	return err;
}

/* Nanoseconds per write of @n writes; -1 when one is not as expected. */
static double time_writes(int fd, int n, bool refused)
{
	static const char *const vals[2] = { "6", "6-7" };
	double t0 = now();
	int i;

	for (i = 0; i < n; i++) {
		const char *v = refused ? "2-3" : vals[i & 1];
		ssize_t ret = pwrite(fd, v, strlen(v), 0);

		if (refused ? ret >= 0 || errno != EBUSY : ret < 0) {
			fprintf(stderr, "# write %s: %s\n", v,
				ret < 0 ? strerror(errno) : "not refused");
			return -1;
		}
	}
	return (now() - t0) * 1e9 / n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v; the median. */
static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return (v[(n - 1) / 2] + v[n / 2]) / 2;
}

/* The module loaded (1) or not (0), then a warm-up; 0 or -1. */
static int set_loaded(int fd, int loaded)
{
	int err = loaded ? load() : unload();

	if (err && err != (loaded ? -EEXIST : -ENOENT))
		return -1;
	return time_writes(fd, WARMUP, false) < 0 ? -1 : 0;
}

/*
 * One round of the four write phases, the unloaded one first or last by
 * turns (load and unload leave work behind: neither side always pays
 * for it); 0 or -1.
 */
static int round_writes(int fd, int r, double ns[NR_PHASES])
{
	if (!(r & 1)) {
		if (set_loaded(fd, 0))
			return -1;
		ns[UNLOADED] = time_writes(fd, WRITES, false);
	}
	if (set_loaded(fd, 1))
		return -1;
	ns[EMPTY] = time_writes(fd, WRITES, false);
	if (assign())
		return -1;
	ns[ASSIGNED] = time_writes(fd, WRITES, false);
	ns[REFUSED] = time_writes(fd, WRITES, true);
	if (reset())
		return -1;
	if (r & 1) {
		if (set_loaded(fd, 0))
			return -1;
		ns[UNLOADED] = time_writes(fd, WRITES, false);
	}
	for (int p = 0; p < NR_PHASES; p++) {
		if (ns[p] < 0)
			return -1;
	}
	return 0;
}

/* Microseconds per refused offline of CPU 3 (assigned), or -1. */
static double time_refused_offline(void)
{
	double t0;
	int i;

	if (assign())
		return -1;
	t0 = now();
	for (i = 0; i < REFUSED_OFFLINES; i++) {
		if (write_str(CPUS_DIR "/cpu3/online", "0") != -EBUSY) {
			fprintf(stderr, "# offline of CPU 3 was not refused\n");
			return -1;
		}
	}
	t0 = (now() - t0) * 1e6 / REFUSED_OFFLINES;
	return reset() ? -1 : t0;
}

/* Microseconds per offline and per online of CPU 7 (shared), or -1. */
static int time_shared_hotplug(double *off_us, double *on_us)
{
	double off = 0, on = 0, t;
	int i;

	for (i = 0; i < OFFLINE_CYCLES; i++) {
		t = now();
		if (write_str(CPUS_DIR "/cpu7/online", "0"))
			return -1;
		off += now() - t;
		t = now();
		if (write_str(CPUS_DIR "/cpu7/online", "1"))
			return -1;
		on += now() - t;
	}
	*off_us = off * 1e6 / OFFLINE_CYCLES;
	*on_us = on * 1e6 / OFFLINE_CYCLES;
	return 0;
}

int main(void)
{
	double ns[NR_PHASES][ROUNDS], med[NR_PHASES], refused, off, on;
	int fd, r, p, ret = 1;

	printf("TAP version 13\n1..1\n");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 8) {
		printf("ok 1 bench_hooks # SKIP needs 8 CPUs\n");
		return 4;
	}
	if (write_str("/sys/fs/cgroup/cgroup.subtree_control", "+cpuset") ||
	    (mkdir(CG, 0755) && errno != EEXIST) ||
	    write_str(CG "/cpuset.cpus", "6-7")) {
		printf("not ok 1 bench_hooks # cannot set up %s\n", CG);
		return 1;
	}
	fd = open(CG "/cpuset.cpus", O_WRONLY);
	for (r = 0; fd >= 0 && r < ROUNDS; r++) {
		double one[NR_PHASES];

		if (round_writes(fd, r, one))
			break;
		for (p = 0; p < NR_PHASES; p++)
			ns[p][r] = one[p];
	}
	if (fd >= 0)
		close(fd);
	/* Whatever happened, the module is loaded again for what follows. */
	if (unload() == 0 || errno == ENOENT)
		load();
	if (r < ROUNDS)
		goto out;

	printf("# %-40s %9s %6s %9s %6s\n", "cpuset.cpus write (8 rounds)",
	       "median ns", "ratio", "min ns", "ratio");
	for (p = 0; p < NR_PHASES; p++)
		med[p] = median(ns[p], ROUNDS);
	for (p = 0; p < NR_PHASES; p++)
		printf("# %-40s %9.0f %6.2f %9.0f %6.2f\n", phase_names[p],
		       med[p], med[p] / med[UNLOADED], ns[p][0],
		       ns[p][0] / ns[UNLOADED][0]);
	refused = time_refused_offline();
	if (refused < 0 || time_shared_hotplug(&off, &on))
		goto out;
	printf("# %-45s %10s\n", "CPU hotplug", "us/call");
	printf("# %-45s %10.1f\n", "offline of an assigned CPU, refused", refused);
	printf("# %-45s %10.1f\n", "offline of a shared CPU", off);
	printf("# %-45s %10.1f\n", "online of a shared CPU", on);
	ret = 0;
out:
	rmdir(CG);
	printf("%s 1 bench_hooks\n", ret ? "not ok" : "ok");
	return ret;
}
