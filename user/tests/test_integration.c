// SPDX-License-Identifier: GPL-2.0
/*
 * init --integration (ctl_integration.c) against a stand-in systemctl, a
 * script that records its calls and keeps each unit's state in a file,
 * and a hooks.d directory of the test's own: each choice turns the
 * others off first, a hook file naming a missing program is refused with
 * nothing changed, a node without systemctl can still choose none or the
 * hook.  Then the option on cpumgrctl init's command line.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../cpumgrctl/ctl_integration.h"
#include "test_util.h"

/* is-enabled/is-active: 0 when DIR/on-UNIT exists; enable fails when DIR/broken does */
static const char fake_systemctl[] =
	"#!/bin/sh\n"
	"d=$(dirname \"$0\")\n"
	"echo \"$*\" >>\"$d/calls\"\n"
	"case $1 in\n"
	"is-enabled|is-active) [ -e \"$d/on-$3\" ] ;;\n"
	"enable) [ ! -e \"$d/broken\" ] && touch \"$d/on-$3\" ;;\n"
	"disable) rm -f \"$d/on-$3\" ;;\n"
	"*) exit 9 ;;\n"
	"esac\n";

FIXTURE(integ) {
	char dir[64], ctl[128], calls[128], hook_src[128], hook_dir[128];
	char live[160];
	struct ctl_integration_env env;
	FILE *log;
	char *log_text;
	size_t log_len;
};

static void put(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

/* the file's text, "" when it is missing */
static void slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

FIXTURE_SETUP(integ)
{
	strcpy(self->dir, "/tmp/cpumgr-integ-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->ctl, sizeof(self->ctl), "%s/systemctl", self->dir);
	snprintf(self->calls, sizeof(self->calls), "%s/calls", self->dir);
	snprintf(self->hook_src, sizeof(self->hook_src), "%s/cpumgr.json",
		 self->dir);
	/* a directory a fresh node does not have yet */
	snprintf(self->hook_dir, sizeof(self->hook_dir),
		 "%s/etc/containers/oci/hooks.d", self->dir);
	snprintf(self->live, sizeof(self->live), "%s/cpumgr.json",
		 self->hook_dir);
	put(self->ctl, fake_systemctl, 0755);
	put(self->hook_src, "{\"version\": \"1.0.0\", \"hook\": {\"path\": \"/bin/sh\"}}\n",
	    0644);
	self->env.systemctl = self->ctl;
	self->env.hook_src = self->hook_src;
	self->env.hook_dir = self->hook_dir;
	self->log = open_memstream(&self->log_text, &self->log_len);
}

FIXTURE_TEARDOWN(integ)
{
	char cmd[128];

	fclose(self->log);
	free(self->log_text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->dir);
}

static int apply(struct __test_metadata *_metadata,
		 FIXTURE_DATA(integ) *self, enum ctl_integration which,
		 char *err_msg, size_t len)
{
	struct cm_error err = { 0 };
	int ret;

	unlink(self->calls);
	ret = ctl_integration_apply(which, &self->env, self->log, &err);
	fflush(self->log);
	snprintf(err_msg, len, "%s", cm_error_msg(&err));
	cm_error_clear(&err);
	return ret;
}

TEST(names_parse_back)
{
	struct cm_error err = { 0 };
	enum ctl_integration i;
	unsigned int n;

	for (n = 0; ctl_integration_name(n); n++) {
		ASSERT_EQ(0, ctl_integration_parse(ctl_integration_name(n), &i,
						   &err));
		EXPECT_EQ(n, i);
	}
	EXPECT_EQ(4U, n);
	EXPECT_EQ(-1, ctl_integration_parse("nri", &i, &err));
	EXPECT_STREQ("--integration: 'nri' is not one of: none nri-decide nri-guard oci-hook",
		     cm_error_msg(&err));
	cm_error_clear(&err);
}

TEST_F(integ, nri_modes_replace_each_other)
{
	char calls[1024], err[256], on[160];

	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_NRI_DECIDE, err,
			   sizeof(err)));
	slurp(self->calls, calls, sizeof(calls));
	/* guard is off already: only looked at */
	EXPECT_STREQ("is-enabled --quiet cpumgr-nri@guard.service\n"
		     "is-active --quiet cpumgr-nri@guard.service\n"
		     "enable --now cpumgr-nri@decide.service\n", calls);

	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_NRI_GUARD, err,
			   sizeof(err)));
	slurp(self->calls, calls, sizeof(calls));
	/* decide goes before guard comes */
	EXPECT_STREQ("is-enabled --quiet cpumgr-nri@decide.service\n"
		     "disable --now cpumgr-nri@decide.service\n"
		     "enable --now cpumgr-nri@guard.service\n", calls);
	snprintf(on, sizeof(on), "%s/on-cpumgr-nri@decide.service", self->dir);
	EXPECT_NE(0, access(on, F_OK));
	EXPECT_NE(NULL, strstr(self->log_text,
			       "integration: disabled and stopped cpumgr-nri@decide.service"));

	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_NONE, err,
			   sizeof(err)));
	snprintf(on, sizeof(on), "%s/on-cpumgr-nri@guard.service", self->dir);
	EXPECT_NE(0, access(on, F_OK));
}

