// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl: the cpumgr controller.  Dispatches to the subcommands that
 * registered themselves through CPUMGRCTL_COMMAND().
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "node.h"

extern const struct cpumgrctl_cmd *const __start_cpumgrctl_cmds[];
extern const struct cpumgrctl_cmd *const __stop_cpumgrctl_cmds[];

/* Through integers: the section bounds are distinct objects to C. */
static size_t nr_cmds(void)
{
	return ((uintptr_t)__stop_cpumgrctl_cmds -
		(uintptr_t)__start_cpumgrctl_cmds) / sizeof(void *);
}

#define for_each_cmd(c)							\
	for (const struct cpumgrctl_cmd *const *c = __start_cpumgrctl_cmds; \
	     c != __start_cpumgrctl_cmds + nr_cmds(); c++)

bool ctl_err_severity;
const char *ctl_cmd_name;

static void vmsg(const char *sev, const char *kind, const char *fmt,
		 va_list ap)
{
	size_t n = ctl_cmd_name ? strlen(ctl_cmd_name) : 0;
	char msg[4096];
	bool named;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* one line, whatever a message from below holds */
	for (char *p = msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
	/* "CMD: " unless the message starts with the command's name */
	named = !n || (!strncmp(msg, ctl_cmd_name, n) &&
		       (msg[n] == ':' || msg[n] == ' '));
	fprintf(stderr, "%scpumgrctl: %s%s%s%s\n",
		ctl_err_severity ? sev : "", named ? "" : ctl_cmd_name,
		named ? "" : ": ", kind, msg);
}

void ctl_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("<3>", "", fmt, ap);
	va_end(ap);
}

void ctl_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("<4>", "warning: ", fmt, ap);
	va_end(ap);
}

/*
 * Older names, still run: "state" showed the kernel table before the
 * command was named for it (the kubelet's state is the checkpoint).
 */
static const char *const aliases[][2] = {
	{ "state", "table" },
};

static const struct cpumgrctl_cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i][0], name))
			name = aliases[i][1];
	for_each_cmd(c)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

static void print_section(FILE *f, bool kernel)
{
	for_each_cmd(c)
		if ((*c)->kernel == kernel)
			ctl_help_list_entry(f, *c);
}

static int usage(FILE *f)
{
	fputs("usage: cpumgrctl [-j|--json] [--state-dir DIR] COMMAND [ARGS]\n"
	      "       cpumgrctl COMMAND --help | help [COMMAND] | --version\n\n"
	      "-j/--json and --state-dir may also follow the command.\n\n"
	      "The node's CPU manager (the state directory, --state-dir or\n"
	      "$CPUMGR_STATE_DIR, default " NODE_STATE_DIR ", over the module):\n", f);
	print_section(f, false);
	fputs("\nThe module's table as it is (one netlink request, no state directory):\n",
	      f);
	print_section(f, true);
	fputs("\nExit status: 0 done, 1 failed, 2 bad arguments or bad input,\n"
	      "3 audit found offenders.  Errors are one line on stderr:\n"
	      "\"cpumgrctl: COMMAND: reason\".\n", f);
	return f == stdout ? CPUMGRCTL_EXIT_OK : CPUMGRCTL_EXIT_USAGE;
}

/* help --md [COMMAND...]: synopses, or the whole reference, in Markdown */
static int help_md(int argc, char **argv)
{
	const struct cpumgrctl_cmd *cmd;

	if (!argc) {
		ctl_help_md(stdout, __start_cpumgrctl_cmds,
			    (unsigned int)nr_cmds());
		return CPUMGRCTL_EXIT_OK;
	}
	for (int i = 0; i < argc; i++)
		if (!find_cmd(argv[i])) {
			ctl_err("unknown command '%s' (try 'cpumgrctl help')",
				argv[i]);
			return CPUMGRCTL_EXIT_USAGE;
		}
	for (int i = 0; i < argc; i++) {
		cmd = find_cmd(argv[i]);
		ctl_help_md_synopsis(stdout, cmd);
	}
	return CPUMGRCTL_EXIT_OK;
}

/* help [COMMAND | --scd | --md [COMMAND...] | --complete [COMMAND]] */
static int cmd_help(int argc, char **argv)
{
	const struct cpumgrctl_cmd *cmd;

	ctl_cmd_name = "help";
	if (argc == 1 || (argc == 2 && (!strcmp(argv[1], "--help") ||
					!strcmp(argv[1], "-h"))))
		return usage(stdout);
	if (argc == 2 && !strcmp(argv[1], "--scd")) {
		ctl_help_scd(stdout, __start_cpumgrctl_cmds,
			     (unsigned int)nr_cmds());
		return CPUMGRCTL_EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "--md"))
		return help_md(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "--complete")) {
		/* in help's order: the node's, then the table's */
		for (int kernel = 0; kernel < 2; kernel++)
			for_each_cmd(c)
				if ((*c)->kernel == kernel)
					printf("cmd %s\n", (*c)->name);
		return CPUMGRCTL_EXIT_OK;
	}
	if (argc > 3 || (argc == 3 && strcmp(argv[1], "--complete"))) {
		ctl_err("unexpected argument '%s' (help [COMMAND])",
			argv[argc - 1]);
		return CPUMGRCTL_EXIT_USAGE;
	}
	cmd = find_cmd(argv[argc - 1]);
	if (!cmd) {
		ctl_err("unknown command '%s' (try 'cpumgrctl help')",
			argv[argc - 1]);
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (argc == 3)
		ctl_help_complete(stdout, cmd);
	else
		ctl_help_cmd(stdout, cmd);
	return CPUMGRCTL_EXIT_OK;
}

/* COMMAND --help (before a "--"), whatever else is on the line. */
static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	const struct cpumgrctl_cmd *cmd;
	struct ctl_cmdline cl;
	bool json = false;
	int i, ret;

	/* the global options, before the command; "--" ends them */
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--state-dir") ||
			   !strncmp(a, "--state-dir=", 12)) {
			const char *dir = a[11] ? a + 12 : argv[i + 1];

			if (!a[11] && i + 1 < argc)
				i++;
			if (!ctl_state_dir_arg(dir))
				return CPUMGRCTL_EXIT_USAGE;
			setenv("CPUMGR_STATE_DIR", dir, 1);
		} else if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
			/* what follows is version's: --version --json */
			cmd = find_cmd("version");
			ctl_cmd_name = cmd->name;
			ret = ctl_parse(cmd, argc - i, argv + i, json, &cl);
			return ret ? ret : cmd->run(&cl);
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			return usage(stdout);
		} else {
			ctl_err("unknown option '%s' (try 'cpumgrctl help')", a);
			return CPUMGRCTL_EXIT_USAGE;
		}
	}
	if (i == argc) {
		ctl_err("no command given (try 'cpumgrctl help')");
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help"))
		return cmd_help(argc - i, argv + i);
	cmd = find_cmd(argv[i]);
	if (!cmd) {
		ctl_err("unknown command '%s' (try 'cpumgrctl help')", argv[i]);
		return CPUMGRCTL_EXIT_USAGE;
	}
	ctl_cmd_name = cmd->name;
	argc -= i;
	argv += i;
	if (wants_help(argc, argv)) {
		ctl_help_cmd(stdout, cmd);
		return CPUMGRCTL_EXIT_OK;
	}
	ret = ctl_parse(cmd, argc, argv, json, &cl);
	return ret ? ret : cmd->run(&cl);
}
