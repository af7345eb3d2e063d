// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl's command line, on the host (no module): every subcommand's
 * --help, --version, the global options, help's two sections, exit
 * codes, init --dry-run and KubeletConfiguration typos, checkpoint
 * verify without a node; and the library parts behind them: the lock
 * wait that says at once whom it waits for, unknown KubeletConfiguration
 * fields.  The binary is the cpumgrctl next to this test's directory
 * (build/user/cpumgrctl).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "checkpoint.h"
#include "json_util.h"
#include "kubeletconfig.h"
#include "test_util.h"

struct run {
	int status;		/* exit status, -1 if it did not exit */
	char out[32768], err[4096];
};

static const char *ctl_path(void)
{
	static char path[PATH_MAX + 16];
	char exe[PATH_MAX];
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		abort();
	exe[n] = '\0';
	/* build/user/tests/test_cli -> build/user/cpumgrctl */
	*strrchr(exe, '/') = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(path, sizeof(path), "%s/cpumgrctl", exe);
	return path;
}

/* The checkout's user/tests/data, wherever the test runs from. */
static const char *data_dir(void)
{
	static char path[PATH_MAX + 64];
	const char *env = getenv("CPUMGR_TEST_DATA");

	if (env)
		return env;
	/* build/user/cpumgrctl -> build/user/../../user/tests/data */
	snprintf(path, sizeof(path), "%s", ctl_path());
	*strrchr(path, '/') = '\0';
	strcat(path, "/../../user/tests/data");
	return access(path, F_OK) ? "user/tests/data" : path;
}

static void slurp_fd(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	char more;

	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	/* an output cut short would fail a check for the wrong reason */
	if (len + 1 == size && read(fd, &more, 1) > 0) {
		fprintf(stderr, "test_cli: an output of more than %zu bytes\n",
			size - 1);
		abort();
	}
	close(fd);
}

