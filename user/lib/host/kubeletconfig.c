// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "json_util.h"
#include "kubeletconfig.h"
#include "quantity.h"

#define NS_PER_SEC	1000000000LL

/* the map settings, and the bit of flags_seen each one's flag sets */
enum { MAP_OPTIONS, MAP_KUBE, MAP_SYSTEM };

static struct kv_list *map_of(struct kubelet_config *c, int which)
{
	return which == MAP_OPTIONS ? &c->policy_options :
	       which == MAP_KUBE ? &c->kube_reserved : &c->system_reserved;
}

static void kv_clear(struct kv_list *l)
{
	for (unsigned int i = 0; i < l->nr; i++) {
		free(l->kv[i].key);
		free(l->kv[i].value);
	}
	free(l->kv);
	memset(l, 0, sizeof(*l));
}

/* map[k] = v: a key given again replaces its value */
static int kv_set(struct kv_list *l, const char *k, const char *v)
{
	char *value = strdup(v), *key;
	struct kv *n;

	if (!value)
		return -ENOMEM;
	for (unsigned int i = 0; i < l->nr; i++)
		if (!strcmp(l->kv[i].key, k)) {
			free(l->kv[i].value);
			l->kv[i].value = value;
			return 0;
		}
	key = strdup(k);
	n = key ? realloc(l->kv, (l->nr + 1) * sizeof(*n)) : NULL;
	if (!n) {
		free(key);
		free(value);
		return -ENOMEM;
	}
	l->kv = n;
	l->kv[l->nr].key = key;
	l->kv[l->nr++].value = value;
	return 0;
}

static int set_str(char **field, const char *v, struct cm_error *err)
{
	char *s = strdup(v);

	if (!s)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	free(*field);
	*field = s;
	return 0;
}

int kubelet_config_init(struct kubelet_config *c)
{
	memset(c, 0, sizeof(*c));
	c->cpu_manager_policy = strdup("none");
	c->topology_manager_policy = strdup("none");
	c->reserved_system_cpus = strdup("");
	c->reconcile_period_ns = 10 * NS_PER_SEC;
	c->gate_pod_level = c->gate_alpha_options = c->gate_beta_options = -1;
	if (!c->cpu_manager_policy || !c->topology_manager_policy ||
	    !c->reserved_system_cpus) {
		kubelet_config_free(c);
		return -ENOMEM;
	}
	return 0;
}

void kubelet_config_free(struct kubelet_config *c)
{
	free(c->cpu_manager_policy);
	free(c->topology_manager_policy);
	free(c->reserved_system_cpus);
	free(c->cgroup_driver);
	kv_clear(&c->policy_options);
	kv_clear(&c->kube_reserved);
	kv_clear(&c->system_reserved);
	kv_clear(&c->unknown);
	memset(c, 0, sizeof(*c));
}

/* ---- time.ParseDuration ---- */

static const struct {
	const char *name;
	uint64_t ns;
} units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 },
	{ "\xce\xbcs", 1000 }, { "ms", 1000000 }, { "s", NS_PER_SEC },
	{ "m", 60 * NS_PER_SEC }, { "h", 3600 * NS_PER_SEC },
};

#define DURATION_MAX	((uint64_t)1 << 63)

