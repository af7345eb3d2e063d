/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CPUMGR_TOPOLOGY_JSON_H
#define CPUMGR_TOPOLOGY_JSON_H

#include <cJSON.h>

#include "error.h"
#include "topology.h"

/*
 * {"cpus": [{"cpu": 0, "core": 0, "socket": 0, "numa": 0, "uncore": 0},
 * ...]} (uncore optional, 0 when absent) or {"sysfs": "DIR"}.
 */
struct topology *topology_from_json(const cJSON *j, struct cm_error *err);

#endif
