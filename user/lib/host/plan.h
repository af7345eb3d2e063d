/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl plan's request and its execution: the kubelet's allocator or
 * static policy run on a request, no kernel and no node involved.  Two
 * forms of request:
 *
 *   take:   {"topology", "available", "count", "options"} -> {"cpus"}
 *   policy: {"topology", "policy", "reservedCpus", "numReservedCpus",
 *            "options", "topologyManagerPolicy", "state", "steps"}
 *           -> {"reservedCpus", "defaultCpuSet", "steps": [...]}
 *
 * (README "cpumgrctl plan" has every member.)  It lives in the host
 * layer, with what reads the machine, because a topology may be given
 * as a sysfs directory to read.
 */
#ifndef CPUMGR_PLAN_H
#define CPUMGR_PLAN_H

#include <cJSON.h>

#include "error.h"

/*
 * The result of one request (a JSON object; the caller deletes it), or
 * NULL with the message in err when the request as a whole fails: bad
 * input, or a take that cannot be satisfied.  A policy step that fails
 * is reported inside the result, as the kubelet's admission error.
 */
cJSON *plan_run(const cJSON *req, struct cm_error *err);

#endif
