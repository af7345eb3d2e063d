// SPDX-License-Identifier: GPL-2.0
/*
 * The calls this module makes of a function whose probe redirects it to
 * the checks: the write method of a cgroup file from
 * cpumgr_file_checked(), set_cpus_allowed_ptr() from the affinity check.
 * The probe must let such a call through, or the call comes back to the
 * checks (a cpuset.cpus write then waits for the in-flight slot it holds
 * itself, for ever).
 *
 * The return address cannot tell the probe: a kretprobe, the function
 * graph tracer or a BPF trampoline on the same function may have put its
 * own there before our handler looks (kprobes runs the handlers of one
 * address newest first).  So the caller says it: its task and the first
 * argument of its call, for as long as the call lasts.
 */
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/xarray.h>

#include "cpumgr_through.h"

/* A task's pid: the first argument of its call under way. */
static DEFINE_XARRAY(cpumgr_through_calls);

/*
 * Current's call with @arg first is to be let through until
 * cpumgr_through_end().  May sleep.  Return: 0, or -ENOMEM.
 */
int cpumgr_through_begin(const void *arg)
{
	return xa_err(xa_store(&cpumgr_through_calls, current->pid,
			       (void *)arg, GFP_KERNEL));
}

void cpumgr_through_end(void)
{
	xa_erase(&cpumgr_through_calls, current->pid);
}

/* Whether current's call with @arg first is one of ours: any context. */
bool cpumgr_through(const void *arg)
{
	return xa_load(&cpumgr_through_calls, current->pid) == arg;
}
