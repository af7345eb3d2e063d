// SPDX-License-Identifier: GPL-2.0
/* Topology from its JSON form: {"cpus": [{...}, ...]} or {"sysfs": "DIR"}. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "json_util.h"
#include "topology_json.h"

static int read_cpu(const cJSON *j, unsigned int i, struct topo_cpu_info *c,
		    struct cm_error *err)
{
	static const char *const fields[] = {
		"cpu", "core", "socket", "numa", "uncore", NULL
	};
	char where[48];
	bool present[5];
	int *dst[5] = { &c->cpu, &c->core, &c->socket, &c->numa, &c->uncore };

	snprintf(where, sizeof(where), "topology.cpus[%u]", i);
	if (!cJSON_IsObject(j))
		return cm_errorf(err, "%s: must be an object", where);
	if (json_only(j, fields, where, err))
		return -EINVAL;
	c->uncore = 0;
	for (int k = 0; k < 5; k++) {
		if (json_opt_uint(j, fields[k], CPUSET_MAX_CPUS - 1, dst[k],
				  &present[k], where, err))
			return -EINVAL;
		if (!present[k] && k < 4)
			return cm_errorf(err, "%s.%s: required", where,
					 fields[k]);
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
