/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The node's CPU manager: cpumgrctl's core, between the kernel table
 * (authoritative), the static policy engine and the state directory.
 *
 * State directory (default NODE_STATE_DIR):
 *   cpu_manager_state   the kubelet's checkpoint of the kernel table,
 *                       rewritten atomically on every change
 *   config.json         what init was given (node_config)
 *   pods/<uid>.json     each admitted Pod object and the cgroups its
 *                       containers and the pod were attached to
 *   counters.json       pinning requests and errors, for metrics
 *   quiet.json          what keeping CPUs quiet changed outside the
 *                       cgroups, and what was there (node_quiet.c)
 * One flock serialises every cpumgrctl that opens the directory: the
 * checkpoint store's lock.
 *
 * Crash consistency: a change goes to the kernel first, then the
 * checkpoint, then the pod files, each file replaced atomically; the
 * next node_open() repairs whatever a crash left behind from the kernel
 * (node_sync()).
 */
#ifndef CPUMGR_NODE_H
#define CPUMGR_NODE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cJSON.h>

#include "cfs_apply.h"
#include "cgroupfs.h"
#include "checkpoint.h"
#include "cpumgr_nl.h"
#include "cpuset.h"
#include "error.h"
#include "options.h"
#include "pod.h"
#include "podlist.h"
#include "policy_static.h"
#include "assignments.h"
#include "quiet_saved.h"
#include "topology.h"

#define NODE_STATE_DIR		CHECKPOINT_DIR
#define NODE_CONFIG_FILE	"config.json"
#define NODE_PODS_DIR		"pods"
#define NODE_COUNTERS_FILE	"counters.json"
#define NODE_QUIET_FILE		"quiet.json"
/* how long a command waits for another one holding the lock */
#define NODE_LOCK_TIMEOUT_MS	30000

#define NODE_PROC_MOUNT		"/proc"
#define NODE_SYS_MOUNT		"/sys"
/* room for the system partition's namespaces, comma-separated */
#define NODE_SYSTEM_NAMESPACES_MAX	1024
#define NODE_SYSTEM_NAMESPACES		"kube-system"
#define NODE_IRQBALANCE_CONFIG	"/etc/default/irqbalance"
#define NODE_IRQBALANCE_RESTART	"systemctl try-restart irqbalance.service"
#define NODE_COMMAND_MAX	512

/* config.json: the node's configuration as init resolved it. */
/*
 * What an init container that ran to its end keeps (init --init-cpus):
 * the kubelet keeps its exclusive CPUs until the pod goes
 * (kubernetes#112228); release gives back those no container of its
 * pod reuses.
 */
enum node_init_cpus {
	NODE_INIT_CPUS_KEEP,
	NODE_INIT_CPUS_RELEASE,
};

const char *node_init_cpus_name(uint32_t v);

/*
 * Who makes the pod and container cgroups (the kubelet's cgroupDriver):
 * with systemd, slices and scopes that systemd realizes, writing their
 * cpuset.cpus itself from their AllowedCPUs, which every cpuset the
 * node writes there then sets too (cgroupfs_units.h).
 */
enum node_cgroup_driver {
	NODE_DRIVER_CGROUPFS,
	NODE_DRIVER_SYSTEMD,
};

const char *node_cgroup_driver_name(uint32_t v);
/* The driver of a managed root: systemd's when it is a slice. */
enum node_cgroup_driver node_cgroup_driver_of(const char *cgroup_root);

/*
 * How the cgroups on the shared pool follow it when exclusive CPUs come
 * and go (init --pool-moves): cpumgr writes each of them, and the pod
 * and QoS cgroups above (writes); or every exclusive container's cgroup
 * is a cpuset partition on its CPUs (remote: Linux 6.7 on), which the
 * kernel takes from every other cgroup and hands back when it goes,
 * and the cgroups on the pool hold no CPUs of their own: they inherit
 * (partitions).
 */
enum node_pool_moves {
	NODE_POOL_WRITES,
	NODE_POOL_PARTITIONS,
};

const char *node_pool_moves_name(uint32_t v);

