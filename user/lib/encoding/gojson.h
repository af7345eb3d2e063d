/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON the way Go's encoding/json reads and writes it, for files that a
 * Go program writes and reads back (the kubelet's checkpoint).  Reading
 * keeps what Go's decoder would see: the same grammar and syntax error
 * texts, strings decoded with invalid UTF-8 and lone surrogates replaced
 * by U+FFFD, numbers as their literal text, members in document order
 * with duplicates kept (the caller applies Go's rules: field names match
 * as gojson_field_match() says, the last duplicate wins).  Writing
 * quotes strings as json.Marshal does (HTML-safe escapes, \u2028/\u2029,
 * U+FFFD for invalid UTF-8).  Hand-written on purpose: the C JSON libraries
 * (cJSON, json-c, jansson) drop duplicate members, have their own error
 * texts and escape differently, and the checkpoint's bytes and checksum
 * must be Go's.
 */
#ifndef CPUMGR_GOJSON_H
#define CPUMGR_GOJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "strbuf.h"

enum gojson_type {
	GOJSON_NULL, GOJSON_FALSE, GOJSON_TRUE, GOJSON_NUMBER, GOJSON_STRING, GOJSON_ARRAY, GOJSON_OBJECT,
};

struct gojson_value {
	enum gojson_type type;
	char *str;		/* string (decoded) or number literal */
	size_t len;		/* bytes in str; a string may hold NUL bytes */
	char *key;		/* member name, for a member of an object */
	size_t key_len;
	struct gojson_value *child;	/* first element or member */
	struct gojson_value *next;	/* next sibling */
};

/*
 * Parse a whole document.  Errors are Go's texts ("unexpected end of
 * JSON input", "invalid character '}' looking for beginning of value").
 */
struct gojson_value *gojson_parse(const char *buf, size_t len,
				  struct cm_error *err);
void gojson_free(struct gojson_value *v);
/*
 * Name a document in an error about it: "NAME:LINE:COLUMN: ..." where
 * its syntax fails (Go's text stays as it is), "NAME: ..." when it
 * parses and the error is about its content.
 */
void gojson_error_prefix(struct cm_error *err, const char *name,
			 const char *buf, size_t len);

/* The JSON kind as Go's UnmarshalTypeError names it ("string", "object"). */
const char *gojson_kind(const struct gojson_value *v);

/*
 * Whether member m's key names the struct field name as Go matches it:
 * exactly or case-insensitively, folding runes to the smallest of their
 * fold set (ASCII letters, and the two non-ASCII runes whose set holds
 * an ASCII letter: U+017F long s, U+212A Kelvin sign).
 */
bool gojson_field_match(const struct gojson_value *m, const char *name);

/* Append s as a JSON string literal, quoted exactly as json.Marshal does. */
void gojson_append_string(struct strbuf *sb, const char *s, size_t len);

#endif
