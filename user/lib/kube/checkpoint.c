// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the checkpoint as the kubelet does, in the version asked for:
 * the JSON json.Marshal makes of the version's struct and the checksum
 * its MarshalCheckpoint() stores (checkpoint.h has the formats).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint_internal.h"

#define FNV32_OFFSET	2166136261u
#define FNV32_PRIME	16777619u

uint32_t checkpoint_fnv1a32(const char *s, size_t len)
{
	uint32_t h = FNV32_OFFSET;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= FNV32_PRIME;
	}
	return h;
}

/* spew prints a string value raw after its type */
uint32_t checkpoint_string_checksum(const char *s, size_t len)
{
	static const char type[] = "(" T_STRING ")";
	uint32_t h = FNV32_OFFSET;

	for (size_t i = 0; i < sizeof(type) - 1 + len; i++) {
		h ^= (unsigned char)(i < sizeof(type) - 1 ?
				     type[i] : s[i - (sizeof(type) - 1)]);
		h *= FNV32_PRIME;
	}
	return h;
}

/* a set's elems map[int]struct{}: keys in order, struct{} as "{}" */
void checkpoint_spew_cpus(struct strbuf *h, const struct cpuset *cpus)
{
	int cpu;
	bool first = true;

	strbuf_adds(h, "map[");
	cpuset_for_each(cpu, cpus) {
		strbuf_addf(h, "%s%d:{}", first ? "" : " ", cpu);
		first = false;
	}
	strbuf_addc(h, ']');
}

static void json_str(struct strbuf *js, const char *s)
{
	gojson_append_string(js, s, strlen(s));
}

static void json_cpus(struct strbuf *js, const struct cpuset *cpus)
{
	char *t = cpuset_to_str(cpus);

	if (!t) {
		js->oom = true;
		return;
	}
	json_str(js, t);
	free(t);
}

/*
 * The head every version shares: policyName, defaultCpuSet and, unless
 * empty ("omitempty"), entries, in both texts (h may be NULL).  Entries
 * are sorted by (pod UID, container) as both Go printers sort map keys.
 */
static void render_head(const char *policy, const struct cpu_assignments *s,
			struct strbuf *js, struct strbuf *h)
{
	char *dflt = cpuset_to_str(&s->default_set);

	if (!dflt) {
		js->oom = true;
		return;
	}
	strbuf_adds(js, "{\"policyName\":");
	json_str(js, policy);
	strbuf_adds(js, ",\"defaultCpuSet\":");
	json_str(js, dflt);
	if (h) {
		strbuf_adds(h, "{PolicyName:(" T_STRING ")");
		strbuf_adds(h, policy);
		strbuf_adds(h, " DefaultCPUSet:(" T_STRING ")");
		strbuf_adds(h, dflt);
		strbuf_adds(h, " Entries:(" T_MAP_MAP ")map[");
	}
	free(dflt);
	for (unsigned int i = 0; i < s->nr; i++) {
		const struct assignment_entry *e = &s->entries[i];
		bool new_pod = !i ||
			       strcmp(e->pod_uid, s->entries[i - 1].pod_uid);
		char *cpus = cpuset_to_str(&e->cpus);

		if (!cpus) {
			js->oom = true;
			return;
		}
		strbuf_adds(js, !i ? ",\"entries\":{" : new_pod ? "}," : ",");
		if (new_pod) {
			json_str(js, e->pod_uid);
			strbuf_adds(js, ":{");
		}
		json_str(js, e->container);
		strbuf_addc(js, ':');
		json_str(js, cpus);
		if (h) {
			if (new_pod) {
				strbuf_adds(h, i ? "] " : "");
				strbuf_adds(h, e->pod_uid);
				strbuf_adds(h, ":map[");
			} else {
				strbuf_addc(h, ' ');
			}
			strbuf_adds(h, e->container);
			strbuf_addc(h, ':');
			strbuf_adds(h, cpus);
		}
		free(cpus);
	}
	if (s->nr)
		strbuf_adds(js, "}}");
	if (h)
		strbuf_adds(h, s->nr ? "]]" : "]");
}

/* podEntries: a PodEntry marshals as {"cpuSet": ...}, omitted if empty */
static void render_pools(const struct cpu_assignments *s, struct strbuf *js,
			 struct strbuf *h)
{
	for (unsigned int i = 0; i < s->nr_pods; i++) {
		const struct pod_cpus *p = &s->pods[i];

		strbuf_adds(js, i ? "," : ",\"podEntries\":{");
		json_str(js, p->pod_uid);
		strbuf_adds(js, ":{");
		if (!cpuset_empty(&p->cpus)) {
			strbuf_adds(js, "\"cpuSet\":");
			json_cpus(js, &p->cpus);
		}
		strbuf_addc(js, '}');
	}
	if (s->nr_pods)
		strbuf_addc(js, '}');
	if (!h)
		return;
	strbuf_adds(h, " PodEntries:(" T_POD_ENTRIES ")map[");
	for (unsigned int i = 0; i < s->nr_pods; i++) {
		strbuf_adds(h, i ? " " : "");
		strbuf_adds(h, s->pods[i].pod_uid);
		strbuf_adds(h, ":{CPUSet:(cpuset.CPUSet){elems:(map[int]struct {})");
		checkpoint_spew_cpus(h, &s->pods[i].cpus);
		strbuf_adds(h, "}}");
	}
	strbuf_addc(h, ']');
}

