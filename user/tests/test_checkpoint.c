// SPDX-License-Identifier: GPL-2.0
/*
 * The kubelet's cpu_manager_state checkpoint: bytes, checksum, Go's
 * decoding rules, v1 migration, and the store's atomic writes and lock.
 * The checksum vectors come from the kubelet's own tests
 * (pkg/kubelet/cm/cpumanager/state/state_checkpoint_test.go, releases
 * 1.18 to 1.35) and from checkpoints real kubelets wrote
 * (user/tests/data/checkpoint/README).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "checkpoint.h"
#include "gojson.h"
#include "json_util.h"
#include "test_util.h"

static struct cpuset set_of(const char *list)
{
	struct cm_error err = { 0 };
	struct cpuset s;

	if (cpuset_parse(&s, list, &err))
		abort();
	return s;
}

/* A state from "default" and "pod/container=cpus" triples. */
static void make_state(struct cpu_assignments *s, const char *dflt,
		       const char *const *entries)
{
	assignments_init(s);
	s->default_set = set_of(dflt);
	for (; entries && *entries; entries += 3) {
		struct cpuset c = set_of(entries[2]);

		if (assignments_set(s, entries[0], entries[1], &c))
			abort();
	}
}

static int parse_str(const char *json, struct checkpoint *c,
		     struct cm_error *err)
{
	return checkpoint_parse(json, strlen(json), NULL, c, err);
}

TEST(checksums_of_kubelet_test_states)
{
	static const char *const two[] = {
		"pod", "container1", "4-6", "pod", "container2", "1-3", NULL,
	};
	static const char *const asd_free[] = {
		"pod", "container1", "4-6", NULL,
	};
	static const struct {
		const char *policy, *dflt;
		const char *const *entries;
		uint32_t sum;
	} cases[] = {
		/* "Restore default cpu set" */
		{ "none", "4-6", NULL, 354655845u },
		/* "Restore valid checkpoint" */
		{ "none", "1-3", two, 3610638499u },
		/* "Restore checkpoint with invalid policy name" */
		{ "other", "1-3", NULL, 1394507217u },
		/* besthub.dev: a real kubelet, 8 CPUs, no pods */
		{ "static", "0-7", NULL, 14413152u },
	};
	struct cpu_assignments s;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		make_state(&s, cases[i].dflt, cases[i].entries);
		EXPECT_EQ(cases[i].sum, checkpoint_checksum(cases[i].policy, &s));
		assignments_free(&s);
	}
	/* one container less: another sum */
	make_state(&s, "1-3", asd_free);
	EXPECT_NE(3610638499u, checkpoint_checksum("none", &s));
	assignments_free(&s);
}

TEST(format_is_byte_identical_to_the_kubelet)
{
	static const char *const e[] = {
		"235148fe-393f-47a8-a17d-bd55bc1a836b", "cgroup1-0", "1,13", NULL,
	};
	struct cpu_assignments s;
	size_t len, flen;
	char *got, *want = checkpoint_fixture("kubelet-v2-static.json", &flen);

	ASSERT_NE(NULL, want);
	make_state(&s, "0,2-12,14-23", e);
	got = checkpoint_format("static", &s, &len);
	ASSERT_NE(NULL, got);
	EXPECT_EQ(flen, len);
	EXPECT_STREQ(want, got);
	free(got);
	assignments_free(&s);
	free(want);

	/* no entries: the member is left out (omitempty), no newline */
	make_state(&s, "", NULL);
	got = checkpoint_format("none", &s, &len);
	EXPECT_STREQ("{\"policyName\":\"none\",\"defaultCpuSet\":\"\",\"checksum\":1353318690}",
		     got);
	free(got);
	assignments_free(&s);
}

TEST(format_sorts_and_escapes_like_go)
{
	static const char *const e[] = {
		"b", "z", "1", "a<&>", "y", "2", "b", "x", "", NULL,
	};
	struct cpu_assignments s;
	char *got, want[256];

	make_state(&s, "0-3,5", e);
	got = checkpoint_format("st\"at\\ic\n", &s, NULL);
	/* map keys sorted byte-wise, HTML characters escaped, \n short */
	snprintf(want, sizeof(want),
		 "{\"policyName\":\"st\\\"at\\\\ic\\n\",\"defaultCpuSet\":\"0-3,5\","
		 "\"entries\":{\"a\\u003c\\u0026\\u003e\":{\"y\":\"2\"},"
		 "\"b\":{\"x\":\"\",\"z\":\"1\"}},\"checksum\":%u}",
		 checkpoint_checksum("st\"at\\ic\n", &s));
	EXPECT_STREQ(want, got);
	free(got);
	assignments_free(&s);
}

