// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus text writer (names, escaping, values), cpumgr's metrics
 * as exact text, and the atomic file for node_exporter's textfile
 * collector.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

#include "fake_cgroup.h"
#include "metrics.h"
#include "test_util.h"

TEST(names)
{
	static const char *const good[] = {
		"a", "_", "cpu_manager_pinning_requests_total", "A9_b",
	};
	static const char *const bad[] = {
		"", "1a", "a-b", "a:b", "a b", "é", "a.b",
	};

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		CHECK(prom_metric_name_ok(good[i]), "%s", good[i]);
		CHECK(prom_label_name_ok(good[i]), "%s", good[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK(!prom_metric_name_ok(bad[i]), "%s", bad[i]);
		CHECK(!prom_label_name_ok(bad[i]), "%s", bad[i]);
	}
	EXPECT_FALSE(prom_metric_name_ok(NULL));
	EXPECT_TRUE(prom_metric_name_ok("__x"));
	EXPECT_FALSE(prom_label_name_ok("__x"));
}

TEST(escaping_and_values)
{
	struct prom_label l[] = {
		{ "path", "C:\\dir\\\"x\"\nnext" },
		{ "utf8", "\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80" },
	};
	struct cm_error err = { 0 };
	struct prom_writer w;

	prom_init(&w);
	EXPECT_STREQ("", prom_text(&w));
	ASSERT_EQ(0, prom_family(&w, "x_total", PROM_COUNTER,
				 "Back\\slash, \"quotes\" kept,\nnewline.",
				 &err));
	ASSERT_EQ(0, prom_sample_u64(&w, l, 2, 18446744073709551615ULL, &err));
	ASSERT_EQ(0, prom_family(&w, "g", PROM_GAUGE, NULL, &err));
	ASSERT_EQ(0, prom_sample_i64(&w, NULL, 0, -5, &err));
	ASSERT_EQ(0, prom_sample_double(&w, NULL, 0, 0.1, &err));
	ASSERT_EQ(0, prom_sample_double(&w, NULL, 0, 1e21, &err));
	ASSERT_EQ(0, prom_sample_double(&w, NULL, 0, -2.5, &err));
	ASSERT_EQ(0, prom_sample_double(&w, NULL, 0, NAN, &err));
	ASSERT_EQ(0, prom_sample_double(&w, NULL, 0, INFINITY, &err));
	ASSERT_EQ(0, prom_sample_double(&w, NULL, 0, -INFINITY, &err));
	EXPECT_STREQ("# HELP x_total Back\\\\slash, \"quotes\" kept,\\nnewline.\n"
		     "# TYPE x_total counter\n"
		     "x_total{path=\"C:\\\\dir\\\\\\\"x\\\"\\nnext\",utf8=\"\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80\"} 18446744073709551615\n"
		     "# TYPE g gauge\n"
		     "g -5\n"
		     "g 0.1\n"
		     "g 1e+21\n"
		     "g -2.5\n"
		     "g NaN\n"
		     "g +Inf\n"
		     "g -Inf\n", prom_text(&w));
	prom_free(&w);
	cm_error_clear(&err);
}

TEST(refusals)
{
	static const char *const not_utf8[] = {
		"\xff", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\xc3",
		"\xe2\x82",
	};
	struct cm_error err = { 0 };
	struct prom_label l[2] = { { "a", "1" }, { "a", "2" } };
	struct prom_writer w;
	size_t len;

	prom_init(&w);
	EXPECT_NE(0, prom_sample_u64(&w, NULL, 0, 1, &err));
	EXPECT_STREQ("a sample needs a metric family first", cm_error_msg(&err));
	EXPECT_NE(0, prom_family(&w, "a:b", PROM_GAUGE, "h", &err));
	EXPECT_STREQ("metric name \"a:b\": must match [a-zA-Z_][a-zA-Z0-9_]*",
		     cm_error_msg(&err));
	EXPECT_NE(0, prom_family(&w, "requests", PROM_COUNTER, "h", &err));
	EXPECT_STREQ("counter requests: the name must end in _total",
		     cm_error_msg(&err));
	EXPECT_NE(0, prom_family(&w, "_total", PROM_COUNTER, "h", &err));
	ASSERT_EQ(0, prom_family(&w, "c_total", PROM_COUNTER, "h", &err));
	EXPECT_NE(0, prom_family(&w, "c_total", PROM_GAUGE, "h", &err));
	EXPECT_STREQ("metric c_total: a second family of that name",
		     cm_error_msg(&err));
	len = strlen(prom_text(&w));
	EXPECT_NE(0, prom_sample_i64(&w, NULL, 0, -1, &err));
	EXPECT_STREQ("counter c_total: negative value -1", cm_error_msg(&err));
	EXPECT_NE(0, prom_sample_double(&w, NULL, 0, NAN, &err));
	EXPECT_NE(0, prom_sample_u64(&w, l, 2, 1, &err));
	EXPECT_STREQ("metric c_total: label a given twice", cm_error_msg(&err));
	l[1].name = "__b";
	EXPECT_NE(0, prom_sample_u64(&w, l, 2, 1, &err));
	l[1].name = "b";
	for (size_t i = 0; i < ARRAY_SIZE(not_utf8); i++) {
		l[1].value = not_utf8[i];
		CHECK(prom_sample_u64(&w, l, 2, 1, &err) != 0,
		      "not_utf8[%zu] accepted", i);
	}
	EXPECT_STREQ("metric c_total: label b: the value must be UTF-8 text",
		     cm_error_msg(&err));
	/* nothing of a refused sample reached the text */
	EXPECT_EQ(len, strlen(prom_text(&w)));
	prom_free(&w);
	cm_error_clear(&err);
}

static const struct cpumgr_numa_alloc numa[] = {
	{ 1, 4 }, { 0, 2 }, { 3, 0 }, { 2, 0 },
};

static const char expect_head[] =
	"# HELP cpu_manager_pinning_requests_total The number of cpu core allocations which required pinning.\n"
	"# TYPE cpu_manager_pinning_requests_total counter\n"
	"cpu_manager_pinning_requests_total 12\n"
	"# HELP cpu_manager_pinning_errors_total The number of cpu core allocations which required pinning failed.\n"
	"# TYPE cpu_manager_pinning_errors_total counter\n"
	"cpu_manager_pinning_errors_total 1\n"
	"# HELP cpu_manager_shared_pool_size_millicores The size of the shared CPU pool for non-guaranteed QoS pods, in millicores.\n"
	"# TYPE cpu_manager_shared_pool_size_millicores gauge\n"
	"cpu_manager_shared_pool_size_millicores 10000\n"
	"# HELP cpu_manager_exclusive_cpu_allocation_count The total number of CPUs exclusively allocated to containers running on this node\n"
	"# TYPE cpu_manager_exclusive_cpu_allocation_count gauge\n"
	"cpu_manager_exclusive_cpu_allocation_count 6\n"
	"# HELP cpu_manager_allocation_per_numa Number of CPUs allocated per NUMA node\n"
	"# TYPE cpu_manager_allocation_per_numa gauge\n"
	"cpu_manager_allocation_per_numa{numa_node=\"0\"} 2\n"
	"cpu_manager_allocation_per_numa{numa_node=\"1\"} 4\n"
	"cpu_manager_allocation_per_numa{numa_node=\"2\"} 0\n"
	"cpu_manager_allocation_per_numa{numa_node=\"3\"} 0\n"
	"# HELP cpumgr_violations_total Cpuset writes and task moves that would break CPU exclusivity, seen by the cpumgr kernel module: refused (enforce mode) or let through (audit mode).\n"
	"# TYPE cpumgr_violations_total counter\n";

static const char expect_tail[] =
	"# HELP cpumgr_offlines_refused_total CPU offlines the cpumgr kernel module refused because the CPU was exclusively assigned (hotplug mode protect).\n"
	"# TYPE cpumgr_offlines_refused_total counter\n"
	"cpumgr_offlines_refused_total 2\n"
	"# HELP cpumgr_guarantee_armed 1 when the cpumgr kernel module's probes are in place and fire, 0 when the guarantee is off (kprobes disabled, kernel.ftrace_enabled=0).\n"
	"# TYPE cpumgr_guarantee_armed gauge\n"
	"cpumgr_guarantee_armed 1\n"
	"# HELP cpumgr_probes_missed_total Calls the cpumgr kernel module's probes missed (another kprobe was running): they went unchecked.\n"
	"# TYPE cpumgr_probes_missed_total counter\n"
	"cpumgr_probes_missed_total 3\n";

static void filled(struct cpumgr_metrics *m)
{
	memset(m, 0, sizeof(*m));
	m->pinning_requests = 12;
	m->pinning_errors = 1;
	m->shared_pool_millicores = 10000;
	m->exclusive_cpus = 6;
	m->numa = numa;
	m->nr_numa = ARRAY_SIZE(numa);
	m->violations = 5;
	m->offlines_refused = 2;
	m->armed = true;
	m->probes_missed = 3;
}

TEST(cpumgr_metrics_text)
{
	struct cm_error err = { 0 };
	struct cpumgr_metrics m;
	struct prom_writer w;
	char expect[4096];

	filled(&m);
	prom_init(&w);
	ASSERT_EQ(0, cpumgr_metrics_render(&w, &m, &err)) {
		TH_LOG("%s", cm_error_msg(&err));
	}
	snprintf(expect, sizeof(expect), "%scpumgr_violations_total 5\n%s",
		 expect_head, expect_tail);
	EXPECT_STREQ(expect, prom_text(&w));
	/* the same families twice in one file: refused */
	EXPECT_NE(0, cpumgr_metrics_render(&w, &m, &err));
	prom_free(&w);

	/* per kind and verdict: every series, zeros too */
	m.by_kind = true;
	m.violations_by[CPUMGR_VIOLATION_WRITE][CPUMGR_VERDICT_REFUSED] = 3;
	m.violations_by[CPUMGR_VIOLATION_ATTACH][CPUMGR_VERDICT_AUDITED] = 1;
	m.violations_by[CPUMGR_VIOLATION_FORK][CPUMGR_VERDICT_REFUSED] = 1;
	prom_init(&w);
	ASSERT_EQ(0, cpumgr_metrics_render(&w, &m, &err));
	snprintf(expect, sizeof(expect), "%s%s%s", expect_head,
		 "cpumgr_violations_total{kind=\"write\",verdict=\"audited\"} 0\n"
		 "cpumgr_violations_total{kind=\"write\",verdict=\"refused\"} 3\n"
		 "cpumgr_violations_total{kind=\"inherit\",verdict=\"audited\"} 0\n"
		 "cpumgr_violations_total{kind=\"inherit\",verdict=\"refused\"} 0\n"
		 "cpumgr_violations_total{kind=\"partition\",verdict=\"audited\"} 0\n"
		 "cpumgr_violations_total{kind=\"partition\",verdict=\"refused\"} 0\n"
		 "cpumgr_violations_total{kind=\"attach\",verdict=\"audited\"} 1\n"
		 "cpumgr_violations_total{kind=\"attach\",verdict=\"refused\"} 0\n"
		 "cpumgr_violations_total{kind=\"fork\",verdict=\"audited\"} 0\n"
		 "cpumgr_violations_total{kind=\"fork\",verdict=\"refused\"} 1\n",
		 expect_tail);
	EXPECT_STREQ(expect, prom_text(&w));
	prom_free(&w);

	/* a NUMA node given twice */
	{
		static const struct cpumgr_numa_alloc twice[] = {
			{ 0, 1 }, { 0, 2 },
		};

		m.numa = twice;
		m.nr_numa = 2;
		prom_init(&w);
		EXPECT_NE(0, cpumgr_metrics_render(&w, &m, &err));
		EXPECT_STREQ("NUMA node 0: negative or given twice",
			     cm_error_msg(&err));
		prom_free(&w);
	}
	cm_error_clear(&err);
}

TEST(atomic_file)
{
	static const struct { const char *file, *msg; int ret; } bad[] = {
		{ "cpumgr.txt", "node_exporter's textfile collector reads only files named *.prom",
		  -EINVAL },
		{ "none/cpumgr.prom", "cannot open %s/none: No such file or directory",
		  -ENOENT },
	};
	struct cm_error err = { 0 };
	char dir[PATH_MAX], path[PATH_MAX], msg[PATH_MAX], expect[3 * PATH_MAX];
	struct stat st;

	fake_tree_new(dir, sizeof(dir));
	xsnprintf(path, sizeof(path), "%s/cpumgr.prom", dir);
	ASSERT_EQ(0, prom_write_file(path, "a 1\n", &err));
	EXPECT_STREQ("a 1\n", fake_read(dir, "cpumgr.prom"));
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0644u, st.st_mode & 0777u);
	/* replaced whole, and no temporary file left */
	ASSERT_EQ(0, prom_write_file(path, "a 2\nb 3\n", &err));
	EXPECT_STREQ("a 2\nb 3\n", fake_read(dir, "cpumgr.prom"));
	EXPECT_EQ(1u, fake_count_entries(dir));

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		xsnprintf(path, sizeof(path), "%s/%s", dir, bad[i].file);
		EXPECT_EQ(bad[i].ret, prom_write_file(path, "a 1\n", &err));
		xsnprintf(msg, sizeof(msg), bad[i].msg, dir);
		xsnprintf(expect, sizeof(expect), "%s: %s", path, msg);
		EXPECT_STREQ(expect, cm_error_msg(&err));
	}
	/* the target a directory: rename fails, the temporary file goes */
	fake_mkdir(dir, "d.prom");
	xsnprintf(path, sizeof(path), "%s/d.prom", dir);
	EXPECT_EQ(-EISDIR, prom_write_file(path, "a 1\n", &err));
	EXPECT_EQ(2u, fake_count_entries(dir));
	fake_tree_free(dir);
	cm_error_clear(&err);
}

TEST_HARNESS_MAIN
