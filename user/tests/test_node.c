// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the controller's pure parts: config.json round trip and
 * refusals, the audit's rule on a fake cgroup tree, the top-up choice,
 * and status rendering (80 columns, the map's marks) on a fake node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "ctl_status.h"
#include "fake_cgroup.h"
#include "node.h"
#include "test_util.h"

static struct cpuset cs(const char *list)
{
	struct cpuset s;

	if (cpuset_parse(&s, list, NULL))
		abort();
	return s;
}

static bool eq(const struct cpuset *s, const char *list)
{
	struct cpuset want = cs(list);

	return cpuset_equal(s, &want);
}

/* 2 sockets x 2 cores x 2 threads, one NUMA node and one L3 per socket. */
static struct topology *smt8(void)
{
	struct topo_cpu_info c[8];

	for (int i = 0; i < 8; i++) {
		c[i].cpu = i;
		c[i].core = i & ~1;
		c[i].socket = c[i].numa = c[i].uncore = i / 4;
	}
	return topology_new(c, 8, NULL);
}

TEST(config_round_trip)
{
	struct node_config c, back;
	struct cm_error err = { 0 };
	cJSON *j;

	node_config_default(&c);
	c.policy = CPU_POLICY_STATIC;
	c.opts.full_pcpus_only = true;
	c.opts.strict_reservation = true;
	c.reserved = cs("0-1");
	c.reserved_milli = 1500;
	c.enforce = CPUMGR_ENFORCE_AUDIT;
	c.init_cpus = NODE_INIT_CPUS_RELEASE;
	strcpy(c.cgroup_root, "/sys/fs/cgroup/kubepods");
	j = node_config_to_json(&c);
	ASSERT_TRUE(j != NULL);
	ASSERT_EQ(0, node_config_from_json(&back, j, &err));
	EXPECT_TRUE(back.policy == CPU_POLICY_STATIC);
	EXPECT_TRUE(back.opts.full_pcpus_only);
	EXPECT_TRUE(back.opts.strict_reservation);
	EXPECT_FALSE(back.opts.distribute_numa);
	EXPECT_TRUE(cpuset_equal(&back.reserved, &c.reserved));
	EXPECT_EQ(1500, back.reserved_milli);
	EXPECT_TRUE(back.enforce == CPUMGR_ENFORCE_AUDIT);
	EXPECT_STREQ("/sys/fs/cgroup/kubepods", back.cgroup_root);
	EXPECT_EQ((uint32_t)(CPUMGR_OPT_FULL_PCPUS_ONLY | CPUMGR_OPT_STRICT_CPU_RESERVATION),
		  node_config_option_bits(&back));
	EXPECT_EQ(10000000000LL, back.reconcile_ns);
	EXPECT_TRUE(back.init_cpus == NODE_INIT_CPUS_RELEASE);
	/* a node.json from before --init-cpus: the kubelet's behaviour */
	cJSON_DeleteItemFromObject(j, "initCpus");
	ASSERT_EQ(0, node_config_from_json(&back, j, &err));
	EXPECT_TRUE(back.init_cpus == NODE_INIT_CPUS_KEEP);
	cJSON_AddStringToObject(j, "initCpus", "sometimes");
	EXPECT_NE(0, node_config_from_json(&back, j, &err));
	cJSON_DeleteItemFromObject(j, "initCpus");

	cJSON_ReplaceItemInObject(j, "enforce", cJSON_CreateString("often"));
	EXPECT_NE(0, node_config_from_json(&back, j, &err));
	CHECK(strstr(cm_error_msg(&err), "unknown value \"often\"") != NULL, "%s",
	      cm_error_msg(&err));
	cJSON_ReplaceItemInObject(j, "enforce", cJSON_CreateString("audit"));
	cJSON_ReplaceItemInObject(j, "cgroupRoot", cJSON_CreateString("x"));
	EXPECT_NE(0, node_config_from_json(&back, j, &err));
	cJSON_Delete(j);
	cm_error_clear(&err);
}

static struct cpumgr_assignment as(const char *pod, const char *c,
				   const char *cpus, const char *cg,
				   const char *pod_cg)
{
	struct cpumgr_assignment a = { 0 };

	strcpy(a.pod_uid, pod);
	strcpy(a.container, c);
	a.cpus = (char *)cpus;
	a.cgroup_path = (char *)cg;
	a.pod_cgroup_path = (char *)pod_cg;
	return a;
}

/* a cgroup with effective CPUs and, when pid is set, a task */
static void cgroup(const char *dir, const char *name, const char *eff,
		   const char *pid)
{
	char rel[PATH_MAX];

	xsnprintf(rel, sizeof(rel), "%s/cpuset.cpus.effective", name);
	fake_write(dir, rel, eff);
	xsnprintf(rel, sizeof(rel), "%s/cgroup.procs", name);
	fake_write(dir, rel, pid ? pid : "");
}

static void offender_is(struct __test_metadata *_metadata,
			const struct node_offender *o, const char *name,
			const char *cpus, const char *owner)
{
	EXPECT_STREQ(name, o->name);
	EXPECT_TRUE(eq(&o->cpus, cpus)) TH_LOG("%s", name);
	EXPECT_STREQ(owner, o->owner);
}

TEST(audit_rule)
{
	char dir[PATH_MAX], p1[PATH_MAX], c1[PATH_MAX], i1[PATH_MAX];
	struct cm_error err = { 0 };
	struct cpumgr_assignment a[3];
	struct node_audit out;
	struct cpuset reserved = cs("0");
	struct cgroupfs cg;
	const char *attached[] = { "kp/idle", NULL };

	fake_tree_new(dir, sizeof(dir));
	cgroup(dir, "", "0-7", "1");
	cgroup(dir, "kp", "0-7", NULL);
	cgroup(dir, "kp/p1", "0-7", NULL);		/* the pod: above */
	cgroup(dir, "kp/p1/app", "2-3", "10");		/* its own */
	cgroup(dir, "kp/p1/init", "2-5", "11");	/* the init's, reused */
	cgroup(dir, "kp/p1/app/sub", "2", "12");	/* below the owner */
	cgroup(dir, "kp/be", "1,4-7", "13");		/* pod 1's init CPUs */
	cgroup(dir, "kp/empty", "0-7", NULL);		/* no task: fine */
	cgroup(dir, "kp/idle", "3", NULL);		/* attached: counts */
	cgroup(dir, "kp/res", "0", "14");		/* reserved, strict */
	ASSERT_EQ(0, fake_cgroupfs_init(&cg, dir, 2, &err));
	xsnprintf(p1, sizeof(p1), "%s/kp/p1", dir);
	xsnprintf(c1, sizeof(c1), "%s/kp/p1/app", dir);
	xsnprintf(i1, sizeof(i1), "%s/kp/p1/init", dir);
	a[0] = as("p1", "app", "2-3", c1, p1);
	a[1] = as("p1", "init", "2-5", i1, p1);
	a[2] = as("p2", "c", "6", NULL, NULL);		/* not bound */

	ASSERT_EQ(0, node_audit_tree(&cg, "kp", a, 3, &reserved, NULL, attached,
				     &out, &err));
	EXPECT_EQ(8U, out.checked);
	ASSERT_EQ(3U, out.nr);
	offender_is(_metadata, &out.v[0], "kp/be", "4-6", "p1/init, p2/c");
	offender_is(_metadata, &out.v[1], "kp/idle", "3", "p1/app, p1/init");
	offender_is(_metadata, &out.v[2], "kp/res", "0", "reserved");
	node_audit_free(&out);

	/* without strict reservation the reserved CPU is anyone's */
	ASSERT_EQ(0, node_audit_tree(&cg, "kp", a, 3, NULL, NULL, NULL, &out,
				     &err));
	EXPECT_EQ(1U, out.nr);	/* kp/idle no longer counts: not attached */
	node_audit_free(&out);

	/*
	 * p2/c's partition pending: a cgroup may inherit its CPU meanwhile,
	 * not name it
	 */
	a[2].flags = CPUMGR_ASSIGNMENT_F_PARTITION_PENDING;
	cgroup(dir, "kp/named", "6", "15");
	fake_write(dir, "kp/named/cpuset.cpus", "6\n");
	ASSERT_EQ(0, node_audit_tree(&cg, "kp", a, 3, &reserved, NULL, attached,
				     &out, &err));
	ASSERT_EQ(4U, out.nr);
	offender_is(_metadata, &out.v[0], "kp/be", "4-5", "p1/init");
	offender_is(_metadata, &out.v[2], "kp/named", "6", "p2/c");
	node_audit_free(&out);
	fake_tree_free(dir);
}

/*
 * The system partition (KEP-5894): its tree may hold the reserved CPUs
 * under strict reservation, and runs on its CPUs alone.
 */
TEST(audit_system_partition)
{
	struct node_audit_system sys = { .name = "kp/system" };
	struct cm_error err = { 0 };
	struct cpuset reserved = cs("0-1");
	struct node_audit out;
	struct cgroupfs cg;
	char dir[PATH_MAX];

	sys.cpus = cs("0-1");
	fake_tree_new(dir, sizeof(dir));
	cgroup(dir, "", "0-7", "1");
	cgroup(dir, "kp", "0-7", NULL);
	cgroup(dir, "kp/system", "0-1", "10");
	cgroup(dir, "kp/system/podq", "0-1", "11");
	cgroup(dir, "kp/system/pods", "0-1,7", "12");	/* off it */
	cgroup(dir, "kp/user", "1-7", "13");		/* reserved 1 */
	ASSERT_EQ(0, fake_cgroupfs_init(&cg, dir, 2, &err));
	ASSERT_EQ(0, node_audit_tree(&cg, "kp", NULL, 0, &reserved, &sys,
				     NULL, &out, &err));
	ASSERT_EQ(2U, out.nr);
	offender_is(_metadata, &out.v[0], "kp/system/pods", "7",
		    "the user pods, not the system partition");
	offender_is(_metadata, &out.v[1], "kp/user", "1", "reserved");
	node_audit_free(&out);

	/* without it, strict reservation holds in the system cgroup too */
	ASSERT_EQ(0, node_audit_tree(&cg, "kp", NULL, 0, &reserved, NULL,
				     NULL, &out, &err));
	EXPECT_EQ(4U, out.nr);
	node_audit_free(&out);
	fake_tree_free(dir);
}

TEST(topup_choice)
{
	struct topology *t = smt8();
	struct cm_error err = { 0 };
	struct cpuset out, avail, have;

	ASSERT_TRUE(t != NULL);
	/* the sibling of what it kept comes first */
	avail = cs("1,3,5-7");
	have = cs("4");
	ASSERT_EQ(0, node_topup_choose(t, NULL, &avail, &have, 1, &out, &err));
	EXPECT_TRUE(eq(&out, "5"));
	/* no free sibling: the same socket, a whole free core */
	avail = cs("1-3,6-7");
	ASSERT_EQ(0, node_topup_choose(t, NULL, &avail, &have, 2, &out, &err));
	EXPECT_TRUE(eq(&out, "6-7"));
	/* the socket is full: elsewhere */
	avail = cs("1-3");
	ASSERT_EQ(0, node_topup_choose(t, NULL, &avail, &have, 2, &out, &err));
	EXPECT_TRUE(eq(&out, "2-3"));
	EXPECT_EQ(-ENOSPC, node_topup_choose(t, NULL, &avail, &have, 4, &out,
					     &err));
	CHECK(strstr(cm_error_msg(&err), "requested=4, available=3") != NULL, "%s",
	      cm_error_msg(&err));
	EXPECT_EQ(0, node_topup_choose(t, NULL, &avail, &have, 0, &out, &err));
	EXPECT_TRUE(cpuset_empty(&out));
	topology_free(t);
	cm_error_clear(&err);
}

/* A node with no kernel: the facts status renders, by hand. */
static void fake_node(struct node *n, struct cpumgr_assignment *a,
		      unsigned int nr_cpus, unsigned int threads,
		      unsigned int per_node)
{
	memset(n, 0, sizeof(*n));
	n->kernel.table.policy = CPUMGR_POLICY_STATIC;
	n->kernel.table.enforce = CPUMGR_ENFORCE_ENFORCE;
	n->kernel.table.generation = 7;
	n->kernel.cpus = calloc(nr_cpus, sizeof(*n->kernel.cpus));
	n->kernel.nr_cpus = nr_cpus;
	for (unsigned int i = 0; i < nr_cpus; i++) {
		struct node_cpu *c = &n->kernel.cpus[i];

		c->cpu = (int)i;
		c->known = c->online = true;
		c->numa = (int)(i / per_node);
		c->package = c->numa / 2;
		c->llc = c->numa;
		c->core_cpu = (int)(i - i % threads);
		cpuset_set(&n->kernel.online, i);
	}
	n->kernel.reserved = cs("0");
	n->kernel.as = a;
	n->kernel.nr_as = 1;
	n->kernel.exclusive = cs(a->cpus);
	cpuset_andnot(&n->kernel.shared, &n->kernel.online,
		      &n->kernel.exclusive);
	strcpy(n->cfg.cgroup_root, "/sys/fs/cgroup/kp");
}

static char *render(const struct node *n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f || ctl_status_print(f, n, NULL))
		abort();
	fclose(f);
	return text;
}

