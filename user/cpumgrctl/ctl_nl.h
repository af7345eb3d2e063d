/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the subcommands that talk to the kernel share: the connection,
 * one-line error reports with the kernel's extack message, the options
 * they have in common.
 */
#ifndef CPUMGRCTL_CTL_NL_H
#define CPUMGRCTL_CTL_NL_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "cpumgr_nl.h"

/* Connect, or report why not ("cpumgrctl: connect to cpumgr: ...") and
 * return NULL. */
struct cpumgr_nl *ctl_nl_open(void);
/*
 * Report the last failure of nl as "cpumgrctl: <what>: <strerror>:
 * <extack message>" and close nl; returns CPUMGRCTL_EXIT_FAIL.
 */
int ctl_nl_fail(struct cpumgr_nl *nl, const char *what, ...)
	__attribute__((format(printf, 2, 3)));
/* A whole decimal u64; false (and a usage message) otherwise. */
bool ctl_parse_u64(const char *opt, const char *s, uint64_t *val);
/*
 * A cpulist the kernel would take (its syntax, CPUs below 8192; not
 * empty unless empty_ok), checked before the request goes: false after
 * a usage message "WHAT: invalid cpulist ...".
 */
bool ctl_parse_cpulist(const char *what, const char *s, bool empty_ok);
/*
 * --generation N of the command line, if given: *expect set and true in
 * *check; false after a usage message.
 */
bool ctl_generation(const struct ctl_cmdline *cl, uint64_t *expect,
		    bool *check);
/* Print a JSON document and free it; returns the exit status. */
int ctl_print_json(cJSON *root);
/* The empty cpulist shown to people. */
const char *ctl_cpus(const char *cpus);
/* Options as the kubelet names them, comma-separated; "(none)". */
void ctl_print_options(uint32_t options);
/* "POD CONTAINER cpus LIST[ init][ cgroup PATH][ pod-cgroup PATH]", no
 * newline; the parts that are absent are left out. */
void ctl_print_assignment(const struct cpumgr_assignment *a);

#endif
