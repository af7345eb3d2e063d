/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kubernetes manifests from a file or stdin, JSON or YAML as kubectl
 * takes them:
 * JSON when the first non-blank byte is '{', else a YAML stream of one
 * or more documents (yaml_json.h).  Errors name the source and place:
 * "pod.yaml:3:7: mapping values are not allowed in this context".
 */
#ifndef CPUMGR_MANIFEST_H
#define CPUMGR_MANIFEST_H

#include <stddef.h>

#include <cJSON.h>

#include "error.h"

/* The whole file ("-": stdin), NUL-terminated; a NUL inside is an error. */
char *manifest_read(const char *path, size_t *len, struct cm_error *err);
/* Every document, in a cJSON array; name is used in messages. */
cJSON *manifest_parse(const char *buf, size_t len, const char *name,
		      struct cm_error *err);
/* manifest_read() and manifest_parse(). */
cJSON *manifest_load(const char *path, struct cm_error *err);

#endif
