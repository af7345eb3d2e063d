// SPDX-License-Identifier: GPL-2.0
/*
 * The table under concurrent change.  Four workers do random ASSIGN and
 * RELEASE on pods of their own (10,000 each; CPUMGR_STRESS_OPS changes
 * it) while a checker reads the dump, GET_STATE and sysfs: no two pods
 * ever share a CPU in anything it reads, the generation never goes back,
 * and at the end the table is exactly what the workers hold, its
 * generation moved by exactly their successes.  A second test shows the
 * kernel marking a dump that raced with a change (NLM_F_DUMP_INTR) and
 * the library reading it again.
 */
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

#define WORKERS		4
#define PODS		4	/* per worker */
#define CONTAINERS	3	/* per pod */
#define MAX_CPUS	64	/* masks are one word */

struct worker_result {
	int fails;
	unsigned long successes;
	uint64_t held[PODS][CONTAINERS];	/* CPU masks at the end */
	char why[256];
};

struct checker_result {
	int fails;
	unsigned long dumps, states, sysfs_snapshots, sysfs_tries, held_walks;
	char why[256];
};

struct shared {
	volatile int workers_done;
	/* The checker stops the workers now and then for a walk of sysfs
	 * that no change can tear: it sets hold to a new epoch, and each
	 * worker parks between two requests, saying so with that epoch
	 * (or has finished). */
	volatile int hold;
	volatile int parked[WORKERS];
	volatile int finished[WORKERS];
	struct worker_result w[WORKERS];
	struct checker_result c;
};

static struct shared *sh;

static int cpu_list[MAX_CPUS];
static int ncpus;

static void mask_str(uint64_t mask, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < ncpus; i++) {
		if (mask & (1ULL << i))
			len += snprintf(buf + len, size - len, "%s%d",
					len ? "," : "", cpu_list[i]);
	}
}

/* A cpulist of the kernel as a mask over cpu_list; ~0 if unknown CPU. */
static uint64_t str_mask(const char *list)
{
	bool map[SFTEST_MAX_CPUS];
	uint64_t mask = 0;
	int found = 0;

	if (!list || !sft_parse_cpulist(list, map))
		return ~0ULL;
	for (int i = 0; i < ncpus; i++) {
		if (map[cpu_list[i]]) {
			mask |= 1ULL << i;
			found++;
		}
	}
	for (int c = 0; c < SFTEST_MAX_CPUS; c++)
		found -= map[c];
	return found ? ~0ULL : mask;
}

#define FAIL(r, fmt, ...) do {						\
	if (!(r)->fails++)						\
		snprintf((r)->why, sizeof((r)->why), fmt, ##__VA_ARGS__); \
} while (0)

static uint64_t pod_mask(const struct worker_result *r, int pod)
{
	uint64_t m = 0;

	for (int c = 0; c < CONTAINERS; c++)
		m |= r->held[pod][c];
	return m;
}

