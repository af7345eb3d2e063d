// SPDX-License-Identifier: GPL-2.0
/*
 * YAML to JSON with Kubernetes' typing (sigs.k8s.io/yaml over go-yaml v2),
 * and Pod objects from files: the example pods, `kubectl get pods -o
 * yaml|json` lists, operator-written YAML, several documents.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "manifest.h"
#include "gojson.h"
#include "podlist.h"
#include "strbuf.h"
#include "test_util.h"
#include "yaml_json.h"

/* Compact JSON, numbers as the text the reader kept. */
static void dump_into(struct strbuf *sb, const cJSON *j)
{
	char buf[32];

	if (cJSON_IsNull(j)) {
		strbuf_adds(sb, "null");
	} else if (cJSON_IsBool(j)) {
		strbuf_adds(sb, cJSON_IsTrue(j) ? "true" : "false");
	} else if (cJSON_IsNumber(j)) {
		strbuf_adds(sb, j->valuestring ? j->valuestring :
			    (snprintf(buf, sizeof(buf), "%g", j->valuedouble), buf));
	} else if (cJSON_IsString(j)) {
		gojson_append_string(sb, j->valuestring,
				     strlen(j->valuestring));
	} else {
		bool obj = cJSON_IsObject(j);

		strbuf_addc(sb, obj ? '{' : '[');
		for (const cJSON *c = j->child; c; c = c->next) {
			if (c != j->child)
				strbuf_addc(sb, ',');
			if (obj) {
				gojson_append_string(sb, c->string,
						     strlen(c->string));
				strbuf_addc(sb, ':');
			}
			dump_into(sb, c);
		}
		strbuf_addc(sb, obj ? '}' : ']');
	}
}

static char *dump(const cJSON *j)
{
	struct strbuf sb = STRBUF_INIT;

	dump_into(&sb, j);
	return strbuf_detach(&sb, NULL);
}

/* The first document of text as compact JSON, or "ERR <message>". */
static char *yaml(const char *text)
{
	struct cm_error err = { 0 };
	cJSON *j = yaml_json_parse(text, strlen(text), &err);
	char *s;

	if (!j) {
		if (asprintf(&s, "ERR %s", cm_error_msg(&err)) < 0)
			s = NULL;
	} else {
		s = dump(j);
		cJSON_Delete(j);
	}
	cm_error_clear(&err);
	return s;
}

#define EXPECT_YAML(text, want) do {					\
	char *got__ = yaml(text);					\
	const char *g__ = got__ ? got__ : "(out of memory)";		\
	CHECK(!strcmp(g__, want), "%s\n  gave %s\n  want %s",		\
	      text, g__, want);						\
	free(got__);							\
} while (0)

