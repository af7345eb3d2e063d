// SPDX-License-Identifier: GPL-2.0
/*
 * The kubelet's CPU manager policy from its files (ctl_kubelet.h).  The
 * checkpoint is read for its policyName alone, as Go reads a member
 * (names match case-insensitively, the last one counts), whatever the
 * checkpoint's version: every version keeps policyName at the top for
 * older kubelets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmd.h"
#include "ctl_integration.h"
#include "ctl_kubelet.h"
#include "gojson.h"
#include "json_util.h"
#include "kubeletconfig.h"

/* The checkpoint's policyName into buf ("" if it has none); -1 if unreadable. */
static int checkpoint_policy(const char *path, char *buf, size_t len,
			     struct cm_error *err)
{
	struct gojson_value *root;
	size_t n;
	char *text;
	FILE *f;

	buf[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 1 :
		       (cm_errorf(err, "%s: %s", path, strerror(errno)), -1);
	text = file_slurp(f, &n);
	fclose(f);
	if (!text)
		return cm_errorf(err, "%s: cannot read it", path), -1;
	root = gojson_parse(text, n, err);
	if (!root || root->type != GOJSON_OBJECT) {
		if (root)
			cm_errorf(err, "not a JSON object");
		gojson_error_prefix(err, path, text, n);
		gojson_free(root);
		free(text);
		return -1;
	}
	free(text);
	for (const struct gojson_value *m = root->child; m; m = m->next)
		if (m->key_len == 10 && !strncasecmp(m->key, "policyName", 10) &&
		    m->type == GOJSON_STRING)
			snprintf(buf, len, "%.*s", (int)m->len, m->str);
	gojson_free(root);
	return 0;
}

int ctl_kubelet_read(struct ctl_kubelet *k, const char *config,
		     const char *state, struct cm_error *err)
{
	struct kubelet_config kc;
	char policy[64];
	int ret;

	memset(k, 0, sizeof(*k));
	k->config = config;
	k->state = state;
	ret = checkpoint_policy(state, policy, sizeof(policy), err);
	if (ret < 0)
		return cm_error_prefix(err, "the kubelet's checkpoint"), -1;
	if (!ret) {
		k->found = true;
		k->is_static = !strcmp(policy, "static");
		snprintf(k->why, sizeof(k->why), "%s: policyName \"%s\"", state,
			 policy);
		if (k->is_static)
			return 0;
	}
	if (access(config, F_OK))
		return 0;
	if (kubelet_config_init(&kc))
		return cm_errorf(err, "out of memory"), -1;
	if (kubelet_config_load(&kc, config, err)) {
		kubelet_config_free(&kc);
		return cm_error_prefix(err, "the kubelet's configuration"), -1;
	}
	k->found = true;
	k->is_static = !strcmp(kc.cpu_manager_policy, "static");
	/* the checkpoint's word stands unless the configuration says static */
	if (k->is_static || ret)
		snprintf(k->why, sizeof(k->why), "%s: cpuManagerPolicy \"%s\"",
			 config, kc.cpu_manager_policy);
	kubelet_config_free(&kc);
	return 0;
}

int ctl_kubelet_refuse(const struct ctl_kubelet *k, const char *follow,
		       struct cm_error *err)
{
	return cm_errorf(err, "the kubelet runs the static policy (%s) and picks CPUs itself: cpumgr would be a second decider. Move the kubelet to none (drain the node, stop the kubelet, remove %s, set cpuManagerPolicy: none in %s, start the kubelet) or let cpumgr guard the kubelet's decisions: %s",
			 k->why, k->state, k->config, follow), -1;
}

int ctl_kubelet_integration(int *integration, const char *config,
			    const char *state)
{
	struct cm_error err = { 0 };
	struct ctl_kubelet k;
	int i = *integration;

	if (i != CTL_INTEGRATION_NRI_DECIDE && i != CTL_INTEGRATION_OCI_HOOK &&
	    i != CTL_INTEGRATION_NRI_FOLLOW)
		return CPUMGRCTL_EXIT_OK;
	if (ctl_kubelet_read(&k, config, state, &err)) {
		ctl_err("cannot tell whether the kubelet decides: %s",
			cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	if (i == CTL_INTEGRATION_NRI_FOLLOW) {
		*integration = k.is_static ? CTL_INTEGRATION_NRI_GUARD :
					     CTL_INTEGRATION_NRI_DECIDE;
		printf("integration: nri-follow: %s (%s)\n",
		       ctl_integration_name((unsigned int)*integration),
		       k.found ? k.why : "no kubelet configuration or checkpoint");
		return CPUMGRCTL_EXIT_OK;
	}
	if (!k.is_static)
		return CPUMGRCTL_EXIT_OK;
	ctl_kubelet_refuse(&k, "--integration nri-guard (or nri-follow), with the kubelet's own settings (--config of its configuration)",
			   &err);
	ctl_err("--integration %s: %s", ctl_integration_name((unsigned int)i),
		cm_error_msg(&err));
	cm_error_clear(&err);
	/* the command line must change (or the kubelet) */
	return CPUMGRCTL_EXIT_USAGE;
}
