// SPDX-License-Identifier: GPL-2.0
/*
 * A netlink fuzzer for the cpumgr family.  Two workers send random and
 * mutated requests over every command at the same time: one as root
 * (CAP_SYS_ADMIN), one as uid 65534 (nobody, no capabilities).  Each
 * request starts from a valid one (right attributes, plausible values)
 * and gets zero or more mutations: attribute types swapped, lengths cut
 * or lied about, nesting flags flipped, NULs moved or removed, huge and
 * negative integers, cpulists of odd syntax, strings at and over their
 * limits, unknown attributes, random netlink flags (NLM_F_DUMP included),
 * random commands and versions.
 *
 * Every request must get its answer (an ACK, an error or a dump's end)
 * within a few seconds.  The unprivileged worker must never change the
 * table (every mutating command it sends is refused).  Every 1,000 of
 * its requests, and at the end, the root worker checks the table's
 * invariants: no CPU in two pods' assignments, the exclusive set is the
 * union of the assignments, shared = online - exclusive (- reserved
 * under strict-cpu-reservation), the counts agree with the dump, and
 * sysfs agrees with GET_STATE and the dump.  The guest runner fails the
 * run on any kernel splat in the console log.
 *
 * CPUMGR_FUZZ_MSGS (default 100000) is the total of requests;
 * CPUMGR_FUZZ_SEED replays a run (the seed is printed).
 */
#include <errno.h>
#include <grp.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

#define FUZZ_BUF	(128 * 1024)
#define FUZZ_CG		"/sys/fs/cgroup/cpumgr-fuzz"
#define NR_ERRNO	256
#define NR_CMD		(CPUMGR_CMD_RESET + 2)	/* the last: any other */
#define CHECK_EVERY	1000
#define REPLY_TIMEOUT_S	10

/* What a worker saw; in shared memory. */
struct fuzz_stats {
	unsigned long sent, acked, errors, dumps, dump_msgs, replies;
	unsigned long timeouts, checks, fails;
	unsigned long by_cmd[NR_CMD];
	unsigned long by_errno[NR_ERRNO];
	unsigned long unpriv_changes;	/* mutating requests that succeeded */
	char why[512];
};

struct fuzz_shared {
	struct fuzz_stats w[2];		/* 0 root, 1 nobody */
};

/* xorshift64*: small, fast, and the same on every machine. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint32_t rn(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static bool chance(int percent)
{
	return rn(100) < (uint32_t)percent;
}

/* A request under construction. */
struct req {
	uint8_t *buf;
	size_t len;		/* bytes used */
	int cmd;
};

static int nr_cpus_online;
static int cpu_ids[SFTEST_MAX_CPUS];

