// SPDX-License-Identifier: GPL-2.0
/*
 * init --integration (ctl_integration.c) against a stand-in systemctl, a
 * script that records its calls and keeps each unit's state in a file,
 * and a hooks.d directory, a containerd base spec and an NRI plugin
 * directory of the test's own: each choice turns the others off first,
 * a hook file naming a missing program is refused with nothing changed,
 * a node without systemctl can still choose none or the hook.  Then the
 * option on cpumgrctl init's command line, and the kubelet's policy
 * read from its files (ctl_kubelet.c): one decider.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../cpumgrctl/ctl_containerd.h"
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
	char live[160], base_spec[128], base_hooks[128], plugins[128];
	char cpumgrctl[128];
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
	/* containerd's: no base spec, no plugin directory yet */
	snprintf(self->base_spec, sizeof(self->base_spec), "%s/base-spec.json",
		 self->dir);
	snprintf(self->plugins, sizeof(self->plugins), "%s/plugins", self->dir);
	snprintf(self->cpumgrctl, sizeof(self->cpumgrctl), "%s/cpumgrctl",
		 self->dir);
	put(self->cpumgrctl, "#!/bin/sh\n", 0755);
	snprintf(self->base_hooks, sizeof(self->base_hooks),
		 "%s/cpumgr-hooks.json", self->dir);
	{
		char text[512];

		snprintf(text, sizeof(text),
			 "{\"hooks\": {\"createRuntime\": [{\"path\": \"%s\", \"args\": [\"cpumgrctl\", \"oci-hook\", \"createRuntime\"]}],"
			 " \"poststop\": [{\"path\": \"%s\", \"args\": [\"cpumgrctl\", \"oci-hook\", \"poststop\"]}]}}\n",
			 self->cpumgrctl, self->cpumgrctl);
		put(self->base_hooks, text, 0644);
	}
	self->env.base_spec = self->base_spec;
	self->env.base_hooks = self->base_hooks;
	self->env.plugin_dir = self->plugins;
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
	EXPECT_EQ(5U, n);
	EXPECT_EQ(-1, ctl_integration_parse("nri", &i, &err));
	EXPECT_STREQ("--integration: 'nri' is not one of: none nri-decide nri-guard oci-hook nri-follow",
		     cm_error_msg(&err));
	cm_error_clear(&err);
}

/* containerd's base spec: an admin's other hooks and members stay */
static const char base_spec_text[] =
	"{\"ociVersion\": \"1.1.0\", \"hooks\": {\"prestart\": [{\"path\": \"/usr/bin/other\"}],"
	" \"poststop\": [{\"path\": \"/usr/sbin/cpumgrctl\", \"args\": [\"cpumgrctl\", \"oci-hook\", \"--mode\", \"guard\", \"poststop\"]}]}}\n";

TEST_F(integ, oci_hook_owns_the_base_spec_hooks)
{
	char err[256], text[2048];
	struct stat st;

	/* no base spec: said, nothing made */
	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_OCI_HOOK, err,
			   sizeof(err)));
	EXPECT_NE(0, access(self->base_spec, F_OK));
	EXPECT_NE(NULL, strstr(self->log_text, "containerd has no cpumgr hooks"));

	/* an old hook of cpumgr's replaced, the other kept */
	put(self->base_spec, base_spec_text, 0640);
	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_OCI_HOOK, err,
			   sizeof(err)));
	slurp(self->base_spec, text, sizeof(text));
	CHECK(strstr(text, "/usr/bin/other") && strstr(text, "\"1.1.0\"") &&
	      !strstr(text, "\"guard\"") && strstr(text, "createRuntime") &&
	      strstr(text, self->cpumgrctl), "%s", text);
	EXPECT_TRUE(ctl_base_spec_has_hooks(self->base_spec));
	ASSERT_EQ(0, stat(self->base_spec, &st));
	EXPECT_EQ(0640U, st.st_mode & 07777);

	/* any other way: cpumgr's hooks go, the rest stays */
	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_NRI_DECIDE, err,
			   sizeof(err)));
	slurp(self->base_spec, text, sizeof(text));
	CHECK(strstr(text, "/usr/bin/other") && !strstr(text, "cpumgrctl") &&
	      !strstr(text, "poststop"), "%s", text);
	EXPECT_FALSE(ctl_base_spec_has_hooks(self->base_spec));
	EXPECT_NE(NULL, strstr(self->log_text, "removed cpumgr's hooks from"));
	EXPECT_NE(NULL, strstr(self->log_text, "restart it"));

	/* a base spec that is no JSON: refused, left as it is */
	put(self->base_spec, "{", 0644);
	EXPECT_EQ(-1, apply(_metadata, self, CTL_INTEGRATION_NONE, err,
			    sizeof(err)));
	CHECK(strstr(err, "containerd's base spec") && strstr(err, ":1:2: invalid JSON"),
	      "%s", err);
	slurp(self->base_spec, text, sizeof(text));
	EXPECT_STREQ("{", text);
}

