// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl configure: set what is given of the policy, the static policy
 * options, the reserved CPUs, the enforcement and hotplug modes, the
 * managed cgroup root and the system cgroup (KEP-5894's system partition);
 * the rest stays as the kernel has it.
 */
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

/* A value the table already checked against names. */
static uint32_t name_value(const char *const *names, const char *s)
{
	int i = lookup(names, s);

	return i < 0 ? 0 : (uint32_t)i;
}

static int cmd_configure(const struct ctl_cmdline *cl)
{
	struct cpumgr_config cfg = { 0 };
	uint64_t expect, gen;
	struct cpumgr_nl *nl;
	const char *v;
	bool check;

	if (!ctl_generation(cl, &expect, &check))
		return CPUMGRCTL_EXIT_USAGE;
	v = ctl_val(cl, "policy");
	if (v) {
		cfg.set |= CPUMGR_CFG_POLICY;
		cfg.policy = name_value(policy_names, v);
	}
	v = ctl_val(cl, "options");
	if (v) {
		cfg.set |= CPUMGR_CFG_OPTIONS;
		if (!parse_options(v, &cfg.options))
			return CPUMGRCTL_EXIT_USAGE;
	}
	v = ctl_val(cl, "reserved");
	if (v) {
		if (!ctl_parse_cpulist("--reserved", v, true))
			return CPUMGRCTL_EXIT_USAGE;
		cfg.set |= CPUMGR_CFG_RESERVED;
		cfg.reserved_cpus = v;
	}
	v = ctl_val(cl, "enforce");
	if (v) {
		cfg.set |= CPUMGR_CFG_ENFORCE;
		cfg.enforce = name_value(enforce_names, v);
	}
	v = ctl_val(cl, "hotplug");
	if (v) {
		cfg.set |= CPUMGR_CFG_HOTPLUG;
		cfg.hotplug = name_value(hotplug_names, v);
	}
	v = ctl_val(cl, "cgroup-root");
	if (v) {
		cfg.set |= CPUMGR_CFG_CGROUP_ROOT;
		cfg.cgroup_root = v;
	}
	v = ctl_val(cl, "system-cgroup");
	if (v) {
		cfg.set |= CPUMGR_CFG_SYSTEM_CGROUP;
		cfg.system_cgroup = v;
	}
	nl = ctl_nl_open();
	if (!nl)
		return CPUMGRCTL_EXIT_FAIL;
	if (cpumgr_nl_configure(nl, &cfg, check ? &expect : NULL, &gen))
		return ctl_nl_fail(nl, "configure");
	cpumgr_nl_close(nl);
	printf("generation %llu\n", (unsigned long long)gen);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(configure) = {
	.name = "configure",
	.help = "set the policy, options, reserved CPUs, modes, managed cgroup root (\"\": every cgroup) and system cgroup",
	.opts = (const struct ctl_opt[]){
		{ "policy", 0, "POLICY", CTL_WORD, "none static", "the CPU Manager policy" },
		{ "options", 0, "NAME[=BOOL],...", CTL_ANY, NULL, "the static policy's options, kubelet names" },
		{ "reserved", 0, "CPULIST", CTL_ANY, NULL, "the reserved CPUs" },
		{ "enforce", 0, "MODE", CTL_WORD, "off audit enforce", "what the module does with a write that breaks exclusivity" },
		{ "hotplug", 0, "MODE", CTL_WORD, "protect release", "refuse to offline an assigned CPU, or take it from its container" },
		{ "cgroup-root", 0, "PATH", CTL_DIR, NULL, "the managed cgroup root (\"\": every cgroup)" },
		{ "system-cgroup", 0, "PATH", CTL_DIR, NULL, "the system pods' cgroup below the root, which may use the reserved CPUs (KEP-5894; \"\": none)" },
		CTL_OPT_GENERATION,
		{ NULL }
	},
	.examples = { "cpumgrctl configure --policy static --reserved 0 --enforce enforce" },
	.kernel = true,
	.run = cmd_configure,
};
