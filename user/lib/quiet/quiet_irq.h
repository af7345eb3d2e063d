/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device interrupts kept off CPUs, and irqbalance told so.
 *
 * Each /proc/irq/N/smp_affinity_list is saved (quiet_saved.h), and the
 * saved state persisted, before it is first changed, then written as the saved affinity less the CPUs
 * kept off (the online CPUs less those, when nothing would be left);
 * /proc/irq/default_smp_affinity (a hex mask: there is no _list of it)
 * likewise, so that an interrupt set up later starts off them.  An
 * interrupt the kernel does not let move (EIO: managed or per-CPU ones)
 * is counted and, when it may fire on a CPU kept off, named; not an
 * error.  With no CPU kept off every saved affinity is written back (one
 * the kernel refuses stays saved, for the next try).
 *
 * irqbalance moves interrupts on its own every 10 s: when it runs, its
 * environment file (Debian's /etc/default/irqbalance, read by its
 * systemd unit) gets IRQBALANCE_BANNED_CPULIST with those CPUs (in
 * place of its last such line, the one that counts) (and
 * what the line banned before), and it is restarted to read it; the
 * line is put back as it was when no CPU is kept off.
 */
#ifndef CPUMGR_QUIET_IRQ_H
#define CPUMGR_QUIET_IRQ_H

#include <stdbool.h>

#include "cpuset.h"
#include "error.h"
#include "quiet_saved.h"

struct quiet_irq_result {
	unsigned int seen;		/* interrupts under /proc/irq */
	unsigned int moved;		/* written */
	unsigned int stuck;		/* refused, and may fire on a CPU kept off */
	unsigned int recorded;		/* originals newly saved */
	char stuck_list[128];		/* the first of them: "24,25" */
};

/*
 * Keep the interrupts of proc (a mount of procfs: "/proc") off off (an
 * empty set: give them back), online the CPUs they may go to instead.
 * The originals about to change are saved in s and persist(arg) called,
 * before anything is written; its failure writes nothing.
 */
int quiet_irq_sync(const char *proc, const struct cpuset *off,
		   const struct cpuset *online, struct quiet_saved *s,
		   quiet_persist_fn *persist, void *arg,
		   struct quiet_irq_result *r, struct cm_error *err);

/* Whether a process named irqbalance runs (proc/PID/comm). */
bool quiet_irqbalance_running(const char *proc);
/*
 * IRQBALANCE_BANNED_CPULIST in irqbalance's environment file for off,
 * or with off empty the line as it was; *changed when the file changed.
 * The line before, saved the first time, is persisted (persist(arg),
 * when given) before the file is written; its failure writes nothing.
 * -ENOENT: no such file.
 */
int quiet_irqbalance_ban(const char *file, const struct cpuset *off,
			 struct quiet_saved *s, quiet_persist_fn *persist,
			 void *arg, bool *changed, struct cm_error *err);
/* Run a command line with /bin/sh -c and wait; its failure in err. */
int quiet_run(const char *cmd, struct cm_error *err);

#endif
