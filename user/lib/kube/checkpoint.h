/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kubelet's CPU manager checkpoint, "cpu_manager_state"
 * (pkg/kubelet/cm/cpumanager/state/checkpoint.go), byte for byte, in the
 * versions the kubelets of 1.18 to 1.37 write:
 *
 * v2 (1.18 on; 1.36 with PodLevelResourceManagers off):
 *   {"policyName":"static","defaultCpuSet":"0,5-7","entries":{"<pod UID>":
 *   {"<container>":"1-4"}},"checksum":1234567890}
 * v3 (1.36 with PodLevelResourceManagers): v2 plus, before the checksum,
 *   "podEntries":{"<pod UID>":{"cpuSet":"1-6"}}
 * v4 (1.37): the v2 members and v2 checksum inline, for older kubelets,
 *   then "data": the JSON of {policyName, defaultCpuSet, entries,
 *   podEntries, baselines: {"<pod UID>":{"<container>":{"baseline":
 *   "1-4"}}}} as a string, and "dataChecksum" over that string.
 *
 * json.Marshal: members in that order, no spaces, map keys sorted, the
 * maps left out when empty (a pod entry's "cpuSet" too), no trailing
 * newline.  A v2 or v3 checksum is FNV-1a 32 over go-spew's %#v
 * rendering of a pointer to the struct with the checksum zeroed
 * (checksum.New(cp) / DeepHashObject), under the legacy type name:
 *
 *   (*state.CPUManagerCheckpoint){PolicyName:(string)static
 *   DefaultCPUSet:(string)0,5-7 Entries:(map[string]map[string]string)
 *   map[<pod UID>:map[<container>:1-4]] PodEntries:(state.
 *   PodCPUAssignments)map[<pod UID>:{CPUSet:(cpuset.CPUSet){elems:
 *   (map[int]struct {})map[1:{} 2:{}]}}] Checksum:(checksum.Checksum)0}
 *
 * (one line; PodEntries in v3 only; strings raw, map keys sorted, nil
 * maps as "<nil>").  The data checksum is checksum.New() of the string:
 * FNV-1a 32 over "(string)" and the string.
 *
 * Reading follows the 1.37 kubelet's loader: v4 first, judged by its
 * dataChecksum alone, its data the state; a v4 that fails with "data"
 * or "dataChecksum" present is refused ("could not load v4 checkpoint:
 * ...") without trying the others; else v3 (its checksum covers
 * podEntries, and may be rendered under "CPUManagerCheckpointV3", which
 * the kubelet's tests write; no zero checksum), else v2, whose error is
 * the one reported; then, as kubelets up to 1.36 do, v1 (entries keyed
 * by container ID, hashed under the v2 type name) migrated.  A v2 or v1
 * checksum of zero or none is taken unverified, as VerifyChecksum()
 * takes it ("compatibility with old file backend"): such a file is
 * marked unverified, and the store's next save writes it back with its
 * checksum, as the kubelet's next storeState() does.  (A flipped letter
 * in the "checksum" key slips through both.)
 *
 * Hand-written on purpose: go-spew's %#v is Go reflection output no C
 * library renders, and the checksum is over its exact bytes; FNV-1a 32
 * is a loop of two operations.
 *
 * The store keeps the file in a state directory: written atomically
 * (temporary file in the same directory, fsync, rename, fsync of the
 * directory) by a writer holding an flock on a lock file there, and never
 * overwritten while it fails to read back unless the caller forces it.
 */
#ifndef CPUMGR_CHECKPOINT_H
#define CPUMGR_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "assignments.h"

#define CHECKPOINT_FILE		"cpu_manager_state"
#define CHECKPOINT_DIR		"/var/lib/cpumgr"

/* The kubelet's error texts (checkpointmanager/errors). */
#define CHECKPOINT_ERR_CORRUPT	"checkpoint is corrupted"
#define CHECKPOINT_ERR_MISSING	"checkpoint is not found"

enum checkpoint_version {
	CHECKPOINT_V1 = 1, CHECKPOINT_V2, CHECKPOINT_V3, CHECKPOINT_V4,
};

struct checkpoint {
	char *policy;			/* policyName ("" when absent) */
	/* defaultCpuSet, entries, podEntries, baselines */
	struct cpu_assignments state;
	uint64_t checksum;		/* as stored (v4: its dataChecksum) */
	enum checkpoint_version version;	/* format it was read as */
	bool unverified;	/* checksum 0 or missing: the old file backend */
};

/*
 * A v1 checkpoint names containers by runtime ID; the kubelet maps them
 * to (pod UID, container name) with its initial container list.  Return
 * 0 and fill pod_uid/container (POD_UID_MAX + 1 and CONTAINER_NAME_MAX
 * + 1 bytes), or non-zero when unknown.
 */
typedef int (*checkpoint_resolve_fn)(void *ctx, const char *container_id,
				     char *pod_uid, char *container);

struct checkpoint_opts {
	/* NULL: v1 entries cannot migrate */
	checkpoint_resolve_fn resolve;
	void *ctx;
};

/* The v2 checksum the kubelet stores for this policy name and state. */
uint32_t checkpoint_checksum(const char *policy,
			     const struct cpu_assignments *s);
/*
 * checksum.New(data) of a string: FNV-1a 32 over its hash dump, as v4's
 * dataChecksum and the kubelet's other JSON-string checkpoints
 * (allocated_pods_state) have it.
 */
uint32_t checkpoint_string_checksum(const char *s, size_t len);

/*
 * The checkpoint file's bytes exactly as the kubelet writes them (malloc'd,
 * NUL-terminated; *len without the NUL), v2: the pod-level maps are not
 * in it.  NULL on allocation failure.
 */
char *checkpoint_format(const char *policy, const struct cpu_assignments *s,
			size_t *len);
/* The same in version v (v2 to v4; NULL for another). */
char *checkpoint_format_version(enum checkpoint_version v, const char *policy,
				const struct cpu_assignments *s, size_t *len);

/* "v2", "v3", "v4" (or "2".."4"); the kubelet's text for a bad one. */
int checkpoint_version_parse(const char *name, enum checkpoint_version *out,
			     struct cm_error *err);
const char *checkpoint_version_name(enum checkpoint_version v);

/*
 * Read and verify a checkpoint of any version (o may be NULL).  Returns 0
 * (a zero or missing v2/v1 checksum too: out->unverified), -EBADMSG with
 * "checkpoint is corrupted" when the checksum does not match (a v4:
 * "could not load v4 checkpoint: checkpoint is corrupted"), or -EINVAL
 * for bad JSON (Go's texts), wrong types ("json: cannot unmarshal ..."),
 * a v4 whose data does not decode ("could not load v4 checkpoint: failed
 * to deserialize cpu manager checkpoint data: ..."), CPU lists the
 * kubelet cannot parse ("could not parse default cpu set ..."), names
 * too long for the state, or a v1 entry that cannot migrate.  On error
 * *out is left empty.
 */
int checkpoint_parse(const char *buf, size_t len,
		     const struct checkpoint_opts *o, struct checkpoint *out,
		     struct cm_error *err);
void checkpoint_free(struct checkpoint *c);

/*
 * What the kubelet's checkpoint decided for a container (guard mode):
 * CPUs of its own (entries), a place in its pod's pool (podEntries, no
 * entry: the pod's shared CPUs, KEP-5526), or nothing: the node's shared
 * pool.
 */
enum checkpoint_decision {
	CHECKPOINT_SHARED, CHECKPOINT_CONTAINER, CHECKPOINT_POD_POOL,
};
enum checkpoint_decision checkpoint_decided(const struct checkpoint *c,
					    const char *pod_uid,
					    const char *container);

/*
 * The kubelet's restore check: "configured policy \"static\" differs from
 * state checkpoint policy \"none\"".
 */
int checkpoint_check_policy(const struct checkpoint *c, const char *policy,
			    struct cm_error *err);

/* ---- the file in its state directory ---- */

struct checkpoint_store {
	char *dir;
	char *name;		/* CHECKPOINT_FILE unless chosen */
	int dir_fd;
	int lock_fd;		/* -1 while not locked */
	unsigned int stale_removed;	/* temp files cleaned at lock time */
	/*
	 * Each lock writes a token of its own into the lock file, kept
	 * there after the unlock: the token found when locking is the last
	 * holder's.  A process that finds its own from its last lock knows
	 * no other writer held the lock since ("" when there was none).
	 */
	char token[64], prev_token[64];
	/*
	 * Called once, at once, when the lock is held by another process
	 * and the lock waits for it (holder: its pid, 0 if unknown).
	 */
	void (*waiting)(void *arg, long holder);
	void *waiting_arg;
};

/*
 * Open the state directory (created with its parents, mode 0755, when
 * create is set).  name NULL means CHECKPOINT_FILE.
 */
int checkpoint_store_open(struct checkpoint_store *st, const char *dir,
			  const char *name, bool create, struct cm_error *err);
/* Unlocks and closes. */
void checkpoint_store_close(struct checkpoint_store *st);

/*
 * Take the writers' lock, an flock on ".<name>.lock" in the directory
 * (the holder's pid, then its token, in it; "-" for the pid once
 * unlocked):
 * timeout_ms 0 tries once, < 0 waits for ever.  -EWOULDBLOCK or
 * -ETIMEDOUT name the holder's pid when it wrote one.  Once locked, temp
 * files left by a writer that died between write and rename are removed
 * (their count in stale_removed): no other writer can be mid-write.
 */
int checkpoint_store_lock(struct checkpoint_store *st, int timeout_ms,
			  struct cm_error *err);
void checkpoint_store_unlock(struct checkpoint_store *st);

/* The file's bytes; -ENOENT with "checkpoint is not found". */
int checkpoint_store_read(struct checkpoint_store *st, char **buf,
			  size_t *len, struct cm_error *err);
/* Read and parse (see checkpoint_parse()). */
int checkpoint_store_load(struct checkpoint_store *st,
			  const struct checkpoint_opts *o,
			  struct checkpoint *out, struct cm_error *err);

/*
 * Replace the file atomically with data; needs the lock (-ENOLCK).  The
 * two halves are exposed for callers that must act in between: stage
 * writes and syncs ".<name>.tmp.XXXXXX" and returns its name (free it);
 * commit renames it over the file and syncs the directory; abort removes
 * it.  A writer killed between the two leaves only a stale temp file,
 * removed at the next lock.
 */
int checkpoint_store_write(struct checkpoint_store *st, const void *data,
			   size_t len, struct cm_error *err);
int checkpoint_store_stage(struct checkpoint_store *st, const void *data,
			   size_t len, char **tmp_name, struct cm_error *err);
int checkpoint_store_commit(struct checkpoint_store *st, const char *tmp_name,
			    struct cm_error *err);
void checkpoint_store_abort(struct checkpoint_store *st, const char *tmp_name);

/* overwrite a file that does not read back */
#define CHECKPOINT_FORCE	0x1

/*
 * Write the checkpoint for this policy and state; needs the lock.  An
 * existing file that does not read back (corrupt, not JSON, bad CPU list)
 * is left alone and -EBADMSG/-EINVAL returned ("refusing to overwrite
 * ..."), unless flags has CHECKPOINT_FORCE: then it is first kept as
 * "<name>.corrupt" for inspection.
 */
int checkpoint_store_save(struct checkpoint_store *st, const char *policy,
			  const struct cpu_assignments *s, unsigned int flags,
			  struct cm_error *err);
/* The same with the file's text made by the caller (any version). */
int checkpoint_store_save_text(struct checkpoint_store *st, const char *data,
			       size_t len, unsigned int flags,
			       struct cm_error *err);

#endif
