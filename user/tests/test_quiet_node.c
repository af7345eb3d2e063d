// SPDX-License-Identifier: GPL-2.0
/*
 * Quiet CPUs on a node (node_quiet.c), through whole cpumgrctl processes
 * (bench/cpumgrctl-standin-tree: the stand-in kernel, a cgroup tree of
 * directories with cpuset.cpus.exclusive, a Linux 6.7+ hierarchy) on an
 * 8-CPU machine (4 cores, 2 threads; CPUs 0-1 reserved), with procfs and
 * sysfs as fake trees (init --proc-mount, --sys-mount): interrupts, an
 * irqbalance process and its environment file, idle states and
 * governors on every CPU.
 *
 * A Guaranteed container of a pod with CRI-O's annotations gets, at its
 * attach, an isolated partition on exactly its exclusive CPUs (their
 * ancestors' cpuset.cpus.exclusive), no CFS quota (nor its pod), every
 * interrupt and the default affinity off its CPUs, irqbalance's banned
 * CPUs and a restart, its idle states and governor; the pod's 500m
 * sidecar a warning; all of it undone with the pod, everything as it
 * was.  A key naming a container without exclusive CPUs, and a governor
 * the CPUs lack, refuse the attach.  After a reboot (the kernel's values
 * back as they were, the state directory kept) a reconcile puts it all
 * back.
 */

#include "kselftest_harness.h"

#include "fake_cgroup.h"
#include "standin_node.h"
#include "test_util.h"

FIXTURE(node) {
	struct standin_node sn;
};

/* The stand-in cpumgrctl with args on the fixture's node: its status. */
#define run(self, ...) \
	(standin_runf(&(self)->sn, __VA_ARGS__), (self)->sn.status)

#define CPU_FILE(cpu, f)	"sys/devices/system/cpu/cpu" cpu "/" f

/* procfs and sysfs as the kernel would have them, before cpumgr. */
static void machine(const char *dir)
{
	char rel[128];

	fake_write(dir, "proc/irq/24/smp_affinity_list", "0-7\n");
	fake_write(dir, "proc/irq/25/smp_affinity_list", "4\n");
	fake_write(dir, "proc/irq/default_smp_affinity", "ff\n");
	for (int cpu = 0; cpu < 8; cpu++) {
		static const char *const lat[] = { "0", "2", "100" };

		for (int k = 0; k < 3; k++) {
			xsnprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
				  cpu, k);
			fake_write(dir, rel, lat[k]);
			xsnprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
				  cpu, k);
			fake_write(dir, rel, "0\n");
		}
		xsnprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			  cpu);
		fake_write(dir, rel, "schedutil\n");
		xsnprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_available_governors",
			  cpu);
		fake_write(dir, rel, "performance powersave schedutil\n");
	}
}

FIXTURE_SETUP(node)
{
	ASSERT_EQ(0, standin_tree_new(&self->sn));
	setenv("CPUMGR_STANDIN_TOPOLOGY", "1 1 4 2", 1);
	/* a hierarchy with cpuset.cpus.exclusive: remote partitions */
	fake_write(self->sn.dir, "cgroup/kubepods/cpuset.cpus.exclusive", "\n");
	fake_write(self->sn.dir, "cgroup/kubepods/cpuset.cpus.partition", "member\n");
	machine(self->sn.dir);
	fake_write(self->sn.dir, "proc/1/comm", "init\n");
	fake_write(self->sn.dir, "proc/812/comm", "irqbalance\n");
	fake_write(self->sn.dir, "irqbalance", "#IRQBALANCE_BANNED_CPULIST=\n");
	ASSERT_EQ(0, run(self, "init --cpu-manager-policy static --reserved-cpus 0-1 "
			 "--cgroup-mount '%s/cgroup' --cgroup-root '%s/cgroup/kubepods' "
			 "--proc-mount '%s/proc' --sys-mount '%s/sys' "
			 "--irqbalance-config '%s/irqbalance' "
			 "--irqbalance-restart 'echo restarted >> %s/restarts'",
			 self->sn.dir, self->sn.dir, self->sn.dir, self->sn.dir, self->sn.dir,
			 self->sn.dir)) TH_LOG("%s", self->sn.out);
}

FIXTURE_TEARDOWN(node)
{
	fake_tree_free(self->sn.dir);
}

