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
 * So the two sides meet under one raw spinlock, each in two steps: it
 * registers before it reads the table, and looks at the other side
 * after.  Of a write and an entry under way together, the one that read
 * the table last sees the other (its look comes after the other's
 * registration), whichever table an ASSIGN published in between.  A
 * cgroup2 write registers its cpuset and the effective CPUs it will give
 * it, whatever the table holds (one checked while nothing was assigned
 * may land after an ASSIGN), and its walk counts the destination of the
 * task entry under way as populated.  A task entry registers its
 * destination, and is checked against the write under way at or above
 * its cpuset, as the walk would.  A write stays registered until the
 * kernel returns from it, an entry until its task is in the cgroup (or
 * the entry failed).  Entries are serialized by cgroup_mutex: one is
 * under way at most.
 *
 * Writes on one branch (a cpuset, those above it and those below) go
 * one at a time, in the order they got their slots: a write waits,
 * before it is checked, while one that got its slot before is on its
 * branch, and is then checked against the tree that one left.  Checked
 * side by side, three writes on one branch, each harmless alone or with
 * one other, would land together.  So a task entry meets one write at
 * most at or above its cpuset.  At most CPUMGR_INFLIGHT_WRITES writes
 * hold a slot, so that the entry's check, with preemption off, stays
 * short; the others wait for one (woken together: which gets it is
 * chance).  A writer waiting holds its file active: one whose cpuset is
 * being removed (rmdir, or cpuset turned off above it, which wait for
 * its file with cgroup_mutex held) stops waiting, within
 * CPUMGR_INFLIGHT_POLL.
 * The checks against the rules are the callers': an entry's runs under
 * the lock, for each write under way (cpumgr_inflight_entry_sees()).
 *
 * A change of the table that looks at the cpusets as they are (an
 * ASSIGN that says the others let go of its CPUs: cpumgr_check_grant())
 * closes a gate first: a cpuset.cpus write that has its slot waits there
 * before it is checked, and the change waits for the writes past it to
 * end.  A write checked against the table as it was then cannot land
 * after the change looked, and one checked after reads the new table.
 * The other writes checked that can hand a cgroup with tasks CPUs it
 * did not have (cpuset.cpus.exclusive and cpuset.cpus.partition, whose
 * partitions give theirs back as they dissolve, and
 * cgroup.subtree_control, whose cpuset turned off leaves the tasks
 * below on their parent's CPUs) pass the same gate, without a slot
 * (cpumgr_inflight_gate_pass()).
 *
 * Every cgroup file write checked, cpuset.cpus or another, is under way
 * here too until the kernel returns from it (cpumgr_writes), for the
 * changes of the table to wait for.
 */
#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/wait.h>

#include "cpumgr_inflight.h"

static DEFINE_RAW_SPINLOCK(cpumgr_inflight_lock);
static DECLARE_WAIT_QUEUE_HEAD(cpumgr_inflight_wait);
static struct cpumgr_inflight_write cpumgr_inflight_writes[CPUMGR_INFLIGHT_WRITES];
/* the order in which writes got their slots */
static u64 cpumgr_inflight_tickets;
/* the changes of the table that closed the gate and have not opened it */
static unsigned int cpumgr_inflight_gates;
/* the writes past the gate without a slot, and not yet returned */
static unsigned int cpumgr_inflight_passing;
/* the task entry under way: references held on both */
static struct cpumgr_inflight_entry cpumgr_inflight_entry;
static struct task_struct *cpumgr_inflight_task;

/* @a and @b on one branch: one of them at or above the other. */
static bool cpumgr_inflight_branch(struct cgroup_subsys_state *a,
				   struct cgroup_subsys_state *b)
{
	return cgroup_is_descendant(a->cgroup, b->cgroup) ||
	       cgroup_is_descendant(b->cgroup, a->cgroup);
}

/*
 * A free slot for a write of @css into *@w, in line after every write
 * that holds one.  The slot holds a reference on @css: on 6.1 a writer
 * lets its file go, and puts its own reference, before the kernel
 * returns from the write.
 */
static bool cpumgr_inflight_claimed(struct cgroup_subsys_state *css,
				    struct cpumgr_inflight_write **w)
{
	struct cpumgr_inflight_write *free = NULL;
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	for (i = 0; i < CPUMGR_INFLIGHT_WRITES && !free; i++)
		if (!cpumgr_inflight_writes[i].css)
			free = &cpumgr_inflight_writes[i];
	if (free) {
		css_get(css);
		free->css = css;
		free->ticket = ++cpumgr_inflight_tickets;
		free->begun = false;
		free->passed = false;
	}
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	*w = free;
	return free;
}

/* No write that got its slot before *@w's is on @css's branch. */
static bool cpumgr_inflight_first(struct cgroup_subsys_state *css,
				  struct cpumgr_inflight_write **w)
{
	const struct cpumgr_inflight_write *x;
	unsigned long flags;
	bool first = true;
	unsigned int i;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	for (i = 0; i < CPUMGR_INFLIGHT_WRITES && first; i++) {
		x = &cpumgr_inflight_writes[i];
		first = !x->css || x->ticket >= (*w)->ticket ||
			!cpumgr_inflight_branch(x->css, css);
	}
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	return first;
}

/*
 * No change of the table waits for the writes under way: the write goes
 * on, past the gate, in its slot *@w or (NULL) without one.
 */
static bool cpumgr_inflight_open(struct cgroup_subsys_state *css,
				 struct cpumgr_inflight_write **w)
{
	unsigned long flags;
	bool open;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	open = !cpumgr_inflight_gates;
	if (open && *w)
		(*w)->passed = true;
	else if (open)
		cpumgr_inflight_passing++;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	return open;
}

/*
 * @css is being removed, and with cgroup_mutex held the kernel waits for
 * the writers of its files to leave: kill_css() marks a controller's
 * css dying first, cgroup_destroy_locked() the cgroup's own (whose files
 * are cgroup.subtree_control's and the like) offline.
 */
static bool cpumgr_inflight_css_going(struct cgroup_subsys_state *css)
{
	unsigned int flags = READ_ONCE(css->flags);

	return (flags & CSS_DYING) || !(flags & CSS_ONLINE);
}

/*
 * Waits until @cond(@css, @w): 0, -EINTR when the writer was killed
 * meanwhile, or -ENODEV when @css is being removed (a cpuset gone
 * offline is the kernel's ENODEV too).
 */
static int cpumgr_inflight_wait_until(bool (*cond)(struct cgroup_subsys_state *css,
						   struct cpumgr_inflight_write **w),
				      struct cgroup_subsys_state *css,
				      struct cpumgr_inflight_write **w)
{
	long left;

	for (;;) {
		left = wait_event_killable_timeout(cpumgr_inflight_wait,
						   cond(css, w),
						   CPUMGR_INFLIGHT_POLL);
		if (left > 0)
			return 0;
		if (left < 0)
			return -EINTR;
		if (cpumgr_inflight_css_going(css))
			return -ENODEV;
	}
}

/**
 * cpumgr_inflight_write_get - a slot for a cpuset.cpus write
 * @css: the cpuset written
 *
 * Sleeps while no slot is free, then while a write that got its slot
 * before is on @css's branch (in line: later ones wait behind this
 * one), then while the gate is closed.  Return: the slot, or an
 * ERR_PTR() of cpumgr_inflight_wait_until()'s error.
 */
struct cpumgr_inflight_write *
cpumgr_inflight_write_get(struct cgroup_subsys_state *css)
{
	struct cpumgr_inflight_write *w;
	int err;

	err = cpumgr_inflight_wait_until(cpumgr_inflight_claimed, css, &w);
	if (err)
		return ERR_PTR(err);
	err = cpumgr_inflight_wait_until(cpumgr_inflight_first, css, &w);
	if (!err)
		err = cpumgr_inflight_wait_until(cpumgr_inflight_open, css, &w);
	if (err) {
		cpumgr_inflight_write_put(w);
		return ERR_PTR(err);
	}
	return w;
}

/* @x is a write under way on a cpuset strictly above @css. */
bool cpumgr_inflight_above(const struct cpumgr_inflight_write *x,
			   struct cgroup_subsys_state *css)
{
	return x->css != css && cgroup_is_descendant(css->cgroup, x->css->cgroup);
}

/*
 * cpumgr_inflight_write_begin - a cgroup2 write is about to read the table
 * @w: its slot
 * @eff: the effective CPUs the write gives its cpuset
 * @own: the CPUs it names
 *
 * From here on the task entries check against it.  The write reads the
 * table after this, and the task entry under way after that
 * (cpumgr_inflight_write_sees()).
 */
void cpumgr_inflight_write_begin(struct cpumgr_inflight_write *w,
				 const struct cpumask *eff,
				 const struct cpumask *own)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	cpumask_copy(w->eff, eff);
	cpumask_copy(w->own, own);
	w->begun = true;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
}

