// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a checkpoint the way the 1.37 kubelet's loader does
 * (loadAndMigrateCheckpointV4() and what it falls back on): v4, v3, v2,
 * then v1 as older kubelets do, each decoded and verified on its own; the
 * version that loads gives the state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint_internal.h"

#define GO_V1		GO_CHECKPOINT "V1"
#define GO_V2		GO_CHECKPOINT "V2"
#define GO_V3		GO_CHECKPOINT "V3"
#define GO_DATA		GO_CHECKPOINT "Data"

static const struct go_struct go_v4 = {
	GO_CHECKPOINT, F_POLICY | F_DEFAULT | F_ENTRIES | F_CHECKSUM |
		       F_DATA | F_DATA_SUM,
};
static const struct go_struct go_data = {
	GO_DATA, F_POLICY | F_DEFAULT | F_ENTRIES | F_PODS | F_BASELINES,
};
static const struct go_struct go_v3 = {
	GO_V3, F_POLICY | F_DEFAULT | F_ENTRIES | F_PODS | F_CHECKSUM,
};
static const struct go_struct go_v2 = {
	GO_V2, F_POLICY | F_DEFAULT | F_ENTRIES | F_CHECKSUM,
};
static const struct go_struct go_v1 = {
	GO_V1, F_POLICY | F_DEFAULT | F_FLAT | F_CHECKSUM,
};

/* What a successful load keeps alive: the documents d points into. */
struct loaded {
	struct gojson_value *root, *data_root;
	struct decoded d;
	enum checkpoint_version version;
};

static int corrupt(struct cm_error *err)
{
	cm_errorf(err, CHECKPOINT_ERR_CORRUPT);
	return -EBADMSG;
}

/*
 * The v4 UnmarshalCheckpoint() and VerifyChecksum(): the file, then its
 * data, then the data's checksum.  *is_v4: data or dataChecksum were
 * there, so a failure is final.
 */
static int try_v4(struct loaded *l, bool *is_v4, struct cm_error *err)
{
	struct decoded top;
	int ret = checkpoint_decode(l->root, &go_v4, &top, err);

	if (ret == -EINVAL)
		cm_error_prefix(err, "failed to deserialize cpu manager checkpoint");
	if (!ret) {
		l->data_root = gojson_parse(top.data.s, top.data.len, err);
		ret = l->data_root ?
		      checkpoint_decode(l->data_root, &go_data, &l->d, err) :
		      -EINVAL;
		if (ret == -EINVAL)
			cm_error_prefix(err, "failed to deserialize cpu manager checkpoint data");
	}
	if (!ret && top.data_checksum !=
		    checkpoint_string_checksum(top.data.s, top.data.len))
		ret = corrupt(err);
	*is_v4 = top.data.len || top.data_checksum;
	if (ret && *is_v4)
		cm_error_prefix(err, "could not load v4 checkpoint");
	l->d.checksum = top.data_checksum;
	checkpoint_decoded_free(&top);
	return ret;
}

/*
 * v3's VerifyChecksum(): its own type name or the legacy one, which 1.36
 * writes; a zero checksum is no exception.
 */
static int try_v3(struct loaded *l, struct cm_error *err)
{
	uint32_t own, legacy;
	int ret = checkpoint_decode(l->root, &go_v3, &l->d, err);

	if (ret)
		return ret;
	if (checkpoint_decoded_checksum(&l->d, GO_V3, &own) ||
	    checkpoint_decoded_checksum(&l->d, GO_CHECKPOINT, &legacy))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (l->d.checksum != own && l->d.checksum != legacy)
		return corrupt(err);
	return 0;
}

/*
 * v2 or v1: a zero or missing checksum is the kubelet's old file backend,
 * taken unverified; v1 is hashed under the v2 type name too.
 */
static int try_old(struct loaded *l, const struct go_struct *type,
		   struct cm_error *err)
{
	uint32_t sum;

	if (checkpoint_decode(l->root, type, &l->d, err))
		return -EINVAL;
	if (!l->d.checksum)
		return 0;
	if (checkpoint_decoded_checksum(&l->d, GO_CHECKPOINT, &sum))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	return l->d.checksum != sum ? corrupt(err) : 0;
}