static void worker(int id, unsigned long ops, struct worker_result *r)
{
	struct cpumgr_nl *nl = sft_nl_open();
	unsigned int seed = 0x5eed + id;
	char pod[32], ctr[16], cpus[256];
	uint64_t gen, last = 0;

	if (!nl) {
		FAIL(r, "open");
		return;
	}
	for (unsigned long i = 0; i < ops && r->fails < 10; i++) {
		int p = rand_r(&seed) % PODS, c = rand_r(&seed) % CONTAINERS;
		int op = rand_r(&seed) % 10, ret;
		uint64_t mask, others = 0;

		int epoch = sh->hold;

		if (epoch) {
			sh->parked[id] = epoch;
			__sync_synchronize();
			while (sh->hold == epoch)
				usleep(100);
		}

		snprintf(pod, sizeof(pod), "w%d-p%d", id, p);
		snprintf(ctr, sizeof(ctr), "c%d", c);
		if (op < 6) {
			mask = 1ULL << (rand_r(&seed) % ncpus);
			if (op < 2)
				mask |= 1ULL << (rand_r(&seed) % ncpus);
			for (int q = 0; q < PODS; q++) {
				if (q != p)
					others |= pod_mask(r, q);
			}
			mask_str(mask, cpus, sizeof(cpus));
			ret = cpumgr_nl_assign(nl, pod, ctr, cpus, 0, NULL,
					       &gen, NULL);
			if (ret == -EBUSY)
				continue;
			if (ret || (mask & others))
				FAIL(r, "assign %s/%s %s: %d %s (own pods %llx)",
				     pod, ctr, cpus, ret, cpumgr_nl_errmsg(nl),
				     (unsigned long long)others);
			if (!ret)
				r->held[p][c] = mask;
		} else if (op < 9) {
			bool held = r->held[p][c];

			ret = cpumgr_nl_release(nl, pod, ctr, NULL, &gen);
			if (held ? ret : ret != -ENOENT)
				FAIL(r, "release %s/%s (held %d): %d %s", pod,
				     ctr, held, ret, cpumgr_nl_errmsg(nl));
			r->held[p][c] = 0;
		} else {
			bool held = pod_mask(r, p);

			ret = cpumgr_nl_release(nl, pod, NULL, NULL, &gen);
			if (held ? ret : ret != -ENOENT)
				FAIL(r, "release %s (held %d): %d %s", pod,
				     held, ret, cpumgr_nl_errmsg(nl));
			memset(r->held[p], 0, sizeof(r->held[p]));
		}
		if (ret)
			continue;
		r->successes++;
		if (gen <= last)
			FAIL(r, "generation %llu after %llu",
			     (unsigned long long)gen, (unsigned long long)last);
		last = gen;
	}
	cpumgr_nl_close(nl);
	sh->finished[id] = 1;
}

/* Pods of a dump, or of a sysfs walk: one mask per pod name. */
struct pod_masks {
	char uid[WORKERS * PODS + 1][CPUMGR_POD_UID_MAX + 1];
	uint64_t mask[WORKERS * PODS + 1];
	int n;
};

/* Add mask to the pod; false if another pod holds one of its CPUs. */
static bool add_pod_cpus(struct pod_masks *pm, const char *uid, uint64_t mask)
{
	int i;

	for (i = 0; i < pm->n && strcmp(pm->uid[i], uid); i++)
		;
	if (i == pm->n) {
		if (pm->n == WORKERS * PODS + 1)
			return false;
		snprintf(pm->uid[pm->n], sizeof(pm->uid[0]), "%s", uid);
		pm->mask[pm->n++] = 0;
	}
	for (int k = 0; k < pm->n; k++) {
		if (k != i && (pm->mask[k] & mask))
			return false;
	}
	pm->mask[i] |= mask;
	return true;
}

static void check_dump(struct cpumgr_nl *nl, struct checker_result *r,
		       uint64_t *last)
{
	struct cpumgr_assignment *list;
	struct pod_masks pm = { .n = 0 };
	size_t n;
	int err;

	err = cpumgr_nl_list_assignments(nl, &list, &n);
	if (err) {
		FAIL(r, "dump: %d %s", err, cpumgr_nl_errmsg(nl));
		return;
	}
	r->dumps++;
	for (size_t i = 0; i < n; i++) {
		uint64_t mask = str_mask(list[i].cpus);

		if (list[i].generation != list[0].generation)
			FAIL(r, "one dump, generations %llu and %llu",
			     (unsigned long long)list[0].generation,
			     (unsigned long long)list[i].generation);
		if (mask == ~0ULL || !add_pod_cpus(&pm, list[i].pod_uid, mask))
			FAIL(r, "dump: %s/%s %s overlaps another pod",
			     list[i].pod_uid, list[i].container, list[i].cpus);
	}
	if (n && list[0].generation < *last)
		FAIL(r, "dump generation %llu after %llu",
		     (unsigned long long)list[0].generation,
		     (unsigned long long)*last);
	if (n)
		*last = list[0].generation;
	cpumgr_assignments_free(list, n);
}

