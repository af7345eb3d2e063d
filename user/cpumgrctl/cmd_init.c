// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl init: configure the node the way the kubelet is configured
 * (its flag names, or a KubeletConfiguration file, flags overriding the
 * file), CONFIGURE the module and record the configuration in the state
 * directory.  The reserved CPUs are resolved here, once: a count is
 * taken the kubelet's way on the kernel's topology.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "ctl_integration.h"
#include "ctl_kubelet.h"
#include "ctl_node.h"
#include "ctl_ready.h"
#include "ctl_runtime.h"
#include "go_strconv.h"
#include "kubelet_version.h"
#include "kubeletconfig.h"
#include "quiet_partition.h"
#include "strbuf.h"
#include "topology_sysfs.h"

/* The kubelet's own flags: given to kubelet_config_flag() in order. */
static const char *const kubelet_flags[] = {
	"cpu-manager-policy", "cpu-manager-policy-options", "reserved-cpus",
	"kube-reserved", "system-reserved", "topology-manager-policy",
	"cpu-manager-reconcile-period", "cgroup-driver", NULL,
};

/* --pool-moves auto: chosen by pool_moves_auto() */
#define POOL_MOVES_AUTO	(-3)

struct init_args {
	const char *state_dir, *config, *root, *mount;
	/* quiet CPUs: NULL keeps the defaults */
	const char *proc, *sys, *irqbalance_config, *irqbalance_restart;
	int pool_moves;		/* -2: the default, POOL_MOVES_AUTO */
	/* KEP-5894: NULL takes the system cgroup's as the kubelet left it */
	const char *system_partition, *system_namespaces;
	const char *kubelet_config, *kubelet_state;	/* the kubelet's own */
	int enforce, hotplug, quota, no_quota_excl, init_cpus;
	bool force, dry_run, strict;
	bool keep_if_busy;	/* --on-busy keep */
	/* --integration: -1 leaves the node's as it is */
	int integration;
	int kubelet_minor;	/* --kubelet-version, 0: none */
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

static bool is_kubelet_flag(const char *name)
{
	for (const char *const *f = kubelet_flags; *f; f++)
		if (!strcmp(*f, name))
			return true;
	return false;
}

/* The index of a mode's name (the table has checked it is one). */
static int mode_value(const char *s, const char *(*name)(uint32_t))
{
	for (uint32_t i = 0; name(i); i++)
		if (!strcmp(name(i), s))
			return (int)i;
	return -1;
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

static int parse_args(const struct ctl_cmdline *cl, struct init_args *a)
{
	const char *v;

	memset(a, 0, sizeof(*a));
	a->enforce = a->hotplug = a->quota = a->no_quota_excl = -2;
	a->init_cpus = -2;
	a->pool_moves = -2;
	a->integration = -1;
	for (unsigned int i = 0; i < cl->nr_seq; i++) {
		const char *name = cl->cmd->opts[cl->seq[i].opt].name;

		if (!is_kubelet_flag(name))
			continue;
		if (a->nr == 32) {
			ctl_err("too many flags");
			return -1;
		}
		a->flag[a->nr] = name;
		a->value[a->nr++] = cl->seq[i].val;
	}
	a->state_dir = cl->state_dir;
	a->config = ctl_val(cl, "config");
	a->root = ctl_val(cl, "cgroup-root");
	a->mount = ctl_val(cl, "cgroup-mount");
	a->proc = ctl_val(cl, "proc-mount");
	a->sys = ctl_val(cl, "sys-mount");
	a->irqbalance_config = ctl_val(cl, "irqbalance-config");
	a->irqbalance_restart = ctl_val(cl, "irqbalance-restart");
	a->system_partition = ctl_val(cl, "system-partition");
	a->system_namespaces = ctl_val(cl, "system-namespaces");
	a->kubelet_config = ctl_val(cl, "kubelet-config") ?: CTL_KUBELET_CONFIG;
	a->kubelet_state = ctl_val(cl, "kubelet-state") ?: CTL_KUBELET_STATE;
	a->force = ctl_flag(cl, "force");
	a->dry_run = ctl_flag(cl, "dry-run");
	a->strict = ctl_flag(cl, "strict");
	a->keep_if_busy = ctl_val(cl, "on-busy") &&
			  !strcmp(ctl_val(cl, "on-busy"), "keep");
	v = ctl_val(cl, "enforce");
	if (v)
		a->enforce = mode_value(v, cpumgr_enforce_name);
	v = ctl_val(cl, "hotplug");
	if (v)
		a->hotplug = mode_value(v, cpumgr_hotplug_name);
	v = ctl_val(cl, "init-cpus");
	if (v)
		a->init_cpus = mode_value(v, node_init_cpus_name);
	v = ctl_val(cl, "pool-moves");
	if (v)
		a->pool_moves = strcmp(v, "auto") ?
				mode_value(v, node_pool_moves_name) :
				POOL_MOVES_AUTO;
	v = ctl_val(cl, "cpu-cfs-quota");
	if (v) {
		a->quota = parse_bool("cpu-cfs-quota", v);
		if (a->quota < 0)
			return -1;
	}
	v = ctl_val(cl, "disable-cpu-quota-with-exclusive-cpus");
	if (v) {
		a->no_quota_excl = parse_bool("disable-cpu-quota-with-exclusive-cpus",
					      v);
		if (a->no_quota_excl < 0)
			return -1;
	}
	v = ctl_val(cl, "integration");
	if (v && parse_integration(v, &a->integration))
		return -1;
	v = ctl_val(cl, "kubelet-version");
	if (v) {
		struct cm_error err = { 0 };

		if (kubelet_version_parse(v, &a->kubelet_minor, &err)) {
			ctl_err("init: %s", cm_error_msg(&err));
			cm_error_clear(&err);
			return -1;
		}
	}
	if (a->integration > CTL_INTEGRATION_NONE &&
	    strcmp(ctl_state_dir(a->state_dir), NODE_STATE_DIR)) {
		/* the units and the hook file run with the default one */
		ctl_err("init: --integration needs the state directory %s, not %s",
			NODE_STATE_DIR, ctl_state_dir(a->state_dir));
		return -1;
	}
	if ((a->root && a->root[0] != '/') || (a->mount && a->mount[0] != '/')) {
		ctl_err("--cgroup-root and --cgroup-mount need absolute paths");
		return -1;
	}
	if ((a->proc && a->proc[0] != '/') || (a->sys && a->sys[0] != '/') ||
	    (a->irqbalance_config && a->irqbalance_config[0] != '/')) {
		ctl_err("--proc-mount, --sys-mount and --irqbalance-config need absolute paths");
		return -1;
	}
	if (a->system_namespaces && a->system_partition &&
	    !strcmp(a->system_partition, "none")) {
		ctl_err("--system-namespaces: no system partition (--system-partition none)");
		return -1;
	}
	if (a->irqbalance_restart &&
	    strlen(a->irqbalance_restart) >= NODE_COMMAND_MAX) {
		ctl_err("--irqbalance-restart: longer than %d bytes",
			NODE_COMMAND_MAX - 1);
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
	for (unsigned int i = 0; i < kc->unknown.nr && !a->strict; i++)
		ctl_note("%s: unknown field \"%s\" (ignored, as the kubelet does)",
			 a->config, kc->unknown.kv[i].key);
	/* --strict: one line naming them all */
	if (a->strict && kc->unknown.nr) {
		struct strbuf sb = STRBUF_INIT;
		char *names;

		for (unsigned int i = 0; i < kc->unknown.nr; i++)
			strbuf_addf(&sb, "%s\"%s\"", i ? ", " : "",
				    kc->unknown.kv[i].key);
		names = strbuf_detach(&sb, NULL);
		cm_errorf(err, "%s: unknown field%s %s (--strict)", a->config,
			  ctl_plural(kc->unknown.nr), names ? names : "?");
		free(names);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < a->nr; i++)
		if (kubelet_config_flag(kc, a->flag[i], a->value[i], err))
			return -EINVAL;
	if (kubelet_config_finish(kc, err))
		return -EINVAL;
	/* that kubelet would not start with an option its gates keep out */
	return kubelet_check_options(a->kubelet_minor, &kc->policy.opts,
				     kc->gate_alpha_options > 0,
				     kc->gate_beta_options != 0, err);
}

/*
 * The checkpoint version of the kubelet named (its PodLevelResource-
 * Managers gate from the file, on by default from 1.37); v2 without one.
 */
static enum checkpoint_version checkpoint_of(const struct init_args *a,
					     const struct kubelet_config *kc)
{
	bool pod_level = kc->gate_pod_level >= 0 ? kc->gate_pod_level :
			 a->kubelet_minor >= 37;

	return a->kubelet_minor ?
	       kubelet_checkpoint_version(a->kubelet_minor, pod_level) :
	       CHECKPOINT_V2;
}

/*
 * The recorded pods keep what they are: a pod that would become a system
 * pod, or stop being one, would hold CPUs it may not (or lose its
 * record, which its exclusive CPUs back).
 */
static int system_pods_kept(struct node *n, const struct node_config *old,
			    struct cm_error *err)
{
	for (unsigned int i = 0; i < n->nr_pods; i++) {
		const struct pod *p = &n->pods[i].pod;
		bool was = node_system_namespace(old, p->ns);

		if (was == node_system_namespace(&n->cfg, p->ns) &&
		    !(was && node_pod_in_kernel(n, p->uid)))
			continue;
		return cm_errorf(err, "system partition: pod %s (namespace %s) is recorded %s: remove it first (cpumgrctl remove)",
				 p->uid, p->ns ? p->ns : "",
				 node_pod_in_kernel(n, p->uid) ?
				 "with exclusive CPUs" : was ? "as a system pod" :
				 "as none");
	}
	return 0;
}

/*
 * The system partition (KEP-5894): the CPUs given, none, or (neither)
 * the system cgroup's own as the kubelet left it; its namespaces given,
 * or as they were; checked against the node.
 */
static int system_partition(const struct init_args *a, struct node *n,
			    const struct node_config *old,
			    struct cm_error *err)
{
	struct node_config *c = &n->cfg;
	bool found = false;
	int ret = 0;

	cpuset_zero(&c->system_cpus);
	if (!a->system_namespaces && node_system_on(old))
		strcpy(c->system_namespaces, old->system_namespaces);
	if (a->system_namespaces &&
	    node_system_namespaces_parse(a->system_namespaces,
					 c->system_namespaces,
					 sizeof(c->system_namespaces), err))
		return cm_error_prefix(err, "--system-namespaces"), -EINVAL;
	if (!a->system_partition) {
		ret = node_system_adopt(n, &found, err);
		if (ret)
			return ret;
		if (found) {
			char *cpus = cpuset_to_str(&c->system_cpus);

			ctl_note("system partition (KEP-5894): the system cgroup names CPUs %s: its pods (namespaces %s) run there, never on exclusive CPUs (--system-partition none: not so)",
				 cpus ? cpus : "?", c->system_namespaces);
			free(cpus);
		}
	} else if (strcmp(a->system_partition, "none") &&
		   (cpuset_parse_kube(&c->system_cpus, a->system_partition,
				      err) || cpuset_empty(&c->system_cpus))) {
		if (!cm_error_msg(err)[0])
			cm_errorf(err, "no CPUs");
		return cm_error_prefix(err, "--system-partition %s",
				       a->system_partition), -EINVAL;
	}
	ret = node_system_check(c, &n->kernel.online, err);
	if (!ret && node_system_on(c) && !n->cgroups.root_name[0])
		ret = cm_errorf(err, "system partition: it needs a managed cgroup root (--cgroup-root), whose system cgroup it is");
	if (!ret)
		ret = system_pods_kept(n, old, err);
	return ret;
}

static bool system_needs_reserved(const struct node_config *c)
{
	return node_system_on(c) && c->opts.strict_reservation;
}

/* What keeps the pool from moving by partitions on a node. */
enum partitions_bar {
	BAR_NONE,
	BAR_SYSTEMD,		/* the systemd driver */
	BAR_SYSTEM_RESERVED,	/* a system partition of reserved CPUs */
	BAR_NO_REMOTE,		/* no remote partitions: before 6.7, v1 */
};

static enum partitions_bar partitions_bar(const struct node_config *c,
					  bool remote)
{
	if (c->cgroup_driver == NODE_DRIVER_SYSTEMD)
		return BAR_SYSTEMD;
	if (system_needs_reserved(c))
		return BAR_SYSTEM_RESERVED;
	return remote ? BAR_NONE : BAR_NO_REMOTE;
}

/* --pool-moves partitions where the node bars it: init's refusal */
static int partitions_refused(enum partitions_bar bar, const char *root,
			      struct cm_error *err)
{
	switch (bar) {
	/*
	 * systemd writes a scope's cpuset.cpus from its AllowedCPUs again
	 * whenever a unit near it changes: a cgroup left to inherit would
	 * not stay so
	 */
	case BAR_SYSTEMD:
		return cm_errorf(err, "--pool-moves partitions: not with the systemd cgroup driver (%s): systemd would set the pool's cgroups from their AllowedCPUs again; use --pool-moves writes",
				 root);
	case BAR_SYSTEM_RESERVED:
		return cm_errorf(err, "system partition: not with --pool-moves partitions and strict-cpu-reservation: the managed root then holds no reserved CPU, so the system cgroup below it cannot");
	case BAR_NO_REMOTE:
		return cm_errorf(err, "--pool-moves partitions: this kernel has no cpuset.cpus.exclusive in %s (remote partitions: Linux 6.7 on, cgroup v2)",
				 root);
	case BAR_NONE:
		break;
	}
	return 0;
}

/*
 * --pool-moves auto: partitions wherever they can go, measured faster
 * there (bench_pool on 6.12 and 7.3: flat as the node fills, where
 * writes grow with it); writes where the node bars them.  Recorded pods
 * keep the way their cgroups were set up for.  The way chosen is what
 * is recorded; returns why, said once the init is done.
 */
static const char *pool_moves_auto(struct node *n, enum partitions_bar bar,
				   bool had_config,
				   enum node_pool_moves recorded)
{
	static const char *const why[] = {
		[BAR_NONE] = "remote partitions here, the kernel moves the pool",
		[BAR_SYSTEMD] = "the systemd cgroup driver sets the pool's cgroups again",
		[BAR_SYSTEM_RESERVED] = "the system partition holds reserved CPUs (strict-cpu-reservation)",
		[BAR_NO_REMOTE] = "no cpuset.cpus.exclusive here (remote partitions: Linux 6.7 on, cgroup v2)",
	};

	if (had_config && n->nr_pods) {
		n->cfg.pool_moves = recorded;
		return "the recorded pods' cgroups are set up for it";
	}
	n->cfg.pool_moves = bar == BAR_NONE ? NODE_POOL_PARTITIONS :
					      NODE_POOL_WRITES;
	return why[bar];
}

/* The managed cgroups: where, and who makes them (the kubelet's driver). */
static void fill_cgroups(const struct init_args *a,
			 const struct kubelet_config *kc,
			 struct node_config *c)
{
	if (a->mount)
		snprintf(c->cgroup_mount, sizeof(c->cgroup_mount), "%s",
			 a->mount);
	snprintf(c->cgroup_root, sizeof(c->cgroup_root), "%s",
		 a->root ? a->root : c->cgroup_mount);
	c->cgroup_driver = node_cgroup_driver_of(c->cgroup_root);
	if (kc->cgroup_driver && *kc->cgroup_driver)
		c->cgroup_driver = strcmp(kc->cgroup_driver, "systemd") ?
				   NODE_DRIVER_CGROUPFS : NODE_DRIVER_SYSTEMD;
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
	fill_cgroups(a, kc, c);
	if (a->enforce >= 0)
		c->enforce = (uint32_t)a->enforce;
	if (a->hotplug >= 0)
		c->hotplug = (uint32_t)a->hotplug;
	if (a->init_cpus >= 0)
		c->init_cpus = (enum node_init_cpus)a->init_cpus;
	if (a->pool_moves >= 0)
		c->pool_moves = (enum node_pool_moves)a->pool_moves;
	if (a->quota >= 0)
		c->cfs.cpu_cfs_quota = a->quota;
	if (a->no_quota_excl >= 0)
		c->cfs.disable_quota_exclusive = a->no_quota_excl;
	c->kubelet_minor = a->kubelet_minor;
	c->checkpoint_version = checkpoint_of(a, kc);
	if (a->proc)
		snprintf(c->proc_mount, sizeof(c->proc_mount), "%s", a->proc);
	if (a->sys)
		snprintf(c->sys_mount, sizeof(c->sys_mount), "%s", a->sys);
	if (a->irqbalance_config)
		snprintf(c->irqbalance_config, sizeof(c->irqbalance_config),
			 "%s", a->irqbalance_config);
	if (a->irqbalance_restart)
		snprintf(c->irqbalance_restart, sizeof(c->irqbalance_restart),
			 "%s", a->irqbalance_restart);
}

/*
 * The managed root's top cgroup, where init asks for remote partitions
 * (quiet_part_remote()); one init is still to make is asked of the
 * root, whose cpuset.cpus.isolated came with them.
 */
static bool dry_remote(const struct node *n)
{
	char top[PATH_MAX], path[PATH_MAX];
	const char *name = n->cgroups.root_name;
	struct cm_error err = { 0 };

	snprintf(top, sizeof(top), "%.*s", (int)strcspn(name, "/"), name);
	if (top[0] && (node_cgroup_path(n, top, path, sizeof(path), &err) ||
		       access(path, F_OK)))
		name = "";
	cm_error_clear(&err);
	return quiet_part_remote(&n->cgroups.fs, name);
}

/* The system partition as init would take it: given, or adopted. */
static int dry_system(const struct init_args *a, struct node *n,
		      struct cm_error *err)
{
	bool found;

	if (!a->system_partition)
		return node_system_adopt(n, &found, err);
	if (!strcmp(a->system_partition, "none"))
		return 0;
	if (cpuset_parse_kube(&n->cfg.system_cpus, a->system_partition, err))
		return cm_error_prefix(err, "--system-partition %s",
				       a->system_partition), -EINVAL;
	return 0;
}

/*
 * --pool-moves partitions or auto, judged on this machine's cgroups the
 * way init judges it, for a node with no pods recorded: a dry run reads
 * no state, and recorded pods keep the way theirs were set up for.
 */
static int dry_pool_moves(const struct init_args *a,
			  const struct kubelet_config *kc)
{
	struct cm_error err = { 0 };
	enum partitions_bar bar;
	struct node *n;
	int ret;

	if (a->pool_moves != POOL_MOVES_AUTO &&
	    a->pool_moves != NODE_POOL_PARTITIONS)
		return CPUMGRCTL_EXIT_OK;
	n = calloc(1, sizeof(*n));
	if (!n) {
		ctl_err("out of memory");
		return CPUMGRCTL_EXIT_FAIL;
	}
	node_config_default(&n->cfg);
	n->cfg.opts = kc->policy.opts;
	fill_cgroups(a, kc, &n->cfg);
	/* no cgroup file system there: said, not judged (as sysfs above) */
	if (cgroupfs_init(&n->cgroups.fs, n->cfg.cgroup_mount, 0, &err)) {
		ctl_note("--pool-moves not checked: %s", cm_error_msg(&err));
		ret = CPUMGRCTL_EXIT_OK;
	} else if (node_cgroup_name(n, n->cfg.cgroup_root,
				    n->cgroups.root_name,
				    sizeof(n->cgroups.root_name), &err) ||
		   dry_system(a, n, &err)) {
		ctl_err("%s", cm_error_msg(&err));
		ret = CPUMGRCTL_EXIT_USAGE;
	} else {
		bar = partitions_bar(&n->cfg, dry_remote(n));
		if (a->pool_moves == POOL_MOVES_AUTO) {
			const char *why = pool_moves_auto(n, bar, false,
							  NODE_POOL_WRITES);

			printf("dry run: --pool-moves auto chooses %s: %s, unless pods are recorded (they keep theirs)\n",
			       node_pool_moves_name(n->cfg.pool_moves), why);
		} else if (partitions_refused(bar, n->cfg.cgroup_root, &err))
			ctl_err("%s", cm_error_msg(&err));
		else
			printf("dry run: --pool-moves partitions: remote partitions here\n");
		ret = cm_error_msg(&err)[0] ? CPUMGRCTL_EXIT_FAIL :
					      CPUMGRCTL_EXIT_OK;
	}
	cm_error_clear(&err);
	free(n);
	return ret;
}

/*
 * --dry-run: the flags and the file as the kubelet reads them, the
 * reserved CPUs against this machine's CPUs (sysfs) and the way the pool
 * moves against its cgroups, with no module.
 */
static int dry_run(const struct init_args *a, struct kubelet_config *kc)
{
	struct cm_error err = { 0 };
	struct topology *t;
	char *reserved;

	t = topology_load_sysfs("/sys", &err);
	if (!t) {
		ctl_note("reserved CPUs not checked: %s", cm_error_msg(&err));
		cm_error_clear(&err);
	} else if (kubelet_config_check_topology(kc, t, &err)) {
		topology_free(t);
		ctl_err("%s", cm_error_msg(&err));
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
		printf("reserved %lld millicores (%d CPU%s, chosen at init)\n",
		       (long long)kc->reserved_milli, kc->policy.num_reserved,
		       ctl_plural((unsigned int)kc->policy.num_reserved));
	else
		printf("no reserved CPUs\n");
	free(reserved);
	return dry_pool_moves(a, kc);
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
	enum node_pool_moves moves = n->cfg.pool_moves;
	bool had_config = n->files.has_config;
	const char *auto_why = NULL;
	enum partitions_bar bar;
	struct node_config *old;
	struct cpu_policy p;
	int ret;

	ret = kubelet_config_check_topology(kc, n->kernel.topo, err);
	if (!ret)
		ret = cpu_policy_init(&p, n->kernel.topo, &kc->policy, err);
	if (ret)
		return ret;
	/* the configuration recorded, if any: what the pods were admitted by */
	old = malloc(sizeof(*old));
	if (!old) {
		cpu_policy_destroy(&p);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	*old = n->cfg;
	if (!had_config)
		node_config_default(old);
	fill_config(a, kc, &p, &n->cfg);
	cpu_policy_destroy(&p);
	n->files.has_config = true;
	ret = make_root(n, err);
	if (!ret)
		ret = system_partition(a, n, old, err);
	free(old);
	if (!ret) {
		bar = partitions_bar(&n->cfg,
				     quiet_part_remote(&n->cgroups.fs,
						       n->cgroups.root_name));
		if (a->pool_moves == POOL_MOVES_AUTO)
			auto_why = pool_moves_auto(n, bar, had_config, moves);
		if (n->cfg.pool_moves == NODE_POOL_PARTITIONS)
			ret = partitions_refused(bar, n->cfg.cgroup_root, err);
	}
	/* the pods' cgroups were set up for the other way: not switched under them */
	if (!ret && had_config && n->nr_pods && n->cfg.pool_moves != moves)
		ret = cm_errorf(err, "--pool-moves %s: %u pods are recorded, their cgroups set up for --pool-moves %s: remove them first (cpumgrctl remove)",
				node_pool_moves_name(n->cfg.pool_moves),
				n->nr_pods, node_pool_moves_name(moves));
	/* the kernel has the last word: it refuses while pods hold CPUs */
	if (!ret) {
		ret = node_configure(n, err);
		if (ret == -ENOTEMPTY)
			ctl_name_holders(n, err);
	}
	if (!ret)
		ret = node_save_config(n, err);
	if (!ret)
		ret = node_save_checkpoint(n, a->force ? NODE_FORCE : 0, err);
	if (!ret && auto_why)
		ctl_note("--pool-moves auto: %s (%s)",
			 node_pool_moves_name(n->cfg.pool_moves), auto_why);
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

static int cmd_init(const struct ctl_cmdline *cl)
{
	struct cm_error err = { 0 };
	struct kubelet_config kc;
	struct init_args a;
	bool had_config;
	struct node n;
	char *reserved;
	int ret;

	if (parse_args(cl, &a))
		return CPUMGRCTL_EXIT_USAGE;
	/* every input is checked before anything touches the node */
	if (kubelet_view(&a, &kc, &err)) {
		ctl_err("%s", cm_error_msg(&err));
		cm_error_clear(&err);
		kubelet_config_free(&kc);
		return CPUMGRCTL_EXIT_USAGE;
	}
	ret = ctl_kubelet_integration(&a.integration, a.kubelet_config,
				      a.kubelet_state);
	if (ret) {
		kubelet_config_free(&kc);
		return ret;
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
	had_config = n.files.has_config;
	ret = run(&n, &a, &kc, &err);
	kubelet_config_free(&kc);
	/* --on-busy keep: the node goes on with the settings it runs */
	if (ret == -ENOTEMPTY && a.keep_if_busy && had_config) {
		node_close(&n);
		return ctl_refused_keep(ctl_state_dir(a.state_dir), &err) ?:
		       apply_integration(&a);
	}
	if (ret)
		return ctl_node_fail(&n, &err, "init");
	ctl_refused_clear(ctl_state_dir(a.state_dir));
	reserved = cpuset_to_str(&n.cfg.reserved);
	printf("policy %s reserved %s enforce %s hotplug %s init-cpus %s cgroup-root %s cgroup-driver %s\n",
	       cpu_policy_name(n.cfg.policy),
	       reserved && reserved[0] ? reserved : "(none)",
	       cpumgr_enforce_name(n.cfg.enforce),
	       cpumgr_hotplug_name(n.cfg.hotplug),
	       node_init_cpus_name(n.cfg.init_cpus), n.cfg.cgroup_root,
	       node_cgroup_driver_name(n.cfg.cgroup_driver));
	if (node_system_on(&n.cfg)) {
		char *sys = cpuset_to_str(&n.cfg.system_cpus);

		printf("system partition %s namespaces %s\n", sys ? sys : "?",
		       n.cfg.system_namespaces);
		free(sys);
	}
	if (n.cfg.kubelet_minor)
		printf("kubelet 1.%d: checkpoint %s\n", n.cfg.kubelet_minor,
		       checkpoint_version_name(n.cfg.checkpoint_version));
	/* where it differs from the kubelet: said once, here */
	if (n.cfg.pool_moves == NODE_POOL_PARTITIONS)
		ctl_note("--pool-moves partitions: a container that ends keeps its CPUs in its cgroup's partition until it is released (its runtime cannot remove the cgroup before), and an init container that ended is released when the next container of its pod is created, which may reuse its CPUs (doc/operator-guide.md, \"How the pool moves\")");
	free(reserved);
	node_close(&n);
	return apply_integration(&a);
}

CPUMGRCTL_COMMAND(init) = {
	.name = "init",
	.help = "configure the node's CPU manager and the module, kubelet style (kubelet flags override --config)",
	.opts = (const struct ctl_opt[]){
		{ "cpu-manager-policy", 0, "POLICY", CTL_WORD, "none static", "the kubelet's CPU Manager policy" },
		{ "cpu-manager-policy-options", 0, "K=V,...", CTL_ANY, NULL, "the static policy's options, as the kubelet takes them" },
		{ "reserved-cpus", 0, "CPULIST", CTL_ANY, NULL, "the reserved CPUs (the kubelet's --reserved-cpus)" },
		{ "kube-reserved", 0, "cpu=Q,...", CTL_ANY, NULL, "CPU reserved for Kubernetes: a quantity, CPUs chosen the kubelet's way" },
		{ "system-reserved", 0, "cpu=Q,...", CTL_ANY, NULL, "CPU reserved for the system, likewise" },
		{ "topology-manager-policy", 0, "POLICY", CTL_ANY, NULL, "none, best-effort, restricted or single-numa-node" },
		{ "cpu-manager-reconcile-period", 0, "DURATION", CTL_ANY, NULL, "how often the daemon reconciles, a Go duration (default 10s)" },
		{ "config", 'c', "KUBELETCONFIG", CTL_FILE, NULL, "a KubeletConfiguration file (YAML or JSON), read first" },
		{ "cgroup-root", 0, "PATH", CTL_DIR, NULL, "the managed cgroup root, absolute (made if missing; default: the mount)" },
		{ "cgroup-mount", 0, "PATH", CTL_DIR, NULL, "where cgroup v2 is mounted, absolute (default /sys/fs/cgroup)" },
		{ "cgroup-driver", 0, "DRIVER", CTL_WORD, "cgroupfs systemd", "who makes the pods' cgroups, the kubelet's cgroup driver: with systemd, cpusets of slices and scopes are set as their AllowedCPUs too (default: systemd when the cgroup root is a slice)" },
		{ "proc-mount", 0, "PATH", CTL_DIR, NULL, "where the host's procfs is, absolute (default /proc): interrupts' affinities, irqbalance (quiet CPUs)" },
		{ "sys-mount", 0, "PATH", CTL_DIR, NULL, "where the host's sysfs is, absolute (default /sys): idle states, governors (quiet CPUs)" },
		{ "irqbalance-config", 0, "FILE", CTL_ANY, NULL, "irqbalance's environment file, where its banned CPUs go, read when it starts (default " NODE_IRQBALANCE_CONFIG ")" },
		{ "irqbalance-restart", 0, "COMMAND", CTL_ANY, NULL, "how irqbalance is restarted to read it, a shell command (default \"" NODE_IRQBALANCE_RESTART "\")" },
		{ "enforce", 0, "MODE", CTL_WORD, "off audit enforce", "what the module does with a write that breaks exclusivity" },
		{ "hotplug", 0, "MODE", CTL_WORD, "protect release", "refuse to offline an assigned CPU, or take it from its container" },
		{ "init-cpus", 0, "MODE", CTL_WORD, "keep release", "what an init container that ran to its end keeps: its exclusive CPUs until its pod goes, as the kubelet does (keep, the default; with --pool-moves partitions until its pod's next container is created), or only those its pod's containers reuse (release)" },
		{ "pool-moves", 0, "WAY", CTL_WORD, "writes partitions auto", "how the shared pool's cgroups follow it: cpumgr writes each (writes, the default), or each exclusive container's cgroup is a cpuset partition the kernel takes its CPUs for (partitions; Linux 6.7 on), or partitions wherever they can go and writes elsewhere (auto: not before 6.7, with the systemd driver, or a system partition under strict-cpu-reservation; recorded pods keep theirs)" },
		{ "system-partition", 0, "CPULIST", CTL_ANY, NULL, "the node's system partition (KEP-5894): the CPUs of the managed root's system cgroup, where the system namespaces' pods run, never on exclusive CPUs; reserved CPUs under the static policy (default: the system cgroup's own, when it names some; none: no partition)" },
		{ "system-namespaces", 0, "NS,...", CTL_ANY, NULL, "the namespaces whose pods are the system partition's (default " NODE_SYSTEM_NAMESPACES ")" },
		{ "cpu-cfs-quota", 0, "BOOL", CTL_ANY, NULL, "enforce CPU limits with CFS quota (the kubelet's --cpu-cfs-quota)" },
		{ "disable-cpu-quota-with-exclusive-cpus", 0, "BOOL", CTL_ANY, NULL, "no CFS quota for containers with exclusive CPUs" },
		{ "force", 'f', NULL, CTL_ANY, NULL, "also over a checkpoint of another configuration" },
		{ "dry-run", 'n', NULL, CTL_ANY, NULL, "check the flags and the file on this machine's CPUs, and --pool-moves on its cgroups; no module, nothing changed" },
		{ "strict", 0, NULL, CTL_ANY, NULL, "an unknown KubeletConfiguration field is an error, not a warning" },
		{ "kubelet-version", 0, "VERSION", CTL_ANY, NULL, "the kubelet the node matches, 1.32 to 1.37: the checkpoint is written in its version (without it v2; 1.36 v3 with its PodLevelResourceManagers gate on, 1.37 v4) and options its gates keep out are refused" },
		{ "on-busy", 0, "WHAT", CTL_WORD, "fail keep", "when the kernel refuses the change because pods hold exclusive CPUs (they are named): fail (exit 1, the default), or keep the node's settings, record the refusal for status and exit 0 (the DaemonSet)" },
		{ "integration", 0, "WAY", CTL_WORD, "none nri-decide nri-guard oci-hook nri-follow", "how the container runtime meets cpumgr: every other way is turned off, then this one on (default: left as it is); nri-decide and oci-hook are refused while the kubelet runs static, nri-follow is nri-guard then and nri-decide otherwise" },
		CTL_OPT_KUBELET_CONFIG,
		{ "kubelet-state", 0, "FILE", CTL_FILE, NULL, "the kubelet's cpu_manager_state, read likewise (default " CTL_KUBELET_STATE ")" },
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = {
		"cpumgrctl init --cpu-manager-policy static --reserved-cpus 0 --enforce enforce",
		"cpumgrctl init --config /var/lib/kubelet/config.yaml --dry-run",
		"cpumgrctl init --cpu-manager-policy static --reserved-cpus 0-1 --integration nri-decide",
	},
	.run = cmd_init,
};
