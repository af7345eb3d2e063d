// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl init: configure the node the way the kubelet is configured
 * (its flag names, or a KubeletConfiguration file, flags overriding the
 * file), CONFIGURE the module and record the configuration in the state
 * directory.  The reserved CPUs are resolved here, once: a count is
 * taken the kubelet's way on the kernel's topology.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ctl_integration.h"
#include "ctl_node.h"
#include "go_strconv.h"
#include "kubeletconfig.h"
#include "topology_sysfs.h"

enum {
	OPT_CONFIG = 0x200, OPT_ROOT, OPT_MOUNT, OPT_ENFORCE, OPT_HOTPLUG,
	OPT_QUOTA, OPT_NO_QUOTA_EXCL, OPT_FORCE, OPT_KUBELET, OPT_DRY_RUN,
	OPT_STRICT, OPT_INTEGRATION,
};

static const struct option longopts[] = {
	{ "cpu-manager-policy", required_argument, NULL, OPT_KUBELET },
	{ "cpu-manager-policy-options", required_argument, NULL, OPT_KUBELET },
	{ "reserved-cpus", required_argument, NULL, OPT_KUBELET },
	{ "kube-reserved", required_argument, NULL, OPT_KUBELET },
	{ "system-reserved", required_argument, NULL, OPT_KUBELET },
	{ "topology-manager-policy", required_argument, NULL, OPT_KUBELET },
	{ "cpu-manager-reconcile-period", required_argument, NULL,
	  OPT_KUBELET },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "cgroup-root", required_argument, NULL, OPT_ROOT },
	{ "cgroup-mount", required_argument, NULL, OPT_MOUNT },
	{ "enforce", required_argument, NULL, OPT_ENFORCE },
	{ "hotplug", required_argument, NULL, OPT_HOTPLUG },
	{ "cpu-cfs-quota", required_argument, NULL, OPT_QUOTA },
	{ "disable-cpu-quota-with-exclusive-cpus", required_argument, NULL,
	  OPT_NO_QUOTA_EXCL },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "integration", required_argument, NULL, OPT_INTEGRATION },
	CTL_STATE_DIR_OPTION,
	{ NULL, 0, NULL, 0 },
};

struct init_args {
	const char *state_dir, *config, *root, *mount;
	int enforce, hotplug, quota, no_quota_excl;
	bool force, dry_run, strict;
	/* --integration: -1 leaves the node's as it is */
	int integration;
	/* the kubelet flags, in order, applied over the file */
	unsigned int nr;
	const char *flag[32], *value[32];
};

/* Go's strconv.ParseBool, as pflag reads a bool flag's value. */
static int parse_bool(const char *opt, const char *s)
{
	bool v;

	if (!go_parse_bool(s, &v))
		return v;
	ctl_err("invalid argument \"%s\" for \"--%s\" flag: strconv.ParseBool: parsing \"%s\": invalid syntax",
		s, opt, s);
	return -1;
}

static int parse_mode(const char *opt, const char *s,
		      const char *(*name)(uint32_t))
{
	for (uint32_t i = 0; name(i); i++)
		if (!strcmp(name(i), s))
			return (int)i;
	ctl_err("--%s: '%s' is not one of: %s %s%s%s", opt, s, name(0),
		name(1), name(2) ? " " : "", name(2) ? name(2) : "");
	return -1;
}

static const char *state_dir(const struct init_args *a)
{
	const char *env = getenv("CPUMGR_STATE_DIR");

	/* as ctl_node_open() picks it */
	return a->state_dir ?: (env && *env ? env : NODE_STATE_DIR);
}

static int parse_integration(const char *s, int *out)
{
	struct cm_error err = { 0 };
	enum ctl_integration i;

	if (ctl_integration_parse(s, &i, &err)) {
		ctl_err("init: %s", cm_error_msg(&err));
		cm_error_clear(&err);
		return -1;
	}
	*out = (int)i;
	return 0;
}

