/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Pod objects an input holds, as operators write them and kubectl
 * prints them: a Pod, a PodList or a List of Pods (`kubectl get pods -o
 * json|yaml`), or several YAML documents of those.  Empty documents are
 * skipped as kubectl skips them; any other kind is an error, and so is a
 * pod UID given twice.
 */
#ifndef CPUMGR_PODLIST_H
#define CPUMGR_PODLIST_H

#include <cJSON.h>

#include "error.h"
#include "pod.h"

struct pod_list {
	unsigned int nr;
	struct pod *pods;
};

/* From a file ("-": stdin), JSON or YAML. */
int pod_list_load(const char *path, struct pod_list *out,
		  struct cm_error *err);
/* From parsed documents (a cJSON array, see manifest.h). */
int pod_list_from_docs(const cJSON *docs, const char *name,
		       struct pod_list *out, struct cm_error *err);
void pod_list_free(struct pod_list *l);

#endif
