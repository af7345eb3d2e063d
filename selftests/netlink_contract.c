// SPDX-License-Identifier: GPL-2.0
/*
 * Corners of the netlink contract found in review (issue 12): extack
 * messages that fit the kernel's 80-byte buffer, strings with a NUL
 * before their end, "N" in a cpulist and the cpulist limit named, the
 * RELEASED notification of a pod's last container, a dump whose first
 * entry does not fit its message, and a dump resumed across many
 * messages; and violations reach listeners before what is sent after them.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

#define CGROOT "/sys/fs/cgroup"
/* A standard Kubernetes pod UID: 36 characters. */
#define UID36 "0d4c8e3a-7b1f-4f0e-9a55-3c2d1e0f9b8a"

FIXTURE(contract) {
	struct cpumgr_nl *nl;
	struct sft_cpus c;
};

FIXTURE_SETUP(contract)
{
	self->nl = sft_nl_open();
	ASSERT_NE(NULL, self->nl);
	ASSERT_TRUE(sft_cpus_read(&self->c, 4));
	ASSERT_EQ(0, sft_static(self->nl));
}

FIXTURE_TEARDOWN(contract)
{
	EXPECT_EQ(0, sft_reset_close(self->nl));
}

#define NL	self->nl
#define ASSIGN(uid, ctr, cpus) \
	cpumgr_nl_assign(NL, uid, ctr, cpus, 0, NULL, NULL, NULL)

/*
 * Refused with -err, changing nothing (SFT_REFUSED, which reads the
 * table after the call), then once more for the message: in msg.
 */
#define REFUSED_MSG(err, call) do {					\
	SFT_REFUSED(NL, err, call);					\
	EXPECT_EQ(-(err), call);					\
	snprintf(msg, sizeof(msg), "%s", cpumgr_nl_errmsg(NL));	\
	TH_LOG("%s: \"%s\"", #call, msg);				\
} while (0)

/* How often the kernel log says "truncated extack" (-1: unreadable). */
static int truncated_extacks(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *p;
	int len, n = 0;

	if (size <= 0)
		return -1;
	buf = malloc(size + 1);
	if (!buf)
		return -1;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (len < 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	for (p = buf; (p = strstr(p, "truncated extack")); p++)
		n++;
	free(buf);
	return n;
}

/*
 * The formatted message where the kernel has them (6.3+), the fixed one
 * before: either is fine, a cut one is not.
 */
static bool msg_is(const char *got, const char *fmt_msg, const char *fixed)
{
	return !strcmp(got, fmt_msg) || !strcmp(got, fixed);
}

TEST_F(contract, extack_messages_fit)
{
	char uid64[CPUMGR_POD_UID_MAX + 1], want[128], msg[256];
	struct cpumgr_restore_entry e[2];
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_OPTIONS,
		.options = CPUMGR_OPT_ALIGN_BY_SOCKET,
	};
	uint64_t stale = 0;
	int before = truncated_extacks();

	ASSERT_LE(0, before);
	memset(uid64, 'u', CPUMGR_POD_UID_MAX);
	uid64[CPUMGR_POD_UID_MAX] = '\0';
	ASSERT_EQ(0, ASSIGN(UID36, "app", self->c.name[1]));
	ASSERT_EQ(0, ASSIGN(uid64, "app", self->c.name[2]));

	REFUSED_MSG(EBUSY, ASSIGN("other", "c", self->c.name[1]));
	snprintf(want, sizeof(want), "CPU %s: pod %s", self->c.name[1], UID36);
	EXPECT_TRUE(msg_is(msg, want, "CPU is assigned to another pod"));
	REFUSED_MSG(EBUSY, ASSIGN("other", "c", self->c.name[2]));
	snprintf(want, sizeof(want), "CPU %s: pod %s", self->c.name[2], uid64);
	EXPECT_TRUE(msg_is(msg, want, "CPU is assigned to another pod"));

	/* The same check in RESTORE, between two of its entries. */
	e[0] = (struct cpumgr_restore_entry){ UID36, "app", self->c.name[1], 0, NULL, NULL };
	e[1] = (struct cpumgr_restore_entry){ "other", "c", self->c.name[1], 0, NULL, NULL };
	REFUSED_MSG(EBUSY, cpumgr_nl_restore(NL, e, 2, NULL, NULL));
	snprintf(want, sizeof(want), "CPU %s: pod %s", self->c.name[1], UID36);
	EXPECT_TRUE(msg_is(msg, want, "CPU is assigned to another pod"));

	REFUSED_MSG(ENOTEMPTY, cpumgr_nl_configure(NL, &cfg, NULL, NULL));
	EXPECT_STREQ("policy, options and reserved CPUs cannot change while assignments exist: RESET first",
		     msg);

	stale = UINT64_MAX;
	REFUSED_MSG(ESTALE, cpumgr_nl_reset(NL, &stale, NULL));
	EXPECT_EQ(0, strncmp(msg, "generation is stale",
			     strlen("generation is stale")));

	EXPECT_EQ(before, truncated_extacks())
		TH_LOG("the kernel log says \"truncated extack\"");
}

