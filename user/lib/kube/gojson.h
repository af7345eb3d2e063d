/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON the way Go's encoding/json reads and writes it, for files that a
 * Go program writes and reads back (the kubelet's checkpoint).  Reading
 * keeps what Go's decoder would see: the same grammar and syntax error
 * texts, strings decoded with invalid UTF-8 and lone surrogates replaced
 * by U+FFFD, numbers as their literal text, members in document order
 * with duplicates kept (the caller applies Go's rules: field names match
 * case-insensitively, the last duplicate wins).  Writing quotes strings
 * as json.Marshal does (HTML-safe escapes, \u2028/\u2029, U+FFFD for
 * invalid UTF-8).
 */
#ifndef CPUMGR_GOJSON_H
#define CPUMGR_GOJSON_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "strbuf.h"

enum gj_type {
	GJ_NULL, GJ_FALSE, GJ_TRUE, GJ_NUMBER, GJ_STRING, GJ_ARRAY, GJ_OBJECT,
};

struct gj_value {
	enum gj_type type;
	char *str;		/* string (decoded) or number literal */
	size_t len;		/* bytes in str; a string may hold NUL bytes */
	char *key;		/* member name, for a member of an object */
	size_t key_len;
	struct gj_value *child;	/* first element or member */
	struct gj_value *next;	/* next sibling */
};

/*
 * Parse a whole document.  Errors are Go's texts ("unexpected end of
 * JSON input", "invalid character '}' looking for beginning of value").
 */
struct gj_value *gj_parse(const char *buf, size_t len, struct cm_error *err);
void gj_free(struct gj_value *v);

/* The JSON kind as Go's UnmarshalTypeError names it ("string", "object"). */
const char *gj_kind(const struct gj_value *v);

/* Append s as a JSON string literal, quoted exactly as json.Marshal does. */
void gj_append_string(struct strbuf *sb, const char *s, size_t len);

#endif
