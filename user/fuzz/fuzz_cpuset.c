// SPDX-License-Identifier: GPL-2.0
/*
 * cpuset_parse() (kernel cpulist syntax) and cpuset_parse_kube()
 * (k8s.io/utils/cpuset): no crash, an error leaves the set untouched,
 * and what is accepted prints back to a list that parses to the same set
 * in both syntaxes.
 */
#include "cpuset.h"
#include "fuzz_util.h"

static void roundtrip(const struct cpuset *s)
{
	struct cm_error err = { 0 };
	struct cpuset back;
	char *text = cpuset_to_str(s);

	fuzz_assert(text);
	fuzz_assert(strlen(text) == cpuset_format(s, NULL, 0));
	fuzz_assert(!cpuset_parse(&back, text, &err));
	fuzz_assert(cpuset_equal(s, &back));
	fuzz_assert(!cpuset_parse_kube(&back, text, &err));
	fuzz_assert(cpuset_equal(s, &back));
	free(text);
}

static void one(int (*parse)(struct cpuset *, const char *,
			     struct cm_error *), const char *text)
{
	static struct cpuset s, before;
	struct cm_error err = { 0 };

	memset(&s, 0xa5, sizeof(s));
	before = s;
	if (parse(&s, text, &err)) {
		fuzz_assert(err.msg);
		fuzz_assert(!memcmp(&s, &before, sizeof(s)));
		cm_error_clear(&err);
		return;
	}
	fuzz_assert(!err.msg);
	roundtrip(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);

	if (!text)
		return 0;
	one(cpuset_parse, text);
	one(cpuset_parse_kube, text);
	free(text);
	return 0;
}
