// SPDX-License-Identifier: GPL-2.0
/*
 * CFS limits against the kubelet's and runc's own test tables:
 *
 * - pkg/kubelet/cm/helpers_linux_test.go: TestMilliCPUToShares,
 *   TestMilliCPUToQuota, TestResourceConfigForPod and
 *   TestResourceConfigForPodWithCustomCPUCFSQuotaPeriod;
 * - pkg/kubelet/kuberuntime/helpers_linux_test.go: TestMilliCPUToQuota,
 *   TestMilliCPUToQuotaWithCustomCPUCFSQuotaPeriod and the shares of
 *   TestSharesToMilliCPU;
 * - pkg/kubelet/kuberuntime/kuberuntime_container_linux_test.go:
 *   TestCalculateLinuxResources;
 * - runc libcontainer/cgroups/fs2 TestConvertCPUSharesToCgroupV2Value
 *   (linear) and opencontainers/cgroups v0.0.5
 *   TestConvertCPUSharesToCgroupV2Value (quadratic), with the values
 *   runc issues #4772 and #4896 quote.
 *
 * Then cfs_apply() on fake v2 and v1 trees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "cfs_apply.h"
#include "fake_cgroup.h"
#include "pod_util.h"
#include "test_util.h"

TEST(milli_cpu_to_shares)
{
	static const struct { int64_t milli; uint64_t shares; } cases[] = {
		/* TestMilliCPUToShares, old and new */
		{ 0, 2 }, { 1, 2 }, { 2, 2 }, { 3, 3 }, { 5, 5 }, { 10, 10 },
		{ 100, 102 }, { 200, 204 }, { 500, 512 }, { 1000, 1024 },
		{ 2000, 2048 }, { 255999, 255999 * 1024 / 1000 },
		{ 256000, 262144 }, { 256001, 262144 }, { 1000000, 262144 },
		/* TestSharesToMilliCPU's knownMilliCPUToShares */
		{ 4, 4 }, { 32, 32 }, { 64, 65 }, { 250, 256 }, { 1500, 1536 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		CHECK(cfs_milli_cpu_to_shares(cases[i].milli) == cases[i].shares,
		      "%lld -> %llu", (long long)cases[i].milli,
		      (unsigned long long)cfs_milli_cpu_to_shares(cases[i].milli));
}

TEST(milli_cpu_to_quota)
{
	static const struct { int64_t milli, period, quota; } cases[] = {
		/* TestMilliCPUToQuota (cm and kuberuntime) */
		{ 0, 0, 0 }, { 0, 100000, 0 },
		{ 5, 100000, 1000 }, { 9, 100000, 1000 }, { 10, 100000, 1000 },
		{ 200, 100000, 20000 }, { 500, 100000, 50000 },
		{ 1000, 100000, 100000 }, { 1500, 100000, 150000 },
		/* TestMilliCPUToQuotaWithCustomCPUCFSQuotaPeriod */
		{ 5, 10000, 1000 }, { 5, 5000, 1000 }, { 9, 10000, 1000 },
		{ 10, 200000, 2000 }, { 200, 200000, 40000 },
		{ 500, 20000, 10000 }, { 1000, 10000, 10000 },
		{ 1500, 5000, 7500 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int64_t q = cfs_milli_cpu_to_quota(cases[i].milli,
						   cases[i].period);

		CHECK(q == cases[i].quota, "%lld at %lld -> %lld",
		      (long long)cases[i].milli, (long long)cases[i].period,
		      (long long)q);
	}
}

TEST(shares_to_weight)
{
	static const struct { uint64_t shares, linear, quadratic; } cases[] = {
		{ 0, 0, 0 },		/* unset */
		{ 1, 1, 1 },		/* below the minimum */
		{ 2, 1, 1 },
		{ 3, 1, 2 },
		{ 1024, 39, 100 },	/* the defaults of v1 and v2 */
		{ 2000, 77, 170 },	/* runc 1.3.1 vs 1.4.0-rc.1 */
		{ 262143, 9999, 10000 },
		{ 262144, 10000, 10000 },
		{ 262145, 10000, 10000 },	/* above the maximum */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t l = cfs_shares_to_weight(cases[i].shares,
						  CFS_WEIGHT_LINEAR);
		uint64_t q = cfs_shares_to_weight(cases[i].shares,
						  CFS_WEIGHT_QUADRATIC);

		CHECK(l == cases[i].linear, "linear %llu -> %llu",
		      (unsigned long long)cases[i].shares,
		      (unsigned long long)l);
		CHECK(q == cases[i].quadratic, "quadratic %llu -> %llu",
		      (unsigned long long)cases[i].shares,
		      (unsigned long long)q);
	}
	/* both stay within [1, 10000] and never decrease */
	for (uint64_t s = 3, pl = 1, pq = 1; s < 262144; s++) {
		uint64_t l = cfs_shares_to_weight(s, CFS_WEIGHT_LINEAR);
		uint64_t q = cfs_shares_to_weight(s, CFS_WEIGHT_QUADRATIC);

		if (l < pl || q < pq || l > 10000 || q > 10000) {
			CHECK(false, "%llu: %llu %llu", (unsigned long long)s,
			      (unsigned long long)l, (unsigned long long)q);
			break;
		}
		pl = l;
		pq = q;
	}
}

/* A one-container pod with the given resources (JSON) and status. */
static void one_container(struct pod *p, const char *resources)
{
	char buf[512];

	snprintf(buf, sizeof(buf),
		 "{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":%s}]}}",
		 resources);
	pod_from_text(p, buf);
}

