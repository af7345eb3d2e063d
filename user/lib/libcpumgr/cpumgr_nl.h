/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Client of the cpumgr generic netlink family (include/uapi/linux/cpumgr.h,
 * which documents every command, attribute and errno).  One struct
 * cpumgr_nl is one connection; there is no global state, so threads and
 * forked processes each open their own.
 *
 * Conventions:
 * - Every call returns 0 (or a count where it says so) or -errno.  After a
 *   failure cpumgr_nl_last_error() says why: the kernel's extended ACK
 *   message and the attribute it blamed, or the library's own message
 *   (module not loaded, reply malformed, out of memory).
 * - CPU sets are cpulist strings ("0-3,8"), passed to the kernel as they
 *   are: the kernel is the one that validates them.
 * - Mutating calls take `expect`, the generation the caller planned
 *   against (NULL: do not check; the kernel refuses with -ESTALE when the
 *   table moved on), and store the table's new generation in
 *   `*generation` (NULL: not wanted).
 * - Strings in returned structs are malloc'ed; free the structs with
 *   their *_free() function (which also accepts a zeroed struct).
 */
#ifndef CPUMGR_NL_H
#define CPUMGR_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/cpumgr.h>

struct cpumgr_nl;
struct nlmsghdr;

/* Why the last call of a connection failed. */
struct cpumgr_nl_error {
	int err;		/* -errno; 0 after a successful call */
	const char *msg;	/* extack or library message, "" when none */
	int attr;		/* CPUMGR_A_* the kernel pointed at, 0 if none */
	int entry;		/* RESTORE: index of the entry it pointed
				 * into, -1 if none */
	int entry_attr;		/* CPUMGR_A_* inside that entry, 0 if none */
	int missing_attr;	/* CPUMGR_A_* the kernel reported missing */
};

/* The table as GET_STATE (and the CONFIGURED event) reports it. */
struct cpumgr_table {
	char *version;
	uint64_t generation;
	uint32_t policy;	/* enum cpumgr_policy */
	uint32_t options;	/* enum cpumgr_option bits */
	char *reserved_cpus;
	char *shared_cpus;
	char *exclusive_cpus;
	char *online_cpus;
	uint32_t nr_pods;
	uint32_t nr_assignments;
	uint32_t enforce;	/* enum cpumgr_enforce */
	uint32_t hotplug;	/* enum cpumgr_hotplug */
	/* NULL: every non-root cgroup is managed, or @restricted */
	char *cgroup_root;
	uint64_t violations;
	uint64_t offlines_refused;
	uint64_t events_dropped;
	bool armed;		/* the probes are in place and fire */
	char *unarmed_reason;	/* why not; NULL when armed */
	uint64_t probes_missed;	/* calls the probes missed since load */
	/* KEP-5894's system partition; NULL: none, or @restricted */
	char *system_cgroup;
	/*
	 * The reader lacks CAP_SYS_ADMIN: no cgroup_root nor system_cgroup, and
	 * GET_ASSIGNMENT (cpumgr_nl_get_assignment(),
	 * cpumgr_nl_list_assignments()) fails with -EPERM.
	 */
	bool restricted;
};

/*
 * One assignment.  Absent string attributes are NULL, except the two
 * names, which are "" when absent (a RELEASED event of a whole pod has no
 * container).  A bound cgroup has its path and a non-zero id.
 */
struct cpumgr_assignment {
	char pod_uid[CPUMGR_POD_UID_MAX + 1];
	char container[CPUMGR_CONTAINER_MAX + 1];
	char *cpus;
	uint32_t flags;		/* enum cpumgr_assignment_flag bits */
	uint64_t generation;	/* the table's, when this was reported */
	char *cgroup_path;
	uint64_t cgroup_id;
	char *pod_cgroup_path;
	uint64_t pod_cgroup_id;
	char *pod_cpus;		/* the pod's pool (KEP-5526), NULL: none */
};

/* One possible CPU of GET_TOPOLOGY. */
struct cpumgr_cpu {
	uint32_t id;
	bool known;		/* false: never online since the module
				 * loaded, the fields below are unset */
	bool online;
	uint32_t package;
	uint32_t die;
	uint32_t core;
	uint32_t numa;		/* NUMA node (CPUMGR_A_CPU_NODE) */
	uint32_t llc;
	char *siblings;
};

/* CONFIGURE: only the fields whose CPUMGR_CFG_* bit is in `set` are sent. */
enum {
	CPUMGR_CFG_POLICY	= 1 << 0,
	CPUMGR_CFG_OPTIONS	= 1 << 1,
	CPUMGR_CFG_RESERVED	= 1 << 2,
	CPUMGR_CFG_ENFORCE	= 1 << 3,
	CPUMGR_CFG_HOTPLUG	= 1 << 4,
	CPUMGR_CFG_CGROUP_ROOT	= 1 << 5,
	CPUMGR_CFG_SYSTEM_CGROUP = 1 << 6,
};