TEST_F(integ, every_way_removes_a_plugin_the_runtime_launches)
{
	char err[256], path[256], show[1024];
	size_t len = 0;
	char *out = NULL;
	FILE *f;

	ASSERT_EQ(0, mkdir(self->plugins, 0755));
	snprintf(path, sizeof(path), "%s/10-cpumgr", self->plugins);
	ASSERT_EQ(0, symlink("/usr/sbin/cpumgrctl", path));
	snprintf(path, sizeof(path), "%s/20-cpumgr-guard", self->plugins);
	put(path, "#!/bin/sh\nexec /usr/sbin/cpumgrctl nri --mode guard\n", 0755);
	/* not cpumgr's: another plugin, a name that only looks like it */
	snprintf(path, sizeof(path), "%s/30-other", self->plugins);
	put(path, "#!/bin/sh\n", 0755);
	snprintf(path, sizeof(path), "%s/40-cpumgrx", self->plugins);
	ASSERT_EQ(0, symlink("/usr/sbin/cpumgrctl", path));

	f = open_memstream(&out, &len);
	EXPECT_EQ(2U, ctl_integration_show(&self->env, f));
	fclose(f);
	snprintf(show, sizeof(show), "%s", out);
	free(out);
	CHECK(strstr(show, "/10-cpumgr: an NRI plugin") &&
	      strstr(show, "/20-cpumgr-guard: an NRI plugin"), "%s", show);

	ASSERT_EQ(0, apply(_metadata, self, CTL_INTEGRATION_NRI_GUARD, err,
			   sizeof(err)));
	snprintf(path, sizeof(path), "%s/10-cpumgr", self->plugins);
	EXPECT_EQ(-1, faccessat(AT_FDCWD, path, F_OK, AT_SYMLINK_NOFOLLOW));
	snprintf(path, sizeof(path), "%s/20-cpumgr-guard", self->plugins);
	EXPECT_NE(0, access(path, F_OK));
	snprintf(path, sizeof(path), "%s/30-other", self->plugins);
	EXPECT_EQ(0, access(path, F_OK));
	snprintf(path, sizeof(path), "%s/40-cpumgrx", self->plugins);
	EXPECT_EQ(0, faccessat(AT_FDCWD, path, F_OK, AT_SYMLINK_NOFOLLOW));
	EXPECT_NE(NULL, strstr(self->log_text, "/10-cpumgr (an NRI plugin the runtime launched"));

	/* what is live now: the guard unit alone */
	out = NULL;
	f = open_memstream(&out, &len);
	EXPECT_EQ(1U, ctl_integration_show(&self->env, f));
	fclose(f);
	EXPECT_STREQ("cpumgr-nri@guard.service: enabled, active\n", out);
	free(out);
	/* nri-follow is the caller's to resolve */
	EXPECT_EQ(-1, apply(_metadata, self, CTL_INTEGRATION_NRI_FOLLOW, err,
			    sizeof(err)));
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
	/* the rest unread would end the writer with SIGPIPE */
	while (fgetc(p) != EOF)
		;
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
	EXPECT_STREQ("cpumgrctl: init: --integration: 'nri' is not one of: none nri-decide nri-guard oci-hook nri-follow\n",
		     out);
	EXPECT_EQ(2, run_ctl("init --dry-run --integration oci-hook --state-dir /tmp/x",
			     out, sizeof(out)));
	EXPECT_STREQ("cpumgrctl: init: --integration needs the state directory /var/lib/cpumgr, not /tmp/x\n",
		     out);
	EXPECT_EQ(0, run_ctl("init --dry-run --integration none --state-dir /tmp/x",
			     out, sizeof(out)));
	EXPECT_EQ(0, run_ctl("init --help", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "--integration none|nri-decide|nri-guard|oci-hook|nri-follow"));
}

/*
 * One decider: init and nri read the kubelet's configuration and
 * checkpoint; decide is refused (exit 2, the way out named) while it
 * runs static; nri-follow picks guard then, decide otherwise.
 */