TEST(real_kubelet_checkpoints_import)
{
	static const struct {
		const char *file, *policy, *dflt;
		unsigned int nr;
		enum checkpoint_version version;
	} cases[] = {
		{ "kubelet-v2-static.json", "static", "0,2-12,14-23", 1,
		  CHECKPOINT_V2 },
		{ "kubelet-v1-none.json", "none", "", 0, CHECKPOINT_V1 },
		{ "kubelet-256cpu-jq.json", "static", "0,50-127,178-255", 4,
		  CHECKPOINT_V2 },
		{ "kubelet-8cpu-empty.json", "static", "0-7", 0, CHECKPOINT_V2 },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct checkpoint c;
		struct cpuset want = set_of(cases[i].dflt);
		size_t len;
		int ret;
		char *buf = checkpoint_fixture(cases[i].file, &len);

		ASSERT_NE(NULL, buf);
		ret = checkpoint_parse(buf, len, NULL, &c, &err);
		CHECK(!ret, "%s: %s", cases[i].file, cm_error_msg(&err));
		EXPECT_STREQ(cases[i].policy, c.policy);
		EXPECT_TRUE(cpuset_equal(&want, &c.state.default_set));
		EXPECT_EQ(cases[i].nr, c.state.nr);
		EXPECT_EQ((int)cases[i].version, (int)c.version);
		EXPECT_FALSE(c.unverified);
		checkpoint_free(&c);
		free(buf);
	}
	cm_error_clear(&err);
}

TEST(reformatted_import_writes_back_the_same_checksum)
{
	struct cm_error err = { 0 };
	struct checkpoint c;
	size_t len;
	char *buf = checkpoint_fixture("kubelet-256cpu-jq.json", &len), *out;
	const struct cpuset *g;
	struct cpuset want = set_of("2-49,130-177");

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, checkpoint_parse(buf, len, NULL, &c, &err));
	g = assignments_get(&c.state, "b200f08b-399a-4079-bfce-e415cb5344b8",
			    "gengwg-test");
	ASSERT_NE(NULL, g);
	EXPECT_TRUE(cpuset_equal(&want, g));
	out = checkpoint_format(c.policy, &c.state, NULL);
	EXPECT_NE(NULL, strstr(out, "\"checksum\":1279870076}"));
	free(out);
	checkpoint_free(&c);
	free(buf);
}

/* TestCheckpointStateRestore, with each case's outcome at our layer */
TEST(kubelet_restore_cases)
{
	static const struct {
		const char *name, *json, *policy, *msg;
		int ret;
	} cases[] = {
		{ "valid", "{\"policyName\": \"none\", \"defaultCPUSet\": \"1-3\", "
		  "\"entries\": {\"pod\": {\"container1\": \"4-6\", "
		  "\"container2\": \"1-3\"}}, \"checksum\": 3610638499}",
		  "none", NULL, 0 },
		{ "invalid checksum", "{\"policyName\": \"none\", \"defaultCPUSet\": "
		  "\"4-6\", \"entries\": {}, \"checksum\": 1337}",
		  "none", "checkpoint is corrupted", -EBADMSG },
		{ "invalid JSON", "{", "none", "unexpected end of JSON input",
		  -EINVAL },
		{ "invalid policy name", "{\"policyName\": \"other\", "
		  "\"defaultCPUSet\": \"1-3\", \"entries\": {}, "
		  "\"checksum\": 1394507217}", "none",
		  "configured policy \"none\" differs from state checkpoint policy \"other\"",
		  0 },
		{ "unparsable default", "{\"policyName\": \"none\", "
		  "\"defaultCPUSet\": \"1.3\", \"entries\": {}, "
		  "\"checksum\": 3021697696}", "none",
		  "could not parse default cpu set \"1.3\": ", -EINVAL },
		{ "unparsable entry", "{\"policyName\": \"none\", "
		  "\"defaultCPUSet\": \"1-3\", \"entries\": {\"pod\": "
		  "{\"container1\": \"4-6\", \"container2\": \"asd\"}}, "
		  "\"checksum\": 962272150}", "none",
		  "could not parse cpuset \"asd\" for container \"container2\" in pod \"pod\": ",
		  -EINVAL },
		{ "v1 checksum", "{\"policyName\": \"none\", \"defaultCPUSet\": "
		  "\"1-3\", \"checksum\": 1694838852}", "none", NULL, 0 },
		{ "v1 entries without a container map", "{\"policyName\": \"none\", "
		  "\"defaultCPUSet\": \"1-3\", \"entries\": {\"containerID1\": "
		  "\"4-6\", \"containerID2\": \"1-3\"}, \"checksum\": 3680390589}",
		  "none",
		  "failed to migrate checkpoint from v1 to v2: containerID 'containerID1' not found in initial containers list",
		  -EINVAL },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct checkpoint c;
		int ret = parse_str(cases[i].json, &c, &err);

		CHECK(ret == cases[i].ret, "%s: %d %s", cases[i].name, ret,
		      cm_error_msg(&err));
		if (!ret)
			ret = checkpoint_check_policy(&c, cases[i].policy, &err);
		if (cases[i].msg)
			CHECK(!strncmp(cm_error_msg(&err), cases[i].msg,
				       strlen(cases[i].msg)),
			      "%s: \"%s\"", cases[i].name, cm_error_msg(&err));
		else
			CHECK(!ret, "%s: %s", cases[i].name, cm_error_msg(&err));
		checkpoint_free(&c);
		cm_error_clear(&err);
	}
}