static struct nlattr *put(struct req *r, uint16_t type, const void *data,
			  size_t len)
{
	struct nlattr *a;
	size_t total = NLA_HDRLEN + NLA_ALIGN(len);

	if (len > 0xffff - NLA_HDRLEN || r->len + total > FUZZ_BUF)
		return NULL;
	a = (struct nlattr *)(r->buf + r->len);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	memset((uint8_t *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	r->len += total;
	return a;
}

static void put_str(struct req *r, uint16_t type, const char *s)
{
	put(r, type, s, strlen(s) + 1);
}

static void put_u32(struct req *r, uint16_t type, uint32_t v)
{
	put(r, type, &v, sizeof(v));
}

static void put_u64(struct req *r, uint16_t type, uint64_t v)
{
	put(r, type, &v, sizeof(v));
}

/* Cpulists: mostly valid, often odd. */
static void cpulist(char *out, size_t size)
{
	static const char *const odd[] = {
		"", "N", "0-N", "N-0", "0-3:1/2", "0-7:2/4", " 1", "1 ", "-1",
		"4294967296", "4294967295", "2147483648", "0x1", "1-", "-",
		"0,,1", "00001", "0-0", "1-0", "0-1023", "0-8191", "0-65535",
		",", "1,", ",1", "a", "1-2-3", "3-1", "1\n", "0-1,0-1,0-1",
		"99999999999999999999", "0-4294967295", "1:1/1", "0-3:0/1",
		"0-3:5/1", "\xff", "1\t2", "+1",
	};
	size_t n = 0;
	int k;

	if (chance(30)) {
		snprintf(out, size, "%s", odd[rn(sizeof(odd) / sizeof(odd[0]))]);
		return;
	}
	out[0] = '\0';
	if (!nr_cpus_online)
		return;
	k = 1 + rn(3);
	for (int i = 0; i < k && n + 24 < size; i++) {
		int a = cpu_ids[rn(nr_cpus_online)];

		if (chance(20))
			n += snprintf(out + n, size - n, "%s%d-%d", i ? "," : "",
				      a, a + (int)rn(3));
		else
			n += snprintf(out + n, size - n, "%s%d", i ? "," : "",
				      a);
	}
}

static const char *const pod_names[] = { "p0", "p1", "p2", "p3", "pod-a" };
static const char *const ctr_names[] = { "c0", "c1", "app", "init" };

/* Names: mostly from a few, sometimes at and over the limits. */
static void name(char *out, size_t size, bool pod)
{
	size_t len;

	switch (rn(10)) {
	case 0:
		len = rn(2) ? (pod ? 64 : 63) : (pod ? 65 : 64);
		len = len < size ? len : size - 1;
		memset(out, pod ? 'u' : 'c', len);
		out[len] = '\0';
		return;
	case 1: {
		static const char *const odd[] = {
			"", ".", "..", "a/b", "A", "-x", "x-", "\x01", "a\nb",
			"\xc3\xa9", "c\x7f", "a b",
		};
		snprintf(out, size, "%s", odd[rn(sizeof(odd) / sizeof(odd[0]))]);
		return;
	}
	default:
		snprintf(out, size, "%s", pod ? pod_names[rn(5)] : ctr_names[rn(4)]);
	}
}

static void cgroup_path(char *out, size_t size)
{
	static const char *const paths[] = {
		"", "/sys/fs/cgroup", FUZZ_CG, FUZZ_CG "/a", FUZZ_CG "/b",
		FUZZ_CG "/a/x", FUZZ_CG "/nope", "relative", "/", "/proc",
		FUZZ_CG "/a/../b", FUZZ_CG "//a/",
		"/sys/fs/cgroup/cpumgr-fuzz/a/cgroup.procs",
	};

	snprintf(out, size, "%s", paths[rn(sizeof(paths) / sizeof(paths[0]))]);
}

static uint32_t odd_u32(uint32_t valid_max)
{
	static const uint32_t odd[] = {
		0, 1, 2, 3, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 64,
		0x3f, 0x40, 0xffff,
	};

	return chance(50) ? rn(valid_max + 1) : odd[rn(sizeof(odd) / 4)];
}

/* The valid-looking attributes of one command. */
static void fill(struct req *r, int cmd)
{
	char s[256];

	switch (cmd) {
	case CPUMGR_CMD_CONFIGURE:
		if (chance(70))
			put_u32(r, CPUMGR_A_POLICY, chance(80) ?
				CPUMGR_POLICY_STATIC : odd_u32(CPUMGR_POLICY_MAX));
		if (chance(30))
			put_u32(r, CPUMGR_A_OPTIONS, chance(70) ?
				rn(CPUMGR_OPT_ALL + 1) : odd_u32(CPUMGR_OPT_ALL));
		if (chance(40)) {
			if (chance(50))
				put_str(r, CPUMGR_A_RESERVED_CPUS, "");
			else {
				cpulist(s, sizeof(s));
				put_str(r, CPUMGR_A_RESERVED_CPUS, s);
			}
		}
		if (chance(20))
			put_u32(r, CPUMGR_A_ENFORCE, odd_u32(CPUMGR_ENFORCE_MAX));
		if (chance(20))
			put_u32(r, CPUMGR_A_HOTPLUG, odd_u32(CPUMGR_HOTPLUG_MAX));
		if (chance(10)) {
			cgroup_path(s, sizeof(s));
			put_str(r, CPUMGR_A_CGROUP_ROOT, s);
		}
		break;
	case CPUMGR_CMD_ASSIGN:
		name(s, sizeof(s), true);
		put_str(r, CPUMGR_A_POD_UID, s);
		name(s, sizeof(s), false);
		put_str(r, CPUMGR_A_CONTAINER, s);
		cpulist(s, sizeof(s));
		put_str(r, CPUMGR_A_CPUS, s);
		if (chance(20))
			put_u32(r, CPUMGR_A_FLAGS, odd_u32(CPUMGR_ASSIGNMENT_F_USER));
		break;
	case CPUMGR_CMD_RELEASE:
		name(s, sizeof(s), true);
		put_str(r, CPUMGR_A_POD_UID, s);
		if (chance(70)) {
			name(s, sizeof(s), false);
			put_str(r, CPUMGR_A_CONTAINER, s);
		}
		break;
	case CPUMGR_CMD_BIND:
		name(s, sizeof(s), true);
		put_str(r, CPUMGR_A_POD_UID, s);
		if (chance(70)) {
			name(s, sizeof(s), false);
			put_str(r, CPUMGR_A_CONTAINER, s);
			cgroup_path(s, sizeof(s));
			put_str(r, CPUMGR_A_CGROUP_PATH, s);
		}
		if (chance(40)) {
			cgroup_path(s, sizeof(s));
			put_str(r, CPUMGR_A_POD_CGROUP_PATH, s);
		}
		break;
	case CPUMGR_CMD_GET_ASSIGNMENT:
		if (chance(70)) {
			name(s, sizeof(s), true);
			put_str(r, CPUMGR_A_POD_UID, s);
			name(s, sizeof(s), false);
			put_str(r, CPUMGR_A_CONTAINER, s);
		}
		break;
	case CPUMGR_CMD_RESTORE: {
		int n = rn(5);

		for (int i = 0; i < n; i++) {
			size_t start = r->len;
			struct nlattr *nest;

			nest = put(r, CPUMGR_A_ASSIGNMENT | NLA_F_NESTED, NULL, 0);
			if (!nest)
				break;
			name(s, sizeof(s), true);
			put_str(r, CPUMGR_A_POD_UID, s);
			name(s, sizeof(s), false);
			put_str(r, CPUMGR_A_CONTAINER, s);
			cpulist(s, sizeof(s));
			put_str(r, CPUMGR_A_CPUS, s);
			if (chance(20))
				put_u32(r, CPUMGR_A_FLAGS,
					odd_u32(CPUMGR_ASSIGNMENT_F_USER));
			if (chance(15)) {
				cgroup_path(s, sizeof(s));
				put_str(r, CPUMGR_A_CGROUP_PATH, s);
			}
			if (chance(10)) {
				cgroup_path(s, sizeof(s));
				put_str(r, CPUMGR_A_POD_CGROUP_PATH, s);
			}
			nest = (struct nlattr *)(r->buf + start);
			nest->nla_len = r->len - start;
		}
		break;
	}
	default:
		break;
	}
	if (cmd >= CPUMGR_CMD_CONFIGURE && cmd <= CPUMGR_CMD_RESET &&
	    cmd != CPUMGR_CMD_GET_ASSIGNMENT && chance(10))
		put_u64(r, CPUMGR_A_GENERATION,
			chance(50) ? rnd() % 4096 : rnd());
}

/* The attributes after the genetlink header, as offsets. */
static int attr_offsets(struct req *r, size_t first, size_t *off, int max)
{
	size_t o = first;
	int n = 0;

	while (o + NLA_HDRLEN <= r->len && n < max) {
		struct nlattr *a = (struct nlattr *)(r->buf + o);

		if (a->nla_len < NLA_HDRLEN)
			break;
		off[n++] = o;
		if (a->nla_type & NLA_F_NESTED && chance(50))
			o += NLA_HDRLEN;	/* into the nest */
		else
			o += NLA_ALIGN(a->nla_len);
	}
	return n;
}

/* One mutation of a built request. */
static void mutate(struct req *r, size_t first)
{
	size_t off[64];
	int n = attr_offsets(r, first, off, 64);
	struct nlattr *a = n ? (struct nlattr *)(r->buf + off[rn(n)]) : NULL;
	uint8_t *p = a ? (uint8_t *)a + NLA_HDRLEN : NULL;
	size_t plen = a && a->nla_len > NLA_HDRLEN ? a->nla_len - NLA_HDRLEN : 0;
	char s[80];

	/* A length already lied about: stay inside the message. */
	if (p && p + plen > r->buf + r->len)
		plen = r->buf + r->len - p;

	switch (rn(16)) {
	case 0:	/* another attribute type */
		if (a)
			a->nla_type = (a->nla_type & NLA_F_NESTED) |
				      rn(CPUMGR_A_MAX + 3);
		break;
	case 1:	/* a shorter length */
		if (a && a->nla_len > NLA_HDRLEN)
			a->nla_len -= 1 + rn(a->nla_len - NLA_HDRLEN);
		break;
	case 2:	/* a length past the end of the message */
		if (a)
			a->nla_len += 1 + rn(64);
		break;
	case 3:	/* nesting flags */
		if (a)
			a->nla_type ^= chance(70) ? NLA_F_NESTED :
				       NLA_F_NET_BYTEORDER;
		break;
	case 4:	/* the NUL removed */
		if (plen)
			p[plen - 1] = 'x';
		break;
	case 5:	/* a NUL inside */
		if (plen > 1)
			p[rn(plen - 1)] = '\0';
		break;
	case 6:	/* random bytes in the payload */
		for (size_t i = 0; plen && i < 1 + rn(4); i++)
			p[rn(plen)] = rnd();
		break;
	case 7:	/* a huge or negative integer of some size */
		switch (rn(4)) {
		case 0:
			put_u32(r, rn(CPUMGR_A_MAX + 1), odd_u32(0));
			break;
		case 1:
			put_u64(r, rn(CPUMGR_A_MAX + 1), chance(50) ? ~0ULL :
				1ULL << 63);
			break;
		case 2: {
			uint8_t v = rnd();

			put(r, rn(CPUMGR_A_MAX + 1), &v, 1);
			break;
		}
		default: {
			uint16_t v = rnd();

			put(r, rn(CPUMGR_A_MAX + 1), &v, 2);
		}
		}
		break;
	case 8:	/* a long string in a random attribute */
	{
		static char big[65536];
		size_t len = chance(50) ? 4095 + rn(4) : rn(sizeof(big) - 64);

		if (!big[0])
			memset(big, '1', sizeof(big));
		big[len] = '\0';
		if (chance(50)) {
			for (size_t i = 1; i + 1 < len; i += 2)
				big[i] = ',';
		}
		put(r, chance(50) ? CPUMGR_A_CPUS : rn(CPUMGR_A_MAX + 2), big,
		    len + 1);
		memset(big, '1', sizeof(big));
		break;
	}
	case 9:	/* an unknown attribute */
		put_u32(r, CPUMGR_A_MAX + 1 + rn(200), rnd());
		break;
	case 10: /* an odd cpulist anywhere */
		cpulist(s, sizeof(s));
		put_str(r, rn(CPUMGR_A_MAX + 1), s);
		break;
	case 11: /* an empty attribute */
		put(r, rn(CPUMGR_A_MAX + 1) | (chance(30) ? NLA_F_NESTED : 0),
		    NULL, 0);
		break;
	case 12: /* an attribute twice */
		if (a && r->len + NLA_ALIGN(a->nla_len) <= FUZZ_BUF &&
		    a->nla_len >= NLA_HDRLEN &&
		    (uint8_t *)a + a->nla_len <= r->buf + r->len) {
			memmove(r->buf + r->len, a, a->nla_len);
			r->len += NLA_ALIGN(a->nla_len);
		}
		break;
	case 13: /* a nest of garbage */
	{
		uint8_t g[48];

		for (size_t i = 0; i < sizeof(g); i++)
			g[i] = rnd();
		put(r, CPUMGR_A_ASSIGNMENT | (chance(50) ? NLA_F_NESTED : 0),
		    g, rn(sizeof(g)));
		break;
	}
	case 14: /* trailing bytes shorter than an attribute header */
		if (r->len + 4 <= FUZZ_BUF) {
			memset(r->buf + r->len, rnd(), 4);
			r->len += 1 + rn(3);
		}
		break;
	default: /* cut the message */
		if (r->len > first)
			r->len -= rn(r->len - first + 1);
	}
}

/* Build one request of command cmd (a random one when < 0). */
static void build(struct req *r, int cmd, uint32_t seq, bool *dump)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)r->buf;
	struct genlmsghdr *g;
	size_t first = NLMSG_HDRLEN + GENL_HDRLEN;
	int muts;

	memset(r->buf, 0, first);
	r->len = first;
	r->cmd = cmd;
	g = (struct genlmsghdr *)(r->buf + NLMSG_HDRLEN);
	g->cmd = cmd;
	g->version = chance(97) ? CPUMGR_GENL_VERSION : rnd();
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	*dump = cmd == CPUMGR_CMD_GET_TOPOLOGY ||
		(cmd == CPUMGR_CMD_GET_ASSIGNMENT && chance(50));
	if (chance(5))
		*dump = !*dump;
	if (*dump)
		nlh->nlmsg_flags |= NLM_F_DUMP;
	if (chance(5))
		nlh->nlmsg_flags |= rnd() & (NLM_F_ECHO | NLM_F_EXCL |
					     NLM_F_CREATE | NLM_F_APPEND |
					     NLM_F_ATOMIC | NLM_F_MULTI);
	nlh->nlmsg_seq = seq;
	fill(r, cmd);
	muts = chance(45) ? 0 : 1 + rn(3);
	for (int i = 0; i < muts; i++)
		mutate(r, first);
	if (r->len < NLMSG_HDRLEN + 1)
		r->len = NLMSG_HDRLEN + 1;	/* a genetlink header cut short */
	nlh->nlmsg_len = r->len;
}

