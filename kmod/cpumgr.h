/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr: the node's authoritative table of exclusively assigned CPUs.
 * Internal interfaces between the files of the module.
 */
#ifndef _CPUMGR_H
#define _CPUMGR_H

#include <linux/cpumask.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <uapi/linux/cpumgr.h>

#define CPUMGR_VERSION "0.1.0"

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

/* A cgroup directory a container or a pod is bound to. */
struct cpumgr_cgroup_ref {
	u64 id;		/* cgroup id = inode number; 0 when not bound */
	bool v1;	/* in the cgroup v1 cpuset hierarchy */
	char *path;	/* as the binder's mount namespace sees it */
};

struct cpumgr_pod;

/* One container's exclusive CPUs: pods/<uid>/<name> in sysfs. */
struct cpumgr_container {
	struct list_head node;		/* in pod->containers */
	struct cpumgr_pod *pod;
	char name[CPUMGR_CONTAINER_MAX + 1];
	cpumask_var_t cpus;
	u32 flags;
	struct cpumgr_cgroup_ref cgroup;
	struct kobject kobj;
	bool keep;			/* RESTORE's mark, under the table lock */
};

/* A pod: its containers and the union of their CPUs; pods/<uid>. */
struct cpumgr_pod {
	struct list_head node;		/* in the table's pod list */
	struct list_head containers;
	char uid[CPUMGR_POD_UID_MAX + 1];
	cpumask_var_t cpus;		/* union of the containers' */
	struct cpumgr_cgroup_ref cgroup;
	struct kobject kobj;
	bool keep;			/* RESTORE's mark, under the table lock */
};

/*
 * What lock-free readers see of the table, replaced as a whole (RCU) on
 * every change under the table lock.
 */
struct cpumgr_view {
	struct rcu_head rcu;
	u64 generation;
	enum cpumgr_policy policy;
	u32 options;
	unsigned int nr_pods;
	unsigned int nr_containers;
	cpumask_var_t reserved;
	cpumask_var_t exclusive;	/* union of every assignment */
};

/* cpumgr_topology.c */
int cpumgr_topology_init(void);
void cpumgr_topology_exit(void);
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

/* cpumgr_cgroup.c */
int cpumgr_cgroup_resolve(const char *path, struct cpumgr_cgroup_ref *ref,
			  const struct nlattr *attr,
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
	enum cpumgr_policy policy;
	u32 options;
	cpumask_var_t reserved;
	const struct nlattr *policy_attr, *options_attr, *reserved_attr;
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

/* Readers that need more than the view hold the table lock briefly. */
void cpumgr_table_lock(void);
void cpumgr_table_unlock(void);
u64 cpumgr_table_generation(void);
/* The caller holds the table lock. */
struct cpumgr_container *cpumgr_table_find(const char *pod_uid,
					   const char *container);
/* The caller holds the table lock: the n-th assignment, in table order. */
struct cpumgr_container *cpumgr_table_nth(unsigned long n);

/* Called by the kobjects' release: free a pod or container. */
void cpumgr_pod_free(struct cpumgr_pod *pod);
void cpumgr_container_free(struct cpumgr_container *c);

/* The current view; the caller is in an RCU read-side section. */
const struct cpumgr_view *cpumgr_view_get(void);
/* The shared pool as the view sees it now. */
void cpumgr_view_shared(const struct cpumgr_view *view, struct cpumask *shared);

/* cpumgr_netlink.c */
int cpumgr_netlink_init(void);
void cpumgr_netlink_exit(void);
/* Notifications, sent under the table lock so they come in order. */
void cpumgr_notify_assigned(const struct cpumgr_container *c, u64 generation);
void cpumgr_notify_released(const char *pod_uid, const char *container,
			    const struct cpumask *freed, u64 generation);
void cpumgr_notify_bound(const struct cpumgr_bind *bind, u64 generation);
void cpumgr_notify_configured(void);
void cpumgr_notify_restored(unsigned int nr_pods, unsigned int nr_containers,
			    u64 generation);
void cpumgr_notify_reset(u64 generation);

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