/* cpumgrctl ARGS... (NULL-terminated), no state directory unless env. */
static void ctl(struct run *r, const char *state_dir, ...)
{
	char out_name[] = "/tmp/cpumgr-cli-out.XXXXXX";
	char err_name[] = "/tmp/cpumgr-cli-err.XXXXXX";
	const char *argv[32] = { "cpumgrctl" };
	int out = mkstemp(out_name), err = mkstemp(err_name), st;
	unsigned int i = 1;
	va_list ap;
	pid_t pid;

	if (out < 0 || err < 0)
		abort();
	unlink(out_name);
	unlink(err_name);
	va_start(ap, state_dir);
	while (i < 31 && (argv[i] = va_arg(ap, const char *)))
		i++;
	va_end(ap);
	argv[i] = NULL;
	pid = fork();
	if (pid == 0) {
		dup2(out, 1);
		dup2(err, 2);
		setenv("CPUMGR_STATE_DIR", state_dir ?: "/nonexistent/cpumgr",
		       1);
		execv(ctl_path(), (char **)argv);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	lseek(out, 0, SEEK_SET);
	lseek(err, 0, SEEK_SET);
	slurp_fd(out, r->out, sizeof(r->out));
	slurp_fd(err, r->err, sizeof(r->err));
}

/* the end of ctl()'s arguments, typed (a bare NULL may be an int) */
#define END ((const char *)NULL)
#define RUN(r, ...) ctl(r, NULL, __VA_ARGS__, END)

/* The first word matching fmt of each line of out, into names. */
static unsigned int scan(char *out, const char *fmt, char names[][48],
			 unsigned int max)
{
	unsigned int n = 0;
	char *line, *save = NULL;

	for (line = strtok_r(out, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, fmt, names[n]) == 1)
			n++;
	return n;
}

/* The subcommand names, from help's listing. */
static unsigned int commands(char names[][48], unsigned int max)
{
	struct run r;

	RUN(&r, "help");
	return scan(r.out, "  cpumgrctl %47[a-z-]", names, max);
}

TEST(every_subcommand_answers_help_on_stdout)
{
	char names[64][48];
	unsigned int n = commands(names, 64);
	struct run r;

	CHECK(n >= 20, "help lists %u commands", n);
	for (unsigned int i = 0; i < n; i++) {
		ctl(&r, NULL, names[i], "--help", END);
		CHECK(r.status == 0 && strstr(r.out, "usage:") &&
		      strstr(r.out, names[i]) && !r.err[0],
		      "%s --help: status %d, out '%s', err '%s'", names[i],
		      r.status, r.out, r.err);
	}
	/* after other arguments too, and as "help COMMAND" */
	RUN(&r, "admit", "pod.json", "--help");
	CHECK(r.status == 0 && strstr(r.out, "cpumgrctl admit"), "%s", r.err);
	RUN(&r, "help", "reset");
	CHECK(r.status == 0 && strstr(r.out, "cpumgrctl reset"), "%s", r.err);
	RUN(&r, "help", "nosuch");
	EXPECT_EQ(2, r.status);
	/* the guide's synopses: a Markdown code block, continued under it */
	RUN(&r, "help", "--md", "status", "table");
	CHECK(r.status == 0 &&
	      !strncmp(r.out, "    cpumgrctl status [-j|--json] [--ready node|nri]", 51) &&
	      strstr(r.out, "\n    cpumgrctl table [-j|--json]\n"), "%s", r.out);
	RUN(&r, "help", "--md", "init");
	CHECK(strstr(r.out, "\n                   [-c|--config KUBELETCONFIG]"), "%s",
	      r.out);
	RUN(&r, "help", "--md");
	CHECK(r.status == 0 && strstr(r.out, "### init\n\nConfigure the node's") &&
	      strstr(r.out, "- `--ready` `node`|`nri`: a probe"), "%.300s", r.out);
	RUN(&r, "help", "--md", "nosuch");
	EXPECT_EQ(2, r.status);
}

TEST(help_has_a_node_and_a_kernel_table_section)
{
	static const char *const node_cmds[] = {
		"cpumgrctl admit", "cpumgrctl init", "cpumgrctl remove",
	};
	const char *node, *kernel;
	struct run r;

	RUN(&r, "help");
	ASSERT_EQ(0, r.status);
	node = strstr(r.out, "The node's CPU manager");
	kernel = strstr(r.out, "The module's table");
	ASSERT_TRUE(node && kernel && node < kernel);
	/* the node's commands first, the kernel's verbs after */
	for (size_t i = 0; i < ARRAY_SIZE(node_cmds); i++) {
		const char *at = strstr(node, node_cmds[i]);

		CHECK(at && at < kernel, "%s", node_cmds[i]);
	}
	EXPECT_TRUE(strstr(r.out, "cpumgrctl table") > kernel);
	/* "state", the table's older name, runs it but is not listed */
	EXPECT_EQ(NULL, strstr(r.out, "cpumgrctl state"));
	RUN(&r, "help", "state");
	CHECK(r.status == 0 && strstr(r.out, "cpumgrctl table [-j|--json]"), "%s",
	      r.out);
	RUN(&r, "help");
	kernel = strstr(r.out, "The module's table");
	EXPECT_TRUE(strstr(r.out, "cpumgrctl assign") > kernel);
	EXPECT_TRUE(strstr(r.out, "cpumgrctl configure") > kernel);
	EXPECT_TRUE(strstr(r.out, "cpumgrctl release") > kernel);
	EXPECT_TRUE(strstr(r.out, "cpumgrctl bind") > kernel);
	EXPECT_TRUE(strstr(r.out, "3 audit found offenders") != NULL);
}

TEST(version_and_global_options)
{
	struct run r;
	cJSON *j;

	RUN(&r, "--version");
	CHECK(r.status == 0 && !strncmp(r.out, "cpumgrctl ", 10), "%s", r.out);
	RUN(&r, "-j", "--version");
	j = cJSON_Parse(r.out);
	CHECK(r.status == 0 && j &&
	      cJSON_IsString(cJSON_GetObjectItem(j, "cpumgrctl")) &&
	      cJSON_GetObjectItem(j, "module"), "%s", r.out);
	cJSON_Delete(j);
	RUN(&r, "--json", "version");
	EXPECT_EQ(0, r.status);
	EXPECT_EQ('\n', r.out[strlen(r.out) - 1]);
	/* a command with no JSON output, an unknown option: bad input */
	RUN(&r, "-j", "assign", "p", "c", "1");
	CHECK(r.status == 2 && strstr(r.err, "no JSON"), "%d %s", r.status,
	      r.err);
	RUN(&r, "--bogus", "status");
	EXPECT_EQ(2, r.status);
	RUN(&r, "nosuch");
	EXPECT_EQ(2, r.status);
	RUN(&r, "admit", "--bogus");
	EXPECT_EQ(2, r.status);
	/* --state-dir before the command is the command's state directory */
	RUN(&r, "--state-dir", "/nonexistent/elsewhere", "status");
	CHECK(r.status == 1 && strstr(r.err, "/nonexistent/elsewhere"),
	      "%d %s", r.status, r.err);
}

/* cpumgrctl help --complete CMD: "opt --LONG -S KIND [VALUES]" lines */
static unsigned int options_of(const char *cmd, char opts[][48],
			       unsigned int max)
{
	struct run r;

	RUN(&r, "help", "--complete", cmd);
	return scan(r.out, "opt %47s", opts, max);
}

/* Every option of the table in --help, with a description; an example. */
TEST(help_lists_every_option_and_an_example)
{
	char names[64][48], opts[40][48];
	unsigned int n = commands(names, 64);
	struct run r;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = options_of(names[i], opts, 40);

		ctl(&r, NULL, names[i], "--help", END);
		CHECK(strstr(r.out, "\nexample:\n  cpumgrctl "), "%s: no example:\n%s",
		      names[i], r.out);
		CHECK(k == 0 || strstr(r.out, "\noptions:\n"), "%s", names[i]);
		for (unsigned int j = 0; j < k; j++) {
			const char *at;

			/* "--name", then a description on its line or the next */
			at = strstr(strstr(r.out, "\noptions:\n") ?: r.out, opts[j]);
			CHECK(at && strlen(at) > strlen(opts[j]) + 10,
			      "%s --help lacks %s", names[i], opts[j]);
		}
	}
	/* the kubelet flags init took but named nowhere */
	RUN(&r, "init", "--help");
	EXPECT_NE(NULL, strstr(r.out, "--cgroup-mount PATH"));
	EXPECT_NE(NULL, strstr(r.out, "--cpu-manager-reconcile-period DURATION"));
	/* values where an option takes a few */
	RUN(&r, "help", "--complete", "init");
	EXPECT_NE(NULL, strstr(r.out, "opt --enforce - word off audit enforce\n"));
	EXPECT_NE(NULL, strstr(r.out, "opt --config -c file\n"));
	RUN(&r, "help", "--complete", "oci-hook");
	EXPECT_NE(NULL, strstr(r.out, "arg 1 word createRuntime prestart poststop\n"));
}

