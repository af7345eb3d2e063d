// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"

static char *vformat(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

int cm_errorf(struct cm_error *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -EINVAL;
	free(e->msg);
	va_start(ap, fmt);
	e->msg = vformat(fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void cm_error_prefix(struct cm_error *e, const char *fmt, ...)
{
	char *prefix, *s;
	va_list ap;

	if (!e || !e->msg)
		return;
	va_start(ap, fmt);
	prefix = vformat(fmt, ap);
	va_end(ap);
	if (!prefix)
		return;
	if (asprintf(&s, "%s: %s", prefix, e->msg) >= 0) {
		free(e->msg);
		e->msg = s;
	}
	free(prefix);
}

void cm_error_undoing(struct cm_error *e, struct cm_error *undo)
{
	char *s;

	if (e && undo && undo->msg &&
	    asprintf(&s, "%s; undoing: %s", cm_error_msg(e), undo->msg) >= 0) {
		free(e->msg);
		e->msg = s;
	}
	cm_error_clear(undo);
}

const char *cm_error_msg(const struct cm_error *e)
{
	return e && e->msg ? e->msg : "";
}

void cm_error_clear(struct cm_error *e)
{
	if (!e)
		return;
	free(e->msg);
	e->msg = NULL;
}
