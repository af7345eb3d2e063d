// SPDX-License-Identifier: GPL-2.0
/* Topology from its JSON form: {"cpus": [{...}, ...]} or {"sysfs": "DIR"}. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "topology_json.h"
#include "topology_sysfs.h"

static const char *const cpu_fields[] = {
	"cpu", "core", "socket", "numa", "uncore", NULL
};

/* Index of a CPU record's member name in cpu_fields, or -1. */
static int cpu_field(const char *name)
{
	int k;

	switch (name[0]) {
	case 'c':
		k = name[1] == 'p' ? 0 : 1;
		break;
	case 's':
		k = 2;
		break;
	case 'n':
		k = 3;
		break;
	case 'u':
		k = 4;
		break;
	default:
		return -1;
	}
	return strcmp(name, cpu_fields[k]) ? -1 : k;
}

/*
 * One record of topology.cpus.  A request can hold thousands: one walk
 * over the members, the error text (json_only(), json_opt_uint(), in
 * that order) made only when there is an error.
 */
static int read_cpu(const cJSON *j, unsigned int i, struct topo_cpu_info *c,
		    struct cm_error *err)
{
	const cJSON *first[5] = { NULL }, *m;
	int *dst[5] = { &c->cpu, &c->core, &c->socket, &c->numa, &c->uncore };
	char where[48];
	int k;

	if (!cJSON_IsObject(j)) {
		snprintf(where, sizeof(where), "topology.cpus[%u]", i);
		return cm_errorf(err, "%s: must be an object", where);
	}
	cJSON_ArrayForEach(m, j) {
		k = cpu_field(m->string);
		if (k < 0) {
			snprintf(where, sizeof(where), "topology.cpus[%u]", i);
			return json_only(j, cpu_fields, where, err) ?: -EINVAL;
		}
		/* the first member of a name counts, JSON null as absent */
		if (!first[k])
			first[k] = m;
	}
	c->uncore = 0;
	for (k = 0; k < 5; k++) {
		m = first[k] && !cJSON_IsNull(first[k]) ? first[k] : NULL;
		if (m && cJSON_IsNumber(m) && m->valuedouble >= 0 &&
		    m->valuedouble <= CPUSET_MAX_CPUS - 1 &&
		    m->valuedouble == (int)m->valuedouble) {
			*dst[k] = (int)m->valuedouble;
			continue;
		}
		if (!m && k == 4)
			continue;
		snprintf(where, sizeof(where), "topology.cpus[%u]", i);
		if (!m)
			return cm_errorf(err, "%s.%s: required", where,
					 cpu_fields[k]);
		return json_opt_uint(j, cpu_fields[k], CPUSET_MAX_CPUS - 1,
				     dst[k], NULL, where, err) ?: -EINVAL;
	}
	return 0;
}

struct topology *topology_from_json(const cJSON *j, struct cm_error *err)
{
	static const char *const fields[] = { "cpus", "sysfs", NULL };
	const cJSON *cpus, *sysfs, *m;
	struct topo_cpu_info *c;
	struct topology *t = NULL;
	unsigned int n = 0;

	if (!cJSON_IsObject(j)) {
		cm_errorf(err, "topology: must be an object");
		return NULL;
	}
	if (json_only(j, fields, "topology", err))
		return NULL;
	cpus = json_member(j, "cpus");
	sysfs = json_member(j, "sysfs");
	if (!!cpus == !!sysfs) {
		cm_errorf(err, "topology: give exactly one of \"cpus\" and \"sysfs\"");
		return NULL;
	}
	if (sysfs) {
		if (!cJSON_IsString(sysfs)) {
			cm_errorf(err, "topology.sysfs: must be a string");
			return NULL;
		}
		t = topology_load_sysfs(sysfs->valuestring, err);
		if (!t)
			cm_error_prefix(err, "topology.sysfs");
		return t;
	}
	if (!cJSON_IsArray(cpus)) {
		cm_errorf(err, "topology.cpus: must be an array");
		return NULL;
	}
	c = calloc((size_t)cJSON_GetArraySize(cpus) + 1, sizeof(*c));
	if (!c) {
		cm_errorf(err, "out of memory");
		return NULL;
	}
	cJSON_ArrayForEach(m, cpus) {
		if (read_cpu(m, n, &c[n], err))
			goto out;
		n++;
	}
	t = topology_new(c, n, err);
	if (!t)
		cm_error_prefix(err, "topology");
out:
	free(c);
	return t;
}
