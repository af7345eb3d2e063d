// SPDX-License-Identifier: GPL-2.0
/*
 * The node configuration from kubelet flags and KubeletConfiguration
 * files: the reservation arithmetic, the kubelet's precedence rules and
 * its messages, Go durations.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "kubeletconfig.h"
#include "topology_sysfs.h"
#include "test_util.h"

/* Apply "flag=value" strings, then finish(); the first error's code. */
static int from_flags(struct kubelet_config *c, const char *const *flags,
		      struct cm_error *err)
{
	if (kubelet_config_init(c))
		return -ENOMEM;
	for (; *flags; flags++) {
		char *f = strdup(*flags), *eq = strchr(f, '=');
		int ret;

		*eq = '\0';
		ret = kubelet_config_flag(c, f, eq + 1, err);
		free(f);
		if (ret)
			return ret;
	}
	return kubelet_config_finish(c, err);
}

static int from_file(struct kubelet_config *c, const char *file,
		     struct cm_error *err)
{
	char path[512];
	int ret;

	snprintf(path, sizeof(path), "%s/kubelet/%s", test_data_dir(), file);
	if (kubelet_config_init(c))
		return -ENOMEM;
	ret = kubelet_config_load(c, path, err);
	return ret ? ret : kubelet_config_finish(c, err);
}

TEST(reservation_from_flags)
{
	static const struct {
		const char *const flags[6];
		int num;
		const char *reserved;	/* NULL: none listed */
	} cases[] = {
		{ { "--cpu-manager-policy=static", "--kube-reserved=cpu=1" }, 1, NULL },
		/* ceil(500m + 600m) = 2 */
		{ { "--cpu-manager-policy=static",
		    "--kube-reserved=cpu=500m,memory=1Gi",
		    "--system-reserved=cpu=600m" }, 2, NULL },
		{ { "--cpu-manager-policy=static", "--system-reserved=cpu=0.1" }, 1, NULL },
		{ { "--cpu-manager-policy=static", "--kube-reserved=cpu=2001m" }, 3, NULL },
		/* the list wins: its size replaces both cpu reservations,
		 * whose values are then never parsed */
		{ { "--cpu-manager-policy=static", "--reserved-cpus=0,4",
		    "--kube-reserved=cpu=abc", "--system-reserved=cpu=7" },
		  2, "0,4" },
		/* the none policy needs no reservation */
		{ { "--cpu-manager-policy=none" }, 0, NULL },
		{ { "kube-reserved=memory=1Gi" }, 0, NULL },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kubelet_config c;
		int ret = from_flags(&c, cases[i].flags, &err);

		CHECK(!ret, "%zu: %s", i, cm_error_msg(&err));
		EXPECT_EQ(cases[i].num, c.policy.num_reserved);
		EXPECT_EQ(cases[i].reserved != NULL, c.policy.has_reserved_cpus);
		if (cases[i].reserved) {
			char *s = cpuset_to_str(&c.policy.reserved_cpus);

			EXPECT_STREQ(cases[i].reserved, s);
			free(s);
		}
		kubelet_config_free(&c);
	}
	cm_error_clear(&err);
}

TEST(flag_values)
{
	static const char *const flags[] = {
		"--cpu-manager-policy=static",
		"--cpu-manager-policy-options= full-pcpus-only = true ,,align-by-socket=false",
		"--cpu-manager-policy-options=distribute-cpus-across-numa=1",
		"--kube-reserved=cpu=1",
		"--topology-manager-policy=restricted",
		"--cpu-manager-reconcile-period=1m30s",
		NULL,
	};
	struct cm_error err = { 0 };
	struct kubelet_config c;

	ASSERT_EQ(0, from_flags(&c, flags, &err));
	EXPECT_EQ((int)CPU_POLICY_STATIC, (int)c.policy.kind);
	/* a map flag given twice adds to what it set before */
	EXPECT_TRUE(c.policy.opts.full_pcpus_only);
	EXPECT_FALSE(c.policy.opts.align_by_socket);
	EXPECT_TRUE(c.policy.opts.distribute_numa);
	EXPECT_EQ((int)TM_POLICY_RESTRICTED, (int)c.policy.tm);
	EXPECT_EQ(90000000000LL, c.reconcile_period_ns);
	EXPECT_EQ(1000, c.reserved_milli);
	EXPECT_EQ(-ENOENT, kubelet_config_flag(&c, "--state-dir", "/x", &err));
	kubelet_config_free(&c);
	cm_error_clear(&err);
}