struct node_config {
	enum cpu_policy_kind policy;
	struct policy_options opts;
	enum tm_policy tm;
	struct cpuset reserved;		/* resolved: never a count */
	int64_t reserved_milli;		/* the reservation as given */
	char cgroup_mount[PATH_MAX];	/* where the hierarchies are */
	char cgroup_root[PATH_MAX];	/* the managed cgroup, absolute */
	enum node_cgroup_driver cgroup_driver;
	uint32_t enforce;		/* enum cpumgr_enforce */
	uint32_t hotplug;		/* enum cpumgr_hotplug */
	struct cfs_options cfs;
	int64_t reconcile_ns;
	enum node_init_cpus init_cpus;
	/* the kubelet the node matches (init --kubelet-version; 0: none) */
	int kubelet_minor;
	/* the version the checkpoint is written in (v2 unless named) */
	enum checkpoint_version checkpoint_version;
	/*
	 * Quiet CPUs (node_quiet.c): where procfs and sysfs are (a
	 * DaemonSet mounts the host's elsewhere), irqbalance's environment
	 * file and how it is restarted to read it.
	 */
	char proc_mount[PATH_MAX], sys_mount[PATH_MAX];
	char irqbalance_config[PATH_MAX];
	char irqbalance_restart[NODE_COMMAND_MAX];
	enum node_pool_moves pool_moves;
	/*
	 * The node's system partition (KEP-5894, node_config.c): the pods
	 * of system_namespaces (comma-separated) run on system_cpus in the
	 * managed root's system cgroup, never on exclusive CPUs; no CPUs:
	 * none.
	 */
	struct cpuset system_cpus;
	char system_namespaces[NODE_SYSTEM_NAMESPACES_MAX];
};

void node_config_default(struct node_config *c);
cJSON *node_config_to_json(const struct node_config *c);
int node_config_from_json(struct node_config *c, const cJSON *j,
			  struct cm_error *err);
/* The kernel's option bits of c->opts. */
uint32_t node_config_option_bits(const struct node_config *c);
/* The policy engine's configuration: the reserved set, never a count. */
void node_config_policy(const struct node_config *c,
			struct policy_config *out);

/* One container of an admitted pod, as pods/<uid>.json records it. */
struct node_container {
	char cgroup[PATH_MAX];		/* absolute path, "" if not attached */
	bool removed;			/* remove UID CONTAINER ran */
	/*
	 * It ran to its end and keeps its CPUs: an init container under
	 * --init-cpus keep, or a container the runtime stopped in a pod
	 * that lives on ("exited" in the pod file).  Later containers of
	 * its pod may reuse them.
	 */
	bool exited;
	/*
	 * The exclusive CPUs given at admission, recorded by the first
	 * resize (until then they are what the container holds): a resize
	 * never goes below them ("admittedCpus" in the pod file).
	 */
	bool has_admitted;
	struct cpuset admitted;
};

struct node_pod {
	struct pod pod;
	cJSON *obj;			/* the Pod object as admitted */
	char pod_cgroup[PATH_MAX];	/* "" if none */
	struct node_container *c;	/* parallel to pod.containers */
	/*
	 * The pod's CPU request and limit (millicores, 0: none) after an
	 * in-place resize of the pod, as the runtime told them (the NRI's
	 * UpdatePodSandbox; "podCpu" in the pod file, kept when the record
	 * is replaced): the pod cgroup's CFS limits follow them rather than
	 * its containers' as admitted.
	 */
	bool has_pod_cpu;
	int64_t pod_cpu_request_milli, pod_cpu_limit_milli;
};

/* One CPU of the kernel's GET_TOPOLOGY dump. */
struct node_cpu {
	int cpu;
	bool known, online;
	int package, die, core, numa, llc;	/* numa: the NUMA node */
	/* the core's lowest thread (the kubelet's core id), -1 unknown */
	int core_cpu;
};

/*
 * The kernel's table as this process last read it, one generation of
 * it (node_kernel.c reads it: node_refresh()), and the connection.
 */
struct kernel_view {
	struct cpumgr_nl *nl;
	struct cpumgr_table table;
	struct cpumgr_assignment *as;
	size_t nr_as;
	/* as, sorted by pod and container: found in log time (NULL: none) */
	const struct cpumgr_assignment **sorted;
	struct node_cpu *cpus;
	unsigned int nr_cpus;
	/*
	 * The generation the CPU list was read at, moved on by each change
	 * this process made with that generation expected: a refresh that
	 * finds the table at it knows no CPU came or went, and keeps cpus
	 * and topo instead of dumping the topology again.
	 */
	uint64_t cpus_generation;
	struct topology *topo;		/* online CPUs */
	struct cpuset online, reserved, shared, exclusive;
	/*
	 * NODE_RESTRICTED_OK: a reader without CAP_SYS_ADMIN may go on
	 * with the kernel's reduced view (table.restricted): no
	 * assignments (as, nr_as empty), the pools and the topology.
	 */
	bool restricted_ok;
};

/*
 * The state directory: config.json, counters.json, the checkpoint and
 * pods/ (node_files.c, node_pods.c, node_sync.c open it).
 */
