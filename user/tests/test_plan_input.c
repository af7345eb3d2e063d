// SPDX-License-Identifier: GPL-2.0
/*
 * What `cpumgrctl plan` reads, on its fast paths: json_load() (a mapped
 * file, or a copy when the file ends on a page boundary; plain JSON
 * parsed without cJSON into the tree cJSON makes, everything else by
 * cJSON; the tree in json_load()'s own memory, given back with its last
 * value),
 * topology records read in one walk and placed by CPU number, with the
 * same error texts as before those paths existed.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "kselftest_harness.h"

#include "json_util.h"
#include "plan.h"
#include "test_util.h"
#include "topology.h"
#include "topology_json.h"

#define CPU(c, core, s, n) "{\"cpu\":" #c ",\"core\":" #core ",\"socket\":" #s ",\"numa\":" #n "}"

/* Error texts, each as the sorting, one-lookup-per-field reader gave it. */
TEST(topology_json_errors)
{
	static const struct {
		const char *cpus, *err;
	} cases[] = {
		{ "[]", "topology: topology has no CPUs" },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0}]", "topology.cpus[0].numa: required" },
		{ "[" CPU(0, 0, 0, 0) "," CPU(0, 1, 0, 0) "]", "topology: cpu 0 listed twice" },
		{ "[" CPU(5, 0, 0, 0) "," CPU(3, 0, 0, 0) "," CPU(5, 1, 0, 0) "," CPU(3, 1, 0, 0) "]",
		  "topology: cpu 3 listed twice" },
		{ "[" CPU(0, 0, 0, 0) "," CPU(1, 0, 1, 0) "]", "topology: core 0 spans sockets 0 and 1" },
		{ "[" CPU(0, 0, 0, 0) "," CPU(1, 0, 0, 1) "]", "topology: core 0 spans NUMA nodes 0 and 1" },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":0,\"uncore\":0},{\"cpu\":1,\"core\":0,\"socket\":0,\"numa\":0,\"uncore\":3}]",
		  "topology: core 0 spans uncore caches 0 and 3" },
		{ "[" CPU(-1, 0, 0, 0) "]", "topology.cpus[0].cpu: must be an integer from 0 to 8191" },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":0,\"l3\":0}]", "topology.cpus[0]: unknown field \"l3\"" },
		/* an unknown field wins over a bad value before it */
		{ "[" CPU(0, 0, 0, 0) ",{\"cpu\":1,\"core\":1,\"socket\":0,\"numa\":\"0\",\"l3\":1}]",
		  "topology.cpus[1]: unknown field \"l3\"" },
		{ "[" CPU(0, 0, 0, 0) "," CPU(1, 1.5, 0, 0) "]", "topology.cpus[1].core: must be an integer from 0 to 8191" },
		{ "[" CPU(0, 0, 0, 0) "," CPU(1, 8192, 0, 0) "]", "topology.cpus[1].core: must be an integer from 0 to 8191" },
		{ "[" CPU(0, 0, 0, null) "]", "topology.cpus[0].numa: required" },
		/*
		 * a name twice, as Go reads it into a struct: null changes
		 * nothing, every value is checked, the last counts
		 */
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":null,\"numa\":1}]", NULL },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":1,\"numa\":null}]", NULL },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":1,\"numa\":\"x\"}]",
		  "topology.cpus[0].numa: must be an integer from 0 to 8191" },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":\"x\",\"numa\":1}]",
		  "topology.cpus[0].numa: must be an integer from 0 to 8191" },
		{ "[" CPU(0, 0, 0, 0) ",{\"cpu\":1,\"core\":0,\"socket\":0,\"numa\":1,\"numa\":0}]", NULL },
		{ "[" CPU(0, 0, 0, 0) ",{\"cpu\":1,\"core\":0,\"socket\":0,\"numa\":0,\"numa\":1}]",
		  "topology: core 0 spans NUMA nodes 0 and 1" },
		/* what topology --json prints besides: an offline CPU is left out */
		{ "[{\"cpu\":0,\"known\":true,\"online\":true,\"socket\":0,\"die\":0,\"core\":0,\"numa\":0,\"uncore\":0,\"siblings\":\"0\"},"
		  "{\"cpu\":1,\"known\":false,\"online\":false}]", NULL },
		{ "[{\"cpu\":0,\"online\":false}]", "topology: topology has no CPUs" },
		{ "[" CPU(0, 0, 0, 0) ",{\"cpu\":1,\"online\":\"yes\"}]",
		  "topology.cpus[1].online: must be true or false" },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":0,\"siblings\":0}]",
		  "topology.cpus[0].siblings: must be a string" },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":0,\"die\":-1}]",
		  "topology.cpus[0].die: must be an integer from 0 to 8191" },
		{ "[7]", "topology.cpus[0]: must be an object" },
		{ "[{\"cpu\":\"\",\"\":0}]", "topology.cpus[0]: unknown field \"\"" },
		{ "[{\"c\":0}]", "topology.cpus[0]: unknown field \"c\"" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char json[512];
		struct cm_error err = { 0 };
		struct topology *t;
		cJSON *j;

		snprintf(json, sizeof(json), "{\"cpus\":%s}", cases[i].cpus);
		j = cJSON_Parse(json);
		ASSERT_NE(NULL, j);
		t = topology_from_json(j, &err);
		if (cases[i].err)
			CHECK(!t && !strcmp(cases[i].err, cm_error_msg(&err)),
			      "%s: \"%s\", want \"%s\"", json,
			      t ? "accepted" : cm_error_msg(&err), cases[i].err);
		else
			CHECK(t, "%s: %s", json, cm_error_msg(&err));
		topology_free(t);
		cJSON_Delete(j);
		cm_error_clear(&err);
	}
}

