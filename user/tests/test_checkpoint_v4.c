// SPDX-License-Identifier: GPL-2.0
/*
 * The 1.36 and 1.37 checkpoints: v3 (podEntries under the checksum) and
 * v4 (the v2 members inline, "data" and "dataChecksum"), read in the
 * 1.37 kubelet's order and written byte for byte.
 *
 * Where the numbers come from:
 * - the v3 files and their checksums are the kubelet's own test table
 *   (user/tests/data/checkpoint/README);
 * - a data checksum is checksum.New(string): FNV-1a 32 over "(string)"
 *   and the string, which reproduces the kubelet's test values
 *   1849615440 and 2100279793 (memory manager v3, the same design) and
 *   2328898362 (the cpu manager's data string of #137820);
 * - the other checksums below were computed by a few lines of Python
 *   apart from cpumgr's C (FNV-1a 32 over the spew text of
 *   checkpoint.h), the same script reproducing the kubelet's 2284712151
 *   and 751755688 first.
 * The v4 layout is the merged design's (kubernetes#139102, KEP-5554's
 * text: CPUManagerCheckpointV2 inline, then data and dataChecksum) with
 * the data members of #140314 (baselines); its test tables are not in
 * the source store, so no byte here was written by the kubelet's v4 code.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "checkpoint.h"
#include "json_util.h"
#include "test_util.h"

static struct cpuset set_of(const char *list)
{
	struct cm_error err = { 0 };
	struct cpuset s;

	if (cpuset_parse_kube(&s, list, &err))
		abort();
	return s;
}

static int parse_str(const char *json, struct checkpoint *c,
		     struct cm_error *err)
{
	return checkpoint_parse(json, strlen(json), NULL, c, err);
}

static bool pool_is(const struct checkpoint *c, const char *uid,
		    const char *list)
{
	const struct cpuset *p = assignments_get_pool(&c->state, uid);
	struct cpuset want = set_of(list);

	return p && cpuset_equal(p, &want);
}

static bool entry_is(const struct checkpoint *c, const char *uid,
		     const char *name, const char *list)
{
	const struct cpuset *p = assignments_get(&c->state, uid, name);
	struct cpuset want = set_of(list);

	return p && cpuset_equal(p, &want);
}

/* The kubelet's own v3 files: podEntries kept, the checksum verified. */
TEST(v3_kubelet_tables)
{
	struct cm_error err = { 0 };
	struct checkpoint c;
	size_t len;
	char *buf = checkpoint_fixture("kubelet-v3-table-static.json", &len);

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, checkpoint_parse(buf, len, NULL, &c, &err));
	EXPECT_EQ(CHECKPOINT_V3, (int)c.version);
	EXPECT_EQ(2284712151u, c.checksum);
	EXPECT_FALSE(c.unverified);
	EXPECT_STREQ("static", c.policy);
	EXPECT_TRUE(entry_is(&c, "pod1", "container1", "5-6"));
	EXPECT_TRUE(entry_is(&c, "pod1", "container2", "3-4"));
	EXPECT_EQ(1u, c.state.nr_pods);
	EXPECT_TRUE(pool_is(&c, "pod2", "7-9"));
	checkpoint_free(&c);
	free(buf);

	buf = checkpoint_fixture("kubelet-v3-table-none.json", &len);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, checkpoint_parse(buf, len, NULL, &c, &err));
	EXPECT_EQ(CHECKPOINT_V3, (int)c.version);
	EXPECT_STREQ("none", c.policy);
	EXPECT_TRUE(pool_is(&c, "pod2", "7-9"));
	checkpoint_free(&c);
	free(buf);
}

/*
 * 1.36 writes v3 under the legacy type name; the kubelet's v3 check takes
 * both.  A changed pod entry breaks the checksum: v3 fails, v2 does not
 * match either, and v2's error is the kubelet's.
 */
TEST(v3_checksum_covers_pod_entries)
{
	static const char legacy[] =
		"{\"policyName\":\"static\",\"defaultCpuSet\":\"1-2\",\"entries\":{\"pod1\":"
		"{\"container1\":\"5-6\",\"container2\":\"3-4\"}},\"podEntries\":{\"pod2\":"
		"{\"cpuSet\":\"7-9\"}},\"checksum\":766259872}";
	static const char changed[] =
		"{\"policyName\":\"static\",\"defaultCpuSet\":\"1-2\",\"entries\":{\"pod1\":"
		"{\"container1\":\"5-6\",\"container2\":\"3-4\"}},\"podEntries\":{\"pod2\":"
		"{\"cpuSet\":\"7-8\"}},\"checksum\":2284712151}";
	struct cm_error err = { 0 };
	struct checkpoint c;

	ASSERT_EQ(0, parse_str(legacy, &c, &err));
	EXPECT_EQ(CHECKPOINT_V3, (int)c.version);
	EXPECT_TRUE(pool_is(&c, "pod2", "7-9"));
	checkpoint_free(&c);

	EXPECT_EQ(-EBADMSG, parse_str(changed, &c, &err));
	EXPECT_STREQ(CHECKPOINT_ERR_CORRUPT, cm_error_msg(&err));
	cm_error_clear(&err);
}