int go_parse_duration(const char *orig, int64_t *ns, struct cm_error *err)
{
	const char *s = orig;
	uint64_t d = 0;
	bool neg = false;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!strcmp(s, "0")) {
		*ns = 0;
		return 0;
	}
	if (!*s)
		goto invalid;
	while (*s) {
		uint64_t v = 0, f = 0, unit = 0;
		double scale = 1;
		bool pre = false, post = false, overflow = false;
		size_t n;

		if (*s != '.' && !isdigit((unsigned char)*s))
			goto invalid;
		for (; isdigit((unsigned char)*s); s++, pre = true) {
			if (v > DURATION_MAX / 10)
				goto invalid;
			v = v * 10 + (uint64_t)(*s - '0');
			if (v > DURATION_MAX)
				goto invalid;
		}
		if (*s == '.') {
			/* fraction digits past 63 bits are dropped, as Go does */
			for (s++; isdigit((unsigned char)*s); s++,
			     post = true) {
				if (overflow || f > (DURATION_MAX - 1) / 10) {
					overflow = true;
					continue;
				}
				f = f * 10 + (uint64_t)(*s - '0');
				scale *= 10;
			}
		}
		if (!pre && !post)
			goto invalid;
		n = strcspn(s, ".0123456789");
		if (!n)
			return cm_errorf(err, "time: missing unit in duration \"%s\"",
					 orig);
		for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
			if (strlen(units[i].name) == n &&
			    !strncmp(s, units[i].name, n))
				unit = units[i].ns;
		if (!unit)
			return cm_errorf(err, "time: unknown unit \"%.*s\" in duration \"%s\"",
					 (int)n, s, orig);
		s += n;
		if (v > DURATION_MAX / unit)
			goto invalid;
		v *= unit;
		if (f) {
			v += (uint64_t)((double)f * ((double)unit / scale));
			if (v > DURATION_MAX)
				goto invalid;
		}
		d += v;
		if (d > DURATION_MAX)
			goto invalid;
	}
	if (!neg && d > DURATION_MAX - 1)
		goto invalid;
	*ns = neg ? (int64_t)(0 - d) : (int64_t)d;
	return 0;
invalid:
	return cm_errorf(err, "time: invalid duration \"%s\"", orig);
}

/* ---- flags ---- */

/*
 * cliflag.MapStringString: "k=v,k=v" with blanks trimmed; its first use
 * replaces what the file set, later uses add to it.
 */
static int set_map_flag(struct kubelet_config *c, int which, const char *value,
			struct cm_error *err)
{
	struct kv_list *l = map_of(c, which), tmp = { 0 };
	char *copy = strdup(value), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (c->flags_seen & 1u << which) {
		tmp = *l;	/* keep adding to the flag's own map */
		memset(l, 0, sizeof(*l));
	}
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *k = tok, *eq, *v;

		k += strspn(k, " \t\n\r\v\f");
		if (!*k)
			continue;
		eq = strchr(k, '=');
		if (!eq) {
			ret = cm_errorf(err, "malformed pair, expect string=string");
			break;
		}
		*eq = '\0';
		v = eq + 1;
		for (char *e = eq; e > k && isspace((unsigned char)e[-1]); )
			*--e = '\0';
		v += strspn(v, " \t\n\r\v\f");
		for (char *e = v + strlen(v);
		     e > v && isspace((unsigned char)e[-1]); )
			*--e = '\0';
		if (kv_set(&tmp, k, v))
			ret = (cm_errorf(err, "out of memory"), -ENOMEM);
	}
	free(copy);
	if (ret) {
		if (c->flags_seen & 1u << which)
			*l = tmp;
		else
			kv_clear(&tmp);
		return ret;
	}
	kv_clear(l);
	*l = tmp;
	c->flags_seen |= 1u << which;
	return 0;
}

int kubelet_config_flag(struct kubelet_config *c, const char *flag,
			const char *value, struct cm_error *err)
{
	const char *name = flag + (strncmp(flag, "--", 2) ? 0 : 2);
	int ret;

	if (!strcmp(name, "cpu-manager-policy"))
		ret = set_str(&c->cpu_manager_policy, value, err);
	else if (!strcmp(name, "topology-manager-policy"))
		ret = set_str(&c->topology_manager_policy, value, err);
	else if (!strcmp(name, "reserved-cpus"))
		ret = set_str(&c->reserved_system_cpus, value, err);
	else if (!strcmp(name, "cpu-manager-policy-options"))
		ret = set_map_flag(c, MAP_OPTIONS, value, err);
	else if (!strcmp(name, "kube-reserved"))
		ret = set_map_flag(c, MAP_KUBE, value, err);
	else if (!strcmp(name, "system-reserved"))
		ret = set_map_flag(c, MAP_SYSTEM, value, err);
	else if (!strcmp(name, "cpu-manager-reconcile-period"))
		ret = go_parse_duration(value, &c->reconcile_period_ns, err);
	else if (!strcmp(name, "cgroup-driver"))
		ret = set_str(&c->cgroup_driver, value, err);
	else
		return -ENOENT;
	if (ret)
		cm_error_prefix(err, "invalid argument \"%s\" for \"--%s\" flag",
				value, name);
	return ret;
}