struct cpumgr_config {
	unsigned int set;
	uint32_t policy;
	uint32_t options;
	const char *reserved_cpus;
	uint32_t enforce;	/* enum cpumgr_enforce */
	uint32_t hotplug;	/* enum cpumgr_hotplug */
	const char *cgroup_root;	/* "": every non-root cgroup */
	/*
	 * KEP-5894's system partition, strictly below the managed root
	 * ("": none); moving the root while one is set needs it too
	 */
	const char *system_cgroup;
};

/* One entry of RESTORE; NULL paths are left out (unbound). */
struct cpumgr_restore_entry {
	const char *pod_uid;
	const char *container;
	const char *cpus;
	uint32_t flags;
	const char *cgroup_path;
	const char *pod_cgroup_path;
};

/*
 * A notification of the "events" group.  type is the command
 * (CPUMGR_CMD_*_NTF; later kernels may send types this library does not
 * know: they come through with only what it could parse).  What is set:
 *   ASSIGNED    generation, assignment (as GET_ASSIGNMENT)
 *   RELEASED    generation, assignment.pod_uid, .container ("" for the
 *               whole pod), .cpus (the CPUs given back to the shared pool)
 *   BOUND       generation, assignment.pod_uid, .container, .cgroup_path
 *               and .pod_cgroup_path as requested (NULL: not in the
 *               request, "": unbound)
 *   CONFIGURED  generation, table (as GET_STATE)
 *   RESTORED    generation, table.nr_pods, table.nr_assignments
 *   RESET       generation
 *   VIOLATION   generation, kind, verdict, pid, comm, file,
 *               assignment.cgroup_path and .cgroup_id (the cgroup),
 *               assignment.cpus (the CPUs it may not hold)
 *   OFFLINE_REFUSED  generation, cpu, pid, comm
 *   CPU_OFFLINE, CPU_ONLINE  generation, cpu
 *   DEGRADED    generation, cpu, assignment.pod_uid, .container, .cpus
 *               (what the container still holds)
 */
struct cpumgr_event {
	int type;
	uint64_t generation;
	struct cpumgr_assignment assignment;
	struct cpumgr_table table;
	uint32_t kind;		/* enum cpumgr_violation */
	uint32_t verdict;	/* enum cpumgr_verdict */
	uint32_t cpu;
	uint32_t pid;
	char comm[16];
	char file[32];
};

typedef int (*cpumgr_assignment_cb)(const struct cpumgr_assignment *a,
				    void *arg);
typedef int (*cpumgr_cpu_cb)(const struct cpumgr_cpu *cpu, void *arg);

/*
 * Connect and resolve the family and its "events" group.  On failure
 * returns NULL with *err set (-ENOENT: the module is not loaded, or this
 * is not the initial network namespace) and, when msg is not NULL, a
 * malloc'ed message in *msg for the caller to free.
 */
struct cpumgr_nl *cpumgr_nl_open(int *err, char **msg);
void cpumgr_nl_close(struct cpumgr_nl *nl);

const struct cpumgr_nl_error *cpumgr_nl_last_error(const struct cpumgr_nl *nl);
/* The message of the last failure, "" when there is none. */
const char *cpumgr_nl_errmsg(const struct cpumgr_nl *nl);
/* The family's numeric id, for requests built by hand. */
int cpumgr_nl_family_id(const struct cpumgr_nl *nl);

/* Commands, one each (see enum cpumgr_cmd). */
int cpumgr_nl_get_table(struct cpumgr_nl *nl, struct cpumgr_table *st);
int cpumgr_nl_configure(struct cpumgr_nl *nl, const struct cpumgr_config *cfg,
			const uint64_t *expect, uint64_t *generation);
/*
 * out (may be NULL) receives the assignment as the kernel stored it; when
 * the table changed again before the kernel built its reply, the reply is
 * GENERATION alone and out holds the request as sent.  flags: bits of
 * enum cpumgr_assignment_flag, and CPUMGR_NL_ASSIGN_NARROWED.
 */
/*
 * Not a flag of the assignment: sends CPUMGR_A_NARROWED, for the kernel
 * to check that the CPUs the container gains left every other cgroup
 * with tasks (-EBUSY if not).
 */
#define CPUMGR_NL_ASSIGN_NARROWED	(1u << 31)
int cpumgr_nl_assign(struct cpumgr_nl *nl, const char *pod_uid,
		     const char *container, const char *cpus, uint32_t flags,
		     const uint64_t *expect, uint64_t *generation,
		     struct cpumgr_assignment *out);
/*
 * The pool of a pod the table holds (ASSIGN with CPUMGR_A_POD_CPUS): it
 * must hold every CPU of the pod's containers; "" drops it.  The pool
 * goes with the pod's last container.
 */
