// SPDX-License-Identifier: GPL-2.0
/*
 * The quiet layer on fake trees (tests/fake_cgroup.h's directories):
 * cpuset partitions made and undone in the kernel's order (remote with
 * cpuset.cpus.exclusive on the ancestors, local on a kernel without it,
 * refused below a parent that is no partition root, undone when the
 * kernel makes one invalid); interrupts kept off CPUs and given back,
 * the default affinity's hex mask included; irqbalance's environment
 * file; idle states and governors set and put back, refused where the
 * kernel has none or no such governor; and the saved state through its
 * JSON.
 */
#include "kselftest_harness.h"

#include "fake_cgroup.h"
#include "quiet_cpu.h"
#include "quiet_irq.h"
#include "quiet_partition.h"
#include "quiet_saved.h"
#include "test_util.h"

/* Writes to a "bad" cgroup's partition file vanish: it stays invalid. */
static int invalid_open(const char *path, int flags)
{
	if ((flags & (O_WRONLY | O_RDWR)) &&
	    strstr(path, "/bad/cpuset.cpus.partition"))
		return open("/dev/null", flags);
	return fake_open_file(path, flags);
}

static const struct cgroupfs_ops invalid_ops = {
	.open_file = invalid_open,
	.remove_dir = fake_remove_dir,
	.v1_root = fake_v1_root,
};

/* A file's value, its newline cut (a value written has none). */
FAKE_TREE_FIXTURE(part);

static const char *const cgroups[] = {
	"kubepods", "kubepods/pod1", "kubepods/pod1/c1", "kubepods/pod1/c2",
	"kubepods/pod2", "kubepods/pod2/bad",
};

/* The tree, with cpuset.cpus.exclusive everywhere when remote. */
static void lay_out(FIXTURE_DATA(part) *self, bool remote)
{
	char rel[PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(cgroups); i++) {
		xsnprintf(rel, sizeof(rel), "%s/cpuset.cpus.partition",
			  cgroups[i]);
		fake_write(self->dir, rel, "member\n");
		if (!remote)
			continue;
		xsnprintf(rel, sizeof(rel), "%s/cpuset.cpus.exclusive",
			  cgroups[i]);
		fake_write(self->dir, rel, "\n");
	}
	fake_write(self->dir, "kubepods/pod2/bad/cpuset.cpus.partition",
		   "isolated invalid (Cpu list in cpuset.cpus not exclusive)\n");
}

FIXTURE_SETUP(part)
{
	fake_tree_new(self->dir, sizeof(self->dir));
	memset(&self->err, 0, sizeof(self->err));
	ASSERT_EQ(0, cgroupfs_init_ops(&self->cg, self->dir, 2, &invalid_ops,
				       &self->err));
}

static struct cpuset cpus_of(const char *list)
{
	struct cpuset s;

	if (cpuset_parse(&s, list, NULL))
		abort();
	return s;
}

#define EXCL(c)		fake_line(self->dir, c "/cpuset.cpus.exclusive")
#define PART(c)		fake_line(self->dir, c "/cpuset.cpus.partition")

TEST_F(part, remote_made_top_down_and_undone_bottom_up)
{
	struct cpuset a = cpus_of("2-3"), b = cpus_of("4"), moved = cpus_of("2,5");
	bool changed;

	lay_out(self, true);
	ASSERT_TRUE(quiet_part_remote(&self->cg, "kubepods/pod1/c1"));
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &a, true,
				     &changed, &self->err)) TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_TRUE(changed);
	EXPECT_STREQ("2-3", EXCL("kubepods"));
	EXPECT_STREQ("2-3", EXCL("kubepods/pod1"));
	EXPECT_STREQ("2-3", EXCL("kubepods/pod1/c1"));
	EXPECT_STREQ("isolated", PART("kubepods/pod1/c1"));
	/* again: nothing to write */
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &a, true,
				     &changed, &self->err));
	EXPECT_FALSE(changed);
	/* a second container of the pod, a "root" partition */
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c2", &b, false,
				     &changed, &self->err));
	EXPECT_STREQ("2-4", EXCL("kubepods"));
	EXPECT_STREQ("2-4", EXCL("kubepods/pod1"));
	EXPECT_STREQ("root", PART("kubepods/pod1/c2"));
	/* c1 moves to 2,5 (a resize): 3 leaves the ancestors, 5 comes */
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &moved,
				     true, &changed, &self->err));
	EXPECT_STREQ("2,4-5", EXCL("kubepods"));
	EXPECT_STREQ("2,4-5", EXCL("kubepods/pod1"));
	EXPECT_STREQ("2,5", EXCL("kubepods/pod1/c1"));
	/* c1 goes: c2's CPU stays with the ancestors */
	ASSERT_EQ(0, quiet_part_undo(&self->cg, "kubepods/pod1",
				     "kubepods/pod1/c1", &moved, &self->err));
	EXPECT_STREQ("member", PART("kubepods/pod1/c1"));
	EXPECT_STREQ("", EXCL("kubepods/pod1/c1"));
	EXPECT_STREQ("4", EXCL("kubepods/pod1"));
	EXPECT_STREQ("4", EXCL("kubepods"));
	/* c2's cgroup gone (the runtime's rmdir), then undone */
	ASSERT_EQ(0, quiet_part_undo(&self->cg, "kubepods/pod1", NULL, &b,
				     &self->err));
	EXPECT_STREQ("", EXCL("kubepods/pod1"));
	EXPECT_STREQ("", EXCL("kubepods"));
}

