// SPDX-License-Identifier: GPL-2.0
/*
 * A node whose cgroups systemd owns (the kubelet's systemd driver):
 * bench/cpumgrctl-standin-tree (the kernel's table, a directory for the
 * cgroup v2 hierarchy, systemd's units as files of AllowedCPUs: see
 * bench/cgroup_standin.c) on 16 CPUs, CPUs 0-1 reserved, the managed
 * root kubepods.slice with its QoS slices.  Every cpuset the node
 * writes to a slice or scope systemd has is that unit's AllowedCPUs
 * too, so that systemd writes the same again when it realizes the unit
 * (attach, reconcile, a pod's removal moving the pool, resize); scopes
 * systemd has not started yet, and every cgroup of a node with the
 * cgroupfs driver, get the file alone.  init records the driver: given,
 * or systemd's when the root is a slice.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "standin_node.h"
#include "test_util.h"

#define ROOT	"cg/kubepods.slice"
#define BU_QOS	ROOT "/kubepods-burstable.slice"
#define G_POD	ROOT "/kubepods-podg1.slice"
#define B_POD	BU_QOS "/kubepods-burstable-podb1.slice"
#define APP	G_POD "/cri-containerd-app.scope"
#define WEB	B_POD "/cri-containerd-web.scope"

#define rig standin_node
#define run standin_runf

/* systemd starts a unit (the kubelet a slice, runc a scope) */
static void start_unit(struct rig *r, const char *cgroup)
{
	char rel[PATH_MAX];

	fake_mkdir(r->dir, cgroup);
	xsnprintf(rel, sizeof(rel), "units/%s", strrchr(cgroup, '/') + 1);
	fake_write(r->dir, rel, "\n");
}

static bool same(const char *a, const char *b)
{
	struct cpuset x, y;

	return !cpuset_parse(&x, a, NULL) && !cpuset_parse(&y, b, NULL) &&
	       cpuset_equal(&x, &y);
}

/* The cgroup's cpuset.cpus, and its unit's AllowedCPUs ("-": no unit) */
static char *both(struct rig *r, const char *cgroup)
{
	static char out[2][512];
	static int which;
	char rel[PATH_MAX], file[256], *unit;

	which ^= 1;
	xsnprintf(rel, sizeof(rel), "%s/cpuset.cpus", cgroup);
	snprintf(file, sizeof(file), "%.255s", fake_read(r->dir, rel));
	file[strcspn(file, "\n")] = '\0';
	xsnprintf(rel, sizeof(rel), "%s/units/%s", r->dir, strrchr(cgroup, '/') + 1);
	unit = access(rel, F_OK) ? strdup("-") : standin_file(r, rel + strlen(r->dir) + 1);
	unit[strcspn(unit, "\n")] = '\0';
	snprintf(out[which], sizeof(out[which]), "%s|%s", file, unit);
	free(unit);
	return out[which];
}

/* cgroup's file and unit both hold list */
static bool holds(struct rig *r, const char *cgroup, const char *list)
{
	char *b = both(r, cgroup), *bar = strchr(b, '|');

	*bar = '\0';
	return same(b, list) && same(bar + 1, list);
}

FIXTURE(node) {
	struct rig r;
};

FIXTURE_SETUP(node)
{
	char path[PATH_MAX + 16];
	struct rig *r = &self->r;

	ASSERT_EQ(0, standin_tree_new(r));
	fake_mkdir(r->dir, "units");
	xsnprintf(path, sizeof(path), "%s/units", r->dir);
	setenv("CPUMGR_STANDIN_UNITS", path, 1);
	/* the kubelet's slices, started through systemd */
	start_unit(r, ROOT);
	start_unit(r, BU_QOS);
	start_unit(r, ROOT "/kubepods-besteffort.slice");
	standin_pod_files(r);
}

FIXTURE_TEARDOWN(node)
{
	fake_tree_free(self->r.dir);
}

/*
 * Admit both pods, the kubelet's pod slices, attach their containers:
 * 0, or the failing command's status (its output in r->out).
 */
static int pods_up(struct rig *r)
{
	static const char *const cmds[] = {
		"admit g.json", "admit b.json",
		"attach --pod g1 --container app --cgroup %1$s/" APP
		" --pod-cgroup %1$s/" G_POD " --create",
		"attach --pod b1 --container web --cgroup %1$s/" WEB
		" --pod-cgroup %1$s/" B_POD " --create",
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(*cmds); i++) {
		if (i == 2) {
			start_unit(r, G_POD);
			start_unit(r, B_POD);
		}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		run(r, cmds[i], r->dir);
#pragma GCC diagnostic pop
		if (r->status)
			return r->status;
	}
	return 0;
}