TEST(a_static_kubelet_is_the_only_decider)
{
	char dir[] = "/tmp/cpumgr-kubelet-XXXXXX", cfg[128], cp[128];
	char none[128], args[1024], out[4096];
	static const char kc[] = "kind: KubeletConfiguration\n"
		"apiVersion: kubelet.config.k8s.io/v1beta1\n"
		"cpuManagerPolicy: %s\nreservedSystemCPUs: \"0\"\n";
	char text[256];

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cfg, sizeof(cfg), "%s/config.yaml", dir);
	snprintf(cp, sizeof(cp), "%s/cpu_manager_state", dir);
	snprintf(none, sizeof(none), "%s/none", dir);

	/* no kubelet files: decide is fine, follow is decide */
	snprintf(args, sizeof(args), "init --dry-run --integration nri-follow --kubelet-config %s --kubelet-state %s",
		 none, none);
	EXPECT_EQ(0, run_ctl(args, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "integration: nri-follow: nri-decide (no kubelet configuration or checkpoint)"));

	/* the configuration says static */
	snprintf(text, sizeof(text), kc, "static");
	put(cfg, text, 0644);
	snprintf(args, sizeof(args), "init --dry-run --integration nri-decide --kubelet-config %s --kubelet-state %s",
		 cfg, none);
	EXPECT_EQ(2, run_ctl(args, out, sizeof(out)));
	CHECK(strstr(out, "cpumgrctl: init: --integration nri-decide: the kubelet runs the static policy") &&
	      strstr(out, "cpuManagerPolicy \"static\"") && strstr(out, "drain the node") &&
	      strstr(out, "--integration nri-guard") && !strchr(out, '\n')[1],
	      "%s", out);
	snprintf(args, sizeof(args), "init --dry-run --integration oci-hook --kubelet-config %s --kubelet-state %s",
		 cfg, none);
	EXPECT_EQ(2, run_ctl(args, out, sizeof(out)));
	snprintf(args, sizeof(args), "init --dry-run --integration nri-follow --kubelet-config %s --kubelet-state %s",
		 cfg, none);
	EXPECT_EQ(0, run_ctl(args, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "dry run: integration nri-guard\n"));
	/* guard and none are no second decider */
	snprintf(args, sizeof(args), "init --dry-run --integration nri-guard --kubelet-config %s --kubelet-state %s",
		 cfg, none);
	EXPECT_EQ(0, run_ctl(args, out, sizeof(out)));

	/* none configured, but the checkpoint says it ran static */
	snprintf(text, sizeof(text), kc, "none");
	put(cfg, text, 0644);
	put(cp, "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-7\",\"checksum\":1}", 0644);
	snprintf(args, sizeof(args), "init --dry-run --integration nri-decide --kubelet-config %s --kubelet-state %s",
		 cfg, cp);
	EXPECT_EQ(2, run_ctl(args, out, sizeof(out)));
	CHECK(strstr(out, "policyName \"static\"") && strstr(out, cp), "%s", out);
	/* the plugin itself refuses decide, before it connects anywhere */
	snprintf(args, sizeof(args), "nri --socket %s --kubelet-config %s --kubelet-state %s",
		 none, cfg, cp);
	EXPECT_EQ(2, run_ctl(args, out, sizeof(out)));
	CHECK(strstr(out, "cpumgrctl: nri: --mode decide: the kubelet runs the static policy") &&
	      strstr(out, "--mode guard (or follow)"), "%s", out);

	/* a checkpoint that says none, a configuration that says none */
	put(cp, "{\"policyName\":\"none\",\"defaultCpuSet\":\"0-7\",\"checksum\":1}", 0644);
	snprintf(args, sizeof(args), "init --dry-run --integration nri-follow --kubelet-config %s --kubelet-state %s",
		 cfg, cp);
	EXPECT_EQ(0, run_ctl(args, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "nri-follow: nri-decide"));

	/* a checkpoint nobody can read: nobody can tell, decide is refused */
	put(cp, "{\"policyName\": ", 0644);
	snprintf(args, sizeof(args), "init --dry-run --integration nri-decide --kubelet-config %s --kubelet-state %s",
		 cfg, cp);
	EXPECT_EQ(1, run_ctl(args, out, sizeof(out)));
	CHECK(strstr(out, "cannot tell whether the kubelet decides") &&
	      strstr(out, ":1:16: unexpected end of JSON input"), "%s", out);

	unlink(cfg);
	unlink(cp);
	rmdir(dir);
}

TEST_HARNESS_MAIN