TEST(scalars_typed_like_kubernetes)
{
	static const struct { const char *in, *out; } cases[] = {
		/* YAML 1.1 booleans and nulls (go-yaml v2) */
		{ "true", "true" }, { "True", "true" }, { "yes", "true" },
		{ "Yes", "true" }, { "YES", "true" }, { "y", "true" },
		{ "on", "true" }, { "ON", "true" }, { "no", "false" },
		{ "n", "false" }, { "Off", "false" }, { "FALSE", "false" },
		{ "yEs", "\"yEs\"" }, { "~", "null" }, { "null", "null" },
		{ "NULL", "null" }, { "", "null" }, { "nULL", "\"nULL\"" },
		/* integers: base prefixes, YAML 1.1 octal, underscores */
		{ "10", "10" }, { "+5", "5" }, { "-0", "0" }, { "0x1F", "31" },
		{ "0o17", "15" }, { "017", "15" }, { "0b101", "5" },
		{ "-0b101", "-5" }, { "1_000", "1000" },
		{ "9223372036854775807", "9223372036854775807" },
		{ "-9223372036854775808", "-9223372036854775808" },
		{ "9223372036854775808", "9223372036854775808" },
		{ "0x8000000000000000", "9223372036854775808" },
		/* floats, printed as encoding/json prints them */
		{ "08", "8" }, { "1.5", "1.5" }, { ".5", "0.5" },
		{ "1e3", "1000" }, { "1.0", "1" }, { "-1.25e-7", "-1.25e-7" },
		{ "1e21", "1e+21" }, { "0.000001", "0.000001" },
		{ "18446744073709551616", "18446744073709552000" },
		{ "123456789012345678901", "123456789012345680000" },
		{ "+.5", "0.5" }, { "1.", "1" },
		/* quantities and other strings stay strings */
		{ "500m", "\"500m\"" }, { "1Gi", "\"1Gi\"" }, { "2e3m", "\"2e3m\"" },
		{ "1.5.3", "\"1.5.3\"" }, { "0x", "\"0x\"" }, { "v1", "\"v1\"" },
		{ "0b2", "\"0b2\"" }, { "1e400", "\"1e400\"" }, { "-a", "\"-a\"" },
		{ "<<", "\"\\u003c\\u003c\"" }, { "10.244.1.7", "\"10.244.1.7\"" },
		{ "1:30", "\"1:30\"" },
		/* timestamps become RFC 3339 strings, as time.Time marshals */
		{ "2024-01-02", "\"2024-01-02T00:00:00Z\"" },
		{ "2024-1-2T3:04:05.120Z", "\"2024-01-02T03:04:05.12Z\"" },
		{ "2001-12-14t21:59:43.10-05:00", "\"2001-12-14T21:59:43.1-05:00\"" },
		{ "2001-12-14 21:59:43.10", "\"2001-12-14T21:59:43.1Z\"" },
		{ "2024-02-29T00:00:00+00:00", "\"2024-02-29T00:00:00Z\"" },
		{ "2023-02-29", "\"2023-02-29\"" },
		{ "2001-12-14 21:59:43.10 -5", "\"2001-12-14 21:59:43.10 -5\"" },
		/* quoted and block scalars are strings */
		{ "\"true\"", "\"true\"" }, { "'123'", "\"123\"" },
		{ "\"a\\tb\"", "\"a\\tb\"" }, { "|\n  a\n  b\n", "\"a\\nb\\n\"" },
		{ ">-\n  a\n  b\n", "\"a b\"" },
		/* explicit tags */
		{ "!!str 123", "\"123\"" }, { "!!int \"7\"", "7" },
		{ "!!float 3", "3" }, { "!!bool yes", "true" },
		{ "!!null ''", "null" }, { "!custom 12", "\"12\"" },
		{ "! 12", "\"12\"" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT_YAML(cases[i].in, cases[i].out);
}

TEST(scalar_errors)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "!!int abc", "ERR 1:1: cannot decode !!str `abc` as a !!int" },
		{ "!!int 1.5", "ERR 1:1: cannot decode !!float `1.5` as a !!int" },
		{ "!!bool 1", "ERR 1:1: cannot decode !!int `1` as a !!bool" },
		{ "v: !!timestamp 2024-13-01",
		  "ERR 1:4: cannot decode !!str `2024-13-01` as a !!timestamp" },
		{ "!!binary aGk=", "ERR 1:1: !!binary is not supported" },
		{ "v: .inf", "ERR 1:4: json: unsupported value: +Inf" },
		{ "v: -.Inf", "ERR 1:4: json: unsupported value: -Inf" },
		{ "v: .nan", "ERR 1:4: json: unsupported value: NaN" },
		{ "v: 0x10000000000000000",
		  "ERR 1:4: integer 0x10000000000000000 does not fit in 64 bits" },
		{ "v: \"a\\0b\"",
		  "ERR 1:4: a NUL byte in a scalar is not supported" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT_YAML(cases[i].in, cases[i].out);
}

TEST(collections_comments_and_keys)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "# a pod\na: 1 # one\nb:\n  - x\n  - {c: [1, two], d: null}\n",
		  "{\"a\":1,\"b\":[\"x\",{\"c\":[1,\"two\"],\"d\":null}]}" },
		{ "a:\n- 1\n- - 2\n  - 3\n", "{\"a\":[1,[2,3]]}" },
		{ "{a: 1, 'b': \"2\"}", "{\"a\":1,\"b\":\"2\"}" },
		{ "[]", "[]" }, { "{}", "{}" }, { "a: {}\nb: []", "{\"a\":{},\"b\":[]}" },
		/* keys become strings as YAMLToJSON makes them */
		{ "1: a\ntrue: b\n1.5: c\n0.1: d\n0x10: e\n1e6: f\n",
		  "{\"1\":\"a\",\"true\":\"b\",\"1.5\":\"c\",\"0.1\":\"d\",\"16\":\"e\",\"1e+06\":\"f\"}" },
		/* YAML 1.1: the key y is the boolean true, as in Kubernetes */
		{ "x: 1\ny: 2\nn: 3", "{\"x\":1,\"true\":2,\"false\":3}" },
		{ "f:metadata:\n  k:{\"name\":\"nginx\"}: {}\n",
		  "{\"f:metadata\":{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{}}}" },
		{ "~: 1", "ERR 1:1: unsupported map key of type: <nil>" },
		{ "[a]: 1", "ERR 1:1: unsupported map key: a collection" },
		{ "? {a: 1}\n: 2", "ERR 1:3: unsupported map key: a collection" },
		{ "2024-01-01: x",
		  "ERR 1:1: unsupported map key of type: time.Time, key: 2024-01-01T00:00:00Z" },
		{ "a: 1\nb: 2\na: 3\n",
		  "ERR 3:1: mapping key \"a\" already defined at line 1" },
		/* libyaml's syntax errors, placed */
		{ "a: b: c", "ERR 1:5: mapping values are not allowed in this context" },
		{ "a: [1, 2", "ERR 2:1: did not find expected ',' or ']' (while parsing a flow sequence)" },
		{ "a:\n  b: 1\n c: 2\n",
		  "ERR 3:2: did not find expected key (while parsing a block mapping)" },
		{ "a: \"x", "ERR 1:6: found unexpected end of stream (while scanning a quoted scalar)" },
		{ "\tx: 1", "ERR 1:1: found character that cannot start any token (while scanning for the next token)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT_YAML(cases[i].in, cases[i].out);
}

