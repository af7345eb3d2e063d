/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which NRI a runtime speaks, for what the plugin may ask of it: a
 * runtime closes a plugin that subscribes to an event it does not know
 * (its ConfigureRequest is refused), and before NRI 0.10 there was no
 * UpdatePodSandbox nor ValidateContainerAdjustment.  From NRI 0.12 the
 * runtime says its version in ConfigureRequest.NRI_version ("v0.12.2");
 * before, the runtime's own name and version tell it: containerd 2.2
 * and CRI-O 1.34 are the first releases with NRI 0.10 (containerd 2.1,
 * Debian's, has 0.8.0, and containerd 1.7 0.6.1 or 0.8.0).
 */
#ifndef CPUMGR_NRI_VERSION_H
#define CPUMGR_NRI_VERSION_H

#include <stdbool.h>

struct nri_version {
	int major, minor, patch;
	bool known;		/* false: older than 0.10 as far as we know */
	bool inferred;		/* from the runtime's name and version */
};

/* "v0.12.2", "0.12", "v0.12.2-rc.1" into *v; -EINVAL for anything else. */
int nri_version_parse(const char *s, struct nri_version *v);
/*
 * The NRI of the runtime a ConfigureRequest comes from: its NRI_version
 * when given, else inferred from runtime_name and runtime_version.
 */
void nri_version_of_runtime(const char *nri_version, const char *runtime,
			    const char *runtime_version,
			    struct nri_version *v);
bool nri_version_at_least(const struct nri_version *v, int major, int minor);

#endif
