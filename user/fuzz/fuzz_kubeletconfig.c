// SPDX-License-Identifier: GPL-2.0
/*
 * A KubeletConfiguration as `cpumgrctl init --config` reads it: the
 * document (JSON or YAML, the first one decoded) as kubelet_config_load()
 * parses it, then kubelet flags, then what the CPU manager gets
 * (kubelet_config_finish()), checked against an 8-CPU node and turned
 * into a policy there.  Flags ride in YAML comments, one a line:
 * "#--kube-reserved=cpu=500m" (a JSON input has none).
 */
#include <errno.h>

#include "manifest.h"
#include "fuzz_util.h"
#include "kubeletconfig.h"

static int apply_flags(struct kubelet_config *c, char *text,
		       struct cm_error *err)
{
	for (char *line = strstr(text, "#--"); line;
	     line = strstr(line, "#--")) {
		char *end = strchr(line, '\n'), *eq;
		int ret;

		if (end)
			*end = '\0';
		eq = strchr(line, '=');
		if (eq)
			*eq = '\0';
		ret = kubelet_config_flag(c, line + 1, eq ? eq + 1 : "", err);
		if (eq)
			*eq = '=';
		if (end)
			*end = '\n';
		if (ret && ret != -ENOENT) {
			fuzz_assert(err->msg);
			return ret;
		}
		if (!end)
			break;
		line = end + 1;
	}
	return 0;
}

static void use(struct kubelet_config *c)
{
	const struct topology *t = fuzz_topology();
	struct cm_error err = { 0 };
	struct cpu_policy p;

	if (kubelet_config_check_topology(c, t, &err) ||
	    cpu_policy_check_config(&c->policy, &err)) {
		fuzz_assert(err.msg);
	} else if (!cpu_policy_init(&p, t, &c->policy, &err)) {
		struct cpu_assignments s;

		assignments_init(&s);
		if (cpu_policy_start(&p, &s, &err))
			fuzz_assert(err.msg);
		assignments_free(&s);
		cpu_policy_destroy(&p);
	}
	cm_error_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cm_error err = { 0 };
	struct kubelet_config c;
	char *text = fuzz_text(data, size);
	cJSON *docs = NULL;

	if (!text || !size) {
		free(text);
		return 0;
	}
	fuzz_assert(!kubelet_config_init(&c));
	docs = manifest_parse(text, size, "fuzz", &err);
	if (!docs ||
	    kubelet_config_from_json(&c, cJSON_GetArrayItem(docs, 0), &err) ||
	    apply_flags(&c, text, &err) || kubelet_config_finish(&c, &err)) {
		fuzz_assert(err.msg);
	} else {
		fuzz_assert(!err.msg);
		use(&c);
	}
	cJSON_Delete(docs);
	kubelet_config_free(&c);
	cm_error_clear(&err);
	free(text);
	return 0;
}