TEST(anchors_aliases_and_merges)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "r: &r {cpu: 2, memory: 1Gi}\nlimits: *r\n",
		  "{\"r\":{\"cpu\":2,\"memory\":\"1Gi\"},\"limits\":{\"cpu\":2,\"memory\":\"1Gi\"}}" },
		{ "a: &x [1, &y two]\nb: *y\nc: *x\n",
		  "{\"a\":[1,\"two\"],\"b\":\"two\",\"c\":[1,\"two\"]}" },
		/* an anchored key, and an anchor redefined later */
		{ "&k name: a\nv: *k\n", "{\"name\":\"a\",\"v\":\"name\"}" },
		{ "a: &x 1\nb: &x 2\nc: *x\n", "{\"a\":1,\"b\":2,\"c\":2}" },
		/* merge keys, in go-yaml v2's order */
		{ "base: &b {cpu: 1, memory: 1Gi}\nc:\n  <<: *b\n  cpu: 2\n",
		  "{\"base\":{\"cpu\":1,\"memory\":\"1Gi\"},\"c\":{\"cpu\":2,\"memory\":\"1Gi\"}}" },
		{ "a: &a {x: 1}\nb: &b {x: 2, z: 2}\nc:\n  <<: [*a, *b]\n",
		  "{\"a\":{\"x\":1},\"b\":{\"x\":2,\"z\":2},\"c\":{\"x\":1,\"z\":2}}" },
		{ "c:\n  x: 0\n  <<: {x: 1}\n", "{\"c\":{\"x\":1}}" },
		{ "c:\n  <<: [1]\n",
		  "ERR 2:3: map merge requires map or sequence of maps as the value" },
		{ "a: *nope", "ERR 1:4: unknown anchor 'nope' referenced" },
		{ "a: &s [*s]", "ERR 1:8: unknown anchor 's' referenced" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT_YAML(cases[i].in, cases[i].out);
}