/* Records in any order make the topology the sorted records make. */
TEST(topology_any_order)
{
	enum { N = 512 };
	struct topo_cpu_info c[N], shuffled[N];
	struct topology *a, *b;
	struct cm_error err = { 0 };
	unsigned int seed = 1;

	/* sparse CPU numbers, Linux-style sibling numbering */
	for (int i = 0; i < N; i++) {
		int core = i % (N / 2);

		c[i] = (struct topo_cpu_info){ .cpu = 2 * i + 1, .core = 3 * core,
					       .socket = core / 64, .numa = core / 32,
					       .uncore = core / 8 };
	}
	memcpy(shuffled, c, sizeof(c));
	for (int i = N - 1; i > 0; i--) {
		int k = (int)(rand_r(&seed) % (unsigned int)(i + 1));
		struct topo_cpu_info tmp = shuffled[i];

		shuffled[i] = shuffled[k];
		shuffled[k] = tmp;
	}
	a = topology_new(c, N, &err);
	b = topology_new(shuffled, N, &err);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(a->nr_cpus, b->nr_cpus);
	for (int l = 0; l < TOPO_NR_LEVELS; l++) {
		EXPECT_EQ(a->nr[l], b->nr[l]);
		EXPECT_EQ(0, memcmp(a->id[l], b->id[l], a->nr[l] * sizeof(int)));
		EXPECT_EQ(0, memcmp(a->cpu_group[l], b->cpu_group[l],
				    N * sizeof(unsigned int)));
	}
	for (unsigned int i = 0; i < a->nr_cpus; i++) {
		struct topo_cpu_info x;

		EXPECT_EQ(a->cpu_id[i], b->cpu_id[i]);
		EXPECT_EQ(2 * (int)i + 1, b->cpu_id[i]);
		ASSERT_TRUE(topology_cpu_info(b, b->cpu_id[i], &x));
		EXPECT_EQ(0, memcmp(&x, &c[i], sizeof(x)));
	}
	EXPECT_EQ(N / 2, (int)b->nr[TOPO_CORE]);
	EXPECT_EQ(3 * (N / 2 - 1), b->id[TOPO_CORE][N / 2 - 1]);
	topology_free(a);
	topology_free(b);
}

/* A temporary file holding len bytes of text; its path into path. */
static void write_file(char *path, const char *text, size_t len)
{
	const char *tmp = getenv("TMPDIR") ?: "/tmp";
	FILE *f;
	int fd;

	snprintf(path, 256, "%s/cpumgr-json-XXXXXX", tmp);
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		abort();
	}
}

/* {"a": [0, 1, ...], "pad": "xxx"}, len bytes long. */
static char *doc_of_size(size_t len)
{
	char *s = malloc(len + 1);
	size_t n = (size_t)snprintf(s, len + 1, "{\"a\": [0, 1, 2], \"pad\": \"");

	memset(s + n, 'x', len - n - 2);
	memcpy(s + len - 2, "\"}", 3);
	return s;
}

