// SPDX-License-Identifier: GPL-2.0
/*
 * The kubelet's cpu_manager_state checkpoint: checkpoint_parse() (v4
 * with its data string decoded a second time, v3 with podEntries and
 * their cpusets, v2 and v1, each checksum verified, v1 entries migrated
 * through a resolver), the policy check, the static policy's validation
 * of the restored state on an 8-CPU node (what `checkpoint verify` and a
 * restore do), and a round trip in every version written: what is
 * accepted formats to bytes that parse back, as that version, to the
 * same state (v2 without the pod level, v3 without baselines).
 */
#include "checkpoint.h"
#include "fuzz_util.h"
#include "policy_static.h"

/* v1 container IDs "UID/NAME" resolve; anything else is unknown. */
static int resolve(void *ctx, const char *id, char *pod_uid, char *container)
{
	const char *slash = strchr(id, '/');

	if (!slash || slash == id || slash - id > POD_UID_MAX ||
	    strlen(slash + 1) > CONTAINER_NAME_MAX)
		return -1;
	memcpy(pod_uid, id, slash - id);
	pod_uid[slash - id] = '\0';
	strcpy(container, slash + 1);
	return 0;
}

static void same_pod_level(const struct cpu_assignments *a,
			   const struct cpu_assignments *b,
			   enum checkpoint_version v)
{
	fuzz_assert(b->nr_pods == (v >= CHECKPOINT_V3 ? a->nr_pods : 0));
	for (unsigned int i = 0; i < b->nr_pods; i++) {
		fuzz_assert(!strcmp(a->pods[i].pod_uid, b->pods[i].pod_uid));
		fuzz_assert(cpuset_equal(&a->pods[i].cpus, &b->pods[i].cpus));
	}
	fuzz_assert(b->nr_baselines ==
		    (v == CHECKPOINT_V4 ? a->nr_baselines : 0));
	for (unsigned int i = 0; i < b->nr_baselines; i++) {
		fuzz_assert(!strcmp(a->baselines[i].pod_uid,
				    b->baselines[i].pod_uid));
		fuzz_assert(!strcmp(a->baselines[i].container,
				    b->baselines[i].container));
		fuzz_assert(!strcmp(a->baselines[i].cpus, b->baselines[i].cpus));
	}
}

static void same_state(const struct cpu_assignments *a,
		       const struct cpu_assignments *b)
{
	fuzz_assert(cpuset_equal(&a->default_set, &b->default_set));
	fuzz_assert(a->nr == b->nr);
	for (unsigned int i = 0; i < a->nr; i++) {
		fuzz_assert(!strcmp(a->entries[i].pod_uid, b->entries[i].pod_uid));
		fuzz_assert(!strcmp(a->entries[i].container,
				    b->entries[i].container));
		fuzz_assert(cpuset_equal(&a->entries[i].cpus,
					 &b->entries[i].cpus));
	}
}

static void validate(const struct checkpoint *cp)
{
	struct policy_config cfg = { .kind = CPU_POLICY_STATIC,
				     .num_reserved = 1 };
	struct cm_error err = { 0 };
	struct cpu_policy p;
	struct cpu_assignments s;

	if (checkpoint_check_policy(cp, "static", &err)) {
		cm_error_clear(&err);
		return;
	}
	assignments_init(&s);
	fuzz_assert(!assignments_copy(&s, &cp->state));
	fuzz_assert(!cpu_policy_init(&p, fuzz_topology(), &cfg, &err));
	if (cpu_policy_start(&p, &s, &err))
		fuzz_assert(err.msg);
	cm_error_clear(&err);
	cpu_policy_destroy(&p);
	assignments_free(&s);
}

static void roundtrip(const struct checkpoint *cp, enum checkpoint_version v)
{
	struct cm_error err = { 0 };
	struct checkpoint back;
	size_t len;
	char *text = checkpoint_format_version(v, cp->policy, &cp->state, &len);

	fuzz_assert(text && strlen(text) == len);
	if (checkpoint_parse(text, len, NULL, &back, &err)) {
		fprintf(stderr, "formatted %s checkpoint does not parse: %s\n%s\n",
			checkpoint_version_name(v), cm_error_msg(&err), text);
		abort();
	}
	fuzz_assert(back.version == v && !back.unverified);
	fuzz_assert(!strcmp(back.policy, cp->policy));
	if (v == CHECKPOINT_V2)
		fuzz_assert(back.checksum ==
			    checkpoint_checksum(cp->policy, &cp->state));
	same_state(&cp->state, &back.state);
	same_pod_level(&cp->state, &back.state, v);
	checkpoint_free(&back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct checkpoint_opts o = { .resolve = resolve };
	struct cm_error err = { 0 };
	struct checkpoint cp;
	char *buf;

	/*
	 * The size picks the options (a checkpoint file from a fixture
	 * stays a seed as it is): no resolver.
	 */
	if (size & 2)
		o.resolve = NULL;
	buf = fuzz_copy(data, size);
	if (checkpoint_parse(buf, size, &o, &cp, &err)) {
		fuzz_assert(err.msg);
	} else {
		fuzz_assert(!err.msg);
		fuzz_assert(cp.policy);
		validate(&cp);
		for (int v = CHECKPOINT_V2; v <= CHECKPOINT_V4; v++)
			roundtrip(&cp, v);
		checkpoint_free(&cp);
	}
	cm_error_clear(&err);
	free(buf);
	return 0;
}
