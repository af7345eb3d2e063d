// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl checkpoint export [FILE] | verify FILE | import FILE
 *
 * export: the kernel's table as the kubelet's cpu_manager_state.
 * verify: checksum, then the kubelet's restore checks against this
 *         node's configuration and topology; changes nothing.
 * import: verify, then RESTORE it into the kernel (refused while the
 *         table holds assignments, unless --force) and store it.
 *
 * A checksum of 0 or none at all is the kubelet's old file backend: taken
 * unverified, as the kubelet takes it, and said so; import stores it with
 * its checksum, as the kubelet's next save does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "ctl_nl.h"
#include "ctl_node.h"
#include "gojson.h"
#include "json_util.h"

static int read_checkpoint(const char *path, struct checkpoint *cp,
			   struct cm_error *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	size_t len;
	char *buf;
	int ret;

	if (!f)
		return cm_errorf(err, "%s: %s", path, strerror(errno)), -errno;
	buf = file_slurp(f, &len);
	if (f != stdin)
		fclose(f);
	if (!buf)
		return cm_errorf(err, "%s: cannot read", path), -EIO;
	ret = checkpoint_parse(buf, len, NULL, cp, err);
	if (ret)
		gojson_error_prefix(err, path, buf, len);
	free(buf);
	return ret;
}

static int verify(struct node *n, const char *path, struct checkpoint *cp,
		  struct cm_error *err)
{
	int ret = read_checkpoint(path, cp, err);

	if (ret)
		return ret;
	ret = node_validate_checkpoint(n, cp, err);
	if (ret) {
		cm_error_prefix(err, "%s", path);
		checkpoint_free(cp);
	}
	return ret;
}

/* A node to check against: a state directory that init configured. */
static bool node_configured(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", ctl_state_dir(dir),
		 NODE_CONFIG_FILE);
	return !access(path, F_OK);
}

#define LEGACY_NOTE " (no checksum: the kubelet's old file backend, taken unverified)"

static const char *checkpoint_version_label(enum checkpoint_version v)
{
	return v == CHECKPOINT_V1 ? " (v1)" : v == CHECKPOINT_V3 ? " (v3)" :
	       v == CHECKPOINT_V4 ? " (v4)" : "";
}

/*
 * verify's verdict: a line, or with --json {"file", "valid", "checked":
 * "format" or "node", and "policy", "assignmentCount",
 * "checkpointVersion", "checksum": "verified" or "none", or "error"}.
 * The error is on stderr too.  Returns the exit status.
 */
static int verdict(const char *path, const struct checkpoint *cp,
		   const char *error, bool node, bool json)
{
	cJSON *j;

	if (error)
		ctl_err("verify: %s", error);
	if (!json) {
		if (!error) {
			printf("%s: valid: policy %s, %u assignment%s", path,
			       cp->policy, cp->state.nr,
			       ctl_plural(cp->state.nr));
			/* v3, v4: the kubelet's pod pools (KEP-5526) */
			if (cp->state.nr_pods)
				printf(", %u pod pool%s", cp->state.nr_pods,
				       ctl_plural(cp->state.nr_pods));
			printf("%s%s%s\n", cp->version != CHECKPOINT_V2 ?
			       checkpoint_version_label(cp->version) : "",
			       cp->unverified ? LEGACY_NOTE : "",
			       node ? "" : " (format and checksum: no node configured)");
		}
		return error ? CPUMGRCTL_EXIT_USAGE : CPUMGRCTL_EXIT_OK;
	}
	j = cJSON_CreateObject();
	if (!j || !cJSON_AddStringToObject(j, "file", path) ||
	    !cJSON_AddBoolToObject(j, "valid", !error) ||
	    !cJSON_AddStringToObject(j, "checked", node ? "node" : "format") ||
	    (error ? !cJSON_AddStringToObject(j, "error", error) :
		     (!cJSON_AddStringToObject(j, "policy", cp->policy) ||
		      !cJSON_AddNumberToObject(j, "assignmentCount", cp->state.nr) ||
		      !cJSON_AddNumberToObject(j, "checkpointVersion",
					       cp->version) ||
		      !cJSON_AddNumberToObject(j, "podPoolCount",
					       cp->state.nr_pods) ||
		      !cJSON_AddStringToObject(j, "checksum", cp->unverified ?
					       "none" : "verified")))) {
		cJSON_Delete(j);
		ctl_err("verify: out of memory");
		return CPUMGRCTL_EXIT_FAIL;
	}
	return ctl_print_json(j) ?: (error ? CPUMGRCTL_EXIT_USAGE :
					     CPUMGRCTL_EXIT_OK);
}

/* No node: the file's format and checksum only. */
static int verify_file(const char *path, bool json)
{
	struct cm_error err = { 0 };
	struct checkpoint cp;
	int ret;

	if (read_checkpoint(path, &cp, &err)) {
		ret = verdict(path, NULL, cm_error_msg(&err), false, json);
		cm_error_clear(&err);
		return ret;
	}
	ret = verdict(path, &cp, NULL, false, json);
	checkpoint_free(&cp);
	return ret;
}

