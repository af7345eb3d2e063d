// SPDX-License-Identifier: GPL-2.0
/*
 * The node's log: one line per repair or change on n->log, with a
 * timestamp or, under the journal, a severity prefix.  Alone in its file
 * because every other node_*.c writes to it: it calls none of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "node.h"

static bool log_severity, log_stamp;

void node_log_severity(bool on)
{
	log_severity = on;
}

void node_log_stamp(bool on)
{
	log_stamp = on;
}

static void vlog(struct node *n, int sev, const char *fmt, va_list ap)
{
	if (!n->log)
		return;
	if (log_severity)
		fprintf(n->log, "<%d>", sev);
	/* the journal (severity prefixes) stamps every line itself */
	if (log_stamp && !log_severity) {
		char stamp[40];
		struct timespec ts;
		struct tm tm;

		clock_gettime(CLOCK_REALTIME, &ts);
		gmtime_r(&ts.tv_sec, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
		fprintf(n->log, "%s.%03ldZ ", stamp, ts.tv_nsec / 1000000);
	}
	vfprintf(n->log, fmt, ap);
	fputc('\n', n->log);
	fflush(n->log);
}

void node_log(struct node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(n, NODE_LOG_INFO, fmt, ap);
	va_end(ap);
}

void node_log_sev(struct node *n, int sev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(n, sev, fmt, ap);
	va_end(ap);
}
