// SPDX-License-Identifier: GPL-2.0
/*
 * Notifications raised where nothing may sleep (violations, refused
 * offlines): the hooks copy what the event needs into a slot of a
 * preallocated ring, and a work item sends them over netlink.  A full
 * ring drops the event, counts it and tells the listeners (-ENOBUFS).
 * The counters of what the hooks found are kept here too.
 *
 * Anyone with a delegated cpuset subtree can cause violations as fast as
 * it can write, and a full ring forces every listener to read the whole
 * state again.  So a violation of a cgroup whose last one still waits
 * joins it (its CPUs added, the first actor kept), and the violations of
 * one user other than root take at most CPUMGR_EVENT_USER_SLOTS slots;
 * beyond that they are counted (violations) but not reported.
 *
 * Listeners read events in the order they happened: a notification sent
 * from process context reports something later than every event in the
 * ring, so its sender first sends those (cpumgr_events_send()), and
 * the worker and such senders take turns on @send_lock.
 */
#include <linux/cgroup.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>

#include "cpumgr_events.h"
#include "cpumgr_genl.h"
#include "cpumgr_names.h"
#include "cpumgr_view.h"

#define CPUMGR_EVENT_SLOTS 128
#define CPUMGR_EVENT_USER_SLOTS 16

struct cpumgr_counters cpumgr_counters;

/* A violation or a refused offline, queued for the netlink worker. */
struct cpumgr_event {
	u8 cmd;			/* CPUMGR_CMD_*_NTF */
	u8 kind;		/* enum cpumgr_violation */
	u8 verdict;		/* enum cpumgr_verdict */
	u32 cpu;
	u32 pid;
	kuid_t uid;		/* the actor's euid, for its share of the ring */
	char comm[TASK_COMM_LEN];
	u64 generation;
	u64 cgroup_id;
	char path[CPUMGR_EVENT_PATH_MAX];	/* in its hierarchy */
	/* a reference, held for the worker to take @path (cpumgr_report.c) */
	struct cgroup *unnamed;
	const char *file;	/* a string literal */
	cpumask_var_t cpus;
};

static struct {
	/*
	 * The ring and @lost.  Raw: the kprobe handlers queue events with
	 * preemption off (ftrace's, around every handler), where on
	 * PREEMPT_RT a spinlock_t would sleep.
	 * What it guards is copied in bounded time (no cgroup_path()).
	 */
	raw_spinlock_t lock;
	struct cpumgr_event *slots;
	unsigned int head, count;
	bool lost;
	struct mutex send_lock;		/* one sender at a time; @out */
	struct cpumgr_event out;	/* the sender's copy */
	struct work_struct work;
} cpumgr_events;