TEST(json_load_files)
{
	long page = sysconf(_SC_PAGESIZE);
	const size_t sizes[] = { 40, (size_t)page - 1, (size_t)page,
				 (size_t)page + 1, 3 * (size_t)page };
	struct cm_error err = { 0 };
	char path[256];
	cJSON *j;

	/* mapped, and copied where a page boundary leaves no NUL to map */
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		char *text = doc_of_size(sizes[i]);
		const cJSON *pad;

		write_file(path, text, sizes[i]);
		j = json_load(path, &err);
		CHECK(j, "%zu bytes: %s", sizes[i], cm_error_msg(&err));
		pad = cJSON_GetObjectItem(j, "pad");
		CHECK(pad && strlen(pad->valuestring) == sizes[i] - 27,
		      "%zu bytes: the string read back", sizes[i]);
		EXPECT_EQ(3, cJSON_GetArraySize(cJSON_GetObjectItem(j, "a")));
		cJSON_Delete(j);
		unlink(path);
		free(text);
	}

	write_file(path, "{\"a\":\0 1}", 9);
	EXPECT_EQ(NULL, json_load(path, &err));
	EXPECT_NE(NULL, strstr(cm_error_msg(&err),
			       ":1:6: NUL byte in JSON"));
	unlink(path);
	cm_error_clear(&err);

	/* the offset cJSON stops at, as it reports it on a string of its own */
	{
		static const char bad[] = "{\"a\": [1, 2,, 3]}";
		const char *end = NULL;
		char want[64];

		EXPECT_EQ(NULL, cJSON_ParseWithOpts(bad, &end, true));
		snprintf(want, sizeof(want), ":1:%ld: invalid JSON",
			 (long)(end - bad) + 1);
		write_file(path, bad, strlen(bad));
		EXPECT_EQ(NULL, json_load(path, &err));
		CHECK(strstr(cm_error_msg(&err), want), "\"%s\", want \"...%s\"",
		      cm_error_msg(&err), want);
		unlink(path);
		cm_error_clear(&err);
	}
	EXPECT_EQ(NULL, json_load("/nonexistent/x.json", &err));
	cm_error_clear(&err);
	EXPECT_EQ(0u, json_load_held());
}

/*
 * A loaded tree lives in json_load()'s memory until its last value is
 * freed, whatever the order, and takes edits like any tree.
 */
TEST(json_load_memory)
{
	struct cm_error err = { 0 };
	char path[256], *text = doc_of_size(100000);
	cJSON *j, *a, *pad;

	write_file(path, text, 100000);
	free(text);
	EXPECT_EQ(0u, json_load_held());
	j = json_load(path, &err);
	unlink(path);
	ASSERT_NE(NULL, j);
	EXPECT_LT(0u, json_load_held());

	/* edits: malloc'ed values among the loaded ones */
	pad = cJSON_GetObjectItem(j, "pad");
	ASSERT_NE(NULL, cJSON_SetValuestring(pad, "a longer string than the one it replaces? no: shorter"));
	cJSON_AddItemToObject(j, "added", cJSON_CreateString("new"));
	cJSON_ReplaceItemInObject(j, "pad", cJSON_CreateNumber(7));

	a = cJSON_DetachItemFromObject(j, "a");
	ASSERT_NE(NULL, a);
	cJSON_Delete(j);
	/* the detached array still lives there */
	EXPECT_LT(0u, json_load_held());
	EXPECT_EQ(2, cJSON_GetArrayItem(a, 2)->valueint);
	cJSON_Delete(a);
	EXPECT_EQ(0u, json_load_held());

	/* a failed parse gives everything back too */
	write_file(path, "{\"a\": [1, 2, {\"b\": \"c\"}", 23);
	EXPECT_EQ(NULL, json_load(path, &err));
	unlink(path);
	EXPECT_EQ(0u, json_load_held());
	cm_error_clear(&err);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The same values, names, numbers (bit for bit) and links. */
static bool same_tree(const cJSON *a, const cJSON *b)
{
	const cJSON *la = NULL, *lb = NULL;

	for (; a && b; la = a, lb = b, a = a->next, b = b->next) {
		if (a->type != b->type || a->valueint != b->valueint ||
		    memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) ||
		    !same_str(a->string, b->string) ||
		    !same_str(a->valuestring, b->valuestring) ||
		    !!a->child != !!b->child || (a->prev == la) != (b->prev == lb))
			return false;
		if (a->child && !same_tree(a->child, b->child))
			return false;
	}
	if (a || b)
		return false;
	return true;
}