/* An ASSIGN built by hand: each attribute as raw bytes of a length. */
static struct nl_msg *raw_assign(struct cpumgr_nl *nl, const char *uid,
				 size_t uid_len, const char *ctr,
				 size_t ctr_len, const char *cpus,
				 size_t cpus_len)
{
	struct nl_msg *msg = nlmsg_alloc_size(128 * 1024);

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ,
			 cpumgr_nl_family_id(nl), 0, 0, CPUMGR_CMD_ASSIGN,
			 CPUMGR_GENL_VERSION) ||
	    nla_put(msg, CPUMGR_A_POD_UID, uid_len, uid) ||
	    nla_put(msg, CPUMGR_A_CONTAINER, ctr_len, ctr) ||
	    nla_put(msg, CPUMGR_A_CPUS, cpus_len, cpus)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int send_msg(struct cpumgr_nl *nl, struct nl_msg *msg)
{
	int ret = cpumgr_nl_send_raw(nl, nlmsg_hdr(msg));

	nlmsg_free(msg);
	return ret;
}

TEST_F(contract, nul_inside_a_string)
{
	size_t n = strlen(self->c.name[1]) + 1;
	char cpus[16];
	struct nl_msg *m;

	memcpy(cpus, self->c.name[1], n);
	/* The control: the same bytes without the NUL inside pass. */
	m = raw_assign(NL, "abevil", 7, "c", 2, cpus, n);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, send_msg(NL, m));
	ASSERT_EQ(0, cpumgr_nl_release(NL, "abevil", NULL, NULL, NULL));

	m = raw_assign(NL, "ab\0/evil", 9, "c", 2, cpus, n);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = raw_assign(NL, "p", 2, "c\0../x", 7, cpus, n);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = raw_assign(NL, "p", 2, "c", 2, "1\0,2", 5);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	/* Two NULs at the end are a NUL before the end, too. */
	m = raw_assign(NL, "ab\0", 4, "c", 2, cpus, n);
	SFT_REFUSED(NL, EINVAL, send_msg(NL, m));
	m = raw_assign(NL, "ab\0/evil", 9, "c", 2, cpus, n);
	EXPECT_EQ(-EINVAL, send_msg(NL, m));
	EXPECT_STREQ("string has a NUL before its end", cpumgr_nl_errmsg(NL));
	EXPECT_EQ(NULL, sft_read_file(SFT_SYSFS "/pods/ab/c/cpus"));
}