/*
 * -j/--json before the command or after it, for every command that has
 * JSON; an error that is not about JSON shows the option was taken.
 */
TEST(json_anywhere)
{
	static const char *const cmds[][3] = {
		{ "status" }, { "audit" }, { "metrics" }, { "table" },
		{ "dump" }, { "events" }, { "topology" },
		{ "admit", "/nonexistent/pod.json" },
		{ "hints", "/nonexistent/pod.json" },
		{ "checkpoint", "verify", "/nonexistent/cp" },
	};
	static const char *const flags[] = { "-j", "--json" };
	char req[PATH_MAX];
	struct run r;

	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		for (size_t f = 0; f < 2; f++) {
			const char *a[4] = { cmds[i][0], cmds[i][1], cmds[i][2] };
			unsigned int n = a[2] ? 3 : a[1] ? 2 : 1;

			a[n] = flags[f];
			ctl(&r, NULL, a[0], a[1] ?: END, a[1] ? a[2] ?: END : END,
			    a[2] ? a[3] : END, END);
			/* a JSON file or one line, never an option error */
			CHECK(!strstr(r.err, "option") && !strstr(r.err, "JSON output"),
			      "%s ... %s: %s", a[0], flags[f], r.err);
		}
	}
	/* plan prints JSON anyway, and takes --json after it too */
	snprintf(req, sizeof(req), "%s/../../../examples/plan/take-dual-socket-ht.json",
		 data_dir());
	ctl(&r, NULL, "plan", "--json", req, END);
	CHECK(r.status == 0 && strstr(r.out, "\"cpus\""), "%d %s", r.status, r.err);
	ctl(&r, NULL, "plan", req, "-j", END);
	CHECK(r.status == 0 && strstr(r.out, "\"cpus\""), "%d %s", r.status, r.err);
	/* a command with none says so, before or after it */
	RUN(&r, "assign", "p", "c", "1", "--json");
	CHECK(r.status == 2 && strstr(r.err, "assign: no JSON output"), "%s", r.err);
}

/*
 * Every mistake: exactly one line on stderr, "cpumgrctl: CMD: ...", exit
 * status 2 and nothing on stdout.
 */
