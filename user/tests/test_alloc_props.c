// SPDX-License-Identifier: GPL-2.0
/*
 * Property tests over random uniform topologies up to 4096 CPUs: every
 * algorithm and option returns exactly the CPUs asked for, within the
 * available ones, whole cores when the request and the free CPUs allow
 * it, the same answer twice; the static policy never hands out reserved
 * CPUs and keeps assignments disjoint from the shared pool.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "alloc.h"
#include "pod_util.h"
#include "policy_static.h"
#include "test_util.h"

static uint64_t seed = 0x2545f4914f6cdd1dULL;

static unsigned int rnd(unsigned int n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned int)(seed % n);
}

struct shape {
	int sockets, numa_per_socket, sockets_per_numa, cores, threads, l3;
};

/* A uniform machine of at most max_cpus CPUs, Linux-style numbering. */
static struct topology *random_topology(unsigned int max_cpus,
					struct shape *s)
{
	static const int threads[] = { 1, 2, 2, 2, 4 };
	struct topo_cpu_info *c;
	struct cm_error err = { 0 };
	struct topology *t;
	int ncores, n;

	do {
		s->sockets = 1 << rnd(4);
		s->threads = threads[rnd(5)];
		s->numa_per_socket = 1 << rnd(3);
		s->sockets_per_numa = 1;
		if (s->numa_per_socket == 1 && s->sockets > 1 && rnd(3) == 0)
			s->sockets_per_numa = 2;
		s->cores = s->numa_per_socket * (1 + (int)rnd(32));
		/* an L3 cache never straddles NUMA nodes here */
		do
			s->l3 = 1 + (int)rnd(8);
		while ((s->cores / s->numa_per_socket) % s->l3);
		n = s->sockets * s->cores * s->threads;
		/* the distributed search is exponential in NUMA nodes */
	} while (n > (int)max_cpus || n < 2 ||
		 s->sockets * s->numa_per_socket > 8);
	ncores = s->sockets * s->cores;
	c = calloc(n, sizeof(*c));
	for (int i = 0; i < n; i++) {
		int core = i % ncores, socket = core / s->cores;

		c[i].cpu = i;
		c[i].core = core;
		c[i].socket = socket;
		c[i].numa = s->sockets_per_numa > 1 ? socket / 2 :
			    socket * s->numa_per_socket +
			    (core % s->cores) / (s->cores / s->numa_per_socket);
		c[i].uncore = core / s->l3;
	}
	t = topology_new(c, n, &err);
	free(c);
	cm_error_clear(&err);
	return t;
}

/* A random subset; whole cores only when whole is set. */
static void random_avail(const struct topology *t, bool whole,
			 struct cpuset *out)
{
	const struct topo_map *m = &t->cpus_of[TOPO_CORE];
	unsigned int keep = 1 + rnd(4);	/* keep ~ keep/4 of them */

	cpuset_zero(out);
	for (unsigned int core = 0; core < m->nr; core++) {
		bool core_in = rnd(4) < keep;

		for (unsigned int k = m->start[core]; k < m->start[core + 1]; k++)
			if (whole ? core_in : rnd(4) < keep)
				cpuset_set(out, t->cpu_id[m->item[k]]);
	}
}

static bool whole_cores(const struct topology *t, const struct cpuset *s)
{
	struct cpuset closure;

	topology_cores_closure(t, s, &closure);
	return cpuset_equal(&closure, s);
}