static bool fits(const char *text, size_t width)
{
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");

		if (n > width)
			return false;
		l += n + !!l[n];
	}
	return true;
}

TEST(status_small)
{
	struct cpumgr_assignment a = as("p-uid", "app", "4-5",
					"/sys/fs/cgroup/kp/p/app", NULL);
	struct node n;
	char *text;

	fake_node(&n, &a, 8, 2, 4);
	n.kernel.cpus[7].online = false;
	cpuset_clear(&n.kernel.online, 7);
	cpuset_clear(&n.kernel.shared, 7);
	text = render(&n);
	CHECK(fits(text, 80), "%s", text);
	CHECK(strstr(text, "socket 0\n  numa node 0 (llc 0)\n"
			   "    cpu  0 1 | 2 3\n         R . | . .\n"), "%s", text);
	CHECK(strstr(text, "    cpu  4 5 | 6 7\n         a a | . -\n") != NULL, "%s",
	      text);
	CHECK(strstr(text, "a   p-uid              app            -           4-5         p/app"),
	      "%s", text);
	CHECK(strstr(text, "offline   7 "), "%s", text);
	free(text);
	free(n.kernel.cpus);
}

/*
 * The reduced view of a caller without CAP_SYS_ADMIN: the kernel gave
 * the pools but no assignment and no cgroup root.  Exclusive CPUs are
 * X on the map and in no container; no pod row, no cgroup root.
 */