TEST(every_error_is_one_line_naming_its_command)
{
	/* the command line (the command first), what the line says */
	static const struct {
		const char *argv[5];
		const char *has;
	} cases[] = {
		{ { "checkpoint", "bogus" }, "'bogus' is not one of: export verify import" },
		{ { "checkpoint", "verify" }, "verify needs a FILE" },
		{ { "plan", "a", "b" }, "unexpected argument 'b'" },
		{ { "events", "--count", "abc" }, "'abc'" },
		{ { "events", "--count", "0" }, "positive" },
		{ { "admit", "--bogus" }, "unknown option '--bogus'" },
		{ { "admit" }, "missing POD_FILE" },
		{ { "daemon", "--pods" }, "'--pods' needs an argument" },
		{ { "daemon", "--once=yes" }, "'--once' takes no argument" },
		{ { "init", "--dry-run", "--enforce", "never" }, "--enforce: 'never' is not one of: off audit enforce" },
		{ { "nri", "--mode", "both" }, "'both' is not one of: decide guard" },
		{ { "oci-hook", "poststart" }, "'poststart'" },
		{ { "remove", "-x" }, "unknown option '-x'" },
		{ { "configure", "--policy", "dynamic" }, "'dynamic'" },
		{ { "init", "--dry-run", "--cpu-cfs-quota", "maybe" }, "ParseBool" },
		{ { "help", "nosuch" }, "unknown command 'nosuch'" },
		/* a cpulist is checked before the module is asked */
		{ { "assign", "p", "c", "1-" }, "CPULIST: invalid cpulist \"1-\"" },
		{ { "assign", "p", "c", "a" }, "CPULIST: invalid cpulist \"a\"" },
		{ { "assign", "p", "c", "99999" }, "out of range" },
		{ { "assign", "p", "c", "" }, "CPULIST: an empty cpulist" },
		{ { "configure", "--reserved", "0-" }, "--reserved: invalid cpulist" },
		{ { "status", "--state-dir" }, "'--state-dir' needs an argument" },
		{ { "status", "--state-dir=" }, "'--state-dir' needs a directory" },
		{ { "version", "x" }, "unexpected argument 'x'" },
	};
	struct run r;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *const *a = cases[i].argv;
		char prefix[64];
		const char *nl;

		ctl(&r, NULL, a[0], a[1], a[2], a[3], a[4], END);
		nl = strchr(r.err, '\n');
		snprintf(prefix, sizeof(prefix), "cpumgrctl: %s: ", a[0]);
		CHECK(r.status == 2 && !strncmp(r.err, prefix, strlen(prefix)) &&
		      nl && !nl[1] && !r.out[0] && strstr(r.err, cases[i].has),
		      "%s %s: status %d, stderr '%s', stdout '%s'", a[0],
		      a[1] ?: "", r.status, r.err, r.out);
	}
	/* a node with no init: the one line says what to do */
	RUN(&r, "status");
	CHECK(r.status == 1 && strstr(r.err, "cpumgrctl: status: ") &&
	      strstr(r.err, "run 'cpumgrctl init' first") &&
	      strchr(r.err, '\n') == r.err + strlen(r.err) - 1, "%s", r.err);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

/* Exactly one line on stderr, nothing on stdout. */
static bool one_line(const struct run *r)
{
	const char *nl = strchr(r->err, '\n');

	return nl && !nl[1] && !r->out[0];
}

/* The options before the command: mistakes, "--", --version's own. */
TEST(global_options_edges)
{
	struct run r;
	cJSON *j;

	RUN(&r, "--state-dir");
	CHECK(r.status == 2 && one_line(&r) &&
	      strstr(r.err, "cpumgrctl: option '--state-dir' needs an argument (DIR)"),
	      "%d %s", r.status, r.err);
	/* empty is no directory, not the default one */
	RUN(&r, "--state-dir=", "status");
	CHECK(r.status == 2 && one_line(&r) && strstr(r.err, "needs a directory"),
	      "%d %s", r.status, r.err);
	RUN(&r, "--state-dir", "", "status");
	CHECK(r.status == 2 && one_line(&r), "%d %s", r.status, r.err);
	/* "--" ends the options: the command runs */
	RUN(&r, "--", "status");
	CHECK(r.status == 1 && !strncmp(r.err, "cpumgrctl: status: ", 19),
	      "%d %s", r.status, r.err);
	RUN(&r, "-j", "--", "version");
	j = cJSON_Parse(r.out);
	CHECK(r.status == 0 && j, "%d %s %s", r.status, r.out, r.err);
	cJSON_Delete(j);
	RUN(&r, "--", "--bogus");
	CHECK(r.status == 2 && strstr(r.err, "unknown command '--bogus'"), "%s",
	      r.err);
	/* help --help is help */
	RUN(&r, "help", "--help");
	CHECK(r.status == 0 && strstr(r.out, "usage: cpumgrctl") && !r.err[0],
	      "%d %s", r.status, r.err);
	/* --version takes version's options after it */
	for (unsigned int i = 0; i < 2; i++) {
		RUN(&r, "--version", i ? "-j" : "--json");
		j = cJSON_Parse(r.out);
		CHECK(r.status == 0 && j &&
		      cJSON_IsString(cJSON_GetObjectItem(j, "cpumgrctl")),
		      "--version %s: %d %s", i ? "-j" : "--json", r.status, r.out);
		cJSON_Delete(j);
	}
}

