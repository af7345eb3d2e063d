// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl admit POD_FILE: admit a Pod (or the pods of a PodList), JSON
 * or YAML, "-" for stdin.  Each pod gets its CPUs all or nothing; an
 * admitted pod keeps what it has.  Prints what each container got, and
 * a pod's pool (KEP-5526) when it has one.
 */
#include <stdio.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"
#include "manifest.h"

static void print_human(const cJSON *out)
{
	const cJSON *pod, *c;

	cJSON_ArrayForEach(pod, out) {
		const char *uid = cJSON_GetObjectItem(pod, "podUID")->valuestring;
		const cJSON *pool = cJSON_GetObjectItem(pod, "podCpus");

		/* a pod pool's sharers share the pool, not the node's */
		if (pool)
			printf("%s (pod pool) %s\n", uid,
			       ctl_cpus(pool->valuestring));
		cJSON_ArrayForEach(c, cJSON_GetObjectItem(pod, "containers")) {
			printf("%s %s %s %s\n", uid,
			       cJSON_GetObjectItem(c, "container")->valuestring,
			       cJSON_IsTrue(cJSON_GetObjectItem(c, "exclusive")) ?
			       "exclusive" : pool ? "pod-shared" : "shared",
			       ctl_cpus(cJSON_GetObjectItem(c, "cpus")->valuestring));
		}
	}
}

static int cmd_admit(const struct ctl_cmdline *cl)
{
	const char *src = cl->arg[0];
	struct cm_error err = { 0 };
	cJSON *docs, *out;
	struct node n;
	int ret;

	/* bad input is refused before anything changes */
	docs = manifest_load(src, &err);
	if (!docs) {
		ctl_err("%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_USAGE;
	}
	ret = ctl_node_start(cl, NODE_NEED_CONFIG, &n);
	if (ret) {
		cJSON_Delete(docs);
		return ret;
	}
	n.log = stderr;
	out = cJSON_CreateArray();
	ret = out ? node_admit(&n, docs, src, out, &err) : -1;
	cJSON_Delete(docs);
	if (ret) {
		cJSON_Delete(out);
		return ctl_node_fail(&n, &err, NULL);
	}
	node_close(&n);
	if (cl->json)
		return ctl_print_json(out);
	print_human(out);
	cJSON_Delete(out);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(admit) = {
	.name = "admit",
	.help = "admit a Pod or PodList (JSON or YAML): exclusive CPUs for its Guaranteed integer containers, but those its pod annotates prefer-shared-cpus.cpumgr.io/container.NAME: \"true\" (or /pod), which run on the shared pool",
	.args = (const struct ctl_pos[]){
		{ "POD_FILE|-", CTL_FILE, NULL, false, "a Pod or a PodList, JSON or YAML (- for stdin)" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		CTL_OPT_JSON,
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl admit pod.yaml", "kubectl get pod web -o json | cpumgrctl admit -j -",
		      "cpumgrctl admit examples/pods/guaranteed-shared-sidecar.json" },
	.run = cmd_admit,
};
