/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The declarations ynl-gen-c.py generated from the YNL spec
 * (cpumgr_nl_gen.h: handlers, nested policy, split ops), on every kernel.
 * 6.1 has no split ops (6.2+): there the generated table is compiled as
 * plain ops nobody registers, and cpumgr_nl_ops_v61 (cpumgr_nl_ops.c),
 * written by hand around the generated policies, is registered instead.
 */
#ifndef _CPUMGR_NL_H
#define _CPUMGR_NL_H

#include <linux/version.h>
#include <net/genetlink.h>

#if KERNEL_VERSION(6, 2, 0) > LINUX_VERSION_CODE
#define CPUMGR_NL_SPLIT_OPS 0
#define genl_split_ops genl_ops
#else
#define CPUMGR_NL_SPLIT_OPS 1
#endif

#include "cpumgr_nl_gen.h"

/* The table the family registers. */
#if CPUMGR_NL_SPLIT_OPS
#define CPUMGR_NL_OPS cpumgr_nl_ops
#else
extern const struct genl_ops cpumgr_nl_ops_v61[9];
#define CPUMGR_NL_OPS cpumgr_nl_ops_v61
#endif

#endif /* _CPUMGR_NL_H */