/* plan, admit and checkpoint verify name a bad file's place alike. */
TEST(json_errors_say_file_line_and_column)
{
	static const char *const cmds[][2] = {
		{ "plan" }, { "admit" }, { "hints" }, { "checkpoint", "verify" },
	};
	char dir[] = "/tmp/cpumgr-cli.XXXXXX", path[PATH_MAX], want[PATH_MAX + 64];
	struct run r;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	/* the 'x' is line 3, column 7 */
	write_file(path, "{\n  \"a\": 1,\n  \"b\" x\n}\n");
	snprintf(want, sizeof(want), ": %s:3:7: ", path);
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (cmds[i][1])
			ctl(&r, NULL, cmds[i][0], cmds[i][1], path, END);
		else
			ctl(&r, NULL, cmds[i][0], path, END);
		CHECK(r.status == 2 && strstr(r.err, want) &&
		      strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
		      "%s: %d '%s', want '...%s'", cmds[i][0], r.status, r.err,
		      want);
	}
	/* the end of the input, in Go's words for a checkpoint */
	write_file(path, "{\"policyName\": ");
	ctl(&r, NULL, "checkpoint", "verify", path, END);
	snprintf(want, sizeof(want), ": %s:1:16: unexpected end of JSON input", path);
	CHECK(r.status == 2 && strstr(r.err, want), "%d %s", r.status, r.err);
	unlink(path);
	rmdir(dir);
}

/* init with no module: the step to take is loading it. */
TEST(init_without_the_module_says_load_it)
{
	char dir[] = "/tmp/cpumgr-cli.XXXXXX", state[PATH_MAX];
	char lock[PATH_MAX + 32];
	struct run r;

	if (!access("/sys/kernel/cpumgr", F_OK))
		SKIP(return, "the module is loaded here");
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(state, sizeof(state), "%s/state", dir);
	ctl(&r, state, "init", "--cpu-manager-policy", "none", END);
	CHECK(r.status == 1 && one_line(&r) &&
	      strstr(r.err, "load the module first (modprobe cpumgr)") &&
	      !strstr(r.err, "run 'cpumgrctl init' first"), "%d %s", r.status,
	      r.err);
	/* the writers' lock file stays, as flock files do */
	snprintf(lock, sizeof(lock), "%s/.cpu_manager_state.lock", state);
	unlink(lock);
	rmdir(state);
	rmdir(dir);
}

/* The names of doc/json-names.md's table, one per line in names. */
static char *doc_names(void)
{
	FILE *f = fopen(CPUMGR_SRC_TOP "/doc/json-names.md", "r");
	char line[1024], *names = calloc(1, 8192);
	size_t len = 0;

	if (!f || !names)
		abort();
	while (fgets(line, sizeof(line), f) && strncmp(line, "Renamed", 7)) {
		char name[64];

		if (sscanf(line, "| `%63[A-Za-z]` |", name) == 1)
			len += (size_t)snprintf(names + len, 8192 - len, "\n%s\n",
						name);
	}
	fclose(f);
	return names;
}

/*
 * Every member name in j (nested too) in names; the members of
 * "assignments" and "entries" are pod UIDs and container names.
 */
static void check_names(struct __test_metadata *_metadata, const cJSON *j,
			const char *names, const char *what)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, j) {
		char want[80];

		if (m->string) {
			snprintf(want, sizeof(want), "\n%s\n", m->string);
			CHECK(strstr(names, want), "%s: \"%s\" is not in doc/json-names.md",
			      what, m->string);
			if (!strcmp(m->string, "assignments") ||
			    !strcmp(m->string, "entries"))
				continue;
		}
		check_names(_metadata, m, names, what);
	}
}