static int nl_socket(void)
{
	struct timeval tv = { .tv_sec = REPLY_TIMEOUT_S };
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, fd, big = 1 << 20;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	/* Extended ACKs, and errors without the request copied back. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Read until the answer to seq: 0 (ACK or a dump's end), -errno, or 1 on
 * a timeout.  *msgs counts the replies that came with it.
 */
static int answer(int fd, uint32_t seq, uint8_t *buf, unsigned long *msgs)
{
	for (;;) {
		ssize_t n = recv(fd, buf, FUZZ_BUF, 0);
		struct nlmsghdr *h;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? 1 : -errno;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				return e->error;
			}
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			(*msgs)++;
		}
	}
}

static void fail(struct fuzz_stats *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct fuzz_stats *st, const char *fmt, ...)
{
	va_list ap;

	st->fails++;
	if (st->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(st->why, sizeof(st->why), fmt, ap);
	va_end(ap);
}

static bool cpus_of(const char *list, bool *map)
{
	memset(map, 0, SFTEST_MAX_CPUS * sizeof(*map));
	return list && sft_parse_cpulist(list, map);
}

static bool same_set(const bool *a, const bool *b)
{
	return !memcmp(a, b, SFTEST_MAX_CPUS * sizeof(*a));
}

/* The sysfs file `name` holds the cpulist `want`. */
static bool sysfs_cpus_eq(const char *path, const bool *want)
{
	bool got[SFTEST_MAX_CPUS];
	char *s = sft_read_file("%s", path);
	bool ok = s && cpus_of(s, got) && same_set(got, want);

	free(s);
	return ok;
}

/* The invariants of the table; false (and why) when one is broken. */
static bool table_ok(struct cpumgr_nl *nl, struct fuzz_stats *st)
{
	static bool owner_set[SFTEST_MAX_CPUS];
	static int owner[SFTEST_MAX_CPUS];
	bool onl[SFTEST_MAX_CPUS], excl[SFTEST_MAX_CPUS], shr[SFTEST_MAX_CPUS];
	bool res[SFTEST_MAX_CPUS], m[SFTEST_MAX_CPUS], u[SFTEST_MAX_CPUS];
	struct sft_table t;
	char path[512];
	uint32_t pods = 0;
	bool ok = false;
	int err;

	st->checks++;
	err = sft_table_read(nl, &t);
	if (err) {
		fail(st, "reading the table: %s", strerror(-err));
		return false;
	}
	memset(owner_set, 0, sizeof(owner_set));
	memset(u, 0, sizeof(u));
	if (!cpus_of(t.st.online_cpus, onl) || !cpus_of(t.st.exclusive_cpus, excl) ||
	    !cpus_of(t.st.shared_cpus, shr) || !cpus_of(t.st.reserved_cpus, res)) {
		fail(st, "GET_STATE: a cpulist that does not parse");
		goto out;
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct cpumgr_assignment *a = &t.a[i];

		if (!i || strcmp(a->pod_uid, t.a[i - 1].pod_uid))
			pods++;
		if (!cpus_of(a->cpus, m)) {
			fail(st, "%s/%s: cpus \"%s\" do not parse", a->pod_uid,
			     a->container, a->cpus ?: "(none)");
			goto out;
		}
		for (int c = 0; c < SFTEST_MAX_CPUS; c++) {
			if (!m[c])
				continue;
			u[c] = true;
			if (owner_set[c] &&
			    strcmp(t.a[owner[c]].pod_uid, a->pod_uid)) {
				fail(st, "CPU %d in pods %s and %s", c,
				     t.a[owner[c]].pod_uid, a->pod_uid);
				goto out;
			}
			owner_set[c] = true;
			owner[c] = i;
			if (res[c]) {
				fail(st, "reserved CPU %d assigned to %s/%s", c,
				     a->pod_uid, a->container);
				goto out;
			}
		}
		snprintf(path, sizeof(path), SFT_SYSFS "/pods/%s/%s/cpus",
			 a->pod_uid, a->container);
		if (!sysfs_cpus_eq(path, m)) {
			fail(st, "%s disagrees with the dump (%s)", path, a->cpus);
			goto out;
		}
	}
	if (!same_set(u, excl)) {
		fail(st, "exclusive %s is not the union of the assignments",
		     t.st.exclusive_cpus);
		goto out;
	}
	for (int c = 0; c < SFTEST_MAX_CPUS; c++) {
		bool want = onl[c] && !excl[c] &&
			    !(res[c] && t.st.options &
			      CPUMGR_OPT_STRICT_CPU_RESERVATION);

		if (shr[c] != want) {
			fail(st, "shared %s: CPU %d (online %s, exclusive %s, reserved %s, options %#x)",
			     t.st.shared_cpus, c, t.st.online_cpus,
			     t.st.exclusive_cpus, t.st.reserved_cpus,
			     t.st.options);
			goto out;
		}
	}
	if (t.st.nr_assignments != t.n || t.st.nr_pods != pods) {
		fail(st, "GET_STATE counts %u pods %u assignments, the dump %u and %zu",
		     t.st.nr_pods, t.st.nr_assignments, pods, t.n);
		goto out;
	}
	if (!sysfs_cpus_eq(SFT_SYSFS "/exclusive_cpus", excl) ||
	    !sysfs_cpus_eq(SFT_SYSFS "/shared_cpus", shr) ||
	    !sysfs_cpus_eq(SFT_SYSFS "/reserved_cpus", res)) {
		fail(st, "sysfs CPU sets disagree with GET_STATE");
		goto out;
	}
	ok = true;
out:
	sft_table_free(&t);
	return ok;
}

static const int cmds[] = {
	CPUMGR_CMD_GET_TOPOLOGY, CPUMGR_CMD_GET_STATE, CPUMGR_CMD_CONFIGURE,
	CPUMGR_CMD_ASSIGN, CPUMGR_CMD_RELEASE, CPUMGR_CMD_BIND,
	CPUMGR_CMD_GET_ASSIGNMENT, CPUMGR_CMD_RESTORE, CPUMGR_CMD_RESET,
};
/* Weights of cmds[], then of any other command number. */
static const int weights[] = { 4, 8, 10, 30, 14, 10, 12, 10, 1, 1 };

static int pick_cmd(void)
{
	int total = 0, x;

	for (size_t i = 0; i < sizeof(weights) / sizeof(weights[0]); i++)
		total += weights[i];
	x = rn(total);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (x < weights[i])
			return cmds[i];
		x -= weights[i];
	}
	return chance(50) ? 0 : CPUMGR_CMD_RESET + 1 + rn(250);
}