/* A Guaranteed pod: "app" 2 CPUs, "side" 500m, with annotations. */
static void pod(FIXTURE_DATA(node) *self, const char *uid,
		const char *annotations, const char *app_cpu)
{
	char text[2048], name[64];

	xsnprintf(text, sizeof(text),
		  "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"%s\","
		  "\"annotations\":{%s}},\"spec\":{\"containers\":["
		  "{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"%s\",\"memory\":\"1Gi\"}}},"
		  "{\"name\":\"side\",\"resources\":{\"limits\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"}}}]}}",
		  uid, annotations, app_cpu);
	xsnprintf(name, sizeof(name), "%s.json", uid);
	fake_write(self->sn.dir, name, text);
}

static int attach(FIXTURE_DATA(node) *self, const char *uid, const char *c)
{
	char rel[128];

	/* the kernel's cgroups have the file from their creation */
	xsnprintf(rel, sizeof(rel), "cgroup/kubepods/pod%s/cpuset.cpus.exclusive",
		  uid);
	if (!fake_exists(self->sn.dir, rel))
		fake_write(self->sn.dir, rel, "\n");
	xsnprintf(rel, sizeof(rel), "cgroup/kubepods/pod%s/%s/cpuset.cpus.exclusive",
		  uid, c);
	if (!fake_exists(self->sn.dir, rel))
		fake_write(self->sn.dir, rel, "\n");
	return run(self, "attach --pod %s --container %s --cgroup '%s/cgroup/kubepods/pod%s/%s' "
		   "--pod-cgroup '%s/cgroup/kubepods/pod%s' --create", uid, c,
		   self->sn.dir, uid, c, self->sn.dir, uid);
}

/* The CPUs the kernel gave container c of pod uid, from status --json. */
static void cpus_of(FIXTURE_DATA(node) *self, const char *uid, const char *c,
		    char *out, size_t len)
{
	cJSON *j, *e;

	out[0] = '\0';
	standin_runf(&self->sn, "status --json");
	j = cJSON_Parse(self->sn.out);
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "containers"))
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(e, "podUID")) ?: "", uid) &&
		    !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(e, "container")) ?: "", c))
			snprintf(out, len, "%s",
				 cJSON_GetStringValue(cJSON_GetObjectItem(e, "cpus")) ?: "");
	cJSON_Delete(j);
}

#define V(rel)	fake_line(self->sn.dir, rel)

#define ALL_FIVE "\"cpu-load-balancing.crio.io\":\"disable\"," \
	"\"irq-load-balancing.crio.io\":\"disable\"," \
	"\"cpu-quota.crio.io\":\"disable\"," \
	"\"cpu-c-states.crio.io\":\"max_latency:10\"," \
	"\"cpu-freq-governor.crio.io\":\"performance\""

/* The app of pod u1 holds CPUs 2 and 6 (a whole core) and asks for all. */
static void applied(struct __test_metadata *_metadata,
		    FIXTURE_DATA(node) *self)
{
	EXPECT_STREQ("isolated", V("cgroup/kubepods/podu1/app/cpuset.cpus.partition"));
	EXPECT_STREQ("2,6", V("cgroup/kubepods/podu1/app/cpuset.cpus.exclusive"));
	EXPECT_STREQ("2,6", V("cgroup/kubepods/podu1/cpuset.cpus.exclusive"));
	EXPECT_STREQ("2,6", V("cgroup/kubepods/cpuset.cpus.exclusive"));
	EXPECT_STREQ("max 100000", V("cgroup/kubepods/podu1/app/cpu.max"));
	EXPECT_STREQ("max 100000", V("cgroup/kubepods/podu1/cpu.max"));
	EXPECT_STREQ("0-1,3-5,7", V("proc/irq/24/smp_affinity_list"));
	EXPECT_STREQ("4", V("proc/irq/25/smp_affinity_list"));
	EXPECT_STREQ("000000bb", V("proc/irq/default_smp_affinity"));
	EXPECT_STREQ("#IRQBALANCE_BANNED_CPULIST=\nIRQBALANCE_BANNED_CPULIST=2,6\n",
		     fake_read(self->sn.dir, "irqbalance"));
	EXPECT_STREQ("0", V(CPU_FILE("2", "cpuidle/state1/disable")));
	EXPECT_STREQ("1", V(CPU_FILE("2", "cpuidle/state2/disable")));
	EXPECT_STREQ("1", V(CPU_FILE("6", "cpuidle/state2/disable")));
	EXPECT_STREQ("0", V(CPU_FILE("3", "cpuidle/state2/disable")));
	EXPECT_STREQ("performance", V(CPU_FILE("2", "cpufreq/scaling_governor")));
	EXPECT_STREQ("performance", V(CPU_FILE("6", "cpufreq/scaling_governor")));
	EXPECT_STREQ("schedutil", V(CPU_FILE("3", "cpufreq/scaling_governor")));
}