TEST(container_limits)
{
	/* TestCalculateLinuxResources, and what the QoS classes give */
	static const struct {
		const char *resources;
		bool exclusive;
		uint64_t shares;
		int64_t quota;
	} cases[] = {
		{ "{\"requests\":{\"cpu\":\"1\"},\"limits\":{\"cpu\":\"2\",\"memory\":\"128Mi\"}}",
		  false, 1024, 200000 },
		{ "{\"requests\":{\"cpu\":\"2\"},\"limits\":{\"cpu\":\"8\",\"memory\":\"0\"}}",
		  false, 2048, 800000 },
		/* RequestNilCPU: shares from the limit */
		{ "{\"limits\":{\"cpu\":\"2\",\"memory\":\"0\"}}", false, 2048,
		  200000 },
		/* RequestZeroCPU */
		{ "{\"requests\":{\"cpu\":\"0\"},\"limits\":{\"cpu\":\"2\",\"memory\":\"0\"}}",
		  false, 2, 200000 },
		/* BestEffort: minimum shares, no quota */
		{ "{}", false, 2, 0 },
		/* Burstable without a limit */
		{ "{\"requests\":{\"cpu\":\"250m\"}}", false, 256, 0 },
		/* Guaranteed with exclusive CPUs: no quota */
		{ "{\"limits\":{\"cpu\":\"2\",\"memory\":\"1G\"}}", true, 2048,
		  -1 },
	};
	struct cfs_options o;
	struct cfs_limits l;
	struct pod p;

	cfs_options_default(&o);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		one_container(&p, cases[i].resources);
		cfs_container_limits(&p.containers[0], cases[i].exclusive, &o,
				     &l);
		CHECK(l.shares == cases[i].shares && l.quota == cases[i].quota &&
		      l.set_quota && l.period == 100000,
		      "case %zu: shares %llu quota %lld period %llu", i,
		      (unsigned long long)l.shares, (long long)l.quota,
		      (unsigned long long)l.period);
		CHECK(l.weight == cfs_shares_to_weight(l.shares,
						       CFS_WEIGHT_LINEAR),
		      "case %zu: weight %llu", i, (unsigned long long)l.weight);
		pod_free(&p);
	}

	one_container(&p, cases[6].resources);
	/* the feature gate off: exclusive containers keep their quota */
	o.disable_quota_exclusive = false;
	cfs_container_limits(&p.containers[0], true, &o, &l);
	EXPECT_EQ(200000, l.quota);
	/* a custom period scales the quota */
	o.period = 50000;
	cfs_container_limits(&p.containers[0], true, &o, &l);
	EXPECT_EQ(100000, l.quota);
	EXPECT_EQ(50000u, l.period);
	/* cpuCFSQuota false: quota and period are not the kubelet's */
	o.cpu_cfs_quota = false;
	cfs_container_limits(&p.containers[0], false, &o, &l);
	EXPECT_FALSE(l.set_quota);
	EXPECT_EQ(2048u, l.shares);
	o.weight_conv = CFS_WEIGHT_QUADRATIC;
	cfs_container_limits(&p.containers[0], false, &o, &l);
	EXPECT_EQ(cfs_shares_to_weight(2048, CFS_WEIGHT_QUADRATIC), l.weight);
	pod_free(&p);
}