static void check_state(struct cpumgr_nl *nl, struct checker_result *r,
			uint64_t *last)
{
	struct cpumgr_table st;
	uint64_t shared, excl, online;

	if (cpumgr_nl_get_table(nl, &st)) {
		FAIL(r, "get state: %s", cpumgr_nl_errmsg(nl));
		return;
	}
	r->states++;
	shared = str_mask(st.shared_cpus);
	excl = str_mask(st.exclusive_cpus);
	online = str_mask(st.online_cpus);
	if ((shared & excl) || (shared | excl) != online)
		FAIL(r, "state: shared %s exclusive %s online %s",
		     st.shared_cpus, st.exclusive_cpus, st.online_cpus);
	if (st.generation < *last)
		FAIL(r, "state generation %llu after %llu",
		     (unsigned long long)st.generation,
		     (unsigned long long)*last);
	*last = st.generation;
	cpumgr_table_free(&st);
}

/*
 * sysfs files are read one by one: a walk is a snapshot only if the
 * generation did not move during it.
 */
static void check_sysfs(struct checker_result *r, uint64_t *last)
{
	struct pod_masks pm = { .n = 0 };
	char *text, *line, *save = NULL;
	long g1, g2;
	bool ok = true;

	if (!sft_read_long(&g1, SFT_SYSFS "/generation")) {
		FAIL(r, "sysfs generation unreadable");
		return;
	}
	text = sft_sysfs_text();
	if (!sft_read_long(&g2, SFT_SYSFS "/generation") || !text) {
		free(text);
		FAIL(r, "sysfs unreadable");
		return;
	}
	r->sysfs_tries++;
	if ((uint64_t)g1 < *last)
		FAIL(r, "sysfs generation %ld after %llu", g1,
		     (unsigned long long)*last);
	*last = g1;
	if (g1 != g2) {
		free(text);
		return;
	}
	r->sysfs_snapshots++;
	for (line = strtok_r(text, "\n", &save); line && ok;
	     line = strtok_r(NULL, "\n", &save)) {
		char uid[CPUMGR_POD_UID_MAX + 1], cpus[256];

		if (sscanf(line, "pods/%64[^/]/%*[^:]: cpus=%255s", uid,
			   cpus) != 2)
			continue;
		ok = add_pod_cpus(&pm, uid, str_mask(cpus));
		if (!ok)
			FAIL(r, "sysfs at %ld: %s overlaps another pod", g1,
			     line);
	}
	free(text);
}

/* Park the workers, walk sysfs (it must be a snapshot), let them go. */
static void held_walk(struct checker_result *r, uint64_t *last)
{
	unsigned long before = r->sysfs_snapshots;
	static int epoch;
	int w;

	sh->hold = ++epoch;
	__sync_synchronize();
	do {
		usleep(100);
		for (w = 0; w < WORKERS; w++) {
			if (sh->parked[w] != epoch && !sh->finished[w])
				break;
		}
	} while (w < WORKERS);
	check_sysfs(r, last);
	sh->hold = 0;
	if (r->sysfs_snapshots == before)
		FAIL(r, "sysfs generation moved while every worker was parked");
	r->held_walks++;
}

static void checker(void)
{
	struct cpumgr_nl *nl = sft_nl_open();
	struct checker_result *r = &sh->c;
	uint64_t last_dump = 0, last_state = 0, last_sysfs = 0;

	if (!nl) {
		FAIL(r, "open");
		return;
	}
	for (unsigned long round = 0; !sh->workers_done && r->fails < 10;
	     round++) {
		check_dump(nl, r, &last_dump);
		check_state(nl, r, &last_state);
		/* A walk costs dozens of reads: leave the workers room. */
		if (round % 4 == 0)
			check_sysfs(r, &last_sysfs);
		if (round % 16 == 8)
			held_walk(r, &last_sysfs);
	}
	cpumgr_nl_close(nl);
}

FIXTURE(stress) {
	struct cpumgr_nl *nl;
};

