// SPDX-License-Identifier: GPL-2.0
/*
 * An offline in flight against a writer about to take its CPU.
 *
 * The offline probe (cpu_down_maps_locked(), or _cpu_down() where that
 * is inlined: cpumgr_check_offline.c) checks the CPU long before the offline
 * takes the CPU hotplug lock; a writer of the table (ASSIGN, RESTORE),
 * which holds that lock's read side, can commit the CPU in between, and
 * the offline then takes it out of the new assignment.  So both sides
 * meet under one spinlock: the probe refuses (protect mode) a CPU that
 * is assigned or that a writer has claimed, and otherwise marks it as
 * going down until the probed function returns; a writer refuses a CPU
 * marked so and claims the others until it unlocks the table.  Offlines are serialized
 * (cpu_add_remove_lock): at most one CPU is going down at a time.
 */
#include <linux/cpumask.h>
#include <linux/spinlock.h>

#include "cpumgr_offline.h"
#include "cpumgr_view.h"

static DEFINE_RAW_SPINLOCK(cpumgr_offline_lock);
/* UINT_MAX: none */
static unsigned int cpumgr_going_down = UINT_MAX;
/* the CPUs the table's writer checked, under the table lock */
static struct cpumask cpumgr_claimed;

/*
 * cpumgr_offline_begin - check an offline of @cpu and mark it going down
 *
 * Returns false, with nothing marked, when protect mode refuses it: the
 * CPU is assigned in the view, or claimed by a writer.
 */
bool cpumgr_offline_begin(unsigned int cpu)
{
	const struct cpumgr_view *view;
	unsigned long flags;
	bool ok = true;

	raw_spin_lock_irqsave(&cpumgr_offline_lock, flags);
	/* Read under the lock: a writer publishes before it unclaims. */
	view = cpumgr_view_get();
	if (view->hotplug == CPUMGR_HOTPLUG_PROTECT &&
	    (cpumask_test_cpu(cpu, view->exclusive) ||
	     cpumask_test_cpu(cpu, &cpumgr_claimed)))
		ok = false;
	else
		cpumgr_going_down = cpu;
	raw_spin_unlock_irqrestore(&cpumgr_offline_lock, flags);
	return ok;
}

/* The offline returned (done, failed or refused later). */
void cpumgr_offline_end(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_offline_lock, flags);
	cpumgr_going_down = UINT_MAX;
	raw_spin_unlock_irqrestore(&cpumgr_offline_lock, flags);
}

/*
 * cpumgr_offline_claim - claim @cpus for the table's writer
 *
 * Returns the CPU of @cpus going down, or nr_cpu_ids when none is and
 * every CPU of @cpus is claimed until cpumgr_offline_unclaim().
 */
unsigned int cpumgr_offline_claim(const struct cpumask *cpus)
{
	unsigned int cpu = nr_cpu_ids;
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_offline_lock, flags);
	if (cpumgr_going_down < nr_cpu_ids &&
	    cpumask_test_cpu(cpumgr_going_down, cpus))
		cpu = cpumgr_going_down;
	else
		cpumask_or(&cpumgr_claimed, &cpumgr_claimed, cpus);
	raw_spin_unlock_irqrestore(&cpumgr_offline_lock, flags);
	return cpu;
}

/* The writer committed (its CPUs are in the view) or gave up. */
void cpumgr_offline_unclaim(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_offline_lock, flags);
	cpumask_clear(&cpumgr_claimed);
	raw_spin_unlock_irqrestore(&cpumgr_offline_lock, flags);
}
