// SPDX-License-Identifier: GPL-2.0
/*
 * The command line read by the command's table (cmd.h): options before,
 * between and after the positional arguments, "--name value",
 * "--name=value", "-x value", "-xvalue", flags grouped ("-jf"), "--"
 * ending the options.  Long names are matched whole (no abbreviations:
 * a new option must not change what an old command line means).  Every
 * mistake is one line "cpumgrctl: CMD: reason" and exit status 2.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

unsigned int ctl_opt_index(const struct cpumgrctl_cmd *cmd, const char *name)
{
	for (unsigned int i = 0; cmd->opts && cmd->opts[i].name; i++)
		if (!strcmp(cmd->opts[i].name, name))
			return i;
	abort();	/* a command asking for an option its table lacks */
}

const char *ctl_val(const struct ctl_cmdline *cl, const char *name)
{
	return cl->val[ctl_opt_index(cl->cmd, name)];
}

bool ctl_flag(const struct ctl_cmdline *cl, const char *name)
{
	return ctl_val(cl, name) != NULL;
}

/* Is word one of the space-separated values? */
static bool in_values(const char *values, const char *word)
{
	size_t len = strlen(word);

	for (const char *v = values; *v; ) {
		size_t n = strcspn(v, " ");

		if (n == len && !strncmp(v, word, len))
			return true;
		v += n;
		v += strspn(v, " ");
	}
	return false;
}

/* what: the option ("--mode: "), or "" for a positional argument */
static int bad_value(const char *what, const char *word, const char *values)
{
	ctl_err("%s'%s' is not one of: %s", what, word, values);
	return CPUMGRCTL_EXIT_USAGE;
}

static int set_opt(struct ctl_cmdline *cl, unsigned int i, const char *val)
{
	const struct ctl_opt *o = &cl->cmd->opts[i];
	char what[64];

	if (o->values && !in_values(o->values, val)) {
		snprintf(what, sizeof(what), "--%s: ", o->name);
		return bad_value(what, val, o->values);
	}
	if (cl->nr_seq == CTL_MAX_SEQ) {
		ctl_err("too many options");
		return CPUMGRCTL_EXIT_USAGE;
	}
	cl->val[i] = val;
	cl->seq[cl->nr_seq].opt = i;
	cl->seq[cl->nr_seq++].val = val;
	return 0;
}

static int no_such_option(const struct ctl_cmdline *cl, const char *text)
{
	if (!strcmp(text, "-j") || !strcmp(text, "--json"))
		ctl_err("no JSON output (-j/--json)");
	else
		ctl_err("unknown option '%s' (try 'cpumgrctl %s --help')", text,
			cl->cmd->name);
	return CPUMGRCTL_EXIT_USAGE;
}

/* --name, --name=value, --name value; *i advanced past what it took. */
static int long_opt(struct ctl_cmdline *cl, int argc, char **argv, int *i)
{
	const char *text = argv[*i] + 2, *eq = strchr(text, '=');
	size_t len = eq ? (size_t)(eq - text) : strlen(text);
	const struct ctl_opt *o = cl->cmd->opts;
	unsigned int k;

	for (k = 0; o && o[k].name; k++)
		if (strlen(o[k].name) == len && !strncmp(o[k].name, text, len))
			break;
	if (!o || !o[k].name)
		return no_such_option(cl, argv[*i]);
	if (!o[k].arg) {
		if (eq) {
			ctl_err("option '--%s' takes no argument", o[k].name);
			return CPUMGRCTL_EXIT_USAGE;
		}
		return set_opt(cl, k, "");
	}
	if (eq)
		return set_opt(cl, k, eq + 1);
	if (*i + 1 >= argc) {
		ctl_err("option '--%s' needs an argument (%s)", o[k].name,
			o[k].arg);
		return CPUMGRCTL_EXIT_USAGE;
	}
	return set_opt(cl, k, argv[++*i]);
}

