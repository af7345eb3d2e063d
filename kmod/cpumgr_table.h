/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr_table.c: the table of exclusively assigned CPUs, its locks and
 * lookups, and what every change of it checks and commits.
 */
#ifndef _CPUMGR_TABLE_H
#define _CPUMGR_TABLE_H

#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/types.h>
#include <uapi/linux/cpumgr.h>

#include "cpumgr_cgroup.h"

struct cpumgr_container;
struct cpumgr_expect;
struct cpumgr_pod;
struct cpumgr_view;

struct cpumgr_table {
	struct mutex lock;		/* serializes changes of everything */
	enum cpumgr_policy policy;
	u32 options;
	cpumask_var_t reserved;
	enum cpumgr_enforce enforce;
	enum cpumgr_hotplug hotplug;
	struct cpumgr_cgroup_ref root;	/* managed cgroup root; id 0: none */
	/* KEP-5894's system partition, strictly below root; id 0: none */
	struct cpumgr_cgroup_ref system;
	struct list_head pods;
	unsigned int nr_pods;
	unsigned int nr_containers;
	u64 generation;
	cpumask_var_t exclusive;	/* union of the pods' CPUs */
	cpumask_var_t scratch;		/* for the lock holder */
	bool pinned;			/* holds a module reference */
};

/* The table: its changes hold cpumgr_write_lock(), its readers the lock. */
extern struct cpumgr_table cpumgr_tbl;

/* The modes a RESET returns to: the module parameters. */
extern enum cpumgr_enforce cpumgr_param_enforce;
extern enum cpumgr_hotplug cpumgr_param_hotplug;

int cpumgr_table_init(void);
void cpumgr_table_exit(void);

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
/* The managed cgroup root's path ("" for none); any context that sleeps. */
void cpumgr_table_root_path(char *buf, size_t size);
/* The system cgroup's path, as the root's; "" for none or removed. */
void cpumgr_table_system_path(char *buf, size_t size);

/*
 * A change: the CPU hotplug read lock and the table lock, and when it
 * is over, whatever the outcome, the writes checked against the old
 * table waited for.  cpumgr_write_begin() takes them and checks the
 * generation the request expects; they are held on return, refused or
 * not.
 */
void cpumgr_write_lock(void);
void cpumgr_write_unlock(void);
int cpumgr_write_begin(const struct cpumgr_expect *expect,
		       struct netlink_ext_ack *extack);
int cpumgr_check_expect(const struct cpumgr_expect *expect,
			struct netlink_ext_ack *extack);
/* What a change checks of the CPUs it gives (cpumgr_table.c says what). */
int cpumgr_check_online(const struct cpumask *cpus, const struct nlattr *attr,
			struct netlink_ext_ack *extack);
int cpumgr_check_assignable(const struct cpumask *cpus,
			    const struct nlattr *attr,
			    struct netlink_ext_ack *extack);
int cpumgr_check_other_pods(const struct cpumask *cpus, const char *uid,
			    const struct nlattr *attr,
			    struct netlink_ext_ack *extack);
/* What a change checks of a cgroup it binds a container or a pod to. */
int cpumgr_check_bindable(const struct cpumgr_cgroup_ref *ref,
			  const struct nlattr *attr,
			  struct netlink_ext_ack *extack);
/* The view a change will publish: the table as it is, grown by this. */
struct cpumgr_view *cpumgr_view_alloc_grown(unsigned int pods,
					    unsigned int containers,
					    unsigned int ids);
/* The last step of every change, which cannot fail; @view is the table's. */
void cpumgr_commit(struct cpumgr_view *view);

struct cpumgr_pod *cpumgr_find_pod(const char *uid);
struct cpumgr_pod *cpumgr_find_pod_in(struct list_head *list,
				      const char *uid);
/* A pod out of the table, and then dropped with its containers. */
void cpumgr_pod_unlink(struct cpumgr_pod *pod);
void cpumgr_pod_put_all(struct cpumgr_pod *pod);

#endif /* _CPUMGR_TABLE_H */
