/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl subcommands register themselves, one file each, in the
 * "cpumgrctl_cmds" section; main.c walks it (the way iw does).
 */
#ifndef CPUMGRCTL_CMD_H
#define CPUMGRCTL_CMD_H

#include <stdbool.h>

struct cpumgrctl_cmd {
	const char *name;
	const char *args;	/* synopsis after the name, for usage */
	const char *help;	/* one line */
	/* argv[0] is the subcommand name; returns the exit status */
	int (*run)(int argc, char **argv);
};

#define CPUMGRCTL_COMMAND(_id, _name, _args, _help, _run)		\
	static const struct cpumgrctl_cmd cpumgrctl_cmd_##_id = {	\
		.name = _name, .args = _args, .help = _help, .run = _run, \
	};								\
	static const struct cpumgrctl_cmd *const cpumgrctl_cmdp_##_id	\
	__attribute__((used, section("cpumgrctl_cmds"))) =		\
		&cpumgrctl_cmd_##_id

/* Exit statuses shared by the subcommands. */
enum {
	CPUMGRCTL_EXIT_OK = 0,
	CPUMGRCTL_EXIT_FAIL = 1,	/* the operation failed */
	CPUMGRCTL_EXIT_USAGE = 2,	/* bad arguments or bad input */
	CPUMGRCTL_EXIT_FOUND = 3,	/* audit: offenders found */
};

/* Print "cpumgrctl: <msg>" on stderr ("<3>cpumgrctl: ..." with
 * ctl_err_severity, for the journal). */
extern bool ctl_err_severity;
void ctl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Print the usage of one subcommand on stderr; returns CPUMGRCTL_EXIT_USAGE.
 * (main.c answers COMMAND --help on stdout before the command runs.)
 */
int ctl_usage(const char *name);

#endif