TEST(status_restricted)
{
	struct cpumgr_assignment a = as("p-uid", "app", "4-5", NULL, NULL);
	cJSON *j, *cpu;
	struct node n;
	char *text;

	fake_node(&n, &a, 8, 2, 4);
	n.kernel.as = NULL;
	n.kernel.nr_as = 0;
	n.kernel.table.restricted = true;
	text = render(&n);
	CHECK(fits(text, 80), "%s", text);
	CHECK(strstr(text, "    cpu  4 5 | 6 7\n         X X | . .\n"), "%s",
	      text);
	CHECK(strstr(text, "\ncgroups   (root's)\n"), "%s", text);
	CHECK(strstr(text, "\npods and containers: root's"), "%s", text);
	CHECK(strstr(text, "X exclusive (whose: root's)"), "%s", text);
	CHECK(!strstr(text, "no pods admitted"), "%s", text);
	free(text);
	j = ctl_status_json(&n);
	ASSERT_TRUE(j != NULL);
	EXPECT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(j, "restricted")));
	EXPECT_EQ(NULL, cJSON_GetObjectItem(j, "cgroupRoot"));
	EXPECT_EQ(0, cJSON_GetArraySize(cJSON_GetObjectItem(j, "containers")));
	cpu = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "cpus"), 4);
	ASSERT_TRUE(cpu != NULL);
	EXPECT_STREQ("exclusive",
		     cJSON_GetStringValue(cJSON_GetObjectItem(cpu, "pool")));
	EXPECT_EQ(NULL, cJSON_GetObjectItem(cpu, "key"));
	cJSON_Delete(j);
	free(n.kernel.cpus);
}