/* ---- the file ---- */

/* encoding/json's type error for a KubeletConfiguration field */
static int type_error(const cJSON *v, const char *field, const char *type,
		      struct cm_error *err)
{
	const char *kind = cJSON_IsNumber(v) ? "number" :
			   cJSON_IsBool(v) ? "bool" :
			   cJSON_IsString(v) ? "string" :
			   cJSON_IsArray(v) ? "array" : "object";

	return cm_errorf(err, "json: cannot unmarshal %s into Go struct field KubeletConfiguration.%s of type %s",
			 kind, field, type);
}

/* A string field; null leaves the default. */
static int read_str(const cJSON *obj, const char *field, char **out,
		    struct cm_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, field);

	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v))
		return type_error(v, field, "string", err);
	return set_str(out, v->valuestring, err);
}

/* A map[string]string field: replaced as a whole, null empties it. */
static int read_map(const cJSON *obj, const char *field, struct kv_list *out,
		    struct cm_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, field), *m;
	struct kv_list tmp = { 0 };

	if (!v)
		return 0;
	if (!cJSON_IsNull(v) && !cJSON_IsObject(v))
		return type_error(v, field, "map[string]string", err);
	/* null: the map becomes empty */
	cJSON_ArrayForEach(m, v) {
		/* a null value decodes to "" */
		if (!cJSON_IsNull(m) && !cJSON_IsString(m)) {
			kv_clear(&tmp);
			return type_error(m, field, "string", err);
		}
		if (kv_set(&tmp, m->string,
			   cJSON_IsString(m) ? m->valuestring : "")) {
			kv_clear(&tmp);
			return cm_errorf(err, "out of memory"), -ENOMEM;
		}
	}
	kv_clear(out);
	*out = tmp;
	return 0;
}

/*
 * featureGates, a map[string]bool: the gates the CPU manager reads kept,
 * the others only type-checked as the kubelet's decoding does.
 */
static int read_gates(const cJSON *obj, struct kubelet_config *c,
		      struct cm_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "featureGates"),
		    *m;

	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsObject(v))
		return type_error(v, "featureGates", "map[string]bool", err);
	cJSON_ArrayForEach(m, v) {
		int on;

		if (cJSON_IsNull(m))
			on = 0;
		else if (cJSON_IsBool(m))
			on = cJSON_IsTrue(m);
		else
			return type_error(m, "featureGates", "bool", err);
		if (!strcmp(m->string, "PodLevelResourceManagers"))
			c->gate_pod_level = on;
		else if (!strcmp(m->string, "CPUManagerPolicyAlphaOptions"))
			c->gate_alpha_options = on;
		else if (!strcmp(m->string, "CPUManagerPolicyBetaOptions"))
			c->gate_beta_options = on;
	}
	return 0;
}

/* metav1.Duration: a JSON string holding a Go duration */
static int read_duration(const cJSON *obj, const char *field, int64_t *out,
			 struct cm_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, field);

	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v))
		return cm_errorf(err, "json: cannot unmarshal %s into Go value of type string",
				 cJSON_IsNumber(v) ? "number" :
				 cJSON_IsBool(v) ? "bool" :
				 cJSON_IsArray(v) ? "array" : "object");
	return go_parse_duration(v->valuestring, out, err);
}

static int check_kind(const cJSON *obj, struct cm_error *err)
{
	const cJSON *kind = json_member(obj, "kind");
	const cJSON *api = json_member(obj, "apiVersion");

	if (obj && !cJSON_IsNull(obj) && !cJSON_IsObject(obj))
		return cm_errorf(err, "couldn't get version/kind; json parse error: json: cannot unmarshal %s into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }",
				 cJSON_IsArray(obj) ? "array" :
				 cJSON_IsString(obj) ? "string" :
				 cJSON_IsNumber(obj) ? "number" : "bool");
	if (!cJSON_IsString(kind) || !*kind->valuestring)
		return cm_errorf(err, "Object 'Kind' is missing");
	if (!cJSON_IsString(api) || !*api->valuestring)
		return cm_errorf(err, "Object 'apiVersion' is missing");
	if (strcmp(kind->valuestring, "KubeletConfiguration") ||
	    strcmp(api->valuestring, KUBELET_CONFIG_API))
		return cm_errorf(err, "no kind \"%s\" is registered for version \"%s\"",
				 kind->valuestring, api->valuestring);
	return 0;
}