static int parse_args(int argc, char **argv, struct init_args *a)
{
	int opt, idx;

	memset(a, 0, sizeof(*a));
	a->enforce = a->hotplug = a->quota = a->no_quota_excl = -2;
	a->integration = -1;
	while ((opt = getopt_long(argc, argv, "", longopts, &idx)) != -1) {
		switch (opt) {
		case OPT_KUBELET:
			if (a->nr == 32) {
				ctl_err("too many flags");
				return -1;
			}
			a->flag[a->nr] = longopts[idx].name;
			a->value[a->nr++] = optarg;
			break;
		case OPT_CONFIG:
			a->config = optarg;
			break;
		case OPT_ROOT:
			a->root = optarg;
			break;
		case OPT_MOUNT:
			a->mount = optarg;
			break;
		case OPT_ENFORCE:
			a->enforce = parse_mode("enforce", optarg,
						cpumgr_enforce_name);
			if (a->enforce < 0)
				return -1;
			break;
		case OPT_HOTPLUG:
			a->hotplug = parse_mode("hotplug", optarg,
						cpumgr_hotplug_name);
			if (a->hotplug < 0)
				return -1;
			break;
		case OPT_QUOTA:
			a->quota = parse_bool("cpu-cfs-quota", optarg);
			if (a->quota < 0)
				return -1;
			break;
		case OPT_NO_QUOTA_EXCL:
			a->no_quota_excl = parse_bool(longopts[idx].name,
						      optarg);
			if (a->no_quota_excl < 0)
				return -1;
			break;
		case OPT_FORCE:
			a->force = true;
			break;
		case OPT_DRY_RUN:
			a->dry_run = true;
			break;
		case OPT_STRICT:
			a->strict = true;
			break;
		case OPT_INTEGRATION:
			if (parse_integration(optarg, &a->integration))
				return -1;
			break;
		case CTL_OPT_STATE_DIR:
			a->state_dir = optarg;
			break;
		default:
			return ctl_usage(argv[0]), -1;
		}
	}
	if (optind != argc)
		return ctl_usage(argv[0]), -1;
	if (a->integration > CTL_INTEGRATION_NONE &&
	    strcmp(state_dir(a), NODE_STATE_DIR)) {
		/* the units and the hook file run with the default one */
		ctl_err("init: --integration needs the state directory %s, not %s",
			NODE_STATE_DIR, state_dir(a));
		return -1;
	}
	if ((a->root && a->root[0] != '/') || (a->mount && a->mount[0] != '/')) {
		ctl_err("--cgroup-root and --cgroup-mount need absolute paths");
		return -1;
	}
	return 0;
}

/*
 * The kubelet's view: file, then flags, then what the CPU manager gets.
 * Fields no KubeletConfiguration has are named on stderr (an error
 * under --strict).
 */
static int kubelet_view(const struct init_args *a, struct kubelet_config *kc,
			struct cm_error *err)
{
	if (kubelet_config_init(kc))
		return cm_errorf(err, "out of memory");
	if (a->config && kubelet_config_load(kc, a->config, err))
		return -EINVAL;
	for (unsigned int i = 0; i < kc->unknown.nr; i++)
		fprintf(stderr, "cpumgrctl: %s: %s: unknown field \"%s\"%s\n",
			a->strict ? "error" : "warning", a->config,
			kc->unknown.kv[i].key,
			a->strict ? "" : " (ignored, as the kubelet does)");
	if (a->strict && kc->unknown.nr)
		return cm_errorf(err, "%s: %u unknown field%s (--strict)",
				 a->config, kc->unknown.nr,
				 kc->unknown.nr > 1 ? "s" : "");
	for (unsigned int i = 0; i < a->nr; i++)
		if (kubelet_config_flag(kc, a->flag[i], a->value[i], err))
			return -EINVAL;
	return kubelet_config_finish(kc, err);
}

/*
 * --dry-run: the flags and the file as the kubelet reads them, and the
 * reserved CPUs against this machine's CPUs (sysfs), with no module.
 */
