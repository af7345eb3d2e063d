// SPDX-License-Identifier: GPL-2.0
/*
 * config.json: what `cpumgrctl init` resolved, so every later command
 * (and a module that was reloaded) gets the same configuration.  The
 * reserved CPUs are stored as a set even when init was given a count:
 * taking them again on a changed topology could pick others.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "kubelet_version.h"
#include "node.h"

#define NS_PER_SEC	1000000000LL

static const struct {
	const char *name;
	size_t off;
	uint32_t bit;
} opt_table[] = {
	{ OPT_FULL_PCPUS_ONLY, offsetof(struct policy_options, full_pcpus_only),
	  CPUMGR_OPT_FULL_PCPUS_ONLY },
	{ OPT_DISTRIBUTE_CPUS_ACROSS_NUMA,
	  offsetof(struct policy_options, distribute_numa),
	  CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_NUMA },
	{ OPT_ALIGN_BY_SOCKET, offsetof(struct policy_options, align_by_socket),
	  CPUMGR_OPT_ALIGN_BY_SOCKET },
	{ OPT_DISTRIBUTE_CPUS_ACROSS_CORES,
	  offsetof(struct policy_options, distribute_cores),
	  CPUMGR_OPT_DISTRIBUTE_CPUS_ACROSS_CORES },
	{ OPT_STRICT_CPU_RESERVATION,
	  offsetof(struct policy_options, strict_reservation),
	  CPUMGR_OPT_STRICT_CPU_RESERVATION },
	{ OPT_PREFER_ALIGN_BY_UNCORECACHE,
	  offsetof(struct policy_options, prefer_uncore),
	  CPUMGR_OPT_PREFER_ALIGN_CPUS_BY_UNCORECACHE },
};

#define NR_OPTS	(sizeof(opt_table) / sizeof(*opt_table))

static bool opt_on(const struct policy_options *o, size_t i)
{
	return *(const bool *)((const char *)o + opt_table[i].off);
}

const char *node_init_cpus_name(uint32_t v)
{
	static const char *const names[] = { "keep", "release" };

	return v < sizeof(names) / sizeof(*names) ? names[v] : NULL;
}

const char *node_cgroup_driver_name(uint32_t v)
{
	static const char *const names[] = { "cgroupfs", "systemd" };

	return v < sizeof(names) / sizeof(*names) ? names[v] : NULL;
}

enum node_cgroup_driver node_cgroup_driver_of(const char *cgroup_root)
{
	size_t n = strlen(cgroup_root);

	while (n > 1 && cgroup_root[n - 1] == '/')
		n--;
	return n > 6 && !strncmp(cgroup_root + n - 6, ".slice", 6) ?
	       NODE_DRIVER_SYSTEMD : NODE_DRIVER_CGROUPFS;
}

const char *node_pool_moves_name(uint32_t v)
{
	static const char *const names[] = { "writes", "partitions" };

	return v < sizeof(names) / sizeof(*names) ? names[v] : NULL;
}

void node_config_default(struct node_config *c)
{
	memset(c, 0, sizeof(*c));
	c->policy = CPU_POLICY_NONE;
	c->tm = TM_POLICY_NONE;
	snprintf(c->cgroup_mount, sizeof(c->cgroup_mount), "%s",
		 CGROUPFS_MOUNT);
	snprintf(c->cgroup_root, sizeof(c->cgroup_root), "%s",
		 CGROUPFS_MOUNT);
	c->enforce = CPUMGR_ENFORCE_ENFORCE;
	c->hotplug = CPUMGR_HOTPLUG_PROTECT;
	cfs_options_default(&c->cfs);
	c->reconcile_ns = 10 * NS_PER_SEC;
	c->checkpoint_version = CHECKPOINT_V2;
	strcpy(c->proc_mount, NODE_PROC_MOUNT);
	strcpy(c->sys_mount, NODE_SYS_MOUNT);
	strcpy(c->irqbalance_config, NODE_IRQBALANCE_CONFIG);
	strcpy(c->irqbalance_restart, NODE_IRQBALANCE_RESTART);
	strcpy(c->system_namespaces, NODE_SYSTEM_NAMESPACES);
}

uint32_t node_config_option_bits(const struct node_config *c)
{
	uint32_t bits = 0;

	for (size_t i = 0; i < NR_OPTS; i++)
		if (opt_on(&c->opts, i))
			bits |= opt_table[i].bit;
	return bits;
}

void node_config_policy(const struct node_config *c, struct policy_config *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = c->policy;
	out->opts = c->opts;
	out->tm = c->tm;
	out->num_reserved = (int)cpuset_count(&c->reserved);
	out->has_reserved_cpus = true;
	out->reserved_cpus = c->reserved;
	/* the kubelet writes v3 or v4 exactly when its gate is on */
	out->pod_level = c->checkpoint_version >= CHECKPOINT_V3;
}

