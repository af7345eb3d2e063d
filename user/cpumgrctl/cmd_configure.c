// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl configure: set what is given of the policy, the static policy
 * options, the reserved CPUs, the enforcement and hotplug modes and the
 * managed cgroup root; the rest stays as the kernel has it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "go_strconv.h"

/* The value of a name among @names (a NULL-terminated table), or -1. */
static int lookup(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++) {
		if (!strcmp(names[i], s))
			return i;
	}
	return -1;
}

static const char *const policy_names[] = { "none", "static", NULL };
static const char *const enforce_names[] = { "off", "audit", "enforce", NULL };
static const char *const hotplug_names[] = { "protect", "release", NULL };

static uint32_t option_bit(const char *name)
{
	for (uint32_t bit = 1; bit & CPUMGR_OPT_ALL; bit <<= 1) {
		const char *n = cpumgr_option_name(bit);

		if (n && !strcmp(n, name))
			return bit;
	}
	return 0;
}

/*
 * "name,name" or the kubelet's "name=true,name=false"; "" is no option.
 * false (and a message) on an unknown name or value.
 */
static bool parse_options(const char *list, uint32_t *options)
{
	char *copy = strdup(list), *save = NULL, *item;
	bool ok = true;

	if (!copy) {
		ctl_err("out of memory");
		return false;
	}
	*options = 0;
	for (item = strtok_r(copy, ",", &save); item && ok;
	     item = strtok_r(NULL, ",", &save)) {
		char *value = strchr(item, '=');
		uint32_t bit;
		bool on = true;
		int bad = 0;

		/* Go's strconv.ParseBool, as the kubelet reads option values */
		if (value) {
			*value++ = '\0';
			bad = go_parse_bool(value, &on);
		}
		bit = option_bit(item);
		if (!bit) {
			ctl_err("--options: unknown option '%s'", item);
			ok = false;
		} else if (bad) {
			ctl_err("--options: %s: '%s' is not a boolean", item, value);
			ok = false;
		} else if (on) {
			*options |= bit;
		}
	}
	free(copy);
	return ok;
}

static bool parse_name(const char *opt, const char *const *names,
		       const char *s, uint32_t *val)
{
	int i = lookup(names, s);

	if (i < 0) {
		fprintf(stderr, "cpumgrctl: %s: '%s' is not one of:", opt, s);
		for (i = 0; names[i]; i++)
			fprintf(stderr, " %s", names[i]);
		fputc('\n', stderr);
		return false;
	}
	*val = i;
	return true;
}

static int cmd_configure(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "options", required_argument, NULL, 'o' },
		{ "reserved", required_argument, NULL, 'r' },
		{ "enforce", required_argument, NULL, 'e' },
		{ "hotplug", required_argument, NULL, 'H' },
		{ "cgroup-root", required_argument, NULL, 'c' },
		{ "generation", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	struct cpumgr_config cfg = { 0 };
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	bool check = false, ok = true;
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			cfg.set |= CPUMGR_CFG_POLICY;
			ok = parse_name("--policy", policy_names, optarg,
					&cfg.policy);
			break;
		case 'o':
			cfg.set |= CPUMGR_CFG_OPTIONS;
			ok = parse_options(optarg, &cfg.options);
			break;
		case 'r':
			cfg.set |= CPUMGR_CFG_RESERVED;
			cfg.reserved_cpus = optarg;
			break;
		case 'e':
			cfg.set |= CPUMGR_CFG_ENFORCE;
			ok = parse_name("--enforce", enforce_names, optarg,
					&cfg.enforce);
			break;
		case 'H':
			cfg.set |= CPUMGR_CFG_HOTPLUG;
			ok = parse_name("--hotplug", hotplug_names, optarg,
					&cfg.hotplug);
			break;
		case 'c':
			cfg.set |= CPUMGR_CFG_CGROUP_ROOT;
			cfg.cgroup_root = optarg;
			break;
		case 'g':
			ok = ctl_parse_u64("--generation", optarg, &expect);
			check = true;
			break;
		default:
			return ctl_usage(argv[0]);
		}
		if (!ok)
			return CPUMGRCTL_EXIT_USAGE;
	}
	if (optind != argc)
		return ctl_usage(argv[0]);
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_configure(nl, &cfg, check ? &expect : NULL, &gen))
		return ctl_nl_fail(nl, "configure");
	cpumgr_nl_close(nl);
	printf("generation %llu\n", (unsigned long long)gen);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(configure, "configure",
		  "[--policy none|static] [--options NAME[=BOOL],...] [--reserved CPULIST]\n"
		  "\t\t[--enforce off|audit|enforce] [--hotplug protect|release]\n"
		  "\t\t[--cgroup-root PATH] [--generation N]",
		  "set the policy, options, reserved CPUs, modes and managed cgroup root (\"\": every cgroup)",
		  cmd_configure);