TEST_F(part, undone_above_a_pod_cgroup_already_gone)
{
	struct cpuset a = cpus_of("2-3");
	char path[PATH_MAX];
	bool changed;

	lay_out(self, true);
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &a, true,
				     &changed, &self->err));
	xsnprintf(path, sizeof(path), "%s/kubepods/pod1", self->dir);
	fake_tree_free(path);
	ASSERT_EQ(0, quiet_part_undo(&self->cg, "kubepods/pod1",
				     "kubepods/pod1/c1", &a, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_STREQ("", EXCL("kubepods"));
}

/*
 * Undone with the CPUs it held, whatever the caller passes (a container
 * no longer exclusive has the shared pool's), and its own emptied.
 */
TEST_F(part, undone_by_what_it_held)
{
	struct cpuset a = cpus_of("2-3"), b = cpus_of("4"), pool = cpus_of("1,5-7");
	bool changed;

	lay_out(self, true);
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &a, true,
				     &changed, &self->err));
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c2", &b, true,
				     &changed, &self->err));
	ASSERT_EQ(0, quiet_part_undo(&self->cg, "kubepods/pod1",
				     "kubepods/pod1/c1", NULL, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_STREQ("member", PART("kubepods/pod1/c1"));
	EXPECT_STREQ("", EXCL("kubepods/pod1/c1"));
	EXPECT_STREQ("4", EXCL("kubepods/pod1"));
	EXPECT_STREQ("4", EXCL("kubepods"));
	ASSERT_EQ(0, quiet_part_undo(&self->cg, "kubepods/pod1",
				     "kubepods/pod1/c2", &pool, &self->err));
	EXPECT_STREQ("", EXCL("kubepods/pod1/c2"));
	EXPECT_STREQ("", EXCL("kubepods/pod1"));
	EXPECT_STREQ("", EXCL("kubepods"));
}

/*
 * A write of c1's cpuset.cpus.exclusive: refused (EBUSY) when
 * c1_refused, else it notes what its pod cgroup's names then.
 */
static bool c1_refused;
static char pod1_at_own_write[64];

static void note_pod1(const char *c1_path)
{
	char pod1[PATH_MAX];

	xsnprintf(pod1, sizeof(pod1), "%.*s",
		  (int)(strstr(c1_path, "/c1/") - c1_path), c1_path);
	xsnprintf(pod1_at_own_write, sizeof(pod1_at_own_write), "%s",
		  fake_read(pod1, "cpuset.cpus.exclusive"));
	pod1_at_own_write[strcspn(pod1_at_own_write, "\n")] = '\0';
}

static int c1_exclusive_open(const char *path, int flags)
{
	if (!(flags & (O_WRONLY | O_RDWR)) ||
	    !strstr(path, "/c1/cpuset.cpus.exclusive"))
		return fake_open_file(path, flags);
	if (c1_refused) {
		errno = EBUSY;
		return -1;
	}
	note_pod1(path);
	return fake_open_file(path, flags);
}

static const struct cgroupfs_ops c1_exclusive_ops = {
	.open_file = c1_exclusive_open,
	.remove_dir = fake_remove_dir,
	.v1_root = fake_v1_root,
};

/* A valid partition whose move the kernel refuses stays where it was. */
TEST_F(part, a_refused_move_keeps_the_partition)
{
	struct cpuset a = cpus_of("2-3"), moved = cpus_of("2,5");
	bool changed;

	lay_out(self, true);
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &a, true,
				     &changed, &self->err));
	self->cg.ops = &c1_exclusive_ops;
	c1_refused = true;
	EXPECT_EQ(-EBUSY, quiet_part_make(&self->cg, "kubepods/pod1/c1",
					  &moved, true, &changed, &self->err));
	c1_refused = false;
	self->cg.ops = &invalid_ops;
	EXPECT_STREQ("isolated", PART("kubepods/pod1/c1"));
	EXPECT_STREQ("2-3", EXCL("kubepods/pod1/c1"));
	EXPECT_STREQ("2-3", EXCL("kubepods/pod1"));
	EXPECT_STREQ("2-3", EXCL("kubepods"));
}

/*
 * A release-mode offline took CPU 3 from c1 and its top-up gave it 1: the
 * ancestors grow by 1 and lose 3 in one write (it runs nothing there, and
 * the module refuses naming it); a CPU the partition still runs on
 * leaves them only after its own write.
 */