struct node_files {
	char dir[PATH_MAX - 256];	/* room for the file names */
	struct checkpoint_store store;	/* the checkpoint and the lock */
	bool has_config;		/* config.json was there */
	/* the checkpoint as this node last wrote it (NULL: not yet) */
	char *written;
	size_t written_len;
	/*
	 * The kubelet's pod-level state the checkpoint carries (podEntries,
	 * baselines; pods and baselines of a cpu_assignments, the rest
	 * unused), which the kernel's table does not hold: kept from the
	 * checkpoint read at open or imported, written back with it while
	 * the node knows the pod (node_kernel_state()).
	 */
	struct cpu_assignments pod_level;
};

/* The cgroups the node manages (node_cgroup.c, node_narrow.c). */
struct node_cgroups {
	struct cgroupfs fs;
	char root_name[PATH_MAX];	/* the managed root, as a cgroup name */
};

struct node {
	struct node_files files;
	struct node_config cfg;
	struct node_cgroups cgroups;

	struct kernel_view kernel;

	/* the static policy over kernel.topo (node_policy()) */
	bool policy_ready;
	struct cpu_policy policy;
	struct cpu_assignments assignments;	/* the kernel table as the policy sees it */

	/* pods/: what the node admitted, one record a pod (node_pods.c) */
	struct node_pod *pods;
	unsigned int nr_pods;

	/*
	 * CPUs a container is about to be given, bound at withheld_below
	 * (node_withhold(), node_resize.c): out of the shared pool before the
	 * table gives them, so no other container ever runs on them;
	 * cgroups at or above withheld_below keep them.  withheld_at holds
	 * node_withhold()'s copy of the path.
	 */
	struct cpuset withheld;
	const char *withheld_below;
	char withheld_at[PATH_MAX];

	bool read_only;			/* NODE_READ_ONLY: no lock held */
	/*
	 * Targeted (the NRI plugin, one container a call): a change
	 * reconciles the cgroups of the pod it touched, and those of every
	 * pod only when the shared pool moved: from the pool the cgroups
	 * had when the node was opened (node_open() sets both), or after
	 * the last whole pass.  Otherwise every change reconciles all.
	 */
	bool targeted;
	struct cpuset narrowed_pool, reconciled_pool;
	FILE *log;			/* one line per repair or change */
	/*
	 * The sweep releases a container whose cgroup is gone, not known to
	 * have stopped, only when this says so (NULL: at once).  A runtime
	 * removes the cgroup when the task ends and tells of the stop after
	 * (containerd's exit handling), and a stopped container keeps its
	 * CPUs for its restart in the pod: the NRI plugin waits a while.
	 */
	bool (*sweep_gone_ok)(void *ctx, const char *name, const char *cgroup);
	void *sweep_gone_ctx;
	/*
	 * The last change's warning for the command to say (a container
	 * that asks for quiet CPUs it cannot have); "" none.
	 */
	char warning[512];
	/* quiet.json as last read or written (node_quiet.c) */
	struct quiet_saved quiet;
	bool quiet_loaded;
};

enum {
	NODE_NEED_CONFIG	= 1 << 0,	/* fail without config.json */
	NODE_FORCE		= 1 << 1,	/* overwrite a bad checkpoint */
	NODE_NO_SYNC		= 1 << 2,	/* read, repair nothing */
	NODE_CREATE		= 1 << 3,	/* create the state directory */
	/* no lock, no sync, no change: for readers, any user */
	NODE_READ_ONLY		= 1 << 4,
	/*
	 * with NODE_READ_ONLY: a caller without CAP_SYS_ADMIN reads the
	 * kernel's reduced view (pools and topology, no assignments)
	 * rather than failing with -EPERM
	 */
	NODE_RESTRICTED_OK	= 1 << 5,
};

/*
 * Open the state directory, take its lock (saying at once on n->log,
 * stderr, when it waits for another holder), connect to the kernel,
 * read its table and sync (node_sync()).  NODE_READ_ONLY takes no lock
 * and syncs nothing.  On failure everything is released
 * and err says why.
 */
int node_open(struct node *n, const char *dir, unsigned int flags,
	      struct cm_error *err);
/*
 * node_open() waiting at most lock_timeout_ms for the lock (the NRI
 * plugin: the runtime's request timeout bounds its calls).
 */
int node_open_within(struct node *n, const char *dir, unsigned int flags,
		     int lock_timeout_ms, struct cm_error *err);
void node_close(struct node *n);

/*
 * The kernel is authoritative: configure a module that lost its
 * configuration, restore an empty table from the checkpoint (validated
 * the kubelet's way), drop pod files the table no longer backs, rewrite
 * the checkpoint from the table.
 */
