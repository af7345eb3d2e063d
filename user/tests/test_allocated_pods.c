// SPDX-License-Identifier: GPL-2.0
/*
 * The kubelet's allocated_pods_state (allocated_pods.h): the spec of a
 * pod it admitted with pod-level resources, nothing for the others, and
 * a file the kubelet would not load refused with its words.  The files
 * are in user/tests/data/allocated_pods (its README says where each
 * comes from); the damaged ones are made from them here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "allocated_pods.h"
#include "checkpoint.h"
#include "json_util.h"
#include "test_util.h"

#define POOL_POD	"0b1e5a44-5f3c-4c55-9a0e-000000000011"
#define PLAIN_POD	"0b1e5a44-5f3c-4c55-9a0e-000000000004"

static void data_file(const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/allocated_pods/%s", test_data_dir(), name);
}

/* A copy of data file name with its first from replaced by to. */
static void damaged(const char *name, const char *from, const char *to,
		    char *path, size_t len)
{
	char src[PATH_MAX];
	size_t n = 0;
	char *text, *at;
	FILE *f;

	data_file(name, src, sizeof(src));
	f = fopen(src, "r");
	text = f ? file_slurp(f, &n) : NULL;
	if (f)
		fclose(f);
	at = text ? strstr(text, from) : NULL;
	if (!at)
		abort();
	snprintf(path, len, "/tmp/cpumgr-allocated-%d", getpid());
	f = fopen(path, "w");
	if (!f)
		abort();
	fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	fclose(f);
	free(text);
}

static char *spec_text(const char *path, const char *uid, int *ret,
		       struct cm_error *err)
{
	cJSON *spec = NULL;
	char *text;

	*ret = allocated_pod_spec(path, uid, &spec, err);
	text = spec ? cJSON_PrintUnformatted(spec) : NULL;
	cJSON_Delete(spec);
	return text;
}

TEST(a_pod_level_pod_gets_its_spec_containers_by_name)
{
	struct cm_error err = { 0 };
	char path[PATH_MAX];
	char *text;
	int ret;

	data_file("pod-pool.json", path, sizeof(path));
	text = spec_text(path, POOL_POD, &ret, &err);
	ASSERT_EQ(0, ret) TH_LOG("%s", cm_error_msg(&err));
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("{\"resources\":{\"limits\":{\"cpu\":\"4\",\"memory\":\"1Gi\"},"
		     "\"requests\":{\"cpu\":\"4\",\"memory\":\"1Gi\"}},"
		     "\"containers\":[{\"name\":\"app\",\"resources\":"
		     "{\"limits\":{\"cpu\":\"2\",\"memory\":\"512Mi\"},"
		     "\"requests\":{\"cpu\":\"2\",\"memory\":\"512Mi\"}}},"
		     "{\"name\":\"log\",\"resources\":{\"limits\":{\"cpu\":\"1\"},"
		     "\"requests\":{\"cpu\":\"1\"}}}]}",
		     text);
	free(text);
}

TEST(other_pods_get_nothing)
{
	struct cm_error err = { 0 };
	char path[PATH_MAX];
	int ret;

	data_file("pod-pool.json", path, sizeof(path));
	/* PodLevelResources null */
	EXPECT_EQ(NULL, spec_text(path, PLAIN_POD, &ret, &err));
	EXPECT_EQ(0, ret);
	/* not in the file */
	EXPECT_EQ(NULL, spec_text(path, "0b1e5a44-0000", &ret, &err));
	EXPECT_EQ(0, ret);
	/* the kubelet's own test table: no PodLevelResources member */
	data_file("kubelet-table.json", path, sizeof(path));
	EXPECT_EQ(NULL, spec_text(path, "pod1", &ret, &err));
	EXPECT_EQ(0, ret) TH_LOG("%s", cm_error_msg(&err));
	/* no file: a kubelet before 1.33, or no pod admitted yet */
	data_file("none.json", path, sizeof(path));
	EXPECT_EQ(NULL, spec_text(path, POOL_POD, &ret, &err));
	EXPECT_EQ(0, ret);
}

