/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Documents from a file or stdin, JSON or YAML as kubectl takes them:
 * JSON when the first non-blank byte is '{', else a YAML stream of one
 * or more documents (yaml_json.h).  Errors name the source and place:
 * "pod.yaml:3:7: mapping values are not allowed in this context".
 */
#ifndef CPUMGR_DOCLOAD_H
#define CPUMGR_DOCLOAD_H

#include <stddef.h>

#include <cJSON.h>

#include "error.h"

/* The whole file ("-": stdin), NUL-terminated; a NUL inside is an error. */
char *doc_read(const char *path, size_t *len, struct cm_error *err);
/* Every document, in a cJSON array; name is used in messages. */
cJSON *doc_parse(const char *buf, size_t len, const char *name,
		 struct cm_error *err);
/* doc_read() and doc_parse(). */
cJSON *doc_load(const char *path, struct cm_error *err);

#endif