TEST_F(node, a_guaranteed_container_isolated_and_all_of_it_undone)
{
	char cpus[64];

	pod(self, "u1", ALL_FIVE, "2");
	ASSERT_EQ(0, run(self, "admit '%s/u1.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, attach(self, "u1", "app")) TH_LOG("%s", self->sn.out);
	cpus_of(self, "u1", "app", cpus, sizeof(cpus));
	ASSERT_STREQ("2,6", cpus);
	applied(_metadata, self);
	EXPECT_STREQ("restarted\n", fake_read(self->sn.dir, "restarts"));
	EXPECT_TRUE(fake_exists(self->sn.dir, "state/quiet.json"));
	/* the sidecar on the shared pool: the pod's keys are a warning */
	ASSERT_EQ(0, attach(self, "u1", "side")) TH_LOG("%s", self->sn.out);
	EXPECT_NE(NULL, strstr(self->sn.out, "warning: pod u1 container side: the pod's cpu-load-balancing=disable,irq-load-balancing=disable,cpu-quota=disable,cpu-c-states=max_latency:10,cpu-freq-governor=performance not applied: it runs on the shared pool"))
		TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("member", V("cgroup/kubepods/podu1/side/cpuset.cpus.partition"));
	EXPECT_STREQ("", V("cgroup/kubepods/podu1/side/cpuset.cpus.exclusive"));
	/* a reconcile changes nothing more */
	ASSERT_EQ(0, run(self, "reconcile")) TH_LOG("%s", self->sn.out);
	applied(_metadata, self);
	EXPECT_STREQ("restarted\n", fake_read(self->sn.dir, "restarts"));
	/* the pod goes: everything as it was */
	ASSERT_EQ(0, run(self, "remove u1")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("member", V("cgroup/kubepods/podu1/app/cpuset.cpus.partition"));
	EXPECT_STREQ("", V("cgroup/kubepods/podu1/app/cpuset.cpus.exclusive"));
	EXPECT_STREQ("", V("cgroup/kubepods/podu1/cpuset.cpus.exclusive"));
	EXPECT_STREQ("", V("cgroup/kubepods/cpuset.cpus.exclusive"));
	EXPECT_STREQ("0-7", V("proc/irq/24/smp_affinity_list"));
	EXPECT_STREQ("4", V("proc/irq/25/smp_affinity_list"));
	EXPECT_STREQ("ff", V("proc/irq/default_smp_affinity"));
	EXPECT_STREQ("#IRQBALANCE_BANNED_CPULIST=\n", fake_read(self->sn.dir, "irqbalance"));
	EXPECT_STREQ("restarted\nrestarted\n", fake_read(self->sn.dir, "restarts"));
	EXPECT_STREQ("0", V(CPU_FILE("2", "cpuidle/state2/disable")));
	EXPECT_STREQ("schedutil", V(CPU_FILE("2", "cpufreq/scaling_governor")));
	EXPECT_STREQ("schedutil", V(CPU_FILE("6", "cpufreq/scaling_governor")));
	EXPECT_FALSE(fake_exists(self->sn.dir, "state/quiet.json"));
}

/* irqbalance stopped: its file says so for its next start, no restart. */
TEST_F(node, irqbalance_stopped_gets_its_file_and_no_restart)
{
	char comm[PATH_MAX + 32];

	xsnprintf(comm, sizeof(comm), "%s/proc/812/comm", self->sn.dir);
	ASSERT_EQ(0, unlink(comm));
	pod(self, "u1", "\"irq-load-balancing.crio.io\":\"disable\"", "2");
	ASSERT_EQ(0, run(self, "admit '%s/u1.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, attach(self, "u1", "app")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("#IRQBALANCE_BANNED_CPULIST=\nIRQBALANCE_BANNED_CPULIST=2,6\n",
		     fake_read(self->sn.dir, "irqbalance"));
	EXPECT_FALSE(fake_exists(self->sn.dir, "restarts"));
	ASSERT_EQ(0, run(self, "remove u1")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("#IRQBALANCE_BANNED_CPULIST=\n", fake_read(self->sn.dir, "irqbalance"));
	EXPECT_FALSE(fake_exists(self->sn.dir, "restarts"));
}

TEST_F(node, housekeeping_leaves_the_first_core_to_interrupts)
{
	char cpus[64];

	pod(self, "u1", "\"irq-load-balancing.cpumgr.io/container.app\":\"housekeeping\"",
	    "4");
	ASSERT_EQ(0, run(self, "admit '%s/u1.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, attach(self, "u1", "app")) TH_LOG("%s", self->sn.out);
	cpus_of(self, "u1", "app", cpus, sizeof(cpus));
	ASSERT_STREQ("2-3,6-7", cpus);
	/* CPU 2 and its sibling 6 keep interrupts; 3 and 7 not */
	EXPECT_STREQ("0-2,4-6", V("proc/irq/24/smp_affinity_list"));
	/* nothing else asked: no partition, the quota as the kubelet's */
	EXPECT_STREQ("member", V("cgroup/kubepods/podu1/app/cpuset.cpus.partition"));
	EXPECT_STREQ("", V("cgroup/kubepods/cpuset.cpus.exclusive"));
	EXPECT_STREQ("schedutil", V(CPU_FILE("3", "cpufreq/scaling_governor")));
}

TEST_F(node, what_cannot_be_had_is_refused_at_the_attach)
{
	/* a key naming a container on the shared pool */
	pod(self, "u2", "\"cpu-load-balancing.cpumgr.io/container.side\":\"disable\"",
	    "2");
	ASSERT_EQ(0, run(self, "admit '%s/u2.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	EXPECT_NE(0, attach(self, "u2", "side"));
	EXPECT_NE(NULL, strstr(self->sn.out, "pod u2 container side: cpu-load-balancing=disable: only a container with exclusive CPUs (a Guaranteed pod's, with an integer CPU request) can be isolated, and this one runs on the shared pool"))
		TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("", V("cgroup/kubepods/cpuset.cpus.exclusive"));
	ASSERT_EQ(0, run(self, "remove u2")) TH_LOG("%s", self->sn.out);
	/* a governor its CPUs do not offer */
	pod(self, "u3", "\"cpu-freq-governor.crio.io\":\"ondemand\"", "2");
	ASSERT_EQ(0, run(self, "admit '%s/u3.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	EXPECT_NE(0, attach(self, "u3", "app"));
	EXPECT_NE(NULL, strstr(self->sn.out, "pod u3 container app: cpu-freq-governor=ondemand: CPU 2 offers no such governor"))
		TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("schedutil", V(CPU_FILE("2", "cpufreq/scaling_governor")));
	EXPECT_FALSE(fake_exists(self->sn.dir, "state/quiet.json"));
}

TEST_F(node, a_reboot_then_a_reconcile_puts_it_all_back)
{
	pod(self, "u1", ALL_FIVE, "2");
	ASSERT_EQ(0, run(self, "admit '%s/u1.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, attach(self, "u1", "app")) TH_LOG("%s", self->sn.out);
	applied(_metadata, self);
	/* the kernel's values as a boot leaves them; the runtime made the cgroups again */
	machine(self->sn.dir);
	fake_write(self->sn.dir, "cgroup/kubepods/cpuset.cpus.exclusive", "\n");
	fake_write(self->sn.dir, "cgroup/kubepods/podu1/cpuset.cpus.exclusive", "\n");
	fake_write(self->sn.dir, "cgroup/kubepods/podu1/app/cpuset.cpus.exclusive", "\n");
	fake_write(self->sn.dir, "cgroup/kubepods/podu1/app/cpuset.cpus.partition", "member\n");
	fake_write(self->sn.dir, "cgroup/kubepods/podu1/app/cpu.max", "200000 100000\n");
	ASSERT_EQ(0, run(self, "reconcile")) TH_LOG("%s", self->sn.out);
	applied(_metadata, self);
	/* what is put back is what was there before cpumgr, not the reset */
	ASSERT_EQ(0, run(self, "remove u1")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("0-7", V("proc/irq/24/smp_affinity_list"));
	EXPECT_STREQ("schedutil", V(CPU_FILE("2", "cpufreq/scaling_governor")));
}

/*
 * Pod uid's app, the only exclusive container, holds cpus in the kernel
 * and as a partition, and its pod cgroup and the cgroup root name them
 * exclusive (the chain a remote partition needs).
 */
static void app_partition_is(struct __test_metadata *_metadata,
			     FIXTURE_DATA(node) *self, const char *uid,
			     const char *cpus)
{
	char got[64], rel[128];

	cpus_of(self, uid, "app", got, sizeof(got));
	EXPECT_STREQ(cpus, got);
	xsnprintf(rel, sizeof(rel), "cgroup/kubepods/pod%s/app/cpuset.cpus.partition", uid);
	EXPECT_STREQ("root", V(rel));
	xsnprintf(rel, sizeof(rel), "cgroup/kubepods/pod%s/app/cpuset.cpus.exclusive", uid);
	EXPECT_STREQ(cpus, V(rel));
	xsnprintf(rel, sizeof(rel), "cgroup/kubepods/pod%s/app/cpuset.cpus", uid);
	EXPECT_STREQ(cpus, V(rel));
	xsnprintf(rel, sizeof(rel), "cgroup/kubepods/pod%s/cpuset.cpus.exclusive", uid);
	EXPECT_STREQ(cpus, V(rel));
	EXPECT_STREQ(cpus, V("cgroup/kubepods/cpuset.cpus.exclusive"));
}

/* init's flags for the fake node, then MORE */
#define INIT_FAKE(self, more) \
	run(self, "init --cpu-manager-policy static --reserved-cpus 0-1 " \
	    "--cgroup-mount '%s/cgroup' --cgroup-root '%s/cgroup/kubepods' " \
	    "--proc-mount '%s/proc' --sys-mount '%s/sys' " more, \
	    (self)->sn.dir, (self)->sn.dir, (self)->sn.dir, (self)->sn.dir)

static bool config_moves(struct __test_metadata *_metadata,
			 FIXTURE_DATA(node) *self, const char *way)
{
	char want[64];
	const char *cfg = fake_read(self->sn.dir, "state/config.json");

	xsnprintf(want, sizeof(want), "\"poolMoves\":\t\"%s\"", way);
	if (strstr(cfg, want))
		return true;
	TH_LOG("%s", cfg);
	return false;
}

/*
 * init --pool-moves partitions: every exclusive container's cgroup a
 * ("root") partition on its CPUs, taken by the kernel from the others;
 * containers on the pool and pod cgroups hold no CPUs of their own
 * (they inherit), so that CPUs coming and going write none of them.
 */
TEST_F(node, the_pool_moved_by_partitions)
{
	char cpus[64], log[PATH_MAX];

	ASSERT_EQ(0, INIT_FAKE(self, "--pool-moves partitions")) TH_LOG("%s", self->sn.out);
	pod(self, "u1", "", "2");
	xsnprintf(log, sizeof(log), "%s/assigns", self->sn.dir);
	setenv("CPUMGR_STANDIN_ASSIGNS", log, 1);
	ASSERT_EQ(0, run(self, "admit '%s/u1.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	/* its partition pending from the admission to its attach */
	EXPECT_STREQ("u1 app 2,6 4\n", fake_read(self->sn.dir, "assigns"));
	ASSERT_EQ(0, attach(self, "u1", "side")) TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, attach(self, "u1", "app")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("u1 app 2,6 4\nu1 app 2,6 0\n",
		     fake_read(self->sn.dir, "assigns"));
	unsetenv("CPUMGR_STANDIN_ASSIGNS");
	cpus_of(self, "u1", "app", cpus, sizeof(cpus));
	ASSERT_STREQ("2,6", cpus);
	app_partition_is(_metadata, self, "u1", "2,6");
	/* the sidecar and the pod cgroup inherit: no CPUs of their own */
	EXPECT_STREQ("", V("cgroup/kubepods/podu1/side/cpuset.cpus"));
	EXPECT_FALSE(fake_exists(self->sn.dir, "cgroup/kubepods/podu1/cpuset.cpus"));
	/* a second pod moves the pool: the first pod's cgroups are not written */
	fake_write(self->sn.dir, "cgroup/kubepods/podu1/side/cpuset.cpus", "untouched\n");
	pod(self, "u2", "", "2");
	ASSERT_EQ(0, run(self, "admit '%s/u2.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, attach(self, "u2", "app")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("root", V("cgroup/kubepods/podu2/app/cpuset.cpus.partition"));
	EXPECT_STREQ("2-3,6-7", V("cgroup/kubepods/cpuset.cpus.exclusive"));
	EXPECT_STREQ("untouched", V("cgroup/kubepods/podu1/side/cpuset.cpus"));
	/* gone: its partition undone, its CPUs out of the ancestors */
	ASSERT_EQ(0, run(self, "remove u2")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("member", V("cgroup/kubepods/podu2/app/cpuset.cpus.partition"));
	EXPECT_STREQ("2,6", V("cgroup/kubepods/cpuset.cpus.exclusive"));
	EXPECT_STREQ("untouched", V("cgroup/kubepods/podu1/side/cpuset.cpus"));
	/*
	 * A pod cgroup the daemon gave the pool of its day follows the pool
	 * at a reconcile; one that names none still inherits it.
	 */
	fake_write(self->sn.dir, "cgroup/kubepods/besteffort/podx/cpuset.cpus", "0-1\n");
	ASSERT_EQ(0, run(self, "reconcile")) TH_LOG("%s", self->sn.out);
	EXPECT_STREQ("0-1,3-5,7", V("cgroup/kubepods/besteffort/podx/cpuset.cpus"));
	EXPECT_FALSE(fake_exists(self->sn.dir, "cgroup/kubepods/podu1/cpuset.cpus"));
	/* a resize grows the partition, and shrinks it back */
	ASSERT_EQ(0, run(self, "resize u1 app 4")) TH_LOG("%s", self->sn.out);
	app_partition_is(_metadata, self, "u1", "2-3,6-7");
	/* the CPUs given up leave the ancestors too */
	ASSERT_EQ(0, run(self, "resize u1 app 2")) TH_LOG("%s", self->sn.out);
	app_partition_is(_metadata, self, "u1", "2,6");
	/* not switched back under a recorded pod: refused, nothing changed */
	EXPECT_NE(0, INIT_FAKE(self, "--pool-moves writes"));
	EXPECT_NE(NULL, strstr(self->sn.out, "--pool-moves writes: 1 pods are recorded, their cgroups set up for --pool-moves partitions: remove them first (cpumgrctl remove)"))
		TH_LOG("%s", self->sn.out);
	EXPECT_TRUE(config_moves(_metadata, self, "partitions"));
	/* systemd sets its units' cpusets again: partitions refused there */
	EXPECT_NE(0, run(self, "init --cpu-manager-policy static --reserved-cpus 0-1 "
			 "--cgroup-mount '%s/cgroup' --cgroup-root '%s/cgroup/kubepods' "
			 "--cgroup-driver systemd --pool-moves partitions",
			 self->sn.dir, self->sn.dir));
	EXPECT_NE(NULL, strstr(self->sn.out, "--pool-moves partitions: not with the systemd cgroup driver"))
		TH_LOG("%s", self->sn.out);
	/* a kernel without cpuset.cpus.exclusive (6.1): refused at init */
	unlink(strcat(strcpy(self->sn.out, self->sn.dir), "/cgroup/kubepods/cpuset.cpus.exclusive"));
	EXPECT_NE(0, run(self, "init --cpu-manager-policy static --reserved-cpus 0-1 "
			 "--cgroup-mount '%s/cgroup' --cgroup-root '%s/cgroup/kubepods' "
			 "--pool-moves partitions --force", self->sn.dir, self->sn.dir));
	EXPECT_NE(NULL, strstr(self->sn.out, "--pool-moves partitions: this kernel has no cpuset.cpus.exclusive"))
		TH_LOG("%s", self->sn.out);
}

/*
 * init --pool-moves auto: partitions where the kernel has remote ones
 * and the driver is cgroupfs, writes elsewhere; recorded pods keep the
 * way their cgroups were set up for.  What it chose is said and
 * recorded, and not said when the init is refused.
 */
TEST_F(node, pool_moves_auto_picks_by_node)
{
	ASSERT_EQ(0, INIT_FAKE(self, "--pool-moves auto")) TH_LOG("%s", self->sn.out);
	EXPECT_NE(NULL, strstr(self->sn.out, "--pool-moves auto: partitions (remote partitions here"))
		TH_LOG("%s", self->sn.out);
	EXPECT_TRUE(config_moves(_metadata, self, "partitions"));
	/* a pod recorded: auto keeps the way it was set up for */
	pod(self, "u1", "", "2");
	ASSERT_EQ(0, run(self, "admit '%s/u1.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, INIT_FAKE(self, "--pool-moves auto")) TH_LOG("%s", self->sn.out);
	EXPECT_NE(NULL, strstr(self->sn.out, "--pool-moves auto: partitions (the recorded pods' cgroups are set up for it)"))
		TH_LOG("%s", self->sn.out);
	/* refused (the pod holds CPUs the new reserved set takes): no choice said */
	EXPECT_NE(0, run(self, "init --cpu-manager-policy static --reserved-cpus 0-2 "
			 "--cgroup-mount '%s/cgroup' --cgroup-root '%s/cgroup/kubepods' "
			 "--pool-moves auto", self->sn.dir, self->sn.dir));
	EXPECT_EQ(NULL, strstr(self->sn.out, "--pool-moves auto")) TH_LOG("%s", self->sn.out);
	EXPECT_NE(NULL, strstr(self->sn.out, "cannot change while assignments exist"))
		TH_LOG("%s", self->sn.out);
	ASSERT_EQ(0, run(self, "remove u1")) TH_LOG("%s", self->sn.out);
	/* the systemd driver: writes */
	ASSERT_EQ(0, run(self, "init --cpu-manager-policy static --reserved-cpus 0-1 "
			 "--cgroup-mount '%s/cgroup' --cgroup-root '%s/cgroup/kubepods' "
			 "--cgroup-driver systemd --pool-moves auto",
			 self->sn.dir, self->sn.dir)) TH_LOG("%s", self->sn.out);
	EXPECT_NE(NULL, strstr(self->sn.out, "--pool-moves auto: writes (the systemd cgroup driver"))
		TH_LOG("%s", self->sn.out);
	EXPECT_TRUE(config_moves(_metadata, self, "writes"));
	/* no cpuset.cpus.exclusive (6.1): writes */
	unlink(strcat(strcpy(self->sn.out, self->sn.dir), "/cgroup/kubepods/cpuset.cpus.exclusive"));
	ASSERT_EQ(0, INIT_FAKE(self, "--pool-moves auto")) TH_LOG("%s", self->sn.out);
	EXPECT_NE(NULL, strstr(self->sn.out, "--pool-moves auto: writes (no cpuset.cpus.exclusive here"))
		TH_LOG("%s", self->sn.out);
	EXPECT_TRUE(config_moves(_metadata, self, "writes"));
	/* a way that is not one: refused */
	EXPECT_NE(0, INIT_FAKE(self, "--pool-moves sometimes"));
	EXPECT_TRUE(config_moves(_metadata, self, "writes"));
}

/* init --dry-run on the fake node's cgroups, with root below them, then MORE */
#define DRY(self, root, more) \
	run(self, "init --dry-run --cpu-manager-policy static --reserved-cpus 0-1 " \
	    "--cgroup-mount '%s/cgroup' --cgroup-root '%s/cgroup/" root "' " more, \
	    (self)->sn.dir, (self)->sn.dir)

#define OUT_HAS(self, text) \
	EXPECT_NE(NULL, strstr((self)->sn.out, text)) TH_LOG("%s", (self)->sn.out)

/*
 * init --dry-run --pool-moves: judged on the cgroups as init judges
 * them (a root still to be made is asked of the hierarchy's root), and
 * nothing recorded.
 */
TEST_F(node, dry_run_says_what_pool_moves_would_do)
{
	ASSERT_EQ(0, DRY(self, "kubepods", "--pool-moves auto")) TH_LOG("%s", self->sn.out);
	OUT_HAS(self, "dry run: --pool-moves auto chooses partitions: remote partitions here");
	EXPECT_TRUE(config_moves(_metadata, self, "writes"));
	ASSERT_EQ(0, DRY(self, "kubepods", "--pool-moves partitions")) TH_LOG("%s", self->sn.out);
	OUT_HAS(self, "dry run: --pool-moves partitions: remote partitions here");
	/* what bars partitions: auto says it, partitions is refused with it */
	ASSERT_EQ(0, DRY(self, "kubepods", "--pool-moves auto --cgroup-driver systemd"));
	OUT_HAS(self, "auto chooses writes: the systemd cgroup driver");
	EXPECT_EQ(1, DRY(self, "kubepods", "--pool-moves partitions --cgroup-driver systemd"));
	OUT_HAS(self, "--pool-moves partitions: not with the systemd cgroup driver");
	ASSERT_EQ(0, DRY(self, "kubepods", "--pool-moves auto --system-partition 0-1 "
			 "--cpu-manager-policy-options strict-cpu-reservation=true"));
	OUT_HAS(self, "auto chooses writes: the system partition holds reserved CPUs");
	EXPECT_EQ(2, DRY(self, "kubepods", "--pool-moves auto --system-partition 0-x"));
	OUT_HAS(self, "--system-partition 0-x: invalid cpulist");
	/* a root init would make: the hierarchy's root tells, not yet here */
	ASSERT_EQ(0, DRY(self, "newroot/pods", "--pool-moves auto"));
	OUT_HAS(self, "auto chooses writes: no cpuset.cpus.exclusive here");
	fake_write(self->sn.dir, "cgroup/cpuset.cpus.isolated", "\n");
	ASSERT_EQ(0, DRY(self, "newroot/pods", "--pool-moves auto"));
	OUT_HAS(self, "auto chooses partitions");
	EXPECT_FALSE(fake_exists(self->sn.dir, "cgroup/newroot"));
	/* an existing root without the file (6.1): no remote partitions */
	unlink(strcat(strcpy(self->sn.out, self->sn.dir), "/cgroup/kubepods/cpuset.cpus.exclusive"));
	EXPECT_EQ(1, DRY(self, "kubepods", "--pool-moves partitions"));
	OUT_HAS(self, "--pool-moves partitions: this kernel has no cpuset.cpus.exclusive in");
	EXPECT_TRUE(config_moves(_metadata, self, "writes"));
	/* no --pool-moves: not a word of it */
	ASSERT_EQ(0, DRY(self, "kubepods", ""));
	EXPECT_EQ(NULL, strstr(self->sn.out, "--pool-moves")) TH_LOG("%s", self->sn.out);
}

/*
 * A container admitted with its partition pending loses a CPU to a
 * release-mode offline before its attach: the partition made, the flag
 * stays, since an ASSIGN would clear the degraded mark its top-up needs.
 */
TEST_F(node, a_degraded_pending_container_keeps_both_flags)
{
	char log[PATH_MAX], *kernel, *at;

	ASSERT_EQ(0, INIT_FAKE(self, "--pool-moves partitions")) TH_LOG("%s", self->sn.out);
	pod(self, "u1", "", "2");
	ASSERT_EQ(0, run(self, "admit '%s/u1.json'", self->sn.dir)) TH_LOG("%s", self->sn.out);
	/* the stand-in's table: CPU 6 gone, degraded (2) beside pending (4) */
	kernel = strdup(fake_read(self->sn.dir, "kernel"));
	ASSERT_NE(NULL, kernel);
	at = strstr(kernel, " app 2,6 4");
	ASSERT_NE(NULL, at) TH_LOG("%s", kernel);
	memcpy(at, " app 2   6", 10);
	fake_write(self->sn.dir, "kernel", kernel);
	free(kernel);
	xsnprintf(log, sizeof(log), "%s/assigns", self->sn.dir);
	setenv("CPUMGR_STANDIN_ASSIGNS", log, 1);
	ASSERT_EQ(0, attach(self, "u1", "app")) TH_LOG("%s", self->sn.out);
	unsetenv("CPUMGR_STANDIN_ASSIGNS");
	app_partition_is(_metadata, self, "u1", "2");
	EXPECT_FALSE(fake_exists(self->sn.dir, "assigns"))
		TH_LOG("%s", fake_read(self->sn.dir, "assigns"));
}

TEST_HARNESS_MAIN
