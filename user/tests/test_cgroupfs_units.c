// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroups systemd owns (cgroupfs_units.h): AllowedCPUs as bytes, the
 * unit of a cgroup in systemd's layout, and which way a cpuset goes: on
 * a fake v2 tree with stand-in units, cgroupfs_set_cpus() and
 * cgroupfs_ensure_cpus() write the file, then a unit's cgroup gets the
 * same CPUs as its AllowedCPUs; no unit where systemd owns nothing, the
 * cgroup is no unit's, systemd does not know the unit, or the kernel
 * refused the file.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "cgroupfs.h"
#include "fake_cgroup.h"

static struct cpuset cs(const char *list)
{
	struct cpuset s;

	if (cpuset_parse(&s, list, NULL))
		abort();
	return s;
}

/* The bytes of list as "01 ff" */
static const char *hex_of(const char *list)
{
	static char out[3 * 1024 + 1];
	uint8_t b[CPUSET_MAX_CPUS / 8];
	struct cpuset s = cs(list);
	size_t n = cgroupfs_allowed_cpus_encode(&s, b, sizeof(b));

	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		sprintf(out + strlen(out), "%s%02x", i ? " " : "", b[i]);
	return out;
}

/* The cases of runc's rangeToBits() test, in systemd's byte order. */
TEST(allowed_cpus_bytes)
{
	static const struct { const char *list, *hex; } t[] = {
		{ "", "" },
		{ "0", "01" },
		{ "1", "02" },
		{ "0-1", "03" },
		{ "0-3", "0f" },
		{ "4-7", "f0" },
		{ "0-7", "ff" },
		{ "0-15", "ff ff" },
		{ "16", "00 00 01" },
		{ "6-9", "c0 03" },
		{ "0-3,32-33", "0f 00 00 00 03" },
		{ "1,3,5-7", "ea" },
		{ "1,128-130", "02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 07" },
	};
	uint8_t b[CPUSET_MAX_CPUS / 8], small[2];
	struct cm_error err = { 0 };
	struct cpuset s, back;
	size_t n;

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		EXPECT_STREQ(t[i].hex, hex_of(t[i].list)) TH_LOG("%s", t[i].list);
		s = cs(t[i].list);
		n = cgroupfs_allowed_cpus_encode(&s, b, sizeof(b));
		ASSERT_EQ(0, cgroupfs_allowed_cpus_decode(b, n, &back, &err));
		EXPECT_TRUE(cpuset_equal(&s, &back)) TH_LOG("%s", t[i].list);
	}
	/* the last CPU there is: the whole buffer, its top bit */
	s = cs("8191");
	EXPECT_EQ(sizeof(b), cgroupfs_allowed_cpus_encode(&s, b, sizeof(b)));
	EXPECT_EQ(0x80, b[sizeof(b) - 1]);
	/* what does not fit is left out, never written past len */
	s = cs("0,9,30");
	EXPECT_EQ(2, cgroupfs_allowed_cpus_encode(&s, small, sizeof(small)));
	EXPECT_EQ(0x01, small[0]);
	EXPECT_EQ(0x02, small[1]);
	/* trailing zero bytes, as systemd sends an array it allocated */
	memset(b, 0, 16);
	b[0] = 0x0c;
	ASSERT_EQ(0, cgroupfs_allowed_cpus_decode(b, 16, &back, &err));
	s = cs("2-3");
	EXPECT_TRUE(cpuset_equal(&s, &back));
	/* a CPU this build cannot hold */
	{
		uint8_t big[CPUSET_MAX_CPUS / 8 + 1] = { 0 };

		big[sizeof(big) - 1] = 1;
		EXPECT_EQ(-ERANGE, cgroupfs_allowed_cpus_decode(big, sizeof(big),
								&back, &err));
		EXPECT_STREQ("AllowedCPUs: CPU 8192: at most 8192 CPUs",
			     cm_error_msg(&err));
		cm_error_clear(&err);
	}
}

