/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgr: the node's authoritative table of exclusively assigned CPUs.
 * What the files of the module share: its version, the one architecture
 * it supports, and extack messages with details.  Each file's own
 * interface is in its header (cpumgr_<file>.h).
 */
#ifndef _CPUMGR_H
#define _CPUMGR_H

#include <linux/build_bug.h>
#include <linux/netlink.h>
#include <linux/stringify.h>
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
 * A system cgroup (KEP-5894) that a pod or one of its containers is
 * bound at, below or above.  The pod UID is cut to what fits the
 * kernel's 80-byte formatted message: a Kubernetes UID (36 characters)
 * fits whole.
 */
#define CPUMGR_SYSTEM_MSG "system pods never get exclusive CPUs"
#ifdef NL_SET_ERR_MSG_FMT
#define CPUMGR_SYSTEM_UID_FIT						\
	((int)(NETLINK_MAX_FMTMSG_LEN - sizeof(CPUMGR_SYSTEM_MSG ": pod ")))
static_assert(CPUMGR_SYSTEM_UID_FIT >= 36);
#define CPUMGR_ERR_SYSTEM(extack, attr, uid)				\
	NL_SET_ERR_MSG_ATTR_POL_FMT(extack, attr, NULL,			\
				    CPUMGR_SYSTEM_MSG ": pod %.*s",	\
				    CPUMGR_SYSTEM_UID_FIT, uid)
#else
#define CPUMGR_ERR_SYSTEM(extack, attr, uid)				\
	NL_SET_ERR_MSG_ATTR(extack, attr,				\
			    "a pod is bound at, below or above the system cgroup: " \
			    CPUMGR_SYSTEM_MSG)
#endif

/* A container more than a pod may have in the table. */
#define cpumgr_pod_too_many(extack, attr)					\
	NL_SET_ERR_MSG_ATTR(extack, attr, "pod has "			\
			    __stringify(CPUMGR_POD_CONTAINERS_MAX)		\
			    " containers, the most the table keeps")

#endif /* _CPUMGR_H */
