/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * cpumgr: the node's authoritative table of CPUs assigned exclusively to
 * containers, and its generic netlink interface.
 *
 * The family is "cpumgr" (CPUMGR_GENL_NAME), version CPUMGR_GENL_VERSION,
 * in the initial network namespace only.  Its multicast group "events"
 * (CPUMGR_GENL_MCGRP_EVENTS) carries one notification per change; joining
 * it needs CAP_SYS_ADMIN in the initial user namespace (-EPERM).  A YNL
 * description of the family lives beside this header (cpumgr.yaml).
 *
 * CPU sets travel as cpulist strings, the syntax of sysfs and cgroup
 * files: comma-separated decimal CPU numbers and ranges "a-b" (a <= b),
 * no spaces, no empty elements ("0-3,8"); "N" stands for the last
 * possible CPU, as in cpuset.cpus ("4-N").  The empty string is the
 * empty set.  A string attribute ends at its only NUL, its last byte.
 *
 * The table:
 *   policy      none or static (enum cpumgr_policy)
 *   options     the static policy options (enum cpumgr_option), stored
 *               so every controller of the node agrees on them
 *   reserved    CPUs never assigned exclusively
 *   assignments (pod UID, container name) -> CPUs, flags, bound cgroup;
 *               a pod may also have a bound pod cgroup.  Containers of
 *               one pod may share CPUs (init containers' CPUs are reused
 *               by the app containers); different pods never do.
 *   shared      derived: online CPUs minus every assignment (the reserved
 *               CPUs are part of it)
 *   generation  +1 on every change, CPUs going offline or online
 *               included; a mutating request may carry the generation it
 *               was planned against (CPUMGR_A_GENERATION) and is refused
 *               with -ESTALE when the table moved on
 *
 * Enforcement (enum cpumgr_enforce): in the cgroups strictly below the
 * managed root (CPUMGR_A_CGROUP_ROOT; by default every non-root cgroup),
 * a CPU assigned to container K of pod P may appear only in K's bound
 * cgroup and its descendants, its ancestors, and the ancestors-or-self of
 * P's bound pod cgroup; with strict-cpu-reservation the reserved CPUs may
 * not appear there at all.  Checked are writes of cpuset.cpus and
 * cpuset.cpus.exclusive, cpuset.cpus.partition writes, writes that would
 * make a populated cgroup inherit such CPUs, and tasks entering a cgroup
 * (cgroup.procs, cgroup.threads, tasks, clone3 CLONE_INTO_CGROUP) whose
 * effective CPUs hold them.  A violation is refused with -EBUSY
 * (enforce) or let through (audit), counted and reported
 * (CPUMGR_CMD_VIOLATION_NTF).
 *
 * CPU hotplug (enum cpumgr_hotplug): taking an assigned CPU offline is
 * refused with -EBUSY (protect) or releases the CPU from its assignment,
 * which is then marked degraded (release).  An ASSIGN or RESTORE racing
 * with an offline of its CPU loses either way: the offline is refused or
 * the request is, never both accepted.  Suspend and hibernation are
 * never refused and leave the table as it is.
 *
 * Reads (GET_*) are open to everyone.  Every other command needs
 * CAP_SYS_ADMIN in the initial user namespace (-EPERM otherwise).  A
 * refused request changes nothing and carries an extended ACK message
 * (and, where it applies, the offending attribute).  Errors common to
 * the mutating commands:
 *
 *   -EPERM       caller lacks CAP_SYS_ADMIN in the initial user namespace
 *   -EINVAL      malformed request: a missing attribute, an attribute of
 *                the wrong type or size, a string longer than its limit
 *                (the netlink policy refuses these: "Attribute failed
 *                policy validation"; a cpulist over CPUMGR_CPULIST_MAX
 *                says "cpulist is longer than 32768 bytes"), a string
 *                with a NUL before its last byte ("string has a NUL
 *                before its end"), a cpulist that is not valid syntax
 *                ("3-1", "a", ",,", "1,")
 *   -ERANGE      a CPU number >= the number of possible CPUs
 *   -ENODEV      a CPU that is not present
 *   -ENXIO       a CPU that is offline
 *   -ENODATA     an empty CPU set where CPUs are required
 *   -EACCES      a reserved CPU in an assignment
 *   -EBUSY       a CPU assigned to another pod, or a CPU going offline
 *                (an offline already accepted; "CPU is going offline")
 *   -EOPNOTSUPP  an assignment under the "none" policy
 *   -EILSEQ      a pod UID that is not 1-64 printable characters without
 *                "/" (nor "." or ".."), or a container name that is not a
 *                DNS label (1-63 characters of [a-z0-9-], starting and
 *                ending with an alphanumeric)
 *   -EDOM        the full-pcpus-only option is set and the CPUs are not
 *                whole physical cores (all SMT siblings of each core)
 *   -ENOENT      no such pod or container (RELEASE, BIND, GET_ASSIGNMENT)
 *   -ESTALE      CPUMGR_A_GENERATION differs from the table's generation
 *   -ENOTEMPTY   CONFIGURE would change the policy, the options or the
 *                reserved CPUs while assignments exist
 *   -ENOTDIR     a cgroup path that is not a cgroup directory
 */
#ifndef _UAPI_LINUX_CPUMGR_H
#define _UAPI_LINUX_CPUMGR_H

#define CPUMGR_GENL_NAME		"cpumgr"
#define CPUMGR_GENL_VERSION		1
#define CPUMGR_GENL_MCGRP_EVENTS	"events"

/* Longest pod UID and container name, in bytes, without the NUL. */
#define CPUMGR_POD_UID_MAX		64
#define CPUMGR_CONTAINER_MAX		63
/* Longest cpulist and cgroup path accepted, in bytes, without the NUL. */
#define CPUMGR_CPULIST_MAX		32768
#define CPUMGR_PATH_MAX			4095

/**
 * enum cpumgr_policy - the CPU manager policy of the node
 * @CPUMGR_POLICY_NONE: no exclusive CPUs; every container uses the shared
 *	pool (the kubelet's "none").  The table holds no assignments.
 * @CPUMGR_POLICY_STATIC: containers of Guaranteed pods with integer CPU
 *	requests get exclusive CPUs (the kubelet's "static").
 */
enum cpumgr_policy {
	CPUMGR_POLICY_NONE,
	CPUMGR_POLICY_STATIC,

	__CPUMGR_POLICY_MAX,
	CPUMGR_POLICY_MAX = __CPUMGR_POLICY_MAX - 1
};

/**
 * enum cpumgr_option - the static policy options, as bits of
 *	CPUMGR_A_OPTIONS; names are the kubelet's
 * @CPUMGR_OPT_FULL_PCPUS_ONLY: "full-pcpus-only": assignments are whole
 *	physical cores; the kernel refuses any other (-EDOM)
 * @CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_NUMA: "distribute-cpus-across-numa"
 * @CPUMGR_OPT_ALIGN_BY_SOCKET: "align-by-socket"
 * @CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_CORES: "distribute-cpus-across-cores";
 *	the kubelet refuses it together with full-pcpus-only or
 *	distribute-cpus-across-numa, and so does CONFIGURE (-EINVAL)
 * @CPUMGR_OPT_STRICT_CPU_RESERVATION: "strict-cpu-reservation": the
 *	reserved CPUs are for system daemons only, not in the shared pool
 *	used by containers
 * @CPUMGR_OPT_PREFER_ALIGN_CPUS_BY_UNCORECACHE:
 *	"prefer-align-cpus-by-uncorecache"
 */
enum cpumgr_option {
	CPUMGR_OPT_FULL_PCPUS_ONLY			= 1 << 0,
	CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_NUMA		= 1 << 1,
	CPUMGR_OPT_ALIGN_BY_SOCKET			= 1 << 2,
	CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_CORES		= 1 << 3,
	CPUMGR_OPT_STRICT_CPU_RESERVATION		= 1 << 4,
	CPUMGR_OPT_PREFER_ALIGN_CPUS_BY_UNCORECACHE	= 1 << 5,
};

#define CPUMGR_OPT_ALL	((1 << 6) - 1)

/**
 * enum cpumgr_enforce - what happens to a violation of exclusivity
 * @CPUMGR_ENFORCE_OFF: nothing is checked
 * @CPUMGR_ENFORCE_AUDIT: violations succeed, are counted and reported
 * @CPUMGR_ENFORCE_ENFORCE: violations fail with -EBUSY, are counted and
 *	reported
 */
enum cpumgr_enforce {
	CPUMGR_ENFORCE_OFF,
	CPUMGR_ENFORCE_AUDIT,
	CPUMGR_ENFORCE_ENFORCE,

	__CPUMGR_ENFORCE_MAX,
	CPUMGR_ENFORCE_MAX = __CPUMGR_ENFORCE_MAX - 1
};

/**
 * enum cpumgr_hotplug - what happens when an assigned CPU goes offline
 * @CPUMGR_HOTPLUG_PROTECT: the offline is refused with -EBUSY before the
 *	scheduler or cpusets react; tasks pinned there stay there
 * @CPUMGR_HOTPLUG_RELEASE: the offline goes ahead; the CPU leaves its
 *	assignment, which is marked degraded (CPUMGR_ASSIGNMENT_F_DEGRADED)
 *	and reported (CPUMGR_CMD_DEGRADED_NTF) for the controller to top up
 */
enum cpumgr_hotplug {
	CPUMGR_HOTPLUG_PROTECT,
	CPUMGR_HOTPLUG_RELEASE,

	__CPUMGR_HOTPLUG_MAX,
	CPUMGR_HOTPLUG_MAX = __CPUMGR_HOTPLUG_MAX - 1
};

/**
 * enum cpumgr_violation - what a violation was (CPUMGR_A_KIND)
 * @CPUMGR_VIOLATION_WRITE: a cpuset.cpus or cpuset.cpus.exclusive write
 *	naming CPUs the cgroup may not hold
 * @CPUMGR_VIOLATION_INHERIT: a cpuset write that would make a populated
 *	cgroup (the written one or a descendant) inherit such CPUs
 * @CPUMGR_VIOLATION_PARTITION: a cpuset.cpus.partition write on a cgroup
 *	holding such CPUs
 * @CPUMGR_VIOLATION_ATTACH: a task moved into a cgroup whose effective CPUs
 *	hold such CPUs
 * @CPUMGR_VIOLATION_FORK: a task cloned into such a cgroup
 *	(CLONE_INTO_CGROUP)
 */
enum cpumgr_violation {
	CPUMGR_VIOLATION_WRITE,
	CPUMGR_VIOLATION_INHERIT,
	CPUMGR_VIOLATION_PARTITION,
	CPUMGR_VIOLATION_ATTACH,
	CPUMGR_VIOLATION_FORK,
};

/**
 * enum cpumgr_verdict - what became of a violation (CPUMGR_A_VERDICT)
 * @CPUMGR_VERDICT_AUDITED: it went ahead (audit mode)
 * @CPUMGR_VERDICT_REFUSED: it failed with -EBUSY (enforce mode)
 */
enum cpumgr_verdict {
	CPUMGR_VERDICT_AUDITED,
	CPUMGR_VERDICT_REFUSED,
};

/**
 * enum cpumgr_assignment_flag - bits of CPUMGR_A_FLAGS
 * @CPUMGR_ASSIGNMENT_F_INIT: the container is an init container: later
 *	containers of the same pod may reuse its CPUs.  Set by the
 *	controller; informational for the kernel.
 * @CPUMGR_ASSIGNMENT_F_DEGRADED: set by the kernel: a CPU of the
 *	assignment went offline in release mode and left it.  The next
 *	ASSIGN of the container clears it.
 */
enum cpumgr_assignment_flag {
	CPUMGR_ASSIGNMENT_F_INIT	= 1 << 0,
	CPUMGR_ASSIGNMENT_F_DEGRADED	= 1 << 1,
};

/* The flags a request may set. */
#define CPUMGR_ASSIGNMENT_F_USER	CPUMGR_ASSIGNMENT_F_INIT

/**
 * enum cpumgr_cmd - generic netlink commands
 * @CPUMGR_CMD_UNSPEC: unused
 * @CPUMGR_CMD_GET_TOPOLOGY: dump: one message per possible CPU with the
 *	CPUMGR_A_CPU_* attributes (the topology attribute set)
 * @CPUMGR_CMD_GET_STATE: reply: CPUMGR_A_VERSION, GENERATION, POLICY,
 *	OPTIONS, RESERVED_CPUS, SHARED_CPUS, EXCLUSIVE_CPUS, ONLINE_CPUS,
 *	NR_PODS, NR_ASSIGNMENTS, ENFORCE, HOTPLUG, CGROUP_ROOT (when set),
 *	VIOLATIONS, OFFLINES_REFUSED, EVENTS_DROPPED, ARMED, UNARMED_REASON
 *	(when not armed), PROBES_MISSED
 * @CPUMGR_CMD_CONFIGURE: set what is present of CPUMGR_A_POLICY, OPTIONS,
 *	RESERVED_CPUS (reserved CPUs must be online), ENFORCE, HOTPLUG and
 *	CGROUP_ROOT (a cgroup directory; "" for every non-root cgroup).
 *	Refused with -ENOTEMPTY when assignments exist and the policy, the
 *	options or the reserved CPUs would change; options need the static
 *	policy.  The modes and the root may change at any time.  Optional
 *	GENERATION.  Reply: GENERATION.
 * @CPUMGR_CMD_ASSIGN: give container CPUMGR_A_CONTAINER of pod
 *	CPUMGR_A_POD_UID the CPUs CPUMGR_A_CPUS (creating the pod and the
 *	container, or replacing the container's CPUs), with optional
 *	CPUMGR_A_FLAGS (CPUMGR_ASSIGNMENT_F_USER bits) and GENERATION.
 *	Reply: the assignment (as GET_ASSIGNMENT) and GENERATION.
 * @CPUMGR_CMD_RELEASE: release container CPUMGR_A_CONTAINER of pod
 *	CPUMGR_A_POD_UID, or, without CPUMGR_A_CONTAINER, the whole pod.
 *	A CPU another container of the pod still holds stays assigned.
 *	Optional GENERATION.  Reply: GENERATION.
 * @CPUMGR_CMD_BIND: record the cgroup of a container (CPUMGR_A_POD_UID,
 *	CPUMGR_A_CONTAINER, CPUMGR_A_CGROUP_PATH) and/or of its pod
 *	(CPUMGR_A_POD_UID, CPUMGR_A_POD_CGROUP_PATH).  Paths are absolute
 *	paths of cgroup directories (cgroup2, or the cgroup v1 cpuset
 *	hierarchy) in the caller's mount namespace; the empty string unbinds.
 *	Optional GENERATION.  Reply: GENERATION.
 * @CPUMGR_CMD_GET_ASSIGNMENT: with CPUMGR_A_POD_UID and CPUMGR_A_CONTAINER,
 *	reply with that assignment; as a dump, one message per assignment.
 *	An assignment message holds CPUMGR_A_POD_UID, CONTAINER, CPUS, FLAGS,
 *	GENERATION and, when bound, CGROUP_PATH + CGROUP_ID and
 *	POD_CGROUP_PATH + POD_CGROUP_ID.  A dump that raced with a change
 *	carries NLM_F_DUMP_INTR: read it again.  A dump ends with -EMSGSIZE
 *	when an assignment does not fit one message of the reader's buffer
 *	(two bound cgroup paths of up to 4095 bytes make one of over 8 KiB):
 *	read with a larger buffer.
 * @CPUMGR_CMD_RESTORE: replace every assignment with the nested
 *	CPUMGR_A_ASSIGNMENT entries (each: POD_UID, CONTAINER, CPUS, and
 *	optional FLAGS, CGROUP_PATH, POD_CGROUP_PATH), all or nothing: one
 *	invalid entry, or two pods sharing a CPU, refuse the whole request.
 *	Policy, options and reserved CPUs stay as configured.  Optional
 *	GENERATION.  Reply: GENERATION.
 * @CPUMGR_CMD_RESET: release every assignment and return to the state
 *	after load (policy none, no options, no reserved CPUs, no cgroup
 *	root, the modes of the module parameters).  Counters stay.  Optional
 *	GENERATION.  Reply: GENERATION.
 * @CPUMGR_CMD_ASSIGNED_NTF: notification: an ASSIGN (the assignment)
 * @CPUMGR_CMD_RELEASED_NTF: notification: a RELEASE: GENERATION, POD_UID,
 *	CONTAINER (absent when the whole pod went: a RELEASE of the pod, or
 *	of its last container), CPUS (the CPUs given back to the shared
 *	pool)
 * @CPUMGR_CMD_BOUND_NTF: notification: a BIND: GENERATION, POD_UID,
 *	CONTAINER, CGROUP_PATH, POD_CGROUP_PATH as requested
 * @CPUMGR_CMD_CONFIGURED_NTF: notification: a CONFIGURE (the state, as
 *	GET_STATE)
 * @CPUMGR_CMD_RESTORED_NTF: notification: a RESTORE: GENERATION,
 *	NR_PODS, NR_ASSIGNMENTS
 * @CPUMGR_CMD_RESET_NTF: notification: a RESET: GENERATION
 * @CPUMGR_CMD_VIOLATION_NTF: notification: a violation of exclusivity:
 *	GENERATION, KIND, VERDICT, CGROUP_ID, CGROUP_PATH, PID and COMM of
 *	the task that acted, FILE, CPUS (the CPUs the cgroup may not hold).
 *	Control characters of CGROUP_PATH and COMM come as "\xNN".
 *	Violations of a cgroup whose last one is still waiting to be sent
 *	join it (CPUS grows, the first PID and COMM stay); a user other
 *	than root has at most 16 waiting, and further ones are counted
 *	(CPUMGR_A_VIOLATIONS) but not reported.
 * @CPUMGR_CMD_OFFLINE_REFUSED_NTF: notification: taking CPUMGR_A_CPU
 *	offline was refused (protect mode): GENERATION, CPU, PID, COMM
 * @CPUMGR_CMD_CPU_OFFLINE_NTF: notification: CPUMGR_A_CPU went offline:
 *	GENERATION, CPU
 * @CPUMGR_CMD_CPU_ONLINE_NTF: notification: CPUMGR_A_CPU came online and
 *	joined the shared pool; its topology was read again: GENERATION, CPU
 * @CPUMGR_CMD_DEGRADED_NTF: notification, one per container: offline
 *	CPUMGR_A_CPU left the container's assignment (release mode):
 *	GENERATION, CPU, POD_UID, CONTAINER, CPUS (what it still holds)
 * @CPUMGR_CMD_ARMED_NTF: notification: the guarantee was found disarmed,
 *	or armed again, or the probes missed more calls (checked every
 *	armed_check_ms): GENERATION, ARMED, UNARMED_REASON, PROBES_MISSED
 *
 * Notifications are sent from process context, in generation order; the
 * ones raised where the kernel cannot sleep (violations, refused
 * offlines) go through a queue.  A listener that missed events (its
 * socket overflowed, or the queue did: CPUMGR_A_EVENTS_DROPPED) gets
 * -ENOBUFS on its socket and should read the state again.
 */
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
	CPUMGR_CMD_MAX = __CPUMGR_CMD_MAX - 1
};

