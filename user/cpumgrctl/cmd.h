/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl subcommands register themselves, one file each, in the
 * "cpumgrctl_cmds" section; main.c walks it (the way iw does).
 *
 * Each command is one table: its positional arguments, its options (one
 * line each), its examples.  Everything else comes from it: the parser
 * (ctl_args.c), COMMAND --help and `help` (ctl_help.c), the man page's
 * OPTIONS and EXAMPLES (`cpumgrctl help --scd`, which
 * scripts/doc-check.sh holds doc/cpumgrctl.8.scd to) and the bash
 * completion (`cpumgrctl help --complete COMMAND`).
 */
#ifndef CPUMGRCTL_CMD_H
#define CPUMGRCTL_CMD_H

#include <stdbool.h>
#include <stdio.h>

/* What completes an argument in a shell. */
enum ctl_kind {
	CTL_ANY,	/* nothing to offer */
	CTL_WORD,	/* one of the values */
	CTL_FILE,	/* a file name */
	CTL_DIR,	/* a directory */
};

/*
 * One option: { long name, short letter or 0, argument name or NULL
 * for a flag, completion, values (space-separated, NULL: any; the
 * parser refuses others), description }.
 */
struct ctl_opt {
	const char *name;
	char short_name;
	const char *arg;
	enum ctl_kind kind;
	const char *values;
	const char *help;
};

/* One positional argument: { name, completion, values, optional, description }. */
struct ctl_pos {
	const char *name;
	enum ctl_kind kind;
	const char *values;
	bool optional;
	const char *help;
};

/* Options every command that has them spells the same way. */
#define CTL_OPT_JSON \
	{ "json", 'j', NULL, CTL_ANY, NULL, "JSON output (also before the command)" }
#define CTL_OPT_STATE_DIR \
	{ "state-dir", 0, "DIR", CTL_DIR, NULL, "the state directory (default $CPUMGR_STATE_DIR, else /var/lib/cpumgr)" }
#define CTL_OPT_GENERATION \
	{ "generation", 'g', "N", CTL_ANY, NULL, "only if the kernel table's generation is N" }

#define CTL_MAX_OPTS	32
#define CTL_MAX_SEQ	64

/* A command line as the command's table read it. */
struct ctl_cmdline {
	const struct cpumgrctl_cmd *cmd;
	/* per option of the table: its last value ("" for a flag), or NULL */
	const char *val[CTL_MAX_OPTS];
	/* every option given, in order (init applies kubelet flags so) */
	struct {
		unsigned int opt;
		const char *val;
	} seq[CTL_MAX_SEQ];
	unsigned int nr_seq;
	char **arg;		/* the positional arguments */
	int nr;
	bool json;		/* -j/--json, before or after the command */
	const char *state_dir;	/* --state-dir after the command, or NULL */
};

struct cpumgrctl_cmd {
	const char *name;
	const char *help;	/* one line */
	const struct ctl_pos *args;	/* ends with a NULL name */
	const struct ctl_opt *opts;	/* ends with a NULL name */
	const char *examples[4];	/* command lines, NULL-terminated */
	bool kernel;		/* one netlink request, no state directory */
	bool always_json;	/* prints JSON with or without --json */
	/* returns the exit status */
	int (*run)(const struct ctl_cmdline *cl);
};

#define CPUMGRCTL_COMMAND(_id)						\
	static const struct cpumgrctl_cmd cpumgrctl_cmd_##_id;		\
	static const struct cpumgrctl_cmd *const cpumgrctl_cmdp_##_id	\
	__attribute__((used, section("cpumgrctl_cmds"))) =		\
		&cpumgrctl_cmd_##_id;					\
	static const struct cpumgrctl_cmd cpumgrctl_cmd_##_id

/* "s" for a count other than one: "1 CPU", "2 CPUs". */
static inline const char *ctl_plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

/* Exit statuses shared by the subcommands. */
enum {
	CPUMGRCTL_EXIT_OK = 0,
	CPUMGRCTL_EXIT_FAIL = 1,	/* the operation failed */
	CPUMGRCTL_EXIT_USAGE = 2,	/* bad arguments or bad input */
	CPUMGRCTL_EXIT_FOUND = 3,	/* audit: offenders found */
};

/*
 * Print "cpumgrctl: CMD: <msg>" on stderr, one line ("<3>cpumgrctl: ..."
 * with ctl_err_severity, for the journal).  CMD is the running command's
 * name; a message that starts with it already is not given it twice.
 */
extern bool ctl_err_severity;
extern const char *ctl_cmd_name;
void ctl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for what is not an error ("cpumgrctl: CMD: warning: ..."). */
void ctl_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Read argv (argv[0] the command's name) by cmd's table into cl; -j or
 * --json before the command arrives as json.  0, or after one line on
 * stderr CPUMGRCTL_EXIT_USAGE.
 */
int ctl_parse(const struct cpumgrctl_cmd *cmd, int argc, char **argv,
	      bool json, struct ctl_cmdline *cl);
/*
 * --state-dir's value, before or after the command: true, or false after
 * a usage message (NULL: none given; "": empty).
 */
bool ctl_state_dir_arg(const char *dir);
/* The value of the option called name (NULL when not given). */
const char *ctl_val(const struct ctl_cmdline *cl, const char *name);
/* Was the flag (or option) called name given? */
bool ctl_flag(const struct ctl_cmdline *cl, const char *name);
/* Index of the option called name in the command's table (aborts if none). */
unsigned int ctl_opt_index(const struct cpumgrctl_cmd *cmd, const char *name);

/* COMMAND --help on f; the command list for `help`. */
void ctl_help_cmd(FILE *f, const struct cpumgrctl_cmd *cmd);
void ctl_help_list_entry(FILE *f, const struct cpumgrctl_cmd *cmd);
/* `help --scd`: the man page's generated part; `help --complete [CMD]`. */
void ctl_help_scd(FILE *f, const struct cpumgrctl_cmd *const *cmds,
		  unsigned int nr);
void ctl_help_complete(FILE *f, const struct cpumgrctl_cmd *cmd);
/*
 * `help --md [COMMAND...]`: the operator's guide's generated parts, in
 * Markdown: each command's synopsis as a code block, or every command's
 * synopsis and options (scripts/doc-check.sh holds the guide to them).
 */
void ctl_help_md_synopsis(FILE *f, const struct cpumgrctl_cmd *cmd);
void ctl_help_md(FILE *f, const struct cpumgrctl_cmd *const *cmds,
		 unsigned int nr);

#endif
