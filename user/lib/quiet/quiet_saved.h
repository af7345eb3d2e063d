/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What cpumgr changed outside the cgroups to keep CPUs quiet, and the
 * values it found there, to put back when no container asks any more:
 * the CPUs kept off interrupts and each interrupt's affinity before
 * (with /proc/irq/default_smp_affinity's), irqbalance's banned CPUs
 * line before, and per CPU its cpufreq governor and cpuidle states
 * before.  It survives restarts of cpumgr as a JSON file in the state
 * directory (the node's quiet.json), with the boot it was made in: a
 * reboot resets the kernel's values (and may number the interrupts
 * anew), so after one only irqbalance's line, a file's, is kept and the
 * next sync reads the kernel's values as the originals again.
 */
#ifndef CPUMGR_QUIET_SAVED_H
#define CPUMGR_QUIET_SAVED_H

#include <stdbool.h>
#include <stddef.h>

#include <cJSON.h>

#include "cpuset.h"
#include "error.h"

/* cpuidle states per CPU that are saved (a CPU has a handful) */
#define QUIET_STATES_MAX	16
#define QUIET_VALUE_MAX		32
#define QUIET_LINE_MAX		512

struct quiet_irq_orig {
	unsigned int irq;
	char *list;			/* smp_affinity_list before */
	bool restore_failed;		/* the kernel refused it back (not kept) */
};

struct quiet_cpu_orig {
	unsigned int cpu;
	/* what is set now ("" nothing), and what was there before */
	char governor_now[QUIET_VALUE_MAX], governor[QUIET_VALUE_MAX];
	char cstates_now[QUIET_VALUE_MAX];
	unsigned int nr_states;
	bool state_disabled[QUIET_STATES_MAX];
};

#define QUIET_BOOT_ID_MAX	40

struct quiet_saved {
	char boot_id[QUIET_BOOT_ID_MAX];	/* "" unknown */
	struct cpuset irq_off;		/* CPUs kept off interrupts now */
	struct quiet_irq_orig *irqs;
	size_t nr_irqs;
	char *default_affinity;		/* default_smp_affinity before, NULL */
	/* irqbalance's environment file, and its banned-CPUs line before */
	bool irqbalance_banned;
	char irqbalance_line[QUIET_LINE_MAX];	/* "" none */
	struct quiet_cpu_orig *cpus;
	size_t nr_cpus;
};

/*
 * Keeps s where it survives a crash (the state directory's file): called
 * with a new original saved, before the value it keeps is first changed.
 */
typedef int quiet_persist_fn(void *arg, struct cm_error *err);

void quiet_saved_init(struct quiet_saved *s);
void quiet_saved_free(struct quiet_saved *s);
/* Nothing changed: nothing to put back. */
bool quiet_saved_empty(const struct quiet_saved *s);

/* The original of irq, NULL if not saved. */
struct quiet_irq_orig *quiet_saved_irq(struct quiet_saved *s,
				       unsigned int irq);
/* Save irq's affinity before (once: a later call keeps the first). */
int quiet_saved_add_irq(struct quiet_saved *s, unsigned int irq,
			const char *list, struct cm_error *err);
/* Forget the originals saved after the first nr (and the default's). */
void quiet_saved_truncate_irqs(struct quiet_saved *s, size_t nr,
			       bool keep_default);
/* Forget the interrupts' originals; keep_failed: but those refused back. */
void quiet_saved_drop_irqs(struct quiet_saved *s, bool keep_failed);
/*
 * Of a state saved in another boot (boot_id, "" unknown: the same),
 * forget what the reboot reset: the interrupts and the CPUs' records.
 * Then s is of boot_id.  True when something was forgotten.
 */
bool quiet_saved_rebooted(struct quiet_saved *s, const char *boot_id);
/* cpu's record, made empty when create and none (NULL: none, or ENOMEM). */
struct quiet_cpu_orig *quiet_saved_cpu(struct quiet_saved *s,
				       unsigned int cpu, bool create);
/* Drop cpu's record once nothing is set on it. */
void quiet_saved_drop_cpu(struct quiet_saved *s, unsigned int cpu);

/*
 * As JSON: {"bootId": "...", "irqOff": "2-3", "irqs": {"24": "0-7", ...}, "defaultAffinity":
 * "ff", "irqbalanceLine": "...", "cpus": {"2": {"governorNow": ...,
 * "governor": ..., "cStatesNow": ..., "stateDisabled": [false, ...]}}}.
 */
cJSON *quiet_saved_to_json(const struct quiet_saved *s);
int quiet_saved_from_json(struct quiet_saved *s, const cJSON *j,
			  struct cm_error *err);

#endif
