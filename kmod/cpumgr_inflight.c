// SPDX-License-Identifier: GPL-2.0
/*
 * Task entries and cpuset.cpus writes in flight, against each other.
 *
 * A cgroup2 cpuset.cpus write is checked (cpumgr_check_write.c) before
 * cpuset_write_resmask() commits it, and a task entering a cgroup
 * (cgroup_attach_task(), or clone3(CLONE_INTO_CGROUP) at
 * cpuset_can_fork(); cpumgr_check_entry.c) before the kernel moves it.
 * Between check and commit the other side may come: a write that widens
 * a parent's CPUs walks its children while a task is on its way into an
 * empty one, or a task is checked against the CPUs a parent has just
 * before a write gives it others.  Either way the task ends up
 * inheriting CPUs it may not hold.  The kernel serializes task entries
 * with cgroup_mutex, which a module cannot take (it is not exported),
 * and a cpuset write may not hold it (6.1 flushes the hotplug work
 * there, which takes it).
 *
 * So the two sides meet under one raw spinlock.  A write registers its
 * cpuset and the effective CPUs it will give it before it reads the
 * table (whatever the table holds: an ASSIGN may publish one before the
 * write lands), and reads which task entry is under way: the walk
 * counts that one's destination as populated.  It also copies the other
 * writes under way on cpusets above and below its own: its walk takes
 * what those below will name, and walks again with what each above will
 * give.  A task entry registers its destination and checks it against
 * every write under way above it, as the walk would, before it reads
 * the CPUs its cpuset has now.  Whichever comes second sees the other
 * when both read the same table (writes are checked in pairs: with three
 * or more under way on one branch, each pair is).  An entry reads the
 * table before it registers: with an ASSIGN published between its read
 * and a write's, a write registered before the entry does not count it,
 * and the entry checks the write against the table before the ASSIGN
 * (open: each side should take what it sees of the other after it has
 * read the table).  A write stays registered until the kernel returns
 * from it, an entry until its task is in the cgroup (or the entry
 * failed).
 * Entries are serialized by cgroup_mutex: one is under way at most.
 * Writes are not: CPUMGR_INFLIGHT_WRITES at a time, the others wait for
 * a slot, so that the entry's check, with preemption off, stays short.
 * The checks against the rules are the callers': an entry's runs under
 * the lock, for each write under way (cpumgr_inflight_enter()).
 *
 * Every cgroup file write checked, cpuset.cpus or another, is under way
 * here too until the kernel returns from it (cpumgr_writes), for the
 * changes of the table to wait for.
 */
#include <linux/bitmap.h>
#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>

#include "cpumgr_cpuset.h"
#include "cpumgr_inflight.h"

static DEFINE_RAW_SPINLOCK(cpumgr_inflight_lock);
static struct semaphore cpumgr_inflight_slots =
	__SEMAPHORE_INITIALIZER(cpumgr_inflight_slots, CPUMGR_INFLIGHT_WRITES);
static DECLARE_BITMAP(cpumgr_inflight_used, CPUMGR_INFLIGHT_WRITES);
static struct cpumgr_inflight_write cpumgr_inflight_writes[CPUMGR_INFLIGHT_WRITES];
/* the task entry under way: references held on both */
static struct cpumgr_inflight_entry cpumgr_inflight_entry;
static struct task_struct *cpumgr_inflight_task;

/*
 * cpumgr_inflight_write_get - a slot for a cpuset.cpus write
 *
 * Sleeps while CPUMGR_INFLIGHT_WRITES writes hold one.  Return: the
 * slot, or ERR_PTR(-EINTR) when the writer was killed meanwhile.
 */
struct cpumgr_inflight_write *cpumgr_inflight_write_get(void)
{
	unsigned long flags;
	unsigned int i;

	if (down_killable(&cpumgr_inflight_slots))
		return ERR_PTR(-EINTR);
	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	i = find_first_zero_bit(cpumgr_inflight_used, CPUMGR_INFLIGHT_WRITES);
	__set_bit(i, cpumgr_inflight_used);
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	return &cpumgr_inflight_writes[i];
}

