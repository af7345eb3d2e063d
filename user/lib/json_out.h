/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Print a cJSON tree in one stable layout: one-space indentation, members
 * in insertion order, ", " never trailing, non-ASCII escaped as \uXXXX
 * (the layout of Python's json.dumps(indent=1), which the example
 * expectations use).
 */
#ifndef CPUMGR_JSON_OUT_H
#define CPUMGR_JSON_OUT_H

#include <stdio.h>

#include <cJSON.h>

/* Returns 0 or -EIO. */
int json_print(FILE *f, const cJSON *j);

#endif
