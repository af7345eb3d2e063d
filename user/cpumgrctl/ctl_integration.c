// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl init --integration (ctl_integration.h).  The NRI plugin runs
 * as a systemd template unit whose instance is its mode; the OCI hook is
 * a hooks.d file the package ships inert in its data directory (a live
 * hooks.d would run it on every node the package lands on).  The hooks.d
 * file goes to /etc/containers/oci/hooks.d, the administrator's
 * directory, which podman and CRI-O both read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_file.h"
#include "ctl_containerd.h"
#include "ctl_integration.h"
#include "ctl_paths.h"
#include "json_util.h"

#define HOOK_NAME	"cpumgr.json"

static const char *const names[CTL_INTEGRATION_NR] = {
	[CTL_INTEGRATION_NONE] = "none",
	[CTL_INTEGRATION_NRI_DECIDE] = "nri-decide",
	[CTL_INTEGRATION_NRI_GUARD] = "nri-guard",
	[CTL_INTEGRATION_OCI_HOOK] = "oci-hook",
	[CTL_INTEGRATION_NRI_FOLLOW] = "nri-follow",
};

/* the unit of each NRI mode, in the order of the enum */
static const char *const nri_units[] = {
	"cpumgr-nri@decide.service", "cpumgr-nri@guard.service",
};

const char *ctl_integration_name(unsigned int i)
{
	return i < CTL_INTEGRATION_NR ? names[i] : NULL;
}

int ctl_integration_parse(const char *s, enum ctl_integration *out,
			  struct cm_error *err)
{
	for (unsigned int i = 0; i < CTL_INTEGRATION_NR; i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum ctl_integration)i;
			return 0;
		}
	}
	cm_errorf(err, "--integration: '%s' is not one of: none nri-decide nri-guard oci-hook nri-follow",
		  s);
	return -1;
}

void ctl_integration_env_default(struct ctl_integration_env *env)
{
	env->systemctl = "systemctl";
	env->hook_src = CPUMGR_DATADIR "/oci-hooks.d/" HOOK_NAME;
	env->hook_dir = "/etc/containers/oci/hooks.d";
	env->base_spec = CTL_BASE_SPEC;
	env->base_hooks = CPUMGR_DATADIR "/containerd/cpumgr-hooks.json";
	env->plugin_dir = CTL_NRI_PLUGIN_DIR;
}

/* systemctl VERB [--now|--quiet] UNIT: its exit status, 127 when absent */
static int systemctl(const struct ctl_integration_env *env, const char *verb,
		     const char *flag, const char *unit)
{
	const char *argv[] = { env->systemctl, verb, flag, unit, NULL };
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		execvp(env->systemctl, (char **)argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return 127;
	return WEXITSTATUS(st);
}

/* The unit off when it is on (enabled or running); absent is off. */
static int unit_off(const struct ctl_integration_env *env, const char *unit,
		    FILE *log, struct cm_error *err)
{
	if (systemctl(env, "is-enabled", "--quiet", unit) &&
	    systemctl(env, "is-active", "--quiet", unit))
		return 0;
	/* without a running systemd (a chroot) there is nothing to stop */
	if (systemctl(env, "disable", "--now", unit) &&
	    (!access("/run/systemd/system", F_OK) ||
	     systemctl(env, "disable", "--quiet", unit)))
		return cm_errorf(err, "systemctl disable --now %s failed", unit),
		       -1;
	fprintf(log, "integration: disabled and stopped %s\n", unit);
	return 0;
}

static int unit_on(const struct ctl_integration_env *env, const char *unit,
		   FILE *log, struct cm_error *err)
{
	int st = systemctl(env, "enable", "--now", unit);

	if (st == 127)
		return cm_errorf(err, "%s: no systemctl: this integration needs systemd (or run 'cpumgrctl nri' under your own supervisor)",
				 unit), -1;
	if (st)
		return cm_errorf(err, "systemctl enable --now %s failed", unit),
		       -1;
	fprintf(log, "integration: enabled and started %s\n", unit);
	return 0;
}

static int hook_off(const struct ctl_integration_env *env, FILE *log,
		    struct cm_error *err)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", env->hook_dir, HOOK_NAME);
	if (!unlink(path)) {
		fprintf(log, "integration: removed %s\n", path);
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	return cm_errorf(err, "cannot remove %s: %s", path, strerror(errno)),
	       -1;
}

/* mkdir -p, for /etc/containers/oci/hooks.d on a node without podman */
static int make_dirs(const char *dir, struct cm_error *err)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; ; s++) {
		bool end = !*s;

		if (*s != '/' && !end)
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return cm_errorf(err, "cannot create %s: %s", p,
					 strerror(errno)), -1;
		if (end)
			return 0;
		*s = '/';
	}
}

/*
 * The package's hooks.d file, read and checked before anything changes:
 * a hook whose program is missing is dropped by podman without a word,
 * so its "path" must be there.  The text in *text (free it).
 */
