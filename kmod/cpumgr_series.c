// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel series cpumgr was written for, read from each series'
 * kernel/cgroup/cpuset*.[ch], kernel/cgroup/cgroup.c and kernel/cpu.c
 * (Debian's linux-source-6.1, -6.12 and -7.3) and tested in its guests.
 * Another series builds, but is refused at load: its struct cpuset and
 * the functions probed have to be read first, and a row added here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/utsname.h>
#include <linux/version.h>

#include "cpumgr_series.h"

#define CPUMGR_SERIES_CODE(x, y) (KERNEL_VERSION(x, y, 0) >> 8)

/*
 * The selftests build a module that takes itself for another series
 * (CPUMGR_PRETEND_SERIES=x.y, a make variable) to see it refused.
 */
#ifdef CPUMGR_PRETEND_MAJOR
#define CPUMGR_BUILT_FOR \
	CPUMGR_SERIES_CODE(CPUMGR_PRETEND_MAJOR, CPUMGR_PRETEND_MINOR)
#else
#define CPUMGR_BUILT_FOR (LINUX_VERSION_CODE >> 8)
#endif

/* Argument positions (plus one, see struct cpumgr_site). */
#define CPUMGR_AT(n) ((n) + 1)

/*
 * Functions whose name and arguments are the same in every series.  The
 * writers of cgroup files (cpuset_write_resmask(), the partition file's,
 * cgroup_subtree_control_write()) are redirected with their arguments as
 * they are, a cftype's write method's: the hooks read none of them.
 */
#define CPUMGR_SITE_WRITE	{ "cpuset_write_resmask" }
#define CPUMGR_SITE_SUBTREE	{ "cgroup_subtree_control_write" }
#define CPUMGR_SITE_ATTACH	{ "cgroup_attach_task",			\
	.arg = { [CPUMGR_ARG_CGROUP] = CPUMGR_AT(0) } }
#define CPUMGR_SITE_FORK	{ "cpuset_can_fork",			\
	.arg = { [CPUMGR_ARG_CSET] = CPUMGR_AT(1) } }
#define CPUMGR_SITE_OFFLINE	{ "cpu_down_maps_locked",		\
	.arg = { [CPUMGR_ARG_CPU] = CPUMGR_AT(0) } }
/*
 * 7.3 inlines cpu_down_maps_locked() into its three callers: the offline
 * is probed one call further, in _cpu_down(cpu, tasks_frozen, target),
 * which suspend calls too, with tasks_frozen set.
 */
#define CPUMGR_SITE_CPU_DOWN	{ "_cpu_down",				\
	.arg = { [CPUMGR_ARG_CPU] = CPUMGR_AT(0),			\
		 [CPUMGR_ARG_FROZEN] = CPUMGR_AT(1) } }
#define CPUMGR_SITE_SMT_OFF	{ "cpuhp_smt_disable",			\
	.arg = { [CPUMGR_ARG_CTRLVAL] = CPUMGR_AT(0) } }
#define CPUMGR_SITE_PARTITION(sym) { sym }
/* cpuset's fork callbacks, which end a clone3 into a cgroup */
#define CPUMGR_SITE_FORK_END	{ "cpuset_fork" }
#define CPUMGR_SITE_FORK_CANCEL	{ "cpuset_cancel_fork" }
/*
 * set_cpus_allowed_ptr(p, new_mask): how the kernel sets the CPUs of the
 * threads it makes for a task (io_uring's SQPOLL thread and io-wq
 * workers, a kthread vhost worker re-affined by 7.x's housekeeping), and
 * how cpuset moves tasks onto its CPUs.
 */
#define CPUMGR_SITE_AFFINITY	{ "set_cpus_allowed_ptr",		\
	.arg = { [CPUMGR_ARG_TASK] = CPUMGR_AT(0),			\
		 [CPUMGR_ARG_MASK] = CPUMGR_AT(1) } }
/*
 * disarm_kprobe_ftrace(p) and __disarm_kprobe_ftrace(p, ops, cnt): every
 * ftrace-based kprobe (all of cpumgr's) disarmed, by disarm_all_kprobes()
 * (kprobes/enabled=0; it and arm_all_kprobes() are inlined into the
 * file's writer in every series) or when one is unregistered.  Debian's
 * 6.1 and the debug kernel (7.3, gcc-12) keep the second out of line,
 * Debian's 7.3 (gcc-14) the first.
 */
#define CPUMGR_SITE_DISARM {						\
	.symbols = { "__disarm_kprobe_ftrace", "disarm_kprobe_ftrace" },	\
	.kprobe_arg = CPUMGR_AT(0) }
/* rmdir of a cgroup, which dissolves a partition there */
#define CPUMGR_SITE_RMDIR	{ "cgroup_rmdir",			\
	.arg = { [CPUMGR_ARG_KN] = CPUMGR_AT(0) } }

/*
 * A series' sites: what differs is the partition file's writer, and
 * where the offline is probed.
 */