static void check_take(struct __test_metadata *_metadata,
		       const struct topology *t, struct alloc_ws *ws,
		       const struct cpuset *avail, bool whole,
		       const struct alloc_request *req)
{
	struct cm_error err = { 0 };
	struct cpuset a, b;
	unsigned int navail = cpuset_count(avail);
	int ret = alloc_take(t, ws, avail, req, &a, &err);
	int per_core = topology_cpus_per(t, TOPO_CORE);

	if ((unsigned int)req->num_cpus > navail) {
		CHECK(ret != 0 && cpuset_empty(&a),
		      "%u cpus, %d asked: expected failure", navail,
		      req->num_cpus);
		cm_error_clear(&err);
		return;
	}
	CHECK(ret == 0, "take %d of %u (dist %d group %d spread %d uncore %d): %s",
	      req->num_cpus, navail, req->distribute_numa,
	      req->cpu_group_size, req->spread, req->prefer_uncore,
	      cm_error_msg(&err));
	CHECK((int)cpuset_count(&a) == req->num_cpus,
	      "size %u, asked %d (dist %d group %d spread %d uncore %d, %u cpus %u numa %u sockets)",
	      cpuset_count(&a), req->num_cpus, req->distribute_numa,
	      req->cpu_group_size, req->spread, req->prefer_uncore,
	      t->nr_cpus, t->nr[TOPO_NUMA], t->nr[TOPO_SOCKET]);
	CHECK(cpuset_subset(&a, avail), "result outside the available CPUs");
	alloc_take(t, NULL, avail, req, &b, &err);
	CHECK(cpuset_equal(&a, &b), "not deterministic");
	if (whole && !req->spread && req->num_cpus % per_core == 0 &&
	    (!req->distribute_numa || req->cpu_group_size == per_core))
		CHECK(whole_cores(t, &a), "take %d: not whole cores",
		      req->num_cpus);
	cm_error_clear(&err);
}

/*
 * Found by fuzz_plan: a NUMA node across two sockets is listed once per
 * socket, and so are its uncore caches; the sorted uncore list outgrew
 * its room (one entry per NUMA node and uncore pair) and the packed
 * take read past the uncore map.  ASan sees it (make check's sanitizer
 * phase); the topology is irregular, so a take may be refused.
 */
TEST(uncore_list_of_a_numa_node_across_sockets)
{
	static const struct topo_cpu_info c[] = {
		{ 0, 0, 0, 4, 0 }, { 1, 1, 0, 0, 0 }, { 2, 3, 0, 0, 0 },
		{ 4, 4, 0, 0, 1 }, { 5, 5, 0, 0, 1 }, { 6, 6, 0, 0, 0 },
		{ 7, 7, 0, 0, 1 }, { 8, 8, 0, 2, 1 }, { 9, 9, 0, 0, 2 },
		{ 10, 10, 1, 0, 13 }, { 14, 14, 0, 0, 3 }, { 30, 15, 0, 0, 3 },
	};
	struct alloc_request req = { .cpu_group_size = 1,
				     .prefer_uncore = true };
	struct cm_error err = { 0 };
	struct topology *t = topology_new(c, sizeof(c) / sizeof(c[0]), &err);
	struct alloc_ws *ws;
	struct cpuset avail;

	ASSERT_NE(NULL, t);
	ws = alloc_ws_new(t);
	ASSERT_NE(NULL, ws);
	/* what the fuzzer had: 1-15 of these */
	avail = t->cpus;
	cpuset_clear(&avail, 0);
	cpuset_clear(&avail, 30);
	for (req.num_cpus = 1; req.num_cpus <= 11; req.num_cpus++) {
		struct cpuset out;

		/* irregular: the take may refuse, never hand out wrong CPUs */
		if (alloc_take(t, ws, &avail, &req, &out, &err)) {
			CHECK(cm_error_msg(&err)[0] != '\0', "no message");
			cm_error_clear(&err);
			continue;
		}
		CHECK(cpuset_subset(&out, &avail) &&
		      (int)cpuset_count(&out) == req.num_cpus,
		      "take %d: a wrong result", req.num_cpus);
	}
	alloc_ws_free(ws);
	topology_free(t);
}

