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
	CTL_INTEGRATION_NR,
};

/* Where the integrations live; the defaults are the installed ones. */
struct ctl_integration_env {
	const char *systemctl;	/* a program name or path */
	const char *hook_src;	/* the inert hooks.d file of the package */
	const char *hook_dir;	/* the hooks.d directory runtimes read */
};

/* "none", "nri-decide", ...; NULL past the last */
const char *ctl_integration_name(unsigned int i);
/* 0 and *out, or -1 with the error in err ("'x' is not one of: ..."). */
int ctl_integration_parse(const char *s, enum ctl_integration *out,
			  struct cm_error *err);
void ctl_integration_env_default(struct ctl_integration_env *env);
/*
 * Turn the other integrations off, then this one on; each change is a
 * line on log.  0, or -1 with the error in err.
 */
int ctl_integration_apply(enum ctl_integration which,
			  const struct ctl_integration_env *env, FILE *log,
			  struct cm_error *err);

#endif
