// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl resize POD_UID CONTAINER CPUS: resize a running container's
 * exclusive CPUs in place (the admit path's UpdateContainerResources;
 * the NRI plugin does the same on UpdateContainer).  The rules of
 * KEP-5554: the CPUs given at admission stay, a grow adds the nearest
 * free CPUs, a shrink gives back what grows added and never goes below
 * the admission set.  A refusal changes nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"

/* A whole CPU count, as the kubelet gives exclusive CPUs. */
static int parse_count(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 1 << 20) {
		ctl_err("CPUS '%s': must be a whole number of CPUs, at least 1",
			s);
		return CPUMGRCTL_EXIT_USAGE;
	}
	*out = (int)v;
	return 0;
}

static int print(const struct node *n, const char *uid, const char *name,
		 const struct cpuset *cpus, bool json)
{
	const struct node_pod *p = node_find_pod((struct node *)n, uid);
	int k = p ? node_pod_container(p, name) : -1;
	char *now = cpuset_to_str(cpus);
	char *adm = k >= 0 && p->c[k].has_admitted ?
		    cpuset_to_str(&p->c[k].admitted) : NULL;
	cJSON *j;

	if (!now)
		return CPUMGRCTL_EXIT_FAIL;
	if (!json) {
		printf("%s %s %s (admitted %s)\n", uid, name, now,
		       adm ? adm : now);
		free(now);
		free(adm);
		return CPUMGRCTL_EXIT_OK;
	}
	j = cJSON_CreateObject();
	if (!j || !cJSON_AddStringToObject(j, "podUID", uid) ||
	    !cJSON_AddStringToObject(j, "container", name) ||
	    !cJSON_AddStringToObject(j, "cpus", now) ||
	    !cJSON_AddStringToObject(j, "admittedCpus", adm ? adm : now)) {
		cJSON_Delete(j);
		j = NULL;
	}
	free(now);
	free(adm);
	return j ? ctl_print_json(j) : CPUMGRCTL_EXIT_FAIL;
}

static int cmd_resize(const struct ctl_cmdline *cl)
{
	const char *uid = cl->arg[0], *name = cl->arg[1];
	struct cm_error err = { 0 };
	struct cpuset cpus;
	struct node n;
	int num, ret;

	ret = parse_count(cl->arg[2], &num);
	if (ret)
		return ret;
	ret = ctl_node_start(cl, NODE_NEED_CONFIG, &n);
	if (ret)
		return ret;
	n.log = stderr;
	if (node_resize_check(&n, uid, name, &err))
		return ctl_node_bad_input(&n, &err, "resize");
	ret = node_resize(&n, uid, name, num, &cpus, &err);
	if (ret == -EINVAL)
		return ctl_node_bad_input(&n, &err, "resize");
	if (ret)
		return ctl_node_fail(&n, &err, "resize");
	ret = print(&n, uid, name, &cpus, cl->json);
	node_close(&n);
	return ret;
}

CPUMGRCTL_COMMAND(resize) = {
	.name = "resize",
	.help = "resize a running container's exclusive CPUs in place: a grow keeps its CPUs and adds the nearest free ones, a shrink gives back what grows added, never below the CPUs given at admission",
	.args = (const struct ctl_pos[]){
		{ "POD_UID", CTL_ANY, NULL, false, "the pod's UID" },
		{ "CONTAINER", CTL_ANY, NULL, false, "the container's name" },
		{ "CPUS", CTL_ANY, NULL, false, "the new number of exclusive CPUs" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		CTL_OPT_JSON,
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl resize 7c5f0d8e-pod app 4" },
	.run = cmd_resize,
};
