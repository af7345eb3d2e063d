// SPDX-License-Identifier: GPL-2.0
/*
 * A whole `cpumgrctl admit` process on 1024- and 4096-CPU machines: a
 * Guaranteed pod of 64 CPUs admitted into a node that `init` set up
 * (static policy, CPUs 0-1 reserved), CPU time from exec to exit and
 * page faults, min / median / 90th percentile of CPUMGR_BENCH_REPS runs
 * (default 50), next to `cpumgrctl version`.  This host has no such
 * machine and no module loaded: the cpumgrctl here is
 * bench/cpumgrctl-standin, linked with kernel_standin.c in place of the
 * netlink client, so the figures are the controller's own work (state
 * directory, topology, policy, checkpoint) without the kernel's.  Each
 * run starts from the same node, copied before it, untimed.  The state
 * directory is under $TMPDIR (a disk, with its syncs, unless TMPDIR says
 * otherwise); the stand-in's table, which stands for the kernel's memory,
 * is kept on /dev/shm so that no disk write of the stand-in is counted.
 *
 * cgroups: the managed root is the hierarchy's root, so admit narrows
 * nothing and writes no cgroup of this host.
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "bench_process.h"

struct machine {
	const char *name, *topology;	/* CPUMGR_STANDIN_TOPOLOGY */
};

static const struct machine machines[] = {
	{ "1024 CPUs: 4 sockets x 2 NUMA x 64 cores x 2 threads", "4 2 64 2" },
	{ "4096 CPUs: 4 sockets x 4 NUMA x 128 cores x 2 threads", "4 4 128 2" },
};

static const char pod[] =
	"{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n"
	" \"metadata\": {\"name\": \"bench\", \"namespace\": \"default\",\n"
	"  \"uid\": \"0b1e5a44-5f3c-4c55-9a0e-0000000000b1\"},\n"
	" \"spec\": {\"containers\": [{\"name\": \"app\", \"image\": \"busybox\",\n"
	"  \"resources\": {\"limits\": {\"cpu\": \"64\", \"memory\": \"1Gi\"},\n"
	"   \"requests\": {\"cpu\": \"64\", \"memory\": \"1Gi\"}}}]}}\n";

struct dirs {
	char top[PATH_MAX], run[PATH_MAX + 8], state[PATH_MAX + 16];
	char kernel[PATH_MAX];	/* the stand-in's table, in memory */
};

static void sh(const char *cmd)
{
	if (system(cmd)) {
		fprintf(stderr, "bench_admit: %s failed\n", cmd);
		exit(1);
	}
}

/* The node as init left it, again: run/ from template/. */
static int reset_node(void *arg)
{
	const struct dirs *d = arg;
	char cmd[8 * PATH_MAX];

	snprintf(cmd, sizeof(cmd),
		 "rm -rf '%s' && cp -a '%s/template' '%s' && cp '%s/kernel' '%s'",
		 d->run, d->top, d->run, d->top, d->kernel);
	return system(cmd);
}

/* The hierarchy's root: v2's mount, v1's cpuset hierarchy. */
static const char *cgroup_root(void)
{
	struct statfs fs;

	if (!statfs("/sys/fs/cgroup", &fs) && fs.f_type == CGROUP2_SUPER_MAGIC)
		return "/sys/fs/cgroup";
	return "/sys/fs/cgroup/cpuset";
}

int main(void)
{
	const char *tmp = getenv("TMPDIR") ?: "/tmp";
	int reps = atoi(getenv("CPUMGR_BENCH_REPS") ?: "50");
	const char *shm = access("/dev/shm", W_OK) ? tmp : "/dev/shm";
	char ctl[PATH_MAX], exe[PATH_MAX], podfile[PATH_MAX + 16],
	     cmd[16 * PATH_MAX];
	struct dirs d;
	ssize_t n;
	FILE *f;

	if (reps < 1)
		reps = 1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	snprintf(ctl, sizeof(ctl), "%s/cpumgrctl-standin", dirname(exe));
	snprintf(d.top, sizeof(d.top), "%s/cpumgr-bench-admit-%d", tmp,
		 (int)getpid());
	snprintf(d.run, sizeof(d.run), "%s/run", d.top);
	snprintf(d.state, sizeof(d.state), "%s/state", d.run);
	snprintf(d.kernel, sizeof(d.kernel), "%s/cpumgr-bench-kernel-%d", shm,
		 (int)getpid());
	snprintf(podfile, sizeof(podfile), "%s/pod.json", d.top);
	setenv("CPUMGR_STANDIN", d.kernel, 1);

	bench_table("cpumgrctl admit, whole processes, the kernel stood in for",
		    ctl, reps);
	for (size_t m = 0; m < sizeof(machines) / sizeof(machines[0]); m++) {
		char *argv[] = { ctl, "admit", podfile, "--state-dir", d.state,
				 NULL };

		setenv("CPUMGR_STANDIN_TOPOLOGY", machines[m].topology, 1);
		snprintf(cmd, sizeof(cmd),
			 "rm -rf '%s' '%s' && mkdir -p '%s' && '%s' init --cpu-manager-policy static "
			 "--reserved-cpus 0-1 --cgroup-root %s --state-dir '%s' >/dev/null && "
			 "cp -a '%s' '%s/template' && cp '%s' '%s/kernel'", d.top, d.kernel,
			 d.run, ctl, cgroup_root(), d.state, d.run, d.top, d.kernel,
			 d.top);
		sh(cmd);
		f = fopen(podfile, "w");
		if (!f || fputs(pod, f) < 0 || fclose(f)) {
			perror(podfile);
			return 1;
		}
		printf("%s\n", machines[m].name);
		bench_process("admit: a pod of 64 CPUs", argv, reps, reset_node,
			      &d);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", d.top, d.kernel);
	sh(cmd);
	return 0;
}
