/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One YAML scalar's type and value as go-yaml v2 resolves it (resolve.go)
 * and as encoding/json then prints it: the typing half of yaml_json.c.
 */
#ifndef CPUMGR_YAML_SCALAR_H
#define CPUMGR_YAML_SCALAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum yaml_scalar_kind {
	YAML_SCALAR_STRING,	/* the value as written */
	YAML_SCALAR_NULL, YAML_SCALAR_BOOL,
	YAML_SCALAR_INT,		/* int64 */
	YAML_SCALAR_UINT,	/* above int64, up to uint64 */
	YAML_SCALAR_FLOAT,
	YAML_SCALAR_TIME,	/* text: RFC 3339 as time.Time marshals it */
	YAML_SCALAR_MERGE,	/* the merge key "<<" */
};

struct ys {
	enum yaml_scalar_kind kind;
	bool boolean;
	double num;		/* YAML_SCALAR_INT, YAML_SCALAR_UINT, YAML_SCALAR_FLOAT */
	char text[48];		/* numbers: their JSON text; YAML_SCALAR_TIME */
};

/*
 * Resolve a scalar.  tag is libyaml's (NULL when none); plain is false
 * for quoted and block scalars.  Errors: a tag the value does not fit
 * ("cannot decode !!str `abc` as a !!int"), !!binary, .inf and .nan
 * (JSON has no such numbers).
 */
int yaml_scalar_resolve(const char *value, const char *tag, bool plain,
			struct ys *out, struct cm_error *err);

/*
 * A resolved non-string scalar as a mapping key, the way YAMLToJSON
 * converts keys (ints in decimal, floats as float32 %g, true/false);
 * -EINVAL for null, timestamps and uint64 keys it refuses.
 */
int yaml_scalar_key(const struct ys *s, char *buf, size_t len,
		    struct cm_error *err);

#endif
