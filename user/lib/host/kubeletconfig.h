/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The node configuration "cpumgrctl init" takes, in the kubelet's own
 * terms: its flags, or a KubeletConfiguration file
 * (kubelet.config.k8s.io/v1beta1, YAML or JSON), flags overriding the
 * file as on the kubelet's command line.  Settings read:
 *
 *   flag                          file field
 *   --cpu-manager-policy          cpuManagerPolicy          (none)
 *   --cpu-manager-policy-options  cpuManagerPolicyOptions   k=v,...
 *   --reserved-cpus               reservedSystemCPUs        cpulist
 *   --kube-reserved               kubeReserved              cpu=...,memory=...
 *   --system-reserved             systemReserved
 *   --topology-manager-policy     topologyManagerPolicy     (none)
 *   --cpu-manager-reconcile-period cpuManagerReconcilePeriod (10s)
 *   --cgroup-driver               cgroupDriver              cgroupfs or systemd
 *                                 (not given: init goes by the managed
 *                                 root, a slice being systemd's)
 *   (file only)                   featureGates              the gates that
 *                                 change the CPU manager: PodLevelResource-
 *                                 Managers, CPUManagerPolicy{Alpha,Beta}Options
 *
 * Other fields are ignored as the kubelet's lenient decoding ignores
 * unknown ones; fields KubeletConfiguration does not have at all (a
 * typo) are listed in unknown, for a warning; a field of the wrong type is an error with encoding/json's
 * text, as a map flag given again replaces the file's map.
 * kubelet_config_finish() then derives the CPU manager's configuration
 * as cmd/kubelet and NewManager() do: an explicit reservedSystemCPUs
 * wins (kube-reserved cpu is dropped, system-reserved cpu becomes its
 * size), else ceil(kube + system cpu), and the static policy needs more
 * than zero.  Messages are the kubelet's.
 */
#ifndef CPUMGR_KUBELETCONFIG_H
#define CPUMGR_KUBELETCONFIG_H

#include <stdint.h>

#include <cJSON.h>

#include "error.h"
#include "policy_static.h"
#include "topology.h"

#define KUBELET_CONFIG_API	"kubelet.config.k8s.io/v1beta1"

struct kv_list {
	unsigned int nr;
	struct kv {
		char *key, *value;
	} *kv;
};

struct kubelet_config {
	/* the settings as written, defaults filled in */
	char *cpu_manager_policy;
	char *topology_manager_policy;
	char *reserved_system_cpus;
	struct kv_list policy_options, kube_reserved, system_reserved;
	int64_t reconcile_period_ns;
	char *cgroup_driver;		/* NULL or "": not given */
	/* featureGates: -1 not set, 0 off, 1 on */
	int gate_pod_level, gate_alpha_options, gate_beta_options;
	unsigned int flags_seen;	/* map flags that replaced the file's */
	struct kv_list unknown;		/* fields no KubeletConfiguration has */

	/* derived by kubelet_config_finish() */
	struct policy_config policy;	/* for cpu_policy_init() */
	int64_t reserved_milli;		/* cpu reservation, millicores */
};

/* Defaults: none policies, no reservation, 10s; -ENOMEM. */
int kubelet_config_init(struct kubelet_config *c);
void kubelet_config_free(struct kubelet_config *c);

/*
 * One kubelet flag ("--kube-reserved" or "kube-reserved") and its value.
 * -ENOENT (no message) for a flag this is not about; other errors read
 * as pflag's: "invalid argument \"x\" for \"--kube-reserved\" flag: ...".
 */
int kubelet_config_flag(struct kubelet_config *c, const char *flag,
			const char *value, struct cm_error *err);

/* A KubeletConfiguration file ("-": stdin), JSON or YAML. */
int kubelet_config_load(struct kubelet_config *c, const char *path,
			struct cm_error *err);
/* The same from a parsed object. */
int kubelet_config_from_json(struct kubelet_config *c, const cJSON *obj,
			     struct cm_error *err);

/* Validate and derive c->policy and c->reserved_milli. */
int kubelet_config_finish(struct kubelet_config *c, struct cm_error *err);

/* getReservedCPUs(): the reserved CPUs must be online CPUs of t. */
int kubelet_config_check_topology(const struct kubelet_config *c,
				  const struct topology *t,
				  struct cm_error *err);

/* Go's time.ParseDuration, in nanoseconds, with its messages. */
int go_parse_duration(const char *s, int64_t *ns, struct cm_error *err);

#endif