TEST_F(part, a_move_drops_an_offline_cpu_from_the_ancestors_first)
{
	struct cpuset a = cpus_of("2-3"), topped = cpus_of("1-2");
	struct cpuset moved = cpus_of("1,5");
	bool changed;

	lay_out(self, true);
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &a, true,
				     &changed, &self->err));
	fake_write(self->dir, "kubepods/pod1/c1/cpuset.cpus.effective", "2\n");
	self->cg.ops = &c1_exclusive_ops;
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &topped,
				     true, &changed, &self->err))
		TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_STREQ("1-2", pod1_at_own_write);
	EXPECT_STREQ("1-2", EXCL("kubepods/pod1/c1"));
	EXPECT_STREQ("1-2", EXCL("kubepods/pod1"));
	EXPECT_STREQ("1-2", EXCL("kubepods"));
	/* on CPU 2 still: it stays with the ancestors until c1 moved */
	fake_write(self->dir, "kubepods/pod1/c1/cpuset.cpus.effective", "1-2\n");
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &moved,
				     true, &changed, &self->err));
	self->cg.ops = &invalid_ops;
	EXPECT_STREQ("1-2,5", pod1_at_own_write);
	EXPECT_STREQ("1,5", EXCL("kubepods/pod1"));
	EXPECT_STREQ("1,5", EXCL("kubepods"));
}

/* The managed root at the mount: the root's cpuset.cpus.isolated tells. */
TEST_F(part, remote_asked_of_the_root_cgroup)
{
	lay_out(self, true);
	EXPECT_FALSE(quiet_part_remote(&self->cg, ""));
	fake_write(self->dir, "cpuset.cpus.isolated", "\n");
	EXPECT_TRUE(quiet_part_remote(&self->cg, ""));
	EXPECT_TRUE(quiet_part_remote(&self->cg, "kubepods/pod1/c1"));
}

TEST_F(part, an_invalid_partition_is_undone_with_the_kernels_reason)
{
	struct cpuset a = cpus_of("6");
	bool changed;

	lay_out(self, true);
	EXPECT_EQ(-EINVAL, quiet_part_make(&self->cg, "kubepods/pod2/bad", &a,
					   true, &changed, &self->err));
	EXPECT_STREQ("cgroup kubepods/pod2/bad: the kernel made it an invalid partition (Cpu list in cpuset.cpus not exclusive)",
		     cm_error_msg(&self->err));
	EXPECT_STREQ("", EXCL("kubepods"));
	EXPECT_STREQ("", EXCL("kubepods/pod2"));
	EXPECT_STREQ("", EXCL("kubepods/pod2/bad"));
}

TEST_F(part, local_only_below_a_partition_root)
{
	struct cpuset a = cpus_of("2-3");
	bool changed;

	lay_out(self, false);
	EXPECT_FALSE(quiet_part_remote(&self->cg, "kubepods/pod1/c1"));
	EXPECT_EQ(-EOPNOTSUPP, quiet_part_make(&self->cg, "kubepods/pod1/c1",
					       &a, true, &changed, &self->err));
	EXPECT_STREQ("this kernel has no cpuset.cpus.exclusive (Linux 6.7 and later make remote partitions): a partition must be a local one, and its parent kubepods/pod1 is no partition root",
		     cm_error_msg(&self->err));
	EXPECT_STREQ("member", PART("kubepods/pod1/c1"));
	cm_error_clear(&self->err);
	/* the layout allows it: the pod cgroup is a partition root */
	fake_write(self->dir, "kubepods/pod1/cpuset.cpus.partition", "root\n");
	ASSERT_EQ(0, quiet_part_make(&self->cg, "kubepods/pod1/c1", &a, true,
				     &changed, &self->err)) TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_STREQ("isolated", PART("kubepods/pod1/c1"));
	EXPECT_FALSE(fake_exists(self->dir, "kubepods/pod1/cpuset.cpus.exclusive"));
	ASSERT_EQ(0, quiet_part_undo(&self->cg, "kubepods/pod1",
				     "kubepods/pod1/c1", &a, &self->err));
	EXPECT_STREQ("member", PART("kubepods/pod1/c1"));
	EXPECT_FALSE(fake_exists(self->dir, "kubepods/pod1/cpuset.cpus.exclusive"));
}

FIXTURE(files) {
	char dir[PATH_MAX];
	struct quiet_saved s;
	struct cm_error err;
};

FIXTURE_SETUP(files)
{
	fake_tree_new(self->dir, sizeof(self->dir));
	quiet_saved_init(&self->s);
	memset(&self->err, 0, sizeof(self->err));
}

FIXTURE_TEARDOWN(files)
{
	quiet_saved_free(&self->s);
	cm_error_clear(&self->err);
	fake_tree_free(self->dir);
}

