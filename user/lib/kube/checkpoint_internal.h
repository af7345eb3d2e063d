/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the checkpoint's three files: checkpoint.c writes the versions
 * and their checksums, checkpoint_decode.c reads one Go struct out of a
 * JSON document the way encoding/json fills it, checkpoint_load.c tries
 * the versions in the kubelet's order.
 */
#ifndef CPUMGR_CHECKPOINT_INTERNAL_H
#define CPUMGR_CHECKPOINT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "checkpoint.h"
#include "gojson.h"
#include "strbuf.h"

/* reflect's names for the hashed types */
#define SPEW_PTR		"(*state."
#define GO_CHECKPOINT		"CPUManagerCheckpoint"
#define T_STRING		"string"
#define T_CHECKSUM		"checksum.Checksum"
#define T_MAP			"map[string]string"
#define T_MAP_MAP		"map[string]map[string]string"
#define T_POD_ENTRIES		"state.PodCPUAssignments"
#define T_POD_ENTRY_JSON	"state.podEntryJSON"
#define T_BASELINES		"map[string]map[string]state.ContainerCPUs"
#define T_BASELINES_POD		"map[string]state.ContainerCPUs"
#define T_BASELINE		"state.ContainerCPUs"

uint32_t checkpoint_fnv1a32(const char *s, size_t len);
/* The spew rendering of a cpuset.CPUSet's map: "map[1:{} 2:{}]". */
void checkpoint_spew_cpus(struct strbuf *h, const struct cpuset *cpus);

/* A Go string: bytes into the parsed document. */
struct gstr {
	const char *s;
	size_t len;
};

struct kv {
	struct gstr key, val;
};

struct kv_map {
	bool nil;
	unsigned int nr, cap;
	struct kv *kv;
};

/* entries (key -> container -> CPUs) and baselines (-> baseline) */
struct pod_map {
	struct gstr uid;
	struct kv_map c;
};

struct pod_pool {
	struct gstr uid;
	struct cpuset cpus;
};

/* The members a version's struct has. */
enum {
	F_POLICY	= 1 << 0,
	F_DEFAULT	= 1 << 1,
	F_ENTRIES	= 1 << 2,	/* map[string]map[string]string */
	F_FLAT		= 1 << 3,	/* v1: map[string]string */
	F_PODS		= 1 << 4,	/* podEntries */
	F_BASELINES	= 1 << 5,
	F_CHECKSUM	= 1 << 6,
	F_DATA		= 1 << 7,
	F_DATA_SUM	= 1 << 8,
};

struct go_struct {
	const char *name;	/* for error texts */
	unsigned int fields;
};

/* What Go's json.Unmarshal leaves in one of the structs. */
struct decoded {
	const struct go_struct *type;
	struct gstr policy, dflt, data;
	uint64_t checksum, data_checksum;
	bool entries_nil, pods_nil, baselines_nil;
	unsigned int nr, cap;
	struct pod_map *pods;		/* entries */
	struct kv_map flat;		/* v1 entries */
	unsigned int nr_pools, cap_pools;
	struct pod_pool *pools;		/* podEntries */
	unsigned int nr_bl, cap_bl;
	struct pod_map *bl;		/* baselines */
};

/*
 * json.Unmarshal(root, &struct): 0, or -EINVAL with Go's text (its first
 * type error, after decoding the rest as Go does; or the error a
 * podEntries value's UnmarshalJSON stops it with), -ENOMEM.
 */
int checkpoint_decode(const struct gojson_value *root,
		      const struct go_struct *type, struct decoded *d,
		      struct cm_error *err);
void checkpoint_decoded_free(struct decoded *d);
/*
 * The checksum the decoded v1, v2 or v3 struct hashes to, rendered under
 * the type name given (sorts the decoded maps).
 */
int checkpoint_decoded_checksum(struct decoded *d, const char *type_name,
				uint32_t *sum);

#endif