TEST(kubelet_messages)
{
	static const struct {
		const char *const flags[5];
		const char *msg;
	} cases[] = {
		{ { "--cpu-manager-policy=static" },
		  "[cpumanager] unable to determine reserved CPU resources for static policy" },
		{ { "--cpu-manager-policy=static", "--kube-reserved=cpu=0,memory=1Gi" },
		  "[cpumanager] unable to determine reserved CPU resources for static policy" },
		{ { "--cpu-manager-policy=dynamic", "--kube-reserved=cpu=1" },
		  "unknown policy: \"dynamic\"" },
		{ { "--reserved-cpus=0-3:1/2" },
		  "invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) 0-3:1/2, error: invalid cpulist \"0-3:1/2\": unexpected character" },
		{ { "--reserved-cpus=3-1" },
		  "invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) 3-1, error: invalid cpulist \"3-1\": range start above end" },
		{ { "--kube-reserved=cpu=abc" },
		  "--kube-reserved value failed to parse: failed to parse quantity \"abc\" for \"cpu\" resource: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
		{ { "--system-reserved=cpu=-1" },
		  "--system-reserved value failed to parse: resource quantity for \"cpu\" cannot be negative: -1" },
		{ { "--kube-reserved=nvidia.com/gpu=1" },
		  "--kube-reserved value failed to parse: cannot reserve \"nvidia.com/gpu\" resource" },
		{ { "--kube-reserved=cpu" },
		  "invalid argument \"cpu\" for \"--kube-reserved\" flag: malformed pair, expect string=string" },
		{ { "--cpu-manager-policy=static", "--kube-reserved=cpu=1",
		    "--cpu-manager-policy-options=full-pcpus-only=yes" },
		  "bad value for option \"full-pcpus-only\": strconv.ParseBool: parsing \"yes\": invalid syntax" },
		{ { "--cpu-manager-policy=static", "--kube-reserved=cpu=1",
		    "--cpu-manager-policy-options=turbo=true" },
		  "unknown CPU Manager Policy option: \"turbo\"" },
		{ { "--topology-manager-policy=numa" },
		  "invalid configuration: topologyManagerPolicy (--topology-manager-policy) \"numa\" must be one of: [\"none\" \"best-effort\" \"restricted\" \"single-numa-node\"]" },
		{ { "--cpu-manager-reconcile-period=10" },
		  "invalid argument \"10\" for \"--cpu-manager-reconcile-period\" flag: time: missing unit in duration \"10\"" },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kubelet_config c;
		int ret = from_flags(&c, cases[i].flags, &err);

		CHECK(ret && !strcmp(cm_error_msg(&err), cases[i].msg),
		      "%zu: %d \"%s\"", i, ret, cm_error_msg(&err));
		kubelet_config_free(&c);
		cm_error_clear(&err);
	}
}

TEST(none_policy_refuses_options_later)
{
	static const char *const flags[] = {
		"--cpu-manager-policy-options=not-even-known=1", NULL,
	};
	struct cm_error err = { 0 };
	struct kubelet_config c;

	/* NewNonePolicy() counts the options; cpu_policy_init() says no */
	ASSERT_EQ(0, from_flags(&c, flags, &err));
	EXPECT_EQ(1u, c.policy.opts.nr_given);
	kubelet_config_free(&c);
}

TEST(kubeadm_file)
{
	struct cm_error err = { 0 };
	struct kubelet_config c;
	int ret = from_file(&c, "kubeadm-static.yaml", &err);

	ASSERT_EQ(0, ret) TH_LOG("%s", cm_error_msg(&err));
	EXPECT_EQ((int)CPU_POLICY_STATIC, (int)c.policy.kind);
	EXPECT_TRUE(c.policy.opts.full_pcpus_only);
	EXPECT_EQ((int)TM_POLICY_SINGLE_NUMA_NODE, (int)c.policy.tm);
	EXPECT_EQ(1100, c.reserved_milli);
	EXPECT_EQ(2, c.policy.num_reserved);
	EXPECT_FALSE(c.policy.has_reserved_cpus);
	/* "0s" is the default, 10s */
	EXPECT_EQ(10000000000LL, c.reconcile_period_ns);

	/* flags override the file; a map flag replaces the file's map */
	ASSERT_EQ(0, kubelet_config_flag(&c, "--kube-reserved", "memory=2Gi",
					 &err));
	ASSERT_EQ(0, kubelet_config_finish(&c, &err));
	EXPECT_EQ(600, c.reserved_milli);
	EXPECT_EQ(1, c.policy.num_reserved);
	kubelet_config_free(&c);
}

TEST(json_file_with_reserved_cpus_end_to_end)
{
	struct cm_error err = { 0 };
	struct kubelet_config c;
	struct cpu_policy p;
	struct topology *t;
	char path[512], *s;

	ASSERT_EQ(0, from_file(&c, "reserved-cpus.json", &err));
	EXPECT_EQ(2, c.policy.num_reserved);
	EXPECT_EQ(5000000000LL, c.reconcile_period_ns);
	EXPECT_TRUE(c.policy.opts.distribute_numa);
	EXPECT_TRUE(c.policy.opts.strict_reservation);

	snprintf(path, sizeof(path), "%s/sysfs-2s2c2t", test_data_dir());
	t = topology_load_sysfs(path, &err);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(0, kubelet_config_check_topology(&c, t, &err));
	ASSERT_EQ(0, cpu_policy_init(&p, t, &c.policy, &err));
	s = cpuset_to_str(&p.reserved);
	EXPECT_STREQ("0,4", s);
	free(s);
	cpu_policy_destroy(&p);

	/* getReservedCPUs(): the list must name online CPUs */
	ASSERT_EQ(0, kubelet_config_flag(&c, "reserved-cpus", "0,9", &err));
	ASSERT_EQ(0, kubelet_config_finish(&c, &err));
	EXPECT_NE(0, kubelet_config_check_topology(&c, t, &err));
	EXPECT_STREQ("reserved-cpus: 0,9 is not a subset of online-cpus: 0-7",
		     cm_error_msg(&err));
	topology_free(t);
	kubelet_config_free(&c);
	cm_error_clear(&err);
}

TEST(file_errors)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
		  "reservedSystemCPUs: 0\n",
		  "error failed to decode: json: cannot unmarshal number into Go struct field KubeletConfiguration.reservedSystemCPUs of type string" },
		{ "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
		  "cpuManagerPolicyOptions:\n  full-pcpus-only: true\n",
		  "error failed to decode: json: cannot unmarshal bool into Go struct field KubeletConfiguration.cpuManagerPolicyOptions of type string" },
		{ "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
		  "kubeReserved: [cpu]\n",
		  "error failed to decode: json: cannot unmarshal array into Go struct field KubeletConfiguration.kubeReserved of type map[string]string" },
		{ "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
		  "cpuManagerReconcilePeriod: 10\n",
		  "error failed to decode: json: cannot unmarshal number into Go value of type string" },
		{ "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
		  "cpuManagerReconcilePeriod: 10 s\n",
		  "error failed to decode: time: unknown unit \" s\" in duration \"10 s\"" },
		{ "apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n",
		  "error failed to decode: no kind \"KubeletConfiguration\" is registered for version \"kubelet.config.k8s.io/v1\"" },
		{ "apiVersion: v1\nkind: Pod\n",
		  "error failed to decode: no kind \"Pod\" is registered for version \"v1\"" },
		{ "cpuManagerPolicy: static\n",
		  "error failed to decode: Object 'Kind' is missing" },
		{ "---\n", "error failed to decode: Object 'Kind' is missing" },
		{ "- a\n",
		  "error failed to decode: couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct" },
		{ "", "error kubelet config file \"" },
	};
	struct cm_error err = { 0 };
	char path[] = "/tmp/cpumgr-kc-XXXXXX";
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	close(fd);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kubelet_config c;
		FILE *f = fopen(path, "w");
		int ret;

		ASSERT_NE(NULL, f);
		fputs(cases[i].text, f);
		fclose(f);
		ASSERT_EQ(0, kubelet_config_init(&c));
		ret = kubelet_config_load(&c, path, &err);
		CHECK(ret && strstr(cm_error_msg(&err), cases[i].msg) &&
		      !strncmp(cm_error_msg(&err), "failed to load Kubelet config file /tmp/", 40),
		      "%zu: \"%s\"", i, cm_error_msg(&err));
		kubelet_config_free(&c);
		cm_error_clear(&err);
	}
	unlink(path);
}

