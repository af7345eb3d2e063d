/* SPDX-License-Identifier: GPL-2.0 */
/* Strict accessors over cJSON trees, with "where: what" error texts. */
#ifndef CPUMGR_JSON_UTIL_H
#define CPUMGR_JSON_UTIL_H

#include <stdbool.h>
#include <stdio.h>

#include <cJSON.h>

#include "error.h"

/* An optional member of an object (NULL if absent; JSON null counts as absent). */
const cJSON *json_member(const cJSON *obj, const char *name);
/* Member that must be a string if present; *out NULL when absent. */
int json_opt_string(const cJSON *obj, const char *name, const char **out,
		    const char *where, struct cm_error *err);
/* Member that must be a non-negative integer if present. */
int json_opt_uint(const cJSON *obj, const char *name, int max, int *out,
		  bool *present, const char *where, struct cm_error *err);
/*
 * A number's text: the literal the YAML reader keeps in valuestring, else
 * the shortest decimal that reads back as the same double ("0.1", "2"):
 * what Kubernetes sees where a quantity is written as a JSON number.
 */
const char *json_number_text(const cJSON *n, char *buf, size_t len);
/* Refuse members not in the NULL-terminated list. */
int json_only(const cJSON *obj, const char *const *allowed,
	      const char *where, struct cm_error *err);
/*
 * The rest of f in a malloc'd, NUL-terminated buffer (*len without the
 * NUL); NULL on allocation failure.
 */
char *file_slurp(FILE *f, size_t *len);
/*
 * What json_load() does to a parsed tree j of text, so that it reads as
 * Go's encoding/json reads into a struct: of members with one name the
 * last that is not null stays (the last, when all are null); a string
 * holding U+0000 ("\u0000"), which a C string would cut, is refused
 * with its line and column.  0, or -EINVAL/-ENOMEM with err set.
 */
int json_go_rules(cJSON *j, const char *text, const char *name,
		  struct cm_error *err);
/*
 * Read a whole file (or stdin for "-") and parse it: errors with their
 * line and column, duplicate members and NUL as json_go_rules() says.
 * The tree's values live in memory of json_load()'s own, given back when
 * the last of them is freed (cJSON_Delete() as usual); values added
 * later are malloc'ed.
 */
cJSON *json_load(const char *path, struct cm_error *err);
/*
 * Parse a NUL-terminated text as json_load() does; errors read
 * "NAME:LINE:COLUMN: invalid JSON", as every JSON and YAML error of
 * cpumgrctl does (json_position()).
 */
cJSON *json_parse_text(const char *text, const char *name,
		       struct cm_error *err);
/*
 * Where byte off of text is: its line and column from 1, columns
 * counting characters (UTF-8), as "FILE:LINE:COLUMN: what" names it.
 */
void json_position(const char *text, size_t off, unsigned int *line,
		   unsigned int *col);
/* Bytes json_load() holds for values not yet freed (tests, benchmarks). */
size_t json_load_held(void);

#endif
