/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One error message travelling back from the library to its caller.  Kept
 * on the heap because kubelet-compatible messages quote whole CPU sets,
 * which can be long on big machines.
 */
#ifndef CPUMGR_ERROR_H
#define CPUMGR_ERROR_H

struct cm_error {
	char *msg;	/* NULL when no error was recorded */
};

/* Record a message (replacing any earlier one); returns -EINVAL. */
int cm_errorf(struct cm_error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prepend "<prefix>: " to the recorded message. */
void cm_error_prefix(struct cm_error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append "; undoing: <undo's message>" to e's, then clear undo. */
void cm_error_undoing(struct cm_error *e, struct cm_error *undo);
/* The message, or "" when none was recorded. */
const char *cm_error_msg(const struct cm_error *e);
void cm_error_clear(struct cm_error *e);

#endif