TEST_F(files, interrupts_kept_off_and_given_back)
{
	struct cpuset off = cpus_of("2-3"), online = cpus_of("0-39"), none;
	struct quiet_irq_result r;
	char proc[PATH_MAX + 8];

	xsnprintf(proc, sizeof(proc), "%s/proc", self->dir);
	fake_write(self->dir, "proc/irq/0/smp_affinity_list", "0\n");
	fake_write(self->dir, "proc/irq/24/smp_affinity_list", "0-39\n");
	fake_write(self->dir, "proc/irq/25/smp_affinity_list", "2\n");
	fake_write(self->dir, "proc/irq/26/smp_affinity_list", "3,8\n");
	fake_write(self->dir, "proc/irq/default_smp_affinity", "ff,ffffffff\n");
	ASSERT_EQ(0, quiet_irq_sync(proc, &off, &online, &self->s, NULL, NULL,
				    &r, &self->err)) TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_EQ(4u, r.seen);
	EXPECT_EQ(3u, r.moved);
	EXPECT_STREQ("0\n", fake_read(self->dir, "proc/irq/0/smp_affinity_list"));
	EXPECT_STREQ("0-1,4-39", fake_read(self->dir, "proc/irq/24/smp_affinity_list"));
	/* nothing left of its own: every CPU but those kept off */
	EXPECT_STREQ("0-1,4-39", fake_read(self->dir, "proc/irq/25/smp_affinity_list"));
	EXPECT_STREQ("8", fake_read(self->dir, "proc/irq/26/smp_affinity_list"));
	EXPECT_STREQ("000000ff,fffffff3", fake_read(self->dir, "proc/irq/default_smp_affinity"));
	EXPECT_EQ((size_t)3, self->s.nr_irqs);
	/* more kept off: from the saved affinities, not the written ones */
	off = cpus_of("2-3,8");
	ASSERT_EQ(0, quiet_irq_sync(proc, &off, &online, &self->s, NULL, NULL,
				    &r, &self->err));
	EXPECT_STREQ("0-1,4-7,9-39", fake_read(self->dir, "proc/irq/26/smp_affinity_list"));
	off = cpus_of("8");
	ASSERT_EQ(0, quiet_irq_sync(proc, &off, &online, &self->s, NULL, NULL,
				    &r, &self->err));
	EXPECT_STREQ("3", fake_read(self->dir, "proc/irq/26/smp_affinity_list"));
	EXPECT_STREQ("2", fake_read(self->dir, "proc/irq/25/smp_affinity_list"));
	/* none: every one as it was, nothing saved */
	cpuset_zero(&none);
	ASSERT_EQ(0, quiet_irq_sync(proc, &none, &online, &self->s, NULL, NULL,
				    &r, &self->err));
	EXPECT_STREQ("0-39", fake_read(self->dir, "proc/irq/24/smp_affinity_list"));
	EXPECT_STREQ("3,8", fake_read(self->dir, "proc/irq/26/smp_affinity_list"));
	EXPECT_STREQ("ff,ffffffff", fake_read(self->dir, "proc/irq/default_smp_affinity"));
	EXPECT_TRUE(quiet_saved_empty(&self->s));
}

/* What persist finds: the saved originals, and no affinity changed yet. */
struct persisted {
	const char *dir;
	struct quiet_saved *s;
	int calls;
	char affinity[64];
	size_t saved;
};

static int persist_probe(void *arg, struct cm_error *err)
{
	struct persisted *p = arg;

	p->calls++;
	xsnprintf(p->affinity, sizeof(p->affinity), "%s",
		  fake_read(p->dir, "proc/irq/24/smp_affinity_list"));
	p->saved = p->s->nr_irqs;
	return 0;
}

static int persist_fails(void *arg, struct cm_error *err)
{
	return cm_errorf(err, "no space left"), -ENOSPC;
}

TEST_F(files, originals_persisted_before_any_change)
{
	struct cpuset off = cpus_of("2-3"), online = cpus_of("0-7");
	struct persisted p = { .dir = self->dir, .s = &self->s };
	struct quiet_irq_result r;
	char proc[PATH_MAX + 8];

	xsnprintf(proc, sizeof(proc), "%s/proc", self->dir);
	fake_write(self->dir, "proc/irq/24/smp_affinity_list", "0-7\n");
	fake_write(self->dir, "proc/irq/25/smp_affinity_list", "0-1\n");
	/* a failed persist writes nothing */
	EXPECT_EQ(-ENOSPC, quiet_irq_sync(proc, &off, &online, &self->s,
					  persist_fails, NULL, &r, &self->err));
	EXPECT_STREQ("0-7\n", fake_read(self->dir, "proc/irq/24/smp_affinity_list"));
	cm_error_clear(&self->err);
	ASSERT_EQ(0, quiet_irq_sync(proc, &off, &online, &self->s,
				    persist_probe, &p, &r, &self->err));
	EXPECT_EQ(1, p.calls);
	EXPECT_STREQ("0-7\n", p.affinity);
	EXPECT_EQ((size_t)1, p.saved);
	EXPECT_STREQ("0-1,4-7", fake_read(self->dir, "proc/irq/24/smp_affinity_list"));
	/* nothing new to save: not called again */
	ASSERT_EQ(0, quiet_irq_sync(proc, &off, &online, &self->s,
				    persist_probe, &p, &r, &self->err));
	EXPECT_EQ(1, p.calls);
}

