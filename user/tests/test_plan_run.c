// SPDX-License-Identifier: GPL-2.0
/*
 * plan_run() in-process, no cpumgrctl: every request of examples/plan/
 * gives the bytes of its .expected.json (cJSON's layout and a newline,
 * as cpumgrctl prints it; {"error": message} for a request that fails),
 * and a request that is not an object fails with one message.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "kselftest_harness.h"

#include "json_util.h"
#include "plan.h"
#include "test_util.h"

static char *read_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf;

	if (!f)
		return NULL;
	buf = file_slurp(f, len);
	fclose(f);
	return buf;
}

/* What cpumgrctl plan prints for req: the result or {"error": ...}. */
static char *run(const char *req_path)
{
	struct cm_error err = { 0 };
	cJSON *req = json_load(req_path, &err), *res = NULL;
	char *text, *line = NULL;

	if (req)
		res = plan_run(req, &err);
	if (!res) {
		res = cJSON_CreateObject();
		cJSON_AddStringToObject(res, "error", cm_error_msg(&err));
	}
	text = cJSON_Print(res);
	if (text && asprintf(&line, "%s\n", text) < 0)
		line = NULL;
	free(text);
	cJSON_Delete(res);
	cJSON_Delete(req);
	cm_error_clear(&err);
	return line;
}

TEST(examples_in_process)
{
	const char *dir = getenv("CPUMGR_EXAMPLES") ?:
			  CPUMGR_SRC_TOP "/examples/plan";
	DIR *d = opendir(dir);
	struct dirent *de;
	int checked = 0;

	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		char req[PATH_MAX], exp[PATH_MAX];
		size_t want_len = 0;
		char *want, *got;

		if (!plan_example(dir, de->d_name, req, exp, sizeof(req)))
			continue;
		want = read_text(exp, &want_len);
		got = run(req);
		CHECK(want && got && strlen(got) == want_len &&
		      !memcmp(want, got, want_len),
		      "%s: plan_run() gave\n%s\nnot the bytes of %s", req,
		      got ? got : "(nothing)", exp);
		free(want);
		free(got);
		checked++;
	}
	closedir(d);
	CHECK(checked >= 9, "only %d examples found in %s", checked, dir);
}

TEST(not_an_object)
{
	struct cm_error err = { 0 };
	cJSON *req = cJSON_Parse("[1]");

	ASSERT_NE(NULL, req);
	EXPECT_EQ(NULL, plan_run(req, &err));
	EXPECT_STREQ("the request must be a JSON object", cm_error_msg(&err));
	cJSON_Delete(req);
	cm_error_clear(&err);
}

/* A take needs no file: the request and its answer as text. */
TEST(take_from_text)
{
	static const char req_text[] =
		"{\"topology\":{\"cpus\":["
		"{\"cpu\":0,\"core\":0,\"socket\":0,\"numa\":0},"
		"{\"cpu\":1,\"core\":1,\"socket\":0,\"numa\":0},"
		"{\"cpu\":2,\"core\":2,\"socket\":0,\"numa\":0},"
		"{\"cpu\":3,\"core\":3,\"socket\":0,\"numa\":0}]},"
		"\"available\":\"1-3\",\"count\":2}";
	struct cm_error err = { 0 };
	cJSON *req = cJSON_Parse(req_text), *res;
	char *text;

	ASSERT_NE(NULL, req);
	res = plan_run(req, &err);
	ASSERT_NE(NULL, res) TH_LOG("%s", cm_error_msg(&err));
	text = cJSON_PrintUnformatted(res);
	EXPECT_STREQ("{\"cpus\":\"1-2\"}", text);
	free(text);
	cJSON_Delete(res);
	cJSON_Delete(req);
}

TEST_HARNESS_MAIN
