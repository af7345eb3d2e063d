// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "json_out.h"

static void indent(FILE *f, int depth)
{
	for (int i = 0; i < depth; i++)
		fputc(' ', f);
}

/* Decode one UTF-8 sequence; invalid bytes come out as U+FFFD. */
static uint32_t utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t cp;
	int len;

	if (s[0] < 0x80) {
		*p = s + 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0) {
		cp = s[0] & 0x1f;
		len = 2;
	} else if ((s[0] & 0xf0) == 0xe0) {
		cp = s[0] & 0x0f;
		len = 3;
	} else if ((s[0] & 0xf8) == 0xf0) {
		cp = s[0] & 0x07;
		len = 4;
	} else {
		*p = s + 1;
		return 0xfffd;
	}
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*p = s + i;
			return 0xfffd;
		}
		cp = cp << 6 | (s[i] & 0x3f);
	}
	*p = s + len;
	return cp;
}

static void print_string(FILE *f, const char *str)
{
	const unsigned char *p = (const unsigned char *)str;

	fputc('"', f);
	while (*p) {
		uint32_t c = utf8_next(&p);

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		default:
			if (c < 0x20 || (c > 0x7f && c < 0x10000)) {
				fprintf(f, "\\u%04x", c);
			} else if (c >= 0x10000) {
				c -= 0x10000;
				fprintf(f, "\\u%04x\\u%04x", 0xd800 + (c >> 10),
					0xdc00 + (c & 0x3ff));
			} else {
				fputc((int)c, f);
			}
		}
	}
	fputc('"', f);
}

static void print_value(FILE *f, const cJSON *j, int depth)
{
	const cJSON *m;
	bool obj = cJSON_IsObject(j);

	if (cJSON_IsNull(j)) {
		fputs("null", f);
	} else if (cJSON_IsTrue(j)) {
		fputs("true", f);
	} else if (cJSON_IsFalse(j)) {
		fputs("false", f);
	} else if (cJSON_IsNumber(j)) {
		double v = j->valuedouble;

		if (floor(v) == v && fabs(v) < 1e15)
			fprintf(f, "%.0f", v);
		else
			fprintf(f, "%.17g", v);
	} else if (cJSON_IsString(j)) {
		print_string(f, j->valuestring);
	} else if (obj || cJSON_IsArray(j)) {
		if (!j->child) {
			fputs(obj ? "{}" : "[]", f);
			return;
		}
		fputs(obj ? "{\n" : "[\n", f);
		cJSON_ArrayForEach(m, j) {
			indent(f, depth + 1);
			if (obj) {
				print_string(f, m->string);
				fputs(": ", f);
			}
			print_value(f, m, depth + 1);
			fputs(m->next ? ",\n" : "\n", f);
		}
		indent(f, depth);
		fputc(obj ? '}' : ']', f);
	}
}

int json_print(FILE *f, const cJSON *j)
{
	print_value(f, j, 0);
	return ferror(f) ? -EIO : 0;
}