/* An interrupt the kernel refuses back stays saved for the next try. */
TEST_F(files, a_refused_restore_stays_saved)
{
	struct cpuset off = cpus_of("2"), online = cpus_of("0-3"), none;
	struct quiet_irq_result r;
	char proc[PATH_MAX + 8], path[PATH_MAX + 64];

	xsnprintf(proc, sizeof(proc), "%s/proc", self->dir);
	fake_write(self->dir, "proc/irq/24/smp_affinity_list", "0-3\n");
	fake_write(self->dir, "proc/irq/25/smp_affinity_list", "2-3\n");
	ASSERT_EQ(0, quiet_irq_sync(proc, &off, &online, &self->s, NULL, NULL,
				    &r, &self->err));
	EXPECT_EQ((size_t)2, self->s.nr_irqs);
	/* 25's file made read-only: its write back fails */
	xsnprintf(path, sizeof(path), "%s/proc/irq/25/smp_affinity_list",
		  self->dir);
	ASSERT_EQ(0, chmod(path, 0444));
	cpuset_zero(&none);
	ASSERT_EQ(0, quiet_irq_sync(proc, &none, &online, &self->s, NULL, NULL,
				    &r, &self->err));
	EXPECT_STREQ("0-3", fake_read(self->dir, "proc/irq/24/smp_affinity_list"));
	if (geteuid() == 0) {
		/* root writes a read-only file: both given back */
		EXPECT_EQ((size_t)0, self->s.nr_irqs);
		return;
	}
	ASSERT_EQ((size_t)1, self->s.nr_irqs);
	EXPECT_EQ(25u, self->s.irqs[0].irq);
	EXPECT_FALSE(quiet_saved_empty(&self->s));
}

TEST_F(files, a_reboot_forgets_what_the_kernel_reset)
{
	struct cpuset off = cpus_of("2");
	struct quiet_cpu_orig *c;

	ASSERT_EQ(0, quiet_saved_add_irq(&self->s, 24, "0-3", &self->err));
	self->s.irq_off = off;
	self->s.irqbalance_banned = true;
	xsnprintf(self->s.irqbalance_line, sizeof(self->s.irqbalance_line),
		  "%s", "IRQBALANCE_BANNED_CPULIST=7");
	c = quiet_saved_cpu(&self->s, 2, true);
	ASSERT_NE(NULL, c);
	xsnprintf(c->governor, sizeof(c->governor), "%s", "schedutil");
	EXPECT_FALSE(quiet_saved_rebooted(&self->s, "boot-1"));
	EXPECT_FALSE(quiet_saved_rebooted(&self->s, "boot-1"));
	/* unknown (a test's tree): the same boot */
	EXPECT_FALSE(quiet_saved_rebooted(&self->s, ""));
	EXPECT_EQ((size_t)1, self->s.nr_irqs);
	EXPECT_FALSE(quiet_saved_rebooted(&self->s, "boot-1"));
	EXPECT_TRUE(quiet_saved_rebooted(&self->s, "boot-2"));
	EXPECT_EQ((size_t)0, self->s.nr_irqs);
	EXPECT_EQ((size_t)0, self->s.nr_cpus);
	EXPECT_TRUE(cpuset_empty(&self->s.irq_off));
	/* irqbalance's line is a file's: kept */
	EXPECT_TRUE(self->s.irqbalance_banned);
	EXPECT_STREQ("boot-2", self->s.boot_id);
}

/* The shell reads every line: cpumgr's takes the place of the last. */
TEST_F(files, irqbalance_the_last_line_counts)
{
	static const char two[] = "IRQBALANCE_BANNED_CPULIST=6\n"
		"IRQBALANCE_ARGS=\nIRQBALANCE_BANNED_CPULIST=7\n";
	struct cpuset off = cpus_of("2"), none;
	char file[PATH_MAX + 16];
	bool changed;

	xsnprintf(file, sizeof(file), "%s/irqbalance", self->dir);
	fake_write(self->dir, "irqbalance", two);
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &off, &self->s, NULL, NULL,
					  &changed, &self->err));
	EXPECT_STREQ("IRQBALANCE_BANNED_CPULIST=6\nIRQBALANCE_ARGS=\n"
		     "IRQBALANCE_BANNED_CPULIST=2,7\n",
		     fake_read(self->dir, "irqbalance"));
	cpuset_zero(&none);
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &none, &self->s, NULL, NULL,
					  &changed, &self->err));
	EXPECT_STREQ(two, fake_read(self->dir, "irqbalance"));
}

