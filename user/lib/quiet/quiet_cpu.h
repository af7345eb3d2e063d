/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CPU's idle states and frequency governor, set for a container that
 * asks (cpu-c-states, cpu-freq-governor) and put back after, where the
 * kernel exposes them: /sys/devices/system/cpu/cpuN/cpuidle/stateK/
 * {latency,disable} and cpuN/cpufreq/{scaling_governor,
 * scaling_available_governors}.  A virtual machine often has neither
 * (no cpuidle driver but the halt loop, no cpufreq driver).  What was
 * there is saved (quiet_saved.h), and persisted, before the first write.
 *
 * C-states as CRI-O's cpu-c-states.crio.io names them, done with the
 * states' disable files: "enable" every state allowed, "disable" every
 * state with an exit latency (the polling one stays), "max_latency:N"
 * every state whose exit latency is above N microseconds disabled.
 * (CRI-O writes the CPU's PM QoS resume latency instead, which the idle
 * governor reads; the disable files hold whatever the governor.)
 */
#ifndef CPUMGR_QUIET_CPU_H
#define CPUMGR_QUIET_CPU_H

#include <stdbool.h>

#include "error.h"
#include "quiet_saved.h"

/* sys: where sysfs is mounted ("/sys"). */
bool quiet_cpuidle_exposed(const char *sys, unsigned int cpu);
bool quiet_cpufreq_exposed(const char *sys, unsigned int cpu);
/*
 * how on cpu ("" puts the saved states back); *changed when a file was
 * written.  -ENOENT: no cpuidle states there; -EINVAL: how is no value.
 * The originals, saved the first time, are persisted (persist(arg), when
 * given) before any write; its failure writes nothing.  A first setting
 * that fails before it wrote keeps no record (tried again next time);
 * one that wrote some keeps it, to be put back.
 */
int quiet_cstates_set(const char *sys, unsigned int cpu, const char *how,
		      struct quiet_saved *s, quiet_persist_fn *persist,
		      void *arg, bool *changed, struct cm_error *err);
/*
 * gov on cpu ("" puts the saved one back).  -ENOENT: no cpufreq there;
 * -EINVAL: gov is not among its scaling_available_governors.  The
 * original is persisted as the states' are.
 */
int quiet_governor_set(const char *sys, unsigned int cpu, const char *gov,
		       struct quiet_saved *s, quiet_persist_fn *persist,
		       void *arg, bool *changed, struct cm_error *err);

#endif