/*
 * The fields of KubeletConfiguration (kubelet.config.k8s.io/v1beta1) as
 * the Kubernetes API reference lists them, up to 1.33.  A field not
 * among them is most likely a typo the kubelet's lenient decoding
 * would ignore.
 */
static const char *const known_fields[] = {
	"kind", "apiVersion", "enableServer", "staticPodPath", "podLogsDir",
	"syncFrequency", "fileCheckFrequency", "httpCheckFrequency",
	"staticPodURL", "staticPodURLHeader", "address", "port",
	"readOnlyPort", "tlsCertFile", "tlsPrivateKeyFile", "tlsCipherSuites",
	"tlsMinVersion", "rotateCertificates", "serverTLSBootstrap",
	"authentication", "authorization", "registryPullQPS", "registryBurst",
	"imagePullCredentialsVerificationPolicy",
	"preloadedImagesVerificationAllowlist", "eventRecordQPS",
	"eventBurst", "enableDebuggingHandlers", "enableContentionProfiling",
	"healthzPort", "healthzBindAddress", "oomScoreAdj", "clusterDomain",
	"clusterDNS", "streamingConnectionIdleTimeout",
	"nodeStatusUpdateFrequency", "nodeStatusReportFrequency",
	"nodeLeaseDurationSeconds", "imageMinimumGCAge", "imageMaximumGCAge",
	"imageGCHighThresholdPercent", "imageGCLowThresholdPercent",
	"volumeStatsAggPeriod", "kubeletCgroups", "systemCgroups",
	"cgroupRoot", "cgroupsPerQOS", "cgroupDriver", "cpuManagerPolicy",
	"singleProcessOOMKill", "cpuManagerPolicyOptions",
	"cpuManagerReconcilePeriod", "memoryManagerPolicy",
	"topologyManagerPolicy", "topologyManagerScope",
	"topologyManagerPolicyOptions", "qosReserved",
	"runtimeRequestTimeout", "hairpinMode", "maxPods", "podCIDR",
	"podPidsLimit", "resolvConf", "runOnce", "cpuCFSQuota",
	"cpuCFSQuotaPeriod", "nodeStatusMaxImages", "maxOpenFiles",
	"contentType", "kubeAPIQPS", "kubeAPIBurst", "serializeImagePulls",
	"maxParallelImagePulls", "evictionHard", "evictionSoft",
	"evictionSoftGracePeriod", "evictionPressureTransitionPeriod",
	"evictionMaxPodGracePeriod", "evictionMinimumReclaim",
	"mergeDefaultEvictionSettings", "podsPerCore",
	"enableControllerAttachDetach", "protectKernelDefaults",
	"makeIPTablesUtilChains", "iptablesMasqueradeBit", "iptablesDropBit",
	"featureGates", "failSwapOn", "memorySwap", "containerLogMaxSize",
	"containerLogMaxFiles", "containerLogMaxWorkers",
	"containerLogMonitorInterval",
	"configMapAndSecretChangeDetectionStrategy", "systemReserved",
	"kubeReserved", "reservedSystemCPUs", "showHiddenMetricsForVersion",
	"systemReservedCgroup", "kubeReservedCgroup",
	"enforceNodeAllocatable", "allowedUnsafeSysctls", "volumePluginDir",
	"providerID", "kernelMemcgNotification", "logging",
	"enableSystemLogHandler", "enableSystemLogQuery",
	"shutdownGracePeriod", "shutdownGracePeriodCriticalPods",
	"shutdownGracePeriodByPodPriority", "crashLoopBackOff",
	"reservedMemory", "enableProfilingHandler", "enableDebugFlagsHandler",
	"seccompDefault", "memoryThrottlingFactor", "registerWithTaints",
	"registerNode", "tracing", "localStorageCapacityIsolation",
	"containerRuntimeEndpoint", "imageServiceEndpoint", "failCgroupV1",
	"userNamespaces", NULL,
};

static bool known_field(const char *name)
{
	for (const char *const *f = known_fields; *f; f++)
		if (!strcmp(*f, name))
			return true;
	return false;
}

