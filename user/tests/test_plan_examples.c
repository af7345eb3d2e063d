// SPDX-License-Identifier: GPL-2.0
/*
 * Runs cpumgrctl plan over every request in examples/plan/ and compares
 * its output with the matching .expected.json (as JSON, and the exit
 * status: 2 when the expectation is an error).  cpumgrctl is found next
 * to the test binary's directory ($CPUMGRCTL overrides), the examples
 * under the current directory ($CPUMGR_EXAMPLES overrides).
 */
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cJSON.h>

#include "kselftest_harness.h"

#include "json_util.h"
#include "test_util.h"

static void find_ctl(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;

	if (getenv("CPUMGRCTL")) {
		snprintf(out, len, "%s", getenv("CPUMGRCTL"));
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	snprintf(out, len, "%s/../cpumgrctl", dirname(exe));
}

/* Run "ctl plan req" with stdout into a file; returns the exit status. */
static int run_plan(const char *ctl, const char *req, const char *out)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (!freopen(out, "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execl(ctl, ctl, "plan", req, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(plan_examples)
{
	const char *dir = getenv("CPUMGR_EXAMPLES") ?: "examples/plan";
	char ctl[PATH_MAX], out[] = "/tmp/cpumgr-plan-XXXXXX";
	struct dirent *de;
	int checked = 0, fd;
	DIR *d = opendir(dir);

	if (!d)
		TH_LOG("no examples directory %s", dir);
	ASSERT_NE(NULL, d);
	find_ctl(ctl, sizeof(ctl));
	if (access(ctl, X_OK))
		TH_LOG("no cpumgrctl at %s", ctl);
	ASSERT_EQ(0, access(ctl, X_OK));
	fd = mkstemp(out);
	ASSERT_LE(0, fd);
	close(fd);
	while ((de = readdir(d))) {
		char req[PATH_MAX], exp[PATH_MAX];
		struct cm_error err = { 0 };
		size_t n = strlen(de->d_name);
		cJSON *want, *got;
		int rc;

		if (n < 6 || strcmp(de->d_name + n - 5, ".json") ||
		    strstr(de->d_name, ".expected.json"))
			continue;
		snprintf(req, sizeof(req), "%s/%s", dir, de->d_name);
		snprintf(exp, sizeof(exp), "%s/%.*s.expected.json", dir,
			 (int)(n - 5), de->d_name);
		rc = run_plan(ctl, req, out);
		want = json_load(exp, &err);
		got = json_load(out, &err);
		CHECK(want && got && cJSON_Compare(want, got, true),
		      "%s: output differs from %s", req, exp);
		CHECK(want && rc == (cJSON_GetObjectItem(want, "error") ? 2 : 0),
		      "%s: exit status %d", req, rc);
		cJSON_Delete(want);
		cJSON_Delete(got);
		cm_error_clear(&err);
		checked++;
	}
	closedir(d);
	unlink(out);
	CHECK(checked >= 9, "only %d examples found in %s", checked, dir);
}

TEST_HARNESS_MAIN