/* -x, -xy (flags), -xVALUE, -x VALUE. */
static int short_opts(struct ctl_cmdline *cl, int argc, char **argv, int *i)
{
	const struct ctl_opt *o = cl->cmd->opts;

	for (const char *p = argv[*i] + 1; *p; p++) {
		char text[3] = { '-', *p, 0 };
		unsigned int k;
		int ret;

		for (k = 0; o && o[k].name; k++)
			if (o[k].short_name == *p)
				break;
		if (!o || !o[k].name)
			return no_such_option(cl, text);
		if (!o[k].arg) {
			ret = set_opt(cl, k, "");
			if (ret)
				return ret;
			continue;
		}
		if (p[1])
			return set_opt(cl, k, p + 1);
		if (*i + 1 >= argc) {
			ctl_err("option '%s' needs an argument (%s)", text,
				o[k].arg);
			return CPUMGRCTL_EXIT_USAGE;
		}
		return set_opt(cl, k, argv[++*i]);
	}
	return 0;
}

bool ctl_state_dir_arg(const char *dir)
{
	if (!dir)
		ctl_err("option '--state-dir' needs an argument (DIR)");
	else if (!dir[0])
		ctl_err("option '--state-dir' needs a directory, not an empty value");
	return dir && dir[0];
}

/* The positional arguments against the table's count and values. */
static int check_args(const struct ctl_cmdline *cl)
{
	const struct ctl_pos *a = cl->cmd->args;
	int min = 0, max = 0;

	for (; a && a[max].name; max++)
		if (!a[max].optional)
			min = max + 1;
	if (cl->nr < min) {
		ctl_err("missing %s (try 'cpumgrctl %s --help')",
			a[cl->nr].name, cl->cmd->name);
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (cl->nr > max) {
		ctl_err("unexpected argument '%s' (%s)", cl->arg[max],
			max ? "too many arguments" : "takes none");
		return CPUMGRCTL_EXIT_USAGE;
	}
	for (int i = 0; i < cl->nr; i++)
		if (a[i].values && !in_values(a[i].values, cl->arg[i]))
			return bad_value("", cl->arg[i], a[i].values);
	return 0;
}

int ctl_parse(const struct cpumgrctl_cmd *cmd, int argc, char **argv,
	      bool json, struct ctl_cmdline *cl)
{
	bool options = true;
	int i, ret;

	memset(cl, 0, sizeof(*cl));
	cl->cmd = cmd;
	for (i = 0; cmd->opts && cmd->opts[i].name; i++)
		if (i == CTL_MAX_OPTS)
			abort();	/* a table longer than cl->val */
	/* the positional arguments, moved to the front of argv + 1 */
	cl->arg = argv + 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		ret = 0;
		if (options && !strcmp(a, "--"))
			options = false;
		else if (options && !strncmp(a, "--", 2))
			ret = long_opt(cl, argc, argv, &i);
		else if (options && a[0] == '-' && a[1])
			ret = short_opts(cl, argc, argv, &i);
		else
			cl->arg[cl->nr++] = argv[i];
		if (ret)
			return ret;
	}
	if (json && !cmd->always_json) {
		unsigned int k;

		for (k = 0; cmd->opts && cmd->opts[k].name; k++)
			if (!strcmp(cmd->opts[k].name, "json"))
				break;
		if (!cmd->opts || !cmd->opts[k].name)
			return no_such_option(cl, "--json");
		cl->val[k] = "";
	}
	cl->json = json || cmd->always_json;
	for (unsigned int k = 0; cmd->opts && cmd->opts[k].name; k++) {
		if (!strcmp(cmd->opts[k].name, "json") && cl->val[k])
			cl->json = true;
		if (!strcmp(cmd->opts[k].name, "state-dir") && cl->val[k]) {
			if (!ctl_state_dir_arg(cl->val[k]))
				return CPUMGRCTL_EXIT_USAGE;
			cl->state_dir = cl->val[k];
		}
	}
	return check_args(cl);
}
