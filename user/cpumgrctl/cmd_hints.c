// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl hints POD_FILE [--container NAME]: the CPU manager's topology
 * hints for a pod and its containers, as the kubelet's
 * GetPodTopologyHints() and GetTopologyHints() give them to the topology
 * manager: NUMA node masks, each preferred or not; none at all when the
 * CPU manager has no preference.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"
#include "podlist.h"

static cJSON *hints_json(const struct hint_list *l)
{
	cJSON *arr;

	if (l->no_preference)
		return cJSON_CreateNull();
	arr = cJSON_CreateArray();
	for (unsigned int i = 0; arr && i < l->nr; i++) {
		cJSON *h = cJSON_CreateObject(), *nodes;

		cJSON_AddItemToArray(arr, h);
		nodes = cJSON_AddArrayToObject(h, "numaNodes");
		for (int b = 0; b < 64; b++)
			if (l->hints[i].numa >> b & 1)
				cJSON_AddItemToArray(nodes,
						     cJSON_CreateNumber(b));
		cJSON_AddBoolToObject(h, "preferred", l->hints[i].preferred);
	}
	return arr;
}

static void print_hints(const char *who, const struct hint_list *l)
{
	printf("%s:", who);
	if (l->no_preference)
		printf(" no preference");
	else if (!l->nr)
		printf(" none (cannot be satisfied)");
	for (unsigned int i = 0; i < l->nr; i++) {
		const char *sep = "";

		printf(" numa ");
		for (int b = 0; b < 64; b++)
			if (l->hints[i].numa >> b & 1) {
				printf("%s%d", sep, b);
				sep = ",";
			}
		printf(" %s", l->hints[i].preferred ? "preferred" :
			      "not-preferred");
		if (i + 1 < l->nr)
			putchar(';');
	}
	putchar('\n');
}

static int pod_hints(struct node *n, const struct pod *pod, const char *only,
		     bool text, cJSON *out, struct cm_error *err)
{
	cJSON *pj = cJSON_CreateObject(), *cs;
	struct hint_list l;

	cJSON_AddItemToArray(out, pj);
	cJSON_AddStringToObject(pj, "podUID", pod->uid);
	if (cpu_policy_pod_hints(&n->policy, &n->assignments, pod, &l, err))
		return -1;
	cJSON_AddItemToObject(pj, "hints", hints_json(&l));
	if (!only && text)
		print_hints(pod->uid, &l);
	hint_list_free(&l);
	cs = cJSON_AddArrayToObject(pj, "containers");
	for (unsigned int i = 0; i < pod->nr; i++) {
		const struct pod_container *c = &pod->containers[i];
		char who[160];
		cJSON *cj;

		if (only && strcmp(only, c->name))
			continue;
		if (cpu_policy_container_hints(&n->policy, &n->assignments, pod,
					       c, &l, err))
			return -1;
		cj = cJSON_CreateObject();
		cJSON_AddItemToArray(cs, cj);
		cJSON_AddStringToObject(cj, "container", c->name);
		cJSON_AddItemToObject(cj, "hints", hints_json(&l));
		snprintf(who, sizeof(who), "%s/%s", pod->uid, c->name);
		if (text)
			print_hints(who, &l);
		hint_list_free(&l);
	}
	return 0;
}

static int cmd_hints(const struct ctl_cmdline *cl)
{
	const char *only = ctl_val(cl, "container");
	struct pod_list list = { 0 };
	struct cm_error err = { 0 };
	bool json = cl->json;
	struct node n;
	cJSON *out;
	int ret = 0;

	if (pod_list_load(cl->arg[0], &list, &err)) {
		ctl_err("%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_USAGE;
	}
	for (unsigned int i = 0; only && i < list.nr; i++)
		if (!pod_container(&list.pods[i], only)) {
			ctl_err("pod %s has no container %s",
				list.pods[i].uid, only);
			pod_list_free(&list);
			return CPUMGRCTL_EXIT_USAGE;
		}
	/* the free CPUs are what the reduced view shows too */
	ret = ctl_node_start(cl, NODE_NEED_CONFIG | NODE_READ_ONLY |
			     NODE_RESTRICTED_OK, &n);
	if (ret) {
		pod_list_free(&list);
		return ret;
	}
	out = cJSON_CreateArray();
	ret = node_policy(&n, &err);
	for (unsigned int i = 0; !ret && i < list.nr; i++) {
		/* a system pod asks for no exclusive CPUs: no hint */
		node_pod_mark_system(&n, &list.pods[i]);
		ret = pod_hints(&n, &list.pods[i], only, !json, out, &err);
	}
	pod_list_free(&list);
	if (ret) {
		cJSON_Delete(out);
		return ctl_node_fail(&n, &err, "hints");
	}
	node_close(&n);
	if (!json) {
		cJSON_Delete(out);
		return CPUMGRCTL_EXIT_OK;
	}
	return ctl_print_json(out);
}

CPUMGRCTL_COMMAND(hints) = {
	.name = "hints",
	.help = "the CPU manager's topology hints (NUMA masks, preferred) for a pod and its containers",
	.args = (const struct ctl_pos[]){
		{ "POD_FILE", CTL_FILE, NULL, false, "a Pod or a PodList, JSON or YAML" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		{ "container", 'c', "NAME", CTL_ANY, NULL, "this container's hints only" },
		CTL_OPT_JSON,
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl hints pod.yaml --container app" },
	.run = cmd_hints,
};
