/* SPDX-License-Identifier: GPL-2.0 */
/*
 * containerd's two other ways to cpumgr, which init --integration owns
 * beside the NRI units and the hooks.d file (ctl_integration.c):
 *   - cpumgr's OCI hooks in containerd's base runtime spec, the file
 *     contrib/containerd/config.toml names (base_runtime_spec), made
 *     once by the administrator from `ctr oci spec` and cpumgr's
 *     cpumgr-hooks.json;
 *   - an NRI plugin containerd (or CRI-O) launches itself from its
 *     plugin_path: NN-cpumgr there, a link to cpumgrctl or a script
 *     running it.
 * containerd reads both when it starts: a change takes effect when it
 * restarts, which the log lines say.
 */
#ifndef CPUMGRCTL_CTL_CONTAINERD_H
#define CPUMGRCTL_CTL_CONTAINERD_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

#define CTL_BASE_SPEC		"/etc/containerd/cpumgr-base-spec.json"
#define CTL_NRI_PLUGIN_DIR	"/opt/nri/plugins"

/*
 * cpumgr's hooks in the base spec at path: with hooks (a file whose
 * "hooks" are cpumgr's, the package's cpumgr-hooks.json) they replace
 * the ones there, without (NULL) they go.  A spec that is not there is
 * left so, with a line on log when hooks were to go in; every other
 * hook and member stays.  0, or -1 with err set and the file unchanged.
 */
int ctl_base_spec_hooks(const char *path, const char *hooks, FILE *log,
			struct cm_error *err);
/* Whether the base spec at path holds a hook of cpumgr's. */
bool ctl_base_spec_has_hooks(const char *path);

/*
 * Remove cpumgr's plugins from the runtime's plugin directory (NN-cpumgr
 * and NN-cpumgr-*, links to cpumgrctl or files that run it), one line
 * on log each; with list, name them on log without removing them.
 * How many there were, or -1 with err set.
 */
int ctl_nri_plugins_off(const char *dir, bool list, FILE *log,
			struct cm_error *err);

#endif