static void cpumgr_events_free(void)
{
	unsigned int i;

	if (cpumgr_events.slots) {
		for (i = 0; i < CPUMGR_EVENT_SLOTS; i++) {
			if (cpumgr_events.slots[i].unnamed)
				cgroup_put(cpumgr_events.slots[i].unnamed);
			free_cpumask_var(cpumgr_events.slots[i].cpus);
		}
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
	to->uid = from->uid;
	memcpy(to->comm, from->comm, sizeof(to->comm));
	to->generation = from->generation;
	to->cgroup_id = from->cgroup_id;
	memcpy(to->path, from->path, sizeof(to->path));
	to->unnamed = from->unnamed;
	to->file = from->file;
	cpumask_copy(to->cpus, from->cpus);
}

/* Take the oldest event into @out; false when none is left. */
static bool cpumgr_event_pop(struct cpumgr_event *out, bool *lost)
{
	struct cpumgr_event *ev;
	unsigned long flags;
	bool got = false;

	raw_spin_lock_irqsave(&cpumgr_events.lock, flags);
	*lost = cpumgr_events.lost;
	cpumgr_events.lost = false;
	if (cpumgr_events.count) {
		ev = &cpumgr_events.slots[cpumgr_events.head];
		cpumgr_event_copy(out, ev);
		ev->unnamed = NULL;	/* the reference is @out's now */
		cpumgr_events.head = (cpumgr_events.head + 1) %
			CPUMGR_EVENT_SLOTS;
		cpumgr_events.count--;
		got = true;
	}
	raw_spin_unlock_irqrestore(&cpumgr_events.lock, flags);
	return got;
}

/* Send, or tell listeners they missed an event. */
static void cpumgr_events_multicast(struct sk_buff *msg)
{
	if (!msg) {
		atomic64_inc(&cpumgr_counters.events_dropped);
		cpumgr_genl_lost();
		return;
	}
	cpumgr_genl_multicast(msg);
}

static int cpumgr_fill_violation(struct sk_buff *msg,
				 const struct cpumgr_event *ev,
				 const char *path)
{
	if (nla_put_u32(msg, CPUMGR_A_KIND, ev->kind) ||
	    nla_put_u32(msg, CPUMGR_A_VERDICT, ev->verdict) ||
	    nla_put_u64_64bit(msg, CPUMGR_A_CGROUP_ID, ev->cgroup_id,
			      CPUMGR_A_PAD) ||
	    nla_put_string(msg, CPUMGR_A_CGROUP_PATH, path) ||
	    nla_put_string(msg, CPUMGR_A_FILE, ev->file) ||
	    cpumgr_put_cpulist(msg, CPUMGR_A_CPUS, ev->cpus))
		return -EMSGSIZE;
	return 0;
}

/* One event of the ring, from its sender alone. */
static void cpumgr_event_notify(const struct cpumgr_event *ev)
{
	bool violation = ev->cmd == CPUMGR_CMD_VIOLATION_NTF;
	/* Path and comm escaped (cpumgr_escape()): 4 bytes a character. */
	static char path[CPUMGR_EVENT_PATH_MAX * 4], comm[TASK_COMM_LEN * 4];
	struct sk_buff *msg;
	size_t size;
	void *hdr;
	int err;

	if (!cpumgr_genl_listened())
		return;
	/*
	 * Only the ring's sender comes here, under its lock: the buffers
	 * are its own.
	 */
	cpumgr_escape(path, sizeof(path), ev->path);
	cpumgr_escape(comm, sizeof(comm), ev->comm);
	size = nla_total_size(sizeof(u32)) * 2 + cpumgr_str_size(comm);
	if (violation)
		size += nla_total_size(sizeof(u32)) * 2 +
			nla_total_size_64bit(sizeof(u64)) +
			cpumgr_str_size(path) + cpumgr_str_size(ev->file) +
			cpumgr_cpulist_size(ev->cpus);
	msg = cpumgr_ntf_new(size, ev->cmd, &hdr);
	if (msg) {
		err = cpumgr_put_generation(msg, ev->generation) ||
			nla_put_u32(msg, CPUMGR_A_PID, ev->pid) ||
			nla_put_string(msg, CPUMGR_A_COMM, comm) ||
			(violation ? cpumgr_fill_violation(msg, ev, path) :
			 nla_put_u32(msg, CPUMGR_A_CPU, ev->cpu));
		msg = cpumgr_ntf_end(msg, hdr, err);
	}
	cpumgr_events_multicast(msg);
}

/* Send what the ring holds, oldest first; @send_lock held. */
static void cpumgr_events_drain(void)
{
	struct cpumgr_event *out = &cpumgr_events.out;
	bool lost;

	lockdep_assert_held(&cpumgr_events.send_lock);
	for (;;) {
		bool got = cpumgr_event_pop(out, &lost);

		if (lost)
			cpumgr_genl_lost();
		if (!got)
			break;
		if (out->unnamed) {
			if (cgroup_path(out->unnamed, out->path,
					sizeof(out->path)) < 0)
				out->path[0] = '\0';
			cgroup_put(out->unnamed);
			out->unnamed = NULL;
		}
		cpumgr_event_notify(out);
	}
}

static void cpumgr_events_work(struct work_struct *work)
{
	mutex_lock(&cpumgr_events.send_lock);
	cpumgr_events_drain();
	mutex_unlock(&cpumgr_events.send_lock);
}

/* After the events the ring holds (which happened before it). */
void cpumgr_events_send(struct sk_buff *msg)
{
	mutex_lock(&cpumgr_events.send_lock);
	cpumgr_events_drain();
	cpumgr_events_multicast(msg);
	mutex_unlock(&cpumgr_events.send_lock);
}

/*
 * A slot for a new event, the ring locked by the caller (@flags), or NULL
 * (and the ring unlocked) when it is full: the event is dropped and
 * counted.
 */
static struct cpumgr_event *cpumgr_event_slot_locked(unsigned long flags)
{
	unsigned int tail;

	if (cpumgr_events.count == CPUMGR_EVENT_SLOTS) {
		cpumgr_events.lost = true;
		raw_spin_unlock_irqrestore(&cpumgr_events.lock, flags);
		atomic64_inc(&cpumgr_counters.events_dropped);
		schedule_work(&cpumgr_events.work);
		return NULL;
	}
	tail = (cpumgr_events.head + cpumgr_events.count) % CPUMGR_EVENT_SLOTS;
	return &cpumgr_events.slots[tail];
}

/* The same, locking the ring. */
static struct cpumgr_event *cpumgr_event_slot(unsigned long *flags)
{
	raw_spin_lock_irqsave(&cpumgr_events.lock, *flags);
	return cpumgr_event_slot_locked(*flags);
}

/* What identifies the violations that are one event. */
struct cpumgr_violation_key {
	u64 cgroup_id;
	const char *file;
	kuid_t uid;
	u8 kind, verdict;
};

/*
 * With the ring locked: the waiting violation @key joins, if any, and
 * whether its user may queue no other one (@over).
 */
static struct cpumgr_event *
cpumgr_event_pending(const struct cpumgr_violation_key *key, bool *over)
{
	unsigned int i, mine = 0;

	for (i = 0; i < cpumgr_events.count; i++) {
		struct cpumgr_event *p = &cpumgr_events.slots[(cpumgr_events.head + i) %
							      CPUMGR_EVENT_SLOTS];

		if (p->cmd != CPUMGR_CMD_VIOLATION_NTF)
			continue;
		if (p->cgroup_id == key->cgroup_id && p->kind == key->kind &&
		    p->verdict == key->verdict && p->file == key->file)
			return p;
		mine += uid_eq(p->uid, key->uid);
	}
	*over = !uid_eq(key->uid, GLOBAL_ROOT_UID) &&
		mine >= CPUMGR_EVENT_USER_SLOTS;
	return NULL;
}

static void cpumgr_event_queue(unsigned long flags)
{
	cpumgr_events.count++;
	raw_spin_unlock_irqrestore(&cpumgr_events.lock, flags);
	schedule_work(&cpumgr_events.work);
}

/* Who did it: the current task. */
static void cpumgr_event_actor(struct cpumgr_event *ev,
			       const struct cpumgr_view *view, u8 cmd)
{
	ev->cmd = cmd;
	ev->generation = view->generation;
	ev->pid = task_tgid_nr(current);
	ev->uid = current_euid();
	strscpy_pad(ev->comm, current->comm, sizeof(ev->comm));
}

void cpumgr_event_violation(const struct cpumgr_view *view,
			    enum cpumgr_violation kind, bool refused,
			    struct cgroup *cgrp, const char *path,
			    const char *file, const struct cpumask *cpus)
{
	struct cpumgr_violation_key key = {
		.cgroup_id = cgroup_id(cgrp),
		.file = file,
		.uid = current_euid(),
		.kind = kind,
		.verdict = refused ? CPUMGR_VERDICT_REFUSED :
			CPUMGR_VERDICT_AUDITED,
	};
	struct cpumgr_event *ev;
	unsigned long flags;
	bool over = false;

	raw_spin_lock_irqsave(&cpumgr_events.lock, flags);
	ev = cpumgr_event_pending(&key, &over);
	if (ev || over) {
		if (ev) {
			cpumask_or(ev->cpus, ev->cpus, cpus);
			ev->generation = view->generation;
		}
		raw_spin_unlock_irqrestore(&cpumgr_events.lock, flags);
		return;
	}
	ev = cpumgr_event_slot_locked(flags);
	if (!ev)
		return;
	cpumgr_event_actor(ev, view, CPUMGR_CMD_VIOLATION_NTF);
	ev->kind = key.kind;
	ev->verdict = key.verdict;
	ev->cgroup_id = key.cgroup_id;
	ev->unnamed = NULL;
	ev->path[0] = '\0';
	if (path)
		strscpy(ev->path, path, sizeof(ev->path));
	/* the caller may hold no reference (an offline's RCU walk) */
	else if (cgroup_tryget(cgrp))
		ev->unnamed = cgrp;
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

	raw_spin_lock_init(&cpumgr_events.lock);
	mutex_init(&cpumgr_events.send_lock);
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