int node_sync(struct node *n, unsigned int flags, struct cm_error *err);
/* CONFIGURE the module with everything n->cfg says. */
int node_configure(struct node *n, struct cm_error *err);
/* CONFIGURE the module from config.json when it lost its configuration. */
int node_sync_configure(struct node *n, struct cm_error *err);
/* restoreState() + validateState(): a checkpoint against config.json. */
int node_validate_checkpoint(struct node *n, const struct checkpoint *cp,
			     struct cm_error *err);
/* RESTORE a state into the kernel, with the bindings of the pod files. */
int node_restore_state(struct node *n, const struct cpu_assignments *s,
		       struct cm_error *err);
/* Read the kernel's table again (one consistent generation). */
int node_refresh(struct node *n, struct cm_error *err);
/* Build the policy engine for the configuration and the topology. */
int node_policy(struct node *n, struct cm_error *err);

/* "what: strerror: extack" of the connection's last failure; -errno. */
/*
 * The pool of a pod the kernel's table holds (KEP-5526), as a kubelet's
 * checkpoint has it (guard mode): ASSIGNed when the kernel's differs,
 * and kept with the node's checkpoint.  A pool that does not hold the
 * pod's containers' CPUs is refused (the kernel's words); a module
 * older than pools is logged and left to the checkpoint.
 */
int node_set_pool(struct node *n, const char *uid, const struct cpuset *pool,
		  struct cm_error *err);
int node_nl_error(struct node *n, const char *what, struct cm_error *err);

