// SPDX-License-Identifier: GPL-2.0
/* What was changed to keep CPUs quiet, and what to put back (quiet_saved.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "quiet_saved.h"

void quiet_saved_init(struct quiet_saved *s)
{
	memset(s, 0, sizeof(*s));
}

void quiet_saved_truncate_irqs(struct quiet_saved *s, size_t nr,
			       bool keep_default)
{
	while (s->nr_irqs > nr)
		free(s->irqs[--s->nr_irqs].list);
	if (!keep_default) {
		free(s->default_affinity);
		s->default_affinity = NULL;
	}
}

void quiet_saved_drop_irqs(struct quiet_saved *s, bool keep_failed)
{
	size_t kept = 0;

	for (size_t i = 0; i < s->nr_irqs; i++) {
		if (keep_failed && s->irqs[i].restore_failed) {
			s->irqs[kept] = s->irqs[i];
			s->irqs[kept++].restore_failed = false;
			continue;
		}
		free(s->irqs[i].list);
	}
	s->nr_irqs = kept;
	if (!kept) {
		free(s->irqs);
		s->irqs = NULL;
	}
	free(s->default_affinity);
	s->default_affinity = NULL;
}

void quiet_saved_free(struct quiet_saved *s)
{
	quiet_saved_drop_irqs(s, false);
	free(s->cpus);
	quiet_saved_init(s);
}

bool quiet_saved_rebooted(struct quiet_saved *s, const char *boot_id)
{
	bool other = s->boot_id[0] && boot_id[0] && strcmp(s->boot_id, boot_id);

	if (other) {
		quiet_saved_drop_irqs(s, false);
		cpuset_zero(&s->irq_off);
		free(s->cpus);
		s->cpus = NULL;
		s->nr_cpus = 0;
	}
	snprintf(s->boot_id, sizeof(s->boot_id), "%s", boot_id);
	return other;
}

bool quiet_saved_empty(const struct quiet_saved *s)
{
	return cpuset_empty(&s->irq_off) && !s->nr_irqs &&
	       !s->default_affinity && !s->irqbalance_banned && !s->nr_cpus;
}

struct quiet_irq_orig *quiet_saved_irq(struct quiet_saved *s,
				       unsigned int irq)
{
	for (size_t i = 0; i < s->nr_irqs; i++)
		if (s->irqs[i].irq == irq)
			return &s->irqs[i];
	return NULL;
}

int quiet_saved_add_irq(struct quiet_saved *s, unsigned int irq,
			const char *list, struct cm_error *err)
{
	struct quiet_irq_orig *v;
	char *copy;

	if (quiet_saved_irq(s, irq))
		return 0;
	v = realloc(s->irqs, (s->nr_irqs + 1) * sizeof(*v));
	copy = strdup(list);
	if (!v || !copy) {
		if (v)
			s->irqs = v;
		free(copy);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	s->irqs = v;
	v[s->nr_irqs] = (struct quiet_irq_orig){ .irq = irq, .list = copy };
	s->nr_irqs++;
	return 0;
}

struct quiet_cpu_orig *quiet_saved_cpu(struct quiet_saved *s,
				       unsigned int cpu, bool create)
{
	struct quiet_cpu_orig *v;

	for (size_t i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	if (!create)
		return NULL;
	v = realloc(s->cpus, (s->nr_cpus + 1) * sizeof(*v));
	if (!v)
		return NULL;
	s->cpus = v;
	memset(&v[s->nr_cpus], 0, sizeof(*v));
	v[s->nr_cpus].cpu = cpu;
	return &v[s->nr_cpus++];
}

void quiet_saved_drop_cpu(struct quiet_saved *s, unsigned int cpu)
{
	for (size_t i = 0; i < s->nr_cpus; i++) {
		if (s->cpus[i].cpu != cpu || s->cpus[i].governor_now[0] ||
		    s->cpus[i].cstates_now[0])
			continue;
		memmove(&s->cpus[i], &s->cpus[i + 1],
			(s->nr_cpus - i - 1) * sizeof(*s->cpus));
		s->nr_cpus--;
		return;
	}
}

static bool add_string(cJSON *o, const char *name, const char *v)
{
	return !v || !v[0] || cJSON_AddStringToObject(o, name, v);
}

static cJSON *cpu_json(const struct quiet_cpu_orig *c)
{
	cJSON *o = cJSON_CreateObject(), *a;
	bool ok = o && add_string(o, "governorNow", c->governor_now) &&
		  add_string(o, "governor", c->governor) &&
		  add_string(o, "cStatesNow", c->cstates_now);

	a = ok && c->nr_states ? cJSON_AddArrayToObject(o, "stateDisabled") :
	    NULL;
	for (unsigned int i = 0; a && i < c->nr_states; i++)
		ok &= cJSON_AddItemToArray(a, cJSON_CreateBool(c->state_disabled[i]));
	if (!ok || (c->nr_states && !a)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *quiet_saved_to_json(const struct quiet_saved *s)
{
	cJSON *j = cJSON_CreateObject(), *irqs, *cpus;
	char key[16], *off = cpuset_to_str(&s->irq_off);
	bool ok = j && off && add_string(j, "bootId", s->boot_id) &&
		  cJSON_AddStringToObject(j, "irqOff", off);

	free(off);
	irqs = ok ? cJSON_AddObjectToObject(j, "irqs") : NULL;
	ok = irqs != NULL;
	for (size_t i = 0; ok && i < s->nr_irqs; i++) {
		snprintf(key, sizeof(key), "%u", s->irqs[i].irq);
		ok = cJSON_AddStringToObject(irqs, key, s->irqs[i].list) != NULL;
	}
	ok = ok && add_string(j, "defaultAffinity", s->default_affinity);
	if (ok && s->irqbalance_banned)
		ok = cJSON_AddStringToObject(j, "irqbalanceLine",
					     s->irqbalance_line) != NULL;
	cpus = ok ? cJSON_AddObjectToObject(j, "cpus") : NULL;
	ok = cpus != NULL;
	for (size_t i = 0; ok && i < s->nr_cpus; i++) {
		cJSON *c = cpu_json(&s->cpus[i]);

		snprintf(key, sizeof(key), "%u", s->cpus[i].cpu);
		ok = c && cJSON_AddItemToObject(cpus, key, c);
		if (!ok)
			cJSON_Delete(c);
	}
	if (!ok) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

/* A key of "irqs" or "cpus": a decimal number. */
static int number_key(const cJSON *m, unsigned int max, unsigned int *out,
		      struct cm_error *err)
{
	char *end;
	unsigned long v = strtoul(m->string, &end, 10);