/*
 * One container for pod_of(): "request/limit" in cpu, "-" for none, a
 * leading '+' for a sidecar (an init container with restartPolicy Always).
 */
static int container_json(char *buf, size_t len, size_t k, const char *spec)
{
	char req[16], lim[16], r[48] = "", l[48] = "";
	bool sidecar = *spec == '+';

	if (sscanf(spec + sidecar, "%15[^/]/%15s", req, lim) != 2)
		abort();
	if (strcmp(req, "-"))
		snprintf(r, sizeof(r), "\"cpu\":\"%s\",", req);
	if (strcmp(lim, "-"))
		snprintf(l, sizeof(l), "\"cpu\":\"%s\",", lim);
	return snprintf(buf, len,
			"{\"name\":\"c%zu\",%s\"resources\":{\"requests\":{%s\"memory\":\"100Mi\"},\"limits\":{%s\"memory\":\"100Mi\"}}}",
			k, sidecar ? "\"restartPolicy\":\"Always\"," : "", r, l);
}

/* The containers of one list, comma-separated, at buf + n. */
static size_t containers_json(char *buf, size_t len, size_t n, size_t first,
			      const char *const *specs, size_t nr)
{
	for (size_t k = 0; k < nr; k++) {
		if (k)
			n += (size_t)snprintf(buf + n, len - n, ",");
		n += (size_t)container_json(buf + n, len - n, first + k,
					    specs[k]);
	}
	if (n >= len)
		abort();
	return n;
}

/* makePod()-like: init containers, then app containers. */
static void pod_of(struct pod *p, const char *const *init, size_t ni,
		   const char *const *apps, size_t na)
{
	char buf[4096];
	size_t n;

	n = (size_t)snprintf(buf, sizeof(buf),
			     "{\"metadata\":{\"uid\":\"u\"},\"spec\":{\"initContainers\":[");
	n = containers_json(buf, sizeof(buf), n, 0, init, ni);
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "],\"containers\":[");
	n = containers_json(buf, sizeof(buf), n, ni, apps, na);
	if (n + 4 > sizeof(buf))
		abort();
	strcpy(buf + n, "]}}");
	pod_from_text(p, buf);
}

TEST(pod_limits)
{
	/*
	 * TestResourceConfigForPodWithCustomCPUCFSQuotaPeriod: the period
	 * as configured (CustomCPUCFSQuotaPeriod on), 100 ms or 5 ms.
	 */
	static const char *const be[] = { "-/-" };
	static const char *const bu_nolim[] = { "100m/-" };
	static const char *const bu_lim[] = { "100m/200m" };
	static const char *const bu_part[] = { "100m/200m", "100m/-" };
	static const char *const gu[] = { "100m/100m" };
	static const char *const init_part[] = { "100m/100m", "100m/-" };
	static const struct {
		const char *name;
		const char *const *apps, *const *init;
		size_t na, ni;
		bool enforce;
		uint64_t period_in;
		uint64_t shares;
		bool set_quota;
		int64_t quota;
		uint64_t period;
	} cases[] = {
		{ "besteffort", be, NULL, 1, 0, true, 100000, 2, false, 0, 0 },
		{ "burstable-no-limits", bu_nolim, NULL, 1, 0, true, 100000,
		  102, false, 0, 0 },
		{ "burstable-with-limits", bu_lim, NULL, 1, 0, true, 100000,
		  102, true, 20000, 100000 },
		{ "burstable-with-limits-no-cpu-enforcement", bu_lim, NULL, 1,
		  0, false, 100000, 102, true, -1, 100000 },
		{ "burstable-partial-limits", bu_part, NULL, 2, 0, true, 100000,
		  204, false, 0, 0 },
		{ "burstable-with-limits-with-tuned-quota", bu_lim, NULL, 1, 0,
		  true, 5000, 102, true, 1000, 5000 },
		{ "burstable-with-limits-no-cpu-enforcement-with-tuned-quota",
		  bu_lim, NULL, 1, 0, false, 5000, 102, true, -1, 5000 },
		{ "burstable-partial-limits-with-tuned-quota", bu_part, NULL, 2,
		  0, true, 5000, 204, false, 0, 0 },
		{ "guaranteed", gu, NULL, 1, 0, true, 100000, 102, true, 10000,
		  100000 },
		{ "guaranteed-no-cpu-enforcement", gu, NULL, 1, 0, false,
		  100000, 102, true, -1, 100000 },
		{ "guaranteed-with-tuned-quota", gu, NULL, 1, 0, true, 5000,
		  102, true, 1000, 5000 },
		{ "guaranteed-no-cpu-enforcement-with-tuned-quota", gu, NULL, 1,
		  0, false, 5000, 102, true, -1, 5000 },
		/* TestResourceConfigForPod */
		{ "burstable-partial-limits-with-init-containers", init_part,
		  init_part, 2, 2, true, 5000, 204, false, 0, 0 },
	};
	struct cfs_options o;
	struct cfs_limits l;
	struct pod p;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		cfs_options_default(&o);
		o.cpu_cfs_quota = cases[i].enforce;
		o.period = cases[i].period_in;
		pod_of(&p, cases[i].init, cases[i].ni, cases[i].apps,
		       cases[i].na);
		cfs_pod_limits(&p, false, &o, &l);
		CHECK(l.shares == cases[i].shares &&
		      l.set_quota == cases[i].set_quota &&
		      l.quota == cases[i].quota && l.period == cases[i].period,
		      "%s: shares %llu set %d quota %lld period %llu",
		      cases[i].name, (unsigned long long)l.shares, l.set_quota,
		      (long long)l.quota, (unsigned long long)l.period);
		pod_free(&p);
	}
}

