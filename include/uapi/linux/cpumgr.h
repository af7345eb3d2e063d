/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	include/uapi/linux/cpumgr.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_CPUMGR_H
#define _UAPI_LINUX_CPUMGR_H

#define CPUMGR_GENL_NAME	"cpumgr"
#define CPUMGR_GENL_VERSION	1

#define CPUMGR_POD_UID_MAX		64
#define CPUMGR_CONTAINER_MAX		63
#define CPUMGR_POD_CONTAINERS_MAX	64
#define CPUMGR_CPULIST_MAX		32768
#define CPUMGR_PATH_MAX			4095

/**
 * enum cpumgr_policy - The CPU manager policy of the node.
 * @CPUMGR_POLICY_NONE: No exclusive CPUs; every container uses the shared pool
 *   (the kubelet's "none"). The table holds no assignments.
 * @CPUMGR_POLICY_STATIC: Containers of Guaranteed pods with integer CPU
 *   requests get exclusive CPUs (the kubelet's "static").
 */
enum cpumgr_policy {
	CPUMGR_POLICY_NONE,
	CPUMGR_POLICY_STATIC,

	/* private: */
	__CPUMGR_POLICY_MAX,
	CPUMGR_POLICY_MAX = (__CPUMGR_POLICY_MAX - 1)
};

/**
 * enum cpumgr_option - The static policy options, as bits of CPUMGR_A_OPTIONS;
 *   names are the kubelet's.
 * @CPUMGR_OPT_FULL_PCPUS_ONLY: "full-pcpus-only": assignments are whole
 *   physical cores; the kernel refuses any other (-EDOM)
 * @CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_NUMA: "distribute-cpus-across-numa"
 * @CPUMGR_OPT_ALIGN_BY_SOCKET: "align-by-socket"
 * @CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_CORES: "distribute-cpus-across-cores";
 *   the kubelet refuses it together with full-pcpus-only or
 *   distribute-cpus-across-numa, and so does CONFIGURE (-EINVAL)
 * @CPUMGR_OPT_STRICT_CPU_RESERVATION: "strict-cpu-reservation": the reserved
 *   CPUs are for system daemons only, not in the shared pool used by
 *   containers
 * @CPUMGR_OPT_PREFER_ALIGN_CPUS_BY_UNCORECACHE:
 *   "prefer-align-cpus-by-uncorecache"
 */
enum cpumgr_option {
	CPUMGR_OPT_FULL_PCPUS_ONLY = 1,
	CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_NUMA = 2,
	CPUMGR_OPT_ALIGN_BY_SOCKET = 4,
	CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_CORES = 8,
	CPUMGR_OPT_STRICT_CPU_RESERVATION = 16,
	CPUMGR_OPT_PREFER_ALIGN_CPUS_BY_UNCORECACHE = 32,
};

#define CPUMGR_OPT_ALL	63

/**
 * enum cpumgr_enforce - What happens to a violation of exclusivity.
 * @CPUMGR_ENFORCE_OFF: Nothing is checked.
 * @CPUMGR_ENFORCE_AUDIT: Violations succeed, are counted and reported
 * @CPUMGR_ENFORCE_ENFORCE: Violations fail with -EBUSY, are counted and
 *   reported
 */
enum cpumgr_enforce {
	CPUMGR_ENFORCE_OFF,
	CPUMGR_ENFORCE_AUDIT,
	CPUMGR_ENFORCE_ENFORCE,

	/* private: */
	__CPUMGR_ENFORCE_MAX,
	CPUMGR_ENFORCE_MAX = (__CPUMGR_ENFORCE_MAX - 1)
};

/**
 * enum cpumgr_hotplug - What happens when an assigned CPU goes offline.
 * @CPUMGR_HOTPLUG_PROTECT: The offline is refused with -EBUSY before the
 *   scheduler or cpusets react; tasks pinned there stay there
 * @CPUMGR_HOTPLUG_RELEASE: The offline goes ahead; the CPU leaves its
 *   assignment, which is marked degraded (CPUMGR_ASSIGNMENT_F_DEGRADED) and
 *   reported (CPUMGR_CMD_DEGRADED_NTF) for the controller to top up. No other
 *   container may name the CPU until it is back online
 */
