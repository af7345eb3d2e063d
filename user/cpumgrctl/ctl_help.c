// SPDX-License-Identifier: GPL-2.0
/*
 * What the command tables print about themselves: COMMAND --help, the
 * `help` listing, the man page's generated OPTIONS and EXAMPLES
 * (help --scd) and what the bash completion offers (help --complete).
 */
#include <ctype.h>
#include <string.h>

#include "cmd.h"

#define WIDTH	78

/* "[-j|--json]", "[--enforce off|audit|enforce]", "[--pods FILE]" */
static int opt_synopsis(char *buf, size_t len, const struct ctl_opt *o)
{
	char arg[128] = "";
	size_t i;

	if (o->arg && o->values) {
		snprintf(arg, sizeof(arg), " %s", o->values);
		for (i = 1; arg[i]; i++)
			if (arg[i] == ' ')
				arg[i] = '|';
	} else if (o->arg) {
		snprintf(arg, sizeof(arg), " %s", o->arg);
	}
	if (o->short_name)
		return snprintf(buf, len, "[-%c|--%s%s]", o->short_name,
				o->name, arg);
	return snprintf(buf, len, "[--%s%s]", o->name, arg);
}

/*
 * "cpumgrctl NAME ARGS [OPTIONS...]" after lead, wrapped with indent
 * (cols wide) after a newline
 */
static void synopsis_at(FILE *f, const struct cpumgrctl_cmd *cmd,
			const char *lead, const char *indent, size_t cols)
{
	char word[192];
	size_t col;

	col = (size_t)fprintf(f, "%scpumgrctl %s", lead, cmd->name);
	for (const struct ctl_pos *a = cmd->args; a && a->name; a++)
		col += (size_t)fprintf(f, a->optional ? " [%s]" : " %s",
				       a->name);
	for (const struct ctl_opt *o = cmd->opts; o && o->name; o++) {
		size_t n = (size_t)opt_synopsis(word, sizeof(word), o);

		if (col + 1 + n > WIDTH) {
			fprintf(f, "\n%s%s", indent, word);
			col = cols + n;
			continue;
		}
		col += (size_t)fprintf(f, " %s", word);
	}
	fputc('\n', f);
}

/* The same for a terminal: the indent is tabs. */
static void synopsis(FILE *f, const struct cpumgrctl_cmd *cmd,
		     const char *indent)
{
	synopsis_at(f, cmd, "", indent, 8 * strlen(indent));
}

void ctl_help_list_entry(FILE *f, const struct cpumgrctl_cmd *cmd)
{
	fputs("  ", f);
	synopsis(f, cmd, "\t\t");
	fprintf(f, "\t%s\n", cmd->help);
}

static void opt_head(char *buf, size_t len, const struct ctl_opt *o)
{
	int n = o->short_name ? snprintf(buf, len, "-%c, ", o->short_name) :
				snprintf(buf, len, "    ");

	snprintf(buf + n, len - (size_t)n, "--%s%s%s", o->name,
		 o->arg ? " " : "", o->arg ? o->arg : "");
}

void ctl_help_cmd(FILE *f, const struct cpumgrctl_cmd *cmd)
{
	char head[96];

	fputs("usage: ", f);
	synopsis(f, cmd, "\t");
	fprintf(f, "\n%s\n", cmd->help);
	if (cmd->args && cmd->args[0].name) {
		fputs("\narguments:\n", f);
		for (const struct ctl_pos *a = cmd->args; a->name; a++) {
			if (strlen(a->name) > 26)
				fprintf(f, "  %s\n  %-26s  %s", a->name, "",
					a->help);
			else
				fprintf(f, "  %-26s  %s", a->name, a->help);
			if (a->values)
				fprintf(f, " (%s)", a->values);
			fputs(a->optional ? " (optional)\n" : "\n", f);
		}
	}
	if (cmd->opts && cmd->opts[0].name) {
		fputs("\noptions:\n", f);
		for (const struct ctl_opt *o = cmd->opts; o->name; o++) {
			opt_head(head, sizeof(head), o);
			if (strlen(head) > 26)
				fprintf(f, "  %s\n  %-26s  %s", head, "",
					o->help);
			else
				fprintf(f, "  %-26s  %s", head, o->help);
			if (o->values)
				fprintf(f, " (%s)", o->values);
			fputc('\n', f);
		}
	}
	if (cmd->examples[0]) {
		fputs("\nexample:\n", f);
		for (unsigned int i = 0; i < 4 && cmd->examples[i]; i++)
			fprintf(f, "  %s\n", cmd->examples[i]);
	}
}

/* Text in scdoc: its markup characters escaped. */
static void scd_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '*' || *s == '_' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* " *a*|*b*" for a value list, " _ARG_" for a free argument */
static void scd_arg(FILE *f, const char *arg, const char *values)
{
	if (values) {
		fputs(" ", f);
		for (const char *v = values; *v; ) {
			size_t n = strcspn(v, " ");

			fprintf(f, "%s*%.*s*", v == values ? "" : "|", (int)n, v);
			v += n;
			v += strspn(v, " ");
		}
	} else if (arg) {
		fputs(" _", f);
		scd_text(f, arg);
		fputc('_', f);
	}
}

