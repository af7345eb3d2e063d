// SPDX-License-Identifier: GPL-2.0
/* A CPU's idle states and governor, set and put back (quiet_cpu.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "quiet_cpu.h"
#include "quiet_sysfs.h"

#define CPU_DIR		"%s/devices/system/cpu/cpu%u"

bool quiet_cpuidle_exposed(const char *sys, unsigned int cpu)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), CPU_DIR "/cpuidle/state0/disable", sys,
		 cpu);
	return !access(path, F_OK);
}

bool quiet_cpufreq_exposed(const char *sys, unsigned int cpu)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), CPU_DIR "/cpufreq/scaling_governor", sys,
		 cpu);
	return !access(path, F_OK);
}

/* The exit latency (us) above which how disables a state; -1: bad how. */
static long threshold(const char *how)
{
	if (!strcmp(how, "enable"))
		return LONG_MAX;
	if (!strcmp(how, "disable"))
		return 0;
	if (!strncmp(how, "max_latency:", 12))
		return strtol(how + 12, NULL, 10);
	return -1;
}

/* cpu's state k file into path; false when there is no state k. */
static bool state_file(const char *sys, unsigned int cpu, unsigned int k,
		       const char *file, char *path, size_t len)
{
	snprintf(path, len, CPU_DIR "/cpuidle/state%u/%s", sys, cpu, k, file);
	return !access(path, F_OK);
}

/* Save every state's disable file of cpu once. */
static int save_states(const char *sys, unsigned int cpu,
		       struct quiet_cpu_orig *c, struct cm_error *err)
{
	char path[PATH_MAX], v[32];

	if (c->cstates_now[0])
		return 0;
	c->nr_states = 0;
	for (unsigned int k = 0; k < QUIET_STATES_MAX &&
	     state_file(sys, cpu, k, "disable", path, sizeof(path)); k++) {
		if (quiet_read_value(path, v, sizeof(v)))
			return cm_errorf(err, "%s: cannot read it", path), -EIO;
		c->state_disabled[k] = !strcmp(v, "1");
		c->nr_states = k + 1;
	}
	return 0;
}

/* State k of cpu disabled or not; *changed when written. */
static int put_state(const char *sys, unsigned int cpu, unsigned int k,
		     bool off, bool *changed, struct cm_error *err)
{
	char path[PATH_MAX], v[32];
	int ret;

	state_file(sys, cpu, k, "disable", path, sizeof(path));
	if (!quiet_read_value(path, v, sizeof(v)) &&
	    !strcmp(v, off ? "1" : "0"))
		return 0;
	ret = quiet_write_value(path, off ? "1" : "0");
	if (ret)
		return cm_errorf(err, "%s: %s", path, strerror(-ret)), ret;
	*changed = true;
	return 0;
}

/*
 * A record made for a first write, kept where a crash cannot lose it
 * before the write: on failure forgotten again.
 */
static int keep_first(struct quiet_saved *s, unsigned int cpu, char *now,
		      const char *value, quiet_persist_fn *persist, void *arg,
		      struct cm_error *err)
{
	int ret;

	snprintf(now, QUIET_VALUE_MAX, "%s", value);
	ret = persist ? persist(arg, err) : 0;
	if (ret) {
		now[0] = '\0';
		quiet_saved_drop_cpu(s, cpu);
	}
	return ret;
}