TEST_F(files, irqbalance_banned_and_put_back)
{
	static const char debian[] = "#Configuration for the irqbalance daemon\n\n"
		"#IRQBALANCE_BANNED_CPULIST=\n#IRQBALANCE_ARGS=\n";
	struct cpuset off = cpus_of("2-3"), none;
	char file[PATH_MAX + 16], proc[PATH_MAX + 8];
	bool changed;

	xsnprintf(file, sizeof(file), "%s/irqbalance", self->dir);
	xsnprintf(proc, sizeof(proc), "%s/proc", self->dir);
	fake_write(self->dir, "proc/1/comm", "init\n");
	EXPECT_FALSE(quiet_irqbalance_running(proc));
	fake_write(self->dir, "proc/812/comm", "irqbalance\n");
	EXPECT_TRUE(quiet_irqbalance_running(proc));
	fake_write(self->dir, "irqbalance", debian);
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &off, &self->s, NULL, NULL,
					  &changed, &self->err)) TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_TRUE(changed);
	EXPECT_STREQ("#Configuration for the irqbalance daemon\n\n"
		     "#IRQBALANCE_BANNED_CPULIST=\n#IRQBALANCE_ARGS=\n"
		     "IRQBALANCE_BANNED_CPULIST=2-3\n",
		     fake_read(self->dir, "irqbalance"));
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &off, &self->s, NULL, NULL,
					  &changed, &self->err));
	EXPECT_FALSE(changed);
	cpuset_zero(&none);
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &none, &self->s, NULL, NULL,
					  &changed, &self->err));
	EXPECT_TRUE(changed);
	EXPECT_STREQ(debian, fake_read(self->dir, "irqbalance"));
	EXPECT_FALSE(self->s.irqbalance_banned);
	/* an admin's line: kept banned too, and put back as it was */
	fake_write(self->dir, "irqbalance", "IRQBALANCE_ARGS=--policyscript=x\n"
		   "export IRQBALANCE_BANNED_CPULIST=7\n");
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &off, &self->s, NULL, NULL,
					  &changed, &self->err));
	EXPECT_STREQ("IRQBALANCE_ARGS=--policyscript=x\n"
		     "IRQBALANCE_BANNED_CPULIST=2-3,7\n",
		     fake_read(self->dir, "irqbalance"));
	off = cpus_of("4");
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &off, &self->s, NULL, NULL,
					  &changed, &self->err));
	EXPECT_STREQ("IRQBALANCE_ARGS=--policyscript=x\n"
		     "IRQBALANCE_BANNED_CPULIST=4,7\n",
		     fake_read(self->dir, "irqbalance"));
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &none, &self->s, NULL, NULL,
					  &changed, &self->err));
	EXPECT_STREQ("IRQBALANCE_ARGS=--policyscript=x\n"
		     "export IRQBALANCE_BANNED_CPULIST=7\n",
		     fake_read(self->dir, "irqbalance"));
	/* no such file */
	xsnprintf(file, sizeof(file), "%s/none", self->dir);
	EXPECT_EQ(-ENOENT, quiet_irqbalance_ban(file, &off, &self->s, NULL, NULL,
						&changed, &self->err));
}

/* What irqbalance's persist finds: the line saved, the file untouched. */
struct line_persisted {
	const char *dir;
	struct quiet_saved *s;
	int calls;
	bool banned;
	char line[QUIET_LINE_MAX], file[QUIET_LINE_MAX];
};

static int line_persist_probe(void *arg, struct cm_error *err)
{
	struct line_persisted *p = arg;

	p->calls++;
	p->banned = p->s->irqbalance_banned;
	xsnprintf(p->line, sizeof(p->line), "%s", p->s->irqbalance_line);
	xsnprintf(p->file, sizeof(p->file), "%s",
		  fake_read(p->dir, "irqbalance"));
	return 0;
}

TEST_F(files, irqbalance_line_persisted_before_the_file_changes)
{
	static const char admin[] = "IRQBALANCE_BANNED_CPULIST=7\n";
	struct line_persisted p = { .dir = self->dir, .s = &self->s };
	struct cpuset off = cpus_of("2-3");
	char file[PATH_MAX + 16];
	bool changed;

	xsnprintf(file, sizeof(file), "%s/irqbalance", self->dir);
	fake_write(self->dir, "irqbalance", admin);
	/* a failed persist writes nothing and keeps no line */
	EXPECT_EQ(-ENOSPC, quiet_irqbalance_ban(file, &off, &self->s,
						persist_fails, NULL, &changed,
						&self->err));
	EXPECT_FALSE(changed);
	EXPECT_STREQ(admin, fake_read(self->dir, "irqbalance"));
	EXPECT_TRUE(quiet_saved_empty(&self->s));
	cm_error_clear(&self->err);
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &off, &self->s,
					  line_persist_probe, &p, &changed,
					  &self->err));
	EXPECT_EQ(1, p.calls);
	EXPECT_TRUE(p.banned);
	EXPECT_STREQ("IRQBALANCE_BANNED_CPULIST=7", p.line);
	EXPECT_STREQ(admin, p.file);
	EXPECT_STREQ("IRQBALANCE_BANNED_CPULIST=2-3,7\n",
		     fake_read(self->dir, "irqbalance"));
	/* the line is saved already: not called again */
	off = cpus_of("4");
	ASSERT_EQ(0, quiet_irqbalance_ban(file, &off, &self->s,
					  line_persist_probe, &p, &changed,
					  &self->err));
	EXPECT_TRUE(changed);
	EXPECT_EQ(1, p.calls);
}

/* cpu's idle state k with an exit latency and its disable flag. */
static void state(const char *dir, unsigned int cpu, unsigned int k,
		  const char *latency, const char *disabled)
{
	char rel[128];

	xsnprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpuidle/state%u/latency",
		  cpu, k);
	fake_write(dir, rel, latency);
	xsnprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpuidle/state%u/disable",
		  cpu, k);
	fake_write(dir, rel, disabled);
}

#define DISABLED(k)	fake_line(self->dir, "sys/devices/system/cpu/cpu2/cpuidle/state" #k "/disable")