static int resolve_ids(void *ctx, const char *id, char *uid, char *name)
{
	(void)ctx;
	if (strncmp(id, "containerID", 11))
		return -1;
	strcpy(uid, "pod");
	sprintf(name, "container%s", id + 11);
	return 0;
}

TEST(v1_migration)
{
	/* "Restore checkpoint with migration" and its 1.35 twin */
	static const char *const v1[] = {
		"{\"policyName\": \"none\", \"defaultCPUSet\": \"1-3\", \"entries\": "
		"{\"containerID1\": \"4-6\", \"containerID2\": \"1-3\"}, "
		"\"checksum\": 3680390589}",
		"{\"policyName\": \"static\", \"defaultCPUSet\": \"7-9\", \"entries\": "
		"{\"containerID1\": \"4-6\", \"containerID2\": \"1-3\"}, "
		"\"checksum\": 2026311253}",
	};
	struct checkpoint_opts o = { .resolve = resolve_ids };
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(v1); i++) {
		struct cpuset a = set_of("4-6"), b = set_of("1-3");
		struct checkpoint c;

		ASSERT_EQ(0, checkpoint_parse(v1[i], strlen(v1[i]), &o, &c, &err));
		EXPECT_EQ((int)CHECKPOINT_V1, (int)c.version);
		ASSERT_EQ(2u, c.state.nr);
		EXPECT_TRUE(cpuset_equal(&a, assignments_get(&c.state, "pod",
							     "container1")));
		EXPECT_TRUE(cpuset_equal(&b, assignments_get(&c.state, "pod",
							     "container2")));
		checkpoint_free(&c);
	}
	cm_error_clear(&err);
}

/*
 * Every flipped byte fails but those of the checksum's key: that file has
 * no checksum, which the kubelet takes unverified (the old file backend),
 * and so do we, saying so.
 */
TEST(every_flipped_byte_fails_or_leaves_no_checksum)
{
	struct cm_error err = { 0 };
	struct checkpoint c;
	size_t len, fails = 0, key, unverified = 0;
	char *buf = checkpoint_fixture("kubelet-v2-static.json", &len);

	ASSERT_NE(NULL, buf);
	ASSERT_NE(NULL, strstr(buf, "\"checksum\""));
	key = strstr(buf, "\"checksum\"") - buf + 1;
	for (size_t i = 0; i < len; i++) {
		buf[i] ^= 0x01;
		if (checkpoint_parse(buf, len, NULL, &c, &err))
			fails++;
		else if (i >= key && i < key + 8 && c.unverified)
			unverified++;
		else
			TH_LOG("byte %zu flipped still verifies", i);
		checkpoint_free(&c);
		buf[i] ^= 0x01;
	}
	EXPECT_EQ(8u, unverified);
	EXPECT_EQ(len - 8, fails);
	/* a checksum digit: reported as the kubelet reports it */
	buf[len - 2] ^= 0x01;
	EXPECT_EQ(-EBADMSG, checkpoint_parse(buf, len, NULL, &c, &err));
	EXPECT_STREQ("checkpoint is corrupted", cm_error_msg(&err));
	free(buf);
	cm_error_clear(&err);
}