enum cpumgr_hotplug {
	CPUMGR_HOTPLUG_PROTECT,
	CPUMGR_HOTPLUG_RELEASE,

	/* private: */
	__CPUMGR_HOTPLUG_MAX,
	CPUMGR_HOTPLUG_MAX = (__CPUMGR_HOTPLUG_MAX - 1)
};

/**
 * enum cpumgr_violation - What a violation was (CPUMGR_A_KIND).
 * @CPUMGR_VIOLATION_WRITE: A cpuset.cpus or cpuset.cpus.exclusive write naming
 *   CPUs the cgroup may not hold
 * @CPUMGR_VIOLATION_INHERIT: A cpuset write that would make a populated cgroup
 *   (the written one or a descendant) inherit such CPUs
 * @CPUMGR_VIOLATION_PARTITION: A cpuset.cpus.partition write on a cgroup
 *   holding such CPUs
 * @CPUMGR_VIOLATION_ATTACH: A task moved into a cgroup whose effective CPUs
 *   hold such CPUs
 * @CPUMGR_VIOLATION_FORK: A task cloned into such a cgroup (CLONE_INTO_CGROUP)
 */
enum cpumgr_violation {
	CPUMGR_VIOLATION_WRITE,
	CPUMGR_VIOLATION_INHERIT,
	CPUMGR_VIOLATION_PARTITION,
	CPUMGR_VIOLATION_ATTACH,
	CPUMGR_VIOLATION_FORK,
};

/**
 * enum cpumgr_verdict - What became of a violation (CPUMGR_A_VERDICT).
 * @CPUMGR_VERDICT_AUDITED: It went ahead (audit mode)
 * @CPUMGR_VERDICT_REFUSED: It failed with -EBUSY (enforce mode)
 */
enum cpumgr_verdict {
	CPUMGR_VERDICT_AUDITED,
	CPUMGR_VERDICT_REFUSED,
};

/**
 * enum cpumgr_assignment_flag - Bits of CPUMGR_A_FLAGS.
 * @CPUMGR_ASSIGNMENT_F_INIT: The container is an init container: later
 *   containers of the same pod may reuse its CPUs. Set by the controller;
 *   informational for the kernel.
 * @CPUMGR_ASSIGNMENT_F_DEGRADED: Set by the kernel: a CPU of the assignment
 *   went offline in release mode and left it. The next ASSIGN of the container
 *   clears it.
 * @CPUMGR_ASSIGNMENT_F_PARTITION_PENDING: Set by the controller for a
 *   container that has no task yet, whose cgroup it makes a cpuset partition
 *   of the container's CPUs before the first one (the shared pool moved by
 *   partitions): until then the shared pool's cgroups still inherit those
 *   CPUs. While it is set, a task may enter a cgroup that inherits them, but
 *   not one that names them in its cpuset.cpus, nor the container's bound
 *   cgroup or one below it; CPUs another container holds too stay checked. An
 *   ASSIGN that clears it is refused (-EBUSY, or -E2BIG past inherit_walk_max)
 *   unless every cpuset with tasks that may not hold them let go of them, as
 *   with CPUMGR_A_NARROWED, and for all of its CPUs.
 */
enum cpumgr_assignment_flag {
	CPUMGR_ASSIGNMENT_F_INIT = 1,
	CPUMGR_ASSIGNMENT_F_DEGRADED = 2,
	CPUMGR_ASSIGNMENT_F_PARTITION_PENDING = 4,
};

#define CPUMGR_ASSIGNMENT_F_USER	5