/*
 * What the commands that run without the module print: only names of
 * doc/json-names.md; and topology --json is a topology plan takes.
 */
TEST(json_names_are_the_documented_ones)
{
	static const char *const plans[] = {
		"take-dual-socket-ht", "take-uncore", "policy-dual-socket-ht",
		"policy-strict-reservation", "error-not-enough-cpus",
	};
	char *names = doc_names(), path[PATH_MAX], sysfs[PATH_MAX], req[PATH_MAX + 64];
	struct run r;
	cJSON *j;

	for (size_t i = 0; i < ARRAY_SIZE(plans); i++) {
		snprintf(path, sizeof(path), CPUMGR_SRC_TOP "/examples/plan/%s.json",
			 plans[i]);
		RUN(&r, "plan", path);
		j = cJSON_Parse(r.out);
		CHECK(j, "plan %s: %s", plans[i], r.err);
		check_names(_metadata, j, names, plans[i]);
		cJSON_Delete(j);
	}
	snprintf(sysfs, sizeof(sysfs), "%s/sysfs-2s2c2t", data_dir());
	RUN(&r, "topology", "--sysfs", sysfs, "-j");
	j = cJSON_Parse(r.out);
	CHECK(r.status == 0 && j, "%d %s", r.status, r.err);
	check_names(_metadata, j, names, "topology --sysfs");
	/* {"topology": what topology --json printed, ...} */
	snprintf(req, sizeof(req), "%s/request.json", getenv("TMPDIR") ?: "/tmp");
	{
		cJSON *rq = cJSON_CreateObject();
		char *text;

		cJSON_AddItemToObject(rq, "topology", j);
		cJSON_AddStringToObject(rq, "available", "0-7");
		cJSON_AddNumberToObject(rq, "count", 4);
		text = cJSON_Print(rq);
		ASSERT_TRUE(text != NULL);
		write_file(req, text);
		free(text);
		cJSON_Delete(rq);
	}
	RUN(&r, "plan", req);
	CHECK(r.status == 0 && strstr(r.out, "\"cpus\":\t\"0-1,4-5\""),
	      "plan of topology --json: %d %s %s", r.status, r.out, r.err);
	unlink(req);
	snprintf(path, sizeof(path), "%s/checkpoint/kubelet-v2-static.json",
		 data_dir());
	RUN(&r, "checkpoint", "verify", path, "-j");
	j = cJSON_Parse(r.out);
	CHECK(r.status == 0 && j, "%d %s", r.status, r.err);
	check_names(_metadata, j, names, "checkpoint verify");
	cJSON_Delete(j);
	RUN(&r, "version", "-j");
	j = cJSON_Parse(r.out);
	CHECK(r.status == 0 && j, "%d %s", r.status, r.err);
	check_names(_metadata, j, names, "version");
	cJSON_Delete(j);
	free(names);
}

TEST(plan_prints_json_like_every_command)
{
	char req[PATH_MAX];
	struct run r;
	size_t n;

	snprintf(req, sizeof(req), "%s/../../../examples/plan/take-dual-socket-ht.json",
		 data_dir());
	ctl(&r, NULL, "plan", req, END);
	n = strlen(r.out);
	/* cJSON's layout, a newline at the end even into a file */
	CHECK(r.status == 0 && n > 2 && !strcmp(r.out + n - 2, "}\n") &&
	      strstr(r.out, "\t\"cpus\":\t\"2,4,8,10\""), "%d '%s' %s", r.status,
	      r.out, r.err);
	/* -j is no error for a command that prints JSON anyway */
	ctl(&r, NULL, "-j", "plan", req, END);
	EXPECT_EQ(0, r.status);
}