static bool mutating(int cmd)
{
	return cmd == CPUMGR_CMD_CONFIGURE || cmd == CPUMGR_CMD_ASSIGN ||
	       cmd == CPUMGR_CMD_RELEASE || cmd == CPUMGR_CMD_BIND ||
	       cmd == CPUMGR_CMD_RESTORE || cmd == CPUMGR_CMD_RESET;
}

static void run_worker(struct fuzz_stats *st, int family, unsigned long msgs,
		       bool root)
{
	static uint8_t sbuf[FUZZ_BUF], rbuf[FUZZ_BUF];
	struct cpumgr_nl *nl = NULL;
	struct req r = { .buf = sbuf };
	int fd;

	fd = nl_socket();
	if (fd < 0) {
		fail(st, "socket: %s", strerror(errno));
		return;
	}
	nl = sft_nl_open();
	if (!nl) {
		fail(st, "cannot open the library's connection");
		close(fd);
		return;
	}
	for (unsigned long i = 0; i < msgs; i++) {
		int cmd = pick_cmd(), ret;
		unsigned long got = 0;
		bool dump;

		build(&r, cmd, i + 1, &dump);
		((struct nlmsghdr *)r.buf)->nlmsg_type = family;
		if (send(fd, r.buf, r.len, 0) < 0) {
			fail(st, "send %lu: %s", i, strerror(errno));
			break;
		}
		st->sent++;
		st->by_cmd[cmd <= CPUMGR_CMD_RESET ? cmd : NR_CMD - 1]++;
		ret = answer(fd, i + 1, rbuf, &got);
		if (ret == 1) {
			st->timeouts++;
			fail(st, "no answer in %d s to request %lu (cmd %d)",
			     REPLY_TIMEOUT_S, i, cmd);
			break;
		}
		if (!root && !ret && mutating(cmd)) {
			st->unpriv_changes++;
			fail(st, "uid 65534: request %lu (cmd %d) succeeded",
			     i, cmd);
		}
		if (ret < 0) {
			st->errors++;
			st->by_errno[-ret < NR_ERRNO ? -ret : 0]++;
		} else {
			st->acked++;
			st->by_errno[0]++;
		}
		st->replies += got;
		if (dump) {
			st->dumps++;
			st->dump_msgs += got;
		}
		if (root && (i + 1) % CHECK_EVERY == 0 && !table_ok(nl, st))
			break;
		if (root && (i + 1) % 20000 == 0) {
			printf("# root: %lu requests, %lu table checks\n", i + 1,
			       st->checks);
			fflush(stdout);
		}
	}
	cpumgr_nl_close(nl);
	close(fd);
}