TEST(pod_limits_exclusive_and_sidecars)
{
	static const char *const gu2[] = { "2/2", "500m/500m" };
	static const char *const init[] = { "+1/1", "3/3" };
	static const char *const app[] = { "2/2" };
	struct cfs_options o;
	struct cfs_limits l;
	struct pod p;

	cfs_options_default(&o);
	pod_of(&p, NULL, 0, gu2, 2);
	cfs_pod_limits(&p, false, &o, &l);
	EXPECT_EQ(cfs_milli_cpu_to_shares(2500), l.shares);
	EXPECT_EQ(250000, l.quota);
	/* a container with exclusive CPUs lifts the pod's quota */
	cfs_pod_limits(&p, true, &o, &l);
	EXPECT_TRUE(l.set_quota);
	EXPECT_EQ(-1, l.quota);
	EXPECT_EQ(100000u, l.period);
	o.disable_quota_exclusive = false;
	cfs_pod_limits(&p, true, &o, &l);
	EXPECT_EQ(250000, l.quota);
	pod_free(&p);

	/* sidecar 1 + app 2 run together (3); init 3 runs with the
	 * sidecar started before it (4): the pod needs 4 */
	pod_of(&p, init, 2, app, 1);
	ASSERT_TRUE(p.containers[0].restartable);
	cfs_pod_limits(&p, false, &o, &l);
	EXPECT_EQ(cfs_milli_cpu_to_shares(4000), l.shares);
	EXPECT_EQ(400000, l.quota);
	pod_free(&p);
}

/*
 * Pod-level resources (KEP-2837): the pod cgroup gets the pod's own CPU
 * request and limit, not its containers' sum (3 here).
 */
TEST(pod_limits_pod_level)
{
	struct cfs_options o;
	struct cfs_limits l;
	struct pod p;

	cfs_options_default(&o);
	pod_from_text(&p, "{\"metadata\":{\"uid\":\"u\"},\"spec\":{"
		      "\"resources\":{\"limits\":{\"cpu\":\"4\",\"memory\":\"1G\"}},"
		      "\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":"
		      "{\"cpu\":\"2\",\"memory\":\"512M\"}}},{\"name\":\"log\","
		      "\"resources\":{\"limits\":{\"cpu\":\"1\"}}}]}}");
	cfs_pod_limits(&p, false, &o, &l);
	EXPECT_EQ(cfs_milli_cpu_to_shares(4000), l.shares);
	EXPECT_TRUE(l.set_quota);
	EXPECT_EQ(400000, l.quota);
	cfs_pod_limits(&p, true, &o, &l);
	EXPECT_EQ(-1, l.quota);
	pod_free(&p);
	/* a request alone: Burstable, no quota for the pod */
	pod_from_text(&p, "{\"metadata\":{\"uid\":\"u\"},\"spec\":{"
		      "\"resources\":{\"requests\":{\"cpu\":\"1500m\"}},"
		      "\"containers\":[{\"name\":\"a\",\"resources\":{\"limits\":"
		      "{\"cpu\":\"2\"}}}]}}");
	cfs_pod_limits(&p, false, &o, &l);
	EXPECT_EQ(cfs_milli_cpu_to_shares(1500), l.shares);
	EXPECT_FALSE(l.set_quota);
	pod_free(&p);
}

