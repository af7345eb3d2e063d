// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of CPUs going offline, one entry each: one CPU (the online
 * file, hotplug/target, one SMT sibling after the other), and SMT control
 * taking every sibling at once.  They run in the probes' handlers
 * (cpumgr_probes.c), with preemption off, before the scheduler or cpusets
 * see the offline coming.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/rcupdate.h>
#include <linux/topology.h>

#include "cpumgr_check_offline.h"
#include "cpumgr_cpuset.h"
#include "cpumgr_offline.h"
#include "cpumgr_report.h"
#include "cpumgr_rules.h"
#include "cpumgr_view.h"

/**
 * cpumgr_check_offline - an offline of @cpu, but suspend's
 * @cpu: the CPU
 *
 * An assigned CPU may not go (protect mode), nor the last CPU of a
 * cpuset whose tasks would then fall back onto CPUs they may not hold;
 * in release mode that fallback is reported as an audited violation.
 * An offline let go is marked going down (cpumgr_offline.c) until the
 * probed function returns.
 *
 * Return: whether the offline is refused.
 */
bool cpumgr_check_offline(unsigned int cpu)
{
	bool protect, refuse = false;
	const struct cpumgr_view *view;
	struct cpumgr_scratch *s;
	struct cgroup *victim;
	struct cpumask *bad;

	rcu_read_lock();
	view = cpumgr_view_get();
	protect = view->hotplug == CPUMGR_HOTPLUG_PROTECT;
	if (cpu >= nr_cpu_ids)
		goto out;
	/* assigned or being assigned (protect mode), else going down */
	if (!cpumgr_offline_begin(cpu))
		goto refuse;
	if (!cpumgr_rules_active(view))
		goto out;
	s = cpumgr_scratch_get();
	bad = cpumgr_scratch_mask(s, CPUMGR_BAD);
	cpumask_clear(bad);
	victim = cpumgr_rules_check_offline(view, cpumgr_cpuset_top(), cpu,
					    bad, s);
	if (!victim)
		goto out;
	/* in protect mode the event is the refused offline's */
	cpumgr_report(view, CPUMGR_VIOLATION_INHERIT, protect, !protect,
		      victim, "cpu/online", bad, s);
	if (!protect)
		goto out;
refuse:
	cpumgr_offline_end();
	cpumgr_report_offline_refused(view, cpu);
	refuse = true;
out:
	rcu_read_unlock();
	return refuse;
}

/**
 * cpumgr_check_smt_off - SMT control taking siblings down
 * @ctrlval: the control value asked for (enum cpuhp_smt_control)
 *
 * "off" or "forceoff" takes every SMT sibling but the first of each core
 * down, one after the other.  Refused one CPU at a time, the siblings
 * before an assigned one would already be down when it is met: all of
 * them are checked first.  (A lower thread count, CPU_SMT_ENABLED here on
 * 6.6+, is left to the check of each CPU.)
 *
 * Return: whether it is refused.
 */
bool cpumgr_check_smt_off(int ctrlval)
{
	const struct cpumgr_view *view;
	bool refused = false;
	unsigned int cpu;

	rcu_read_lock();
	view = cpumgr_view_get();
	if (view->hotplug != CPUMGR_HOTPLUG_PROTECT ||
	    ctrlval == CPU_SMT_ENABLED)
		goto out;
	for_each_online_cpu(cpu) {
		if (cpu == cpumask_first(topology_sibling_cpumask(cpu)) ||
		    !cpumask_test_cpu(cpu, view->exclusive))
			continue;
		cpumgr_report_offline_refused(view, cpu);
		refused = true;
	}
out:
	rcu_read_unlock();
	return refused;
}