/*
 * cpumgr_inflight_write_sees - the task entry under way, for a write
 * that has read the table
 * @entry: where it goes (its css NULL when none)
 *
 * The caller is in an RCU read-side section, which keeps @entry's
 * cgroups as long as it lasts.
 */
void cpumgr_inflight_write_sees(struct cpumgr_inflight_entry *entry)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	*entry = cpumgr_inflight_entry;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
}

/* The kernel returned from the write (or it was refused): the slot goes. */
void cpumgr_inflight_write_put(struct cpumgr_inflight_write *w)
{
	struct cgroup_subsys_state *css = w->css;
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	w->css = NULL;
	w->begun = false;
	w->passed = false;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	css_put(css);
	wake_up_all(&cpumgr_inflight_wait);
}

/**
 * cpumgr_inflight_gate_pass - a checked write without a slot, before
 * its check
 * @css: the css of the file written
 *
 * Sleeps while the gate is closed.  Return: 0, the write then waited for
 * by those closing the gate until cpumgr_inflight_gate_passed(), or
 * cpumgr_inflight_wait_until()'s error.
 */
int cpumgr_inflight_gate_pass(struct cgroup_subsys_state *css)
{
	struct cpumgr_inflight_write *none = NULL;

	return cpumgr_inflight_wait_until(cpumgr_inflight_open, css, &none);
}

