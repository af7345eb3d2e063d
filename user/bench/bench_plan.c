// SPDX-License-Identifier: GPL-2.0
/*
 * A whole `cpumgrctl plan` process on 1024- and 4096-CPU topologies, the
 * take form (64 CPUs) and the policy form (four 64-CPU pods with
 * full-pcpus-only): CPU time from exec to exit (user + system, from
 * wait4()) and page faults, min / median / 90th percentile of
 * CPUMGR_BENCH_REPS runs (default 50), next to a process that does
 * nothing (`cpumgrctl version`).  Then the same request's steps in this
 * process: json_load(), topology_from_json(), one decision.
 *
 * cpumgrctl is found next to the bench directory ($CPUMGRCTL overrides),
 * the requests are written to $TMPDIR.
 */
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "alloc.h"
#include "bench_process.h"
#include "json_util.h"
#include "topology_json.h"

struct machine {
	const char *name;
	int sockets, numa_per_socket, cores_per_numa, threads;
};

static const struct machine machines[] = {
	{ "1024 CPUs: 4 sockets x 2 NUMA x 64 cores x 2 threads", 4, 2, 64, 2 },
	{ "4096 CPUs: 4 sockets x 4 NUMA x 128 cores x 2 threads", 4, 4, 128, 2 },
};

/* The request as a person would write it: indented, one member a line. */
static void write_request(const char *path, const struct machine *m,
			  bool policy)
{
	int cores = m->sockets * m->numa_per_socket * m->cores_per_numa;
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "{\n \"topology\": {\n  \"cpus\": [\n");
	for (int i = 0; i < cores * m->threads; i++) {
		int core = i % cores, numa = core / m->cores_per_numa;

		fprintf(f, "   {\n    \"cpu\": %d,\n    \"core\": %d,\n"
			"    \"socket\": %d,\n    \"numa\": %d,\n"
			"    \"uncore\": %d\n   }%s\n", i, core,
			numa / m->numa_per_socket, numa, core / 16,
			i + 1 < cores * m->threads ? "," : "");
	}
	fprintf(f, "  ]\n },\n");
	if (!policy) {
		fprintf(f, " \"available\": \"0-%d\",\n \"count\": 64,\n"
			" \"options\": {}\n}\n", cores * m->threads - 1);
	} else {
		fprintf(f, " \"policy\": \"static\",\n \"numReservedCpus\": 2,\n"
			" \"options\": {\"full-pcpus-only\": \"true\"},\n"
			" \"steps\": [\n");
		for (int p = 0; p < 4; p++)
			fprintf(f, "  {\"op\": \"add\", \"pod\": {\"apiVersion\": \"v1\", \"kind\": \"Pod\","
				" \"metadata\": {\"name\": \"p%d\", \"namespace\": \"default\","
				" \"uid\": \"0b1e5a44-5f3c-4c55-9a0e-0000000000%02d\"},"
				" \"spec\": {\"containers\": [{\"name\": \"app\", \"image\": \"busybox\","
				" \"resources\": {\"limits\": {\"cpu\": \"64\", \"memory\": \"1Gi\"},"
				" \"requests\": {\"cpu\": \"64\", \"memory\": \"1Gi\"}}}]}}}%s\n",
				p, p, p < 3 ? "," : "");
		fprintf(f, " ]\n}\n");
	}
	if (fclose(f)) {
		perror(path);
		exit(1);
	}
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The take request's steps in this process, warm: median CPU ms of reps. */
static void bench_steps(const char *path, int reps)
{
	double *load = calloc(reps, sizeof(double));
	double *topo = calloc(reps, sizeof(double));
	double *take = calloc(reps, sizeof(double));
	double *del = calloc(reps, sizeof(double));
	struct cm_error err = { 0 };

	for (int i = 0; i < reps; i++) {
		struct alloc_request req = { .num_cpus = 64, .cpu_group_size = 1 };
		struct cpuset out;
		struct topology *t;
		double t0 = now_ms(), t1, t2, t3;
		cJSON *j = json_load(path, &err);

		t1 = now_ms();
		t = j ? topology_from_json(cJSON_GetObjectItem(j, "topology"),
					   &err) : NULL;
		t2 = now_ms();
		if (!t || alloc_take(t, NULL, &t->cpus, &req, &out, &err)) {
			printf("  in-process steps failed: %s\n",
			       cm_error_msg(&err));
			cJSON_Delete(j);
			topology_free(t);
			goto out;
		}
		t3 = now_ms();
		cJSON_Delete(j);
		topology_free(t);
		load[i] = t1 - t0;
		topo[i] = t2 - t1;
		take[i] = t3 - t2;
		del[i] = now_ms() - t3;
	}
	printf("  in process (median CPU ms): json_load %.3f, topology_from_json %.3f, "
	       "take %.3f, cJSON_Delete + topology_free %.3f\n",
	       stats_of(load, reps).median, stats_of(topo, reps).median,
	       stats_of(take, reps).median, stats_of(del, reps).median);
out:
	cm_error_clear(&err);
	free(load);
	free(topo);
	free(take);
	free(del);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR") ?: "/tmp";
	int reps = atoi(getenv("CPUMGR_BENCH_REPS") ?: "50");
	char ctl[PATH_MAX], exe[PATH_MAX], take[PATH_MAX], policy[PATH_MAX];
	ssize_t n;

	if (reps < 1)
		reps = 1;
	if (getenv("CPUMGRCTL")) {
		snprintf(ctl, sizeof(ctl), "%s", getenv("CPUMGRCTL"));
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		snprintf(ctl, sizeof(ctl), "%s/../cpumgrctl", dirname(exe));
	}
	snprintf(take, sizeof(take), "%s/cpumgr-bench-take-%d.json", tmp,
		 (int)getpid());
	snprintf(policy, sizeof(policy), "%s/cpumgr-bench-policy-%d.json",
		 tmp, (int)getpid());

	bench_table("cpumgrctl plan, whole processes", ctl, reps);
	for (size_t m = 0; m < sizeof(machines) / sizeof(machines[0]); m++) {
		char *argv_take[] = { ctl, "plan", take, NULL };
		char *argv_policy[] = { ctl, "plan", policy, NULL };
		FILE *f;
		long size = 0;

		write_request(take, &machines[m], false);
		write_request(policy, &machines[m], true);
		f = fopen(take, "r");
		if (f && !fseek(f, 0, SEEK_END))
			size = ftell(f);
		if (f)
			fclose(f);
		printf("%s (request %ld KiB)\n", machines[m].name, size / 1024);
		bench_process("plan: take 64", argv_take, reps, NULL, NULL);
		bench_process("plan: policy, 4 pods of 64", argv_policy, reps,
			      NULL, NULL);
		bench_steps(take, reps);
		unlink(take);
		unlink(policy);
	}
	return 0;
}
