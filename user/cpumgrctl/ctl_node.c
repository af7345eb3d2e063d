// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ctl_node.h"

int ctl_node_args(int argc, char **argv, const struct ctl_opt *opts,
		  int min, int max, struct ctl_args *out)
{
	struct option longopts[CTL_MAX_OPTS + 2] = { CTL_STATE_DIR_OPTION };
	int nr = 0, opt;

	memset(out, 0, sizeof(*out));
	for (; opts[nr].name; nr++) {
		if (nr == CTL_MAX_OPTS)
			abort();	/* a subcommand with too many options */
		longopts[nr + 1] = (struct option){
			opts[nr].name,
			opts[nr].value ? required_argument : no_argument,
			NULL, nr
		};
	}
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == CTL_OPT_STATE_DIR)
			out->state_dir = optarg;
		else if (opt >= 0 && opt < nr && opts[opt].value)
			*opts[opt].value = optarg;
		else if (opt >= 0 && opt < nr)
			*opts[opt].on = true;
		else
			return ctl_usage(argv[0]);
	}
	if (argc - optind < min || argc - optind > max)
		return ctl_usage(argv[0]);
	out->arg = argv + optind;
	out->nr = argc - optind;
	return 0;
}

int ctl_node_start(int argc, char **argv, const struct ctl_opt *opts,
		   int min, int max, unsigned int flags, struct node *n,
		   struct ctl_args *args)
{
	int ret = ctl_node_args(argc, argv, opts, min, max, args);

	return ret ? ret : ctl_node_open(n, args->state_dir, flags);
}

const char *ctl_state_dir(const char *given)
{
	const char *env = getenv("CPUMGR_STATE_DIR");

	if (given)
		return given;
	return env && *env ? env : NODE_STATE_DIR;
}

int ctl_node_open(struct node *n, const char *dir, unsigned int flags)
{
	struct cm_error err = { 0 };

	if (node_open(n, ctl_state_dir(dir), flags, &err)) {
		ctl_err("%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	n->log = stdout;
	return CPUMGRCTL_EXIT_OK;
}

static int report(struct node *n, struct cm_error *err, const char *what,
		  int status)
{
	ctl_err("%s%s%s", what ? what : "", what ? ": " : "",
		cm_error_msg(err));
	cm_error_clear(err);
	node_close(n);
	return status;
}

int ctl_node_fail(struct node *n, struct cm_error *err, const char *what)
{
	return report(n, err, what, CPUMGRCTL_EXIT_FAIL);
}

int ctl_node_bad_input(struct node *n, struct cm_error *err,
		       const char *what)
{
	return report(n, err, what, CPUMGRCTL_EXIT_USAGE);
}