/*
 * v3 takes no zero checksum; v2 does (the old file backend), and a v2
 * has no podEntries: the kubelet drops them, and so does the read.
 */
TEST(v3_zero_checksum_loads_as_v2)
{
	static const char zero[] =
		"{\"policyName\":\"static\",\"defaultCpuSet\":\"1-2\",\"podEntries\":"
		"{\"pod2\":{\"cpuSet\":\"7-9\"}},\"checksum\":0}";
	struct cm_error err = { 0 };
	struct checkpoint c;

	ASSERT_EQ(0, parse_str(zero, &c, &err));
	EXPECT_EQ(CHECKPOINT_V2, (int)c.version);
	EXPECT_TRUE(c.unverified);
	EXPECT_EQ(0u, c.state.nr_pods);
	checkpoint_free(&c);
}

/*
 * v4: the data is the state and its checksum decides; the inline v2
 * members are for older kubelets and are not looked at (here they are
 * another policy with a wrong checksum, as in the kubelet's memory
 * manager table).
 */
TEST(v4_data_decides)
{
	static const char v4[] =
		"{\"policyName\":\"other\",\"defaultCpuSet\":\"0\",\"checksum\":1234,"
		"\"data\":\"{\\\"policyName\\\":\\\"static\\\",\\\"defaultCpuSet\\\":\\\"1-3\\\","
		"\\\"entries\\\":{\\\"pod\\\":{\\\"container1\\\":\\\"4-6\\\",\\\"container2\\\":\\\"7-9\\\"}},"
		"\\\"podEntries\\\":{\\\"pod\\\":{\\\"cpuSet\\\":\\\"4-10\\\"}}}\",\"dataChecksum\":3994200442}";
	static const char unknown[] =
		"{\"data\":\"{\\\"unknownField\\\":\\\"value\\\",\\\"policyName\\\":\\\"none\\\","
		"\\\"defaultCpuSet\\\":\\\"4-6\\\"}\",\"dataChecksum\":3228622281}";
	struct cm_error err = { 0 };
	struct checkpoint c;

	ASSERT_EQ(0, parse_str(v4, &c, &err));
	EXPECT_EQ(CHECKPOINT_V4, (int)c.version);
	EXPECT_EQ(3994200442u, c.checksum);
	EXPECT_STREQ("static", c.policy);
	EXPECT_TRUE(cpuset_equal(&c.state.default_set, &(struct cpuset){ 0 }) ==
		    false);
	EXPECT_TRUE(entry_is(&c, "pod", "container1", "4-6"));
	EXPECT_TRUE(entry_is(&c, "pod", "container2", "7-9"));
	EXPECT_TRUE(pool_is(&c, "pod", "4-10"));
	checkpoint_free(&c);

	ASSERT_EQ(0, parse_str(unknown, &c, &err));
	EXPECT_EQ(CHECKPOINT_V4, (int)c.version);
	EXPECT_STREQ("none", c.policy);
	checkpoint_free(&c);
}

/*
 * A damaged v4 is refused with the kubelet's words, never read through
 * its inline v2 members (valid here: policy static, CPUs 0-3, checksum
 * 611748604).
 */