TEST(alias_bomb_is_stopped)
{
	struct strbuf sb = STRBUF_INIT;
	char *text, *got;

	/* 9 levels of 10 aliases each: 10^9 nodes once expanded */
	strbuf_adds(&sb, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
	for (int i = 1; i < 10; i++) {
		strbuf_addf(&sb, "a%d: &a%d [", i, i);
		for (int k = 0; k < 10; k++)
			strbuf_addf(&sb, "%s*a%d", k ? ", " : "", i - 1);
		strbuf_adds(&sb, "]\n");
	}
	text = strbuf_detach(&sb, NULL);
	got = yaml(text);
	CHECK(strstr(got, "document contains excessive aliasing") != NULL, "%s",
	      got);
	free(got);
	free(text);
}

TEST(documents)
{
	static const struct { const char *in; int nr; const char *first; } cases[] = {
		{ "", 0, "null" },
		{ "# only a comment\n", 0, "null" },
		{ "a: 1\n---\nb: 2\n...\n---\n", 3, "{\"a\":1}" },
		{ "---\n---\nx\n", 2, "null" },
		{ "%YAML 1.1\n---\n[1]\n", 1, "[1]" },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		cJSON *all = yaml_json_parse_all(cases[i].in,
						 strlen(cases[i].in), &err);
		char *first;

		ASSERT_NE(NULL, all);
		EXPECT_EQ(cases[i].nr, cJSON_GetArraySize(all));
		cJSON_Delete(all);
		first = yaml(cases[i].in);
		EXPECT_STREQ(cases[i].first, first);
		free(first);
	}
	/* anchors belong to their document; the first is read with the rest */
	EXPECT_YAML("a: &x 1\n---\nb: *x\n",
		    "ERR 3:4: unknown anchor 'x' referenced");
	ASSERT_EQ(NULL, yaml_json_parse_all("a: &x 1\n---\nb: *x\n", 17, &err));
	EXPECT_STREQ("3:4: unknown anchor 'x' referenced", cm_error_msg(&err));
	cm_error_clear(&err);
}

/* ---- Pod objects from files ---- */

static int load(const char *file, struct pod_list *l, struct cm_error *err)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/pods/%s", test_data_dir(), file);
	return pod_list_load(path, l, err);
}

static bool same_pod(const struct pod *a, const struct pod *b)
{
	if (strcmp(a->uid, b->uid) || strcmp(a->name, b->name) ||
	    strcmp(a->ns, b->ns) || a->nr != b->nr || a->nr_init != b->nr_init ||
	    pod_qos(a) != pod_qos(b))
		return false;
	for (unsigned int i = 0; i < a->nr; i++) {
		const struct pod_container *x = &a->containers[i],
					   *y = &b->containers[i];

		if (strcmp(x->name, y->name) || x->restartable != y->restartable)
			return false;
		for (int r = 0; r < RES_NR; r++)
			if (x->has_request[r] != y->has_request[r] ||
			    x->has_limit[r] != y->has_limit[r] ||
			    (x->has_request[r] &&
			     quantity_cmp(&x->request[r], &y->request[r])) ||
			    (x->has_limit[r] &&
			     quantity_cmp(&x->limit[r], &y->limit[r])))
				return false;
	}
	return true;
}