int cpumgr_nl_assign_pool(struct cpumgr_nl *nl, const char *pod_uid,
			  const char *cpus, const uint64_t *expect,
			  uint64_t *generation);
/* container NULL: the whole pod. */
int cpumgr_nl_release(struct cpumgr_nl *nl, const char *pod_uid,
		      const char *container, const uint64_t *expect,
		      uint64_t *generation);
/*
 * Bind the container's cgroup (container and cgroup_path not NULL) and/or
 * the pod's (pod_cgroup_path not NULL); "" unbinds.
 */
int cpumgr_nl_bind(struct cpumgr_nl *nl, const char *pod_uid,
		   const char *container, const char *cgroup_path,
		   const char *pod_cgroup_path, const uint64_t *expect,
		   uint64_t *generation);
int cpumgr_nl_get_assignment(struct cpumgr_nl *nl, const char *pod_uid,
			     const char *container,
			     struct cpumgr_assignment *out);
/*
 * Every assignment of one consistent dump: a dump the kernel marked
 * NLM_F_DUMP_INTR (the table changed under it) is read again, so cb only
 * ever sees one generation of the table.  cb returning non-zero stops the
 * walk and that value is returned; otherwise returns the number of
 * assignments.  -EAGAIN when the table kept changing over many tries.
 */
int cpumgr_nl_dump_assignments(struct cpumgr_nl *nl, cpumgr_assignment_cb cb,
			       void *arg);
/* The same dump as an array (free with cpumgr_assignments_free()). */
int cpumgr_nl_list_assignments(struct cpumgr_nl *nl,
			       struct cpumgr_assignment **list, size_t *count);
/* One callback per possible CPU; returns the number of CPUs. */
int cpumgr_nl_dump_topology(struct cpumgr_nl *nl, cpumgr_cpu_cb cb, void *arg);
int cpumgr_nl_restore(struct cpumgr_nl *nl,
		      const struct cpumgr_restore_entry *entries, size_t count,
		      const uint64_t *expect, uint64_t *generation);
int cpumgr_nl_reset(struct cpumgr_nl *nl, const uint64_t *expect,
		    uint64_t *generation);

/*
 * Send a request built by hand (tests, commands this library does not
 * wrap): the library sets the sequence number, port and NLM_F_REQUEST |
 * NLM_F_ACK, waits for the ACK and records the error as for any call.
 * Replies before the ACK are counted, not parsed: returns their number
 * (-EINTR for a dump the kernel marked NLM_F_DUMP_INTR).
 */
int cpumgr_nl_send_raw(struct cpumgr_nl *nl, struct nlmsghdr *req);

/*
 * Events.  cpumgr_nl_subscribe() joins the "events" group on a socket of
 * its own (replies to commands never mix with events); -EPERM without
 * CAP_SYS_ADMIN in the initial user namespace.  The fd is
 * pollable (POLLIN).  cpumgr_nl_recv_event() waits up to timeout_ms (-1:
 * forever, 0: not at all) and returns 0 with one event in *ev (free it
 * with cpumgr_event_free()), -EAGAIN when none came, -ENOBUFS when the
 * kernel dropped events because they were not read fast enough (re-read
 * the table, then go on receiving), or another -errno.
 */
int cpumgr_nl_subscribe(struct cpumgr_nl *nl);
int cpumgr_nl_event_fd(const struct cpumgr_nl *nl);
int cpumgr_nl_recv_event(struct cpumgr_nl *nl, struct cpumgr_event *ev,
			 int timeout_ms);

void cpumgr_table_free(struct cpumgr_table *st);
void cpumgr_assignment_free(struct cpumgr_assignment *a);
void cpumgr_assignments_free(struct cpumgr_assignment *list, size_t count);
void cpumgr_cpu_free(struct cpumgr_cpu *cpu);
void cpumgr_event_free(struct cpumgr_event *ev);

/*
 * Names for printing, the YNL spec's (generated from it by
 * scripts/ynl-names.py): "none"/"static", the kubelet's option names
 * (one bit), event names without "-ntf" ("assigned", ...).  NULL when
 * unknown.
 */
const char *cpumgr_policy_name(uint32_t policy);
const char *cpumgr_option_name(uint32_t option_bit);
const char *cpumgr_event_name(int type);
/* "off", "audit", "enforce"; "protect", "release". */
const char *cpumgr_enforce_name(uint32_t enforce);
const char *cpumgr_hotplug_name(uint32_t hotplug);
/* "write", "inherit", ...; "audited", "refused". */
const char *cpumgr_violation_name(uint32_t kind);
const char *cpumgr_verdict_name(uint32_t verdict);
/* "init", "degraded" (one bit of an assignment's flags). */
const char *cpumgr_assignment_flag_name(uint32_t flag_bit);

#endif