TEST(v2_is_read_by_its_entries)
{
	struct cm_error err = { 0 };
	char path[PATH_MAX];
	char *text;
	int ret;

	data_file("v2.json", path, sizeof(path));
	text = spec_text(path, POOL_POD, &ret, &err);
	ASSERT_EQ(0, ret) TH_LOG("%s", cm_error_msg(&err));
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\"requests\":{\"cpu\":\"4\""));
	free(text);
}

/* Each damaged file: refused with the kubelet's words, nothing given. */
static const struct {
	const char *file, *from, *to, *want;
} bad[] = {
	{ "pod-pool.json", "\\\"cpu\\\":\\\"4\\\"", "\\\"cpu\\\":\\\"5\\\"",
	  "checkpoint is corrupted" },
	{ "pod-pool.json", "\"checksum\":639056725", "\"checksum\":-1",
	  "cannot unmarshal number -1 into Go struct field Checkpoint.checksum" },
	{ "pod-pool.json", "\"checksum\":639056725", "\"checksum\":\"639056725\"",
	  "cannot unmarshal string into Go struct field Checkpoint.checksum" },
	{ "pod-pool.json", "{\"data\":", "[", "invalid character" },
	{ "v2.json", "\"version\":\"v2\"", "\"version\":\"v3\"",
	  "unsupported checkpoint version \"v3\"" },
	{ "kubelet-table.json", "1178570812", "1178570813",
	  "checkpoint is corrupted" },
};

TEST(damaged_files_are_refused)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cm_error err = { 0 };
		char path[PATH_MAX];
		char *text;
		int ret;

		damaged(bad[i].file, bad[i].from, bad[i].to, path, sizeof(path));
		text = spec_text(path, POOL_POD, &ret, &err);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("case %zu", i);
		EXPECT_EQ(NULL, text);
		EXPECT_NE(NULL, strstr(cm_error_msg(&err), bad[i].want))
			TH_LOG("case %zu: %s", i, cm_error_msg(&err));
		/* named by its path */
		EXPECT_EQ(0, strncmp(cm_error_msg(&err), path, strlen(path)))
			TH_LOG("case %zu: %s", i, cm_error_msg(&err));
		free(text);
		unlink(path);
	}
}

/*
 * A file whose checksum holds but whose pod entry is not what the
 * kubelet writes: ContainerResources an array gives no container (the
 * kubelet's decoder would stop at it; nothing of it may be taken as a
 * name), PodLevelResources a string no spec.
 */
static const struct {
	const char *entry, *want;
} odd[] = {
	{ "{\"ContainerResources\":[1,{}],\"PodLevelResources\":{\"limits\":{\"cpu\":\"2\"}}}",
	  "{\"resources\":{\"limits\":{\"cpu\":\"2\"}},\"containers\":[]}" },
	{ "{\"ContainerResources\":{},\"PodLevelResources\":\"2\"}", NULL },
};

TEST(odd_entries_name_nothing)
{
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		struct cm_error err = { 0 };
		char data[512], path[64];
		char *text;
		int ret;
		FILE *f;

		snprintf(data, sizeof(data), "{\"entries\":{\"p\":%s}}",
			 odd[i].entry);
		snprintf(path, sizeof(path), "/tmp/cpumgr-allocated-odd-%d",
			 getpid());
		f = fopen(path, "w");
		ASSERT_NE(NULL, f);
		fputs("{\"data\":\"", f);
		for (const char *c = data; *c; c++)
			fprintf(f, *c == '"' ? "\\%c" : "%c", *c);
		fprintf(f, "\",\"checksum\":%u}",
			checkpoint_string_checksum(data, strlen(data)));
		fclose(f);
		text = spec_text(path, "p", &ret, &err);
		EXPECT_EQ(0, ret) TH_LOG("case %zu: %s", i, cm_error_msg(&err));
		if (odd[i].want) {
			EXPECT_STREQ(odd[i].want, text ? text : "(none)");
		} else {
			EXPECT_EQ(NULL, text);
		}
		free(text);
		unlink(path);
	}
}

TEST_HARNESS_MAIN