TEST(random_topologies_take)
{
	static const unsigned int sizes[] = { 16, 64, 256, 1024, 4096 };

	for (size_t si = 0; si < ARRAY_SIZE(sizes); si++) {
		int rounds = sizes[si] >= 1024 ? 3 : 12;

		for (int r = 0; r < rounds; r++) {
			struct shape s;
			struct topology *t = random_topology(sizes[si], &s);
			struct alloc_ws *ws = alloc_ws_new(t);
			int per_core = topology_cpus_per(t, TOPO_CORE);

			ASSERT_NE(NULL, t);
			for (int k = 0; k < 6; k++) {
				bool whole = rnd(2);
				struct cpuset avail;
				struct alloc_request req = { 0 };

				random_avail(t, whole, &avail);
				req.num_cpus = (int)rnd(cpuset_count(&avail) + 2);
				if (rnd(2))
					req.num_cpus -= req.num_cpus % per_core;
				check_take(_metadata, t, ws, &avail, whole, &req);
				req.spread = true;
				check_take(_metadata, t, ws, &avail, whole, &req);
				req.spread = false;
				req.prefer_uncore = true;
				check_take(_metadata, t, ws, &avail, whole, &req);
				req.prefer_uncore = false;
				req.distribute_numa = true;
				req.cpu_group_size = 1;
				check_take(_metadata, t, ws, &avail, whole, &req);
				req.cpu_group_size = per_core;
				check_take(_metadata, t, ws, &avail, whole, &req);
			}
			alloc_ws_free(ws);
			topology_free(t);
		}
	}
}

/* Many pods through the static policy: reserved CPUs are never handed out. */
TEST(random_policy_never_reserved)
{
	static const char *const option_sets[] = {
		"", "full-pcpus-only=true", "distribute-cpus-across-numa=true",
		"full-pcpus-only=true,distribute-cpus-across-numa=true",
		"distribute-cpus-across-cores=true",
		"prefer-align-cpus-by-uncorecache=true",
		"strict-cpu-reservation=true,full-pcpus-only=true",
	};

	for (int r = 0; r < 14; r++) {
		struct shape s;
		struct topology *t = random_topology(512, &s);
		struct policy_config cfg = { .kind = CPU_POLICY_STATIC };
		struct cm_error err = { 0 };
		int per_core = topology_cpus_per(t, TOPO_CORE);
		struct cpu_policy p;
		struct cpu_assignments st;

		cfg.num_reserved = 1 + (int)rnd(t->nr_cpus / 4 + 1);
		ASSERT_EQ(0, options_parse_list(&cfg.opts,
						option_sets[r % ARRAY_SIZE(option_sets)],
						&err));
		ASSERT_EQ(0, cpu_policy_init(&p, t, &cfg, &err));
		assignments_init(&st);
		ASSERT_EQ(0, cpu_policy_start(&p, &st, &err));
		for (int i = 0; i < 40; i++) {
			char uid[32], cpu[16];
			struct pod pod;

			snprintf(uid, sizeof(uid), "pod-%d", i);
			snprintf(cpu, sizeof(cpu), "%u", 1 + rnd(8));
			make_pod(&pod, uid, "c", cpu, cpu);
			if (cpu_policy_add_pod(&p, &st, &pod, NULL, &err) == 0) {
				const struct cpuset *got = assignments_get(&st, uid, "c");

				CHECK(got && !cpuset_intersects(got, &p.reserved),
				      "assignment holds reserved CPUs");
				CHECK(got && !cpuset_intersects(got, &st.default_set),
				      "assignment in the shared pool");
				if (got && p.opts.full_pcpus_only)
					CHECK(whole_cores(t, got) ||
					      !whole_cores(t, &p.reserved),
					      "full-pcpus-only gave a split core");
			} else {
				CHECK(!assignments_get(&st, uid, "c"),
				      "failed add left an assignment");
			}
			if (rnd(3) == 0)
				cpu_policy_remove(&p, &st, uid, "c");
			pod_free(&pod);
		}
		(void)per_core;
		cm_error_clear(&err);
		assignments_free(&st);
		cpu_policy_destroy(&p);
		topology_free(t);
	}
}

TEST_HARNESS_MAIN
