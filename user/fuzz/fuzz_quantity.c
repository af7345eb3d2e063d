// SPDX-License-Identifier: GPL-2.0
/*
 * quantity_parse() and quantity_parse_cpu() (Kubernetes resource
 * quantities): no crash or overflow, an error carries a message, a cpu
 * quantity is a quantity, and the derived values are consistent.
 */
#include "fuzz_util.h"
#include "quantity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cm_error err = { 0 };
	struct quantity q, c;
	char *text = fuzz_text(data, size);
	int ret;

	if (!text)
		return 0;
	ret = quantity_parse(text, &q, &err);
	fuzz_assert(!ret == !err.msg);
	cm_error_clear(&err);
	if (!ret) {
		int64_t v = quantity_value(&q), m = quantity_milli_value(&q);

		fuzz_assert(quantity_cmp(&q, &q) == 0);
		/* both round up: the milli value is at most 1000 * value */
		if (v < INT64_MAX / 1000 && v > INT64_MIN / 1000)
			fuzz_assert(m <= v * 1000);
		if (quantity_positive(&q))
			fuzz_assert(v >= 1 && m >= 1);
	}
	if (!quantity_parse_cpu(text, &c, &err)) {
		fuzz_assert(!ret && !c.binary);
		fuzz_assert(quantity_cmp(&q, &c) == 0);
	}
	cm_error_clear(&err);
	free(text);
	return 0;
}