enum cpumgr_attr {
	CPUMGR_A_UNSPEC,
	CPUMGR_A_PAD,
	CPUMGR_A_VERSION,
	CPUMGR_A_GENERATION,
	CPUMGR_A_POLICY,
	CPUMGR_A_OPTIONS,
	CPUMGR_A_RESERVED_CPUS,
	CPUMGR_A_SHARED_CPUS,
	CPUMGR_A_EXCLUSIVE_CPUS,
	CPUMGR_A_ONLINE_CPUS,
	CPUMGR_A_NR_PODS,
	CPUMGR_A_NR_ASSIGNMENTS,
	CPUMGR_A_POD_UID,
	CPUMGR_A_CONTAINER,
	CPUMGR_A_CPUS,
	CPUMGR_A_FLAGS,
	CPUMGR_A_CGROUP_PATH,
	CPUMGR_A_CGROUP_ID,
	CPUMGR_A_POD_CGROUP_PATH,
	CPUMGR_A_POD_CGROUP_ID,
	CPUMGR_A_ASSIGNMENT,
	CPUMGR_A_ENFORCE,
	CPUMGR_A_HOTPLUG,
	CPUMGR_A_CGROUP_ROOT,
	CPUMGR_A_VIOLATIONS,
	CPUMGR_A_OFFLINES_REFUSED,
	CPUMGR_A_EVENTS_DROPPED,
	CPUMGR_A_CPU,
	CPUMGR_A_PID,
	CPUMGR_A_COMM,
	CPUMGR_A_FILE,
	CPUMGR_A_KIND,
	CPUMGR_A_VERDICT,
	CPUMGR_A_ARMED,
	CPUMGR_A_UNARMED_REASON,
	CPUMGR_A_PROBES_MISSED,
	CPUMGR_A_RESTRICTED,
	CPUMGR_A_NARROWED,
	CPUMGR_A_POD_CPUS,
	CPUMGR_A_SYSTEM_CGROUP,

	__CPUMGR_A_MAX,
	CPUMGR_A_MAX = (__CPUMGR_A_MAX - 1)
};

enum cpumgr_cpu_attr {
	CPUMGR_A_CPU_UNSPEC,
	CPUMGR_A_CPU_ID,
	CPUMGR_A_CPU_ONLINE,
	CPUMGR_A_CPU_PACKAGE,
	CPUMGR_A_CPU_DIE,
	CPUMGR_A_CPU_CORE,
	CPUMGR_A_CPU_NODE,
	CPUMGR_A_CPU_LLC,
	CPUMGR_A_CPU_SIBLINGS,

	__CPUMGR_A_CPU_MAX,
	CPUMGR_A_CPU_MAX = (__CPUMGR_A_CPU_MAX - 1)
};

enum cpumgr_cmd {
	CPUMGR_CMD_UNSPEC,
	CPUMGR_CMD_GET_TOPOLOGY,
	CPUMGR_CMD_GET_STATE,
	CPUMGR_CMD_CONFIGURE,
	CPUMGR_CMD_ASSIGN,
	CPUMGR_CMD_RELEASE,
	CPUMGR_CMD_BIND,
	CPUMGR_CMD_GET_ASSIGNMENT,
	CPUMGR_CMD_RESTORE,
	CPUMGR_CMD_RESET,
	CPUMGR_CMD_ASSIGNED_NTF,
	CPUMGR_CMD_RELEASED_NTF,
	CPUMGR_CMD_BOUND_NTF,
	CPUMGR_CMD_CONFIGURED_NTF,
	CPUMGR_CMD_RESTORED_NTF,
	CPUMGR_CMD_RESET_NTF,
	CPUMGR_CMD_VIOLATION_NTF,
	CPUMGR_CMD_OFFLINE_REFUSED_NTF,
	CPUMGR_CMD_CPU_OFFLINE_NTF,
	CPUMGR_CMD_CPU_ONLINE_NTF,
	CPUMGR_CMD_DEGRADED_NTF,
	CPUMGR_CMD_ARMED_NTF,

	__CPUMGR_CMD_MAX,
	CPUMGR_CMD_MAX = (__CPUMGR_CMD_MAX - 1)
};

#define CPUMGR_GENL_MCGRP_EVENTS	"events"

#endif /* _UAPI_LINUX_CPUMGR_H */
