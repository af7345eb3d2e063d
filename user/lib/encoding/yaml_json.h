/* SPDX-License-Identifier: GPL-2.0 */
/*
 * YAML to cJSON, giving scalars the types Kubernetes gives them
 * (sigs.k8s.io/yaml: go-yaml v2's YAML 1.1 resolution, then JSON):
 *
 *   plain  true/True/TRUE/yes/y/on/...    -> true   (false/no/n/off -> false)
 *          null/Null/NULL/~/empty          -> null
 *          1_000, 0x1f, 0o17, 017, 0b101   -> integers (017 is octal!)
 *          1.5, .5, 1e3, 08                -> numbers
 *          2024-01-02, 2024-1-2T3:04:05Z   -> "2024-01-02T00:00:00Z" ...
 *          500m, 1Gi, v1, anything else    -> strings
 *   quoted and block scalars, !!str        -> strings
 *
 * Numbers keep their JSON text in the node's valuestring (cJSON ignores
 * it for numbers): an integer beyond 2^53 or a quantity like 0.1 stays
 * exact for json_number_text().  Mapping keys become strings as
 * YAMLToJSON makes them (1 -> "1", true -> "true"); null or collection
 * keys, duplicate keys, !!binary and .inf/.nan values are errors.
 * Anchors and aliases are resolved (copies, with a bound against alias
 * bombs); merge keys (<<) merge in document order as go-yaml v2 does.
 * Errors read "LINE:COLUMN: what".
 */
#ifndef CPUMGR_YAML_JSON_H
#define CPUMGR_YAML_JSON_H

#include <stddef.h>

#include <cJSON.h>

#include "error.h"

/* Every document of the stream, in a cJSON array (empty for no document). */
cJSON *yaml_json_parse_all(const char *buf, size_t len, struct cm_error *err);
/* The first document (JSON null for an empty stream). */
cJSON *yaml_json_parse(const char *buf, size_t len, struct cm_error *err);

#endif