TEST(go_decoding_rules)
{
	static const struct {
		const char *json;
		int ret;
		const char *msg;	/* error, or the policy read */
	} cases[] = {
		/* case-insensitive field names (long s and Kelvin fold too) */
		{ "{\"POLICYNAME\":\"static\",\"defaultcpuset\":\"0-7\",\"checksum\":14413152}",
		  0, "static" },
		{ "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-7\",\"check\xc5\xbfum\":14413152}",
		  0, "static" },
		/* unknown members are ignored, the last duplicate wins */
		{ "{\"x\":[1,{\"y\":null}],\"policyName\":\"none\",\"policyName\":\"static\","
		  "\"defaultCpuSet\":\"0-7\",\"checksum\":14413152}", 0, "static" },
		/* null leaves a string alone */
		{ "{\"policyName\":\"static\",\"policyName\":null,\"defaultCpuSet\":\"0-7\","
		  "\"checksum\":14413152}", 0, "static" },
		/* no checksum at all: the kubelet takes it unverified */
		{ "{\"policyName\":\"anything\"}", 0, "anything" },
		{ "null", 0, "" },
		/* types, in the 1.36+ kubelet's words: v2's error is the one reported */
		{ "{\"policyName\":7}", -EINVAL,
		  "json: cannot unmarshal number into Go struct field CPUManagerCheckpointV2.policyName of type string" },
		{ "{\"checksum\":\"1\"}", -EINVAL,
		  "json: cannot unmarshal string into Go struct field CPUManagerCheckpointV2.checksum of type checksum.Checksum" },
		{ "{\"checksum\":1.5}", -EINVAL,
		  "json: cannot unmarshal number 1.5 into Go struct field CPUManagerCheckpointV2.checksum of type checksum.Checksum" },
		{ "{\"checksum\":-1}", -EINVAL,
		  "json: cannot unmarshal number -1 into Go struct field CPUManagerCheckpointV2.checksum of type checksum.Checksum" },
		{ "{\"checksum\":18446744073709551616}", -EINVAL,
		  "json: cannot unmarshal number 18446744073709551616 into Go struct field CPUManagerCheckpointV2.checksum of type checksum.Checksum" },
		{ "{\"entries\":[]}", -EINVAL,
		  "json: cannot unmarshal array into Go struct field CPUManagerCheckpointV2.entries of type map[string]map[string]string" },
		{ "{\"entries\":{\"p\":{\"c\":{}}}}", -EINVAL,
		  "json: cannot unmarshal object into Go struct field CPUManagerCheckpointV2.entries of type string" },
		{ "[]", -EINVAL,
		  "json: cannot unmarshal array into Go value of type state.CPUManagerCheckpointV2" },
		/* syntax, in Go's words */
		{ "", -EINVAL, "unexpected end of JSON input" },
		{ "{\"policyName\":\"none\"} x", -EINVAL,
		  "invalid character 'x' after top-level value" },
		{ "{\"a\" 1}", -EINVAL, "invalid character '1' after object key" },
		{ "{\"a\":1 \"b\"}", -EINVAL,
		  "invalid character '\"' after object key:value pair" },
		{ "{,}", -EINVAL,
		  "invalid character ',' looking for beginning of object key string" },
		{ "[1,]", -EINVAL,
		  "invalid character ']' looking for beginning of value" },
		{ "[1 2]", -EINVAL, "invalid character '2' after array element" },
		{ "01", -EINVAL, "invalid character '1' after top-level value" },
		{ "-x", -EINVAL, "invalid character 'x' in numeric literal" },
		{ "1.e3", -EINVAL,
		  "invalid character 'e' after decimal point in numeric literal" },
		{ "1e+", -EINVAL, "unexpected end of JSON input" },
		{ "1ex", -EINVAL,
		  "invalid character 'x' in exponent of numeric literal" },
		{ "trux", -EINVAL,
		  "invalid character 'x' in literal true (expecting 'e')" },
		{ "nul", -EINVAL, "unexpected end of JSON input" },
		{ "\"a\x01\"", -EINVAL,
		  "invalid character '\\x01' in string literal" },
		{ "\"\\q\"", -EINVAL,
		  "invalid character 'q' in string escape code" },
		{ "\"\\u12g4\"", -EINVAL,
		  "invalid character 'g' in \\u hexadecimal character escape" },
		{ "\xc3\xa9", -EINVAL,
		  "invalid character '\xc3\x83' looking for beginning of value" },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct checkpoint c;
		int ret = parse_str(cases[i].json, &c, &err);

		CHECK(ret == cases[i].ret, "%s: %d %s", cases[i].json, ret,
		      cm_error_msg(&err));
		if (ret)
			CHECK(!strcmp(cm_error_msg(&err), cases[i].msg),
			      "%s: \"%s\"", cases[i].json, cm_error_msg(&err));
		else
			CHECK(!strcmp(c.policy, cases[i].msg), "%s: policy \"%s\"",
			      cases[i].json, c.policy);
		checkpoint_free(&c);
		cm_error_clear(&err);
	}
}

/*
 * The kubelet's old file backend wrote no checksum: VerifyChecksum()
 * takes 0 or a missing one unverified, v2 and v1 alike
 * (pkg/kubelet/cm/cpumanager/state/checkpoint.go), and a wrong one is
 * corrupt.  The files are the kubelet's own restore cases ("Restore
 * valid checkpoint", "Restore checkpoint with migration") with their
 * checksum set to 0, left out, or changed.
 */
#define KUBELET_V2_CASE(sum) "{\"policyName\": \"none\", \"defaultCPUSet\": \"1-3\", " \
	"\"entries\": {\"pod\": {\"container1\": \"4-6\", \"container2\": \"1-3\"}}" sum "}"
#define KUBELET_V1_CASE(sum) "{\"policyName\": \"static\", \"defaultCPUSet\": \"7-9\", " \
	"\"entries\": {\"containerID1\": \"4-6\", \"containerID2\": \"1-3\"}" sum "}"

static int resolve_ids(void *ctx, const char *id, char *uid, char *name);