void ctl_help_scd(FILE *f, const struct cpumgrctl_cmd *const *cmds,
		  unsigned int nr)
{
	fputs("# OPTIONS\n\n"
	      "Every command's options, from the command table that also makes\n"
	      "*cpumgrctl* _COMMAND_ *--help* and the bash completion.\n", f);
	for (unsigned int i = 0; i < nr; i++) {
		const struct cpumgrctl_cmd *c = cmds[i];

		fprintf(f, "\n## %s\n\n*cpumgrctl %s*", c->name, c->name);
		for (const struct ctl_pos *a = c->args; a && a->name; a++) {
			fputs(a->optional ? " [_" : " _", f);
			scd_text(f, a->name);
			fputs(a->optional ? "_]" : "_", f);
		}
		fputs(c->opts && c->opts[0].name ? " [_OPTIONS_]\n\n" : "\n\n",
		      f);
		for (const struct ctl_pos *a = c->args; a && a->name; a++) {
			fputs("_", f);
			scd_text(f, a->name);
			fputs("_\n\t", f);
			scd_text(f, a->help);
			if (a->values) {
				fputs(":", f);
				scd_arg(f, NULL, a->values);
			}
			fputs(a->optional ? " (optional).\n\n" : ".\n\n", f);
		}
		if (!c->opts || !c->opts[0].name)
			fputs("No options.\n", f);
		for (const struct ctl_opt *o = c->opts; o && o->name; o++) {
			if (o != c->opts)
				fputc('\n', f);
			if (o->short_name)
				fprintf(f, "*-%c*, ", o->short_name);
			fprintf(f, "*--%s*", o->name);
			scd_arg(f, o->arg, o->values);
			fputs("\n\t", f);
			scd_text(f, o->help);
			fputs(".\n", f);
		}
	}
	fputs("\n# EXAMPLES\n", f);
	for (unsigned int i = 0; i < nr; i++) {
		if (!cmds[i]->examples[0])
			continue;
		fputs("\n", f);
		scd_text(f, cmds[i]->help);
		fputs(":\n\n```\n", f);
		for (unsigned int k = 0; k < 4 && cmds[i]->examples[k]; k++)
			fprintf(f, "%s\n", cmds[i]->examples[k]);
		fputs("```\n", f);
	}
}

static const char *const kinds[] = {
	[CTL_ANY] = "any", [CTL_WORD] = "word", [CTL_FILE] = "file",
	[CTL_DIR] = "dir",
};

/*
 * One line per option and argument, for the completion script:
 *   opt LONG SHORT|- ARGKIND|flag [VALUES...]
 *   arg N KIND [VALUES...]
 */
void ctl_help_complete(FILE *f, const struct cpumgrctl_cmd *cmd)
{
	char s[2] = { 0 };
	unsigned int n = 0;

	for (const struct ctl_opt *o = cmd->opts; o && o->name; o++) {
		s[0] = o->short_name;
		fprintf(f, "opt --%s -%s %s%s%s\n", o->name, s, o->arg ? kinds[o->kind] : "flag",
			o->values ? " " : "", o->values ? o->values : "");
	}
	for (const struct ctl_pos *a = cmd->args; a && a->name; a++)
		fprintf(f, "arg %u %s%s%s\n", ++n, kinds[a->kind],
			a->values ? " " : "", a->values ? a->values : "");
}

/* A Markdown code block line: the synopsis, continued under the arguments. */
void ctl_help_md_synopsis(FILE *f, const struct cpumgrctl_cmd *cmd)
{
	char indent[64];
	size_t n = 4 + strlen("cpumgrctl ") + strlen(cmd->name) + 1;

	snprintf(indent, sizeof(indent), "%*s", (int)n, "");
	synopsis_at(f, cmd, "    ", indent, n);
}

/* Markdown inline code needs no escapes; a backtick never occurs here. */
static void md_opt(FILE *f, const struct ctl_opt *o)
{
	fputs("- `", f);
	if (o->short_name)
		fprintf(f, "-%c`, `", o->short_name);
	fprintf(f, "--%s", o->name);
	if (o->arg && !o->values)
		fprintf(f, " %s", o->arg);
	fputc('`', f);
	if (o->values) {
		const char *v = o->values;

		fputs(" ", f);
		while (*v) {
			size_t len = strcspn(v, " ");

			fprintf(f, "%s`%.*s`", v == o->values ? "" : "|",
				(int)len, v);
			v += len;
			v += strspn(v, " ");
		}
	}
	fprintf(f, ": %s.\n", o->help);
}

void ctl_help_md(FILE *f, const struct cpumgrctl_cmd *const *cmds,
		 unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		const struct cpumgrctl_cmd *c = cmds[i];

		/* the one-line help as a sentence */
		fprintf(f, "%s### %s\n\n%c%s.\n\n", i ? "\n" : "", c->name,
			toupper((unsigned char)c->help[0]), c->help + 1);
		ctl_help_md_synopsis(f, c);
		fputc('\n', f);
		for (const struct ctl_pos *a = c->args; a && a->name; a++) {
			fprintf(f, "- `%s`: %s", a->name, a->help);
			if (a->values)
				fprintf(f, " (`%s`)", a->values);
			fputs(a->optional ? " (optional).\n" : ".\n", f);
		}
		for (const struct ctl_opt *o = c->opts; o && o->name; o++)
			md_opt(f, o);
		if ((!c->args || !c->args[0].name) && (!c->opts || !c->opts[0].name))
			fputs("No arguments, no options.\n", f);
	}
}