/**
 * enum cpumgr_attr - attributes of the table's commands
 * @CPUMGR_A_UNSPEC: unused
 * @CPUMGR_A_PAD: padding for 64-bit attributes
 * @CPUMGR_A_VERSION: string: the module's version
 * @CPUMGR_A_GENERATION: u64: the table's generation; in a request, the
 *	generation the request expects (-ESTALE otherwise)
 * @CPUMGR_A_POLICY: u32: enum cpumgr_policy
 * @CPUMGR_A_OPTIONS: u32: bits of enum cpumgr_option
 * @CPUMGR_A_RESERVED_CPUS: string: cpulist of the reserved CPUs
 * @CPUMGR_A_SHARED_CPUS: string: cpulist of the shared pool
 * @CPUMGR_A_EXCLUSIVE_CPUS: string: cpulist of every assigned CPU
 * @CPUMGR_A_ONLINE_CPUS: string: cpulist of the online CPUs
 * @CPUMGR_A_NR_PODS: u32: pods in the table
 * @CPUMGR_A_NR_ASSIGNMENTS: u32: assignments (containers) in the table
 * @CPUMGR_A_POD_UID: string: the pod's UID (1-64 printable bytes, no "/")
 * @CPUMGR_A_CONTAINER: string: the container's name (a DNS label)
 * @CPUMGR_A_CPUS: string: cpulist of an assignment
 * @CPUMGR_A_FLAGS: u32: bits of enum cpumgr_assignment_flag
 * @CPUMGR_A_CGROUP_PATH: string: the container's cgroup directory
 * @CPUMGR_A_CGROUP_ID: u64: its cgroup id (the directory's inode number)
 * @CPUMGR_A_POD_CGROUP_PATH: string: the pod's cgroup directory
 * @CPUMGR_A_POD_CGROUP_ID: u64: its cgroup id
 * @CPUMGR_A_ASSIGNMENT: nested, repeated: one assignment of a RESTORE
 * @CPUMGR_A_ENFORCE: u32: enum cpumgr_enforce
 * @CPUMGR_A_HOTPLUG: u32: enum cpumgr_hotplug
 * @CPUMGR_A_CGROUP_ROOT: string: the managed cgroup root directory
 * @CPUMGR_A_VIOLATIONS: u64: violations seen since load, refused or not
 * @CPUMGR_A_OFFLINES_REFUSED: u64: CPU offlines refused since load
 * @CPUMGR_A_EVENTS_DROPPED: u64: notifications lost since load because
 *	their queue was full or memory ran out
 * @CPUMGR_A_CPU: u32: a CPU number
 * @CPUMGR_A_PID: u32: a process id, as the initial pid namespace sees it
 * @CPUMGR_A_COMM: string: a task's command name
 * @CPUMGR_A_FILE: string: the cgroup file or operation a violation went
 *	through ("cpuset.cpus", "cpuset.cpus.exclusive",
 *	"cpuset.cpus.partition", "cgroup.procs", "clone3",
 *	"cgroup.subtree_control", "cpu/online" for a CPU offline that would
 *	strand a cpuset's tasks)
 * @CPUMGR_A_KIND: u32: enum cpumgr_violation
 * @CPUMGR_A_VERDICT: u32: enum cpumgr_verdict
 * @CPUMGR_A_ARMED: u8: 1 when the guarantee is armed: every probe of the
 *	module is in place and probes fire (kprobes can be switched off
 *	with kernel.ftrace_enabled=0 or /sys/kernel/debug/kprobes/enabled)
 * @CPUMGR_A_UNARMED_REASON: string: why it is not, when it is not
 * @CPUMGR_A_PROBES_MISSED: u64: calls the probes missed since load
 *	(another kprobe was running): those went unchecked
 */
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

	__CPUMGR_A_MAX,
	CPUMGR_A_MAX = __CPUMGR_A_MAX - 1
};

/**
 * enum cpumgr_cpu_attr - attributes of a GET_TOPOLOGY message (one CPU);
 *	the values are the last seen while the CPU was online, and absent
 *	for a CPU never online since the module loaded
 * @CPUMGR_A_CPU_UNSPEC: unused
 * @CPUMGR_A_CPU_ID: u32: the CPU number
 * @CPUMGR_A_CPU_ONLINE: u8: 1 if online
 * @CPUMGR_A_CPU_PACKAGE: u32: physical package (socket) id
 * @CPUMGR_A_CPU_DIE: u32: logical die id, unique on the machine
 * @CPUMGR_A_CPU_CORE: u32: core id within the package (sysfs core_id)
 * @CPUMGR_A_CPU_NODE: u32: NUMA node
 * @CPUMGR_A_CPU_LLC: u32: last level cache id, equal for CPUs sharing it
 * @CPUMGR_A_CPU_SIBLINGS: string: cpulist of the SMT siblings, itself
 *	included
 */
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
	CPUMGR_A_CPU_MAX = __CPUMGR_A_CPU_MAX - 1
};

#endif /* _UAPI_LINUX_CPUMGR_H */