static int note_unknown(struct kubelet_config *c, const cJSON *obj)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, obj)
		if (m->string && !known_field(m->string) &&
		    kv_set(&c->unknown, m->string, ""))
			return -ENOMEM;
	return 0;
}

int kubelet_config_from_json(struct kubelet_config *c, const cJSON *obj,
			     struct cm_error *err)
{
	if (check_kind(obj, err))
		return -EINVAL;
	if (note_unknown(c, obj))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (
	    read_str(obj, "cpuManagerPolicy", &c->cpu_manager_policy, err) ||
	    read_map(obj, "cpuManagerPolicyOptions", &c->policy_options, err) ||
	    read_duration(obj, "cpuManagerReconcilePeriod",
			  &c->reconcile_period_ns, err) ||
	    read_str(obj, "reservedSystemCPUs", &c->reserved_system_cpus, err) ||
	    read_map(obj, "kubeReserved", &c->kube_reserved, err) ||
	    read_map(obj, "systemReserved", &c->system_reserved, err) ||
	    read_str(obj, "topologyManagerPolicy", &c->topology_manager_policy,
		     err) ||
	    read_str(obj, "cgroupDriver", &c->cgroup_driver, err) ||
	    read_gates(obj, c, err))
		return -EINVAL;
	/* SetDefaults_KubeletConfiguration(): "" and 0s mean the default */
	if ((!*c->cpu_manager_policy &&
	     set_str(&c->cpu_manager_policy, "none", err)) ||
	    (!*c->topology_manager_policy &&
	     set_str(&c->topology_manager_policy, "none", err)))
		return -ENOMEM;
	if (!c->reconcile_period_ns)
		c->reconcile_period_ns = 10 * NS_PER_SEC;
	return 0;
}

int kubelet_config_load(struct kubelet_config *c, const char *path,
			struct cm_error *err)
{
	size_t len;
	char *buf = manifest_read(path, &len, err);
	cJSON *docs;
	int ret = -EINVAL;

	if (!buf)
		return -EINVAL;
	if (!len) {
		free(buf);
		return cm_errorf(err, "failed to load Kubelet config file %s, error kubelet config file \"%s\" was empty",
				 path, path);
	}
	docs = manifest_parse(buf, len, path, err);
	free(buf);
	if (!docs)
		return -EINVAL;
	/* the kubelet decodes the first document */
	if (!kubelet_config_from_json(c, cJSON_GetArrayItem(docs, 0), err))
		ret = 0;
	else
		cm_error_prefix(err, "failed to load Kubelet config file %s, error failed to decode",
				path);
	cJSON_Delete(docs);
	return ret;
}

/* ---- what the kubelet makes of it ---- */

/*
 * parseResourceList(): cpu, memory, ephemeral-storage and pid only.  With
 * reserved CPUs listed the kubelet drops kube-reserved cpu and replaces
 * system-reserved cpu by their count before parsing: skip_cpu.
 */
static int reservation(const struct kv_list *l, const char *flag,
		       bool skip_cpu, struct quantity *cpu,
		       struct cm_error *err)
{
	static const char *const names[] = {
		"cpu", "memory", "ephemeral-storage", "pid",
	};

	for (unsigned int i = 0; i < l->nr; i++) {
		const struct kv *e = &l->kv[i];
		struct quantity q;
		bool known = false;

		for (size_t n = 0; n < sizeof(names) / sizeof(*names); n++)
			known |= !strcmp(e->key, names[n]);
		if (skip_cpu && !strcmp(e->key, "cpu"))
			continue;
		if (!known) {
			cm_errorf(err, "cannot reserve \"%s\" resource", e->key);
		} else if (quantity_parse(e->value, &q, err)) {
			cm_error_prefix(err, "failed to parse quantity \"%s\" for \"%s\" resource",
					e->value, e->key);
		} else if (q.nano < 0) {
			cm_errorf(err, "resource quantity for \"%s\" cannot be negative: %s",
				  e->key, e->value);
		} else {
			if (!strcmp(e->key, "cpu"))
				cpu->nano += q.nano;
			continue;
		}
		cm_error_prefix(err, "%s value failed to parse", flag);
		return -EINVAL;
	}
	return 0;
}