FAKE_TREE_FIXTURE(tree);

FIXTURE_SETUP(tree)
{
	memset(&self->err, 0, sizeof(self->err));
	fake_tree_new(self->dir, sizeof(self->dir));
}

TEST_F(tree, apply_v2)
{
	struct cfs_limits l = {
		.shares = 1024, .weight = 39, .set_quota = true,
		.quota = 150000, .period = 100000,
	};
	char target[PATH_MAX], expect[3 * PATH_MAX];

	ASSERT_EQ(0, fake_cgroupfs_init(&self->cg, self->dir, 2, &self->err));
	fake_mkdir(self->dir, "c");
	ASSERT_EQ(0, cfs_apply(&self->cg, "c", &l, &self->err));
	EXPECT_STREQ("39", fake_read(self->dir, "c/cpu.weight"));
	EXPECT_STREQ("150000 100000", fake_read(self->dir, "c/cpu.max"));
	EXPECT_FALSE(fake_exists(self->dir, "c/cpu.shares"));
	/* no limit, lifted or never declared: "max" */
	l.quota = -1;
	ASSERT_EQ(0, cfs_apply(&self->cg, "c", &l, &self->err));
	EXPECT_STREQ("max 100000", fake_read(self->dir, "c/cpu.max"));
	l.quota = 0;
	ASSERT_EQ(0, cfs_apply(&self->cg, "c", &l, &self->err));
	EXPECT_STREQ("max 100000", fake_read(self->dir, "c/cpu.max"));
	/* quota not managed: cpu.max untouched */
	l.set_quota = false;
	l.weight = 100;
	fake_write(self->dir, "c/cpu.max", "5000 10000\n");
	ASSERT_EQ(0, cfs_apply(&self->cg, "c", &l, &self->err));
	EXPECT_STREQ("100", fake_read(self->dir, "c/cpu.weight"));
	EXPECT_STREQ("5000 10000\n", fake_read(self->dir, "c/cpu.max"));
	/* half applied: said so */
	l.set_quota = true;
	xsnprintf(target, sizeof(target), "%s/c/cpu.max", self->dir);
	unlink(target);
	ASSERT_EQ(0, symlink("/dev/full", target));
	EXPECT_EQ(-ENOSPC, cfs_apply(&self->cg, "c", &l, &self->err));
	xsnprintf(expect, sizeof(expect),
		  "CFS limits of %s/c: cpu.weight written, not cpu.max: %s: write \"max 100000\": No space left on device",
		  self->dir, target);
	EXPECT_STREQ(expect, cm_error_msg(&self->err));
}