TEST_F(contract, cpulist_n_and_its_limit)
{
	char *possible = sft_read_file("/sys/devices/system/cpu/possible");
	char *online = sft_read_file("/sys/devices/system/cpu/online");
	size_t len = CPUMGR_CPULIST_MAX + 1;
	struct cpumgr_assignment a;
	char msg[256];
	const char *last;
	char *list;

	ASSERT_NE(NULL, possible);
	ASSERT_NE(NULL, online);
	last = strrchr(possible, '-');
	last = last ? last + 1 : possible;
	if (strcmp(possible, online))
		SKIP(return, "possible %s, online %s: N is offline", possible,
		     online);
	memset(&a, 0, sizeof(a));
	ASSERT_EQ(0, cpumgr_nl_assign(NL, "p", "c", "N", 0, NULL, NULL, &a));
	EXPECT_STREQ(last, a.cpus);
	cpumgr_assignment_free(&a);
	ASSERT_EQ(0, cpumgr_nl_release(NL, "p", NULL, NULL, NULL));

	/* Valid syntax, one byte over the limit: "0,0,...,0". */
	list = malloc(len + 2);
	ASSERT_NE(NULL, list);
	for (size_t i = 0; i < len + 1; i++)
		list[i] = i % 2 ? ',' : '0';
	list[len + (len % 2 ? 0 : 1)] = '\0';
	ASSERT_LT((size_t)CPUMGR_CPULIST_MAX, strlen(list));
	REFUSED_MSG(EINVAL, ASSIGN("p", "c", list));
	EXPECT_STREQ("cpulist is longer than 32768 bytes", msg);
	free(list);
	free(possible);
	free(online);
}

/* The next RELEASED event; false when none came. */
/* The next notification of @type, within 5 s of each other. */
static bool next_event(struct cpumgr_nl *nl, int type,
		       struct cpumgr_event *ev)
{
	for (;;) {
		if (cpumgr_nl_recv_event(nl, ev, 5000))
			return false;
		if (ev->type == type)
			return true;
		cpumgr_event_free(ev);
	}
}

static bool next_released(struct cpumgr_nl *nl, struct cpumgr_event *ev)
{
	return next_event(nl, CPUMGR_CMD_RELEASED_NTF, ev);
}

TEST_F(contract, released_last_container_is_the_pod)
{
	struct cpumgr_event ev;

	ASSERT_EQ(0, cpumgr_nl_subscribe(NL));
	ASSERT_EQ(0, ASSIGN("p", "a", self->c.name[1]));
	ASSERT_EQ(0, ASSIGN("p", "b", self->c.name[2]));

	/* One of two: that container. */
	ASSERT_EQ(0, cpumgr_nl_release(NL, "p", "a", NULL, NULL));
	ASSERT_TRUE(next_released(NL, &ev));
	EXPECT_STREQ("p", ev.assignment.pod_uid);
	EXPECT_STREQ("a", ev.assignment.container);
	cpumgr_event_free(&ev);

	/* The last one takes the pod: no CONTAINER. */
	ASSERT_EQ(0, cpumgr_nl_release(NL, "p", "b", NULL, NULL));
	ASSERT_TRUE(next_released(NL, &ev));
	EXPECT_STREQ("p", ev.assignment.pod_uid);
	EXPECT_STREQ("", ev.assignment.container);
	EXPECT_STREQ(self->c.name[2], ev.assignment.cpus);
	cpumgr_event_free(&ev);
	EXPECT_EQ(NULL, sft_read_file(SFT_SYSFS "/pods/p/pod_cgroup"));
}

/*
 * A cgroup named with a carriage return (anyone with a delegated subtree
 * can make one; cgroupfs refuses only newlines) and a comm with a tab:
 * sysfs and events show them escaped.
 */