/*
 * The policy's state from the reduced view: no entries, but the
 * exclusive CPUs are out of the default set, so that hints as a normal
 * user offer free CPUs only.
 */
TEST(kernel_state_restricted)
{
	struct cpumgr_assignment a = as("p-uid", "app", "4-5", NULL, NULL);
	struct cm_error err = { 0 };
	struct cpu_assignments st;
	struct node n;

	fake_node(&n, &a, 8, 2, 4);
	n.kernel.as = NULL;
	n.kernel.nr_as = 0;
	n.kernel.table.restricted = true;
	ASSERT_EQ(0, node_topology_from_cpus(n.kernel.cpus, n.kernel.nr_cpus,
					     &n.kernel.topo, &err));
	ASSERT_EQ(0, node_kernel_state(&n, &st));
	EXPECT_EQ(0u, st.nr);
	EXPECT_TRUE(eq(&st.default_set, "0-3,6-7"));
	assignments_free(&st);
	topology_free(n.kernel.topo);
	free(n.kernel.cpus);
}

TEST(status_big64)
{
	struct cpumgr_assignment a = as("0b1e5a44-5f3c-4c55-9a0e-000000000004",
					"a-rather-long-container-name",
					"2-5,34-37", NULL, NULL);
	struct node n;
	char *text;
	cJSON *j;

	/* 64 CPUs, 16 per NUMA node, SMT siblings 32 apart */
	fake_node(&n, &a, 64, 1, 16);
	for (unsigned int i = 0; i < 64; i++) {
		struct node_cpu *c = &n.kernel.cpus[i];
		unsigned int first = i % 32;

		c->numa = (int)(first / 8);
		c->package = c->numa / 2;
		c->core_cpu = (int)first;
	}
	text = render(&n);
	CHECK(fits(text, 80), "%s", text);
	CHECK(strstr(text, "socket 1\n  numa node 2"), "%s", text);
	CHECK(strstr(text, "  2 34 |  3 35 |"), "%s", text);
	CHECK(strstr(text, "a   ~9a0e-000000000004 ~ontainer-name "), "%s", text);
	free(text);
	j = ctl_status_json(&n);
	ASSERT_TRUE(j != NULL);
	EXPECT_EQ(64, cJSON_GetArraySize(cJSON_GetObjectItem(j, "cpus")));
	cJSON_Delete(j);
	free(n.kernel.cpus);
}

/*
 * Under journald (severity prefixes on) a line carries its severity and
 * no timestamp of its own: the journal stamps every line, and two
 * timestamps per line is one too many.  Elsewhere the daemon's lines
 * keep theirs.
 */
TEST(log_lines_under_the_journal)
{
	struct node n = { 0 };
	size_t len = 0;
	char *buf = NULL;

	n.log = open_memstream(&buf, &len);
	ASSERT_NE(NULL, n.log);
	node_log_stamp(true);
	node_log(&n, "one");
	node_log_severity(true);
	node_log_sev(&n, NODE_LOG_WARNING, "two");
	node_log_severity(false);
	node_log_stamp(false);
	fclose(n.log);
	ASSERT_NE(NULL, buf);
	EXPECT_NE(NULL, strstr(buf, "Z one\n")) TH_LOG("%s", buf);
	EXPECT_NE(NULL, strstr(buf, "\n<4>two\n")) TH_LOG("%s", buf);
	free(buf);
}

TEST_HARNESS_MAIN
