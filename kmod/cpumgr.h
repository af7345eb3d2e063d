/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr: the node's authoritative table of exclusively assigned CPUs.
 * Internal interfaces between the files of the module.
 */
#ifndef _CPUMGR_H
#define _CPUMGR_H

#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <uapi/linux/cpumgr.h>

#define CPUMGR_VERSION "0.1.0"

/* Out-of-tree builds skip Kconfig: the refusal stub and the LLC id are x86. */
#ifndef CONFIG_X86_64
#error "cpumgr supports x86_64 only"
#endif

/*
 * An extack message with details where the kernel can format one (6.3+);
 * older kernels get the fixed part, a string literal, alone.
 */
#ifdef NL_SET_ERR_MSG_FMT
#define CPUMGR_ERR(extack, attr, msg, fmt, ...)				\
	NL_SET_ERR_MSG_ATTR_POL_FMT(extack, attr, NULL, msg ": " fmt,	\
				    ##__VA_ARGS__)
#else
#define CPUMGR_ERR(extack, attr, msg, fmt, ...)				\
	NL_SET_ERR_MSG_ATTR(extack, attr, msg)
#endif

/*
 * A CPU that another pod holds.  The formatted message has to fit the
 * kernel's 80-byte buffer with the longest pod UID and CPU number (x86_64
 * has at most 8192 CPUs: four digits), so it goes without a prefix.
 */
#ifdef NL_SET_ERR_MSG_FMT
static_assert(sizeof("CPU 8191: pod ") + CPUMGR_POD_UID_MAX <=
	      NETLINK_MAX_FMTMSG_LEN);
static_assert(CONFIG_NR_CPUS <= 10000);
#define CPUMGR_ERR_POD(extack, attr, cpu, uid)				\
	NL_SET_ERR_MSG_ATTR_POL_FMT(extack, attr, NULL, "CPU %u: pod %s",	\
				    cpu, uid)
#else
#define CPUMGR_ERR_POD(extack, attr, cpu, uid)				\
	NL_SET_ERR_MSG_ATTR(extack, attr, "CPU is assigned to another pod")
#endif

/*
 * What the module knows of one possible CPU.  Values are the last ones
 * seen while the CPU was online (an offline CPU keeps them); @seen is
 * false for a CPU that has never been online since the module loaded.
 */
struct cpumgr_cpu_topo {
	bool seen;
	bool online;
	u32 package;
	u32 die;	/* logical die: unique across the machine */
	u32 core;	/* core id within its package, as sysfs core_id */
	u32 node;
	u32 llc;	/* last level cache (L3, "uncore") id */
	cpumask_var_t siblings;	/* SMT siblings, itself included */
};

/* Deepest cgroup the checks follow (a bound one, or a checked one). */
#define CPUMGR_CGROUP_DEPTH_MAX 64

/* A cgroup directory a container or a pod is bound to. */
struct cpumgr_cgroup_ref {
	u64 id;		/* cgroup id = inode number; 0 when not bound */
	bool v1;	/* in the cgroup v1 cpuset hierarchy */
	char *path;	/* as the binder's mount namespace sees it */
	u32 depth;	/* entries of @ancestors */
	u64 *ancestors;	/* ids of every ancestor, parent first */
	struct cgroup *live;	/* held (the managed root): removed or not */
};

struct cpumgr_pod;

/* One container's exclusive CPUs: pods/<uid>/<name> in sysfs. */
struct cpumgr_container {
	struct list_head node;		/* in pod->containers */
	struct cpumgr_pod *pod;
	char name[CPUMGR_CONTAINER_MAX + 1];
	cpumask_var_t cpus;
	/* what offlines took in release mode, for the CPUs coming back */
	cpumask_var_t lost;
	u32 flags;
	struct cpumgr_cgroup_ref cgroup;
	struct kobject kobj;
	bool mark;			/* for multi-pass changes, under the table lock */
};

/* A pod: its containers and the union of their CPUs; pods/<uid>. */
struct cpumgr_pod {
	struct list_head node;		/* in the table's pod list */
	struct list_head containers;
	char uid[CPUMGR_POD_UID_MAX + 1];
	cpumask_var_t cpus;		/* union of the containers' */
	struct cpumgr_cgroup_ref cgroup;
	struct kobject kobj;
	bool mark;			/* for multi-pass changes, under the table lock */
};

/* A bound cgroup as the hooks see it: ids only. */
struct cpumgr_view_cg {
	u64 id;			/* 0: not bound */
	bool v1;
	u32 depth;
	const u64 *ancestors;	/* parent first */
};

/*
 * @owed: CPUs an offline took from it in release mode (the table's
 * lost), which come back to it online while its cgroup names them: the
 * checks keep them its own meanwhile, so nobody else may name them.
 */
struct cpumgr_view_container {
	const struct cpumask *cpus;
	const struct cpumask *owed;
	struct cpumgr_view_cg cg;
	char name[CPUMGR_CONTAINER_MAX + 1];	/* for the refusal log */
};

struct cpumgr_view_pod {
	const struct cpumask *cpus;
	const struct cpumask *owed;	/* its containers' */
	struct cpumgr_view_cg cg;
	char uid[CPUMGR_POD_UID_MAX + 1];
	unsigned int first;	/* its containers in view->containers */
	unsigned int nr;
};

/* How much a view holds, sized before a change, filled after it. */
struct cpumgr_view_size {
	unsigned int pods;
	unsigned int containers;
	unsigned int ids;
};

/*
 * What lock-free readers see of the table, replaced as a whole (RCU) on
 * every change under the table lock.  The hooks, which cannot sleep or
 * take the table lock, check against it.
 */
struct cpumgr_view {
	struct rcu_head rcu;
	u64 generation;
	enum cpumgr_policy policy;
	u32 options;
	enum cpumgr_enforce enforce;
	enum cpumgr_hotplug hotplug;
	unsigned int nr_pods;
	unsigned int nr_containers;
	cpumask_var_t reserved;
	cpumask_var_t exclusive;	/* union of every assignment */
	cpumask_var_t owed;		/* union of every container's owed */
	struct cpumgr_view_cg root;	/* managed root; id 0: none */
	struct cgroup *root_cgrp;	/* the table holds it; NULL: none */
	struct cpumgr_view_pod *pods;
	struct cpumgr_view_container *containers;
	unsigned long *bits;		/* the pods' and containers' masks */
	u64 *ids;			/* the ancestors of the cgroups */
	struct cpumgr_view_size cap;
};

/* Counters of /sys/kernel/cpumgr and GET_STATE, since load. */
struct cpumgr_counters {
	atomic64_t violations;
	atomic64_t offlines_refused;
	atomic64_t events_dropped;
};

extern struct cpumgr_counters cpumgr_counters;

/* cpumgr_topology.c */
int cpumgr_topology_init(void);
void cpumgr_topology_exit(void);
void cpumgr_topology_online(unsigned int cpu);
void cpumgr_topology_offline(unsigned int cpu);
void cpumgr_topology_lock(void);
void cpumgr_topology_unlock(void);
const struct cpumgr_cpu_topo *cpumgr_topology_cpu(unsigned int cpu);

/* cpumgr_cpulist.c */
int cpumgr_cpulist_parse(const char *list, struct cpumask *mask,
			 const struct nlattr *attr,
			 struct netlink_ext_ack *extack);
char *cpumgr_cpulist_format(const struct cpumask *mask, gfp_t gfp);

/* cpumgr_names.c */
int cpumgr_check_pod_uid(const char *uid, const struct nlattr *attr,
			 struct netlink_ext_ack *extack);
int cpumgr_check_container_name(const char *name, const struct nlattr *attr,
				struct netlink_ext_ack *extack);
/*
 * @src into @dst (@size bytes, NUL included) with control characters
 * escaped; returns the length, cut to fit.
 */
size_t cpumgr_escape(char *dst, size_t size, const char *src);
size_t cpumgr_escaped_len(const char *src);
extern const char *const cpumgr_policy_names[2];
extern const char *const cpumgr_option_names[6];
extern const char *const cpumgr_enforce_names[3];
extern const char *const cpumgr_hotplug_names[2];
/* The mode named @name (a trailing newline allowed), or -EINVAL. */
int cpumgr_enforce_parse(const char *name);
int cpumgr_hotplug_parse(const char *name);

/* cpumgr_cgroup.c */
int cpumgr_cgroup_resolve(const char *path, struct cpumgr_cgroup_ref *ref,
			  bool hold, const struct nlattr *attr,
			  struct netlink_ext_ack *extack);
void cpumgr_cgroup_ref_free(struct cpumgr_cgroup_ref *ref);

/* cpumgr_table.c: the table and its changes */

/* A request's optional expected generation. */
struct cpumgr_expect {
	bool set;
	u64 generation;
	const struct nlattr *attr;
};

struct cpumgr_config {
	bool set_policy, set_options, set_reserved;
	bool set_enforce, set_hotplug;
	enum cpumgr_policy policy;
	u32 options;
	cpumask_var_t reserved;
	enum cpumgr_enforce enforce;
	enum cpumgr_hotplug hotplug;
	const char *root_path;		/* NULL: unchanged, "": none */
	const struct nlattr *policy_attr, *options_attr, *reserved_attr;
	const struct nlattr *root_attr;
};

/* One assignment of a request (ASSIGN, or an entry of RESTORE). */
struct cpumgr_entry {
	const char *pod_uid;
	const char *container;
	cpumask_var_t cpus;
	u32 flags;
	const char *cgroup_path;	/* NULL: leave as is / none */
	const char *pod_cgroup_path;
	const struct nlattr *pod_attr, *container_attr, *cpus_attr;
	const struct nlattr *cgroup_attr, *pod_cgroup_attr;
};

struct cpumgr_bind {
	const char *pod_uid;
	const char *container;		/* NULL: pod binding only */
	const char *cgroup_path;	/* NULL: unchanged, "": unbind */
	const char *pod_cgroup_path;
	const struct nlattr *pod_attr, *container_attr;
	const struct nlattr *cgroup_attr, *pod_cgroup_attr;
};

int cpumgr_table_init(void);
void cpumgr_table_exit(void);
int cpumgr_table_configure(struct cpumgr_config *cfg,
			   const struct cpumgr_expect *expect,
			   struct netlink_ext_ack *extack, u64 *generation);
int cpumgr_table_assign(struct cpumgr_entry *entry,
			const struct cpumgr_expect *expect,
			struct netlink_ext_ack *extack, u64 *generation);
int cpumgr_table_release(const char *pod_uid, const char *container,
			 const struct cpumgr_expect *expect,
			 struct netlink_ext_ack *extack, u64 *generation);
int cpumgr_table_bind(const struct cpumgr_bind *bind,
		      const struct cpumgr_expect *expect,
		      struct netlink_ext_ack *extack, u64 *generation);
int cpumgr_table_restore(struct cpumgr_entry *entries, unsigned int nr,
			 const struct cpumgr_expect *expect,
			 struct netlink_ext_ack *extack, u64 *generation);
int cpumgr_table_reset(const struct cpumgr_expect *expect,
		       struct netlink_ext_ack *extack, u64 *generation);
/* CPU hotplug, from the hotplug thread: the CPU hotplug lock is held. */
int cpumgr_table_cpu_online(unsigned int cpu);
int cpumgr_table_cpu_offline(unsigned int cpu);
/* The managed cgroup root's path ("" for none); any context that sleeps. */
void cpumgr_table_root_path(char *buf, size_t size);

/* Readers that need more than the view hold the table lock briefly. */
void cpumgr_table_lock(void);
int cpumgr_table_lock_killable(void);
void cpumgr_table_unlock(void);
u64 cpumgr_table_generation(void);
/* The caller holds the table lock. */
struct cpumgr_container *cpumgr_table_find(const char *pod_uid,
					   const char *container);
/* The caller holds the table lock: the n-th assignment, in table order. */
struct cpumgr_container *cpumgr_table_nth(unsigned long n);
/* The caller holds the table lock: the one after @c, in table order. */
struct cpumgr_container *cpumgr_table_next(struct cpumgr_container *c);

/* Called by the kobjects' release: free a pod or container. */
void cpumgr_pod_free(struct cpumgr_pod *pod);
void cpumgr_container_free(struct cpumgr_container *c);

/* The current view; the caller is in an RCU read-side section. */
const struct cpumgr_view *cpumgr_view_get(void);
/* The shared pool as the view sees it now. */
void cpumgr_view_shared(const struct cpumgr_view *view, struct cpumask *shared);

/* The modes a RESET returns to: the module parameters. */
extern enum cpumgr_enforce cpumgr_param_enforce;
extern enum cpumgr_hotplug cpumgr_param_hotplug;

/* Cgroup2 is hierarchy 0; v1 hierarchies have other ids. */
static inline bool cpumgr_cgroup_on_dfl(const struct cgroup *cgrp)
{
	return cgrp->root->hierarchy_id == 0;
}

/*
 * Whether the cpusets of @cgrp's hierarchy take their effective CPUs as on
 * cgroup2 (within the parent's, and all of the parent's when none is
 * left): cgroup2, and a v1 hierarchy mounted with cpuset_v2_mode.
 */
static inline bool cpumgr_cpuset_v2_mode(const struct cgroup *cgrp)
{
	return cpumgr_cgroup_on_dfl(cgrp) ||
	       (cgrp->root->flags & CGRP_ROOT_CPUSET_V2_MODE);
}

/* cpumgr_cpuset.c: the kernel's cpusets, read where locks cannot be taken */
int cpumgr_cpuset_init(void);
struct cgroup_subsys_state *cpumgr_cpuset_css(struct cgroup *cgrp);
struct cgroup_subsys_state *cpumgr_cpuset_top(void);
const struct cpumask *cpumgr_cpuset_allowed(struct cgroup_subsys_state *css);
const struct cpumask *cpumgr_cpuset_effective(struct cgroup_subsys_state *css);
bool cpumgr_cpuset_has_tasks(struct cgroup_subsys_state *css);

/* cpumgr_rules.c: what a cgroup may hold */
struct cpumgr_scratch;
/* A task on its way into @dst, whose cpuset is @css (cpumgr_inflight.c). */
struct cpumgr_inflight_entry {
	struct cgroup *dst;
	struct cgroup_subsys_state *css;
};

int cpumgr_rules_init(void);
void cpumgr_rules_exit(void);
/* This CPU's scratch space; the caller cannot be preempted. */
struct cpumgr_scratch *cpumgr_scratch_get(void);
/*
 * This CPU's other scratch space, for callers that may be preempted
 * (the checks of cpuset file writes), behind a local lock: preemption
 * stays on under PREEMPT_RT, is off otherwise.
 */
struct cpumgr_scratch *cpumgr_scratch_lock(void);
void cpumgr_scratch_unlock(void);
struct cpumask *cpumgr_scratch_mask(struct cpumgr_scratch *s, unsigned int i);
/* The scratch space's buffers for a cgroup's path (cpumgr_events.c) */
struct cpumgr_log_buf *cpumgr_scratch_log(struct cpumgr_scratch *s);
bool cpumgr_rules_active(const struct cpumgr_view *view);
unsigned int cpumgr_rules_walk_max(void);
bool cpumgr_rules_check(const struct cpumgr_view *view, struct cgroup *cgrp,
			const struct cpumask *cpus, const struct cpumask *own,
			struct cpumask *bad, struct cpumgr_scratch *s);
struct cpumgr_inflight_write;
void cpumgr_rules_inherited(struct cgroup_subsys_state *pos,
			    struct cgroup_subsys_state *from,
			    const struct cpumask *cpus, struct cpumask *eff,
			    const struct cpumgr_inflight_write *w,
			    struct cpumgr_scratch *s);
bool cpumgr_rules_check_inherit(const struct cpumgr_view *view,
				struct cgroup_subsys_state *css,
				const struct cpumask *cpus,
				const struct cpumask *own,
				const struct cpumgr_inflight_entry *entry,
				const struct cpumgr_inflight_write *w,
				struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_rules_reaches_scope(const struct cpumgr_view *view,
				struct cgroup *cgrp, struct cpumgr_scratch *s);
bool cpumgr_rules_check_take(const struct cpumgr_view *view,
			     struct cgroup *cgrp, const struct cpumask *cpus,
			     struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_rules_check_partition(const struct cpumgr_view *view,
				  struct cgroup *cgrp,
				  const struct cpumask *cpus,
				  struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_rules_check_keep(const struct cpumgr_view *view,
			     struct cgroup *cgrp, const struct cpumask *cpus,
			     struct cpumask *bad, struct cpumgr_scratch *s);
struct cgroup *cpumgr_rules_check_offline(const struct cpumgr_view *view,
					  struct cgroup_subsys_state *top,
					  unsigned int cpu, struct cpumask *bad,
					  struct cpumgr_scratch *s);
/* Whose CPUs the last check found: "pod <uid> container <name>". */
int cpumgr_rules_whose(const struct cpumgr_view *view,
		       const struct cpumgr_scratch *s, char *buf, size_t len);

/* cpumgr_hooks.c */
void cpumgr_refused(void);	/* a bare return, in asm */
int cpumgr_hooks_init(void);
void cpumgr_hooks_exit(void);
/* Wait for the cpuset writes checked against an older table. */
void cpumgr_hooks_sync_writes(void);
/* Calls the probes missed since load; whether one of them is disabled. */
u64 cpumgr_hooks_missed(void);
bool cpumgr_hooks_disabled(void);

/* cpumgr_armed.c: whether the probes fire */
int cpumgr_armed_init(void);
void cpumgr_armed_exit(void);
bool cpumgr_armed(const char **why);

/* cpumgr_offline.c: an offline in flight, a writer's CPUs */
bool cpumgr_offline_begin(unsigned int cpu);
void cpumgr_offline_end(void);
unsigned int cpumgr_offline_claim(const struct cpumask *cpus);
void cpumgr_offline_unclaim(void);

/* cpumgr_inflight.c: task entries and cpuset.cpus writes under way */
int cpumgr_inflight_init(void);
void cpumgr_inflight_exit(void);
struct cpumgr_inflight_write *cpumgr_inflight_write_get(void);
void cpumgr_inflight_write_begin(struct cpumgr_inflight_write *w,
				 struct cgroup_subsys_state *css,
				 const struct cpumask *eff,
				 const struct cpumask *own,
				 struct cpumgr_inflight_entry *entry);
void cpumgr_inflight_write_put(struct cpumgr_inflight_write *w);
const struct cpumask *
cpumgr_inflight_allowed(const struct cpumgr_inflight_write *w,
			struct cgroup_subsys_state *css);
bool cpumgr_inflight_below(const struct cpumgr_inflight_write *w);
bool cpumgr_inflight_check_above(const struct cpumgr_view *view,
				 const struct cpumgr_inflight_write *w,
				 const struct cpumgr_inflight_entry *entry,
				 struct cpumask *eff, struct cpumask *bad,
				 struct cpumgr_scratch *s);
bool cpumgr_inflight_enter(const struct cpumgr_view *view, struct cgroup *dst,
			   struct cgroup_subsys_state *css,
			   struct cpumask *eff, struct cpumask *bad,
			   struct cpumgr_scratch *s);
void cpumgr_inflight_leave(void);

/* cpumgr_hotplug.c */
int cpumgr_hotplug_init(void);
void cpumgr_hotplug_exit(void);

/* cpumgr_events.c: notifications raised where nothing may sleep */
#define CPUMGR_EVENT_PATH_MAX 256

/* A cgroup's path for a log line or an event: as the kernel has it, escaped. */
struct cpumgr_log_buf {
	char path[CPUMGR_EVENT_PATH_MAX];
	char escaped[4 * CPUMGR_EVENT_PATH_MAX];
};

/* A violation or a refused offline, queued for the netlink worker. */
struct cpumgr_event {
	u8 cmd;			/* CPUMGR_CMD_*_NTF */
	u8 kind;		/* enum cpumgr_violation */
	u8 verdict;		/* enum cpumgr_verdict */
	u32 cpu;
	u32 pid;
	kuid_t uid;		/* the actor's euid, for its share of the ring */
	char comm[TASK_COMM_LEN];
	u64 generation;
	u64 cgroup_id;
	char path[CPUMGR_EVENT_PATH_MAX];	/* in its hierarchy */
	const char *file;	/* a string literal */
	cpumask_var_t cpus;
};

int cpumgr_events_init(void);
void cpumgr_events_exit(void);
/* @path: @cgrp's, as cgroup_path() has it ("" when it failed) */
void cpumgr_event_violation(const struct cpumgr_view *view,
			    enum cpumgr_violation kind, bool refused,
			    struct cgroup *cgrp, const char *path,
			    const char *file, const struct cpumask *cpus);
void cpumgr_event_offline_refused(const struct cpumgr_view *view,
				  unsigned int cpu);
void cpumgr_events_send_lock(void);
void cpumgr_events_send_unlock(void);

/* cpumgr_netlink.c */
int cpumgr_netlink_init(void);
void cpumgr_netlink_exit(void);
/*
 * Notifications, sent under the table lock so they come in order, and
 * after the violations and refused offlines queued before them.
 */
void cpumgr_notify_assigned(const struct cpumgr_container *c, u64 generation);
void cpumgr_notify_released(const char *pod_uid, const char *container,
			    const struct cpumask *freed, u64 generation);
void cpumgr_notify_bound(const struct cpumgr_bind *bind, u64 generation);
void cpumgr_notify_configured(void);
void cpumgr_notify_restored(unsigned int nr_pods, unsigned int nr_containers,
			    u64 generation);
void cpumgr_notify_reset(u64 generation);
void cpumgr_notify_cpu(u8 cmd, unsigned int cpu, u64 generation);
void cpumgr_notify_degraded(const struct cpumgr_container *c,
			    unsigned int cpu, u64 generation);
/* A violation or a refused offline, from the event ring's drain. */
void cpumgr_notify_event(const struct cpumgr_event *ev);
void cpumgr_notify_lost(void);
/* The guarantee was armed or disarmed, or probes missed calls. */
void cpumgr_notify_armed(bool armed, const char *why, u64 missed);

/* cpumgr_sysfs.c */
int cpumgr_sysfs_init(void);
void cpumgr_sysfs_exit(void);
/* Types of pods/<uid> and pods/<uid>/<container>, parent of the former. */
extern const struct kobj_type cpumgr_pod_ktype;
extern const struct kobj_type cpumgr_container_ktype;
extern struct kobject *cpumgr_pods_kobj;
/* Serializes changes of what the pods/ files show with their readers. */
extern spinlock_t cpumgr_show_lock;

#endif /* _CPUMGR_H */