TEST(legacy_checksum_zero_or_missing_is_taken_as_the_kubelet_takes_it)
{
	static const struct {
		const char *json;
		int ret;
		enum checkpoint_version version;
	} cases[] = {
		{ KUBELET_V2_CASE(", \"checksum\": 3610638499"), 0, CHECKPOINT_V2 },
		{ KUBELET_V2_CASE(", \"checksum\": 0"), 0, CHECKPOINT_V2 },
		{ KUBELET_V2_CASE(""), 0, CHECKPOINT_V2 },
		{ KUBELET_V2_CASE(", \"checksum\": 1337"), -EBADMSG, 0 },
		{ KUBELET_V1_CASE(", \"checksum\": 2026311253"), 0, CHECKPOINT_V1 },
		{ KUBELET_V1_CASE(", \"checksum\": 0"), 0, CHECKPOINT_V1 },
		{ KUBELET_V1_CASE(""), 0, CHECKPOINT_V1 },
		{ KUBELET_V1_CASE(", \"checksum\": 1337"), -EBADMSG, 0 },
		{ "{\"policyName\":\"none\",\"checksum\":0}", 0, CHECKPOINT_V2 },
		{ "{\"policyName\":\"none\"}", 0, CHECKPOINT_V2 },
		/* a flipped letter in the key: the kubelet would not notice */
		{ "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-7\",\"chec{sum\":14413152}",
		  0, CHECKPOINT_V2 },
	};
	struct checkpoint_opts o = { .resolve = resolve_ids };
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *j = cases[i].json;
		bool unverified = !strstr(j, "\"checksum\"") ||
				  strstr(j, "\"checksum\": 0") ||
				  strstr(j, "\"checksum\":0");
		struct checkpoint c;
		int ret = checkpoint_parse(j, strlen(j), &o, &c, &err);

		CHECK(ret == cases[i].ret, "%s: %d %s", j, ret, cm_error_msg(&err));
		if (ret) {
			CHECK(!strcmp(cm_error_msg(&err), CHECKPOINT_ERR_CORRUPT),
			      "%s: %s", j, cm_error_msg(&err));
		} else {
			CHECK(c.version == cases[i].version && c.unverified == unverified,
			      "%s: v%d unverified %d", j, c.version, c.unverified);
			if (strstr(j, "container"))
				CHECK(c.state.nr == 2 &&
				      assignments_get(&c.state, "pod", "container2"),
				      "%s: %u assignments", j, c.state.nr);
		}
		checkpoint_free(&c);
		cm_error_clear(&err);
	}
}

TEST(nil_maps_hash_as_nil)
{
	struct cm_error err = { 0 };
	struct checkpoint c;
	struct cpu_assignments s;
	char json[256];
	uint32_t sum;

	/*
	 * "entries": null makes Go's map nil, which spew prints "<nil>":
	 * the sum differs from an empty map's, and must verify.
	 */
	make_state(&s, "0-7", NULL);
	sum = checkpoint_checksum("static", &s);
	assignments_free(&s);
	snprintf(json, sizeof(json),
		 "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-7\",\"entries\":null,\"checksum\":%u}",
		 sum);
	EXPECT_EQ(-EBADMSG, parse_str(json, &c, &err));
	/* FNV-1a over the rendering with "<nil>", computed by hand */
	EXPECT_EQ(0, parse_str("{\"policyName\":\"static\",\"defaultCpuSet\":\"0-7\","
			       "\"entries\":null,\"checksum\":1897607687}",
			       &c, &err));
	checkpoint_free(&c);
	cm_error_clear(&err);
}

TEST(decoded_strings_are_what_go_hashes)
{
	struct cm_error err = { 0 };
	struct checkpoint c;
	struct cpu_assignments s;
	char json[256];

	/* escapes decode before hashing: "\u0073tatic" is "static" */
	ASSERT_EQ(0, parse_str("{\"policyName\":\"\\u0073tatic\",\"defaultCpuSet\":"
			       "\"0-7\",\"checksum\":14413152}", &c, &err));
	EXPECT_STREQ("static", c.policy);
	checkpoint_free(&c);

	/* invalid UTF-8 and lone surrogates become U+FFFD, as in Go */
	make_state(&s, "0-7", NULL);
	snprintf(json, sizeof(json),
		 "{\"policyName\":\"x\\ud800\xff\",\"defaultCpuSet\":\"0-7\",\"checksum\":%u}",
		 checkpoint_checksum("x\xef\xbf\xbd\xef\xbf\xbd", &s));
	EXPECT_EQ(0, parse_str(json, &c, &err));
	EXPECT_STREQ("x\xef\xbf\xbd\xef\xbf\xbd", c.policy);
	checkpoint_free(&c);
	assignments_free(&s);
	cm_error_clear(&err);
}

TEST(strict_cpu_lists_and_names)
{
	static const char *const bad[] = {
		/* a kernel stride and a newline: k8s cpuset.Parse refuses both */
		"{\"defaultCpuSet\":\"0-7:2/4\"}",
		"{\"defaultCpuSet\":\"0-7\\n\"}",
		"{\"defaultCpuSet\":\"3-1\"}",
		"{\"entries\":{\"p\":{\"c\":\"x\"}}}",
		/* names the state cannot hold */
		"{\"entries\":{\"p\":{\"c\\u0000\":\"1\"}}}",
		"{\"entries\":{\"01234567890123456789012345678901234567890123456789"
		"0123456789012345\":{\"c\":\"1\"}}}",
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct checkpoint c;
		int ret = parse_str(bad[i], &c, &err);

		CHECK(ret == -EINVAL, "%s accepted", bad[i]);
		checkpoint_free(&c);
	}
	cm_error_clear(&err);
}