static bool last_is(const cJSON *first, const cJSON *prev)
{
	while (first && first->next)
		first = first->next;
	return first == prev;
}

/* A child list's head points back at its last member, in both. */
static bool same_heads(const cJSON *a, const cJSON *b)
{
	for (; a && b; a = a->next, b = b->next) {
		if (a->child && (last_is(a->child, a->child->prev) !=
				 last_is(b->child, b->child->prev) ||
				 !same_heads(a->child, b->child)))
			return false;
	}
	return true;
}

/* "LINE:COLUMN": columns count UTF-8 characters */
static void where(char *buf, size_t len, const char *text, long off)
{
	long line = 1, col = 1;

	for (long i = 0; i < off; i++) {
		if (text[i] == '\n')
			line++, col = 1;
		else if (((unsigned char)text[i] & 0xc0) != 0x80)
			col++;
	}
	snprintf(buf, len, "%ld:%ld", line, col);
}

/*
 * json_parse_text() of text and cJSON's own parse, with the same
 * json_go_rules() after it, agree, errors too.
 */
static bool agrees(struct __test_metadata *_metadata, const char *text)
{
	struct cm_error err = { 0 }, ref_err = { 0 };
	const char *end = NULL;
	cJSON *mine = json_parse_text(text, "t", &err);
	cJSON *ref = cJSON_ParseWithOpts(text, &end, true);
	bool ok;

	if (ref && json_go_rules(ref, text, "t", &ref_err)) {
		cJSON_Delete(ref);
		ref = NULL;
	}
	if (!mine || !ref) {
		char want[128], at[64];

		where(at, sizeof(at), text, end ? (long)(end - text) : 0L);
		snprintf(want, sizeof(want), "t:%s: invalid JSON", at);
		ok = !mine && !ref &&
		     !strcmp(ref_err.msg ? cm_error_msg(&ref_err) : want,
			     cm_error_msg(&err));
	} else {
		ok = same_tree(mine, ref) && same_heads(mine, ref);
	}
	if (!ok)
		TH_LOG("differs from cJSON (%s, %s): \"%.200s\"",
		       mine ? "parsed" : cm_error_msg(&err),
		       ref ? "parsed" : "refused", text);
	cJSON_Delete(mine);
	cJSON_Delete(ref);
	cm_error_clear(&err);
	cm_error_clear(&ref_err);
	return ok;
}

