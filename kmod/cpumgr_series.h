/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel series cpumgr knows, as data: for each, what it reads of the
 * kernel's private struct cpuset, the functions it probes and where their
 * arguments are, and how cpusets behave there.  cpumgr_series.c holds the
 * table; a kernel of another series is refused at load.
 */
#ifndef _CPUMGR_SERIES_H
#define _CPUMGR_SERIES_H

#include <linux/types.h>

/* The probed functions, in cpumgr_probes.c's order. */
enum cpumgr_hook {
	CPUMGR_HOOK_WRITE,	/* cpuset.cpus(.exclusive), v1 and v2 */
	CPUMGR_HOOK_PARTITION,	/* cpuset.cpus.partition */
	CPUMGR_HOOK_SUBTREE,	/* cgroup.subtree_control */
	CPUMGR_HOOK_ATTACH,	/* cgroup.procs, cgroup.threads, tasks */
	CPUMGR_HOOK_FORK,	/* clone3(CLONE_INTO_CGROUP) */
	CPUMGR_HOOK_OFFLINE,	/* a CPU going offline */
	CPUMGR_HOOK_SMT_OFF,	/* smt/control off */
	CPUMGR_HOOK_FORK_END,	/* a clone3 into a cgroup done */
	CPUMGR_HOOK_FORK_CANCEL,	/* or failed */
	CPUMGR_HOOK_AFFINITY,	/* a task's CPUs set by the kernel */
	CPUMGR_HOOK_RMDIR,	/* a cgroup removed */
	CPUMGR_NR_HOOKS,
};

/* The arguments a probe reads, by name. */
enum cpumgr_arg {
	CPUMGR_ARG_CGROUP,	/* the destination struct cgroup * */
	CPUMGR_ARG_CSET,	/* the child's struct css_set * */
	CPUMGR_ARG_CPU,		/* unsigned int */
	CPUMGR_ARG_CTRLVAL,	/* enum cpuhp_smt_control */
	CPUMGR_ARG_FROZEN,	/* int tasks_frozen: a suspend's offline */
	CPUMGR_ARG_TASK,	/* struct task_struct * */
	CPUMGR_ARG_MASK,	/* const struct cpumask * */
	CPUMGR_ARG_KN,		/* the struct kernfs_node * of a directory */
	CPUMGR_NR_ARGS,
};

/*
 * A probed function: its symbol and, for each argument a probe reads,
 * its position in the C calling convention (regs_get_kernel_argument()),
 * plus one; 0 where the function has no such argument.
 */
struct cpumgr_site {
	const char *symbol;
	u8 arg[CPUMGR_NR_ARGS];
};

/*
 * Where kprobes are disarmed, one ftrace-based kprobe (struct kprobe *,
 * argument @kprobe_arg) at a time: the first of @symbols the kernel has
 * out of line (which of the two the compiler inlines into the other
 * differs within a series).
 */
struct cpumgr_disarm_site {
	const char *symbols[2];
	u8 kprobe_arg;
};

/* Where the v1 cpuset hierarchy comes from. */
enum cpumgr_v1 {
	CPUMGR_V1_BUILTIN,	/* always there with CONFIG_CPUSETS */
	CPUMGR_V1_CONFIG,	/* CONFIG_CPUSETS_V1 (Debian: off) */
};

struct cpumgr_series {
	const char *name;	/* "6.12" */
	unsigned int code;	/* KERNEL_VERSION(x, y, 0) >> 8 */
	/*
	 * The head of struct cpuset read (cpumgr_cpuset.c's struct
	 * cpumgr_cpuset_head): the same css, flags, cpus_allowed,
	 * mems_allowed, effective_cpus in every series so far.  The flags
	 * the top cpuset always has (and what they are called there) check
	 * it at load.
	 */
	unsigned long top_flags;
	const char *top_flags_names;
	struct cpumgr_site site[CPUMGR_NR_HOOKS];
	/* watched, not enforced (cpumgr_armed_watch.c) */
	struct cpumgr_disarm_site disarm;
	enum cpumgr_v1 v1;
	/*
	 * What partitions do there, for the log line at load: the states a
	 * partition may take, whether cpuset.cpus.exclusive exists and how
	 * it relates to cpuset.cpus, and what a conflict between siblings
	 * does (the partition becomes invalid, or loses the CPUs).
	 */
	const char *partitions;
	/*
	 * How partitions behave where the checks model them
	 * (cpumgr_check_partition.c): an invalid root written "root" or
	 * "isolated" stays invalid (6.1; later series try it anew), and a
	 * cpuset.cpus write that overlaps a sibling partition's CPUs
	 * makes that partition invalid (6.1, 6.12; 7.3 leaves it); a
	 * partition root's cpuset.cpus.exclusive emptied makes it invalid
	 * (6.12; 7.3 has it hold its cpuset.cpus instead).
	 */
	bool invalid_root_stays;
	bool conflicts_invalidate;
	bool exclusive_empty_invalidates;
	/*
	 * A cgroup2 cpuset with tasks whose cpuset.cpus is written empty:
	 * the kernel answers ENOSPC (6.1, 6.12), or lets it inherit its
	 * parent's CPUs (7.3).
	 */
	bool populated_empty_refused;
	/*
	 * An isolated remote partition that grows on a nohz_full kernel
	 * must leave a housekeeping CPU outside the isolated ones, or it
	 * turns invalid (7.3's isolated_cpus_can_update(); 6.12 has no
	 * such check).
	 */
	bool isolated_grows_need_noise_hk;
	/*
	 * cgroup_path() takes kernfs' rename lock (6.1, 6.12), a sleeping
	 * lock on PREEMPT_RT; 7.3 reads a cgroup's path under RCU.
	 */
	bool path_takes_lock;
};

/* The series of the kernel this module was built for; NULL when unknown. */
extern const struct cpumgr_series *cpumgr_series;
int cpumgr_series_init(void);

#endif /* _CPUMGR_SERIES_H */