static int load(struct loaded *l, struct cm_error *err)
{
	struct cm_error v2err = { 0 };
	bool is_v4;
	int ret, r2;

	ret = try_v4(l, &is_v4, err);
	if (!ret || is_v4 || ret == -ENOMEM) {
		l->version = CHECKPOINT_V4;
		return ret;
	}
	checkpoint_decoded_free(&l->d);
	cm_error_clear(err);
	ret = try_v3(l, err);
	l->version = CHECKPOINT_V3;
	if (!ret || ret == -ENOMEM)
		return ret;
	checkpoint_decoded_free(&l->d);
	cm_error_clear(err);
	/* the kubelet reports v2's error; v1 as its loaders before 1.37 */
	r2 = ret = try_old(l, &go_v2, &v2err);
	l->version = CHECKPOINT_V2;
	if (r2 && r2 != -ENOMEM) {
		checkpoint_decoded_free(&l->d);
		ret = try_old(l, &go_v1, err);
		l->version = CHECKPOINT_V1;
		/* report the v2 failure unless v1 got as far as its checksum */
		if (ret == -EINVAL || (ret && r2 == -EBADMSG)) {
			cm_errorf(err, "%s", cm_error_msg(&v2err));
			ret = r2;
		}
	} else if (r2) {
		cm_errorf(err, "%s", cm_error_msg(&v2err));
	}
	cm_error_clear(&v2err);
	return ret;
}

/* ---- the state ---- */

/* A Go string as a C string for the state: no NUL, bounded length. */
static int c_name(struct gstr g, size_t max, const char *what, char *out,
		  struct cm_error *err)
{
	if (memchr(g.s, '\0', g.len))
		return cm_errorf(err, "%s in checkpoint holds a NUL byte", what);
	if (g.len > max)
		return cm_errorf(err, "%s \"%.*s\" in checkpoint: longer than %zu bytes",
				 what, (int)g.len, g.s, max);
	memcpy(out, g.s, g.len);
	out[g.len] = '\0';
	return 0;
}

static int parse_cpus(struct gstr g, struct cpuset *out, struct cm_error *err)
{
	char *s = strndup(g.s, g.len);
	int ret;

	if (!s)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (strlen(s) != g.len)
		ret = cm_errorf(err, "invalid cpulist: NUL byte");
	else
		ret = cpuset_parse_kube(out, s, err);
	free(s);
	return ret;
}

static int add_entry(struct cpu_assignments *st, struct gstr uid,
		     struct gstr name, struct gstr cpus, struct cm_error *err)
{
	char u[POD_UID_MAX + 1], c[CONTAINER_NAME_MAX + 1];
	struct cpuset set;

	if (parse_cpus(cpus, &set, err)) {
		cm_error_prefix(err, "could not parse cpuset \"%.*s\" for container \"%.*s\" in pod \"%.*s\"",
				(int)cpus.len, cpus.s, (int)name.len, name.s,
				(int)uid.len, uid.s);
		return -EINVAL;
	}
	if (c_name(uid, POD_UID_MAX, "pod UID", u, err) ||
	    c_name(name, CONTAINER_NAME_MAX, "container name", c, err))
		return -EINVAL;
	if (assignments_set(st, u, c, &set))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	return 0;
}

static int resolve_id(const struct kv *e, const struct checkpoint_opts *o,
		      char *uid, char *name)
{
	char id[256];

	if (!o || !o->resolve || e->key.len >= sizeof(id) ||
	    memchr(e->key.s, '\0', e->key.len))
		return -ENOENT;
	memcpy(id, e->key.s, e->key.len);
	id[e->key.len] = '\0';
	return o->resolve(o->ctx, id, uid, name) ? -ENOENT : 0;
}

static int kv_cmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	int c = memcmp(x->key.s, y->key.s,
		       x->key.len < y->key.len ? x->key.len : y->key.len);

	return c ? c : (x->key.len > y->key.len) - (x->key.len < y->key.len);
}

/* migrateV1CheckpointToV2Checkpoint(), in container ID order */
static int migrate_v1(struct decoded *d, const struct checkpoint_opts *o,
		      struct cpu_assignments *st, struct cm_error *err)
{
	if (d->flat.nr > 1)
		qsort(d->flat.kv, d->flat.nr, sizeof(*d->flat.kv), kv_cmp);
	for (unsigned int i = 0; i < d->flat.nr; i++) {
		const struct kv *e = &d->flat.kv[i];
		char u[POD_UID_MAX + 1] = "", c[CONTAINER_NAME_MAX + 1] = "";
		struct gstr uid = { u, 0 }, name = { c, 0 };

		if (resolve_id(e, o, u, c))
			return cm_errorf(err, "failed to migrate checkpoint from v1 to v2: containerID '%.*s' not found in initial containers list",
					 (int)e->key.len, e->key.s);
		uid.len = strnlen(u, sizeof(u));
		name.len = strnlen(c, sizeof(c));
		if (add_entry(st, uid, name, e->val, err))
			return -EINVAL;
	}
	return 0;
}

