// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

const cJSON *json_member(const cJSON *obj, const char *name)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);

	return m && !cJSON_IsNull(m) ? m : NULL;
}

int json_opt_string(const cJSON *obj, const char *name, const char **out,
		    const char *where, struct cm_error *err)
{
	const cJSON *m = json_member(obj, name);

	*out = NULL;
	if (!m)
		return 0;
	if (!cJSON_IsString(m))
		return cm_errorf(err, "%s%s%s: must be a string", where,
				 *where ? "." : "", name);
	*out = m->valuestring;
	return 0;
}

int json_opt_uint(const cJSON *obj, const char *name, int max, int *out,
		  bool *present, const char *where, struct cm_error *err)
{
	const cJSON *m = json_member(obj, name);
	double v;

	if (present)
		*present = m != NULL;
	if (!m)
		return 0;
	v = m->valuedouble;
	if (!cJSON_IsNumber(m) || v < 0 || v > max || floor(v) != v)
		return cm_errorf(err, "%s%s%s: must be an integer from 0 to %d",
				 where, *where ? "." : "", name, max);
	*out = (int)v;
	return 0;
}

const char *json_number_text(const cJSON *n, char *buf, size_t len)
{
	if (n->valuestring)
		return n->valuestring;
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, n->valuedouble);
		if (strtod(buf, NULL) == n->valuedouble)
			break;
	}
	return buf;
}

int json_only(const cJSON *obj, const char *const *allowed,
	      const char *where, struct cm_error *err)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, obj) {
		const char *const *a;

		for (a = allowed; *a; a++)
			if (!strcmp(*a, m->string))
				break;
		if (!*a)
			return cm_errorf(err, "%s%sunknown field \"%s\"", where,
					 *where ? ": " : "", m->string);
	}
	return 0;
}

char *file_slurp(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, r;
	char *buf = malloc(cap + 1), *nb;

	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
	}
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

cJSON *json_load(const char *path, struct cm_error *err)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "re");
	const char *end = NULL;
	cJSON *j = NULL;
	size_t len;
	char *buf;

	if (!f) {
		cm_errorf(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = file_slurp(f, &len);
	if (ferror(f) || !buf)
		cm_errorf(err, "%s: read error", is_stdin ? "stdin" : path);
	else if (strlen(buf) != len)
		cm_errorf(err, "%s: NUL byte in JSON", is_stdin ? "stdin" : path);
	else if (!(j = cJSON_ParseWithOpts(buf, &end, true)))
		cm_errorf(err, "%s: invalid JSON at byte %ld",
			  is_stdin ? "stdin" : path,
			  end ? (long)(end - buf) : 0L);
	if (!is_stdin)
		fclose(f);
	free(buf);
	return j;
}
