/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the kubelets cpumgr matches (1.32 to 1.37) differ in what it
 * copies: which checkpoint they write, at which level each static policy
 * option is (its feature gate), and two allocator rules.  Read from the
 * kubelet's sources, their KEPs' milestones and the merged PRs:
 *
 *   option                            alpha      beta       GA
 *   full-pcpus-only                   -          to 1.32    1.33
 *   distribute-cpus-across-numa       to 1.32    1.33       -
 *   align-by-socket                   all        -          -
 *   distribute-cpus-across-cores      all        -          -
 *   strict-cpu-reservation            1.32       1.33-1.34  1.35
 *   prefer-align-cpus-by-uncorecache  1.32-1.33  1.34-1.35  1.36
 *
 *   checkpoint: v2; 1.36 v3 with the PodLevelResourceManagers gate (alpha,
 *   off by default); 1.37 v4 (#139102), whatever the gates.
 *   distribute-cpus-across-numa: from 1.37 the topology manager hint's
 *   NUMA count is the floor of the NUMA nodes spread over (#139456).
 *
 * A minor of 0 is no kubelet named: cpumgr's own behaviour, the newest
 * rules.
 */
#ifndef CPUMGR_KUBELET_VERSION_H
#define CPUMGR_KUBELET_VERSION_H

#include <stdbool.h>

#include "checkpoint.h"
#include "error.h"
#include "options.h"
#include "policy_static.h"

#define KUBELET_MINOR_FIRST	32
#define KUBELET_MINOR_LAST	37

/*
 * "1.37", "v1.37", "1.37.2", "v1.36.0-rc.1": the minor, 32 to 37; other
 * versions are an error naming the ones matched.
 */
int kubelet_version_parse(const char *s, int *minor, struct cm_error *err);

/*
 * The version the kubelet writes its checkpoint in (pod_level: its
 * PodLevelResourceManagers gate, which only 1.36 reads for this).
 */
enum checkpoint_version kubelet_checkpoint_version(int minor, bool pod_level);

/*
 * CheckPolicyOptionAvailable() for every option set in o, in that
 * kubelet: its gates CPUManagerPolicyAlphaOptions (off by default) and
 * CPUManagerPolicyBetaOptions (on) as given.  The kubelet's texts.
 */
int kubelet_check_options(int minor, const struct policy_options *o,
			  bool alpha_gate, bool beta_gate,
			  struct cm_error *err);

/* distribute-cpus-across-numa spreads over at least the hint's nodes. */
bool kubelet_numa_hint_floor(int minor);

#endif
