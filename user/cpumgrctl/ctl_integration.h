/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl init --integration: how the node's runtime gets containers to
 * cpumgr, chosen in one place.  Each choice turns every other one off
 * first, so that no two components pick CPUs:
 *   none        no NRI unit, no hook (a fresh package's state)
 *   nri-decide  cpumgr-nri@decide.service (the kubelet runs policy none)
 *   nri-guard   cpumgr-nri@guard.service (the kubelet runs static)
 *   oci-hook    the package's inert hooks.d file put in the admin's
 *               hooks.d (podman, CRI-O)
 *   nri-follow  nri-guard while the kubelet runs static, else nri-decide:
 *               resolved by the caller (ctl_kubelet.h) before applying
 */
#ifndef CPUMGRCTL_INTEGRATION_H
#define CPUMGRCTL_INTEGRATION_H

#include <stdio.h>

#include "error.h"

enum ctl_integration {
	CTL_INTEGRATION_NONE,
	CTL_INTEGRATION_NRI_DECIDE,
	CTL_INTEGRATION_NRI_GUARD,
	CTL_INTEGRATION_OCI_HOOK,
	CTL_INTEGRATION_NRI_FOLLOW,
	CTL_INTEGRATION_NR,
};

/* Where the integrations live; the defaults are the installed ones. */
struct ctl_integration_env {
	const char *systemctl;	/* a program name or path */
	const char *hook_src;	/* the inert hooks.d file of the package */
	const char *hook_dir;	/* the hooks.d directory runtimes read */
	const char *base_spec;	/* containerd's base spec (ctl_containerd.h) */
	const char *base_hooks;	/* the package's hooks for it */
	const char *plugin_dir;	/* where runtimes launch NRI plugins from */
};

/* "none", "nri-decide", ...; NULL past the last */
const char *ctl_integration_name(unsigned int i);
/* 0 and *out, or -1 with the error in err ("'x' is not one of: ..."). */
int ctl_integration_parse(const char *s, enum ctl_integration *out,
			  struct cm_error *err);
void ctl_integration_env_default(struct ctl_integration_env *env);
/*
 * Turn the other integrations off, then this one on; each change is a
 * line on log.  0, or -1 with the error in err.  Every way cpumgr ships
 * is one of them: the NRI units, the hooks.d file, cpumgr's hooks in
 * containerd's base spec (oci-hook puts them in a base spec that
 * exists) and an NRI plugin the runtime launches from its plugin
 * directory (only ever turned off: the units run the plugin).
 */
int ctl_integration_apply(enum ctl_integration which,
			  const struct ctl_integration_env *env, FILE *log,
			  struct cm_error *err);
/*
 * What is live, one line each on out ("cpumgr-nri@decide.service:
 * enabled, active", a hook file, ...); how many.
 */
unsigned int ctl_integration_show(const struct ctl_integration_env *env,
				  FILE *out);

#endif
