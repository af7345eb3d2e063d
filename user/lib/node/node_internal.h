/* SPDX-License-Identifier: GPL-2.0 */
/* What the node_*.c files share and the commands do not need. */
#ifndef CPUMGR_NODE_INTERNAL_H
#define CPUMGR_NODE_INTERNAL_H

#include "node.h"

/* Write cpuset.cpus / the CFS limits when they differ; *changed says. */
int node_set_cpuset(struct node *n, const char *name,
		    const struct cpuset *want, bool *changed,
		    struct cm_error *err);
int node_set_cfs(struct node *n, const char *name, const struct cfs_limits *l,
		 bool *changed, struct cm_error *err);
/*
 * Empty cpuset.cpus (its parent's CPUs) unless it is already; pool where
 * the kernel keeps a cgroup with tasks from it (before Linux 7.0).
 */
int node_set_cpuset_inherit(struct node *n, const char *name,
			    const struct cpuset *pool, bool *changed,
			    struct cm_error *err);

/*
 * Container k of p asks for a CPU request and a limit (millicores, 0:
 * none) in its Pod object from now on: the pod file rewritten with it
 * (atomically), then the record.  On failure p is as it was.
 */
int node_pod_set_cpu(struct node *n, struct node_pod *p, unsigned int k,
		     int64_t request_milli, int64_t limit_milli,
		     struct cm_error *err);

/* A container of the pod holds exclusive CPUs. */
bool node_pod_exclusive(const struct node *n, const struct node_pod *p);
/*
 * The CPUs container k of p runs on: its own, or node_pod_shared_cpus().
 */
void node_container_cpus(const struct node *n, const struct node_pod *p,
			 unsigned int k, struct cpuset *out, bool *exclusive);
/*
 * Give attached container k (or the pod cgroup) its cpuset and CFS
 * limits; one log line per change (every value when verbose).  Returns
 * the number of changes or -errno.
 */
int node_apply_container(struct node *n, const struct node_pod *p,
			 unsigned int k, bool verbose, struct cm_error *err);
int node_apply_pod(struct node *n, const struct node_pod *p, bool verbose,
		   struct cm_error *err);

/*
 * What node_reconcile() does for one pod: its attached containers'
 * cgroups (those not gone) and its pod cgroup.  Returns the number of
 * changes or -errno.
 */
int node_reconcile_one(struct node *n, const struct node_pod *p,
		       struct cm_error *err);

/*
 * Container k's partition undone while it still holds its CPUs (the
 * kernel allows a partition on them only then): at its release, and
 * when it ran to its end keeping them (its cgroup may outlive it).  A
 * failure is logged.
 */
void node_unpartition(struct node *n, const struct node_pod *p,
		      unsigned int k);

/*
 * Try t of a change made against the kernel's table and retried while
 * the table moves under it (-ESTALE): the node read again (after the
 * first try), its policy, and a copy of its state in *st (assignments_free()
 * it) to decide on.  -errno with the message in err, *st freed.
 */
int node_try_state(struct node *n, int t, struct cpu_assignments *st,
		   struct cm_error *err);

/*
 * A change this process made expecting generation expect, which the
 * kernel took as generation now (see node.kernel.cpus_generation).
 */
void node_own_change(struct node *n, uint64_t expect, uint64_t now);
/*
 * node_kernel.c: ASSIGN a pod's pool (cpumgr_nl_assign_pool()); with a
 * module older than pools, or where partitions move the pool, logged
 * and left to the checkpoint (0).
 */
int node_assign_pool(struct node *n, const char *uid,
		     const struct cpuset *pool, const uint64_t *expect,
		     uint64_t *gen);

/*
 * node_reconcile.c: whether other cgroups can let go of CPUs before an
 * ASSIGN for the kernel to check it: not with --pool-moves partitions,
 * on v1, or with the hierarchy's root managed.
 */
bool node_narrows_first(const struct node *n);
/*
 * node_reconcile.c: before an ASSIGN gives container CPUs it does not hold
 * (held: what it holds, NULL none), they leave every other cgroup but
 * those at or above below (NULL, or a pod the kernel has no cgroup of:
 * none keep them), and *flags gets CPUMGR_NL_ASSIGN_NARROWED for the
 * kernel to check that they did (not when a cgroup could not be
 * written: logged); *gen follows a rebind that moved no CPU.
 * node_withhold_end() after the ASSIGN, given or not (not: the others
 * get them back).
 */
void node_withhold(struct node *n, const char *uid, const struct cpuset *cpus,
		   const struct cpuset *held, const char *below,
		   uint32_t *flags, uint64_t *gen);
void node_withhold_end(struct node *n, const char *uid, bool given);
/*
 * node_kernel.c: cpumgr_nl_assign() for the node, reply not kept: with
 * CPUMGR_NL_ASSIGN_NARROWED and a module that predates it, again
 * without (logged).
 */
int node_assign(struct node *n, const char *uid, const char *name,
		const char *cpus, uint32_t flags, const uint64_t *expect,
		uint64_t *gen);

/* Whether a cgroup name is one of the kubelet's QoS cgroups (node_narrow.c). */
bool node_qos_cgroup(const char *base);

#endif