TEST(v4_damaged_is_refused)
{
#define INLINE "\"policyName\":\"static\",\"defaultCpuSet\":\"0-3\",\"checksum\":611748604"
	static const struct {
		const char *json;
		int ret;
		const char *msg;
	} cases[] = {
		{ "{" INLINE ",\"data\":\"{\\\"policyName\\\":\\\"static\\\",\\\"defaultCpuSet\\\":\\\"0-3\\\"}\","
		  "\"dataChecksum\":1234}", -EBADMSG,
		  "could not load v4 checkpoint: checkpoint is corrupted" },
		/* data without its checksum */
		{ "{" INLINE ",\"data\":\"{\\\"policyName\\\":\\\"static\\\",\\\"defaultCpuSet\\\":\\\"0-3\\\"}\"}",
		  -EBADMSG, "could not load v4 checkpoint: checkpoint is corrupted" },
		/* a checksum without data */
		{ "{" INLINE ",\"dataChecksum\":1234}", -EINVAL,
		  "could not load v4 checkpoint: failed to deserialize cpu manager checkpoint data: unexpected end of JSON input" },
		{ "{" INLINE ",\"data\":\"{\",\"dataChecksum\":1234}", -EINVAL,
		  "could not load v4 checkpoint: failed to deserialize cpu manager checkpoint data: unexpected end of JSON input" },
		{ "{" INLINE ",\"data\":\"[]\",\"dataChecksum\":1234}", -EINVAL,
		  "could not load v4 checkpoint: failed to deserialize cpu manager checkpoint data: json: cannot unmarshal array into Go value of type state.CPUManagerCheckpointData" },
		/*
		 * a bad pool ends the data's decoding (PodEntry.UnmarshalJSON);
		 * the cpulist's own text is cpumgr's (cpuset_parse_kube())
		 */
		{ "{" INLINE ",\"data\":\"{\\\"policyName\\\":\\\"static\\\",\\\"defaultCpuSet\\\":\\\"1-3\\\","
		  "\\\"podEntries\\\":{\\\"pod\\\":{\\\"cpuSet\\\":\\\"4-x\\\"}}}\",\"dataChecksum\":739625013}",
		  -EINVAL,
		  "could not load v4 checkpoint: failed to deserialize cpu manager checkpoint data: failed to parse cpuset: invalid cpulist \"4-x\": unexpected character" },
		/* a type error outside data still leaves the data read: v4 */
		{ "{\"policyName\":7,\"data\":\"{}\",\"dataChecksum\":1234}", -EINVAL,
		  "could not load v4 checkpoint: failed to deserialize cpu manager checkpoint: json: cannot unmarshal number into Go struct field CPUManagerCheckpoint.policyName of type string" },
		/* no v4 at all, nor v3 nor v2: Go's syntax error, once */
		{ "{", -EINVAL, "unexpected end of JSON input" },
	};
#undef INLINE
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct checkpoint c;
		int ret = parse_str(cases[i].json, &c, &err);

		CHECK(ret == cases[i].ret, "%s: %d %s", cases[i].json, ret,
		      cm_error_msg(&err));
		CHECK(!strcmp(cm_error_msg(&err), cases[i].msg), "%s: \"%s\"",
		      cases[i].json, cm_error_msg(&err));
		CHECK(!c.policy && !c.state.nr && !c.state.nr_pods,
		      "%s: state left behind", cases[i].json);
		cm_error_clear(&err);
	}
}

/* No data and no data checksum: not a v4, read as v2 like the kubelet. */
TEST(v4_empty_data_falls_back)
{
	static const char v2[] =
		"{\"policyName\":\"static\",\"defaultCpuSet\":\"0-3\",\"checksum\":611748604,"
		"\"data\":\"\",\"dataChecksum\":0}";
	struct cm_error err = { 0 };
	struct checkpoint c;

	ASSERT_EQ(0, parse_str(v2, &c, &err));
	EXPECT_EQ(CHECKPOINT_V2, (int)c.version);
	EXPECT_FALSE(c.unverified);
	checkpoint_free(&c);
}

static void sample_state(struct cpu_assignments *s)
{
	struct cpuset a = set_of("1-2"), b = set_of("3"), p = set_of("1-4"),
		      none = set_of("");

	assignments_init(s);
	s->default_set = set_of("0,5-7");
	if (assignments_set(s, "pod-a", "side", &b) ||
	    assignments_set(s, "pod-a", "app", &a) ||
	    assignments_set_pool(s, "pod-b", &none) ||
	    assignments_set_pool(s, "pod-a", &p) ||
	    assignments_set_baseline(s, "pod-a", "app", "1-2", 3))
		abort();
}

/*
 * What each version writes: v2 leaves the pod level out, v3 adds the
 * pools under its checksum, v4 carries everything in data; the inline
 * members are v2's, with v2's checksum.  Each reads back to itself.
 */
