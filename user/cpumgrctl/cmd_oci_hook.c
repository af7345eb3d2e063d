// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl oci-hook: an OCI runtime hook that makes a container a
 * runtime starts a managed one (see oci.h for what it reads).
 *
 * createRuntime (or prestart): the container's process exists in its
 * cgroup and waits for "start".  Add the container to its pod (admit
 * the pod if it is new), bind it and its pod cgroup, write its cpuset
 * and CFS limits, and give the other containers and the managed tree
 * the shared pool as it is now (node_reconcile(), node_narrow()).
 *   --mode decide: the static policy decides (kubelet policy none);
 *   --mode guard:  the kubelet decided (policy static): the CPUs of the
 *                  spec when the kubelet's checkpoint has the container,
 *                  the shared pool otherwise.
 * poststop: release the container; a pod with no container left goes;
 * the other containers and the managed tree get the grown shared pool.
 * Without a stage argument the state's status says which: "creating"
 * or "created" is createRuntime, "stopped" is poststop (one hooks.d
 * file can then serve both stages).
 * Both first forget containers whose cgroup is gone (a runtime killed
 * with -9 runs no poststop).  Containers without pod annotations are left
 * alone.  A refusal is one line on stderr and exit status 1: the runtime
 * fails the start.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ctl_node.h"
#include "ctl_runtime.h"
#include "json_util.h"
#include "oci.h"

#define STATE_MAX	(1 << 20)

struct hook {
	const char *stage, *dir;
	struct ctl_runtime rt;
	bool verbose;
	struct oci_container c;
};