/* One line on n->log (none when NULL); node_log() is NODE_LOG_INFO. */
void node_log(struct node *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* sd-daemon(3) severities, as syslog's */
enum {
	NODE_LOG_ERR		= 3, NODE_LOG_WARNING	= 4,
	NODE_LOG_INFO		= 6,
};
void node_log_sev(struct node *n, int sev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Start every log line with its sd-daemon prefix ("<3>"), process-wide. */
void node_log_severity(bool on);
/*
 * Start every log line with the time (UTC), process-wide: a daemon's,
 * the repairs of its opens too.  Not with the prefixes: the journal
 * stamps its lines itself.
 */
void node_log_stamp(bool on);

/* ---- the kernel's view ---- */

/* Topology records for topology_new() from the kernel's dump. */
int node_topology_from_cpus(const struct node_cpu *cpus, unsigned int nr,
			    struct topology **out, struct cm_error *err);
/* The assignment of a container, or NULL. */
const struct cpumgr_assignment *node_assignment(const struct node *n,
						const char *pod_uid,
						const char *container);
bool node_pod_in_kernel(const struct node *n, const char *pod_uid);
/* The pod's cgroup the kernel has bound (every assignment of the pod
 * reports it), NULL when none. */
const char *node_pod_cgroup_bound(const struct node *n, const char *pod_uid);
/* The shared pool containers run on (minus reserved under strict). */
void node_shared_pool(const struct node *n, struct cpuset *out);
/*
 * The pod runs on the system partition (node_cgroup.c): its cgroups are
 * the system cgroup's or below it, or a system pod not placed yet.  Its
 * namespace decides that it gets no exclusive CPUs; where the kubelet
 * put it decides its CPUs (a kubelet without KEP-5894 puts system pods
 * with the others, on the shared pool).
 */
bool node_pod_on_partition(const struct node *n, const struct node_pod *p);
/*
 * What a cgroup (name) without exclusive CPUs of its own may hold by
 * where it is: the system partition's CPUs at or below the system
 * cgroup, else the shared pool (node_cgroup.c).
 */
void node_cgroup_shared_cpus(const struct node *n, const char *name,
			     struct cpuset *out);
/*
 * The CPUs a container of p without exclusive ones runs on: the shared
 * pool, or the system partition's (p NULL: the pool).
 */
void node_pod_shared_cpus(const struct node *n, const struct node_pod *p,
			  struct cpuset *out);
/* The policy state of the table (default set and entries). */
int node_kernel_state(const struct node *n, struct cpu_assignments *out);
/* The checkpoint of the table. */
char *node_checkpoint_text(const struct node *n, size_t *len);
int node_save_checkpoint(struct node *n, unsigned int flags,
			 struct cm_error *err);

/* ---- files ---- */

/* Replace dir/name atomically (temp file, fsync, rename, fsync dir). */
int node_write_file(const char *dir, const char *name, const char *data,
		    size_t len, struct cm_error *err);
int node_read_json(const char *path, cJSON **out, struct cm_error *err);
int node_load_config(struct node *n, struct cm_error *err);
int node_save_config(struct node *n, struct cm_error *err);

int node_load_pods(struct node *n, struct cm_error *err);
struct node_pod *node_find_pod(struct node *n, const char *uid);
int node_save_pod(struct node *n, const struct node_pod *p,
		  struct cm_error *err);
int node_delete_pod(struct node *n, const char *uid, struct cm_error *err);
/* Add (or replace) a pod record from a Pod object; returns it. */
struct node_pod *node_add_pod(struct node *n, const cJSON *obj,
			      struct cm_error *err);
void node_pod_free(struct node_pod *p);
/* Index of container name in the pod, or -1. */
int node_pod_container(const struct node_pod *p, const char *name);

struct node_counters {
	uint64_t pinning_requests, pinning_errors;
};

int node_counters_load(const struct node *n, struct node_counters *c);
int node_counters_add(struct node *n, uint64_t requests, uint64_t errors,
		      struct cm_error *err);

/* ---- the system partition (KEP-5894) ---- */

/* A system partition is configured. */
bool node_system_on(const struct node_config *c);
/* ns is one of the system partition's namespaces (none without one). */
bool node_system_namespace(const struct node_config *c, const char *ns);
/* The pod is a system pod: never exclusive CPUs, the partition's. */
bool node_pod_system(const struct node *n, const struct pod *p);
/*
 * A system pod's containers marked to share (pod_guaranteed_cpus() 0):
 * every reader of the pod then sees that they hold no exclusive CPUs.
 */
void node_pod_mark_system(const struct node *n, struct pod *p);
/* A comma-separated list of namespace names, checked, into out. */
int node_system_namespaces_parse(const char *s, char *out, size_t len,
				 struct cm_error *err);
/*
 * The system cgroup's name (root/system, or root/<prefix>-system.slice
 * under the systemd driver); -ENOENT without a partition or a root.
 */
int node_system_cgroup(const struct node *n, char *name, size_t len);
/* The system cgroup's directory, as the kernel takes it ("": none). */
int node_system_path(const struct node *n, char *path, size_t len,
		     struct cm_error *err);
/* base, a child of the managed root, is the system cgroup. */
bool node_system_cgroup_base(const struct node *n, const char *base);
/* The cgroup name is the system cgroup or below it. */
bool node_system_below(const struct node *n, const char *name);
/* The partition's CPUs online and, under the static policy, reserved. */
int node_system_check(const struct node_config *c,
		      const struct cpuset *online, struct cm_error *err);
/*
 * The system cgroup's own CPUs into the configuration, when it exists
 * and names some (*found): the partition a kubelet made.
 */
int node_system_adopt(struct node *n, bool *found, struct cm_error *err);
/*
 * The system cgroup made if missing, before CONFIGURE names it; given the
 * partition's CPUs after.
 */
int node_system_make(struct node *n, struct cm_error *err);
void node_system_unmake(struct node *n);
int node_system_setup(struct node *n, struct cm_error *err);

/* ---- cgroups ---- */

/*
 * A cgroup PATH as the user gives it (absolute, or relative to the
 * managed root) as a cgroup name (relative to the cpuset hierarchy).
 */
int node_cgroup_name(const struct node *n, const char *path, char *name,
		     size_t len, struct cm_error *err);
/* The absolute directory of a cgroup name, as the kernel binds it. */
int node_cgroup_path(const struct node *n, const char *name, char *path,
		     size_t len, struct cm_error *err);
/*
 * Whether a cgroup (a path as node_cgroup_name() takes it) has tasks of
 * its own: a container whose cgroup has is running, whatever a runtime
 * says of it.  False when it is gone or cannot be read.
 */
bool node_cgroup_has_tasks(const struct node *n, const char *path);

/*
 * Give the managed root's children, and its QoS cgroups' children, the
 * shared pool plus the exclusive CPUs bound at or below them, so that a
 * cgroup a runtime creates there inherits nothing it may not hold (see
 * node_narrow.c).  Returns the number of cgroups changed; a cgroup that
 * cannot be changed is logged and skipped.
 */
int node_narrow(struct node *n, struct cm_error *err);
/*
 * A reconcile's narrowing: node_narrow(), and where the pool moves by
 * partitions those cgroups that name CPUs given the pool as it is now.
 */
int node_narrow_tree(struct node *n, struct cm_error *err);
/*
 * node_narrow() when the node is not targeted or the shared pool moved
 * since; otherwise only the cgroups narrowed above pod_cgroup (a pod's
 * cgroup, NULL or "" none), the one pod a change touched.
 */
int node_narrow_pod(struct node *n, const char *pod_cgroup,
		    struct cm_error *err);

/* ---- commands ---- */

struct node_admitted {
	const struct node_pod *pod;
};

/* Admit every pod of a list, each all or nothing; out: JSON results. */
int node_admit(struct node *n, const cJSON *docs, const char *src,
	       cJSON *out, struct cm_error *err);
/*
 * Admit one Pod object as node_admit() does, for a runtime's plugin that
 * meets a pod the kubelet admitted with pod-level resources (its pool).
 */
int node_admit_pod(struct node *n, const cJSON *obj, struct cm_error *err);

struct node_attach {
	const char *pod_uid, *container;
	const char *cgroup, *pod_cgroup;	/* as given; pod_cgroup NULL */
	bool create;
	int pid;				/* 0: none */
};

/*
 * Bind the container (and the pod) to its cgroups, made first with
 * create, write their cpusets and limits, record them, then move pid
 * in.  Refused at any step, it removes the cgroups it made and only
 * then puts back the kernel's binding and the record; a cgroup that was
 * there before stays as the attach left it, for the next to finish.
 */
int node_attach(struct node *n, const struct node_attach *a,
		struct cm_error *err);
/* What node_attach checks before it changes anything: the pod is
 * admitted, the container its, the cgroups below the managed root (and
 * the container's below the pod's).  -EINVAL: bad arguments. */
int node_attach_check(struct node *n, const struct node_attach *a,
		      struct cm_error *err);
/*
 * One container joining a pod that may already be admitted (the OCI
 * hook: a runtime starts containers one at a time).  obj: the Pod object
 * to record, holding the pod as known so far and this container.  How
 * its CPUs are chosen:
 *   NODE_ADD_DECIDE   the static policy's Allocate for this container
 *                     (exclusive for a Guaranteed integer request);
 *   NODE_ADD_DECIDE_NEW  the same for a container whose cgroup the
 *                     caller makes and attaches (node_attach()) before
 *                     its first task: when the pool moves by
 *                     partitions, the ASSIGN says its partition is
 *                     pending, and tasks may join the pool meanwhile;
 *   NODE_ADD_DECIDE_RUNNING  the same for a container whose cgroup has
 *                     tasks already (the OCI hook's createRuntime, an
 *                     NRI call left unfinished): the others let go of
 *                     its CPUs first, but the kernel cannot exempt its
 *                     cgroup, bound only after the ASSIGN, so the
 *                     ASSIGN goes without CPUMGR_A_NARROWED;
 *   NODE_ADD_CPUS     exactly cpus (the kubelet decided): ASSIGN them;
 *   NODE_ADD_SHARED   the shared pool, whatever it asks for.
 * A container the kernel already holds keeps its CPUs (a hook run
 * twice); one removed before comes back.  The cgroups recorded for the
 * pod and its other containers are kept.
 */
enum node_add_how {
	NODE_ADD_DECIDE, NODE_ADD_DECIDE_NEW, NODE_ADD_DECIDE_RUNNING,
	NODE_ADD_CPUS, NODE_ADD_SHARED,
};

int node_add_container(struct node *n, const cJSON *obj, const char *name,
		       enum node_add_how how, const struct cpuset *cpus,
		       struct cm_error *err);
/*
 * Container name of pod uid ran to its end, or the runtime stopped it,
 * while its pod lives on: it keeps its CPUs (the kubelet's behaviour),
 * but an init container under --init-cpus release, which gives them
 * back.  Which a container the runtime stopped was shows when the next
 * container of its pod is added (node_add_container).  0 if unknown.
 */
int node_stop_container(struct node *n, const char *uid, const char *name,
			struct cm_error *err);

/*
 * Remove the containers whose recorded cgroup is gone (a runtime killed
 * before its poststop hook), as n->sweep_gone_ok allows, and pods with
 * no container left.  Returns how many were removed.
 */
int node_sweep_gone(struct node *n, struct cm_error *err);
/* The same for pod uid alone when the node is targeted. */
int node_sweep_pod(struct node *n, const char *uid, struct cm_error *err);
/*
 * The init containers whose cgroup is gone ran to their end: each is
 * node_stop_container()'s (the daemon and reconcile, where pods were
 * admitted with their init containers named).  Returns how many.
 */
int node_sweep_inits(struct node *n, struct cm_error *err);

/*
 * Resize a container's exclusive CPUs to num (the KEP-5554 rules,
 * cpu_policy_resize()): a grow takes the new CPUs out of every other
 * cgroup first, then the table, then widens the container; a shrink
 * changes the table, narrows the container, then gives the CPUs to the
 * shared containers.  Records the admission set and the new CPU count in
 * the pod file.  *out: the container's CPUs now.  A refusal changes
 * nothing; -EINVAL for bad input.
 */
int node_resize(struct node *n, const char *pod_uid, const char *container,
		int num, struct cpuset *out, struct cm_error *err);
/*
 * Pod uid was resized in place to a CPU request and limit (millicores, 0:
 * none): recorded for the pod, and its pod cgroup's CFS limits follow.
 * -ENOENT when the node has no record of the pod.
 */
int node_pod_resized(struct node *n, const char *uid, int64_t request_milli,
		     int64_t limit_milli, struct cm_error *err);
/* The largest CPU request or limit a record takes, millicores. */
#define NODE_CPU_MILLI_MAX	((int64_t)1 << 40)
/*
 * Container name of pod uid, on the shared pool, was resized in place to
 * a CPU request and limit (millicores, 0: none; the runtime's
 * UpdateContainer): recorded in its Pod object in the pod file, and its
 * cgroup's and its pod cgroup's CFS limits follow (every reconcile after
 * it too; a cgroup that refuses now is logged).  -ENOENT when the node
 * has no record of it, -EINVAL for a container on exclusive CPUs
 * (node_resize() changes those) or values out of range; a failure
 * changes nothing.
 */
int node_container_resized(struct node *n, const char *uid, const char *name,
			   int64_t request_milli, int64_t limit_milli,
			   struct cm_error *err);
/* What node_resize checks first: the container holds exclusive CPUs. */
int node_resize_check(struct node *n, const char *pod_uid,
		      const char *container, struct cm_error *err);

/* container NULL: the whole pod. */
int node_remove(struct node *n, const char *pod_uid, const char *container,
		struct cm_error *err);
/* What node_remove checks first: the pod (and container) are known. */
int node_remove_check(struct node *n, const char *pod_uid,
		      const char *container, struct cm_error *err);
/* Give every attached container its cpuset and CFS limits; active: pods
 * still on the node (NULL: no pruning).  Returns the number of changes. */
int node_reconcile(struct node *n, const struct pod_list *active,
		   struct cm_error *err);
/*
 * After a change to pod uid: node_reconcile(n, NULL) when the node is
 * not targeted; otherwise the pod's containers and pod cgroup, and,
 * when the shared pool moved since the last pass, the narrowed cgroups
 * and the cpuset of every container on the shared pool.
 */
int node_reconcile_pod(struct node *n, const char *uid, struct cm_error *err);

/* ---- quiet CPUs (node_quiet.c) ---- */

/*
 * Before container k's attach changes anything: whether it may have the
 * isolation it asks for.  Only a container with exclusive CPUs can: a
 * key naming it is refused otherwise, and so is a governor its CPUs do
 * not offer.  Changes nothing.
 */
int node_quiet_check(struct node *n, const struct node_pod *p, unsigned int k,
		     struct cm_error *err);
/*
 * At its attach, what it asked for and does not get: the pod's key on a
 * container of the shared pool, idle states or a governor the kernel
 * does not expose (n->warning, and the log).
 */
void node_quiet_warn(struct node *n, const struct node_pod *p, unsigned int k);
/*
 * Container k's cgroup (name) an isolated partition on its exclusive
 * cpus when it asks (cpu-load-balancing), or no partition when it does
 * not any more.  Returns the number of changes, or -errno (refused: a
 * partition the kernel cannot make there, with the reason).
 */
int node_quiet_container(struct node *n, const struct node_pod *p,
			 unsigned int k, const char *name,
			 const struct cpuset *cpus, bool exclusive,
			 bool verbose, struct cm_error *err);
/*
 * Whether container k's cgroup is a partition when it holds exclusive
 * CPUs: it asks for cpu-load-balancing "disable" (isolated), or the pool
 * moves by partitions (root).
 */
/*
 * Before a container's cpuset.cpus is written, for one whose cgroup is a
 * partition on its exclusive CPUs: a partition its last instance left
 * on them is undone first (a restart: its runtime could not remove the
 * cgroup), and when its own cgroup is a valid partition already,
 * node_quiet_container() moves it (a resize: the CPUs it gains taken
 * from the pool) so that the write changes nothing the kernel would take
 * as the partition's change.  Returns the changes.
 */
int node_quiet_move(struct node *n, const struct node_pod *p, unsigned int k,
		    const char *name, const struct cpuset *cpus, bool exclusive,
		    bool verbose, struct cm_error *err);
bool node_quiet_partitioned(const struct node *n, const struct node_pod *p,
			    unsigned int k);
/*
 * Whether the ASSIGN of a container without a task yet, whose partition
 * is made before its first one (node_attach()), says it is pending: the
 * pool moves by partitions, and its cgroups hold the CPUs until then.
 * node_quiet_container() clears it once the partition stands.
 */
bool node_quiet_pending(const struct node *n);
/*
 * Once a container's CPUs went back (or, for one that ended, before
 * they go where nothing inherits them): its partition undone, cgroup
 * name and cpus out of parent's and its ancestors' exclusive CPUs.  Name
 * NULL (it ended): a partition on cpus its runtime left below parent,
 * with no task, is undone and removed.
 */
int node_quiet_release(struct node *n, const char *uid, const char *container,
		       const char *parent, const char *name,
		       const struct cpuset *cpus, struct cm_error *err);
/*
 * The node's interrupts, idle states and governors as the running
 * containers with exclusive CPUs ask, what was there put back where none
 * asks; quiet.json follows.  A targeted node looks at the interrupts
 * only when the CPUs kept off them change.  Returns the changes.
 */
int node_quiet_sync(struct node *n, struct cm_error *err);
/* The CPUs of cpus left to interrupts under irq-load-balancing "housekeeping". */
void node_quiet_housekeeping(const struct node *n,
			     const struct pod_isolation *iso,
			     const struct cpuset *cpus, struct cpuset *out);

/* ---- audit ---- */

struct node_offender {
	char name[PATH_MAX];		/* cgroup name */
	struct cpuset cpus;		/* CPUs it may not hold */
	char owner[256];		/* whose they are */
};

struct node_audit {
	struct node_offender *v;
	unsigned int nr;
	unsigned int checked;
};

/*
 * The system partition for an audit: the cgroup (name) where, under
 * strict reservation, the reserved CPUs are allowed, and whose tree
 * runs on cpus alone.
 */
struct node_audit_system {
	const char *name;
	struct cpuset cpus;
};

/*
 * Walk the managed tree and list the cgroups with tasks (or attached)
 * that can run on CPUs they may not hold: the kernel's rule, and a
 * system partition's tree (sys, NULL: none) off its CPUs.  attached:
 * cgroup names that count as populated (NULL-terminated, may be NULL).
 */
int node_audit_tree(const struct cgroupfs *cg, const char *root_name,
		    const struct cpumgr_assignment *as, size_t nr_as,
		    const struct cpuset *strict_reserved,
		    const struct node_audit_system *sys,
		    const char *const *attached, struct node_audit *out,
		    struct cm_error *err);
void node_audit_free(struct node_audit *a);
int node_audit(struct node *n, struct node_audit *out, struct cm_error *err);

/* ---- top-up after a release-mode offline ---- */

/*
 * Choose missing CPUs for a container still holding have, out of avail:
 * free SMT siblings first, then the smallest of its uncore caches, NUMA
 * nodes and sockets that has enough, then anywhere (the allocator's
 * best fit inside each).  -ENOSPC when avail is too small.
 */
int node_topup_choose(const struct topology *t, const struct policy_options *o,
		      const struct cpuset *avail, const struct cpuset *have,
		      int missing, struct cpuset *out, struct cm_error *err);
/* Top up every degraded assignment; returns the number topped up. */
int node_topup(struct node *n, struct cm_error *err);

/* ---- the daemon: kernel events and a reconcile timer ---- */

/* What a round does. */
enum {
	DAEMON_RECONCILE	= 1 << 0,
	DAEMON_TOPUP		= 1 << 1, DAEMON_AUDIT		= 1 << 2,
	DAEMON_ALL		= DAEMON_RECONCILE | DAEMON_TOPUP | DAEMON_AUDIT,
};

struct node_daemon_opts {
	const char *dir;		/* state directory */
	const char *pods;		/* the node's active pods, or NULL */
	int64_t period_ms;		/* reconcile period */
	FILE *log;			/* one timestamped line per action */
	bool once;			/* one round, then return (tests) */
	/*
	 * The service manager's hook, or NULL (the library does not speak
	 * its protocol): notify("READY=1") after the first round,
	 * notify("WATCHDOG=1") at least every watchdog_ms (when above 0)
	 * while it runs, notify("STOPPING=1") when it ends.
	 */
	void (*notify)(const char *state);
	int64_t watchdog_ms;
	/*
	 * What the command adds to each round (may be NULL), under the
	 * lock after the sync and before the reconcile: cpumgrctl's are the
	 * NRI plugin's calls that did not finish in the runtime's time, whose
	 * containers run without their CPUs.  Returns the number of
	 * containers it changed, or -errno with err set.
	 */
	int (*round_hook)(struct node *n, void *arg, struct cm_error *err);
	void *round_hook_arg;
};

/* Run until SIGTERM or SIGINT; returns 0 then. */
int node_daemon(const struct node_daemon_opts *o, struct cm_error *err);

#endif