TEST_F(tree, apply_v1)
{
	struct cfs_limits l = {
		.shares = 2048, .weight = 77, .set_quota = true,
		.quota = 200000, .period = 100000,
	};
	const char *d = self->dir;
	char target[PATH_MAX];

	fake_mkdir(d, "cpuset");
	fake_mkdir(d, "cpu,cpuacct/c");
	ASSERT_EQ(0, fake_cgroupfs_init(&self->cg, d, 1, &self->err));
	ASSERT_EQ(0, cfs_apply(&self->cg, "c", &l, &self->err));
	EXPECT_STREQ("2048", fake_read(d, "cpu,cpuacct/c/cpu.shares"));
	EXPECT_STREQ("100000", fake_read(d, "cpu,cpuacct/c/cpu.cfs_period_us"));
	EXPECT_STREQ("200000", fake_read(d, "cpu,cpuacct/c/cpu.cfs_quota_us"));
	EXPECT_FALSE(fake_exists(d, "cpu,cpuacct/c/cpu.weight"));
	l.quota = 0;
	ASSERT_EQ(0, cfs_apply(&self->cg, "c", &l, &self->err));
	EXPECT_STREQ("-1", fake_read(d, "cpu,cpuacct/c/cpu.cfs_quota_us"));
	/* a period write failing for good stops it all */
	xsnprintf(target, sizeof(target), "%s/cpu,cpuacct/c/cpu.cfs_period_us",
		  d);
	unlink(target);
	ASSERT_EQ(0, symlink("/dev/full", target));
	l.quota = 300000;
	EXPECT_EQ(-ENOSPC, cfs_apply(&self->cg, "c", &l, &self->err));
	CHECK(strstr(cm_error_msg(&self->err),
		     ": cpu.shares written, not cpu.cfs_period_us: ") != NULL,
	      "%s", cm_error_msg(&self->err));
	EXPECT_STREQ("-1", fake_read(d, "cpu,cpuacct/c/cpu.cfs_quota_us"));

	/*
	 * EINVAL on the period (the kernel refusing it next to the old
	 * quota): the quota goes first, then the period again.  A file that
	 * says EINVAL to "100000" and changes nothing: oom_score_adj takes
	 * -1000..1000 only.
	 */
	if (access("/proc/self/oom_score_adj", W_OK))
		SKIP(return, "no /proc/self/oom_score_adj to write to");
	unlink(target);
	ASSERT_EQ(0, symlink("/proc/self/oom_score_adj", target));
	EXPECT_EQ(-EINVAL, cfs_apply(&self->cg, "c", &l, &self->err));
	CHECK(strstr(cm_error_msg(&self->err),
		     ": cpu.shares and cpu.cfs_quota_us written, not cpu.cfs_period_us: ") &&
	      strstr(cm_error_msg(&self->err),
		     "write \"100000\": Invalid argument"),
	      "%s", cm_error_msg(&self->err));
	EXPECT_STREQ("300000", fake_read(d, "cpu,cpuacct/c/cpu.cfs_quota_us"));
}

/* The hook reads a runtime's spec back into requests and limits. */
TEST(inverse_round_trip)
{
	static const uint64_t periods[] = { 100000, 10000, 200000 };

	for (int64_t m = 3; m <= 256000; m++)
		CHECK(cfs_shares_to_milli_cpu(cfs_milli_cpu_to_shares(m)) == m,
		      "request %lld -> shares %llu -> %lld", (long long)m,
		      (unsigned long long)cfs_milli_cpu_to_shares(m),
		      (long long)cfs_shares_to_milli_cpu(cfs_milli_cpu_to_shares(m)));
	for (int64_t m = 10; m <= 256000; m++)
		CHECK(cfs_quota_to_milli_cpu(cfs_milli_cpu_to_quota(m, 100000),
					     100000) == m,
		      "limit %lld", (long long)m);
	/* other periods: exact where the quota is above the 1 ms floor */
	for (size_t i = 0; i < ARRAY_SIZE(periods); i++)
		for (int64_t m = 1000; m <= 64000; m += 250)
			CHECK(cfs_quota_to_milli_cpu(cfs_milli_cpu_to_quota(m,
					(int64_t)periods[i]), periods[i]) == m,
			      "limit %lld period %llu", (long long)m,
			      (unsigned long long)periods[i]);
	/* no request, no limit, and the kubelet's own values */
	CHECK(cfs_shares_to_milli_cpu(0) == 0, "shares 0");
	CHECK(cfs_shares_to_milli_cpu(2) == 0, "shares 2: no request");
	CHECK(cfs_shares_to_milli_cpu(1024) == 1000, "shares 1024");
	CHECK(cfs_shares_to_milli_cpu(2048) == 2000, "shares 2048");
	CHECK(cfs_shares_to_milli_cpu(1 << 30) == 256000, "clamped");
	CHECK(cfs_quota_to_milli_cpu(-1, 100000) == 0, "quota -1");
	CHECK(cfs_quota_to_milli_cpu(0, 100000) == 0, "quota 0");
	CHECK(cfs_quota_to_milli_cpu(200000, 0) == 0, "no period");
	CHECK(cfs_quota_to_milli_cpu(200000, 100000) == 2000, "2 CPUs");
	CHECK(cfs_quota_to_milli_cpu(150001, 100000) == 1500, "rounded down");
}

TEST_HARNESS_MAIN