TEST_F(node, slices_and_scopes_follow_through_systemd)
{
	struct rig *r = &self->r;
	char *config;

	run(r, "init --cpu-manager-policy static --reserved-cpus 0-1 --cgroup-mount %s/cg --cgroup-root %s/" ROOT,
	    r->dir, r->dir);
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	CHECK(strstr(r->out, "cgroup-driver systemd") != NULL, "%s", r->out);
	config = standin_file(r, "state/config.json");
	CHECK(strstr(config, "\"cgroupDriver\":\t\"systemd\"") != NULL, "%s", config);
	free(config);

	ASSERT_EQ(0, pods_up(r)) TH_LOG("%s", r->out);
	/* the narrowed slices: their files and AllowedCPUs */
	/* the pool, and the pod's own for its containers to inherit */
	EXPECT_TRUE(holds(r, G_POD, "0-15")) TH_LOG("%s", both(r, G_POD));
	EXPECT_TRUE(holds(r, BU_QOS, "0-1,3-9,11-15")) TH_LOG("%s", both(r, BU_QOS));
	EXPECT_TRUE(holds(r, B_POD, "0-1,3-9,11-15")) TH_LOG("%s", both(r, B_POD));
	/* the root is not narrowed; its unit left alone */
	EXPECT_STREQ("<missing>|", both(r, ROOT));
	/* scopes runc has not started yet: the file alone, no error */
	EXPECT_STREQ("2,10|-", both(r, APP));
	EXPECT_STREQ("0-1,3-9,11-15|-", both(r, WEB));

	/* runc starts the scopes (its AllowedCPUs: none here); reconcile */
	start_unit(r, APP);
	start_unit(r, WEB);
	run(r, "reconcile");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	EXPECT_TRUE(holds(r, APP, "2,10")) TH_LOG("%s", both(r, APP));
	EXPECT_TRUE(holds(r, WEB, "0-1,3-9,11-15")) TH_LOG("%s", both(r, WEB));

	/* systemd emptied a slice (a unit below started): reconcile mends */
	fake_write(r->dir, B_POD "/cpuset.cpus", "\n");
	fake_write(r->dir, "units/kubepods-burstable-podb1.slice", "\n");
	run(r, "reconcile");
	EXPECT_TRUE(holds(r, B_POD, "0-1,3-9,11-15")) TH_LOG("%s", both(r, B_POD));

	/*
	 * The Guaranteed pod goes: the pool grows, the slices follow, and
	 * the shared container on the next reconcile (the daemon's round)
	 */
	run(r, "remove g1");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	EXPECT_TRUE(holds(r, BU_QOS, "0-15")) TH_LOG("%s", both(r, BU_QOS));
	EXPECT_TRUE(holds(r, B_POD, "0-15")) TH_LOG("%s", both(r, B_POD));
	run(r, "reconcile");
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	EXPECT_TRUE(holds(r, WEB, "0-15")) TH_LOG("%s", both(r, WEB));
}

/* The cgroupfs driver: the same pods, no unit is ever asked. */
TEST_F(node, cgroupfs_driver_writes_files_alone)
{
	struct rig *r = &self->r;

	run(r, "init --cpu-manager-policy static --reserved-cpus 0-1 --cgroup-mount %s/cg --cgroup-root %s/" ROOT " --cgroup-driver cgroupfs",
	    r->dir, r->dir);
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	CHECK(strstr(r->out, "cgroup-driver cgroupfs") != NULL, "%s", r->out);
	ASSERT_EQ(0, pods_up(r)) TH_LOG("%s", r->out);
	start_unit(r, APP);
	run(r, "reconcile");
	EXPECT_STREQ("0-15|", both(r, G_POD));
	EXPECT_STREQ("0-1,3-9,11-15|", both(r, BU_QOS));
	EXPECT_STREQ("2,10|", both(r, APP));
}

/* A bad driver is refused, with nothing set up. */
TEST_F(node, bad_driver_refused)
{
	struct rig *r = &self->r;

	run(r, "init --cpu-manager-policy static --reserved-cpus 0-1 --cgroup-mount %s/cg --cgroup-root %s/" ROOT " --cgroup-driver systemd-ish",
	    r->dir, r->dir);
	EXPECT_NE(0, r->status);
	fake_write(r->dir, "kc.yaml",
		   "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
		   "cpuManagerPolicy: static\nreservedSystemCPUs: 0-1\ncgroupDriver: sytemd\n");
	run(r, "init --config kc.yaml --cgroup-mount %s/cg --cgroup-root %s/" ROOT,
	    r->dir, r->dir);
	EXPECT_NE(0, r->status);
	CHECK(strstr(r->out, "invalid configuration: cgroupDriver (--cgroup-driver) \"sytemd\" must be \"cgroupfs\" or \"systemd\"") != NULL,
	      "%s", r->out);
	EXPECT_FALSE(fake_exists(r->dir, "state/config.json"));
	/* the file's driver, the flag over it */
	fake_write(r->dir, "kc.yaml",
		   "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
		   "cpuManagerPolicy: static\nreservedSystemCPUs: 0-1\ncgroupDriver: cgroupfs\n");
	run(r, "init --config kc.yaml --cgroup-mount %s/cg --cgroup-root %s/" ROOT,
	    r->dir, r->dir);
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	CHECK(strstr(r->out, "cgroup-driver cgroupfs") != NULL, "%s", r->out);
	run(r, "init --config kc.yaml --cgroup-driver systemd --cgroup-mount %s/cg --cgroup-root %s/" ROOT,
	    r->dir, r->dir);
	ASSERT_EQ(0, r->status) TH_LOG("%s", r->out);
	CHECK(strstr(r->out, "cgroup-driver systemd") != NULL, "%s", r->out);
}

TEST_HARNESS_MAIN