TEST(round_trip)
{
	static const char *const e[] = {
		"0b1e5a44-5f3c-4c55-9a0e-000000000004", "nginx", "2-3",
		"0b1e5a44-5f3c-4c55-9a0e-000000000007", "app", "4-5",
		"0b1e5a44-5f3c-4c55-9a0e-000000000007", "setup", "4-7",
		"zz", "empty", "", NULL,
	};
	struct cm_error err = { 0 };
	struct checkpoint c;
	struct cpu_assignments s;
	size_t len;
	char *out, *again;

	make_state(&s, "0-1,8-4095", e);
	out = checkpoint_format("static", &s, &len);
	ASSERT_EQ(0, checkpoint_parse(out, len, NULL, &c, &err));
	EXPECT_STREQ("static", c.policy);
	EXPECT_TRUE(cpuset_equal(&s.default_set, &c.state.default_set));
	ASSERT_EQ(s.nr, c.state.nr);
	for (unsigned int i = 0; i < s.nr; i++) {
		EXPECT_STREQ(s.entries[i].pod_uid, c.state.entries[i].pod_uid);
		EXPECT_STREQ(s.entries[i].container, c.state.entries[i].container);
		EXPECT_TRUE(cpuset_equal(&s.entries[i].cpus,
					 &c.state.entries[i].cpus));
	}
	again = checkpoint_format(c.policy, &c.state, NULL);
	EXPECT_STREQ(out, again);
	free(again);
	free(out);
	checkpoint_free(&c);
	assignments_free(&s);
}

/* ---- the store ---- */

static char *temp_dir(void)
{
	char *d = strdup("/tmp/cpumgr-ckpt-XXXXXX");

	if (!d || !mkdtemp(d))
		abort();
	return d;
}

/* Files in dir (dot files included), for leak checks. */
static int count_files(const char *dir, const char *prefix)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    !strncmp(de->d_name, prefix, strlen(prefix)))
			n++;
	closedir(d);
	return n;
}