TEST(unit_of_a_cgroup)
{
	static const struct { const char *name, *unit; } t[] = {
		/* the kubelet's systemd driver */
		{ "kubepods.slice", "kubepods.slice" },
		{ "/kubepods.slice", "kubepods.slice" },
		{ "kubepods.slice/kubepods-burstable.slice",
		  "kubepods-burstable.slice" },
		{ "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1a_2b.slice",
		  "kubepods-burstable-pod1a_2b.slice" },
		{ "kubepods.slice/kubepods-pod1a_2b.slice",
		  "kubepods-pod1a_2b.slice" },
		{ "kubepods.slice/kubepods-pod1a_2b.slice/cri-containerd-0123abc.scope",
		  "cri-containerd-0123abc.scope" },
		{ "system.slice/containerd.scope", "containerd.scope" },
		{ "init.scope", "init.scope" },
		/* not systemd's layout: the files alone */
		{ "", NULL },
		{ "kubepods", NULL },
		{ "kubepods/burstable/pod1", NULL },
		{ "kubepods/pod1/cri-containerd-0123abc.scope", NULL },
		{ "kubepods.slice/other.slice", NULL },
		{ "kubepods.slice/kubepods-burstable-pod1.slice", NULL },
		{ "kubepods.slice/kubepods-.slice", NULL },
		{ "kubepods-burstable.slice", NULL },
		{ "kubepods.slice/x.scope/y.scope", NULL },
		{ "kubepods.slice/x.scope/kubepods-y.slice", NULL },
		{ "kubepods.slice/kubepods-pod1.slice/c1", NULL },
		{ "kubepods.slice/kubepods-pod1.slice/c 1.scope", NULL },
		{ ".slice", NULL },
		{ "a.service", NULL },
	};
	char unit[CGROUPFS_UNIT_MAX];

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		bool is = cgroupfs_unit_of(t[i].name, unit, sizeof(unit));

		EXPECT_EQ(t[i].unit != NULL, is) TH_LOG("%s", t[i].name);
		if (is && t[i].unit)
			EXPECT_STREQ(t[i].unit, unit);
	}
	/* no room for the name: none */
	EXPECT_FALSE(cgroupfs_unit_of("kubepods.slice", unit, 8));
}

/*
 * Stand-in units: what systemd would hold and what it was asked, and
 * the cgroup file's text when a unit's AllowedCPUs were set (the file
 * goes first).
 */
struct fake_units {
	struct cgroupfs_units u;
	const char *dir;		/* the fake tree */
	char unit[8][CGROUPFS_UNIT_MAX];
	struct cpuset cpus[8];
	unsigned int nr, gets, sets;
	int fail;			/* every call's answer when set */
	char file_then[64];		/* cgroup file at the last set */
	char cgroup_of_last[PATH_MAX];	/* where its file is, for that */
};

static int fake_find(const struct fake_units *f, const char *unit)
{
	for (unsigned int i = 0; i < f->nr; i++)
		if (!strcmp(f->unit[i], unit))
			return (int)i;
	return -1;
}

static int fake_get(const struct cgroupfs_units *u, const char *unit,
		    struct cpuset *out, struct cm_error *err)
{
	struct fake_units *f = u->ctx;
	int i = fake_find(f, unit);

	f->gets++;
	if (f->fail)
		return cm_errorf(err, "stand-in: %s", strerror(-f->fail)), f->fail;
	if (i < 0)
		return -ENOENT;
	*out = f->cpus[i];
	return 0;
}

static int fake_set(const struct cgroupfs_units *u, const char *unit,
		    const struct cpuset *cpus, struct cm_error *err)
{
	struct fake_units *f = u->ctx;
	int i = fake_find(f, unit);
	char rel[PATH_MAX + 16];

	f->sets++;
	if (f->fail)
		return cm_errorf(err, "stand-in: %s", strerror(-f->fail)), f->fail;
	if (i < 0)
		return -ENOENT;
	f->cpus[i] = *cpus;
	xsnprintf(rel, sizeof(rel), "%s/cpuset.cpus", f->cgroup_of_last);
	snprintf(f->file_then, sizeof(f->file_then), "%.63s", fake_read(f->dir, rel));
	return 0;
}