static int add_str(cJSON *o, const char *k, const char *v)
{
	return cJSON_AddStringToObject(o, k, v) ? 0 : -ENOMEM;
}

cJSON *node_config_to_json(const struct node_config *c)
{
	cJSON *j = cJSON_CreateObject(), *opts;
	char *reserved = cpuset_to_str(&c->reserved);
	int ret = 0;

	opts = cJSON_AddObjectToObject(j, "cpuManagerPolicyOptions");
	for (size_t i = 0; i < NR_OPTS && opts; i++)
		if (opt_on(&c->opts, i))
			ret |= add_str(opts, opt_table[i].name, "true");
	ret |= add_str(j, "cpuManagerPolicy", cpu_policy_name(c->policy));
	ret |= add_str(j, "topologyManagerPolicy", tm_policy_name(c->tm));
	ret |= add_str(j, "reservedCPUs", reserved ? reserved : "");
	if (!cJSON_AddNumberToObject(j, "reservedMillicores",
				     (double)c->reserved_milli) ||
	    !cJSON_AddNumberToObject(j, "reconcilePeriodSeconds",
				     (double)c->reconcile_ns / NS_PER_SEC) ||
	    !cJSON_AddBoolToObject(j, "cpuCFSQuota", c->cfs.cpu_cfs_quota) ||
	    !cJSON_AddBoolToObject(j, "disableCPUQuotaWithExclusiveCPUs",
				   c->cfs.disable_quota_exclusive) ||
	    !cJSON_AddNumberToObject(j, "cpuCFSQuotaPeriodMicroseconds",
				     (double)c->cfs.period))
		ret = -ENOMEM;
	ret |= add_str(j, "cgroupMount", c->cgroup_mount);
	ret |= add_str(j, "cgroupRoot", c->cgroup_root);
	ret |= add_str(j, "cgroupDriver",
		       node_cgroup_driver_name(c->cgroup_driver));
	ret |= add_str(j, "enforce", cpumgr_enforce_name(c->enforce));
	ret |= add_str(j, "hotplug", cpumgr_hotplug_name(c->hotplug));
	ret |= add_str(j, "initCpus", node_init_cpus_name(c->init_cpus));
	if (c->kubelet_minor) {
		char v[16];

		snprintf(v, sizeof(v), "1.%d", c->kubelet_minor);
		ret |= add_str(j, "kubeletVersion", v);
	}
	ret |= add_str(j, "checkpointVersion",
		       checkpoint_version_name(c->checkpoint_version));
	ret |= add_str(j, "procMount", c->proc_mount);
	ret |= add_str(j, "sysMount", c->sys_mount);
	ret |= add_str(j, "irqbalanceConfig", c->irqbalance_config);
	ret |= add_str(j, "irqbalanceRestart", c->irqbalance_restart);
	ret |= add_str(j, "poolMoves", node_pool_moves_name(c->pool_moves));
	if (node_system_on(c)) {
		char *sys = cpuset_to_str(&c->system_cpus);

		ret |= sys ? add_str(j, "systemPartitionCPUs", sys) : -ENOMEM;
		ret |= add_str(j, "systemNamespaces", c->system_namespaces);
		free(sys);
	}
	free(reserved);
	if (ret || !opts || !reserved) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

static int get_str(const cJSON *j, const char *k, const char **out,
		   struct cm_error *err)
{
	const cJSON *v = json_member(j, k);

	if (!cJSON_IsString(v))
		return cm_errorf(err, "%s: \"%s\" must be a string", NODE_CONFIG_FILE, k);
	*out = v->valuestring;
	return 0;
}

static int get_num(const cJSON *j, const char *k, double *out,
		   struct cm_error *err)
{
	const cJSON *v = json_member(j, k);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0)
		return cm_errorf(err, "%s: \"%s\" must be a non-negative number",
				 NODE_CONFIG_FILE, k);
	*out = v->valuedouble;
	return 0;
}

static int get_bool(const cJSON *j, const char *k, bool *out,
		    struct cm_error *err)
{
	const cJSON *v = json_member(j, k);

	if (!cJSON_IsBool(v))
		return cm_errorf(err, "%s: \"%s\" must be true or false",
				 NODE_CONFIG_FILE, k);
	*out = cJSON_IsTrue(v);
	return 0;
}

