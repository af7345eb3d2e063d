/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl status's output: the node for a terminal (policy, modes,
 * pools, the pods' containers and a map of which container owns each
 * CPU) or as JSON for scripts.
 */
#ifndef CPUMGRCTL_CTL_STATUS_H
#define CPUMGRCTL_CTL_STATUS_H

#include <stdio.h>

#include <cJSON.h>

#include "node.h"

struct ctl_status_opts {
	unsigned int width;		/* columns, 80 */
};

int ctl_status_print(FILE *f, const struct node *n,
		     const struct ctl_status_opts *o);
cJSON *ctl_status_json(const struct node *n);
/* The topology map alone (tests). */
int ctl_status_map(FILE *f, const struct node *n, unsigned int width);

#endif