/* baselines: pod -> container -> {"baseline": text} */
static void render_baselines(const struct cpu_assignments *s,
			     struct strbuf *js)
{
	for (unsigned int i = 0; i < s->nr_baselines; i++) {
		const struct cpu_baseline *b = &s->baselines[i];
		bool new_pod = !i || strcmp(b->pod_uid,
					    s->baselines[i - 1].pod_uid);

		strbuf_adds(js, !i ? ",\"baselines\":{" : new_pod ? "}," : ",");
		if (new_pod) {
			json_str(js, b->pod_uid);
			strbuf_adds(js, ":{");
		}
		json_str(js, b->container);
		strbuf_adds(js, ":{\"baseline\":");
		json_str(js, b->cpus);
		strbuf_addc(js, '}');
	}
	if (s->nr_baselines)
		strbuf_adds(js, "}}");
}

/*
 * One version's file.  v2: the struct with its checksum.  v3: v2 plus
 * podEntries, hashed under the legacy type name as 1.36 writes it.  v4:
 * the v2 keys and checksum inline for older kubelets, then "data", the
 * JSON of CPUManagerCheckpointData, and "dataChecksum" over that string.
 */
static char *render(enum checkpoint_version v, const char *policy,
		    const struct cpu_assignments *s, size_t *len)
{
	struct strbuf js = STRBUF_INIT, h = STRBUF_INIT, data = STRBUF_INIT;
	char *out = NULL;

	strbuf_adds(&h, SPEW_PTR GO_CHECKPOINT ")");
	render_head(policy, s, &js, &h);
	if (v == CHECKPOINT_V3) {
		render_pools(s, &js, &h);
		strbuf_adds(&h, " Checksum:(" T_CHECKSUM ")0}");
		if (!h.oom)
			strbuf_addf(&js, ",\"checksum\":%" PRIu32 "}",
				    checkpoint_fnv1a32(h.buf, h.len));
	} else {
		strbuf_adds(&h, " Checksum:(" T_CHECKSUM ")0}");
		if (!h.oom)
			strbuf_addf(&js, ",\"checksum\":%" PRIu32,
				    checkpoint_fnv1a32(h.buf, h.len));
		if (v == CHECKPOINT_V4) {
			render_head(policy, s, &data, NULL);
			render_pools(s, &data, NULL);
			render_baselines(s, &data);
			strbuf_addc(&data, '}');
			strbuf_adds(&js, ",\"data\":");
			if (!data.oom) {
				gojson_append_string(&js, data.buf, data.len);
				strbuf_addf(&js, ",\"dataChecksum\":%" PRIu32,
					    checkpoint_string_checksum(data.buf,
								       data.len));
			}
		}
		strbuf_addc(&js, '}');
	}
	if (!h.oom && !data.oom)
		out = strbuf_detach(&js, len);
	strbuf_release(&js);
	strbuf_release(&h);
	strbuf_release(&data);
	return out;
}

uint32_t checkpoint_checksum(const char *policy,
			     const struct cpu_assignments *s)
{
	struct strbuf js = STRBUF_INIT, h = STRBUF_INIT;
	uint32_t sum = 0;

	strbuf_adds(&h, SPEW_PTR GO_CHECKPOINT ")");
	render_head(policy, s, &js, &h);
	strbuf_adds(&h, " Checksum:(" T_CHECKSUM ")0}");
	if (!js.oom && !h.oom)
		sum = checkpoint_fnv1a32(h.buf, h.len);
	strbuf_release(&js);
	strbuf_release(&h);
	return sum;
}

char *checkpoint_format(const char *policy, const struct cpu_assignments *s,
			size_t *len)
{
	return render(CHECKPOINT_V2, policy, s, len);
}

char *checkpoint_format_version(enum checkpoint_version v, const char *policy,
				const struct cpu_assignments *s, size_t *len)
{
	if (v < CHECKPOINT_V2 || v > CHECKPOINT_V4)
		return NULL;
	return render(v, policy, s, len);
}

int checkpoint_version_parse(const char *name, enum checkpoint_version *out,
			     struct cm_error *err)
{
	if (!strcmp(name, "v2") || !strcmp(name, "2"))
		*out = CHECKPOINT_V2;
	else if (!strcmp(name, "v3") || !strcmp(name, "3"))
		*out = CHECKPOINT_V3;
	else if (!strcmp(name, "v4") || !strcmp(name, "4"))
		*out = CHECKPOINT_V4;
	else
		return cm_errorf(err, "unknown checkpoint version \"%s\": v2, v3 or v4",
				 name);
	return 0;
}

const char *checkpoint_version_name(enum checkpoint_version v)
{
	static const char *const names[] = {
		[CHECKPOINT_V1] = "v1", [CHECKPOINT_V2] = "v2",
		[CHECKPOINT_V3] = "v3", [CHECKPOINT_V4] = "v4",
	};

	return v >= CHECKPOINT_V1 && v <= CHECKPOINT_V4 ? names[v] : "?";
}