/* name among names[], its index into *out */
static int get_enum(const cJSON *j, const char *k,
		    const char *(*name)(uint32_t), uint32_t *out,
		    struct cm_error *err)
{
	const char *s = "";

	if (get_str(j, k, &s, err))
		return -EINVAL;
	for (uint32_t i = 0; name(i); i++)
		if (!strcmp(name(i), s)) {
			*out = i;
			return 0;
		}
	return cm_errorf(err, "%s: \"%s\": unknown value \"%s\"",
			 NODE_CONFIG_FILE, k, s);
}

static int get_path(const cJSON *j, const char *k, char *out,
		    struct cm_error *err)
{
	const char *s = "";

	if (get_str(j, k, &s, err))
		return -EINVAL;
	if (s[0] != '/' || strlen(s) >= PATH_MAX)
		return cm_errorf(err, "%s: \"%s\" must be an absolute path",
				 NODE_CONFIG_FILE, k);
	strcpy(out, s);
	return 0;
}

int node_config_from_json(struct node_config *c, const cJSON *j,
			  struct cm_error *err)
{
	const cJSON *opts = json_member(j, "cpuManagerPolicyOptions"), *m;
	const char *s = "";
	double milli = 0, period = 0, reconcile = 0;
	uint32_t init_cpus = NODE_INIT_CPUS_KEEP, driver;

	node_config_default(c);
	if (!cJSON_IsObject(j))
		return cm_errorf(err, "%s: not a JSON object", NODE_CONFIG_FILE);
	if (get_str(j, "cpuManagerPolicy", &s, err) ||
	    cpu_policy_parse_kind(s, &c->policy, err) ||
	    get_str(j, "topologyManagerPolicy", &s, err) ||
	    tm_policy_parse(s, &c->tm, err) ||
	    get_str(j, "reservedCPUs", &s, err) ||
	    cpuset_parse_kube(&c->reserved, s, err) ||
	    get_num(j, "reservedMillicores", &milli, err) ||
	    get_num(j, "reconcilePeriodSeconds", &reconcile, err) ||
	    get_bool(j, "cpuCFSQuota", &c->cfs.cpu_cfs_quota, err) ||
	    get_bool(j, "disableCPUQuotaWithExclusiveCPUs",
		     &c->cfs.disable_quota_exclusive, err) ||
	    get_num(j, "cpuCFSQuotaPeriodMicroseconds", &period, err) ||
	    get_path(j, "cgroupMount", c->cgroup_mount, err) ||
	    get_path(j, "cgroupRoot", c->cgroup_root, err) ||
	    get_enum(j, "enforce", cpumgr_enforce_name, &c->enforce, err) ||
	    get_enum(j, "hotplug", cpumgr_hotplug_name, &c->hotplug, err))
		goto bad;
	/* written before the option: the kubelet's behaviour */
	if (json_member(j, "initCpus") &&
	    get_enum(j, "initCpus", node_init_cpus_name, &init_cpus, err))
		goto bad;
	c->init_cpus = init_cpus;
	/* written by init since it exists; older files: by the root */
	driver = node_cgroup_driver_of(c->cgroup_root);
	if (json_member(j, "cgroupDriver") &&
	    get_enum(j, "cgroupDriver", node_cgroup_driver_name, &driver, err))
		goto bad;
	c->cgroup_driver = driver;
	/* both written by init since they exist; older files: none, v2 */
	if (json_member(j, "kubeletVersion") &&
	    (get_str(j, "kubeletVersion", &s, err) ||
	     kubelet_version_parse(s, &c->kubelet_minor, err)))
		goto bad;
	if (json_member(j, "checkpointVersion") &&
	    (get_str(j, "checkpointVersion", &s, err) ||
	     checkpoint_version_parse(s, &c->checkpoint_version, err)))
		goto bad;
	/* written by init since quiet CPUs; older files: the defaults */
	if ((json_member(j, "procMount") &&
	     get_path(j, "procMount", c->proc_mount, err)) ||
	    (json_member(j, "sysMount") &&
	     get_path(j, "sysMount", c->sys_mount, err)) ||
	    (json_member(j, "irqbalanceConfig") &&
	     get_path(j, "irqbalanceConfig", c->irqbalance_config, err)))
		goto bad;
	if (json_member(j, "irqbalanceRestart")) {
		if (get_str(j, "irqbalanceRestart", &s, err))
			goto bad;
		if (strlen(s) >= sizeof(c->irqbalance_restart)) {
			cm_errorf(err, "%s: \"irqbalanceRestart\" is too long",
				  NODE_CONFIG_FILE);
			goto bad;
		}
		strcpy(c->irqbalance_restart, s);
	}
	if (json_member(j, "poolMoves")) {
		uint32_t moves;

		if (get_enum(j, "poolMoves", node_pool_moves_name, &moves, err))
			goto bad;
		c->pool_moves = moves;
	}
	/* written by init with a system partition; none in older files */
	if (json_member(j, "systemPartitionCPUs") &&
	    (get_str(j, "systemPartitionCPUs", &s, err) ||
	     cpuset_parse(&c->system_cpus, s, err) ||
	     get_str(j, "systemNamespaces", &s, err) ||
	     node_system_namespaces_parse(s, c->system_namespaces,
					  sizeof(c->system_namespaces), err)))
		goto bad;
	c->reserved_milli = (int64_t)milli;
	c->cfs.period = (uint64_t)period;
	c->reconcile_ns = (int64_t)(reconcile * NS_PER_SEC);
	if (opts && !cJSON_IsObject(opts)) {
		cm_errorf(err, "cpuManagerPolicyOptions: must be an object");
		goto bad;
	}
	cJSON_ArrayForEach(m, opts) {
		if (!cJSON_IsString(m) ||
		    options_set(&c->opts, m->string, m->valuestring, err))
			goto bad;
	}
	return 0;
bad:
	if (!cm_error_msg(err)[0])
		cm_errorf(err, "%s: malformed", NODE_CONFIG_FILE);
	return -EINVAL;
}

