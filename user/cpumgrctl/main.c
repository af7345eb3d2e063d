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

void ctl_err(const char *fmt, ...)
{
	va_list ap;

	fputs(ctl_err_severity ? "<3>cpumgrctl: " : "cpumgrctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void print_cmd(FILE *f, const struct cpumgrctl_cmd *cmd)
{
	fprintf(f, "  cpumgrctl %s%s%s\n\t%s\n", cmd->name,
		cmd->args[0] ? " " : "", cmd->args, cmd->help);
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

int ctl_usage(const char *name)
{
	const struct cpumgrctl_cmd *cmd = find_cmd(name);

	if (cmd) {
		fputs("usage:\n", stderr);
		print_cmd(stderr, cmd);
	}
	return CPUMGRCTL_EXIT_USAGE;
}

/*
 * The commands that drive the module's table as it is, one netlink
 * request each, with no state directory; every other command is the
 * node's CPU manager (or works offline).
 */
static bool kernel_cmd(const char *name)
{
	static const char *const names[] = {
		"table", "assign", "release", "bind", "configure", "dump",
		"events", "topology", NULL,
	};

	for (const char *const *n = names; *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

static void print_section(FILE *f, bool kernel)
{
	for_each_cmd(c)
		if (kernel_cmd((*c)->name) == kernel)
			print_cmd(f, *c);
}

static int usage(FILE *f)
{
	fputs("usage: cpumgrctl [-j|--json] [--state-dir DIR] COMMAND [ARGS]\n"
	      "       cpumgrctl COMMAND --help | help [COMMAND] | --version\n\n"
	      "The node's CPU manager (the state directory, --state-dir or\n"
	      "$CPUMGR_STATE_DIR, default " NODE_STATE_DIR ", over the module):\n", f);
	print_section(f, false);
	fputs("\nThe module's table as it is (one netlink request, no state directory):\n",
	      f);
	print_section(f, true);
	fputs("\nExit status: 0 done, 1 failed, 2 bad arguments or bad input,\n"
	      "3 audit found offenders.\n", f);
	return f == stdout ? CPUMGRCTL_EXIT_OK : CPUMGRCTL_EXIT_USAGE;
}

static int cmd_help(const char *name)
{
	const struct cpumgrctl_cmd *cmd = find_cmd(name);

	if (!cmd) {
		ctl_err("unknown command '%s' (try 'cpumgrctl help')", name);
		return CPUMGRCTL_EXIT_USAGE;
	}
	fputs("usage:\n", stdout);
	print_cmd(stdout, cmd);
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

/* Does the command print JSON, always or with --json? */
static bool has_json(const struct cpumgrctl_cmd *cmd, bool *always)
{
	*always = !strcmp(cmd->name, "plan");
	return *always || strstr(cmd->args, "--json");
}

static char json_arg[] = "--json", version_arg[] = "version";

int main(int argc, char **argv)
{
	const struct cpumgrctl_cmd *cmd;
	bool json = false, always;
	char **args;
	int i, ret;

	/* the global options, before the command */
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--state-dir") && i + 1 < argc) {
			setenv("CPUMGR_STATE_DIR", argv[++i], 1);
		} else if (!strncmp(a, "--state-dir=", 12)) {
			setenv("CPUMGR_STATE_DIR", a + 12, 1);
		} else if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
			char *vargs[] = { version_arg, json ? json_arg : NULL,
					  NULL };

			return find_cmd("version")->run(json ? 2 : 1, vargs);
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			return usage(stdout);
		} else {
			ctl_err("unknown option '%s' (try 'cpumgrctl help')", a);
			return CPUMGRCTL_EXIT_USAGE;
		}
	}
	if (i == argc)
		return usage(stderr);
	if (!strcmp(argv[i], "help"))
		return i + 1 < argc ? cmd_help(argv[i + 1]) : usage(stdout);
	cmd = find_cmd(argv[i]);
	if (!cmd) {
		ctl_err("unknown command '%s' (try 'cpumgrctl help')", argv[i]);
		return CPUMGRCTL_EXIT_USAGE;
	}
	argc -= i;
	argv += i;
	if (wants_help(argc, argv))
		return cmd_help(cmd->name);
	if (!json)
		return cmd->run(argc, argv);
	if (!has_json(cmd, &always)) {
		ctl_err("%s: no JSON output (-j/--json)", cmd->name);
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (always)
		return cmd->run(argc, argv);
	/* the command's own --json, right after its name */
	args = calloc((size_t)argc + 2, sizeof(*args));
	if (!args) {
		ctl_err("out of memory");
		return CPUMGRCTL_EXIT_FAIL;
	}
	args[0] = argv[0];
	args[1] = json_arg;
	memcpy(args + 2, argv + 1, (size_t)(argc - 1) * sizeof(*args));
	ret = cmd->run(argc + 1, args);
	free(args);
	return ret;
}