int quiet_cstates_set(const char *sys, unsigned int cpu, const char *how,
		      struct quiet_saved *s, quiet_persist_fn *persist,
		      void *arg, bool *changed, struct cm_error *err)
{
	struct quiet_cpu_orig *c = quiet_saved_cpu(s, cpu, false);
	char path[PATH_MAX], v[32];
	long max = how[0] ? threshold(how) : 0;
	bool first;
	int ret = 0;

	*changed = false;
	if (!how[0]) {
		/* back as they were */
		for (unsigned int k = 0; c && c->cstates_now[0] &&
		     k < c->nr_states && !ret; k++)
			ret = put_state(sys, cpu, k, c->state_disabled[k],
					changed, err);
		if (!ret && c) {
			c->cstates_now[0] = '\0';
			quiet_saved_drop_cpu(s, cpu);
		}
		return ret;
	}
	if (max < 0)
		return cm_errorf(err, "cpu-c-states: \"%s\": not a value", how);
	if (!quiet_cpuidle_exposed(sys, cpu))
		return -ENOENT;
	if (!c)
		c = quiet_saved_cpu(s, cpu, true);
	if (!c)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	first = !c->cstates_now[0];
	if (first) {
		ret = save_states(sys, cpu, c, err);
		if (ret)
			quiet_saved_drop_cpu(s, cpu);
		else
			ret = keep_first(s, cpu, c->cstates_now, how, persist,
					 arg, err);
		if (ret)
			return ret;
	}
	for (unsigned int k = 0; !ret && k < c->nr_states; k++) {
		long lat;

		if (!state_file(sys, cpu, k, "latency", path, sizeof(path)) ||
		    quiet_read_value(path, v, sizeof(v))) {
			cm_errorf(err, "%s: cannot read it", path);
			ret = -EIO;
			break;
		}
		lat = strtol(v, NULL, 10);
		ret = put_state(sys, cpu, k, lat > max, changed, err);
	}
	if (!ret) {
		snprintf(c->cstates_now, sizeof(c->cstates_now), "%s", how);
	} else if (first && !*changed) {
		/* nothing written: the record goes, the next sync tries again */
		c->cstates_now[0] = '\0';
		quiet_saved_drop_cpu(s, cpu);
	}
	/* some written: kept, to be put back; a full sync sets the rest */
	return ret;
}

/* gov is one of cpu's scaling_available_governors. */
static bool available(const char *sys, unsigned int cpu, const char *gov)
{
	char path[PATH_MAX], list[512], *tok, *save = NULL;

	snprintf(path, sizeof(path),
		 CPU_DIR "/cpufreq/scaling_available_governors", sys, cpu);
	if (quiet_read_value(path, list, sizeof(list)))
		return false;
	for (tok = strtok_r(list, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save))
		if (!strcmp(tok, gov))
			return true;
	return false;
}

int quiet_governor_set(const char *sys, unsigned int cpu, const char *gov,
		       struct quiet_saved *s, quiet_persist_fn *persist,
		       void *arg, bool *changed, struct cm_error *err)
{
	struct quiet_cpu_orig *c = quiet_saved_cpu(s, cpu, false);
	char path[PATH_MAX], have[QUIET_VALUE_MAX];
	const char *want = gov;
	bool first;
	int ret;

	*changed = false;
	snprintf(path, sizeof(path), CPU_DIR "/cpufreq/scaling_governor", sys,
		 cpu);
	if (!gov[0]) {
		if (!c || !c->governor_now[0])
			return 0;
		want = c->governor;
	} else if (!quiet_cpufreq_exposed(sys, cpu)) {
		return -ENOENT;
	} else if (!available(sys, cpu, gov)) {
		return cm_errorf(err, "cpu-freq-governor: \"%s\" is not among CPU %u's scaling_available_governors",
				 gov, cpu), -EINVAL;
	} else if (!c && !(c = quiet_saved_cpu(s, cpu, true))) {
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	first = gov[0] && !c->governor_now[0];
	ret = quiet_read_value(path, have, sizeof(have));
	if (ret) {
		if (first)
			quiet_saved_drop_cpu(s, cpu);
		return cm_errorf(err, "%s: %s", path, strerror(-ret)), ret;
	}
	/* the governor before cpumgr's, saved the first time */
	if (first) {
		snprintf(c->governor, sizeof(c->governor), "%s", have);
		ret = keep_first(s, cpu, c->governor_now, gov, persist, arg,
				 err);
		if (ret)
			return ret;
	}
	if (strcmp(have, want)) {
		ret = quiet_write_value(path, want);
		if (ret) {
			/* nothing changed: a first record goes again */
			if (first) {
				c->governor_now[0] = '\0';
				quiet_saved_drop_cpu(s, cpu);
			}
			return cm_errorf(err, "%s: %s: %s", path, want,
					 strerror(-ret)), ret;
		}
		*changed = true;
	}
	snprintf(c->governor_now, sizeof(c->governor_now), "%s", gov);
	if (!gov[0])
		quiet_saved_drop_cpu(s, cpu);
	return 0;
}