static void remove_tree(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

TEST(store_write_read_and_no_leftovers)
{
	static const char *const e[] = { "pod", "c", "2-3", NULL };
	struct cm_error err = { 0 };
	struct checkpoint_store st;
	struct checkpoint c;
	struct cpu_assignments s;
	struct stat sb;
	char *dir = temp_dir(), path[512], *buf, *want;
	size_t len, flen;

	snprintf(path, sizeof(path), "%s/a/b", dir);
	ASSERT_EQ(0, checkpoint_store_open(&st, path, NULL, true, &err));
	EXPECT_EQ(-ENOENT, checkpoint_store_load(&st, NULL, &c, &err));
	EXPECT_STREQ("checkpoint is not found", cm_error_msg(&err));

	make_state(&s, "0-1,4-7", e);
	EXPECT_EQ(-ENOLCK, checkpoint_store_save(&st, "static", &s, 0, &err));
	ASSERT_EQ(0, checkpoint_store_lock(&st, 0, &err));
	ASSERT_EQ(0, checkpoint_store_save(&st, "static", &s, 0, &err));
	ASSERT_EQ(0, checkpoint_store_save(&st, "static", &s, 0, &err));
	ASSERT_EQ(0, checkpoint_store_load(&st, NULL, &c, &err));
	EXPECT_EQ(1u, c.state.nr);
	checkpoint_free(&c);

	/* the file holds exactly checkpoint_format()'s bytes, mode 0600 */
	ASSERT_EQ(0, checkpoint_store_read(&st, &buf, &len, &err));
	want = checkpoint_format("static", &s, &flen);
	EXPECT_EQ(flen, len);
	EXPECT_STREQ(want, buf);
	free(want);
	free(buf);
	snprintf(path, sizeof(path), "%s/a/b/" CHECKPOINT_FILE, dir);
	ASSERT_EQ(0, stat(path, &sb));
	EXPECT_EQ(0600, (int)(sb.st_mode & 0777));
	snprintf(path, sizeof(path), "%s/a/b", dir);
	/* only the checkpoint and the lock file: no temp file left */
	EXPECT_EQ(0, count_files(path, ".cpu_manager_state.tmp."));
	EXPECT_EQ(2, count_files(path, ""));

	checkpoint_store_close(&st);
	assignments_free(&s);
	remove_tree(dir);
	free(dir);
	cm_error_clear(&err);
}

TEST(store_writer_killed_before_rename)
{
	struct cm_error err = { 0 };
	struct checkpoint_store st, st2;
	struct checkpoint c;
	struct cpu_assignments s;
	char *dir = temp_dir(), *tmp;
	const char *junk = "{\"policyName\":\"half";

	make_state(&s, "0-3", NULL);
	ASSERT_EQ(0, checkpoint_store_open(&st, dir, NULL, false, &err));
	ASSERT_EQ(0, checkpoint_store_lock(&st, 0, &err));
	ASSERT_EQ(0, checkpoint_store_save(&st, "none", &s, 0, &err));
	/* the next write is staged, then the writer "dies" */
	ASSERT_EQ(0, checkpoint_store_stage(&st, junk, strlen(junk), &tmp, &err));
	EXPECT_EQ(0, strncmp(tmp, ".cpu_manager_state.tmp.", 23));
	EXPECT_EQ(1, count_files(dir, ".cpu_manager_state.tmp."));
	free(tmp);
	checkpoint_store_close(&st);

	/* the old checkpoint is intact; the next writer cleans up */
	ASSERT_EQ(0, checkpoint_store_open(&st2, dir, NULL, false, &err));
	ASSERT_EQ(0, checkpoint_store_load(&st2, NULL, &c, &err));
	EXPECT_STREQ("none", c.policy);
	checkpoint_free(&c);
	ASSERT_EQ(0, checkpoint_store_lock(&st2, 0, &err));
	EXPECT_EQ(1u, st2.stale_removed);
	EXPECT_EQ(0, count_files(dir, ".cpu_manager_state.tmp."));

	/* stage + abort leaves nothing either */
	ASSERT_EQ(0, checkpoint_store_stage(&st2, junk, strlen(junk), &tmp, &err));
	checkpoint_store_abort(&st2, tmp);
	free(tmp);
	EXPECT_EQ(0, count_files(dir, ".cpu_manager_state.tmp."));
	checkpoint_store_close(&st2);
	cm_error_clear(&err);
	assignments_free(&s);
	remove_tree(dir);
	free(dir);
}

/* A real writer killed with SIGKILL between its write and its rename. */
TEST(store_writer_sigkilled_before_rename)
{
	static const char *const e[] = { "pod", "c", "1", NULL };
	struct cm_error err = { 0 };
	struct checkpoint_store st;
	struct checkpoint c;
	struct cpu_assignments s;
	char *dir = temp_dir();
	int status;
	pid_t pid;

	make_state(&s, "0,2-3", e);
	ASSERT_EQ(0, checkpoint_store_open(&st, dir, NULL, false, &err));
	ASSERT_EQ(0, checkpoint_store_lock(&st, 0, &err));
	ASSERT_EQ(0, checkpoint_store_save(&st, "static", &s, 0, &err));
	checkpoint_store_close(&st);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char *tmp;

		if (checkpoint_store_open(&st, dir, NULL, false, &err) ||
		    checkpoint_store_lock(&st, 1000, &err) ||
		    checkpoint_store_stage(&st, "{", 1, &tmp, &err))
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(1, count_files(dir, ".cpu_manager_state.tmp."));

	/* the kernel dropped the dead writer's lock; its temp file goes */
	ASSERT_EQ(0, checkpoint_store_open(&st, dir, NULL, false, &err));
	ASSERT_EQ(0, checkpoint_store_lock(&st, 0, &err));
	EXPECT_EQ(1u, st.stale_removed);
	ASSERT_EQ(0, checkpoint_store_load(&st, NULL, &c, &err));
	EXPECT_EQ(1u, c.state.nr);
	checkpoint_free(&c);
	checkpoint_store_close(&st);
	assignments_free(&s);
	remove_tree(dir);
	free(dir);
}

TEST(store_lock_excludes_other_writers)
{
	struct cm_error err = { 0 };
	struct checkpoint_store a, b;
	char *dir = temp_dir(), want[64];

	ASSERT_EQ(0, checkpoint_store_open(&a, dir, NULL, false, &err));
	ASSERT_EQ(0, checkpoint_store_open(&b, dir, NULL, false, &err));
	ASSERT_EQ(0, checkpoint_store_lock(&a, 0, &err));
	EXPECT_EQ(-EWOULDBLOCK, checkpoint_store_lock(&b, 0, &err));
	snprintf(want, sizeof(want), "(pid %ld)", (long)getpid());
	CHECK(strstr(cm_error_msg(&err), want) != NULL, "%s",
	      cm_error_msg(&err));
	EXPECT_EQ(-ETIMEDOUT, checkpoint_store_lock(&b, 30, &err));
	EXPECT_EQ(-ENOLCK, checkpoint_store_write(&b, "x", 1, &err));
	checkpoint_store_unlock(&a);
	EXPECT_EQ(0, checkpoint_store_lock(&b, 30, &err));
	cm_error_clear(&err);
	checkpoint_store_close(&a);
	checkpoint_store_close(&b);
	remove_tree(dir);
	free(dir);
}

TEST(store_refuses_to_overwrite_a_corrupt_checkpoint)
{
	struct cm_error err = { 0 };
	struct checkpoint_store st;
	struct checkpoint c;
	struct cpu_assignments s;
	char *dir = temp_dir(), *buf;
	const char *bad = "{\"policyName\":\"none\",\"defaultCpuSet\":\"\",\"checksum\":1}";
	size_t len;

	make_state(&s, "0-3", NULL);
	ASSERT_EQ(0, checkpoint_store_open(&st, dir, NULL, false, &err));
	ASSERT_EQ(0, checkpoint_store_lock(&st, -1, &err));
	ASSERT_EQ(0, checkpoint_store_write(&st, bad, strlen(bad), &err));
	EXPECT_EQ(-EBADMSG, checkpoint_store_load(&st, NULL, &c, &err));
	EXPECT_EQ(-EBADMSG, checkpoint_store_save(&st, "none", &s, 0, &err));
	EXPECT_EQ(0, strncmp("refusing to overwrite ", cm_error_msg(&err), 22));
	CHECK(strstr(cm_error_msg(&err), ": checkpoint is corrupted") != NULL,
	      "%s", cm_error_msg(&err));
	/* untouched */
	ASSERT_EQ(0, checkpoint_store_read(&st, &buf, &len, &err));
	EXPECT_STREQ(bad, buf);
	free(buf);
	/* forced: the corrupt file is kept aside, the new one reads back */
	ASSERT_EQ(0, checkpoint_store_save(&st, "none", &s, CHECKPOINT_FORCE,
					   &err));
	EXPECT_EQ(1, count_files(dir, "cpu_manager_state.corrupt"));
	ASSERT_EQ(0, checkpoint_store_load(&st, NULL, &c, &err));
	checkpoint_free(&c);
	checkpoint_store_close(&st);
	EXPECT_NE(0, checkpoint_store_open(&st, dir, "../x", false, &err));
	assignments_free(&s);
	remove_tree(dir);
	free(dir);
	cm_error_clear(&err);
}

/* As the kubelet's next storeState(): a legacy file is written back with its checksum. */
TEST(store_writes_a_legacy_checkpoint_back_with_its_checksum)
{
	static const char *const legacy[] = {
		KUBELET_V2_CASE(", \"checksum\": 0"),
		KUBELET_V2_CASE(""),
	};
	struct cm_error err = { 0 };
	struct checkpoint_store st;
	struct checkpoint c;
	char *dir = temp_dir();

	ASSERT_EQ(0, checkpoint_store_open(&st, dir, NULL, false, &err));
	ASSERT_EQ(0, checkpoint_store_lock(&st, -1, &err));
	for (size_t i = 0; i < ARRAY_SIZE(legacy); i++) {
		ASSERT_EQ(0, checkpoint_store_write(&st, legacy[i],
						    strlen(legacy[i]), &err));
		ASSERT_EQ(0, checkpoint_store_load(&st, NULL, &c, &err))
			TH_LOG("%s", cm_error_msg(&err));
		EXPECT_TRUE(c.unverified);
		/* the same state saved: no refusal, no file set aside */
		ASSERT_EQ(0, checkpoint_store_save(&st, c.policy, &c.state, 0,
						   &err)) TH_LOG("%s", cm_error_msg(&err));
		EXPECT_EQ(0, count_files(dir, "cpu_manager_state.corrupt"));
		checkpoint_free(&c);
		ASSERT_EQ(0, checkpoint_store_load(&st, NULL, &c, &err));
		EXPECT_FALSE(c.unverified);
		EXPECT_EQ(3610638499u, c.checksum);
		EXPECT_EQ(2u, c.state.nr);
		checkpoint_free(&c);
	}
	checkpoint_store_close(&st);
	remove_tree(dir);
	free(dir);
	cm_error_clear(&err);
}

TEST(go_string_quoting)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "plain", "\"plain\"" },
		{ "\"\\/", "\"\\\"\\\\/\"" },
		{ "\b\f\n\r\t\x01\x1f\x7f", "\"\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\"" },
		{ "<a&b>", "\"\\u003ca\\u0026b\\u003e\"" },
		{ "\xe2\x80\xa8\xe2\x80\xa9", "\"\\u2028\\u2029\"" },
		{ "\xff\xc3(\xed\xa0\x80", "\"\\ufffd\\ufffd(\\ufffd\\ufffd\\ufffd\"" },
		{ "h\xc3\xa9 \xf0\x9f\x98\x80", "\"h\xc3\xa9 \xf0\x9f\x98\x80\"" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = STRBUF_INIT;
		char *s;

		gojson_append_string(&sb, cases[i].in, strlen(cases[i].in));
		s = strbuf_detach(&sb, NULL);
		CHECK(!strcmp(s, cases[i].out), "%zu: %s", i, s);
		free(s);
	}
}

