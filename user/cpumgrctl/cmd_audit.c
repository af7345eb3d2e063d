// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl audit: check every cgroup of the managed tree against the
 * kernel's rule by what its tasks can actually run on
 * (cpuset.cpus.effective), inherited CPUs included.  Exit 3 with one
 * line per offender, 0 when the node is clean, 1 when it could not run.
 * Reads only: no lock, no sync, any user who can read the tree.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"

/* {"clean", "cgroupCount", "cgroupRoot", "offenders": [{cgroupPath, cpus, owner}]} */
static cJSON *audit_json(const struct node_audit *a, const char *root)
{
	cJSON *j = cJSON_CreateObject(), *list;
	bool ok = j && cJSON_AddBoolToObject(j, "clean", !a->nr) &&
		  cJSON_AddNumberToObject(j, "cgroupCount", a->checked) &&
		  cJSON_AddStringToObject(j, "cgroupRoot", root) &&
		  (list = cJSON_AddArrayToObject(j, "offenders"));

	for (unsigned int i = 0; ok && i < a->nr; i++) {
		/* owned by the list from here, freed with it */
		cJSON *o = cJSON_CreateObject();
		char *cpus = cpuset_to_str(&a->v[i].cpus);

		if (o && !cJSON_AddItemToArray(list, o)) {
			cJSON_Delete(o);
			o = NULL;
		}
		ok = o && cpus &&
		     cJSON_AddStringToObject(o, "cgroupPath", a->v[i].name) &&
		     cJSON_AddStringToObject(o, "cpus", cpus) &&
		     cJSON_AddStringToObject(o, "owner", a->v[i].owner);
		free(cpus);
	}
	if (!ok) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

static int cmd_audit(const struct ctl_cmdline *cl)
{
	struct cm_error err = { 0 };
	struct node_audit a;
	struct node n;
	int ret;

	ret = ctl_node_start(cl, NODE_NEED_CONFIG | NODE_READ_ONLY, &n);
	if (ret)
		return ret;
	if (node_audit(&n, &a, &err))
		return ctl_node_fail(&n, &err, "audit");
	if (cl->json) {
		cJSON *j = audit_json(&a, n.cfg.cgroup_root);

		ret = a.nr ? CPUMGRCTL_EXIT_FOUND : CPUMGRCTL_EXIT_OK;
		node_audit_free(&a);
		node_close(&n);
		if (!j) {
			ctl_err("out of memory");
			return CPUMGRCTL_EXIT_FAIL;
		}
		return ctl_print_json(j) ?: ret;
	}
	for (unsigned int i = 0; i < a.nr; i++) {
		char *cpus = cpuset_to_str(&a.v[i].cpus);

		printf("offender %s cpus %s of %s\n", a.v[i].name,
		       cpus ? cpus : "?", a.v[i].owner);
		free(cpus);
	}
	if (!a.nr)
		printf("audit: clean, %u cgroup%s checked under %s\n",
		       a.checked, ctl_plural(a.checked), n.cfg.cgroup_root);
	ret = a.nr ? CPUMGRCTL_EXIT_FOUND : CPUMGRCTL_EXIT_OK;
	node_audit_free(&a);
	node_close(&n);
	return ret;
}

CPUMGRCTL_COMMAND(audit) = {
	.name = "audit",
	.help = "list cgroups that can run on CPUs they may not hold (exit 3 if any)",
	.opts = (const struct ctl_opt[]){
		CTL_OPT_JSON,
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl audit || echo offenders" },
	.run = cmd_audit,
};
