// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static bool grow(struct strbuf *sb, size_t more)
{
	size_t cap;
	char *nb;

	if (sb->oom)
		return false;
	if (sb->len + more < sb->cap)
		return true;
	cap = sb->cap ? sb->cap : 64;
	while (cap <= sb->len + more)
		cap *= 2;
	nb = realloc(sb->buf, cap);
	if (!nb) {
		sb->oom = true;
		return false;
	}
	sb->buf = nb;
	sb->cap = cap;
	return true;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!grow(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addc(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->oom = true;
		return;
	}
	if (!grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void strbuf_truncate(struct strbuf *sb, size_t len)
{
	if (len > sb->len)
		return;
	sb->len = len;
	sb->oom = false;
	if (sb->buf)
		sb->buf[len] = '\0';
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *s;

	if (sb->oom || !grow(sb, 0)) {
		strbuf_release(sb);
		return NULL;
	}
	s = sb->buf;
	if (len)
		*len = sb->len;
	memset(sb, 0, sizeof(*sb));
	return s;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof(*sb));
}