/* The JSON files of a fixture directory, one level deep. */
static unsigned int add_files(const char *dir, char **docs, unsigned int n,
			      unsigned int max)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && n < max && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char path[1024];
		FILE *f;

		if (len < 6 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		if (f) {
			docs[n] = file_slurp(f, &len);
			n += docs[n] != NULL;
			fclose(f);
		}
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * Plain JSON parsed on the fast path and everything else by cJSON give
 * what cJSON alone gives: the fixtures, documents at every edge of
 * "plain", and thousands of one-byte mutations of them all.
 */
TEST(json_parse_same_as_cjson)
{
	static const char *const edges[] = {
		"0", "-0", "-", "01", "1.", ".5", "+1", "1e5", "1E+2", "-1.5",
		"123456789012345", "1234567890123456", "-999999999999999",
		"3000000000", "-3000000000", "2147483647", "-2147483648",
		"true", "false", "null", "tru", "nul", "falsey", "[true,false,null]",
		"\"\"", "\"a\\\"b\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\xc3\xa9\"",
		"\"tab\tin\"", "\"\x01\"", "\"\x7f\"", "\"open",
		"[]", "{}", "[ ]", "{ }", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\"}",
		"{\"a\" : 1 , \"a\" : [ 2 ] }", "{1:2}", "[1 2]", "[[[[]]]]",
		" \t\r\n[1]\n ", "\x01[1]", "[1]\x0b", "\xef\xbb\xbf[1]", "[1]x",
		"{\"k\":{\"l\":[{\"m\":null}]}}", "[1,[2,[3,[4]]],{\"x\":\"y\"}]",
		"", " ", "[", "{", "\"", "]", "[1]]", "{\"a\":1}}",
	};
	enum { MAX_DOCS = 128 };
	static const char subst[] = "\"\\,:[]{}0-.eE+ \ttfnux1\x01\x80";
	char *docs[MAX_DOCS], deep[2 * 300 + 1], buf[8192];
	unsigned int n = 0, seed = 7;
	char path[1024];

	for (size_t i = 0; i < ARRAY_SIZE(edges); i++)
		EXPECT_TRUE(agrees(_metadata, edges[i]));
	/* deeper than the fast path goes: cJSON's */
	memset(deep, '[', 300);
	memset(deep + 300, ']', 300);
	deep[600] = '\0';
	EXPECT_TRUE(agrees(_metadata, deep));

	snprintf(path, sizeof(path), "%s/pods", test_data_dir());
	n = add_files(path, docs, n, MAX_DOCS);
	snprintf(path, sizeof(path), "%s/checkpoint", test_data_dir());
	n = add_files(path, docs, n, MAX_DOCS);
	snprintf(path, sizeof(path), "%s/examples/plan", CPUMGR_SRC_TOP);
	n = add_files(path, docs, n, MAX_DOCS);
	snprintf(path, sizeof(path), "%s/examples/pods", CPUMGR_SRC_TOP);
	n = add_files(path, docs, n, MAX_DOCS);
	EXPECT_LT(20u, n);
	for (unsigned int d = 0; d < n; d++) {
		size_t len = strlen(docs[d]);

		EXPECT_TRUE(agrees(_metadata, docs[d]));
		if (len >= sizeof(buf) - 2)
			len = sizeof(buf) - 2;
		for (int m = 0; m < 200; m++) {
			size_t at = (size_t)rand_r(&seed) % len;
			char c = subst[(size_t)rand_r(&seed) % (sizeof(subst) - 1)];

			memcpy(buf, docs[d], len);
			buf[len] = '\0';
			switch (rand_r(&seed) % 3) {
			case 0:		/* replace */
				buf[at] = c;
				break;
			case 1:		/* delete */
				memmove(buf + at, buf + at + 1, len - at);
				break;
			default:	/* insert */
				memmove(buf + at + 1, buf + at, len - at + 1);
				buf[at] = c;
				break;
			}
			if (!agrees(_metadata, buf)) {
				EXPECT_TRUE(false);
				break;
			}
		}
		free(docs[d]);
	}
	EXPECT_EQ(0u, json_load_held());
}

/*
 * A member given twice: the last value counts, as in Go's encoding/json,
 * at the top level, in arrays' objects, in a pod and in topology records;
 * null changes nothing.
 */
TEST(duplicate_members_keep_the_last)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "{\"a\":1,\"a\":2}", "{\"a\":2}" },
		{ "{\"a\":1,\"b\":0,\"a\":2,\"a\":3}", "{\"b\":0,\"a\":3}" },
		{ "{\"a\":1,\"a\":null}", "{\"a\":1}" },
		{ "{\"a\":null,\"a\":1,\"a\":null}", "{\"a\":1}" },
		{ "{\"a\":null,\"a\":null}", "{\"a\":null}" },
		{ "[{\"x\":{\"y\":1,\"y\":[2]}}]", "[{\"x\":{\"y\":[2]}}]" },
		/* with escapes: cJSON's path, the same rule */
		{ "{\"k\":\"\\u0041\",\"k\":\"B\"}", "{\"k\":\"B\"}" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cm_error err = { 0 };
		cJSON *j = json_parse_text(cases[i].text, "t", &err);
		char *out = j ? cJSON_PrintUnformatted(j) : NULL;

		CHECK(out && !strcmp(out, cases[i].want), "%s: %s, want %s",
		      cases[i].text, out ? out : cm_error_msg(&err),
		      cases[i].want);
		free(out);
		cJSON_Delete(j);
		cm_error_clear(&err);
	}
}

