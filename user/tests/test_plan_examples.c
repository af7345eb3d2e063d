// SPDX-License-Identifier: GPL-2.0
/*
 * Runs cpumgrctl plan over every request in examples/plan/ and compares
 * its output with the matching .expected.json byte for byte, and the
 * exit status (2 when the expectation is an error); every request must
 * say in examples/plan/README.md whether its expectation is the
 * kubelet's or a golden of cpumgrctl's own.  cpumgrctl is found next to
 * the test binary's directory ($CPUMGRCTL overrides), the examples in
 * the source tree ($CPUMGR_EXAMPLES overrides).
 */
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

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

/* The whole file, NUL-terminated, in a malloc'ed buffer (*len bytes). */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 1 >= cap) {
			char *p = realloc(buf, cap = cap ? 2 * cap : 4096);

			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * The provenance README's row for example name: "| `name` | kubelet |"
 * or "| `name` | golden |".  Returns the kind, or NULL.
 */
static const char *provenance(const char *readme, const char *name,
			      size_t name_len)
{
	static const char *const kinds[] = { "kubelet", "golden" };
	char row[PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		snprintf(row, sizeof(row), "\n| `%.*s` | %s |", (int)name_len,
			 name, kinds[i]);
		if (strstr(readme, row))
			return kinds[i];
	}
	return NULL;
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

/* A plan document whose first member is "error". */
static bool is_error(const char *doc)
{
	if (*doc++ != '{')
		return false;
	doc += strspn(doc, " \t\n");
	return !strncmp(doc, "\"error\":", 8);
}

TEST(plan_examples)
{
	const char *dir = getenv("CPUMGR_EXAMPLES") ?:
			  CPUMGR_SRC_TOP "/examples/plan";
	char ctl[PATH_MAX], path[PATH_MAX], out[] = "/tmp/cpumgr-plan-XXXXXX";
	struct dirent *de;
	int checked = 0, fd;
	DIR *d = opendir(dir);
	char *readme;
	size_t readme_len;

	if (!d)
		TH_LOG("no examples directory %s", dir);
	ASSERT_NE(NULL, d);
	snprintf(path, sizeof(path), "%s/README.md", dir);
	readme = slurp(path, &readme_len);
	if (!readme)
		TH_LOG("no %s", path);
	ASSERT_NE(NULL, readme);
	find_ctl(ctl, sizeof(ctl));
	if (access(ctl, X_OK))
		TH_LOG("no cpumgrctl at %s", ctl);
	ASSERT_EQ(0, access(ctl, X_OK));
	fd = mkstemp(out);
	ASSERT_LE(0, fd);
	close(fd);
	while ((de = readdir(d))) {
		char req[PATH_MAX], exp[PATH_MAX];
		size_t n = strlen(de->d_name), want_len = 0, got_len = 0;
		char *want, *got;
		int rc;

		if (!plan_example(dir, de->d_name, req, exp, sizeof(req)))
			continue;
		rc = run_plan(ctl, req, out);
		want = slurp(exp, &want_len);
		got = slurp(out, &got_len);
		CHECK(want, "%s: cannot read", exp);
		CHECK(want && got && want_len == got_len &&
		      !memcmp(want, got, want_len),
		      "%s: output (%zu bytes) differs from the bytes of %s (%zu)",
		      req, got_len, exp, want_len);
		/* an expected error is a top-level "error" member, first */
		CHECK(want && rc == (is_error(want) ? 2 : 0),
		      "%s: exit status %d", req, rc);
		CHECK(provenance(readme, de->d_name, n - 5),
		      "%s: no \"| `%.*s` | kubelet|golden |\" row in %s", req,
		      (int)(n - 5), de->d_name, path);
		free(want);
		free(got);
		checked++;
	}
	closedir(d);
	unlink(out);
	free(readme);
	CHECK(checked >= 9, "only %d examples found in %s", checked, dir);
}

TEST_HARNESS_MAIN