TEST(init_dry_run_checks_flags_and_files_without_a_module)
{
	char dir[] = "/tmp/cpumgr-cli.XXXXXX", kc[PATH_MAX];
	struct run r;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	RUN(&r, "init", "--dry-run", "--cpu-manager-policy", "static",
	    "--reserved-cpus", "0");
	CHECK(r.status == 0 && strstr(r.out, "valid: policy static"),
	      "%d %s %s", r.status, r.out, r.err);
	/* the kubelet's own refusals, as bad input */
	RUN(&r, "init", "--dry-run", "--cpu-manager-policy", "static");
	CHECK(r.status == 2 && strstr(r.err, "unable to determine reserved CPU"),
	      "%d %s", r.status, r.err);
	RUN(&r, "init", "--dry-run", "--cpu-manager-policy", "static",
	    "--reserved-cpus", "0", "--cpu-manager-policy-options", "bogus=true");
	EXPECT_EQ(2, r.status);
	RUN(&r, "init", "--dry-run", "--enforce", "never");
	EXPECT_EQ(2, r.status);

	/* a typo in a KubeletConfiguration: a warning naming it */
	snprintf(kc, sizeof(kc), "%s/kubelet.yaml", dir);
	write_file(kc, "kind: KubeletConfiguration\n"
		   "apiVersion: kubelet.config.k8s.io/v1beta1\n"
		   "cpuManagerPolicyy: static\n"
		   "maxPods: 110\n");
	ctl(&r, NULL, "init", "--dry-run", "--config", kc, END);
	CHECK(r.status == 0 && strstr(r.err, "unknown field \"cpuManagerPolicyy\"") &&
	      !strstr(r.err, "maxPods") && strstr(r.out, "policy none"),
	      "%d %s %s", r.status, r.out, r.err);
	/* an error under --strict: one line naming them */
	ctl(&r, NULL, "init", "--dry-run", "--strict", "--config", kc, END);
	CHECK(r.status == 2 && strstr(r.err, "cpuManagerPolicyy") &&
	      !strncmp(r.err, "cpumgrctl: init: ", 17) &&
	      strchr(r.err, '\n') == r.err + strlen(r.err) - 1, "%d %s",
	      r.status, r.err);
	/* without --dry-run too, before any module is looked for */
	ctl(&r, NULL, "init", "--strict", "--config", kc, END);
	CHECK(r.status == 2 && !strstr(r.err, "connect to cpumgr"), "%d %s",
	      r.status, r.err);
	unlink(kc);
	rmdir(dir);
}

TEST(kubelet_config_lists_unknown_fields)
{
	struct cm_error err = { 0 };
	struct kubelet_config c;
	cJSON *obj = cJSON_Parse("{\"kind\": \"KubeletConfiguration\","
				 "\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\","
				 "\"cpuManagerPolicy\": \"static\","
				 "\"reservedSystemCPUs\": \"0\","
				 "\"evictionHard\": {},"
				 "\"topologyManagerPolicyy\": \"restricted\"}");

	ASSERT_EQ(0, kubelet_config_init(&c));
	ASSERT_EQ(0, kubelet_config_from_json(&c, obj, &err));
	ASSERT_EQ(1u, c.unknown.nr);
	EXPECT_STREQ("topologyManagerPolicyy", c.unknown.kv[0].key);
	kubelet_config_free(&c);
	cJSON_Delete(obj);
}

TEST(checkpoint_verify_without_a_node)
{
	char dir[] = "/tmp/cpumgr-cli.XXXXXX", good[PATH_MAX], bad[PATH_MAX];
	size_t len;
	char *text;
	cJSON *j;
	struct run r;
	FILE *f;

	snprintf(good, sizeof(good), "%s/checkpoint/kubelet-v2-static.json",
		 data_dir());
	ctl(&r, NULL, "checkpoint", "verify", good, END);
	CHECK(r.status == 0 && strstr(r.out, "valid: policy static, 1 assignment (") &&
	      strstr(r.out, "no node configured"), "%d %s %s", r.status,
	      r.out, r.err);
	/* a checksum that does not match: bad input */
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	f = fopen(good, "r");
	ASSERT_TRUE(f != NULL);
	text = file_slurp(f, &len);
	fclose(f);
	ASSERT_TRUE(text && strstr(text, "\"1,13\""));
	strstr(text, "\"1,13\"")[2] = '3';
	snprintf(bad, sizeof(bad), "%s/cpu_manager_state", dir);
	write_file(bad, text);
	free(text);
	ctl(&r, NULL, "checkpoint", "verify", bad, END);
	CHECK(r.status == 2 && strstr(r.err, "checkpoint is corrupted"),
	      "%d %s", r.status, r.err);
	/* --json: the verdict as an object, either way */
	ctl(&r, NULL, "-j", "checkpoint", "verify", bad, END);
	j = cJSON_Parse(r.out);
	CHECK(r.status == 2 && j &&
	      cJSON_IsFalse(cJSON_GetObjectItem(j, "valid")) &&
	      strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "error")) ?: "",
		     "checkpoint is corrupted"), "%d %s", r.status, r.out);
	cJSON_Delete(j);
	ctl(&r, NULL, "checkpoint", "verify", "--json", good, END);
	j = cJSON_Parse(r.out);
	CHECK(r.status == 0 && j &&
	      cJSON_IsTrue(cJSON_GetObjectItem(j, "valid")) &&
	      !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "checked")) ?: "",
		      "format") &&
	      !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "policy")) ?: "",
		      "static"), "%d %s", r.status, r.out);
	cJSON_Delete(j);
	unlink(bad);
	rmdir(dir);
}