/* The same through json_load() and plan_run(), top level and pod alike. */
TEST(plan_takes_the_last_of_a_member_given_twice)
{
	static const char take[] =
		"{\"topology\": {\"sysfs\": \"" CPUMGR_SRC_TOP "/user/tests/data/sysfs-2s2c2t\"},"
		" \"available\": \"0-7\", \"count\": 1, \"count\": 3}";
	static const char policy[] =
		"{\"topology\": {\"sysfs\": \"" CPUMGR_SRC_TOP "/user/tests/data/sysfs-2s2c2t\"},"
		" \"policy\": \"none\", \"policy\": \"static\", \"reservedCpus\": \"0\","
		" \"steps\": [{\"op\": \"allocate\", \"container\": \"c\", \"pod\": "
		"{\"metadata\": {\"uid\": \"p\", \"uid\": \"q\"}, \"spec\": {\"containers\":"
		" [{\"name\": \"c\", \"resources\": {\"requests\": {\"cpu\": \"1\", \"memory\": \"1Gi\"},"
		" \"limits\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}}, \"resources\": {\"requests\":"
		" {\"cpu\": \"2\", \"memory\": \"1Gi\"}, \"limits\": {\"cpu\": \"2\", \"memory\": \"1Gi\"}}}]}}}]}";
	struct cm_error err = { 0 };
	char path[256];
	cJSON *req, *res;
	const cJSON *cpus, *as;

	write_file(path, take, strlen(take));
	req = json_load(path, &err);
	unlink(path);
	ASSERT_NE(NULL, req);
	res = plan_run(req, &err);
	cpus = cJSON_GetObjectItem(res, "cpus");
	CHECK(cpus && !strcmp(cpus->valuestring, "0-1,4"), "%s",
	      res ? cJSON_PrintUnformatted(res) : cm_error_msg(&err));
	cJSON_Delete(res);
	cJSON_Delete(req);

	write_file(path, policy, strlen(policy));
	req = json_load(path, &err);
	unlink(path);
	ASSERT_NE(NULL, req);
	res = plan_run(req, &err);
	ASSERT_NE(NULL, res);
	/* policy static (the last), pod q (the last uid), 2 CPUs (the last resources) */
	as = cJSON_GetObjectItem(cJSON_GetObjectItem(res, "steps")->child, "assignments");
	cpus = cJSON_GetObjectItem(cJSON_GetObjectItem(as, "q"), "c");
	CHECK(cpus && !strcmp(cpus->valuestring, "1,5"), "%s", cJSON_PrintUnformatted(res));
	cJSON_Delete(res);
	cJSON_Delete(req);
	EXPECT_EQ(0u, json_load_held());
}

/*
 * A string holding U+0000: Go keeps it whole, a C string would cut it;
 * refused, with where, on either parser's path, never cut.
 */
TEST(nul_in_a_string_is_refused_not_cut)
{
	static const char *const texts[] = {
		"{\"podUID\": \"a\\u0000b\"}",
		"[\"x\", \"\\u0000\"]",
		"{\"a\\u0000\": 1}",
	};
	struct cm_error err = { 0 };
	cJSON *j;

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		j = json_parse_text(texts[i], "t", &err);
		CHECK(!j && strstr(cm_error_msg(&err), "U+0000") &&
		      !strncmp(cm_error_msg(&err), "t:1:", 4),
		      "%s: %s", texts[i], j ? "accepted" : cm_error_msg(&err));
		cJSON_Delete(j);
		cm_error_clear(&err);
	}
	j = json_parse_text("\n\n  {\"a\": \"\\\\u0000 \\u0000\"}", "t", &err);
	CHECK(!j && strstr(cm_error_msg(&err), "t:3:18: "),
	      "%s", j ? "accepted" : cm_error_msg(&err));
	cJSON_Delete(j);
	cm_error_clear(&err);
	/* an escaped backslash before "u0000" is no NUL */
	j = json_parse_text("{\"a\": \"\\\\u0000\"}", "t", &err);
	CHECK(j && !strcmp(cJSON_GetObjectItem(j, "a")->valuestring, "\\u0000"),
	      "%s", cm_error_msg(&err));
	cJSON_Delete(j);
	cm_error_clear(&err);
}

/* Syntax errors say FILE:LINE:COLUMN, the column counted in characters. */
TEST(syntax_errors_give_line_and_column)
{
	static const struct {
		const char *text, *at;
	} cases[] = {
		{ "{\n  \"a\": [1, 2,, 3]\n}", "t:2:14: invalid JSON" },
		/* é is one character, two bytes */
		{ "{\"\xc3\xa9\": tru}", "t:1:7: invalid JSON" },
		{ "\n\n\n", "t:4:1: invalid JSON" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cm_error err = { 0 };
		cJSON *j = json_parse_text(cases[i].text, "t", &err);

		CHECK(!j && strstr(cm_error_msg(&err), cases[i].at),
		      "%s: \"%s\", want \"...%s\"", cases[i].text,
		      j ? "accepted" : cm_error_msg(&err), cases[i].at);
		cJSON_Delete(j);
		cm_error_clear(&err);
	}
}

TEST_HARNESS_MAIN