TEST(format_versions_bytes)
{
	static const char want_v2[] =
		"{\"policyName\":\"static\",\"defaultCpuSet\":\"0,5-7\",\"entries\":{\"pod-a\":"
		"{\"app\":\"1-2\",\"side\":\"3\"}},\"checksum\":2090750419}";
	static const char want_v3[] =
		"{\"policyName\":\"static\",\"defaultCpuSet\":\"0,5-7\",\"entries\":{\"pod-a\":"
		"{\"app\":\"1-2\",\"side\":\"3\"}},\"podEntries\":{\"pod-a\":{\"cpuSet\":\"1-4\"},"
		"\"pod-b\":{}},\"checksum\":3769907040}";
	static const char want_v4[] =
		"{\"policyName\":\"static\",\"defaultCpuSet\":\"0,5-7\",\"entries\":{\"pod-a\":"
		"{\"app\":\"1-2\",\"side\":\"3\"}},\"checksum\":2090750419,\"data\":"
		"\"{\\\"policyName\\\":\\\"static\\\",\\\"defaultCpuSet\\\":\\\"0,5-7\\\",\\\"entries\\\":"
		"{\\\"pod-a\\\":{\\\"app\\\":\\\"1-2\\\",\\\"side\\\":\\\"3\\\"}},\\\"podEntries\\\":{\\\"pod-a\\\":"
		"{\\\"cpuSet\\\":\\\"1-4\\\"},\\\"pod-b\\\":{}},\\\"baselines\\\":{\\\"pod-a\\\":{\\\"app\\\":"
		"{\\\"baseline\\\":\\\"1-2\\\"}}}}\",\"dataChecksum\":3877077497}";
	static const char *const want[] = { NULL, NULL, want_v2, want_v3, want_v4 };
	struct cm_error err = { 0 };
	struct cpu_assignments s;

	sample_state(&s);
	for (int v = CHECKPOINT_V2; v <= CHECKPOINT_V4; v++) {
		struct checkpoint c;
		size_t len;
		char *got = checkpoint_format_version(v, "static", &s, &len);

		ASSERT_NE(NULL, got);
		EXPECT_EQ(strlen(want[v]), len);
		EXPECT_STREQ(want[v], got);
		ASSERT_EQ(0, checkpoint_parse(got, len, NULL, &c, &err));
		EXPECT_EQ(v, (int)c.version);
		EXPECT_EQ(v == CHECKPOINT_V2 ? 0u : 2u, c.state.nr_pods);
		EXPECT_EQ(v == CHECKPOINT_V4 ? 1u : 0u, c.state.nr_baselines);
		if (v == CHECKPOINT_V4)
			EXPECT_STREQ("1-2", assignments_get_baseline(&c.state,
								     "pod-a", "app"));
		free(got);
		got = checkpoint_format_version(v, c.policy, &c.state, &len);
		ASSERT_NE(NULL, got);
		EXPECT_STREQ(want[v], got);
		free(got);
		checkpoint_free(&c);
	}
	EXPECT_EQ(NULL, checkpoint_format_version(CHECKPOINT_V1, "static", &s,
						  NULL));
	assignments_free(&s);
}

/*
 * Baselines are the kubelet's strings: kept as written, even one its
 * gate-off reading never parses; and a copy of the state is deep.
 */
TEST(baselines_kept_verbatim)
{
	struct cpu_assignments s, copy;
	struct cm_error err = { 0 };
	struct checkpoint c;
	size_t len;
	char *text;

	assignments_init(&s);
	s.default_set = set_of("0-3");
	ASSERT_EQ(0, assignments_set_baseline(&s, "p", "c", "3,1-2", 5));
	text = checkpoint_format_version(CHECKPOINT_V4, "static", &s, &len);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, checkpoint_parse(text, len, NULL, &c, &err));
	EXPECT_STREQ("3,1-2", assignments_get_baseline(&c.state, "p", "c"));
	checkpoint_free(&c);
	free(text);

	assignments_init(&copy);
	ASSERT_EQ(0, assignments_copy(&copy, &s));
	assignments_delete_baseline(&s, "p", "c");
	EXPECT_EQ(NULL, assignments_get_baseline(&s, "p", "c"));
	EXPECT_STREQ("3,1-2", assignments_get_baseline(&copy, "p", "c"));
	assignments_free(&copy);
	assignments_free(&s);
}

/* guard mode's question: what the kubelet gave a container */
TEST(what_the_checkpoint_decided)
{
	struct cm_error err = { 0 };
	struct checkpoint c;
	size_t len;
	char *buf = checkpoint_fixture("kubelet-v3-table-static.json", &len);

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, checkpoint_parse(buf, len, NULL, &c, &err));
	EXPECT_EQ(CHECKPOINT_CONTAINER,
		  (int)checkpoint_decided(&c, "pod1", "container1"));
	/* pod2 has a pool and no entry: its containers share the pool */
	EXPECT_EQ(CHECKPOINT_POD_POOL,
		  (int)checkpoint_decided(&c, "pod2", "app"));
	EXPECT_EQ(CHECKPOINT_SHARED,
		  (int)checkpoint_decided(&c, "pod3", "app"));
	checkpoint_free(&c);
	free(buf);
}

TEST(version_names)
{
	struct cm_error err = { 0 };
	enum checkpoint_version v;

	ASSERT_EQ(0, checkpoint_version_parse("v4", &v, &err));
	EXPECT_EQ(CHECKPOINT_V4, (int)v);
	ASSERT_EQ(0, checkpoint_version_parse("3", &v, &err));
	EXPECT_EQ(CHECKPOINT_V3, (int)v);
	EXPECT_NE(0, checkpoint_version_parse("v1", &v, &err));
	EXPECT_STREQ("unknown checkpoint version \"v1\": v2, v3 or v4",
		     cm_error_msg(&err));
	cm_error_clear(&err);
	EXPECT_STREQ("v4", checkpoint_version_name(CHECKPOINT_V4));
}

TEST_HARNESS_MAIN