/* @x is a write under way on a cpuset strictly above @css, or below. */
bool cpumgr_inflight_above(const struct cpumgr_inflight_write *x,
			   struct cgroup_subsys_state *css)
{
	return x->css != css && cgroup_is_descendant(css->cgroup, x->css->cgroup);
}

/*
 * cpumgr_inflight_write_begin - a cgroup2 cpuset.cpus write is under way
 * @w: its slot
 * @css: the cgroup2 cpuset written
 * @eff: the effective CPUs the write gives it
 * @own: the CPUs it names
 * @entry: where the task entry under way goes (its css NULL when none)
 *
 * The caller is in an RCU read-side section, which keeps @entry's
 * cgroups, and those of the writes copied, as long as it lasts.
 */
void cpumgr_inflight_write_begin(struct cpumgr_inflight_write *w,
				 struct cgroup_subsys_state *css,
				 const struct cpumask *eff,
				 const struct cpumask *own,
				 struct cpumgr_inflight_entry *entry)
{
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	cpumask_copy(w->eff, eff);
	cpumask_copy(w->own, own);
	w->css = css;
	w->nr_above = 0;
	w->nr_below = 0;
	for (i = 0; i < CPUMGR_INFLIGHT_WRITES; i++) {
		const struct cpumgr_inflight_write *x =
			&cpumgr_inflight_writes[i];

		if (x == w || !x->css)
			continue;
		if (cpumgr_inflight_above(x, css)) {
			w->above[w->nr_above] = x->css;
			cpumask_copy(w->above_eff[w->nr_above++], x->eff);
		} else if (cpumgr_inflight_above(w, x->css)) {
			w->below[w->nr_below] = x->css;
			cpumask_copy(w->below_own[w->nr_below++], x->own);
		}
	}
	*entry = cpumgr_inflight_entry;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
}

/**
 * cpumgr_inflight_allowed - what a cpuset names, for a write's walk
 * @w: the write walking, or NULL
 * @css: a cpuset below the one @w writes
 *
 * What a write under way below @w's cpuset, copied at @w's start, will
 * make @css name; else what it names now.
 */
const struct cpumask *
cpumgr_inflight_allowed(const struct cpumgr_inflight_write *w,
			struct cgroup_subsys_state *css)
{
	unsigned int i;

	for (i = 0; w && i < w->nr_below; i++)
		if (w->below[i] == css)
			return w->below_own[i];
	return cpumgr_cpuset_allowed(css);
}

/* Whether writes under way below @w's cpuset change what its walk sees. */
bool cpumgr_inflight_below(const struct cpumgr_inflight_write *w)
{
	return w && w->nr_below;
}

/* The kernel returned from the write (or it was refused): the slot goes. */
void cpumgr_inflight_write_put(struct cpumgr_inflight_write *w)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	w->css = NULL;
	__clear_bit(w - cpumgr_inflight_writes, cpumgr_inflight_used);
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	up(&cpumgr_inflight_slots);
}

static void cpumgr_inflight_entry_put(void)
{
	if (!cpumgr_inflight_entry.css)
		return;
	css_put(&cpumgr_inflight_entry.dst->self);
	css_put(cpumgr_inflight_entry.css);
	cpumgr_inflight_entry.dst = NULL;
	cpumgr_inflight_entry.css = NULL;
	cpumgr_inflight_task = NULL;
}

/**
 * cpumgr_inflight_enter - a task entry begins
 * @dst: the cgroup the task enters
 * @css: its cpuset
 * @check: called for each write under way, under the lock that
 *	   registers the entry; NULL when nothing is to be checked
 * @arg: @check's
 *
 * Called with cgroup_mutex held (entries are serialized) and preemption
 * off, in an RCU read-side section.  Until cpumgr_inflight_leave() by
 * the same task, the writes count @dst as populated.  Return: whether
 * any @check found CPUs the task may not hold.
 */