TEST(example_pods_in_json_and_yaml)
{
	static const struct { const char *name; enum pod_qos qos; int cpus; } ex[] = {
		{ "besteffort", QOS_BEST_EFFORT, 0 },
		{ "burstable-cpu", QOS_BURSTABLE, 0 },
		{ "burstable-memory", QOS_BURSTABLE, 0 },
		{ "guaranteed-2cpu", QOS_GUARANTEED, 2 },
		{ "guaranteed-fractional", QOS_GUARANTEED, 0 },
		{ "guaranteed-init-reuse", QOS_GUARANTEED, 4 },
		{ "guaranteed-limits-only", QOS_GUARANTEED, 2 },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(ex); i++) {
		struct pod_list j, y;
		char file[128];

		snprintf(file, sizeof(file), "%s.json", ex[i].name);
		ASSERT_EQ(0, load(file, &j, &err));
		snprintf(file, sizeof(file), "%s.kubectl.yaml", ex[i].name);
		ASSERT_EQ(0, load(file, &y, &err));
		ASSERT_EQ(1u, j.nr);
		ASSERT_EQ(1u, y.nr);
		CHECK(same_pod(&j.pods[0], &y.pods[0]), "%s differs", ex[i].name);
		EXPECT_EQ((int)ex[i].qos, (int)pod_qos(&j.pods[0]));
		EXPECT_EQ(ex[i].cpus, pod_guaranteed_cpus_total(&j.pods[0]));
		pod_list_free(&j);
		pod_list_free(&y);
	}
	cm_error_clear(&err);
}

TEST(operator_yaml)
{
	struct cm_error err = { 0 };
	struct pod_list l, j;

	/* the seed's 3-CPU pod */
	ASSERT_EQ(0, load("guaranteed-3cpu.yaml", &l, &err));
	ASSERT_EQ(1u, l.nr);
	EXPECT_STREQ("0b1e5a44-5f3c-4c55-9a0e-000000000008", l.pods[0].uid);
	EXPECT_STREQ("busybox-pod1", l.pods[0].containers[0].name);
	EXPECT_EQ(3, pod_guaranteed_cpus_total(&l.pods[0]));
	pod_list_free(&l);

	/* bare cpu: 2, flow maps, requests as an alias of limits */
	ASSERT_EQ(0, load("guaranteed-2cpu.operator.yaml", &l, &err));
	ASSERT_EQ(0, load("guaranteed-2cpu.json", &j, &err));
	CHECK(same_pod(&l.pods[0], &j.pods[0]), "operator YAML differs");
	EXPECT_EQ(2, pod_guaranteed_cpus_total(&l.pods[0]));
	pod_list_free(&l);
	pod_list_free(&j);
	cm_error_clear(&err);
}

TEST(kubectl_get_pods_lists)
{
	static const char *const uids[] = {
		"0b1e5a44-5f3c-4c55-9a0e-000000000004",
		"0b1e5a44-5f3c-4c55-9a0e-000000000003",
		"0b1e5a44-5f3c-4c55-9a0e-000000000007",
	};
	struct cm_error err = { 0 };
	struct pod_list y, j;

	ASSERT_EQ(0, load("pods-kubectl-get.yaml", &y, &err));
	ASSERT_EQ(0, load("pods-kubectl-get.json", &j, &err));
	ASSERT_EQ(3u, y.nr);
	ASSERT_EQ(3u, j.nr);
	for (unsigned int i = 0; i < 3; i++) {
		EXPECT_STREQ(uids[i], y.pods[i].uid);
		CHECK(same_pod(&y.pods[i], &j.pods[i]), "pod %u differs", i);
	}
	/* status.qosClass is taken as the kubelet takes it */
	EXPECT_STREQ("Guaranteed", y.pods[0].status_qos);
	EXPECT_EQ(2u, y.pods[2].nr - y.pods[2].nr_init);
	pod_list_free(&y);
	pod_list_free(&j);

	ASSERT_EQ(0, load("multi-doc.yaml", &y, &err));
	ASSERT_EQ(2u, y.nr);
	EXPECT_EQ((int)QOS_GUARANTEED, (int)pod_qos(&y.pods[0]));
	EXPECT_EQ((int)QOS_BURSTABLE, (int)pod_qos(&y.pods[1]));
	pod_list_free(&y);
	cm_error_clear(&err);
}

