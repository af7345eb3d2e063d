/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_check_write.c: the checks of cgroup file writes. */
#ifndef _CPUMGR_CHECK_WRITE_H
#define _CPUMGR_CHECK_WRITE_H

#include <linux/kernfs.h>
#include <linux/types.h>

struct cpumgr_inflight_write;

bool cpumgr_check_cpus_write(struct kernfs_open_file *of, const char *buf,
			     struct cpumgr_inflight_write *w);
bool cpumgr_check_exclusive_write(struct kernfs_open_file *of,
				  const char *buf);
bool cpumgr_check_partition_write(struct kernfs_open_file *of,
				  const char *buf);
bool cpumgr_check_subtree_write(struct kernfs_open_file *of, const char *buf);

#endif /* _CPUMGR_CHECK_WRITE_H */
