/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole processes timed from exec to exit: CPU time (user + system, from
 * wait4()) and page faults, min / median / 90th percentile of reps runs.
 */
#ifndef CPUMGR_BENCH_PROCESS_H
#define CPUMGR_BENCH_PROCESS_H

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Run before each run, not timed (NULL: none); non-zero stops. */
typedef int (*bench_prepare_fn)(void *arg);

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stats {
	double min, median, p90;
};

static inline struct stats stats_of(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return (struct stats){ v[0], v[n / 2], v[n * 9 / 10] };
}

/*
 * CPU ms and page faults of one run of argv, stdout to /dev/null.  Spawned
 * with posix_spawn(), which shares this process's memory until the exec
 * (vfork), as the kubelet's Go runtime starts its children: a fork()
 * would charge the child for copying and then dropping this process's
 * page tables, a cost of the benchmark's size, not of cpumgrctl's.
 */
static inline int run_once(char *const argv[], double *cpu_ms, double *faults)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	int status, err;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	err = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
	      posix_spawn_file_actions_adddup2(&fa, 1, 2) ||
	      posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	*cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	*faults = (double)ru.ru_minflt + (double)ru.ru_majflt;
	return 0;
}

static inline void bench_process(const char *what, char *const argv[],
				 int reps, bench_prepare_fn prepare, void *arg)
{
	double *cpu = calloc(reps, sizeof(double));
	double *flt = calloc(reps, sizeof(double));
	struct stats c, f;

	for (int i = 0; i < reps; i++) {
		if ((prepare && prepare(arg)) ||
		    run_once(argv, &cpu[i], &flt[i])) {
			printf("  %-28s failed: %s %s %s\n", what, argv[0],
			       argv[1], argv[2] ? argv[2] : "");
			goto out;
		}
	}
	c = stats_of(cpu, reps);
	f = stats_of(flt, reps);
	printf("  %-28s %7.2f %7.2f %7.2f   %7.0f\n", what, c.min, c.median,
	       c.p90, f.median);
out:
	free(cpu);
	free(flt);
}

/*
 * The table's title and columns, and its first row: ctl doing nothing
 * (`version`), what every process of ctl costs before its work.
 */
static inline void bench_table(const char *title, char *ctl, int reps)
{
	char *argv[] = { ctl, "version", NULL };

	printf("%s (%d runs each; CPU ms = user + system)\n", title, reps);
	printf("  %-28s %7s %7s %7s   %7s\n", "", "min", "median", "p90",
	       "faults");
	bench_process("cpumgrctl version", argv, reps, NULL, NULL);
}

#endif
