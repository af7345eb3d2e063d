// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgr_blocker: a test module for selftests/robustness.sh.  It takes
 * one kernel function the way a livepatch does, with an ftrace_ops that
 * may modify the instruction pointer (FTRACE_OPS_FL_IPMODIFY), and does
 * nothing with it.  A function has one such owner at a time, so cpumgr's
 * kprobe on it, which needs the same right to refuse a call, cannot be
 * placed while this module is loaded: cpumgr must then refuse to load.
 *
 * (A second kprobe would not do: kprobes at one address are aggregated
 * behind one ftrace_ops, never refused.)
 *
 * Parameter: func, the function to take (default cpuset_write_resmask).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/string.h>

static char *func = "cpuset_write_resmask";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the kernel function to take");

static void notrace cpumgr_blocker_call(unsigned long ip,
					unsigned long parent_ip,
					struct ftrace_ops *op,
					struct ftrace_regs *fregs)
{
}

static struct ftrace_ops cpumgr_blocker_ops = {
	.func = cpumgr_blocker_call,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};

static int __init cpumgr_blocker_init(void)
{
	int err;

	err = ftrace_set_filter(&cpumgr_blocker_ops, (unsigned char *)func,
				strlen(func), 0);
	if (err) {
		pr_err("%s cannot be traced (%d)\n", func, err);
		return err;
	}
	err = register_ftrace_function(&cpumgr_blocker_ops);
	if (err) {
		pr_err("cannot take %s (%d)\n", func, err);
		ftrace_free_filter(&cpumgr_blocker_ops);
		return err;
	}
	pr_info("%s taken\n", func);
	return 0;
}

static void __exit cpumgr_blocker_exit(void)
{
	unregister_ftrace_function(&cpumgr_blocker_ops);
	ftrace_free_filter(&cpumgr_blocker_ops);
}

module_init(cpumgr_blocker_init);
module_exit(cpumgr_blocker_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Takes a kernel function like a livepatch, to test cpumgr's refusal to load");