TEST(bare_numbers_are_refused_as_the_kubelet_refuses_them)
{
	struct cm_error err = { 0 };
	struct kubelet_config c;

	EXPECT_NE(0, from_file(&c, "bare-numbers.yaml", &err));
	CHECK(strstr(cm_error_msg(&err),
		     "json: cannot unmarshal number into Go struct field KubeletConfiguration.kubeReserved of type string") != NULL,
	      "%s", cm_error_msg(&err));
	kubelet_config_free(&c);
	cm_error_clear(&err);
}

TEST(go_durations)
{
	static const struct { const char *in; long long ns; } ok[] = {
		{ "0", 0 }, { "+0", 0 }, { "10s", 10000000000LL },
		{ "1m30s", 90000000000LL }, { "1.5h", 5400000000000LL },
		{ "300ms", 300000000LL }, { "-1.5h", -5400000000000LL },
		{ "2h45m", 9900000000000LL }, { "1us", 1000 },
		{ "1\xc2\xb5s", 1000 }, { "1\xce\xbcs", 1000 }, { ".5s", 500000000 },
		{ "1.s", 1000000000 }, { "1ns1ns", 2 },
		{ "9223372036854775807ns", 9223372036854775807LL },
		{ "-9223372036854775808ns", (-9223372036854775807LL - 1) },
		{ "0.000000001s", 1 }, { "0.5h", 1800000000000LL },
	};
	static const struct { const char *in, *msg; } bad[] = {
		{ "", "time: invalid duration \"\"" },
		{ "-", "time: invalid duration \"-\"" },
		{ "s", "time: invalid duration \"s\"" },
		{ ".", "time: invalid duration \".\"" },
		{ ".s", "time: invalid duration \".s\"" },
		{ "10", "time: missing unit in duration \"10\"" },
		{ "1h2", "time: missing unit in duration \"1h2\"" },
		{ "10x", "time: unknown unit \"x\" in duration \"10x\"" },
		{ "10S", "time: unknown unit \"S\" in duration \"10S\"" },
		{ "9223372036854775808ns", "time: invalid duration \"9223372036854775808ns\"" },
		{ "3000000h", "time: invalid duration \"3000000h\"" },
	};
	struct cm_error err = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		int64_t ns = -1;
		int ret = go_parse_duration(ok[i].in, &ns, &err);

		CHECK(!ret && ns == ok[i].ns, "%s: %d %lld %s", ok[i].in, ret,
		      (long long)ns, cm_error_msg(&err));
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int64_t ns;
		int ret = go_parse_duration(bad[i].in, &ns, &err);

		CHECK(ret && !strcmp(cm_error_msg(&err), bad[i].msg), "%s: \"%s\"",
		      bad[i].in, cm_error_msg(&err));
	}
	cm_error_clear(&err);
}

/*
 * Found by fuzz_kubeletconfig: a reservation above 9.2e15 CPUs made the
 * milli value wrap and ceil(milli / 1000) overflow.  Saturated: the
 * reservation asks for INT_MAX CPUs, which no node has.
 */
TEST(huge_reservation_saturates)
{
	static const char *const flags[] = {
		"--cpu-manager-policy=static", "--kube-reserved=cpu=1E",
		"--system-reserved=cpu=999P", NULL,
	};
	struct cm_error err = { 0 };
	struct kubelet_config c;

	ASSERT_EQ(0, from_flags(&c, flags, &err)) {
		TH_LOG("%s", cm_error_msg(&err));
	}
	EXPECT_EQ(INT_MAX, c.policy.num_reserved);
	EXPECT_EQ(INT64_MAX, c.reserved_milli);
	kubelet_config_free(&c);
	cm_error_clear(&err);
}

TEST_HARNESS_MAIN
