// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl: the cpumgr controller.  Dispatches to the subcommands that
 * registered themselves through CPUMGRCTL_COMMAND().
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

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

void ctl_err(const char *fmt, ...)
{
	va_list ap;

	fputs("cpumgrctl: ", stderr);
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

int ctl_usage(const char *name)
{
	for_each_cmd(c) {
		if (!strcmp((*c)->name, name)) {
			fputs("usage:\n", stderr);
			print_cmd(stderr, *c);
		}
	}
	return CPUMGRCTL_EXIT_USAGE;
}

static int usage(FILE *f)
{
	fputs("usage: cpumgrctl COMMAND [ARGS]\n\ncommands:\n", f);
	for_each_cmd(c)
		print_cmd(f, *c);
	return f == stdout ? CPUMGRCTL_EXIT_OK : CPUMGRCTL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h"))
		return usage(stdout);

	for_each_cmd(c) {
		if (!strcmp((*c)->name, argv[1]))
			return (*c)->run(argc - 1, argv + 1);
	}
	ctl_err("unknown command '%s' (try 'cpumgrctl help')", argv[1]);
	return CPUMGRCTL_EXIT_USAGE;
}