TEST_F(files, idle_states_set_and_put_back)
{
	char sys[PATH_MAX + 8];
	bool changed;

	xsnprintf(sys, sizeof(sys), "%s/sys", self->dir);
	state(self->dir, 2, 0, "0\n", "0\n");		/* POLL */
	state(self->dir, 2, 1, "2\n", "1\n");		/* an admin's */
	state(self->dir, 2, 2, "100\n", "0\n");
	EXPECT_TRUE(quiet_cpuidle_exposed(sys, 2));
	EXPECT_FALSE(quiet_cpuidle_exposed(sys, 3));
	EXPECT_EQ(-ENOENT, quiet_cstates_set(sys, 3, "disable", &self->s, NULL,
					     NULL, &changed, &self->err));
	ASSERT_EQ(0, quiet_cstates_set(sys, 2, "max_latency:10", &self->s,
				       NULL, NULL, &changed, &self->err)) TH_LOG("%s", cm_error_msg(&self->err));
	EXPECT_TRUE(changed);
	EXPECT_STREQ("0", DISABLED(0));
	EXPECT_STREQ("0", DISABLED(1));
	EXPECT_STREQ("1", DISABLED(2));
	ASSERT_EQ(0, quiet_cstates_set(sys, 2, "disable", &self->s, NULL, NULL,
				       &changed, &self->err));
	EXPECT_STREQ("0", DISABLED(0));
	EXPECT_STREQ("1", DISABLED(1));
	ASSERT_EQ(0, quiet_cstates_set(sys, 2, "enable", &self->s, NULL, NULL,
				       &changed, &self->err));
	EXPECT_STREQ("0", DISABLED(1));
	EXPECT_STREQ("0", DISABLED(2));
	/* back: the admin's state 1 disabled again */
	ASSERT_EQ(0, quiet_cstates_set(sys, 2, "", &self->s, NULL, NULL,
				       &changed, &self->err));
	EXPECT_STREQ("0", DISABLED(0));
	EXPECT_STREQ("1", DISABLED(1));
	EXPECT_STREQ("0", DISABLED(2));
	EXPECT_TRUE(quiet_saved_empty(&self->s));
}

#define GOVERNOR(c)	fake_line(self->dir, "sys/devices/system/cpu/cpu" #c "/cpufreq/scaling_governor")

TEST_F(files, governors_set_and_put_back)
{
	char sys[PATH_MAX + 8];
	bool changed;

	xsnprintf(sys, sizeof(sys), "%s/sys", self->dir);
	fake_write(self->dir, "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor",
		   "schedutil\n");
	fake_write(self->dir, "sys/devices/system/cpu/cpu2/cpufreq/scaling_available_governors",
		   "performance powersave schedutil\n");
	EXPECT_EQ(-ENOENT, quiet_governor_set(sys, 3, "performance", &self->s,
					      NULL, NULL, &changed,
					      &self->err));
	EXPECT_EQ(-EINVAL, quiet_governor_set(sys, 2, "ondemand", &self->s,
					      NULL, NULL, &changed,
					      &self->err));
	EXPECT_STREQ("cpu-freq-governor: \"ondemand\" is not among CPU 2's scaling_available_governors",
		     cm_error_msg(&self->err));
	EXPECT_STREQ("schedutil", GOVERNOR(2));
	ASSERT_EQ(0, quiet_governor_set(sys, 2, "performance", &self->s, NULL,
					NULL, &changed, &self->err));
	EXPECT_TRUE(changed);
	EXPECT_STREQ("performance", GOVERNOR(2));
	ASSERT_EQ(0, quiet_governor_set(sys, 2, "powersave", &self->s, NULL,
					NULL, &changed, &self->err));
	ASSERT_EQ(0, quiet_governor_set(sys, 2, "", &self->s, NULL, NULL,
					&changed, &self->err));
	EXPECT_STREQ("schedutil", GOVERNOR(2));
	EXPECT_TRUE(quiet_saved_empty(&self->s));
}

/* What a CPU's persist finds: the originals saved, the files untouched. */
struct cpu_persisted {
	const char *dir;
	struct quiet_saved *s;
	int calls;
	char disable2[8], governor[QUIET_VALUE_MAX];
	bool state2_saved;
	char governor_saved[QUIET_VALUE_MAX];
};

static int cpu_persist_probe(void *arg, struct cm_error *err)
{
	struct cpu_persisted *p = arg;
	struct quiet_cpu_orig *c = quiet_saved_cpu(p->s, 2, false);

	p->calls++;
	xsnprintf(p->disable2, sizeof(p->disable2), "%s",
		  fake_line(p->dir, "sys/devices/system/cpu/cpu2/cpuidle/state2/disable"));
	xsnprintf(p->governor, sizeof(p->governor), "%s",
		  fake_line(p->dir, "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor"));
	p->state2_saved = c && c->nr_states == 3 && c->cstates_now[0];
	xsnprintf(p->governor_saved, sizeof(p->governor_saved), "%s",
		  c && c->governor_now[0] ? c->governor : "");
	return 0;
}

