// SPDX-License-Identifier: GPL-2.0
/*
 * The managed tree's upper cgroups, narrowed so that what container
 * runtimes create below them inherits nothing it may not hold.
 *
 * On cgroup2 a new cgroup inherits its parent's CPUs, and runtimes move
 * a container's first task in before they write its cpuset.cpus.  The
 * kernel refuses a task that would run on another pod's CPUs, so every
 * cgroup a runtime or the kubelet creates a cgroup in must hold no such
 * CPUs.  Those are the managed root's children (QoS cgroups and
 * Guaranteed pods' cgroups) and the QoS cgroups' children (Burstable and
 * BestEffort pods' cgroups).  Each gets the shared pool plus the
 * exclusive CPUs of the containers and pods bound at or below it: a pod
 * cgroup its own pod's, which its new containers may inherit (the
 * kernel's same-pod rule), a QoS cgroup its pods'.  Container cgroups
 * are left to whoever attaches the container.
 *
 * The kubelet names QoS cgroups "burstable" and "besteffort" (cgroupfs
 * driver) or "kubepods-burstable.slice" and "kubepods-besteffort.slice"
 * (systemd driver).  Nothing is narrowed when the managed root is the
 * hierarchy's root (every cgroup of the machine would be), nor on v1,
 * where a new cpuset starts empty and inherits nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "node_internal.h"

static bool ends_with(const char *s, const char *tail)
{
	size_t sl = strlen(s), tl = strlen(tail);

	return sl >= tl && !strcmp(s + sl - tl, tail);
}

bool node_qos_cgroup(const char *base)
{
	return !strcmp(base, "burstable") || !strcmp(base, "besteffort") ||
	       ends_with(base, "-burstable.slice") ||
	       ends_with(base, "-besteffort.slice");
}

/* path is dir or below it */
static bool at_or_below(const char *path, const char *dir)
{
	size_t dl = strlen(dir);

	return path && !strncmp(path, dir, dl) &&
	       (path[dl] == '\0' || path[dl] == '/');
}

/* A container's cgroup: bound in the kernel or attached by us. */
static bool container_cgroup(const struct node *n, const char *path)
{
	for (size_t i = 0; i < n->kernel.nr_as; i++)
		if (n->kernel.as[i].cgroup_path &&
		    !strcmp(n->kernel.as[i].cgroup_path, path))
			return true;
	for (unsigned int i = 0; i < n->nr_pods; i++)
		for (unsigned int k = 0; k < n->pods[i].pod.nr; k++)
			if (!strcmp(n->pods[i].c[k].cgroup, path))
				return true;
	return false;
}

/* What a cgroup at path may hold: the shared pool and the CPUs bound at
 * or below it. */
static void narrowed_cpus(const struct node *n, const char *path,
			  struct cpuset *out)
{
	struct cpuset cpus;

	node_shared_pool(n, out);
	for (size_t i = 0; i < n->kernel.nr_as; i++) {
		const struct cpumgr_assignment *a = &n->kernel.as[i];

		if (!a->cpus || cpuset_parse(&cpus, a->cpus, NULL))
			continue;
		if (at_or_below(a->cgroup_path, path) ||
		    at_or_below(a->pod_cgroup_path, path))
			cpuset_or(out, out, &cpus);
	}
	/* what a resize is taking stays with the container's ancestors */
	if (at_or_below(n->withheld_below, path))
		cpuset_or(out, out, &n->withheld);
}

static int narrow_one(struct node *n, const char *name, struct cm_error *err)
{
	char path[PATH_MAX], *text;
	struct cpuset want;
	bool changed;
	int ret;

	ret = node_cgroup_path(n, name, path, sizeof(path), err);
	if (ret)
		return ret;
	if (container_cgroup(n, path))
		return 0;
	narrowed_cpus(n, path, &want);
	ret = node_set_cpuset(n, name, &want, &changed, err);
	/*
	 * Gone meanwhile, no cpuset controller there, or refused: say so
	 * and go on with the others (the kernel's rules still hold).
	 */
	if (ret) {
		if (ret != -ENOENT)
			node_log(n, "%s: not narrowed: %s", path,
				 cm_error_msg(err));
		cm_error_clear(err);
		return 0;
	}
	if (!changed)
		return 0;
	text = cpuset_to_str(&want);
	node_log(n, "%s: cpuset.cpus %s (what new cgroups below inherit)",
		 path, text ? text : "?");
	free(text);
	return 1;
}

/* Narrow the children of name (the QoS cgroups' after their own). */
static int narrow_children(struct node *n, const char *name, bool qos_level,
			   struct cm_error *err)
{
	char path[PATH_MAX], child[PATH_MAX];
	int changes = 0, ret = 0;
	struct dirent *d;
	DIR *dir;

	ret = node_cgroup_path(n, name, path, sizeof(path), err);
	if (ret)
		return ret;
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? 0 :
		       cm_errorf(err, "%s: %s", path, strerror(errno));
	while (ret >= 0 && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		if (snprintf(child, sizeof(child), "%s/%s", name, d->d_name) >=
		    (int)sizeof(child))
			continue;
		ret = 0;
		/* the pods first: the QoS cgroup then holds what they do */
		if (qos_level && node_qos_cgroup(d->d_name))
			ret = narrow_children(n, child, false, err);
		if (ret >= 0) {
			changes += ret;
			ret = narrow_one(n, child, err);
		}
		if (ret > 0)
			changes += ret;
	}
	closedir(dir);
	return ret < 0 ? ret : changes;
}

int node_narrow(struct node *n, struct cm_error *err)
{
	if (n->cgroups.fs.version != 2 || !n->cgroups.root_name[0])
		return 0;
	return narrow_children(n, n->cgroups.root_name, true, err);
}