static int hook_load(const struct ctl_integration_env *env, char **text,
		     size_t *len, struct cm_error *err)
{
	const cJSON *hook, *path;
	cJSON *doc;
	FILE *f;
	int ret = -1;

	f = fopen(env->hook_src, "r");
	if (!f)
		return cm_errorf(err, "%s: %s (the hook file cpumgr installs)",
				 env->hook_src, strerror(errno)), -1;
	*text = file_slurp(f, len);
	fclose(f);
	if (!*text)
		return cm_errorf(err, "out of memory"), -1;
	doc = json_parse_text(*text, env->hook_src, err);
	hook = doc ? json_member(doc, "hook") : NULL;
	path = hook ? json_member(hook, "path") : NULL;
	/* (no doc: err says why) */
	if (doc && !cJSON_IsString(path))
		cm_errorf(err, "%s: no hook.path", env->hook_src);
	else if (doc && access(path->valuestring, X_OK))
		cm_errorf(err, "%s: hook.path %s: %s", env->hook_src,
			  path->valuestring, strerror(errno));
	else if (doc)
		ret = 0;
	cJSON_Delete(doc);
	if (ret) {
		free(*text);
		*text = NULL;
	}
	return ret;
}

static int hook_on(const struct ctl_integration_env *env, const char *text,
		   size_t len, FILE *log, struct cm_error *err)
{
	if (make_dirs(env->hook_dir, err) ||
	    atomic_file_write(env->hook_dir, HOOK_NAME, text, len, 0644, 0, err))
		return -1;
	fprintf(log, "integration: installed %s/%s\n", env->hook_dir,
		HOOK_NAME);
	return 0;
}

static int turn_on(enum ctl_integration which,
		   const struct ctl_integration_env *env, const char *hook,
		   size_t len, FILE *log, struct cm_error *err)
{
	/* everything else off first: never two deciders, even for a moment */
	for (unsigned int i = 0; i < 2; i++)
		if (which != CTL_INTEGRATION_NRI_DECIDE + i &&
		    unit_off(env, nri_units[i], log, err))
			return -1;
	if (ctl_nri_plugins_off(env->plugin_dir, false, log, err) < 0)
		return -1;
	if (which != CTL_INTEGRATION_OCI_HOOK &&
	    (hook_off(env, log, err) ||
	     ctl_base_spec_hooks(env->base_spec, NULL, log, err)))
		return -1;
	switch (which) {
	case CTL_INTEGRATION_NRI_DECIDE:
	case CTL_INTEGRATION_NRI_GUARD:
		return unit_on(env, nri_units[which - CTL_INTEGRATION_NRI_DECIDE],
			       log, err);
	case CTL_INTEGRATION_OCI_HOOK:
		return hook_on(env, hook, len, log, err) ||
		       ctl_base_spec_hooks(env->base_spec, env->base_hooks, log,
					   err) ? -1 : 0;
	default:
		return 0;
	}
}

int ctl_integration_apply(enum ctl_integration which,
			  const struct ctl_integration_env *env, FILE *log,
			  struct cm_error *err)
{
	char *hook = NULL;
	size_t len = 0;
	int ret;

	if (which >= CTL_INTEGRATION_NRI_FOLLOW)
		return cm_errorf(err, "%s: not a way to apply (resolve it first)",
				 ctl_integration_name(which)), -1;

	if (which == CTL_INTEGRATION_OCI_HOOK &&
	    hook_load(env, &hook, &len, err))
		return -1;
	ret = turn_on(which, env, hook, len, log, err);
	free(hook);
	return ret;
}

unsigned int ctl_integration_show(const struct ctl_integration_env *env,
				  FILE *out)
{
	struct cm_error err = { 0 };
	unsigned int n = 0;
	char path[PATH_MAX];
	int k;

	for (unsigned int i = 0; i < 2; i++) {
		bool enabled = !systemctl(env, "is-enabled", "--quiet", nri_units[i]);
		bool active = !systemctl(env, "is-active", "--quiet", nri_units[i]);

		if (!enabled && !active)
			continue;
		fprintf(out, "%s: %s, %s\n", nri_units[i],
			enabled ? "enabled" : "disabled",
			active ? "active" : "inactive");
		n++;
	}
	snprintf(path, sizeof(path), "%s/%s", env->hook_dir, HOOK_NAME);
	if (!access(path, F_OK)) {
		fprintf(out, "%s: the OCI hook (podman, CRI-O)\n", path);
		n++;
	}
	if (ctl_base_spec_has_hooks(env->base_spec)) {
		fprintf(out, "%s: cpumgr's OCI hooks (containerd)\n",
			env->base_spec);
		n++;
	}
	/* listed, not removed */
	k = ctl_nri_plugins_off(env->plugin_dir, true, out, &err);
	cm_error_clear(&err);
	return n + (k > 0 ? (unsigned int)k : 0);
}