static int fail(const struct hook *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(const struct hook *h, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (h->c.pod_uid[0])
		ctl_err("oci-hook %s: container %s (pod %s, container %s): %s",
			h->stage, h->c.id, h->c.pod_uid, h->c.name, msg);
	else
		ctl_err("oci-hook %s: container %s: %s", h->stage,
			h->c.id[0] ? h->c.id : "?", msg);
	return CPUMGRCTL_EXIT_FAIL;
}

static int read_input(struct hook *h)
{
	struct cm_error err = { 0 };
	char path[PATH_MAX + 16];
	size_t len = 0;
	char *text = file_slurp(stdin, &len);
	cJSON *config;
	int ret;

	if (!text || len > STATE_MAX) {
		free(text);
		return fail(h, "cannot read the state on stdin");
	}
	ret = oci_parse_state(text, &h->c, &err);
	free(text);
	if (ret)
		goto bad;
	if (!h->c.bundle[0])
		return 0;
	snprintf(path, sizeof(path), "%s/config.json", h->c.bundle);
	config = json_load(path, &err);
	if (!config) {
		/* poststop may come after the bundle is gone */
		if ((!strcmp(h->stage, "poststop") ||
		     !strcmp(h->c.status, "stopped")) &&
		    h->c.kind != OCI_UNMANAGED) {
			cm_error_clear(&err);
			return 0;
		}
		goto bad;
	}
	ret = oci_parse_config(config, &h->c, &err);
	cJSON_Delete(config);
	if (!ret)
		return 0;
bad:
	fail(h, "%s", cm_error_msg(&err));
	cm_error_clear(&err);
	return CPUMGRCTL_EXIT_FAIL;
}

/* The container's cgroup below the mount: the process's, else the spec's. */
static int container_cgroup(struct hook *h, const struct node *n, char *out,
			    size_t len)
{
	struct cm_error err = { 0 };
	char path[64], rel[PATH_MAX];
	char *text = NULL;
	size_t l = 0;
	FILE *f;

	rel[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/cgroup", h->c.pid);
	f = h->c.pid > 0 ? fopen(path, "re") : NULL;
	if (f) {
		text = file_slurp(f, &l);
		fclose(f);
	}
	if (!text || oci_proc_cgroup(text, rel, sizeof(rel)) || !strcmp(rel, "/"))
		rel[0] = '\0';
	free(text);
	if (rel[0]) {
		if (snprintf(out, len, "%s%s", n->cgroups.fs.root[CGROUPFS_CPUSET], rel) >=
		    (int)len) {
			fail(h, "cgroup %s: path too long", rel);
			return -ENAMETOOLONG;
		}
		return 0;
	}
	if (!h->c.cgroups_path[0]) {
		fail(h, "no cgroup: neither /proc/%d/cgroup nor linux.cgroupsPath names one",
		     h->c.pid);
		return -ENOENT;
	}
	if (ctl_runtime_spec_cgroup(n, h->c.cgroups_path, out, len, &err)) {
		fail(h, "%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return -EINVAL;
	}
	return 0;
}

static int create(struct hook *h, struct node *n)
{
	struct cm_error err = { 0 };
	char cgroup[PATH_MAX];

	if (container_cgroup(h, n, cgroup, sizeof(cgroup)))
		return CPUMGRCTL_EXIT_FAIL;
	if (ctl_runtime_add(n, &h->rt, &h->c, cgroup, false, &err)) {
		fail(h, "%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	return CPUMGRCTL_EXIT_OK;
}

static int poststop(struct hook *h, struct node *n)
{
	struct cm_error err = { 0 };

	if (ctl_runtime_release(n, h->c.pod_uid, h->c.name, &err)) {
		fail(h, "%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	return CPUMGRCTL_EXIT_OK;
}

static int cmd_oci_hook(const struct ctl_cmdline *cl)
{
	struct hook h = {
		.rt.kubelet_state = ctl_val(cl, "kubelet-state") ?:
				    CTL_KUBELET_STATE,
		.verbose = ctl_flag(cl, "verbose"),
		.dir = cl->state_dir,
		.stage = cl->nr ? cl->arg[0] : "(from the state)",
	};
	const char *mode = ctl_val(cl, "mode");
	struct cm_error err = { 0 };
	struct node n;
	int ret;

	/* the table has checked the mode's name */
	if (mode)
		ctl_runtime_mode(mode, &h.rt.mode);
	ret = read_input(&h);
	if (ret)
		return ret;
	/* one hooks.d file for both stages: the state's status says which */
	if (!cl->nr) {
		if (!strcmp(h.c.status, "creating") ||
		    !strcmp(h.c.status, "created"))
			h.stage = "createRuntime";
		else if (!strcmp(h.c.status, "stopped"))
			h.stage = "poststop";
		else
			return fail(&h, "no stage given and the state's status \"%s\" names none",
				    h.c.status);
	}
	if (h.c.kind == OCI_UNMANAGED) {
		fprintf(stderr, "cpumgrctl: oci-hook %s: container %s has no pod annotations: left alone\n",
			h.stage, h.c.id);
		return CPUMGRCTL_EXIT_OK;
	}
	if (node_open(&n, ctl_state_dir(h.dir), NODE_NEED_CONFIG, &err)) {
		ret = fail(&h, "%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return ret;
	}
	n.log = h.verbose ? stderr : NULL;
	if (node_sweep_gone(&n, &err) < 0) {
		ret = fail(&h, "%s", cm_error_msg(&err));
		cm_error_clear(&err);
		node_close(&n);
		return ret;
	}
	if (!strcmp(h.stage, "poststop"))
		ret = poststop(&h, &n);
	else
		ret = create(&h, &n);
	node_close(&n);
	return ret;
}

CPUMGRCTL_COMMAND(oci_hook) = {
	.name = "oci-hook",
	.help = "an OCI runtime hook: the OCI state on stdin, the bundle's config.json",
	.args = (const struct ctl_pos[]){
		{ "STAGE", CTL_WORD, "createRuntime prestart poststop", true, "the hook's stage; without it the state's status says which" },
		{ NULL }
	},
	.opts = (const struct ctl_opt[]){
		CTL_OPT_MODE,
		CTL_OPT_KUBELET_STATE,
		{ "verbose", 'v', NULL, CTL_ANY, NULL, "say what it does on stderr" },
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl oci-hook --mode guard createRuntime < state.json" },
	.run = cmd_oci_hook,
};