TEST_F(integ, oci_hook_replaces_nri_and_none_removes_it)
{
	char calls[1024], err[256], text[256], src[256];

	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_NRI_DECIDE, err,
			   sizeof(err)));
	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_OCI_HOOK, err,
			   sizeof(err)));
	slurp(self->calls, calls, sizeof(calls));
	EXPECT_NE(NULL, strstr(calls, "disable --now cpumgr-nri@decide.service\n"));
	EXPECT_EQ(NULL, strstr(calls, "enable --now"));
	slurp(self->live, text, sizeof(text));
	slurp(self->hook_src, src, sizeof(src));
	EXPECT_STREQ(src, text);

	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_NONE, err,
			   sizeof(err)));
	EXPECT_NE(0, access(self->live, F_OK));
	EXPECT_NE(NULL, strstr(self->log_text, "integration: removed "));
}

TEST_F(integ, hook_naming_a_missing_program_changes_nothing)
{
	char err[256];

	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_NRI_DECIDE, err,
			   sizeof(err)));
	/* the file: a path the package does not install */
	put(self->hook_src, "{\"hook\": {\"path\": \"/usr/local/bin/cpumgrctl-nowhere\"}}",
	    0644);
	EXPECT_EQ(-1, apply(_metadata, self, CTL_INTEGRATION_OCI_HOOK, err,
			    sizeof(err)));
	CHECK(strstr(err, "hook.path /usr/local/bin/cpumgrctl-nowhere: No such file"),
	      "%s", err);
	/* nothing asked of systemctl, nothing installed */
	EXPECT_NE(0, access(self->calls, F_OK));
	EXPECT_NE(0, access(self->live, F_OK));

	put(self->hook_src, "{\"hook\": {}}", 0644);
	EXPECT_EQ(-1, apply(_metadata, self, CTL_INTEGRATION_OCI_HOOK, err,
			    sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "no hook.path"));
	unlink(self->hook_src);
	EXPECT_EQ(-1, apply(_metadata, self, CTL_INTEGRATION_OCI_HOOK, err,
			    sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "the hook file cpumgr installs"));
}

TEST_F(integ, failures_of_systemctl_are_errors)
{
	char err[256], broken[128];

	snprintf(broken, sizeof(broken), "%s/broken", self->dir);
	put(broken, "", 0644);
	EXPECT_EQ(-1, apply(_metadata, self, CTL_INTEGRATION_NRI_GUARD, err,
			    sizeof(err)));
	EXPECT_STREQ("systemctl enable --now cpumgr-nri@guard.service failed",
		     err);

	/* no systemd: nothing of it to turn off, nothing to turn on */
	self->env.systemctl = "/nonexistent/systemctl";
	EXPECT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_OCI_HOOK, err,
			   sizeof(err)));
	EXPECT_EQ(0, access(self->live, F_OK));
	EXPECT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_NONE, err,
			   sizeof(err)));
	EXPECT_EQ(-1, apply(_metadata, self, CTL_INTEGRATION_NRI_DECIDE, err,
			    sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "no systemctl"));
}

/* cpumgrctl (next to this test's directory) ARGS: exit status, output */
static int run_ctl(const char *args, char *out, size_t size)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 256];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t len;
	FILE *p;
	int st;

	if (n < 0)
		abort();
	exe[n] = '\0';
	/* build/user/tests/test_integration -> build/user/cpumgrctl */
	*strrchr(exe, '/') = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(cmd, sizeof(cmd), "env -u CPUMGR_STATE_DIR %s/cpumgrctl %s 2>&1",
		 exe, args);
	p = popen(cmd, "r");
	if (!p)
		abort();
	len = fread(out, 1, size - 1, p);
	out[len] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(init_takes_the_option)
{
	char out[16384];

	EXPECT_EQ(0, run_ctl("init --dry-run --integration nri-guard", out,
			     sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "dry run: integration nri-guard\n"));
	/* bad input: one line, usage status, before anything else */
	EXPECT_EQ(2, run_ctl("init --integration nri", out, sizeof(out)));
	EXPECT_STREQ("cpumgrctl: init: --integration: 'nri' is not one of: none nri-decide nri-guard oci-hook\n",
		     out);
	EXPECT_EQ(2, run_ctl("init --dry-run --integration oci-hook --state-dir /tmp/x",
			     out, sizeof(out)));
	EXPECT_STREQ("cpumgrctl: init: --integration needs the state directory /var/lib/cpumgr, not /tmp/x\n",
		     out);
	EXPECT_EQ(0, run_ctl("init --dry-run --integration none --state-dir /tmp/x",
			     out, sizeof(out)));
	EXPECT_EQ(0, run_ctl("init --help", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "--integration none|nri-decide|nri-guard|oci-hook"));
}

TEST_HARNESS_MAIN