static void fake_unit(struct fake_units *f, const char *unit, const char *cpus)
{
	strcpy(f->unit[f->nr], unit);
	f->cpus[f->nr++] = cs(cpus);
}

static bool unit_has(const struct fake_units *f, const char *unit,
		     const char *cpus)
{
	int i = fake_find(f, unit);
	struct cpuset want = cs(cpus);

	return i >= 0 && cpuset_equal(&f->cpus[i], &want);
}

#define BU_POD	"kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podb1.slice"
#define BU_QOS	"kubepods.slice/kubepods-burstable.slice"

FIXTURE(units) {
	char dir[PATH_MAX];
	struct cgroupfs cg;
	struct cm_error err;
	struct fake_units f;
};

FIXTURE_SETUP(units)
{
	memset(&self->err, 0, sizeof(self->err));
	memset(&self->f, 0, sizeof(self->f));
	fake_tree_new(self->dir, sizeof(self->dir));
	fake_mkdir(self->dir, BU_POD "/cri-containerd-c1.scope");
	fake_mkdir(self->dir, "kubepods/burstable/podb1");
	ASSERT_EQ(0, fake_cgroupfs_init(&self->cg, self->dir, 2, &self->err));
	self->f.u = (struct cgroupfs_units){ fake_get, fake_set, &self->f };
	self->f.dir = self->dir;
	strcpy(self->f.cgroup_of_last, BU_POD);
	fake_unit(&self->f, "kubepods-burstable.slice", "");
	fake_unit(&self->f, "kubepods-burstable-podb1.slice", "");
	self->cg.units = &self->f.u;
}

FIXTURE_TEARDOWN(units)
{
	cm_error_clear(&self->err);
	fake_tree_free(self->dir);
}