/*
 * 1.36's v3 and 1.37's v4, as the kubelet loads them: the kubelet's own
 * v3 verifies with its pod pool; a v4 whose data checksum fails is
 * refused in the kubelet's words, though its inline v2 members are good.
 */
TEST(checkpoint_verify_v3_and_v4)
{
	char dir[] = "/tmp/cpumgr-cli.XXXXXX", v3[PATH_MAX], v4[PATH_MAX];
	struct run r;
	cJSON *j;

	snprintf(v3, sizeof(v3), "%s/checkpoint/kubelet-v3-table-static.json",
		 data_dir());
	ctl(&r, NULL, "checkpoint", "verify", v3, END);
	CHECK(r.status == 0 &&
	      strstr(r.out, "valid: policy static, 2 assignments, 1 pod pool (v3)"),
	      "%d %s %s", r.status, r.out, r.err);
	ctl(&r, NULL, "-j", "checkpoint", "verify", v3, END);
	j = cJSON_Parse(r.out);
	CHECK(r.status == 0 && j &&
	      cJSON_GetNumberValue(cJSON_GetObjectItem(j, "checkpointVersion")) == 3 &&
	      cJSON_GetNumberValue(cJSON_GetObjectItem(j, "podPoolCount")) == 1,
	      "%d %s", r.status, r.out);
	cJSON_Delete(j);

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(v4, sizeof(v4), "%s/cpu_manager_state", dir);
	write_file(v4, "{\"policyName\":\"static\",\"defaultCpuSet\":\"0-3\","
		   "\"checksum\":611748604,\"data\":\"{\\\"policyName\\\":"
		   "\\\"static\\\",\\\"defaultCpuSet\\\":\\\"0-3\\\"}\","
		   "\"dataChecksum\":1234}");
	ctl(&r, NULL, "checkpoint", "verify", v4, END);
	CHECK(r.status == 2 &&
	      strstr(r.err, "could not load v4 checkpoint: checkpoint is corrupted"),
	      "%d %s %s", r.status, r.out, r.err);
	unlink(v4);
	rmdir(dir);
}

static int waited_for;

static void on_wait(void *arg, long holder)
{
	(void)arg;
	waited_for = (int)holder;
}

TEST(lock_wait_says_at_once_whom_it_waits_for)
{
	char dir[] = "/tmp/cpumgr-cli.XXXXXX", lock[PATH_MAX];
	struct cm_error err = { 0 };
	struct checkpoint_store st;
	int ready[2], fd;
	pid_t holder;
	char c;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_EQ(0, pipe(ready));
	snprintf(lock, sizeof(lock), "%s/.%s.lock", dir, CHECKPOINT_FILE);
	holder = fork();
	if (holder == 0) {
		char pid[16];

		fd = open(lock, O_RDWR | O_CREAT, 0600);
		if (fd < 0 || flock(fd, LOCK_EX))
			_exit(1);
		snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
		if (write(fd, pid, strlen(pid)) < 0 || write(ready[1], "x", 1) != 1)
			_exit(1);
		usleep(500 * 1000);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, checkpoint_store_open(&st, dir, NULL, false, &err));
	st.waiting = on_wait;
	waited_for = 0;
	/* waits out the holder, having said so first */
	EXPECT_EQ(0, checkpoint_store_lock(&st, 10000, &err));
	EXPECT_EQ(holder, waited_for);
	checkpoint_store_close(&st);
	waitpid(holder, NULL, 0);

	/* a lock nobody holds: not a word */
	ASSERT_EQ(0, checkpoint_store_open(&st, dir, NULL, false, &err));
	st.waiting = on_wait;
	waited_for = 0;
	EXPECT_EQ(0, checkpoint_store_lock(&st, 10000, &err));
	EXPECT_EQ(0, waited_for);
	checkpoint_store_close(&st);
	unlink(lock);
	rmdir(dir);
	close(ready[0]);
	close(ready[1]);
}

TEST_HARNESS_MAIN