FIXTURE_SETUP(stress)
{
	struct sft_cpus c;

	self->nl = sft_nl_open();
	ASSERT_NE(NULL, self->nl);
	ASSERT_TRUE(sft_cpus_read(&c, 2));
	/* Masks are one word: the first MAX_CPUS online CPUs. */
	ncpus = c.n < MAX_CPUS ? c.n : MAX_CPUS;
	memcpy(cpu_list, c.cpu, ncpus * sizeof(cpu_list[0]));
	ASSERT_EQ(0, sft_static(self->nl));
}

FIXTURE_TEARDOWN(stress)
{
	EXPECT_EQ(0, sft_reset_close(self->nl));
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static pid_t spawn(void (*fn)(int, unsigned long, struct worker_result *),
		   int id, unsigned long ops, struct worker_result *r)
{
	pid_t pid = fork();

	if (!pid) {
		fn(id, ops, r);
		_exit(0);
	}
	return pid;
}

static bool final_matches(struct __test_metadata *_metadata,
			  struct cpumgr_nl *nl)
{
	struct cpumgr_assignment *list;
	size_t n, held = 0;
	bool ok = true;

	if (cpumgr_nl_list_assignments(nl, &list, &n))
		return false;
	for (int w = 0; w < WORKERS; w++) {
		for (int p = 0; p < PODS; p++) {
			for (int c = 0; c < CONTAINERS; c++)
				held += sh->w[w].held[p][c] != 0;
		}
	}
	EXPECT_EQ(held, n);
	for (size_t i = 0; i < n; i++) {
		int w, p, c;

		if (sscanf(list[i].pod_uid, "w%d-p%d", &w, &p) != 2 ||
		    sscanf(list[i].container, "c%d", &c) != 1 ||
		    w < 0 || w >= WORKERS || p < 0 || p >= PODS || c < 0 ||
		    c >= CONTAINERS ||
		    str_mask(list[i].cpus) != sh->w[w].held[p][c]) {
			TH_LOG("%s/%s %s is not what its worker holds",
			       list[i].pod_uid, list[i].container,
			       list[i].cpus);
			ok = false;
		}
	}
	cpumgr_assignments_free(list, n);
	return ok;
}

TEST_F_TIMEOUT(stress, four_writers_and_a_checker, 1500)
{
	const char *env = getenv("CPUMGR_STRESS_OPS");
	unsigned long ops = env ? strtoul(env, NULL, 10) : 10000;
	unsigned long successes = 0;
	struct cpumgr_table st0, st1;
	pid_t pids[WORKERS], check;
	double start;
	int status;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	memset(sh, 0, sizeof(*sh));
	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st0));
	start = seconds();

	check = fork();
	ASSERT_LE(0, check);
	if (!check) {
		checker();
		_exit(0);
	}
	for (int w = 0; w < WORKERS; w++) {
		pids[w] = spawn(worker, w, ops, &sh->w[w]);
		ASSERT_LE(0, pids[w]);
	}
	for (int w = 0; w < WORKERS; w++) {
		ASSERT_EQ(pids[w], waitpid(pids[w], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
		EXPECT_EQ(0, sh->w[w].fails) TH_LOG("worker %d: %s", w,
						    sh->w[w].why);
		successes += sh->w[w].successes;
	}
	sh->workers_done = 1;
	ASSERT_EQ(check, waitpid(check, &status, 0));
	EXPECT_EQ(0, sh->c.fails) TH_LOG("checker: %s", sh->c.why);
	TH_LOG("%lu ops each in %.0f s, %lu changes; checker: %lu dumps, %lu states, %lu of %lu sysfs walks consistent (%lu with the workers parked)",
	       ops, seconds() - start, successes, sh->c.dumps, sh->c.states,
	       sh->c.sysfs_snapshots, sh->c.sysfs_tries, sh->c.held_walks);
	EXPECT_LT(0UL, sh->c.dumps);
	EXPECT_LT(0UL, sh->c.held_walks);

	ASSERT_EQ(0, cpumgr_nl_get_table(self->nl, &st1));
	EXPECT_EQ(st0.generation + successes, st1.generation);
	EXPECT_TRUE(final_matches(_metadata, self->nl));
	cpumgr_table_free(&st0);
	cpumgr_table_free(&st1);
	munmap(sh, sizeof(*sh));
}

/* Many assignments: the dump spans several messages and recvs. */
#define BIG_TABLE	400

static int raw_dump(struct cpumgr_nl *nl)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret;

	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, cpumgr_nl_family_id(nl),
		    0, NLM_F_DUMP, CPUMGR_CMD_GET_ASSIGNMENT, CPUMGR_GENL_VERSION);
	ret = cpumgr_nl_send_raw(nl, nlmsg_hdr(msg));
	nlmsg_free(msg);
	return ret;
}

