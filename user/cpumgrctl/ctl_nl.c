// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cpuset.h"
#include "ctl_nl.h"

struct cpumgr_nl *ctl_nl_open(void)
{
	struct cpumgr_nl *nl;
	char *msg = NULL;
	int err;

	nl = cpumgr_nl_open(&err, &msg);
	if (!nl) {
		ctl_err("connect to cpumgr: %s%s%s", strerror(-err),
			msg ? ": " : "", msg ? msg : "");
		free(msg);
	}
	return nl;
}

int ctl_nl_fail(struct cpumgr_nl *nl, const char *what, ...)
{
	const struct cpumgr_nl_error *e = cpumgr_nl_last_error(nl);
	char msg[512];
	va_list ap;

	va_start(ap, what);
	vsnprintf(msg, sizeof(msg), what, ap);
	va_end(ap);
	ctl_err("%s: %s%s%s", msg, strerror(e->err ? -e->err : EIO),
		e->msg[0] ? ": " : "", e->msg);
	cpumgr_nl_close(nl);
	return CPUMGRCTL_EXIT_FAIL;
}

bool ctl_parse_u64(const char *opt, const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-') {
		ctl_err("%s: '%s' is not a non-negative integer", opt, s);
		return false;
	}
	*val = v;
	return true;
}

bool ctl_parse_cpulist(const char *what, const char *s, bool empty_ok)
{
	struct cm_error err = { 0 };
	struct cpuset set;

	if (!cpuset_parse(&set, s, &err)) {
		if (empty_ok || !cpuset_empty(&set))
			return true;
		cm_errorf(&err, "an empty cpulist");
	}
	ctl_err("%s: %s", what, cm_error_msg(&err));
	cm_error_clear(&err);
	return false;
}

bool ctl_generation(const struct ctl_cmdline *cl, uint64_t *expect,
		    bool *check)
{
	const char *g = ctl_val(cl, "generation");

	*check = g != NULL;
	return !g || ctl_parse_u64("--generation", g, expect);
}

const char *ctl_cpus(const char *cpus)
{
	return cpus && cpus[0] ? cpus : "(none)";
}

void ctl_print_options(uint32_t options)
{
	const char *sep = "";

	if (!options) {
		fputs("(none)", stdout);
		return;
	}
	for (uint32_t bit = 1; bit; bit <<= 1) {
		const char *name = cpumgr_option_name(bit);

		if (!(options & bit))
			continue;
		if (name)
			printf("%s%s", sep, name);
		else
			printf("%s0x%x", sep, bit);
		sep = ",";
	}
}

static void print_path(const char *key, const char *path)
{
	if (path)
		printf(" %s %s", key, path[0] ? path : "(none)");
}

void ctl_print_assignment(const struct cpumgr_assignment *a)
{
	fputs(a->pod_uid, stdout);
	if (a->container[0])
		printf(" %s", a->container);
	if (a->cpus)
		printf(" cpus %s", ctl_cpus(a->cpus));
	if (a->flags & CPUMGR_ASSIGNMENT_F_INIT)
		fputs(" init", stdout);
	if (a->flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING)
		fputs(" partition-pending", stdout);
	print_path("cgroup", a->cgroup_path);
	print_path("pod-cgroup", a->pod_cgroup_path);
	if (a->pod_cpus)
		printf(" pod-cpus %s", ctl_cpus(a->pod_cpus));
}

int ctl_print_json(cJSON *root)
{
	char *text = cJSON_Print(root);

	cJSON_Delete(root);
	if (!text) {
		ctl_err("out of memory");
		return CPUMGRCTL_EXIT_FAIL;
	}
	puts(text);
	free(text);
	return CPUMGRCTL_EXIT_OK;
}