/* A pod slice: its file, then its AllowedCPUs, both the same CPUs. */
TEST_F(units, a_slice_gets_both)
{
	struct cpuset s = cs("1,4-7");

	ASSERT_EQ(0, cgroupfs_set_cpus(&self->cg, BU_POD, &s, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_STREQ("1,4-7", fake_read(self->dir, BU_POD "/cpuset.cpus"));
	EXPECT_TRUE(unit_has(&self->f, "kubepods-burstable-podb1.slice", "1,4-7"));
	/* the file was written when systemd was told */
	EXPECT_STREQ("1,4-7", self->f.file_then);
	EXPECT_EQ(1, self->f.sets);
}

/* The kernel refuses the file: systemd is told nothing. */
TEST_F(units, a_refused_write_sets_no_unit)
{
	char target[PATH_MAX];
	struct cpuset s = cs("2-3");

	xsnprintf(target, sizeof(target), "%s/%s/cpuset.cpus", self->dir, BU_POD);
	ASSERT_EQ(0, symlink("/dev/full", target));
	EXPECT_EQ(-ENOSPC, cgroupfs_set_cpus(&self->cg, BU_POD, &s, &self->err));
	EXPECT_EQ(0, self->f.sets);
	EXPECT_TRUE(unit_has(&self->f, "kubepods-burstable-podb1.slice", ""));
}

/* No units, a cgroup no unit's, a unit systemd has not, v1: the file. */
TEST_F(units, the_file_alone)
{
	struct cpuset s = cs("1-3");

	/* the cgroupfs driver's layout */
	ASSERT_EQ(0, cgroupfs_set_cpus(&self->cg, "kubepods/burstable/podb1",
				       &s, &self->err));
	EXPECT_STREQ("1-3", fake_read(self->dir, "kubepods/burstable/podb1/cpuset.cpus"));
	EXPECT_EQ(0, self->f.sets + self->f.gets);
	/* a scope systemd does not know (yet): no error */
	ASSERT_EQ(0, cgroupfs_set_cpus(&self->cg, BU_POD "/cri-containerd-c1.scope",
				       &s, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_STREQ("1-3", fake_read(self->dir, BU_POD "/cri-containerd-c1.scope/cpuset.cpus"));
	EXPECT_EQ(1, self->f.sets);
	EXPECT_STREQ("", cm_error_msg(&self->err));
	/* where systemd owns nothing */
	self->cg.units = NULL;
	ASSERT_EQ(0, cgroupfs_set_cpus(&self->cg, BU_POD, &s, &self->err));
	EXPECT_STREQ("1-3", fake_read(self->dir, BU_POD "/cpuset.cpus"));
	EXPECT_EQ(1, self->f.sets);
	/* nor on v1, which systemd 256 and later do not run */
	self->cg.units = &self->f.u;
	self->cg.version = 1;
	fake_write(self->dir, BU_POD "/cpuset.mems", "0\n");
	s = cs("4");
	ASSERT_EQ(0, cgroupfs_set_cpus(&self->cg, BU_POD, &s, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_EQ(1, self->f.sets);
}

/* systemd failing is an error that names the cgroup and the unit. */
TEST_F(units, systemd_failing_is_an_error)
{
	struct cpuset s = cs("1");
	bool changed;

	self->f.fail = -ECONNREFUSED;
	EXPECT_EQ(-ECONNREFUSED, cgroupfs_set_cpus(&self->cg, BU_QOS, &s, &self->err));
	EXPECT_STREQ("cgroup " BU_QOS ": cpuset.cpus written, but not the AllowedCPUs of kubepods-burstable.slice: stand-in: Connection refused",
		     cm_error_msg(&self->err));
	EXPECT_STREQ("1", fake_read(self->dir, BU_QOS "/cpuset.cpus"));
	cm_error_clear(&self->err);
	EXPECT_EQ(-ECONNREFUSED, cgroupfs_ensure_cpus(&self->cg, BU_QOS, &s,
						      &changed, &self->err));
}

/* ensure: each of the two only where it differs. */
TEST_F(units, ensure_writes_what_differs)
{
	struct cpuset s = cs("1,4-7");
	bool changed;

	ASSERT_EQ(0, cgroupfs_ensure_cpus(&self->cg, BU_POD, &s, &changed, &self->err));
	EXPECT_TRUE(changed);
	EXPECT_EQ(1, self->f.sets);
	/* both hold it: nothing is written */
	ASSERT_EQ(0, cgroupfs_ensure_cpus(&self->cg, BU_POD, &s, &changed, &self->err));
	EXPECT_FALSE(changed);
	EXPECT_EQ(1, self->f.sets);
	EXPECT_EQ(2, self->f.gets);
	/* systemd's AllowedCPUs went elsewhere (an operator, a reload) */
	self->f.cpus[1] = cs("1");
	ASSERT_EQ(0, cgroupfs_ensure_cpus(&self->cg, BU_POD, &s, &changed, &self->err));
	EXPECT_TRUE(changed);
	EXPECT_EQ(2, self->f.sets);
	EXPECT_TRUE(unit_has(&self->f, "kubepods-burstable-podb1.slice", "1,4-7"));
	/* the file went elsewhere (systemd wrote an empty one) */
	fake_write(self->dir, BU_POD "/cpuset.cpus", "\n");
	ASSERT_EQ(0, cgroupfs_ensure_cpus(&self->cg, BU_POD, &s, &changed, &self->err));
	EXPECT_TRUE(changed);
	EXPECT_STREQ("1,4-7", fake_read(self->dir, BU_POD "/cpuset.cpus"));
	EXPECT_EQ(2, self->f.sets);
	/* no units: a read and no more */
	self->cg.units = NULL;
	ASSERT_EQ(0, cgroupfs_ensure_cpus(&self->cg, BU_POD, &s, &changed, &self->err));
	EXPECT_FALSE(changed);
	EXPECT_EQ(4, self->f.gets);
}

TEST_HARNESS_MAIN
