// SPDX-License-Identifier: GPL-2.0
/*
 * libcpumgr's names against the YNL spec they are generated from
 * (include/uapi/linux/cpumgr.yaml, read here as JSON): every enum and
 * flags definition of the spec has a name function, which names each of
 * its values as the spec does and no value past them; every
 * notification has its event name.  A definition or value added to the
 * spec without a name fails here.  Values are counted as the kernel's
 * YNL tools count them: an entry's "value", else one more than the
 * previous entry (value-start first); a flags value is that bit.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "cpumgr_nl.h"
#include "json_util.h"
#include "manifest.h"
#include "test_util.h"

static const char *event_name(uint32_t type)
{
	return cpumgr_event_name((int)type);
}

/* the spec's definition names and the functions naming their values */
static const struct {
	const char *def;
	const char *(*name)(uint32_t value);
} names[] = {
	{ "policy", cpumgr_policy_name },
	{ "option", cpumgr_option_name },
	{ "enforce", cpumgr_enforce_name },
	{ "hotplug", cpumgr_hotplug_name },
	{ "violation", cpumgr_violation_name },
	{ "verdict", cpumgr_verdict_name },
	{ "assignment-flag", cpumgr_assignment_flag_name },
};

/* The spec, the one document of its file. */
static cJSON *load_spec(void)
{
	struct cm_error err = { 0 };
	cJSON *docs = manifest_load(CPUMGR_SRC_TOP
				    "/include/uapi/linux/cpumgr.yaml", &err);
	cJSON *spec = NULL;

	if (!docs)
		fprintf(stderr, "# %s\n", cm_error_msg(&err));
	else if (cJSON_GetArraySize(docs) == 1)
		spec = cJSON_DetachItemFromArray(docs, 0);
	cJSON_Delete(docs);
	cm_error_clear(&err);
	return spec;
}

static const char *str(const cJSON *j)
{
	return cJSON_IsString(j) ? j->valuestring : NULL;
}

/* An entry's name; *value is advanced as YNL counts. */
static const char *entry(const cJSON *e, int64_t *value)
{
	const cJSON *v = json_member(e, "value");

	if (cJSON_IsNumber(v))
		*value = (int64_t)v->valuedouble;
	return cJSON_IsString(e) ? e->valuestring :
	       str(json_member(e, "name"));
}

TEST(every_enum_value_of_the_spec_has_its_name)
{
	cJSON *spec = load_spec();
	const cJSON *d;
	int checked = 0;

	ASSERT_NE(NULL, spec);
	cJSON_ArrayForEach(d, json_member(spec, "definitions")) {
		const char *type = str(json_member(d, "type"));
		const char *def = str(json_member(d, "name"));
		const char *(*name)(uint32_t) = NULL;
		const cJSON *start = json_member(d, "value-start"), *e;
		int64_t value = cJSON_IsNumber(start) ?
				(int64_t)start->valuedouble : 0;
		bool flags;

		if (!type || (strcmp(type, "enum") && strcmp(type, "flags")))
			continue;
		flags = !strcmp(type, "flags");
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			if (!strcmp(names[i].def, def))
				name = names[i].name;
		CHECK(name, "the spec's %s %s has no name function", type, def);
		if (!name)
			continue;
		cJSON_ArrayForEach(e, json_member(d, "entries")) {
			const char *want = entry(e, &value);
			uint32_t v = flags ? 1u << value : (uint32_t)value;
			const char *got = name(v);

			CHECK(want && got && !strcmp(got, want),
			      "%s %s: value %u is named \"%s\", the spec says \"%s\"",
			      type, def, v, got ? got : "(null)",
			      want ? want : "(null)");
			checked++;
			value++;
		}
		/* past the last value: no name */
		CHECK(!name(flags ? 1u << value : (uint32_t)value),
		      "%s %s: value past the spec's is named", type, def);
	}
	EXPECT_LT(0, checked);
	cJSON_Delete(spec);
}

TEST(every_notification_has_its_event_name)
{
	cJSON *spec = load_spec();
	const cJSON *op;
	int64_t value = 0;
	int checked = 0;

	ASSERT_NE(NULL, spec);
	cJSON_ArrayForEach(op, json_member(json_member(spec, "operations"),
					   "list")) {
		const char *n = entry(op, &value);
		size_t len = n ? strlen(n) : 0;
		const char *got = event_name((uint32_t)value);

		if (json_member(op, "event") || json_member(op, "notify")) {
			CHECK(len > 4 && !strcmp(n + len - 4, "-ntf") && got &&
			      !strncmp(got, n, len - 4) && !got[len - 4],
			      "notification %s (%lld) is named \"%s\"",
			      n ? n : "(null)", (long long)value,
			      got ? got : "(null)");
			checked++;
		} else {
			CHECK(!got, "operation %s (%lld) is named \"%s\" as an event",
			      n ? n : "(null)", (long long)value, got);
		}
		value++;
	}
	EXPECT_LT(0, checked);
	EXPECT_EQ(NULL, cpumgr_event_name(-1));
	EXPECT_EQ(NULL, event_name((uint32_t)value));
	cJSON_Delete(spec);
}

TEST_HARNESS_MAIN