/*
 * The system partition (KEP-5894): the pods of the system namespaces
 * (kube-system unless told otherwise) run on the partition's CPUs, in
 * the managed root's system cgroup (node_narrow.c).  Those CPUs are
 * shared with the kubelet and the runtime: the reserved CPUs, which the
 * static policy never hands out.  So under the static policy they must
 * be reserved ones, system pods never get exclusive CPUs (they run on
 * the partition's, whatever they ask for), and the kernel is told the
 * system cgroup: it refuses to bind an exclusive container there and,
 * under strict-cpu-reservation, lets the partition hold the reserved
 * CPUs no other pod may.
 */

bool node_system_on(const struct node_config *c)
{
	return !cpuset_empty(&c->system_cpus);
}

bool node_system_namespace(const struct node_config *c, const char *ns)
{
	const char *s = c->system_namespaces;
	size_t nl;

	if (!node_system_on(c) || !ns || !*ns)
		return false;
	nl = strlen(ns);
	while (*s) {
		size_t len = strcspn(s, ",");

		if (len == nl && !strncmp(s, ns, nl))
			return true;
		s += len + (s[len] == ',');
	}
	return false;
}

int node_system_namespaces_parse(const char *s, char *out, size_t len,
				 struct cm_error *err)
{
	const char *p = s;

	if (!*s)
		return cm_errorf(err, "system namespaces: none given");
	if (strlen(s) >= len)
		return cm_errorf(err, "system namespaces: longer than %zu bytes",
				 len - 1);
	while (*p) {
		char ns[CONTAINER_NAME_MAX + 2];
		size_t l = strcspn(p, ",");

		snprintf(ns, sizeof(ns), "%.*s", (int)(l < sizeof(ns) ? l :
						       sizeof(ns) - 1), p);
		if (l >= sizeof(ns) - 1 || !pod_name_valid(ns))
			return cm_errorf(err, "system namespaces: \"%.*s\" is not a namespace name (an RFC 1123 label)",
					 (int)l, p);
		p += l;
		if (*p == ',' && !*++p)
			return cm_errorf(err, "system namespaces: \"%s\" ends in a comma",
					 s);
	}
	strcpy(out, s);
	return 0;
}

int node_system_check(const struct node_config *c, const struct cpuset *online,
		      struct cm_error *err)
{
	struct cpuset off, loose;
	char a[256], b[256];

	if (!node_system_on(c))
		return 0;
	cpuset_andnot(&off, &c->system_cpus, online);
	if (!cpuset_empty(&off)) {
		cpuset_format(&off, a, sizeof(a));
		return cm_errorf(err, "system partition: CPUs %s are not online",
				 a);
	}
	cpuset_andnot(&loose, &c->system_cpus, &c->reserved);
	if (c->policy == CPU_POLICY_STATIC && !cpuset_empty(&loose)) {
		cpuset_format(&loose, a, sizeof(a));
		cpuset_format(&c->reserved, b, sizeof(b));
		return cm_errorf(err, "system partition: CPUs %s are not reserved (reserved: %s): the static policy would give them to containers exclusively; reserve them (--reserved-cpus) or leave them out",
				 a, b[0] ? b : "none");
	}
	return 0;
}