TEST_F(contract, control_characters_escaped)
{
	const char *dir = CGROOT "/esc\rviolation 1";
	char *text, want[256], path[256];
	struct cpumgr_event ev;
	int ret = -1;

	rmdir(dir);
	ASSERT_EQ(0, mkdir(dir, 0755));
	sft_write_file(CGROOT "/cgroup.subtree_control", "+cpuset");
	ASSERT_EQ(0, ASSIGN("p", "c", self->c.name[1]));
	ASSERT_EQ(0, cpumgr_nl_bind(NL, "p", "c", dir, NULL, NULL, NULL));
	text = sft_read_file(SFT_SYSFS "/pods/p/c/cgroup");
	EXPECT_STREQ(CGROOT "/esc\\x0dviolation 1", text);
	free(text);
	ASSERT_EQ(0, cpumgr_nl_bind(NL, "p", "c", "", NULL, NULL, NULL));

	ASSERT_EQ(0, cpumgr_nl_subscribe(NL));
	ASSERT_EQ(0, prctl(PR_SET_NAME, "ev\til"));
	snprintf(path, sizeof(path), "%s/cpuset.cpus", dir);
	EXPECT_NE(0, sft_write_file(path, self->c.name[1]));
	prctl(PR_SET_NAME, "contract");
	for (;;) {
		ret = cpumgr_nl_recv_event(NL, &ev, 5000);
		if (ret || ev.type == CPUMGR_CMD_VIOLATION_NTF)
			break;
		cpumgr_event_free(&ev);
	}
	ASSERT_EQ(0, ret);
	EXPECT_STREQ("/esc\\x0dviolation 1", ev.assignment.cgroup_path);
	EXPECT_STREQ("ev\\x09il", ev.comm);
	cpumgr_event_free(&ev);
	snprintf(want, sizeof(want), "%s", dir);
	EXPECT_EQ(0, rmdir(want));
}

/*
 * The rule of sysfs for every path the kernel sends: GET_ASSIGNMENT and
 * the ASSIGNED and BOUND notifications carry bound cgroup paths, and
 * GET_STATE and CONFIGURED the cgroup root, with control characters as
 * \xNN, never verbatim.
 */
TEST_F(contract, paths_escaped_in_replies_and_events)
{
	const char *pod = CGROOT "/esc\rpod", *ctr = CGROOT "/esc\rpod/c\x1b";
	const char *want_pod = CGROOT "/esc\\x0dpod";
	const char *want_ctr = CGROOT "/esc\\x0dpod/c\\x1b";
	struct cpumgr_config cfg = { .set = CPUMGR_CFG_CGROUP_ROOT };
	struct cpumgr_assignment a = {};
	struct cpumgr_table st = {};
	struct cpumgr_event ev;

	rmdir(ctr);
	rmdir(pod);
	ASSERT_EQ(0, mkdir(pod, 0755));
	ASSERT_EQ(0, mkdir(ctr, 0755));
	ASSERT_EQ(0, ASSIGN("p", "c", self->c.name[1]));
	ASSERT_EQ(0, cpumgr_nl_subscribe(NL));
	ASSERT_EQ(0, cpumgr_nl_bind(NL, "p", "c", ctr, pod, NULL, NULL));
	ASSERT_TRUE(next_event(NL, CPUMGR_CMD_BOUND_NTF, &ev));
	EXPECT_STREQ(want_ctr, ev.assignment.cgroup_path);
	EXPECT_STREQ(want_pod, ev.assignment.pod_cgroup_path);
	cpumgr_event_free(&ev);
	ASSERT_EQ(0, cpumgr_nl_get_assignment(NL, "p", "c", &a));
	EXPECT_STREQ(want_ctr, a.cgroup_path);
	EXPECT_STREQ(want_pod, a.pod_cgroup_path);
	cpumgr_assignment_free(&a);
	ASSERT_EQ(0, ASSIGN("p", "c", self->c.name[1]));
	ASSERT_TRUE(next_event(NL, CPUMGR_CMD_ASSIGNED_NTF, &ev));
	EXPECT_STREQ(want_ctr, ev.assignment.cgroup_path);
	EXPECT_STREQ(want_pod, ev.assignment.pod_cgroup_path);
	cpumgr_event_free(&ev);

	cfg.cgroup_root = pod;
	ASSERT_EQ(0, cpumgr_nl_configure(NL, &cfg, NULL, NULL));
	ASSERT_TRUE(next_event(NL, CPUMGR_CMD_CONFIGURED_NTF, &ev));
	EXPECT_STREQ(want_pod, ev.table.cgroup_root);
	cpumgr_event_free(&ev);
	ASSERT_EQ(0, cpumgr_nl_get_table(NL, &st));
	EXPECT_STREQ(want_pod, st.cgroup_root);
	cpumgr_table_free(&st);

	cfg.cgroup_root = "";
	EXPECT_EQ(0, cpumgr_nl_configure(NL, &cfg, NULL, NULL));
	EXPECT_EQ(0, cpumgr_nl_bind(NL, "p", "c", "", "", NULL, NULL));
	EXPECT_EQ(0, rmdir(ctr));
	EXPECT_EQ(0, rmdir(pod));
}

