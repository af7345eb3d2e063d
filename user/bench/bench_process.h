/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole processes timed from exec to exit: CPU time (user + system, from
 * wait4()) and page faults, min / median / 90th percentile of reps runs.
 */
#ifndef CPUMGR_BENCH_PROCESS_H
#define CPUMGR_BENCH_PROCESS_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* CPU ms and page faults of one run of argv, stdout to /dev/null. */
static inline int run_once(char *const argv[], double *cpu_ms, double *faults)
{
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
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
