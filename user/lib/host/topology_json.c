// SPDX-License-Identifier: GPL-2.0
/*
 * Topology from its JSON form: {"cpus": [{...}, ...]} or {"sysfs": "DIR"}.
 * A record is {"cpu", "core", "socket", "numa", "uncore"}; what
 * `cpumgrctl topology --json` prints besides ("die", "siblings",
 * "online", "known") is taken too, so its output is a topology here: a
 * CPU that is offline or unknown is not part of it, as the kubelet sees
 * only online CPUs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "topology_json.h"
#include "topology_sysfs.h"

static const char *const cpu_fields[] = {
	"cpu", "core", "socket", "numa", "uncore",
	"die", "siblings", "online", "known", NULL
};

#define F_DIE		5
#define F_SIBLINGS	6
#define F_ONLINE	7
#define F_KNOWN		8
#define CPU_FIELDS	9

/* Index of a CPU record's member name in cpu_fields, or -1. */
static int cpu_field(const char *name)
{
	int k;

	switch (name[0]) {
	case 'c':
		k = name[1] == 'p' ? 0 : 1;
		break;
	case 's':
		k = name[1] == 'o' ? 2 : F_SIBLINGS;
		break;
	case 'n':
		k = 3;
		break;
	case 'u':
		k = 4;
		break;
	case 'd':
		k = F_DIE;
		break;
	case 'o':
		k = F_ONLINE;
		break;
	case 'k':
		k = F_KNOWN;
		break;
	default:
		return -1;
	}
	return strcmp(name, cpu_fields[k]) ? -1 : k;
}

/* A record's number: an integer from 0 to CPUSET_MAX_CPUS - 1. */
static int read_uint(const cJSON *m, int *dst, const char *where,
		     struct cm_error *err)
{
	if (cJSON_IsNumber(m) && m->valuedouble >= 0 &&
	    m->valuedouble <= CPUSET_MAX_CPUS - 1 &&
	    m->valuedouble == (int)m->valuedouble) {
		*dst = (int)m->valuedouble;
		return 0;
	}
	return cm_errorf(err, "%s.%s: must be an integer from 0 to %d", where,
			 m->string, CPUSET_MAX_CPUS - 1);
}

/*
 * One record of topology.cpus.  A request can hold thousands: one walk
 * over the members, the error text made only when there is an error.
 * Members with the same name are read as Go's encoding/json reads them
 * into a struct: each is checked (the first bad one is the error), the
 * last counts, null changes nothing.  An unknown member is the error
 * before any other.  *skip: a CPU that is offline or not known, not
 * part of the topology.
 */
static int read_cpu(const cJSON *j, unsigned int i, struct topo_cpu_info *c,
		    bool *skip, struct cm_error *err)
{
	int *dst[CPU_FIELDS] = { &c->cpu, &c->core, &c->socket, &c->numa,
				 &c->uncore };
	bool seen[CPU_FIELDS] = { false };
	const cJSON *m;
	char where[48];
	int k, die;

	snprintf(where, sizeof(where), "topology.cpus[%u]", i);
	if (!cJSON_IsObject(j))
		return cm_errorf(err, "%s: must be an object", where);
	cJSON_ArrayForEach(m, j)
		if (cpu_field(m->string) < 0)
			return json_only(j, cpu_fields, where, err) ?: -EINVAL;
	dst[F_DIE] = &die;
	c->uncore = 0;
	cJSON_ArrayForEach(m, j) {
		k = cpu_field(m->string);
		if (cJSON_IsNull(m))
			continue;
		if (k == F_SIBLINGS && !cJSON_IsString(m))
			return cm_errorf(err, "%s.siblings: must be a string",
					 where);
		if ((k == F_ONLINE || k == F_KNOWN) && !cJSON_IsBool(m))
			return cm_errorf(err, "%s.%s: must be true or false",
					 where, m->string);
		if (dst[k] && read_uint(m, dst[k], where, err))
			return -EINVAL;
		if (k == F_ONLINE || k == F_KNOWN)
			seen[k] = cJSON_IsFalse(m);
		else
			seen[k] = true;
	}
	*skip = seen[F_ONLINE] || seen[F_KNOWN];
	/* an offline CPU's place is not asked for; no uncore is cache 0 */
	for (k = 0; k < 4; k++)
		if (!seen[k] && !(*skip && k))
			return cm_errorf(err, "%s.%s: required", where,
					 cpu_fields[k]);
	return 0;
}

struct topology *topology_from_json(const cJSON *j, struct cm_error *err)
{
	static const char *const fields[] = { "cpus", "sysfs", NULL };
	const cJSON *cpus, *sysfs, *m;
	struct topo_cpu_info *c;
	struct topology *t = NULL;
	unsigned int n = 0, i = 0;

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
		bool skip = false;

		if (read_cpu(m, i++, &c[n], &skip, err))
			goto out;
		n += !skip;
	}
	t = topology_new(c, n, err);
	if (!t)
		cm_error_prefix(err, "topology");
out:
	free(c);
	return t;
}
