/* SPDX-License-Identifier: GPL-2.0 */
/* cpumgr_check_entry.c: the checks of tasks entering cgroups. */
#ifndef _CPUMGR_CHECK_ENTRY_H
#define _CPUMGR_CHECK_ENTRY_H

#include <linux/cgroup.h>
#include <linux/types.h>

bool cpumgr_check_attach(struct cgroup *dst);
bool cpumgr_check_clone3(struct css_set *cset);

#endif /* _CPUMGR_CHECK_ENTRY_H */
