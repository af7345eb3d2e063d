/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_check_partition.c: what writes and removals do to partitions. */
#ifndef _CPUMGR_CHECK_PARTITION_H
#define _CPUMGR_CHECK_PARTITION_H

#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/kernfs.h>
#include <uapi/linux/cpumgr.h>

struct cpumgr_scratch;
struct cpumgr_view;

bool cpumgr_check_part_state(const struct cpumgr_view *view,
			     struct cgroup_subsys_state *css, const char *buf,
			     enum cpumgr_violation *kind, struct cpumask *bad,
			     struct cpumgr_scratch *s);
bool cpumgr_check_part_cpus(const struct cpumgr_view *view,
			    struct cgroup_subsys_state *css,
			    const struct cpumask *arg,
			    enum cpumgr_violation *kind, struct cpumask *bad,
			    struct cpumgr_scratch *s);
void cpumgr_check_part_cpus_eff(struct cgroup_subsys_state *css,
				const struct cpumask *arg, struct cpumask *eff,
				struct cpumgr_scratch *s);
bool cpumgr_check_part_exclusive(const struct cpumgr_view *view,
				 struct cgroup_subsys_state *css,
				 const struct cpumask *arg,
				 enum cpumgr_violation *kind,
				 struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_check_part_keep(const struct cpumgr_view *view,
			    struct cgroup_subsys_state *css,
			    const struct cpumask *eff, struct cpumask *bad,
			    struct cpumgr_scratch *s);
bool cpumgr_check_part_children(const struct cpumgr_view *view,
				struct cgroup_subsys_state *css,
				struct cpumask *eff,
				enum cpumgr_violation *kind,
				struct cpumask *bad, struct cpumgr_scratch *s);
bool cpumgr_check_rmdir(struct kernfs_node *kn);

#endif /* _CPUMGR_CHECK_PARTITION_H */