static int from_text(const char *text, struct pod_list *l, struct cm_error *err)
{
	cJSON *docs = manifest_parse(text, strlen(text), "in.yaml", err);
	int ret;

	if (!docs)
		return -1;
	ret = pod_list_from_docs(docs, "in.yaml", l, err);
	cJSON_Delete(docs);
	return ret;
}

TEST(pod_input_errors)
{
	static const struct { const char *in, *msg; } cases[] = {
		{ "", "in.yaml: no objects" },
		{ "---\n---\n", "in.yaml: no objects" },
		{ "apiVersion: apps/v1\nkind: Deployment\n",
		  "in.yaml: kind \"Deployment\" of apiVersion \"apps/v1\": want apiVersion \"v1\"" },
		{ "apiVersion: v1\nkind: ConfigMap\n",
		  "in.yaml: kind \"ConfigMap\" is not a Pod (want Pod, PodList or a List of Pods)" },
		{ "apiVersion: v1\nmetadata: {}\n", "in.yaml: Object 'Kind' is missing" },
		{ "kind: Pod\n", "in.yaml: Object 'apiVersion' is missing" },
		{ "- 1\n", "in.yaml: not an object" },
		{ "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service}\n",
		  "in.yaml: items[0]: kind \"Service\" is not a Pod" },
		{ "apiVersion: v1\nkind: List\nitems:\n- {metadata: {uid: a}}\n",
		  "in.yaml: items[0]: Object 'Kind' is missing" },
		{ "apiVersion: v1\nkind: List\nitems: {}\n",
		  "in.yaml: items: must be an array" },
		{ "apiVersion: v1\nkind: Pod\nmetadata: {uid: u}\nspec: {containers: [{name: a, resources: {limits: {cpu: 1Gi}}}]}\n",
		  "in.yaml: spec.containers[0].resources.limits.cpu: \"1Gi\": " },
		{ "apiVersion: v1\nkind: Pod\nmetadata: {uid: u, name: a}\nspec: {containers: [{name: c}]}\n"
		  "---\napiVersion: v1\nkind: Pod\nmetadata: {uid: u, name: b}\nspec: {containers: [{name: c}]}\n",
		  "in.yaml: document 2: pod UID \"u\" given twice (/a and /b)" },
		{ "apiVersion: v1\nkind: Pod\nmetadata:\n  uid: u\n   name: x\n",
		  "in.yaml:5:8: mapping values are not allowed in this context" },
		{ "{\"apiVersion\": \"v1\",\n \"kind\": \"Pod\" x}",
		  "in.yaml:2:16: invalid JSON" },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pod_list l;
		int ret = from_text(cases[i].in, &l, &err);

		CHECK(ret && !strncmp(cm_error_msg(&err), cases[i].msg,
				      strlen(cases[i].msg)),
		      "%s\n  gave \"%s\"", cases[i].in, cm_error_msg(&err));
		if (!ret)
			pod_list_free(&l);
		cm_error_clear(&err);
	}
}

TEST(an_empty_list_is_no_pods)
{
	struct cm_error err = { 0 };
	struct pod_list l;

	ASSERT_EQ(0, from_text("apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
			       &l, &err));
	EXPECT_EQ(0u, l.nr);
	pod_list_free(&l);
	EXPECT_NE(0, pod_list_load("/nonexistent/pod.yaml", &l, &err));
	EXPECT_STREQ("/nonexistent/pod.yaml: No such file or directory",
		     cm_error_msg(&err));
	cm_error_clear(&err);
}

TEST_HARNESS_MAIN
