/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A node for whole cpumgrctl processes on the host: bench/cpumgrctl-
 * standin (kernel_standin.c for the module) on an 8-CPU machine (1
 * socket, 4 cores, 2 threads), `init` done with the static policy and
 * CPUs 0-1 reserved, in a temporary directory: state/ is the state
 * directory, kernel the stand-in's table.  The managed cgroup root is
 * the hierarchy's root and no container is attached, so no cgroup of
 * this host is written.
 */
#ifndef CPUMGR_TESTS_STANDIN_NODE_H
#define CPUMGR_TESTS_STANDIN_NODE_H

#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/magic.h>

#include "cpuset.h"
#include "fake_cgroup.h"
#include "json_util.h"

#define STANDIN_EMPTY_KERNEL "generation 1 policy 1 options 0 enforce 2 hotplug 0\n" \
	"reserved 0-1\nroot \n"

struct standin_node {
	char dir[PATH_MAX], ctl[PATH_MAX], out[8192];
	int status;		/* the last run's exit status */
};

/*
 * cpumgrctl-standin VERB [DIR/FILE] --state-dir DIR/state, its stdout
 * and stderr in sn->out.
 */
static inline void standin_run(struct standin_node *sn, const char *verb,
			       const char *file)
{
	char cmd[4 * PATH_MAX];
	size_t len;
	FILE *p;

	xsnprintf(cmd, sizeof(cmd), "'%s' %s %s%s%s --state-dir '%s/state' 2>&1",
		  sn->ctl, verb, file ? sn->dir : "", file ? "/" : "",
		  file ?: "", sn->dir);
	sn->out[0] = '\0';
	sn->status = -1;
	p = popen(cmd, "r");
	if (!p)
		return;
	len = fread(sn->out, 1, sizeof(sn->out) - 1, p);
	sn->out[len] = '\0';
	sn->status = WEXITSTATUS(pclose(p));
}

/* DIR/name's text (malloc'ed), NULL when it cannot be read. */
static inline char *standin_file(const struct standin_node *sn,
				 const char *name)
{
	char path[PATH_MAX];
	size_t len;
	char *text;
	FILE *f;

	xsnprintf(path, sizeof(path), "%s/%s", sn->dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	text = file_slurp(f, &len);
	fclose(f);
	return text;
}

/* The managed root init is given: the cpuset hierarchy's root. */
static inline const char *standin_cgroup_root(void)
{
	struct statfs fs;

	return !statfs("/sys/fs/cgroup", &fs) && fs.f_type == CGROUP2_SUPER_MAGIC ?
	       "/sys/fs/cgroup" : "/sys/fs/cgroup/cpuset";
}

/* The node, initialised; non-zero (sn->out says why) when init failed. */
static inline int standin_node_init(struct standin_node *sn)
{
	char exe[PATH_MAX], args[PATH_MAX + 128];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		abort();
	exe[n] = '\0';
	/* build/user/tests/test_x -> build/user/bench/cpumgrctl-standin */
	xsnprintf(sn->ctl, sizeof(sn->ctl), "%s/../bench/cpumgrctl-standin",
		  dirname(exe));
	fake_tree_new(sn->dir, sizeof(sn->dir));
	fake_write(sn->dir, "kernel", STANDIN_EMPTY_KERNEL);
	xsnprintf(exe, sizeof(exe), "%s/kernel", sn->dir);
	setenv("CPUMGR_STANDIN", exe, 1);
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 4 2", 1);
	xsnprintf(args, sizeof(args),
		  "init --cpu-manager-policy static --reserved-cpus 0-1 --cgroup-root %s",
		  standin_cgroup_root());
	standin_run(sn, args, NULL);
	return sn->status;
}

/*
 * The tree stand-in (bench/cpumgrctl-standin-tree: the cgroup hierarchy
 * a directory of sn->dir) on 16 CPUs (1 socket, 8 cores, 2 threads),
 * nothing run yet: 0, -1 when the test's own path cannot be read.
 */
static inline int standin_tree_new(struct standin_node *sn)
{
	char exe[PATH_MAX], path[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	xsnprintf(sn->ctl, sizeof(sn->ctl),
		  "%s/../bench/cpumgrctl-standin-tree", dirname(exe));
	fake_tree_new(sn->dir, sizeof(sn->dir));
	xsnprintf(path, sizeof(path), "%s/kernel", sn->dir);
	setenv("CPUMGR_STANDIN", path, 1);
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 8 2", 1);
	return 0;
}

static inline void standin_runf(struct standin_node *sn, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* cpumgrctl ARGS --state-dir DIR/state, run in DIR, output in sn->out */
static inline void standin_runf(struct standin_node *sn, const char *fmt, ...)
{
	char args[2048], cmd[8192];
	va_list ap;
	size_t len;
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	xsnprintf(cmd, sizeof(cmd), "cd '%s' && '%s' %s --state-dir '%s/state' 2>&1",
		  sn->dir, sn->ctl, args, sn->dir);
	sn->out[0] = '\0';
	p = popen(cmd, "r");
	if (!p)
		abort();
	len = fread(sn->out, 1, sizeof(sn->out) - 1, p);
	sn->out[len] = '\0';
	sn->status = WEXITSTATUS(pclose(p));
}

/*
 * DIR/g.json, pod g (UID g1) with container app, Guaranteed with 2 CPUs,
 * and DIR/b.json, pod b (b1) with web, Burstable with 500m.
 */
static inline void standin_pod_files(const struct standin_node *sn)
{
	fake_write(sn->dir, "g.json",
		   "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"g\",\"uid\":\"g1\"},"
		   "\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{"
		   "\"requests\":{\"cpu\":\"2\",\"memory\":\"1Gi\"},"
		   "\"limits\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}}]}}");
	fake_write(sn->dir, "b.json",
		   "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"b\",\"uid\":\"b1\"},"
		   "\"spec\":{\"containers\":[{\"name\":\"web\",\"resources\":{"
		   "\"requests\":{\"cpu\":\"500m\"}}}]}}");
}

/*
 * The tree stand-in's node: DIR/cg the cgroup mount, cg/kubepods the
 * managed root, `init` done with the static policy and CPUs 0-1
 * reserved, the pod files of standin_pod_files() written.  The init's
 * exit status (sn->out says why when not 0).
 */
static inline int standin_tree_init(struct standin_node *sn)
{
	fake_mkdir(sn->dir, "cg");
	standin_runf(sn, "init --cpu-manager-policy static --reserved-cpus 0-1 --cgroup-mount %s/cg --cgroup-root %s/cg/kubepods",
		     sn->dir, sn->dir);
	standin_pod_files(sn);
	return sn->status;
}

/* The CPUs DIR/rel names; CPU 1000, which no test expects, if unreadable. */
static inline struct cpuset standin_cpus(const struct standin_node *sn,
					 const char *rel)
{
	struct cpuset s;

	if (cpuset_parse(&s, fake_read(sn->dir, rel), NULL))
		cpuset_set(&s, 1000);
	return s;
}

static inline void standin_node_free(struct standin_node *sn)
{
	fake_tree_free(sn->dir);
}

#endif