#define CPUMGR_SITES(partition, offline) {				\
	[CPUMGR_HOOK_WRITE] = CPUMGR_SITE_WRITE,			\
	[CPUMGR_HOOK_PARTITION] = CPUMGR_SITE_PARTITION(partition),	\
	[CPUMGR_HOOK_SUBTREE] = CPUMGR_SITE_SUBTREE,			\
	[CPUMGR_HOOK_ATTACH] = CPUMGR_SITE_ATTACH,			\
	[CPUMGR_HOOK_FORK] = CPUMGR_SITE_FORK,				\
	[CPUMGR_HOOK_OFFLINE] = offline,				\
	[CPUMGR_HOOK_SMT_OFF] = CPUMGR_SITE_SMT_OFF,			\
	[CPUMGR_HOOK_FORK_END] = CPUMGR_SITE_FORK_END,			\
	[CPUMGR_HOOK_FORK_CANCEL] = CPUMGR_SITE_FORK_CANCEL,		\
	[CPUMGR_HOOK_AFFINITY] = CPUMGR_SITE_AFFINITY,			\
	[CPUMGR_HOOK_RMDIR] = CPUMGR_SITE_RMDIR,			\
}

static const struct cpumgr_series cpumgr_series_table[] = {
	{
		.name = "6.1",
		.code = CPUMGR_SERIES_CODE(6, 1),
		/* CS_ONLINE, CS_CPU_EXCLUSIVE, CS_MEM_EXCLUSIVE */
		.top_flags = BIT(0) | BIT(1) | BIT(2),
		.top_flags_names = "online, cpu_exclusive, mem_exclusive",
		.site = CPUMGR_SITES("sched_partition_write", CPUMGR_SITE_OFFLINE),
		.disarm = CPUMGR_SITE_DISARM,
		.v1 = CPUMGR_V1_BUILTIN,
		.partitions = "root, isolated; no cpus.exclusive; conflicts invalidate",
		.invalid_root_stays = true,
		.conflicts_invalidate = true,
		.populated_empty_refused = true,
		.path_takes_lock = true,
	},
	{
		.name = "6.12",
		.code = CPUMGR_SERIES_CODE(6, 12),
		.top_flags = BIT(0) | BIT(1) | BIT(2),
		.top_flags_names = "online, cpu_exclusive, mem_exclusive",
		.site = CPUMGR_SITES("sched_partition_write", CPUMGR_SITE_OFFLINE),
		.disarm = CPUMGR_SITE_DISARM,
		.v1 = CPUMGR_V1_CONFIG,
		.partitions =
			"root, isolated, remote; exclusive within cpus; conflicts invalidate",
		.conflicts_invalidate = true,
		.exclusive_empty_invalidates = true,
		.populated_empty_refused = true,
		.path_takes_lock = true,
	},
	{
		.name = "7.3",
		.code = CPUMGR_SERIES_CODE(7, 3),
		/* CS_ONLINE is gone: CS_CPU_EXCLUSIVE, CS_MEM_EXCLUSIVE */
		.top_flags = BIT(0) | BIT(1),
		.top_flags_names = "cpu_exclusive, mem_exclusive",
		.site = CPUMGR_SITES("cpuset_partition_write", CPUMGR_SITE_CPU_DOWN),
		.disarm = CPUMGR_SITE_DISARM,
		.v1 = CPUMGR_V1_CONFIG,
		.partitions =
			"root, isolated, remote; exclusive apart from cpus; conflicts take CPUs",
		.isolated_grows_need_noise_hk = true,
	},
};

const struct cpumgr_series *cpumgr_series;

/* The series this module was built for, or one line saying why not. */
int cpumgr_series_init(void)
{
	char known[32] = "";
	unsigned int i;
	size_t len = 0;

	for (i = 0; i < ARRAY_SIZE(cpumgr_series_table); i++) {
		if (cpumgr_series_table[i].code == CPUMGR_BUILT_FOR)
			break;
		len += scnprintf(known + len, sizeof(known) - len, "%s%s",
				 i ? ", " : "", cpumgr_series_table[i].name);
	}
	if (i == ARRAY_SIZE(cpumgr_series_table)) {
		pr_err("kernel %s is series %u.%u, which cpumgr does not know (it knows %s): its struct cpuset and the functions it probes are unread, refusing to load\n",
		       init_utsname()->release, CPUMGR_BUILT_FOR >> 8,
		       CPUMGR_BUILT_FOR & 0xff, known);
		return -ENOEXEC;
	}
	cpumgr_series = &cpumgr_series_table[i];
	pr_info("kernel series %s: cgroup v1 cpusets %s; partitions %s\n",
		cpumgr_series->name,
		cpumgr_series->v1 == CPUMGR_V1_BUILTIN ? "built in" :
		IS_ENABLED(CONFIG_CPUSETS_V1) ? "on (CONFIG_CPUSETS_V1)" :
		"off (no CONFIG_CPUSETS_V1)",
		cpumgr_series->partitions);
	return 0;
}
