// SPDX-License-Identifier: GPL-2.0
/*
 * Notifications raised where nothing may sleep (violations, refused
 * offlines): the hooks copy what the event needs into a slot of a
 * preallocated ring, and a work item sends them over netlink.  A full
 * ring drops the event, counts it and tells the listeners (-ENOBUFS).
 */
#include <linux/cgroup.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "cpumgr.h"

#define CPUMGR_EVENT_SLOTS 128

static struct {
	spinlock_t lock;		/* the ring and @lost */
	struct cpumgr_event *slots;
	unsigned int head, count;
	bool lost;
	struct cpumgr_event out;	/* the worker's copy */
	struct work_struct work;
} cpumgr_events;

static void cpumgr_events_free(void)
{
	unsigned int i;

	if (cpumgr_events.slots) {
		for (i = 0; i < CPUMGR_EVENT_SLOTS; i++)
			free_cpumask_var(cpumgr_events.slots[i].cpus);
	}
	kfree(cpumgr_events.slots);
	free_cpumask_var(cpumgr_events.out.cpus);
}

/* Field by field: cpumask_var_t may be a pointer or an array. */
static void cpumgr_event_copy(struct cpumgr_event *to,
			      const struct cpumgr_event *from)
{
	to->cmd = from->cmd;
	to->kind = from->kind;
	to->verdict = from->verdict;
	to->cpu = from->cpu;
	to->pid = from->pid;
	memcpy(to->comm, from->comm, sizeof(to->comm));
	to->generation = from->generation;
	to->cgroup_id = from->cgroup_id;
	memcpy(to->path, from->path, sizeof(to->path));
	to->file = from->file;
	cpumask_copy(to->cpus, from->cpus);
}

/* Take the oldest event into @out; false when none is left. */
static bool cpumgr_event_pop(struct cpumgr_event *out, bool *lost)
{
	struct cpumgr_event *ev;
	unsigned long flags;
	bool got = false;

	spin_lock_irqsave(&cpumgr_events.lock, flags);
	*lost = cpumgr_events.lost;
	cpumgr_events.lost = false;
	if (cpumgr_events.count) {
		ev = &cpumgr_events.slots[cpumgr_events.head];
		cpumgr_event_copy(out, ev);
		cpumgr_events.head = (cpumgr_events.head + 1) %
			CPUMGR_EVENT_SLOTS;
		cpumgr_events.count--;
		got = true;
	}
	spin_unlock_irqrestore(&cpumgr_events.lock, flags);
	return got;
}

static void cpumgr_events_work(struct work_struct *work)
{
	struct cpumgr_event *out = &cpumgr_events.out;
	bool lost;

	for (;;) {
		bool got = cpumgr_event_pop(out, &lost);

		if (lost)
			cpumgr_notify_lost();
		if (!got)
			break;
		cpumgr_notify_event(out);
	}
}

/*
 * A slot for a new event, with the ring locked (@flags), or NULL when the
 * ring is full: the event is dropped and counted.
 */
static struct cpumgr_event *cpumgr_event_slot(unsigned long *flags)
{
	unsigned int tail;

	spin_lock_irqsave(&cpumgr_events.lock, *flags);
	if (cpumgr_events.count == CPUMGR_EVENT_SLOTS) {
		cpumgr_events.lost = true;
		spin_unlock_irqrestore(&cpumgr_events.lock, *flags);
		atomic64_inc(&cpumgr_counters.events_dropped);
		schedule_work(&cpumgr_events.work);
		return NULL;
	}
	tail = (cpumgr_events.head + cpumgr_events.count) % CPUMGR_EVENT_SLOTS;
	return &cpumgr_events.slots[tail];
}

static void cpumgr_event_queue(unsigned long flags)
{
	cpumgr_events.count++;
	spin_unlock_irqrestore(&cpumgr_events.lock, flags);
	schedule_work(&cpumgr_events.work);
}

/* Who did it: the current task. */
static void cpumgr_event_actor(struct cpumgr_event *ev,
			       const struct cpumgr_view *view, u8 cmd)
{
	ev->cmd = cmd;
	ev->generation = view->generation;
	ev->pid = task_tgid_nr(current);
	strscpy_pad(ev->comm, current->comm, sizeof(ev->comm));
}

void cpumgr_event_violation(const struct cpumgr_view *view,
			    enum cpumgr_violation kind, bool refused,
			    struct cgroup *cgrp, const char *file,
			    const struct cpumask *cpus)
{
	struct cpumgr_event *ev;
	unsigned long flags;

	ev = cpumgr_event_slot(&flags);
	if (!ev)
		return;
	cpumgr_event_actor(ev, view, CPUMGR_CMD_VIOLATION_NTF);
	ev->kind = kind;
	ev->verdict = refused ? CPUMGR_VERDICT_REFUSED : CPUMGR_VERDICT_AUDITED;
	ev->cgroup_id = cgroup_id(cgrp);
	if (cgroup_path(cgrp, ev->path, sizeof(ev->path)) < 0)
		ev->path[0] = '\0';
	ev->file = file;
	cpumask_copy(ev->cpus, cpus);
	cpumgr_event_queue(flags);
}

void cpumgr_event_offline_refused(const struct cpumgr_view *view,
				  unsigned int cpu)
{
	struct cpumgr_event *ev;
	unsigned long flags;

	ev = cpumgr_event_slot(&flags);
	if (!ev)
		return;
	cpumgr_event_actor(ev, view, CPUMGR_CMD_OFFLINE_REFUSED_NTF);
	ev->cpu = cpu;
	cpumgr_event_queue(flags);
}

int cpumgr_events_init(void)
{
	unsigned int i;

	spin_lock_init(&cpumgr_events.lock);
	INIT_WORK(&cpumgr_events.work, cpumgr_events_work);
	cpumgr_events.slots = kcalloc(CPUMGR_EVENT_SLOTS,
				      sizeof(*cpumgr_events.slots), GFP_KERNEL);
	if (!cpumgr_events.slots ||
	    !zalloc_cpumask_var(&cpumgr_events.out.cpus, GFP_KERNEL))
		goto err;
	for (i = 0; i < CPUMGR_EVENT_SLOTS; i++) {
		if (!zalloc_cpumask_var(&cpumgr_events.slots[i].cpus,
					GFP_KERNEL))
			goto err;
	}
	return 0;
err:
	cpumgr_events_free();
	return -ENOMEM;
}

/* After the hooks are gone: nothing queues any more. */
void cpumgr_events_exit(void)
{
	cancel_work_sync(&cpumgr_events.work);
	cpumgr_events_free();
}
