// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gojson.h"
#include "json_util.h"
#include "utf8.h"

/* Go's maxNestingDepth */
#define GOJSON_MAX_DEPTH	10000

struct gojson_parser {
	const unsigned char *s;
	size_t len, pos;
	struct cm_error *err;
	bool failed;
};

static const char hexdigits[] = "0123456789abcdef";

static size_t utf8_encode(uint32_t r, char *out)
{
	if (r < 0x80) {
		out[0] = (char)r;
		return 1;
	}
	if (r < 0x800) {
		out[0] = (char)(0xc0 | r >> 6);
		out[1] = (char)(0x80 | (r & 0x3f));
		return 2;
	}
	if (r >= 0xd800 && r <= 0xdfff)
		r = 0xfffd;
	if (r < 0x10000) {
		out[0] = (char)(0xe0 | r >> 12);
		out[1] = (char)(0x80 | (r >> 6 & 0x3f));
		out[2] = (char)(0x80 | (r & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | r >> 18);
	out[1] = (char)(0x80 | (r >> 12 & 0x3f));
	out[2] = (char)(0x80 | (r >> 6 & 0x3f));
	out[3] = (char)(0x80 | (r & 0x3f));
	return 4;
}

/*
 * Go's quoteChar(): the offending byte as strconv.Quote shows the rune of
 * the same value, between single quotes.
 */
static void quote_char(unsigned char c, char *buf, size_t len)
{
	static const char short_esc[] = "\a\b\f\n\r\t\v";
	static const char short_name[] = "abfnrtv";
	const char *e;

	if (c == '\'') {
		snprintf(buf, len, "'\\''");
	} else if (c == '\\') {
		snprintf(buf, len, "'\\\\'");
	} else if (c && (e = strchr(short_esc, c))) {
		snprintf(buf, len, "'\\%c'", short_name[e - short_esc]);
	} else if (c < 0x20 || c == 0x7f) {
		snprintf(buf, len, "'\\x%02x'", c);
	} else if (c < 0x80) {
		snprintf(buf, len, "'%c'", c);
	} else if (c < 0xa0 || c == 0xad) {
		snprintf(buf, len, "'\\u%04x'", c);
	} else {
		char u[4];
		size_t n = utf8_encode(c, u);

		snprintf(buf, len, "'%.*s'", (int)n, u);
	}
}

static int syntax_error(struct gojson_parser *p, const char *context)
{
	char q[16];

	if (p->failed)
		return -EINVAL;
	p->failed = true;
	if (p->pos >= p->len)
		return cm_errorf(p->err, "unexpected end of JSON input");
	quote_char(p->s[p->pos], q, sizeof(q));
	return cm_errorf(p->err, "invalid character %s %s", q, context);
}

static void skip_space(struct gojson_parser *p)
{
	while (p->pos < p->len &&
	       (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
		p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Four hex digits at s (already checked by the scanner), or -1. */
static int32_t get_u4(const unsigned char *s, size_t n)
{
	int32_t r = 0;

	if (n < 6 || s[0] != '\\' || s[1] != 'u')
		return -1;
	for (int i = 2; i < 6; i++) {
		int h = hexval(s[i]);

		if (h < 0)
			return -1;
		r = r * 16 + h;
	}
	return r;
}

/* Check the literal's syntax; p->pos ends after the closing quote. */
static int scan_string(struct gojson_parser *p)
{
	p->pos++;	/* opening quote */
	while (p->pos < p->len) {
		unsigned char c = p->s[p->pos];

		if (c == '"') {
			p->pos++;
			return 0;
		}
		if (c < 0x20)
			return syntax_error(p, "in string literal");
		if (c != '\\') {
			p->pos++;
			continue;
		}
		p->pos++;
		if (p->pos >= p->len)
			break;
		c = p->s[p->pos];
		if (c == 'u') {
			for (int i = 0; i < 4; i++) {
				p->pos++;
				if (p->pos >= p->len)
					return syntax_error(p, "");
				if (hexval(p->s[p->pos]) < 0)
					return syntax_error(p, "in \\u hexadecimal character escape");
			}
		} else if (!c || !strchr("\"\\/bfnrt", c)) {
			return syntax_error(p, "in string escape code");
		}
		p->pos++;
	}
	return syntax_error(p, "");
}

/* Decode a literal already checked by scan_string() (Go's unquote()). */
static char *decode_string(const unsigned char *s, size_t n, size_t *out_len)
{
	char *out = malloc(3 * n + 1);
	size_t r = 0, w = 0;

	if (!out)
		return NULL;
	while (r < n) {
		uint32_t rune;

		if (s[r] != '\\') {
			r += utf8_decode(s + r, n - r, &rune);
			w += utf8_encode(rune, out + w);
			continue;
		}
		switch (s[r + 1]) {
		case 'b':
			out[w++] = '\b';
			break;
		case 'f':
			out[w++] = '\f';
			break;
		case 'n':
			out[w++] = '\n';
			break;
		case 'r':
			out[w++] = '\r';
			break;
		case 't':
			out[w++] = '\t';
			break;
		case 'u': {
			int32_t r1 = get_u4(s + r, n - r);

			r += 6;
			if (r1 >= 0xd800 && r1 < 0xe000) {
				int32_t r2 = get_u4(s + r, n - r);

				if (r1 < 0xdc00 && r2 >= 0xdc00 &&
				    r2 < 0xe000) {
					r += 6;
					r1 = 0x10000 + ((r1 - 0xd800) << 10) +
					     (r2 - 0xdc00);
				} else {
					r1 = 0xfffd;
				}
			}
			w += utf8_encode((uint32_t)r1, out + w);
			continue;
		}
		default:	/* " \ / */
			out[w++] = (char)s[r + 1];
		}
		r += 2;
	}
	out[w] = '\0';
	*out_len = w;
	return out;
}

static char *read_string(struct gojson_parser *p, size_t *len)
{
	size_t start = p->pos;
	char *s;

	if (scan_string(p))
		return NULL;
	s = decode_string(p->s + start + 1, p->pos - start - 2, len);
	if (!s && !p->failed) {
		p->failed = true;
		cm_errorf(p->err, "out of memory");
	}
	return s;
}

static bool digit_at(const struct gojson_parser *p)
{
	return p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9';
}

/* Go's number states: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int scan_number(struct gojson_parser *p)
{
	if (p->s[p->pos] == '-') {
		p->pos++;
		if (!digit_at(p))
			return syntax_error(p, "in numeric literal");
	}
	if (p->s[p->pos] == '0') {
		p->pos++;
	} else {
		while (digit_at(p))
			p->pos++;
	}
	if (p->pos < p->len && p->s[p->pos] == '.') {
		p->pos++;
		if (!digit_at(p))
			return syntax_error(p, "after decimal point in numeric literal");
		while (digit_at(p))
			p->pos++;
	}
	if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
		p->pos++;
		if (p->pos < p->len &&
		    (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
			p->pos++;
		if (!digit_at(p))
			return syntax_error(p, "in exponent of numeric literal");
		while (digit_at(p))
			p->pos++;
	}
	return 0;
}

static int scan_literal(struct gojson_parser *p, const char *word)
{
	char ctx[48];

	for (size_t i = 1; word[i]; i++) {
		p->pos++;
		if (p->pos >= p->len ||
		    p->s[p->pos] != (unsigned char)word[i]) {
			snprintf(ctx, sizeof(ctx), "in literal %s (expecting '%c')",
				 word, word[i]);
			return syntax_error(p, ctx);
		}
	}
	p->pos++;
	return 0;
}

static struct gojson_value *parse_value(struct gojson_parser *p, int depth);

static struct gojson_value *new_value(struct gojson_parser *p,
				      enum gojson_type type)
{
	struct gojson_value *v = calloc(1, sizeof(*v));

	if (!v && !p->failed) {
		p->failed = true;
		cm_errorf(p->err, "out of memory");
	}
	if (v)
		v->type = type;
	return v;
}

/* Link v after *tail; returns the new tail. */
static struct gojson_value **append(struct gojson_value **tail,
				    struct gojson_value *v)
{
	*tail = v;
	return &v->next;
}

static struct gojson_value *parse_object(struct gojson_parser *p, int depth)
{
	struct gojson_value *obj = new_value(p, GOJSON_OBJECT), **tail;

	if (!obj)
		return NULL;
	tail = &obj->child;
	p->pos++;
	skip_space(p);
	if (p->pos < p->len && p->s[p->pos] == '}') {
		p->pos++;
		return obj;
	}
	for (;;) {
		struct gojson_value *m;
		size_t klen = 0;
		char *key;

		if (p->pos >= p->len || p->s[p->pos] != '"') {
			syntax_error(p, "looking for beginning of object key string");
			goto fail;
		}
		key = read_string(p, &klen);
		if (!key)
			goto fail;
		skip_space(p);
		if (p->pos >= p->len || p->s[p->pos] != ':') {
			free(key);
			syntax_error(p, "after object key");
			goto fail;
		}
		p->pos++;
		m = parse_value(p, depth + 1);
		if (!m) {
			free(key);
			goto fail;
		}
		m->key = key;
		m->key_len = klen;
		tail = append(tail, m);
		skip_space(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			skip_space(p);
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == '}') {
			p->pos++;
			return obj;
		}
		syntax_error(p, "after object key:value pair");
		goto fail;
	}
fail:
	gojson_free(obj);
	return NULL;
}

static struct gojson_value *parse_array(struct gojson_parser *p, int depth)
{
	struct gojson_value *arr = new_value(p, GOJSON_ARRAY), **tail;

	if (!arr)
		return NULL;
	tail = &arr->child;
	p->pos++;
	skip_space(p);
	if (p->pos < p->len && p->s[p->pos] == ']') {
		p->pos++;
		return arr;
	}
	for (;;) {
		struct gojson_value *e = parse_value(p, depth + 1);

		if (!e)
			goto fail;
		tail = append(tail, e);
		skip_space(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == ']') {
			p->pos++;
			return arr;
		}
		syntax_error(p, "after array element");
		goto fail;
	}
fail:
	gojson_free(arr);
	return NULL;
}

static struct gojson_value *parse_scalar(struct gojson_parser *p)
{
	size_t start = p->pos;
	struct gojson_value *v;
	unsigned char c = p->s[p->pos];

	if (c == '"') {
		size_t len = 0;
		char *s = read_string(p, &len);

		if (!s)
			return NULL;
		v = new_value(p, GOJSON_STRING);
		if (!v) {
			free(s);
			return NULL;
		}
		v->str = s;
		v->len = len;
		return v;
	}
	if (c == 't' || c == 'f' || c == 'n') {
		static const char *const words[] = { "true", "false", "null" };
		static const enum gojson_type types[] = { GOJSON_TRUE, GOJSON_FALSE,
						      GOJSON_NULL };
		int i = c == 't' ? 0 : c == 'f' ? 1 : 2;

		if (scan_literal(p, words[i]))
			return NULL;
		return new_value(p, types[i]);
	}
	if (c != '-' && (c < '0' || c > '9')) {
		syntax_error(p, "looking for beginning of value");
		return NULL;
	}
	if (scan_number(p))
		return NULL;
	v = new_value(p, GOJSON_NUMBER);
	if (v) {
		v->len = p->pos - start;
		v->str = strndup((const char *)p->s + start, v->len);
		if (!v->str) {
			free(v);
			p->failed = true;
			cm_errorf(p->err, "out of memory");
			return NULL;
		}
	}
	return v;
}

static struct gojson_value *parse_value(struct gojson_parser *p, int depth)
{
	skip_space(p);
	if (p->pos >= p->len) {
		syntax_error(p, "");
		return NULL;
	}
	if (depth > GOJSON_MAX_DEPTH) {
		p->failed = true;
		cm_errorf(p->err, "exceeded max depth");
		return NULL;
	}
	if (p->s[p->pos] == '{')
		return parse_object(p, depth);
	if (p->s[p->pos] == '[')
		return parse_array(p, depth);
	return parse_scalar(p);
}

/* The document, or NULL with err set and *pos where it went wrong. */
static struct gojson_value *parse_doc(const char *buf, size_t len,
				      size_t *pos, struct cm_error *err)
{
	struct gojson_parser p = {
		.s = (const unsigned char *)buf, .len = len, .err = err,
	};
	struct gojson_value *v = parse_value(&p, 1);

	if (v) {
		skip_space(&p);
		if (p.pos < p.len) {
			syntax_error(&p, "after top-level value");
			gojson_free(v);
			v = NULL;
		}
	}
	*pos = p.pos < len ? p.pos : len;
	return v;
}

struct gojson_value *gojson_parse(const char *buf, size_t len,
				  struct cm_error *err)
{
	size_t pos;

	return parse_doc(buf, len, &pos, err);
}

void gojson_error_prefix(struct cm_error *err, const char *name,
			 const char *buf, size_t len)
{
	struct cm_error scratch = { 0 };
	struct gojson_value *v;
	unsigned int line, col;
	size_t pos;

	v = parse_doc(buf, len, &pos, &scratch);
	cm_error_clear(&scratch);
	if (v) {
		gojson_free(v);
		cm_error_prefix(err, "%s", name);
		return;
	}
	json_position(buf, pos, &line, &col);
	cm_error_prefix(err, "%s:%u:%u", name, line, col);
}

void gojson_free(struct gojson_value *v)
{
	while (v) {
		struct gojson_value *next = v->next;

		gojson_free(v->child);
		free(v->str);
		free(v->key);
		free(v);
		v = next;
	}
}

const char *gojson_kind(const struct gojson_value *v)
{
	switch (v->type) {
	case GOJSON_NULL:
		return "null";
	case GOJSON_FALSE:
	case GOJSON_TRUE:
		return "bool";
	case GOJSON_NUMBER:
		return "number";
	case GOJSON_STRING:
		return "string";
	case GOJSON_ARRAY:
		return "array";
	default:
		return "object";
	}
}

/* The escapes json.Marshal writes short (Go 1.22 and later: \b and \f too). */
static char short_escape(unsigned char c)
{
	switch (c) {
	case '"':
		return '"';
	case '\\':
		return '\\';
	case '\b':
		return 'b';
	case '\f':
		return 'f';
	case '\n':
		return 'n';
	case '\r':
		return 'r';
	case '\t':
		return 't';
	}
	return 0;
}

void gojson_append_string(struct strbuf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	strbuf_addc(sb, '"');
	while (i < len) {
		unsigned char c = s[i];
		uint32_t rune;
		size_t n;

		if (c < 0x80) {
			/* json.Marshal escapes HTML's <, > and & too */
			if (c >= 0x20 && c != '"' && c != '\\' && c != '<' &&
			    c != '>' && c != '&') {
				strbuf_addc(sb, (char)c);
			} else if (short_escape(c)) {
				strbuf_addc(sb, '\\');
				strbuf_addc(sb, short_escape(c));
			} else {
				strbuf_adds(sb, "\\u00");
				strbuf_addc(sb, hexdigits[c >> 4]);
				strbuf_addc(sb, hexdigits[c & 0xf]);
			}
			i++;
			continue;
		}
		n = utf8_decode(s + i, len - i, &rune);
		if (n == 1) {
			strbuf_adds(sb, "\\ufffd");
		} else if (rune == 0x2028 || rune == 0x2029) {
			strbuf_adds(sb, rune == 0x2028 ? "\\u2028" : "\\u2029");
		} else {
			strbuf_add(sb, s + i, n);
		}
		i += n;
	}
	strbuf_addc(sb, '"');
}

/* the fold set's smallest rune: ASCII letters, U+017F, U+212A */
static unsigned char ascii_upper(unsigned char c)
{
	return c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
}

bool gojson_field_match(const struct gojson_value *m, const char *name)
{
	const unsigned char *k = (const unsigned char *)m->key;
	size_t i = 0, n = 0, len = m->key_len;

	while (i < len) {
		unsigned char got;

		if (!name[n])
			return false;
		if (k[i] < 0x80) {
			got = ascii_upper(k[i++]);
		} else if (len - i >= 2 && k[i] == 0xc5 && k[i + 1] == 0xbf) {
			got = 'S';
			i += 2;
		} else if (len - i >= 3 && k[i] == 0xe2 && k[i + 1] == 0x84 &&
			   k[i + 2] == 0xaa) {
			got = 'K';
			i += 3;
		} else {
			return false;
		}
		if (got != ascii_upper((unsigned char)name[n++]))
			return false;
	}
	return !name[n];
}
