// SPDX-License-Identifier: GPL-2.0
/*
 * What `cpumgrctl plan` reads, on its fast paths: json_load() (a mapped
 * file, or a copy when the file ends on a page boundary; the parsed
 * tree in json_load()'s own memory, given back with its last value),
 * topology records read in one walk and placed by CPU number, with the
 * same error texts as before those paths existed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "kselftest_harness.h"

#include "json_util.h"
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
		/* the first member of a name counts */
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":null,\"numa\":1}]", "topology.cpus[0].numa: required" },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":1,\"numa\":\"x\"}]", NULL },
		{ "[{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":\"x\",\"numa\":1}]",
		  "topology.cpus[0].numa: must be an integer from 0 to 8191" },
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
	EXPECT_NE(NULL, strstr(cm_error_msg(&err), ": NUL byte in JSON"));
	unlink(path);
	cm_error_clear(&err);

	/* the offset cJSON stops at, as it reports it on a string of its own */
	{
		static const char bad[] = "{\"a\": [1, 2,, 3]}";
		const char *end = NULL;
		char want[64];

		EXPECT_EQ(NULL, cJSON_ParseWithOpts(bad, &end, true));
		snprintf(want, sizeof(want), ": invalid JSON at byte %ld",
			 (long)(end - bad));
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

TEST_HARNESS_MAIN