/* podEntries and baselines, names checked as the entries' are */
static int pod_level_state(const struct decoded *d, struct cpu_assignments *st,
			   struct cm_error *err)
{
	char u[POD_UID_MAX + 1], c[CONTAINER_NAME_MAX + 1];

	for (unsigned int i = 0; i < d->nr_pools; i++) {
		if (c_name(d->pools[i].uid, POD_UID_MAX, "pod UID", u, err))
			return -EINVAL;
		if (assignments_set_pool(st, u, &d->pools[i].cpus))
			return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	for (unsigned int i = 0; i < d->nr_bl; i++) {
		const struct pod_map *p = &d->bl[i];

		if (c_name(p->uid, POD_UID_MAX, "pod UID", u, err))
			return -EINVAL;
		for (unsigned int j = 0; j < p->c.nr; j++) {
			struct gstr b = p->c.kv[j].val;

			if (c_name(p->c.kv[j].key, CONTAINER_NAME_MAX,
				   "container name", c, err))
				return -EINVAL;
			if (memchr(b.s, '\0', b.len))
				return cm_errorf(err, "baseline of container \"%s\" in pod \"%s\" holds a NUL byte",
						 c, u);
			if (assignments_set_baseline(st, u, c, b.s, b.len))
				return cm_errorf(err, "out of memory"), -ENOMEM;
		}
	}
	return 0;
}

static int to_state(struct loaded *l, const struct checkpoint_opts *o,
		    struct checkpoint *out, struct cm_error *err)
{
	struct decoded *d = &l->d;

	out->version = l->version;
	out->checksum = d->checksum;
	out->unverified = l->version <= CHECKPOINT_V2 && !d->checksum;
	out->policy = strndup(d->policy.s, d->policy.len);
	if (!out->policy)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (strlen(out->policy) != d->policy.len)
		return cm_errorf(err, "policy name in checkpoint holds a NUL byte");
	if (parse_cpus(d->dflt, &out->state.default_set, err)) {
		cm_error_prefix(err, "could not parse default cpu set \"%.*s\"",
				(int)d->dflt.len, d->dflt.s);
		return -EINVAL;
	}
	if (l->version == CHECKPOINT_V1)
		return migrate_v1(d, o, &out->state, err);
	for (unsigned int i = 0; i < d->nr; i++)
		for (unsigned int j = 0; j < d->pods[i].c.nr; j++)
			if (add_entry(&out->state, d->pods[i].uid,
				      d->pods[i].c.kv[j].key,
				      d->pods[i].c.kv[j].val, err))
				return -EINVAL;
	return pod_level_state(d, &out->state, err);
}

int checkpoint_parse(const char *buf, size_t len,
		     const struct checkpoint_opts *o, struct checkpoint *out,
		     struct cm_error *err)
{
	struct loaded l = { 0 };
	int ret;

	memset(out, 0, sizeof(*out));
	assignments_init(&out->state);
	l.root = gojson_parse(buf, len, err);
	if (!l.root)
		return -EINVAL;
	ret = load(&l, err);
	if (!ret)
		ret = to_state(&l, o, out, err);
	checkpoint_decoded_free(&l.d);
	gojson_free(l.data_root);
	gojson_free(l.root);
	if (ret)
		checkpoint_free(out);
	return ret;
}

void checkpoint_free(struct checkpoint *c)
{
	free(c->policy);
	assignments_free(&c->state);
	memset(c, 0, sizeof(*c));
}

enum checkpoint_decision checkpoint_decided(const struct checkpoint *c,
					    const char *pod_uid,
					    const char *container)
{
	if (assignments_get(&c->state, pod_uid, container))
		return CHECKPOINT_CONTAINER;
	if (assignments_get_pool(&c->state, pod_uid))
		return CHECKPOINT_POD_POOL;
	return CHECKPOINT_SHARED;
}

int checkpoint_check_policy(const struct checkpoint *c, const char *policy,
			    struct cm_error *err)
{
	if (strcmp(c->policy, policy))
		return cm_errorf(err, "configured policy \"%s\" differs from state checkpoint policy \"%s\"",
				 policy, c->policy);
	return 0;
}
