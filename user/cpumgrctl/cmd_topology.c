// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl topology: the CPU topology the controller allocates on, as
 * the kernel reports it (or from a sysfs-shaped tree with --sysfs, no
 * kernel needed).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "node.h"
#include "topology_sysfs.h"

struct topo_out {
	cJSON *json;		/* the "cpus" array */
	unsigned int nr;
};

/*
 * The machine-unique core id, as the kubelet and the allocator number
 * cores: the lowest CPU of the core (siblings lists it first).
 */
static unsigned int core_id(const struct cpumgr_cpu *c)
{
	char *end;
	unsigned long first = c->siblings ? strtoul(c->siblings, &end, 10) : 0;

	return c->siblings && end != c->siblings ? (unsigned int)first : c->id;
}

/* {"cpus": [...]}: what plan takes as its "topology" */
static cJSON *topo_json(cJSON **cpus)
{
	cJSON *j = cJSON_CreateObject();

	*cpus = j ? cJSON_AddArrayToObject(j, "cpus") : NULL;
	if (!*cpus) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

static int print_cpu(const struct cpumgr_cpu *c, void *arg)
{
	struct topo_out *o = arg;
	cJSON *j;

	o->nr++;
	if (!o->json) {
		if (!c->known)
			printf("%4u %-6s -\n", c->id, "-");
		else
			printf("%4u %-6s %6u %4u %5u %4u %6u %s\n", c->id,
			       c->online ? "yes" : "no", c->package, c->die,
			       core_id(c), c->numa, c->llc,
			       c->siblings ? c->siblings : "");
		return 0;
	}
	j = cJSON_CreateObject();
	if (!j || !cJSON_AddItemToArray(o->json, j) ||
	    !cJSON_AddNumberToObject(j, "cpu", c->id) ||
	    !cJSON_AddBoolToObject(j, "known", c->known) ||
	    !cJSON_AddBoolToObject(j, "online", c->online))
		return -1;
	if (c->known &&
	    (!cJSON_AddNumberToObject(j, "socket", c->package) ||
	     !cJSON_AddNumberToObject(j, "die", c->die) ||
	     !cJSON_AddNumberToObject(j, "core", core_id(c)) ||
	     !cJSON_AddNumberToObject(j, "numa", c->numa) ||
	     !cJSON_AddNumberToObject(j, "uncore", c->llc) ||
	     !cJSON_AddStringToObject(j, "siblings", c->siblings ?: "")))
		return -1;
	return 0;
}

/* A sysfs tree: the model the allocator uses (no die, no online flag). */
static int from_sysfs(const char *dir, bool json)
{
	struct cm_error err = { 0 };
	struct topology *t = topology_load_sysfs(dir, &err);
	cJSON *root = NULL, *cpus = NULL;
	int cpu;

	if (!t) {
		ctl_err("%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	if (json && !(root = topo_json(&cpus))) {
		topology_free(t);
		ctl_err("out of memory");
		return CPUMGRCTL_EXIT_FAIL;
	}
	if (!json)
		printf(" cpu socket core numa uncore\n");
	cpuset_for_each(cpu, &t->cpus) {
		struct topo_cpu_info i;
		cJSON *j;

		topology_cpu_info(t, cpu, &i);
		if (!json) {
			printf("%4d %6d %4d %4d %6d\n", i.cpu, i.socket, i.core,
			       i.numa, i.uncore);
			continue;
		}
		j = cJSON_CreateObject();
		cJSON_AddItemToArray(cpus, j);
		cJSON_AddNumberToObject(j, "cpu", i.cpu);
		cJSON_AddNumberToObject(j, "socket", i.socket);
		cJSON_AddNumberToObject(j, "core", i.core);
		cJSON_AddNumberToObject(j, "numa", i.numa);
		cJSON_AddNumberToObject(j, "uncore", i.uncore);
	}
	topology_free(t);
	return json ? ctl_print_json(root) : CPUMGRCTL_EXIT_OK;
}

static int cmd_topology(const struct ctl_cmdline *cl)
{
	const char *sysfs = ctl_val(cl, "sysfs");
	struct topo_out o = { 0 };
	struct cpumgr_nl *nl;
	bool json = cl->json;
	cJSON *root = NULL;

	if (sysfs)
		return from_sysfs(sysfs, json);
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (json && !(root = topo_json(&o.json))) {
		cpumgr_nl_close(nl);
		ctl_err("out of memory");
		return CPUMGRCTL_EXIT_FAIL;
	}
	if (!json)
		printf(" cpu online socket  die  core numa uncore siblings\n");
	if (cpumgr_nl_dump_topology(nl, print_cpu, &o) < 0) {
		cJSON_Delete(root);
		return ctl_nl_fail(nl, "dump topology");
	}
	cpumgr_nl_close(nl);
	return json ? ctl_print_json(root) : CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(topology) = {
	.name = "topology",
	.help = "the CPU topology as the kernel reports it (or as a sysfs tree describes it)",
	.opts = (const struct ctl_opt[]){
		CTL_OPT_JSON,
		{ "sysfs", 0, "DIR", CTL_DIR, NULL, "read a sysfs-shaped tree (DIR/devices/system/...), no module needed" },
		{ NULL }
	},
	.examples = { "cpumgrctl topology", "cpumgrctl topology --json --sysfs /sys" },
	.kernel = true,
	.run = cmd_topology,
};