bool cpumgr_inflight_enter(struct cgroup *dst, struct cgroup_subsys_state *css,
			   bool (*check)(const struct cpumgr_inflight_write *w,
					 void *arg),
			   void *arg)
{
	unsigned long flags;
	bool found = false;
	unsigned int i;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	/* One left by an entry whose end was missed goes. */
	cpumgr_inflight_entry_put();
	css_get(&dst->self);
	css_get(css);
	cpumgr_inflight_entry.dst = dst;
	cpumgr_inflight_entry.css = css;
	cpumgr_inflight_task = current;
	for (i = 0; check && i < CPUMGR_INFLIGHT_WRITES; i++) {
		const struct cpumgr_inflight_write *w =
			&cpumgr_inflight_writes[i];

		if (w->css)
			found |= check(w, arg);
	}
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	return found;
}

/* The entry current began is over: its task is in, or it failed. */
void cpumgr_inflight_leave(void)
{
	unsigned long flags;

	if (READ_ONCE(cpumgr_inflight_task) != current)
		return;
	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	if (cpumgr_inflight_task == current)
		cpumgr_inflight_entry_put();
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
}

/*
 * The cgroup file writes sent to the checks and still under way.  A
 * write checked against one table could otherwise land after a change of
 * it (an ASSIGN making one of its CPUs exclusive) that the controller
 * has already acted on.  Every change waits for them
 * (cpumgr_inflight_checked_sync()), and so does unload, for the writes
 * still in this module's text: those waiting for a slot too.
 */
DEFINE_STATIC_SRCU(cpumgr_writes);

/*
 * A write waits for its slot, is checked and made from here to
 * cpumgr_inflight_checked_end().
 */
int cpumgr_inflight_checked_begin(void)
{
	return srcu_read_lock(&cpumgr_writes);
}

void cpumgr_inflight_checked_end(int idx)
{
	srcu_read_unlock(&cpumgr_writes, idx);
}

/* A change of the table waits for the writes checked against the old one. */
void cpumgr_inflight_checked_sync(void)
{
	synchronize_srcu_expedited(&cpumgr_writes);
}

/* At unload: the writes sent to the checks have left them. */
void cpumgr_inflight_checked_wait(void)
{
	synchronize_srcu(&cpumgr_writes);
}

static bool cpumgr_inflight_alloc(struct cpumgr_inflight_write *w)
{
	unsigned int i;

	if (!zalloc_cpumask_var(&w->eff, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&w->own, GFP_KERNEL))
		return false;
	for (i = 0; i < CPUMGR_INFLIGHT_OTHERS; i++)
		if (!zalloc_cpumask_var(&w->above_eff[i], GFP_KERNEL) ||
		    !zalloc_cpumask_var(&w->below_own[i], GFP_KERNEL))
			return false;
	return true;
}

static void cpumgr_inflight_free(struct cpumgr_inflight_write *w)
{
	unsigned int i;

	free_cpumask_var(w->eff);
	free_cpumask_var(w->own);
	for (i = 0; i < CPUMGR_INFLIGHT_OTHERS; i++) {
		free_cpumask_var(w->above_eff[i]);
		free_cpumask_var(w->below_own[i]);
	}
}

int cpumgr_inflight_init(void)
{
	unsigned int i;

	for (i = 0; i < CPUMGR_INFLIGHT_WRITES; i++) {
		if (!cpumgr_inflight_alloc(&cpumgr_inflight_writes[i])) {
			cpumgr_inflight_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/* After the probes are gone: no write or entry is under way. */
void cpumgr_inflight_exit(void)
{
	unsigned int i;

	cpumgr_inflight_entry_put();
	for (i = 0; i < CPUMGR_INFLIGHT_WRITES; i++)
		cpumgr_inflight_free(&cpumgr_inflight_writes[i]);
}