/* Fresh cgroups CGROOT/@prefix0 to @prefix(@n - 1), with cpuset files. */
static bool make_cgroups(const char *prefix, int n)
{
	char path[128];

	sft_write_file(CGROOT "/cgroup.subtree_control", "+cpuset");
	for (int g = 0; g < n; g++) {
		snprintf(path, sizeof(path), CGROOT "/%s%d", prefix, g);
		rmdir(path);
		if (mkdir(path, 0755))
			return false;
	}
	return true;
}

/* Remove them; how many could not be. */
static int remove_cgroups(const char *prefix, int n)
{
	char path[128];
	int left = 0;

	for (int g = 0; g < n; g++) {
		snprintf(path, sizeof(path), CGROOT "/%s%d", prefix, g);
		left += rmdir(path) != 0;
	}
	return left;
}

/*
 * A user with cgroups of its own (a delegated subtree) hammers their
 * cpuset.cpus with a CPU another pod holds, from one process per CPU.
 * The violations of one cgroup waiting to be sent are one event, and one
 * user (not root) has at most 16 waiting: the ring does not overflow (no
 * -ENOBUFS for listeners, events_dropped stays) and the listener still
 * hears of the cgroups.  NR_CG 1: one cgroup; more: the writers go round.
 */
static void flood(struct __test_metadata *_metadata,
		  FIXTURE_DATA(contract) *self, int nr_cg)
{
	enum { WRITES = 3000 };
	long dropped0 = -1, dropped1 = -1, violations0 = 0, violations1 = 0;
	int writers = self->c.n < 8 ? self->c.n : 8, seen = 0, ret;
	struct cpumgr_event ev;
	char path[128];

	ASSERT_TRUE(make_cgroups("flood", nr_cg));
	for (int g = 0; g < nr_cg; g++) {
		snprintf(path, sizeof(path), CGROOT "/flood%d/cpuset.cpus", g);
		ASSERT_EQ(0, chown(path, 65534, 65534));
	}
	ASSERT_EQ(0, ASSIGN("p", "c", self->c.name[1]));
	ASSERT_EQ(0, cpumgr_nl_subscribe(NL));
	ASSERT_TRUE(sft_read_long(&dropped0, SFT_SYSFS "/events_dropped"));
	ASSERT_TRUE(sft_read_long(&violations0, SFT_SYSFS "/violations"));

	for (int w = 0; w < writers; w++) {
		cpu_set_t set;
		int fd;

		if (fork())
			continue;
		CPU_ZERO(&set);
		CPU_SET(self->c.cpu[w], &set);
		sched_setaffinity(0, sizeof(set), &set);
		if (setgid(65534) || setuid(65534))
			_exit(1);
		for (int i = 0; i < WRITES / writers; i++) {
			snprintf(path, sizeof(path),
				 CGROOT "/flood%d/cpuset.cpus", i % nr_cg);
			fd = open(path, O_WRONLY);
			if (fd < 0)
				_exit(2);
			(void)!write(fd, self->c.name[1],
				     strlen(self->c.name[1]));
			close(fd);
		}
		_exit(0);
	}
	for (int w = 0; w < writers; w++) {
		int status;

		ASSERT_LT(0, wait(&status));
		EXPECT_EQ(0, status);
	}
	ASSERT_TRUE(sft_read_long(&violations1, SFT_SYSFS "/violations"));
	EXPECT_LE(violations0 + WRITES - writers, violations1);
	for (;;) {
		ret = cpumgr_nl_recv_event(NL, &ev, 2000);
		if (ret)
			break;
		if (ev.type == CPUMGR_CMD_VIOLATION_NTF) {
			EXPECT_EQ(0, strncmp("/flood", ev.assignment.cgroup_path,
					     6));
			seen++;
		}
		cpumgr_event_free(&ev);
	}
	EXPECT_EQ(-EAGAIN, ret);
	ASSERT_TRUE(sft_read_long(&dropped1, SFT_SYSFS "/events_dropped"));
	TH_LOG("%d cgroups: %ld violations, %d events, %ld dropped", nr_cg,
	       violations1 - violations0, seen, dropped1 - dropped0);
	EXPECT_EQ(dropped0, dropped1);
	EXPECT_LT(0, seen);
	EXPECT_EQ(0, remove_cgroups("flood", nr_cg));
}