static const char *cmd_name(int cmd)
{
	static const char *const names[] = {
		"UNSPEC", "GET_TOPOLOGY", "GET_STATE", "CONFIGURE", "ASSIGN",
		"RELEASE", "BIND", "GET_ASSIGNMENT", "RESTORE", "RESET",
		"other",
	};

	return names[cmd];
}

static void report(const char *who, const struct fuzz_stats *st, double s)
{
	char line[1024];
	size_t n = 0;

	printf("# %s: %lu requests in %.1f s (%.0f/s): %lu answered 0, %lu errors, %lu dumps (%lu messages), %lu replies, %lu table checks\n",
	       who, st->sent, s, s > 0 ? st->sent / s : 0, st->acked,
	       st->errors, st->dumps, st->dump_msgs, st->replies, st->checks);
	for (int c = 0; c < NR_CMD; c++) {
		if (st->by_cmd[c])
			n += snprintf(line + n, sizeof(line) - n, " %s=%lu",
				      cmd_name(c), st->by_cmd[c]);
	}
	printf("# %s: by command:%s\n", who, line);
	n = 0;
	line[0] = '\0';
	for (int e = 1; e < NR_ERRNO; e++) {
		if (st->by_errno[e] && n < sizeof(line))
			n += snprintf(line + n, sizeof(line) - n, " %s=%lu",
				      strerrorname_np(e) ?: "?", st->by_errno[e]);
	}
	printf("# %s: by errno:%s\n", who, line);
	fflush(stdout);
}