/*
 * Found by fuzz_checkpoint: a checkpoint without entries (a v2 one, and
 * a v1 one with an empty map) sorted its empty arrays with qsort(NULL, 0),
 * undefined behaviour that UBSan reports (build/user-san runs this).
 */
TEST(empty_entries_are_not_sorted)
{
	static const char *const empty[] = {
		"{\"policyName\":\"none\",\"defaultCpuSet\":\"\",\"checksum\":3242152201}",
		"{\"policyName\":\"none\",\"defaultCpuSet\":\"\",\"entries\":{},\"checksum\":3242152201}",
		"{\"policyName\":\"none\",\"defaultCpuSet\":\"\",\"entries\":{\"p\":{}},\"checksum\":1}",
	};
	struct cm_error err = { 0 };
	struct checkpoint c;
	struct cpu_assignments s;
	char *text;
	size_t len;

	EXPECT_EQ(0, parse_str(empty[0], &c, &err));
	checkpoint_free(&c);
	EXPECT_EQ(0, parse_str(empty[1], &c, &err));
	checkpoint_free(&c);
	EXPECT_EQ(-EBADMSG, parse_str(empty[2], &c, &err));
	assignments_init(&s);
	text = checkpoint_format("none", &s, &len);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, checkpoint_parse(text, len, NULL, &c, &err));
	EXPECT_EQ(0u, c.state.nr);
	checkpoint_free(&c);
	free(text);
	cm_error_clear(&err);
}

TEST_HARNESS_MAIN