TEST_F(contract, violation_flood_one_cgroup)
{
	flood(_metadata, self, 1);
}

TEST_F(contract, violation_flood_many_cgroups)
{
	flood(_metadata, self, 300);
}

/*
 * Listeners read events in the order they happened: the violations the
 * cpuset hooks queue (they may not sleep) come before a notification sent
 * later from process context.  The writer runs SCHED_FIFO on one CPU, so
 * the queue's worker, bound to that CPU, has no turn before the ASSIGN:
 * if ASSIGNED did not wait for them, it would overtake the violations.
 */
TEST_F(contract, violations_before_a_later_notification)
{
	enum { NR_CG = 20 };
	struct sched_param fifo = { .sched_priority = 1 }, other = {};
	const char *cpus = self->c.name[1];
	int before = 0, ret, fd, err;
	struct cpumgr_event ev;
	bool assigned = false;
	cpu_set_t one, all;
	char path[64];

	ASSERT_TRUE(make_cgroups("order", NR_CG));
	ASSERT_EQ(0, ASSIGN("p", "c", cpus));
	ASSERT_EQ(0, cpumgr_nl_subscribe(NL));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	CPU_ZERO(&one);
	CPU_SET(self->c.cpu[0], &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_FIFO, &fifo));
	for (int g = 0; g < NR_CG; g++) {
		snprintf(path, sizeof(path), CGROOT "/order%d/cpuset.cpus", g);
		fd = open(path, O_WRONLY);
		err = fd < 0 || write(fd, cpus, strlen(cpus)) >= 0 ? 0 : errno;
		if (fd >= 0)
			close(fd);
		EXPECT_EQ(EBUSY, err);
	}
	ret = ASSIGN("p", "c", cpus);
	EXPECT_EQ(0, sched_setscheduler(0, SCHED_OTHER, &other));
	EXPECT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
	ASSERT_EQ(0, ret);
	while (!assigned && !cpumgr_nl_recv_event(NL, &ev, 2000)) {
		if (ev.type == CPUMGR_CMD_ASSIGNED_NTF)
			assigned = true;
		else if (ev.type == CPUMGR_CMD_VIOLATION_NTF &&
			 !strncmp("/order", ev.assignment.cgroup_path, 6))
			before++;
		cpumgr_event_free(&ev);
	}
	EXPECT_TRUE(assigned);
	EXPECT_EQ(NR_CG, before);
	EXPECT_EQ(0, remove_cgroups("order", NR_CG));
}

/* mkdir -p of @path; 0 or -errno. */
static int mkdirs(char *path)
{
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}

static void rmdirs(char *path, size_t keep)
{
	char *s;

	while (strlen(path) > keep) {
		rmdir(path);
		s = strrchr(path, '/');
		if (!s)
			break;
		*s = '\0';
	}
}

/*
 * Send a dump of the assignments on a fresh socket, whose first dump
 * message is one page (it has received nothing yet), and return what
 * the dump ends with: the NLMSG_DONE errno, or 1 when an entry came.
 */