static void set_nobody(void)
{
	/* No groups, uid and gid 65534: every capability dropped. */
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("# dropping privileges");
		_exit(2);
	}
}

TEST(fuzz)
{
	unsigned long msgs = 100000, unpriv, mut = 0;
	const struct fuzz_stats *u;
	struct fuzz_stats last = { 0 };
	struct fuzz_shared *sh;
	struct cpumgr_nl *nl;
	struct sft_cpus c;
	struct timespec t0, t1;
	uint64_t seed;
	pid_t pid[2];
	double secs;
	char *e;

	e = getenv("CPUMGR_FUZZ_MSGS");
	if (e)
		msgs = strtoul(e, NULL, 0);
	e = getenv("CPUMGR_FUZZ_SEED");
	if (e) {
		seed = strtoull(e, NULL, 0);
	} else {
		clock_gettime(CLOCK_REALTIME, &t0);
		seed = (uint64_t)t0.tv_sec * 1000000007ULL ^ t0.tv_nsec ^ getpid();
	}
	if (!seed)
		seed = 1;
	printf("# seed %#llx (CPUMGR_FUZZ_SEED=%#llx replays it), %lu requests\n",
	       (unsigned long long)seed, (unsigned long long)seed, msgs);
	fflush(stdout);

	ASSERT_TRUE(sft_cpus_read(&c, 2));
	nr_cpus_online = c.n;
	memcpy(cpu_ids, c.cpu, sizeof(cpu_ids));
	mkdir(FUZZ_CG, 0755);
	mkdir(FUZZ_CG "/a", 0755);
	mkdir(FUZZ_CG "/a/x", 0755);
	mkdir(FUZZ_CG "/b", 0755);

	nl = sft_nl_open();
	ASSERT_NE(NULL, nl);
	ASSERT_EQ(0, sft_static(nl));

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	memset(sh, 0, sizeof(*sh));
	unpriv = msgs / 4;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int w = 0; w < 2; w++) {
		pid[w] = fork();
		ASSERT_LE(0, pid[w]);
		if (!pid[w]) {
			/* Each worker its own stream, both from the seed. */
			rng_state = seed ^ (0x9e3779b97f4a7c15ULL * (w + 1));
			if (w)
				set_nobody();
			run_worker(&sh->w[w], cpumgr_nl_family_id(nl),
				   w ? unpriv : msgs - unpriv, !w);
			_exit(0);
		}
	}
	for (int w = 0; w < 2; w++) {
		int status;

		ASSERT_EQ(pid[w], waitpid(pid[w], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("worker %d ended with status %#x", w, status);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	report("root", &sh->w[0], secs);
	report("nobody", &sh->w[1], secs);
	printf("# total: %lu requests in %.1f s, %.0f/s\n",
	       sh->w[0].sent + sh->w[1].sent, secs,
	       (sh->w[0].sent + sh->w[1].sent) / secs);
	for (int w = 0; w < 2; w++) {
		EXPECT_EQ(0UL, sh->w[w].fails) TH_LOG("%s worker: %s",
						     w ? "nobody" : "root",
						     sh->w[w].why);
	}
	EXPECT_EQ(msgs - unpriv, sh->w[0].sent);
	EXPECT_EQ(unpriv, sh->w[1].sent);

	/* Every request of the unprivileged worker that changes the table
	 * was refused: EPERM, or an error of the policy validation that
	 * comes before the permission check. */
	u = &sh->w[1];
	for (int cmd = 0; cmd < NR_CMD - 1; cmd++)
		mut += mutating(cmd) ? u->by_cmd[cmd] : 0;
	printf("# nobody: %lu mutating requests, %lu succeeded, %lu EPERM\n",
	       mut, u->unpriv_changes, u->by_errno[EPERM]);
	fflush(stdout);
	EXPECT_EQ(0UL, u->unpriv_changes);

	/* The invariants once more, then something valid, then again. */
	EXPECT_TRUE(table_ok(nl, &last)) TH_LOG("%s", last.why);
	/* The table works as before: a plain assignment on an empty one. */
	EXPECT_EQ(0, cpumgr_nl_reset(nl, NULL, NULL));
	EXPECT_EQ(0, sft_static(nl));
	EXPECT_EQ(0, cpumgr_nl_assign(nl, "after", "c", c.name[1], 0, NULL,
				      NULL, NULL));
	EXPECT_TRUE(table_ok(nl, &last)) TH_LOG("%s", last.why);
	EXPECT_EQ(0, sft_reset_close(nl));
	rmdir(FUZZ_CG "/a/x");
	rmdir(FUZZ_CG "/a");
	rmdir(FUZZ_CG "/b");
	rmdir(FUZZ_CG);
	munmap(sh, sizeof(*sh));
}

TEST_HARNESS_MAIN
