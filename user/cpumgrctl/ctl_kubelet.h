/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One decider: which CPU manager policy the node's kubelet runs, from
 * its own files, so that cpumgr never decides beside a kubelet that does
 * (init --integration, cpumgrctl nri).  The kubelet's checkpoint
 * (cpu_manager_state) names the policy it last ran, and a kubelet
 * configured otherwise refuses to start until the file is removed; its
 * KubeletConfiguration names the policy it runs next.  "static" in
 * either: the kubelet decides.  Neither file: no kubelet here.
 */
#ifndef CPUMGRCTL_CTL_KUBELET_H
#define CPUMGRCTL_CTL_KUBELET_H

#include <limits.h>
#include <stdbool.h>

#include "error.h"

#define CTL_KUBELET_CONFIG	"/var/lib/kubelet/config.yaml"

#define CTL_OPT_KUBELET_CONFIG \
	{ "kubelet-config", 0, "FILE", CTL_FILE, NULL, "the kubelet's own KubeletConfiguration, read to tell whether it runs the static policy (default " CTL_KUBELET_CONFIG ")" }

struct ctl_kubelet {
	const char *config, *state;	/* the files read */
	bool is_static;			/* the kubelet decides */
	bool found;			/* either file was there */
	char why[PATH_MAX + 64];	/* "FILE: policyName \"static\"" */
};

/*
 * Read the kubelet's configuration and checkpoint (absent files are no
 * error).  0, or -1 with err saying which file could not be read: then
 * nobody can tell, and cpumgr must not decide.
 */
int ctl_kubelet_read(struct ctl_kubelet *k, const char *config,
		     const char *state, struct cm_error *err);

/*
 * The refusal of a decide mode while the kubelet runs static, in err:
 * why, and the two ways out (the kubelet to none, step by step, or
 * cpumgr guarding the kubelet's decisions: follow).
 */
int ctl_kubelet_refuse(const struct ctl_kubelet *k, const char *follow,
		       struct cm_error *err);

/*
 * init --integration: where cpumgr would decide (nri-decide, oci-hook)
 * while the kubelet runs static, refused with the ways out (exit 2;
 * exit 1 when its files cannot be read); nri-follow becomes nri-guard or
 * nri-decide by what it runs, said on stdout.  0 to go on.
 */
int ctl_kubelet_integration(int *integration, const char *config,
			    const char *state);

#endif