static int dry_run(const struct init_args *a, struct kubelet_config *kc)
{
	struct cm_error err = { 0 };
	struct topology *t;
	char *reserved;

	t = topology_load_sysfs("/sys", &err);
	if (!t) {
		fprintf(stderr, "cpumgrctl: warning: reserved CPUs not checked: %s\n",
			cm_error_msg(&err));
		cm_error_clear(&err);
	} else if (kubelet_config_check_topology(kc, t, &err)) {
		topology_free(t);
		ctl_err("init: %s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_USAGE;
	}
	topology_free(t);
	reserved = cpuset_to_str(&kc->policy.reserved_cpus);
	if (a->integration >= 0)
		printf("dry run: integration %s\n",
		       ctl_integration_name((unsigned int)a->integration));
	printf("dry run: valid: policy %s, topology-manager-policy %s, ",
	       kc->cpu_manager_policy, kc->topology_manager_policy);
	if (kc->policy.has_reserved_cpus)
		printf("reserved CPUs %s\n", reserved ? reserved : "?");
	else if (kc->reserved_milli)
		printf("reserved %lld millicores (%d CPUs, chosen at init)\n",
		       (long long)kc->reserved_milli, kc->policy.num_reserved);
	else
		printf("no reserved CPUs\n");
	free(reserved);
	return CPUMGRCTL_EXIT_OK;
}

static void fill_config(const struct init_args *a,
			const struct kubelet_config *kc,
			const struct cpu_policy *p, struct node_config *c)
{
	node_config_default(c);
	c->policy = kc->policy.kind;
	c->opts = kc->policy.opts;
	c->tm = kc->policy.tm;
	c->reserved = p->reserved;
	c->reserved_milli = kc->reserved_milli;
	c->reconcile_ns = kc->reconcile_period_ns;
	if (a->mount)
		snprintf(c->cgroup_mount, sizeof(c->cgroup_mount), "%s",
			 a->mount);
	snprintf(c->cgroup_root, sizeof(c->cgroup_root), "%s",
		 a->root ? a->root : c->cgroup_mount);
	if (a->enforce >= 0)
		c->enforce = (uint32_t)a->enforce;
	if (a->hotplug >= 0)
		c->hotplug = (uint32_t)a->hotplug;
	if (a->quota >= 0)
		c->cfs.cpu_cfs_quota = a->quota;
	if (a->no_quota_excl >= 0)
		c->cfs.disable_quota_exclusive = a->no_quota_excl;
}

/* The managed root must be a cgroup: make it when it is missing. */
static int make_root(struct node *n, struct cm_error *err)
{
	char name[PATH_MAX];
	int ret;

	ret = cgroupfs_init(&n->cgroups.fs, n->cfg.cgroup_mount, 0, err);
	if (!ret)
		ret = node_cgroup_name(n, n->cfg.cgroup_root, name,
				       sizeof(name), err);
	if (!ret && name[0])
		ret = cgroupfs_create(&n->cgroups.fs, name, NULL, err);
	if (!ret)
		strcpy(n->cgroups.root_name, name);
	return ret;
}

static int run(struct node *n, const struct init_args *a,
	       struct kubelet_config *kc, struct cm_error *err)
{
	struct cpu_policy p;
	int ret;

	ret = kubelet_config_check_topology(kc, n->kernel.topo, err);
	if (!ret)
		ret = cpu_policy_init(&p, n->kernel.topo, &kc->policy, err);
	if (ret)
		return ret;
	fill_config(a, kc, &p, &n->cfg);
	cpu_policy_destroy(&p);
	n->files.has_config = true;
	ret = make_root(n, err);
	/* the kernel has the last word: it refuses while pods hold CPUs */
	if (!ret)
		ret = node_configure(n, err);
	if (!ret)
		ret = node_save_config(n, err);
	if (!ret)
		ret = node_save_checkpoint(n, a->force ? NODE_FORCE : 0, err);
	return ret;
}

/* After the node is set up: the runtime's way to cpumgr, if asked. */
static int apply_integration(const struct init_args *a)
{
	struct ctl_integration_env env;
	struct cm_error err = { 0 };

	if (a->integration < 0)
		return CPUMGRCTL_EXIT_OK;
	ctl_integration_env_default(&env);
	if (!ctl_integration_apply((enum ctl_integration)a->integration, &env,
				   stdout, &err))
		return CPUMGRCTL_EXIT_OK;
	ctl_err("init: %s", cm_error_msg(&err));
	cm_error_clear(&err);
	return CPUMGRCTL_EXIT_FAIL;
}

static int cmd_init(int argc, char **argv)
{
	struct cm_error err = { 0 };
	struct kubelet_config kc;
	struct init_args a;
	struct node n;
	char *reserved;
	int ret;

	if (parse_args(argc, argv, &a))
		return CPUMGRCTL_EXIT_USAGE;
	/* every input is checked before anything touches the node */
	if (kubelet_view(&a, &kc, &err)) {
		ctl_err("init: %s", cm_error_msg(&err));
		cm_error_clear(&err);
		kubelet_config_free(&kc);
		return CPUMGRCTL_EXIT_USAGE;
	}
	if (a.dry_run) {
		ret = dry_run(&a, &kc);
		kubelet_config_free(&kc);
		return ret;
	}
	/* bring back what a reloaded module lost before changing it */
	ret = ctl_node_open(&n, a.state_dir,
			    NODE_CREATE | (a.force ? NODE_FORCE : 0));
	if (ret) {
		kubelet_config_free(&kc);
		return ret;
	}
	ret = run(&n, &a, &kc, &err);
	kubelet_config_free(&kc);
	if (ret)
		return ctl_node_fail(&n, &err, "init");
	reserved = cpuset_to_str(&n.cfg.reserved);
	printf("policy %s reserved %s enforce %s hotplug %s cgroup-root %s\n",
	       cpu_policy_name(n.cfg.policy),
	       reserved && reserved[0] ? reserved : "(none)",
	       cpumgr_enforce_name(n.cfg.enforce),
	       cpumgr_hotplug_name(n.cfg.hotplug), n.cfg.cgroup_root);
	free(reserved);
	node_close(&n);
	return apply_integration(&a);
}

CPUMGRCTL_COMMAND(init, "init",
		  "[--cpu-manager-policy none|static] [--cpu-manager-policy-options K=V,...]\n"
		  "\t\t[--reserved-cpus LIST] [--kube-reserved cpu=Q,...] [--system-reserved cpu=Q,...]\n"
		  "\t\t[--topology-manager-policy P] [--config KUBELETCONFIG] [--cgroup-root PATH]\n"
		  "\t\t[--enforce off|audit|enforce] [--hotplug protect|release] [--cpu-cfs-quota BOOL]\n"
		  "\t\t[--disable-cpu-quota-with-exclusive-cpus BOOL] [--force] [--dry-run] [--strict]\n"
		  "\t\t[--integration none|nri-decide|nri-guard|oci-hook] [--state-dir DIR]",
		  "configure the node's CPU manager and the module, kubelet style",
		  cmd_init);
