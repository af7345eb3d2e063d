// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "json_util.h"
#include "yaml_json.h"

static const char *display(const char *path)
{
	return strcmp(path, "-") ? path : "stdin";
}

char *manifest_read(const char *path, size_t *len, struct cm_error *err)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "re");
	char *buf;

	if (!f) {
		cm_errorf(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = file_slurp(f, len);
	if (!buf || ferror(f)) {
		cm_errorf(err, "%s: read error", display(path));
		free(buf);
		buf = NULL;
	} else if (strlen(buf) != *len) {
		cm_errorf(err, "%s: a NUL byte in the text", display(path));
		free(buf);
		buf = NULL;
	}
	if (!is_stdin)
		fclose(f);
	return buf;
}

/* cJSON reports only where it stopped: turn that into line:column. */
static void json_error(const char *buf, const char *end, const char *name,
		       struct cm_error *err)
{
	unsigned int line, col;

	json_position(buf, end ? (size_t)(end - buf) : 0, &line, &col);
	cm_errorf(err, "%s:%u:%u: invalid JSON", name, line, col);
}

cJSON *manifest_parse(const char *buf, size_t len, const char *name,
		      struct cm_error *err)
{
	size_t i = strspn(buf, " \t\r\n");
	cJSON *docs, *doc;

	if (i < len && buf[i] == '{') {
		const char *end = NULL;

		doc = cJSON_ParseWithOpts(buf, &end, true);
		if (!doc) {
			json_error(buf, end, name, err);
			return NULL;
		}
		docs = cJSON_CreateArray();
		if (!docs) {
			cJSON_Delete(doc);
			return cm_errorf(err, "out of memory"), NULL;
		}
		cJSON_AddItemToArray(docs, doc);
		return docs;
	}
	docs = yaml_json_parse_all(buf, len, err);
	if (!docs) {
		char *msg = strdup(cm_error_msg(err));

		cm_errorf(err, "%s:%s", name, msg ? msg : "out of memory");
		free(msg);
	}
	return docs;
}

cJSON *manifest_load(const char *path, struct cm_error *err)
{
	size_t len;
	char *buf = manifest_read(path, &len, err);
	cJSON *docs;

	if (!buf)
		return NULL;
	docs = manifest_parse(buf, len, display(path), err);
	free(buf);
	return docs;
}