/* Pods of CPUMGR_POD_CONTAINERS_MAX containers, one CPU each. */
#define BIG_PODS \
	((BIG_TABLE + CPUMGR_POD_CONTAINERS_MAX - 1) / CPUMGR_POD_CONTAINERS_MAX)

TEST_F_TIMEOUT(stress, dump_interrupted_and_read_again, 600)
{
	struct cpumgr_assignment *list;
	char pod[16], ctr[16], cpu[16];
	int interrupted = 0, tries;
	pid_t pid;
	size_t n;

	/* The pods take the last CPUs; the first is the churn's. */
	if (ncpus < BIG_PODS + 1)
		SKIP(return, "%d CPUs: %d pods of %d containers need %d",
		     ncpus, BIG_PODS, CPUMGR_POD_CONTAINERS_MAX, BIG_PODS + 1);
	for (int i = 0; i < BIG_TABLE; i++) {
		int p = i / CPUMGR_POD_CONTAINERS_MAX;

		snprintf(pod, sizeof(pod), "big%d", p);
		snprintf(ctr, sizeof(ctr), "c%d", i);
		snprintf(cpu, sizeof(cpu), "%d", cpu_list[ncpus - 1 - p]);
		ASSERT_EQ(0, cpumgr_nl_assign(self->nl, pod, ctr, cpu, 0,
					      NULL, NULL, NULL))
			TH_LOG("%s/%s: %s", pod, ctr, cpumgr_nl_errmsg(self->nl));
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct cpumgr_nl *nl = sft_nl_open();

		unsigned int seed = 1;

		/* Changes at random moments, 10 ms apart on average: some
		 * dumps race with one, most do not. */
		snprintf(cpu, sizeof(cpu), "%d", cpu_list[0]);
		for (;;) {
			cpumgr_nl_assign(nl, "churn", "c", cpu, 0, NULL, NULL,
					 NULL);
			usleep(1000 * (rand_r(&seed) % 20));
			cpumgr_nl_release(nl, "churn", NULL, NULL, NULL);
			usleep(1000 * (rand_r(&seed) % 20));
		}
	}
	/* The kernel marks racing dumps... */
	for (tries = 0; tries < 1000 && interrupted < 3; tries++) {
		int ret = raw_dump(self->nl);

		if (ret == -EINTR)
			interrupted++;
		else
			EXPECT_LE(BIG_TABLE, ret);
	}
	/* ...and the library reads them again until one is whole. */
	for (int i = 0; i < 20; i++) {
		ASSERT_EQ(0, cpumgr_nl_list_assignments(self->nl, &list, &n))
			TH_LOG("%s", cpumgr_nl_errmsg(self->nl));
		EXPECT_LE((size_t)BIG_TABLE, n);
		EXPECT_GE((size_t)BIG_TABLE + 1, n);
		for (size_t k = 1; k < n; k++)
			EXPECT_EQ(list[0].generation, list[k].generation);
		cpumgr_assignments_free(list, n);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	TH_LOG("%d of %d raw dumps marked NLM_F_DUMP_INTR", interrupted, tries);
	EXPECT_LT(0, interrupted);
}

TEST_HARNESS_MAIN