TEST_F(files, cpu_originals_persisted_before_any_change)
{
	struct cpu_persisted p = { .dir = self->dir, .s = &self->s };
	char sys[PATH_MAX + 8];
	bool changed;

	xsnprintf(sys, sizeof(sys), "%s/sys", self->dir);
	state(self->dir, 2, 0, "0\n", "0\n");
	state(self->dir, 2, 1, "2\n", "0\n");
	state(self->dir, 2, 2, "100\n", "0\n");
	fake_write(self->dir, "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor",
		   "schedutil\n");
	fake_write(self->dir, "sys/devices/system/cpu/cpu2/cpufreq/scaling_available_governors",
		   "performance schedutil\n");
	/* a failed persist writes nothing and keeps no record */
	EXPECT_EQ(-ENOSPC, quiet_cstates_set(sys, 2, "disable", &self->s,
					     persist_fails, NULL, &changed,
					     &self->err));
	EXPECT_STREQ("0", DISABLED(2));
	cm_error_clear(&self->err);
	EXPECT_EQ(-ENOSPC, quiet_governor_set(sys, 2, "performance", &self->s,
					      persist_fails, NULL, &changed,
					      &self->err));
	EXPECT_STREQ("schedutil", GOVERNOR(2));
	EXPECT_TRUE(quiet_saved_empty(&self->s));
	cm_error_clear(&self->err);
	ASSERT_EQ(0, quiet_cstates_set(sys, 2, "disable", &self->s,
				       cpu_persist_probe, &p, &changed,
				       &self->err));
	EXPECT_EQ(1, p.calls);
	EXPECT_TRUE(p.state2_saved);
	EXPECT_STREQ("0", p.disable2);
	EXPECT_STREQ("1", DISABLED(2));
	ASSERT_EQ(0, quiet_governor_set(sys, 2, "performance", &self->s,
					cpu_persist_probe, &p, &changed,
					&self->err));
	EXPECT_EQ(2, p.calls);
	EXPECT_STREQ("schedutil", p.governor_saved);
	EXPECT_STREQ("schedutil", p.governor);
	EXPECT_STREQ("performance", GOVERNOR(2));
	/* the originals are saved already: not called again */
	ASSERT_EQ(0, quiet_cstates_set(sys, 2, "max_latency:10", &self->s,
				       cpu_persist_probe, &p, &changed,
				       &self->err));
	ASSERT_EQ(0, quiet_governor_set(sys, 2, "schedutil", &self->s,
					cpu_persist_probe, &p, &changed,
					&self->err));
	EXPECT_EQ(2, p.calls);
}

/* A first setting that writes nothing keeps no record: tried again. */
TEST_F(files, idle_states_failing_before_a_write_keep_no_record)
{
	char sys[PATH_MAX + 8], lat[PATH_MAX + 96];
	bool changed;

	xsnprintf(sys, sizeof(sys), "%s/sys", self->dir);
	state(self->dir, 2, 0, "0\n", "0\n");
	state(self->dir, 2, 1, "100\n", "0\n");
	xsnprintf(lat, sizeof(lat), "%s/devices/system/cpu/cpu2/cpuidle/state0/latency",
		  sys);
	ASSERT_EQ(0, unlink(lat));
	EXPECT_EQ(-EIO, quiet_cstates_set(sys, 2, "disable", &self->s, NULL,
					  NULL, &changed, &self->err));
	EXPECT_FALSE(changed);
	EXPECT_STREQ("0", DISABLED(1));
	EXPECT_TRUE(quiet_saved_empty(&self->s));
}

TEST_F(files, the_saved_state_through_json)
{
	struct quiet_cpu_orig *c;
	struct quiet_saved back;
	cJSON *j, *again;
	char *a, *b;

	self->s.irq_off = cpus_of("2-3");
	ASSERT_EQ(0, quiet_saved_add_irq(&self->s, 24, "0-7", &self->err));
	ASSERT_EQ(0, quiet_saved_add_irq(&self->s, 24, "9", &self->err));
	self->s.default_affinity = strdup("ff");
	self->s.irqbalance_banned = true;
	c = quiet_saved_cpu(&self->s, 2, true);
	ASSERT_NE(NULL, c);
	strcpy(c->governor, "schedutil");
	strcpy(c->governor_now, "performance");
	strcpy(c->cstates_now, "disable");
	c->nr_states = 2;
	c->state_disabled[1] = true;
	j = quiet_saved_to_json(&self->s);
	ASSERT_NE(NULL, j);
	a = cJSON_PrintUnformatted(j);
	EXPECT_STREQ("{\"irqOff\":\"2-3\",\"irqs\":{\"24\":\"0-7\"},\"defaultAffinity\":\"ff\","
		     "\"irqbalanceLine\":\"\",\"cpus\":{\"2\":{\"governorNow\":\"performance\","
		     "\"governor\":\"schedutil\",\"cStatesNow\":\"disable\","
		     "\"stateDisabled\":[false,true]}}}", a);
	ASSERT_EQ(0, quiet_saved_from_json(&back, j, &self->err)) TH_LOG("%s", cm_error_msg(&self->err));
	again = quiet_saved_to_json(&back);
	b = cJSON_PrintUnformatted(again);
	EXPECT_STREQ(a, b);
	free(a);
	free(b);
	cJSON_Delete(j);
	cJSON_Delete(again);
	quiet_saved_free(&back);
	/* bad input: one message, nothing kept */
	j = cJSON_Parse("{\"irqs\":{\"x\":\"1\"}}");
	EXPECT_EQ(-EINVAL, quiet_saved_from_json(&back, j, &self->err));
	EXPECT_STREQ("quiet state: \"x\": not a number up to 2147483647",
		     cm_error_msg(&self->err));
	EXPECT_TRUE(quiet_saved_empty(&back));
	cJSON_Delete(j);
}

TEST_HARNESS_MAIN