/* The kernel returned from a write cpumgr_inflight_gate_pass() let by. */
void cpumgr_inflight_gate_passed(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	cpumgr_inflight_passing--;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	wake_up_all(&cpumgr_inflight_wait);
}

static bool cpumgr_inflight_none_passed(void)
{
	unsigned long flags;
	bool none;
	unsigned int i;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	none = !cpumgr_inflight_passing;
	for (i = 0; i < CPUMGR_INFLIGHT_WRITES && none; i++)
		none = !cpumgr_inflight_writes[i].css ||
		       !cpumgr_inflight_writes[i].passed;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	return none;
}

/**
 * cpumgr_inflight_gate_close - the cpuset writes under way end first
 *
 * New writes wait before they are checked, until
 * cpumgr_inflight_gate_open(); this waits until those past the gate
 * have ended.  The caller holds no lock: a write may wait for cpuset's
 * and the hotplug lock, and hotplug for the table's.
 *
 * Return: 0, or -EINTR when the caller was killed (the gate is open).
 */
int cpumgr_inflight_gate_close(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	cpumgr_inflight_gates++;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	if (!wait_event_killable(cpumgr_inflight_wait,
				 cpumgr_inflight_none_passed()))
		return 0;
	cpumgr_inflight_gate_open();
	return -EINTR;
}

/*
 * The change is published, or given up: the writes waiting are checked
 * against the table as it is.  Before the change waits for the writes
 * checked against the old one (cpumgr_inflight_checked_sync()), those
 * waiting here among them.
 */
void cpumgr_inflight_gate_open(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	cpumgr_inflight_gates--;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
	wake_up_all(&cpumgr_inflight_wait);
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
 *
 * Called with cgroup_mutex held (entries are serialized) and preemption
 * off, before the caller reads the table.  Until cpumgr_inflight_leave()
 * by the same task, the writes count @dst as populated.
 */
void cpumgr_inflight_enter(struct cgroup *dst, struct cgroup_subsys_state *css)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	/* One left by an entry whose end was missed goes. */
	cpumgr_inflight_entry_put();
	css_get(&dst->self);
	css_get(css);
	cpumgr_inflight_entry.dst = dst;
	cpumgr_inflight_entry.css = css;
	cpumgr_inflight_task = current;
	raw_spin_unlock_irqrestore(&cpumgr_inflight_lock, flags);
}

/**
 * cpumgr_inflight_entry_sees - the writes under way, for a task entry
 * that has read the table
 * @check: called for each cgroup2 write under way, under the lock
 * @arg: @check's
 *
 * Return: whether any @check found CPUs the task may not hold.
 */
bool cpumgr_inflight_entry_sees(bool (*check)(const struct cpumgr_inflight_write *w,
					      void *arg),
				void *arg)
{
	unsigned long flags;
	bool found = false;
	unsigned int i;

	raw_spin_lock_irqsave(&cpumgr_inflight_lock, flags);
	for (i = 0; i < CPUMGR_INFLIGHT_WRITES; i++) {
		const struct cpumgr_inflight_write *w =
			&cpumgr_inflight_writes[i];

		if (w->begun)
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
	return zalloc_cpumask_var(&w->eff, GFP_KERNEL) &&
	       zalloc_cpumask_var(&w->own, GFP_KERNEL);
}

static void cpumgr_inflight_free(struct cpumgr_inflight_write *w)
{
	free_cpumask_var(w->eff);
	free_cpumask_var(w->own);
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
