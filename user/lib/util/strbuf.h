/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A growing byte buffer for building texts (JSON, hash input) piece by
 * piece.  An allocation failure is sticky: later appends do nothing and
 * strbuf_detach() returns NULL, so builders check once at the end.
 */
#ifndef CPUMGR_STRBUF_H
#define CPUMGR_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *buf;		/* always NUL-terminated when not NULL */
	size_t len, cap;
	bool oom;
};

#define STRBUF_INIT { NULL, 0, 0, false }

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addc(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Cut the text back to its first len bytes (a mark taken from sb->len),
 * which also forgets an allocation failure since then: the appends that
 * failed left the first len bytes as they were.
 */
void strbuf_truncate(struct strbuf *sb, size_t len);
/* The text (caller frees), or NULL after an allocation failure. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_release(struct strbuf *sb);

#endif