	if (!m->string[0] || *end || v > max)
		return cm_errorf(err, "quiet state: \"%s\": not a number up to %u",
				 m->string, max);
	*out = (unsigned int)v;
	return 0;
}

static int copy_string(const cJSON *o, const char *name, char *buf,
		       size_t len, struct cm_error *err)
{
	const char *v;

	if (json_opt_string(o, name, &v, "quiet state", err))
		return -EINVAL;
	if (v && strlen(v) >= len)
		return cm_errorf(err, "quiet state: %s: too long", name);
	snprintf(buf, len, "%s", v ? v : "");
	return 0;
}

static int cpu_from_json(struct quiet_saved *s, const cJSON *m,
			 struct cm_error *err)
{
	const cJSON *a = json_member(m, "stateDisabled"), *e;
	struct quiet_cpu_orig *c;
	unsigned int cpu;

	if (number_key(m, CPUSET_MAX_CPUS - 1, &cpu, err))
		return -EINVAL;
	if (!cJSON_IsObject(m) || (a && !cJSON_IsArray(a)) ||
	    (a && cJSON_GetArraySize(a) > QUIET_STATES_MAX))
		return cm_errorf(err, "quiet state: cpus.%s: not a CPU's record",
				 m->string);
	c = quiet_saved_cpu(s, cpu, true);
	if (!c)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (copy_string(m, "governorNow", c->governor_now,
			sizeof(c->governor_now), err) ||
	    copy_string(m, "governor", c->governor, sizeof(c->governor),
			err) ||
	    copy_string(m, "cStatesNow", c->cstates_now,
			sizeof(c->cstates_now), err))
		return -EINVAL;
	cJSON_ArrayForEach(e, a) {
		if (!cJSON_IsBool(e))
			return cm_errorf(err, "quiet state: cpus.%s.stateDisabled: not booleans",
					 m->string);
		c->state_disabled[c->nr_states++] = cJSON_IsTrue(e);
	}
	return 0;
}

int quiet_saved_from_json(struct quiet_saved *s, const cJSON *j,
			  struct cm_error *err)
{
	const cJSON *irqs = json_member(j, "irqs"), *cpus = json_member(j, "cpus");
	const cJSON *m;
	const char *off, *def;

	quiet_saved_init(s);
	if (!cJSON_IsObject(j) || (irqs && !cJSON_IsObject(irqs)) ||
	    (cpus && !cJSON_IsObject(cpus)))
		return cm_errorf(err, "quiet state: not an object of irqs and cpus");
	if (copy_string(j, "bootId", s->boot_id, sizeof(s->boot_id), err) ||
	    json_opt_string(j, "irqOff", &off, "quiet state", err) ||
	    json_opt_string(j, "defaultAffinity", &def, "quiet state", err) ||
	    (off && cpuset_parse(&s->irq_off, off, err)) ||
	    copy_string(j, "irqbalanceLine", s->irqbalance_line,
			sizeof(s->irqbalance_line), err))
		goto fail;
	s->irqbalance_banned = json_member(j, "irqbalanceLine") != NULL;
	if (def && !(s->default_affinity = strdup(def)))
		goto oom;
	cJSON_ArrayForEach(m, irqs) {
		unsigned int irq;

		if (number_key(m, INT_MAX, &irq, err))
			goto fail;
		if (!cJSON_IsString(m)) {
			cm_errorf(err, "quiet state: irqs.%s: not a CPU list",
				  m->string);
			goto fail;
		}
		if (quiet_saved_add_irq(s, irq, m->valuestring, err))
			goto fail;
	}
	cJSON_ArrayForEach(m, cpus)
		if (cpu_from_json(s, m, err))
			goto fail;
	return 0;
oom:
	cm_errorf(err, "out of memory");
fail:
	quiet_saved_free(s);
	return -EINVAL;
}