static int do_export(struct node *n, const char *path, struct cm_error *err)
{
	size_t len;
	char *text = node_checkpoint_text(n, &len);
	char dir[PATH_MAX], *slash;
	int ret;

	if (!text)
		return cm_errorf(err, "out of memory");
	if (!path || !strcmp(path, "-")) {
		ret = fwrite(text, 1, len, stdout) == len ? 0 : -EIO;
		if (!ret && isatty(1))
			putchar('\n');
		free(text);
		return ret ? cm_errorf(err, "write error") : 0;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	ret = node_write_file(dir, slash ? path + (slash - dir) + 1 : path,
			      text, len, err);
	free(text);
	return ret;
}

/* *bad: the file is what failed (exit 2), not the node. */
static int do_import(struct node *n, const char *path, bool force,
		     bool *bad, struct cm_error *err)
{
	struct checkpoint cp;
	int ret = node_sync_configure(n, err);

	if (ret)
		return ret;
	ret = verify(n, path, &cp, err);
	if (ret) {
		*bad = true;
		return ret;
	}
	if (n->kernel.nr_as && !force) {
		checkpoint_free(&cp);
		return cm_errorf(err, "the kernel's table holds %zu assignment%s: remove %s first, or import --force",
				 n->kernel.nr_as, ctl_plural(n->kernel.nr_as),
				 n->kernel.nr_as == 1 ? "it" : "them");
	}
	/* the checkpoint keeps them too, for a module older than pools */
	if (assignments_copy_pod_level(&n->files.pod_level, &cp.state)) {
		checkpoint_free(&cp);
		return cm_errorf(err, "out of memory");
	}
	ret = node_restore_state(n, &cp.state, err);
	if (!ret)
		ret = node_save_checkpoint(n, force ? NODE_FORCE : 0, err);
	/* pod files the imported table does not back go */
	if (!ret)
		ret = node_sync(n, force ? NODE_FORCE : 0, err);
	if (!ret)
		printf("imported %s: policy %s, %u assignment%s%s%s\n", path,
		       cp.policy, cp.state.nr, ctl_plural(cp.state.nr),
		       !cp.state.nr_pods ? "" :
		       n->cfg.checkpoint_version >= CHECKPOINT_V3 ?
		       ", pod pools kept in the kernel's table and the checkpoint" :
		       ", pod pools dropped: this node writes v2 (init --kubelet-version 1.36 or 1.37 keeps them)",
		       cp.unverified ? LEGACY_NOTE ", stored with one" : "");
	checkpoint_free(&cp);
	return ret;
}

static int cmd_checkpoint(const struct ctl_cmdline *cl)
{
	const char *verb = cl->arg[0], *file = cl->nr == 2 ? cl->arg[1] : NULL;
	bool force = ctl_flag(cl, "force"), json = cl->json, bad = false;
	struct cm_error err = { 0 };
	struct checkpoint cp;
	struct node n;
	int ret;

	if (strcmp(verb, "export") && !file) {
		ctl_err("%s needs a FILE", verb);
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (json && strcmp(verb, "verify")) {
		ctl_err("%s: no JSON output (-j/--json: verify only)", verb);
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (force && strcmp(verb, "import")) {
		ctl_err("%s: --force is import's", verb);
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (!strcmp(verb, "verify") && !node_configured(cl->state_dir))
		return verify_file(file, json);
	/*
	 * the stored checkpoint may be the bad one: repair nothing yet.
	 * verify checks a file against the configuration and the
	 * topology, which the reduced view has; export prints the
	 * assignments, which are root's.
	 */
	ret = ctl_node_start(cl, NODE_NEED_CONFIG |
			     (!strcmp(verb, "import") ? NODE_NO_SYNC :
			      !strcmp(verb, "verify") ?
			      NODE_READ_ONLY | NODE_RESTRICTED_OK :
			      NODE_READ_ONLY), &n);
	if (ret)
		return ret;
	if (!strcmp(verb, "export")) {
		ret = do_export(&n, file, &err);
	} else if (!strcmp(verb, "verify")) {
		/* a checkpoint that does not pass is bad input */
		ret = verify(&n, file, &cp, &err);
		node_close(&n);
		if (ret) {
			ret = verdict(file, NULL, cm_error_msg(&err), true, json);
			cm_error_clear(&err);
			return ret;
		}
		ret = verdict(file, &cp, NULL, true, json);
		checkpoint_free(&cp);
		return ret;
	} else {
		ret = do_import(&n, file, force, &bad, &err);
	}
	if (ret && bad)
		return ctl_node_bad_input(&n, &err, verb);
	if (ret)
		return ctl_node_fail(&n, &err, verb);
	node_close(&n);
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(checkpoint) = {
	.name = "checkpoint",
	.help = "the kernel's table as a kubelet cpu_manager_state checkpoint, and back",
	.args = (const struct ctl_pos[]){
		{ "export|verify|import", CTL_WORD, "export verify import", false, "export the table, verify a file, or import one into the table" },
		{ "FILE", CTL_FILE, NULL, true, "the checkpoint file (export: stdout without it; - for stdin or stdout)" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		CTL_OPT_JSON,
		{ "force", 'f', NULL, CTL_ANY, NULL, "import: also over a table that holds assignments" },
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = {
		"cpumgrctl checkpoint export /tmp/cpu_manager_state",
		"cpumgrctl checkpoint verify -j cpu_manager_state",
	},
	.run = cmd_checkpoint,
};
