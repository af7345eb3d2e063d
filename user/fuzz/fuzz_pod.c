// SPDX-License-Identifier: GPL-2.0
/*
 * Pod documents as `cpumgrctl admit` reads them: manifest_parse() (one JSON
 * object, or a YAML stream of one or more documents), then
 * pod_list_from_docs() (Pod, PodList, List), then what the policy asks of
 * each pod: its QoS class and its guaranteed CPUs.
 */
#include "manifest.h"
#include "fuzz_util.h"
#include "podlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cm_error err = { 0 };
	struct pod_list list = { 0 };
	char *text = fuzz_text(data, size);
	cJSON *docs;

	if (!text)
		return 0;
	docs = manifest_parse(text, size, "fuzz", &err);
	fuzz_assert(docs || err.msg);
	if (docs && !pod_list_from_docs(docs, "fuzz", &list, &err)) {
		for (unsigned int i = 0; i < list.nr; i++) {
			const struct pod *p = &list.pods[i];

			fuzz_assert(pod_qos_name(pod_qos(p)));
			fuzz_assert(pod_guaranteed_cpus_total(p) >= 0);
			for (unsigned int c = 0; c < p->nr; c++) {
				fuzz_assert(p->containers[c].name[0]);
				fuzz_assert(pod_container(p, p->containers[c].name));
				fuzz_assert(pod_guaranteed_cpus(p, &p->containers[c]) >= 0);
			}
		}
		pod_list_free(&list);
	} else if (docs) {
		fuzz_assert(err.msg);
	}
	cJSON_Delete(docs);
	cm_error_clear(&err);
	free(text);
	return 0;
}
