/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_pods.c: pods and containers, the table's objects, in sysfs. */
#ifndef _CPUMGR_PODS_H
#define _CPUMGR_PODS_H

#include <linux/cpumask.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/types.h>
#include <uapi/linux/cpumgr.h>

#include "cpumgr_cgroup.h"

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

/*
 * A pod: its containers, its pool (KEP-5526: empty for most pods) and the
 * union of both's CPUs; pods/<uid>.
 */
struct cpumgr_pod {
	struct list_head node;		/* in the table's pod list */
	struct list_head containers;
	char uid[CPUMGR_POD_UID_MAX + 1];
	cpumask_var_t cpus;		/* the containers' and the pool's */
	cpumask_var_t pool;
	struct cpumgr_cgroup_ref cgroup;
	struct kobject kobj;
	bool mark;			/* for multi-pass changes, under the table lock */
};

/* pods/ in the module's directory, and gone. */
int cpumgr_pods_init(struct kobject *parent);
void cpumgr_pods_exit(void);

/* Made, not yet in the table or in sysfs; freed by their last put. */
struct cpumgr_pod *cpumgr_pod_alloc(const char *uid);
struct cpumgr_container *cpumgr_container_alloc(const char *name);
int cpumgr_pod_add(struct cpumgr_pod *pod);
int cpumgr_container_add(struct cpumgr_container *c);
/* Out of sysfs now, whoever else holds a reference; the table's put. */
void cpumgr_pod_put(struct cpumgr_pod *pod);
void cpumgr_container_put(struct cpumgr_container *c);

unsigned int cpumgr_pod_nr_containers(const struct cpumgr_pod *pod);
struct cpumgr_container *cpumgr_pod_find(struct cpumgr_pod *pod,
					 const char *name);
void cpumgr_pod_update_cpus(struct cpumgr_pod *pod);
/* Set the pod's pool, under the lock its file's readers take. */
void cpumgr_pod_set_pool(struct cpumgr_pod *pod, const struct cpumask *pool);
/* What the files show, changed under the lock their readers take. */
void cpumgr_container_set(struct cpumgr_container *c,
			  const struct cpumask *cpus, u32 flags);
void cpumgr_container_decide(struct cpumgr_container *c,
			     const struct cpumask *cpus, u32 flags);
void cpumgr_cgroup_swap(struct cpumgr_cgroup_ref *bound,
			struct cpumgr_cgroup_ref *ref);
void cpumgr_cgroup_ref_path(const struct cpumgr_cgroup_ref *ref, char *buf,
			    size_t size);
void cpumgr_cgroup_ref_live_path(const struct cpumgr_cgroup_ref *ref,
				 char *buf, size_t size);
/* A path as a sysfs file shows it: escaped, a newline after it. */
ssize_t cpumgr_path_show(char *buf, const char *path);

#endif /* _CPUMGR_PODS_H */