/* ValidateKubeletConfiguration()'s check of reservedSystemCPUs */
static int reserved_cpus(struct kubelet_config *c, struct cm_error *err)
{
	struct policy_config *p = &c->policy;

	if (!*c->reserved_system_cpus)
		return 0;
	if (cpuset_parse_kube(&p->reserved_cpus, c->reserved_system_cpus,
			      err)) {
		cm_error_prefix(err, "invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) %s, error",
				c->reserved_system_cpus);
		return -EINVAL;
	}
	p->has_reserved_cpus = true;
	return 0;
}

static int policy_options(struct kubelet_config *c, struct cm_error *err)
{
	struct policy_options *o = &c->policy.opts;

	memset(o, 0, sizeof(*o));
	if (c->policy.kind == CPU_POLICY_NONE) {
		/* NewNonePolicy() refuses any option, by count alone */
		o->nr_given = c->policy_options.nr;
		return 0;
	}
	for (unsigned int i = 0; i < c->policy_options.nr; i++)
		if (options_set(o, c->policy_options.kv[i].key,
				c->policy_options.kv[i].value, err))
			return -EINVAL;
	return 0;
}

int kubelet_config_finish(struct kubelet_config *c, struct cm_error *err)
{
	struct policy_config *p = &c->policy;
	struct quantity cpu = { 0 };
	__int128 whole;

	memset(p, 0, sizeof(*p));
	/* ValidateKubeletConfiguration() */
	if (tm_policy_parse(c->topology_manager_policy, &p->tm, err))
		return cm_errorf(err, "invalid configuration: topologyManagerPolicy (--topology-manager-policy) \"%s\" must be one of: [\"none\" \"best-effort\" \"restricted\" \"single-numa-node\"]",
				 c->topology_manager_policy);
	/*
	 * The kubelet takes anything but "systemd" for cgroupfs; a typo
	 * here would leave systemd undoing every cpuset: refused.
	 */
	if (c->cgroup_driver && *c->cgroup_driver &&
	    strcmp(c->cgroup_driver, "cgroupfs") &&
	    strcmp(c->cgroup_driver, "systemd"))
		return cm_errorf(err, "invalid configuration: cgroupDriver (--cgroup-driver) \"%s\" must be \"cgroupfs\" or \"systemd\"",
				 c->cgroup_driver);
	if (reserved_cpus(c, err))
		return -EINVAL;
	/* run(): the listed CPUs stand for the cpu of both reservations */
	if (p->has_reserved_cpus)
		cpu.nano = (__int128)cpuset_count(&p->reserved_cpus) * 1000000000;
	if (reservation(&c->kube_reserved, "--kube-reserved",
			p->has_reserved_cpus, &cpu, err) ||
	    reservation(&c->system_reserved, "--system-reserved",
			p->has_reserved_cpus, &cpu, err))
		return -EINVAL;
	c->reserved_milli = (int64_t)quantity_milli_value(&cpu);
	/* NewManager() */
	if (cpu_policy_parse_kind(c->cpu_manager_policy, &p->kind, err))
		return -EINVAL;
	if (p->kind == CPU_POLICY_STATIC && !c->reserved_milli)
		/* GetNodeAllocatableReservation() leaves out a zero cpu */
		return cm_errorf(err, "[cpumanager] unable to determine reserved CPU resources for static policy");
	/* ceil(cpu) in 128 bits: a reservation may be up to 1e18 CPUs */
	whole = cpu.nano / 1000000000 + !!(cpu.nano % 1000000000);
	p->num_reserved = whole > INT_MAX ? INT_MAX : (int)whole;
	if (cpu_policy_check_config(p, err))
		return -EINVAL;
	return policy_options(c, err);
}

int kubelet_config_check_topology(const struct kubelet_config *c,
				  const struct topology *t,
				  struct cm_error *err)
{
	char *all;

	if (!c->policy.has_reserved_cpus ||
	    cpuset_subset(&c->policy.reserved_cpus, &t->cpus))
		return 0;
	all = cpuset_to_str(&t->cpus);
	cm_errorf(err, "reserved-cpus: %s is not a subset of online-cpus: %s",
		  c->reserved_system_cpus, all ? all : "");
	free(all);
	return -EINVAL;
}
