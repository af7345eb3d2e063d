/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kubernetes resource quantities (k8s.io/apimachinery resource.Quantity):
 * "2", "2000m", "1.5", "500m", "1e3", "200Mi", "1G".  Held exactly in
 * nano-units; finer values round up to 1n as Kubernetes rounds them.
 */
#ifndef CPUMGR_QUANTITY_H
#define CPUMGR_QUANTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

struct quantity {
	__int128 nano;		/* value * 1e9 */
	bool binary;		/* written with a binary suffix (Ki, Mi, ...) */
};

/*
 * Parse with Kubernetes' grammar
 * ^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$ and suffixes n u m "" k M
 * G T P E, Ki Mi Gi Ti Pi Ei, or e<N>/E<N>.  Errors carry Kubernetes'
 * own texts.
 */
int quantity_parse(const char *s, struct quantity *q, struct cm_error *err);
/* Parse a cpu quantity: a binary suffix is an error too. */
int quantity_parse_cpu(const char *s, struct quantity *q,
		       struct cm_error *err);

/*
 * Quantity.Value() and MilliValue(): rounded up, saturated at INT64_MAX
 * and INT64_MIN (Go's result is undefined there).
 */
int64_t quantity_value(const struct quantity *q);
int64_t quantity_milli_value(const struct quantity *q);
int quantity_cmp(const struct quantity *a, const struct quantity *b);
bool quantity_positive(const struct quantity *q);

#endif