static int raw_dump_end(int family)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr genl;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = family,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = 1,
		},
		.genl = {
			.cmd = CPUMGR_CMD_GET_ASSIGNMENT,
			.version = CPUMGR_GENL_VERSION,
		},
	};
	static char buf[65536];
	struct nlmsghdr *nlh;
	int fd, len, ret = -EPROTO;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) < 0) {
		ret = -errno;
		goto out;
	}
	len = recv(fd, buf, sizeof(buf), 0);
	if (len < 0) {
		ret = -errno;
		goto out;
	}
	for (nlh = (void *)buf; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
		if (nlh->nlmsg_type == family) {
			ret = 1;
			break;
		}
		if (nlh->nlmsg_type == NLMSG_DONE ||
		    nlh->nlmsg_type == NLMSG_ERROR) {
			ret = *(int *)NLMSG_DATA(nlh);
			break;
		}
	}
out:
	close(fd);
	return ret;
}

/*
 * An assignment bound to cgroups with paths of some 2,500 bytes each
 * does not fit a page: its dump must fail (-EMSGSIZE), not end as if the
 * table were empty.  Through the library (large buffers) it still reads.
 */
TEST_F(contract, dump_entry_bigger_than_a_message)
{
	char pod[4096], ctr[4096], name[201];
	struct cpumgr_assignment *list = NULL;
	size_t n = 0, base = strlen(CGROOT);

	memset(name, 'd', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	strcpy(pod, CGROOT);
	for (int i = 0; i < 12; i++)
		snprintf(pod + strlen(pod), sizeof(pod) - strlen(pod), "/%s",
			 name);
	snprintf(ctr, sizeof(ctr), "%s/c", pod);
	ASSERT_EQ(0, mkdirs(ctr));
	ASSERT_EQ(0, ASSIGN("p", "c", self->c.name[1]));
	ASSERT_EQ(0, cpumgr_nl_bind(NL, "p", "c", ctr, pod, NULL, NULL));

	EXPECT_EQ(-EMSGSIZE, raw_dump_end(cpumgr_nl_family_id(NL)));
	ASSERT_LE(0, cpumgr_nl_list_assignments(NL, &list, &n));
	EXPECT_EQ(1U, n);
	cpumgr_assignments_free(list, n);

	ASSERT_EQ(0, cpumgr_nl_release(NL, "p", NULL, NULL, NULL));
	rmdirs(ctr, base);
}

/*
 * Enough assignments for a dump of many messages (containers of one pod
 * may share CPUs, CPUMGR_POD_CONTAINERS_MAX of them; names of the
 * longest): each comes exactly once, in table order.
 */
TEST_F(contract, dump_of_many_messages)
{
	enum { PODS = 3, CTRS = CPUMGR_POD_CONTAINERS_MAX };
	struct cpumgr_assignment *list = NULL;
	bool seen[PODS][CTRS];
	char uid[48], ctr[CPUMGR_CONTAINER_MAX + 1];
	size_t n = 0;

	memset(seen, 0, sizeof(seen));
	for (int p = 0; p < PODS; p++) {
		snprintf(uid, sizeof(uid), "%s-%d", UID36, p);
		for (int c = 0; c < CTRS; c++) {
			snprintf(ctr, sizeof(ctr), "c%d-%.*s", c,
				 CPUMGR_CONTAINER_MAX - 5,
				 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
			ASSERT_EQ(0, ASSIGN(uid, ctr, self->c.name[1 + p]))
				TH_LOG("%s/%s: %s", uid, ctr,
				       cpumgr_nl_errmsg(NL));
		}
	}
	ASSERT_LE(0, cpumgr_nl_list_assignments(NL, &list, &n));
	EXPECT_EQ((size_t)PODS * CTRS, n);
	for (size_t i = 0; i < n; i++) {
		int p = -1, c = -1;

		ASSERT_EQ(1, sscanf(list[i].pod_uid + strlen(UID36), "-%d",
				    &p));
		ASSERT_EQ(1, sscanf(list[i].container, "c%d", &c));
		ASSERT_TRUE(p >= 0 && p < PODS && c >= 0 && c < CTRS);
		EXPECT_FALSE(seen[p][c]);
		seen[p][c] = true;
		/* Table order: pods and their containers as assigned. */
		EXPECT_EQ(i, (size_t)(p * CTRS + c));
	}
	cpumgr_assignments_free(list, n);
}

TEST_HARNESS_MAIN
