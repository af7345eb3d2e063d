// SPDX-License-Identifier: GPL-2.0
/*
 * The checkpoint's bytes and checksum: writing them as the kubelet does,
 * and reading them back through Go's decoding rules so that exactly the
 * values the kubelet would hash are hashed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "gojson.h"
#include "strbuf.h"

/* reflect's names for the hashed and decoded types */
#define SPEW_TYPE	"(*state.CPUManagerCheckpoint)"
#define GO_STRUCT_V2	"CPUManagerCheckpoint"
#define GO_STRUCT_V1	"CPUManagerCheckpointV1"
#define T_STRING	"string"
#define T_CHECKSUM	"checksum.Checksum"
#define T_MAP		"map[string]string"
#define T_MAP_MAP	"map[string]map[string]string"

#define FNV32_OFFSET	2166136261u
#define FNV32_PRIME	16777619u

static uint32_t fnv1a32(const char *s, size_t len)
{
	uint32_t h = FNV32_OFFSET;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= FNV32_PRIME;
	}
	return h;
}

/* ---- writing ---- */

/*
 * The spew rendering's head and tail around the entries; spew prints
 * strings raw and the checksum field as the zero it was set to.
 */
static void spew_head(struct strbuf *h, const char *policy, const char *dflt,
		      const char *map_type)
{
	strbuf_adds(h, SPEW_TYPE "{PolicyName:(string)");
	strbuf_adds(h, policy);
	strbuf_adds(h, " DefaultCPUSet:(string)");
	strbuf_adds(h, dflt);
	strbuf_adds(h, " Entries:(");
	strbuf_adds(h, map_type);
	strbuf_adds(h, ")");
}

static void spew_tail(struct strbuf *h)
{
	strbuf_adds(h, " Checksum:(" T_CHECKSUM ")0}");
}

/*
 * Both texts in one walk: the JSON without its checksum member, and the
 * spew rendering.  Entries are sorted by (pod UID, container) as both Go
 * printers sort map keys, byte-wise.
 */
static int render(const char *policy, const struct cpu_assignments *s,
		  struct strbuf *js, struct strbuf *h)
{
	char *dflt = cpuset_to_str(&s->default_set);

	if (!dflt)
		return -ENOMEM;
	strbuf_adds(js, "{\"policyName\":");
	gojson_append_string(js, policy, strlen(policy));
	strbuf_adds(js, ",\"defaultCpuSet\":");
	gojson_append_string(js, dflt, strlen(dflt));
	spew_head(h, policy, dflt, T_MAP_MAP);
	free(dflt);

	strbuf_adds(h, "map[");
	if (s->nr)
		strbuf_adds(js, ",\"entries\":{");
	for (unsigned int i = 0; i < s->nr; i++) {
		const struct assignment_entry *e = &s->entries[i];
		bool new_pod = !i ||
			       strcmp(e->pod_uid, s->entries[i - 1].pod_uid);
		char *cpus = cpuset_to_str(&e->cpus);

		if (!cpus)
			return -ENOMEM;
		if (new_pod) {
			if (i) {
				strbuf_adds(js, "},");
				strbuf_adds(h, "] ");
			}
			gojson_append_string(js, e->pod_uid,
					     strlen(e->pod_uid));
			strbuf_adds(js, ":{");
			strbuf_adds(h, e->pod_uid);
			strbuf_adds(h, ":map[");
		} else {
			strbuf_addc(js, ',');
			strbuf_addc(h, ' ');
		}
		gojson_append_string(js, e->container, strlen(e->container));
		strbuf_addc(js, ':');
		gojson_append_string(js, cpus, strlen(cpus));
		strbuf_adds(h, e->container);
		strbuf_addc(h, ':');
		strbuf_adds(h, cpus);
		free(cpus);
	}
	if (s->nr) {
		strbuf_adds(js, "}}");
		strbuf_addc(h, ']');
	}
	strbuf_addc(h, ']');
	spew_tail(h);
	return js->oom || h->oom ? -ENOMEM : 0;
}

uint32_t checkpoint_checksum(const char *policy,
			     const struct cpu_assignments *s)
{
	struct strbuf js = STRBUF_INIT, h = STRBUF_INIT;
	uint32_t sum = 0;

	if (!render(policy, s, &js, &h))
		sum = fnv1a32(h.buf, h.len);
	strbuf_release(&js);
	strbuf_release(&h);
	return sum;
}

char *checkpoint_format(const char *policy, const struct cpu_assignments *s,
			size_t *len)
{
	struct strbuf js = STRBUF_INIT, h = STRBUF_INIT;

	if (render(policy, s, &js, &h)) {
		strbuf_release(&js);
		strbuf_release(&h);
		return NULL;
	}
	strbuf_addf(&js, ",\"checksum\":%" PRIu32 "}", fnv1a32(h.buf, h.len));
	strbuf_release(&h);
	return strbuf_detach(&js, len);
}

/* ---- reading: what Go's json.Unmarshal leaves in the struct ---- */

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

struct pod_map {
	struct gstr uid;
	struct kv_map c;
};

struct decoded {
	const char *go_struct;	/* for error texts */
	bool v1;
	struct gstr policy, dflt;
	uint64_t checksum;
	bool entries_nil;	/* "entries": null */
	unsigned int nr, cap;
	struct pod_map *pods;	/* v2 */
	struct kv_map flat;	/* v1 */
};

static void decoded_free(struct decoded *d)
{
	for (unsigned int i = 0; i < d->nr; i++)
		free(d->pods[i].c.kv);
	free(d->pods);
	free(d->flat.kv);
}

static bool gstr_eq(struct gstr a, struct gstr b)
{
	return a.len == b.len && !memcmp(a.s, b.s, a.len);
}

static int gstr_cmp(struct gstr a, struct gstr b)
{
	int c = memcmp(a.s, b.s, a.len < b.len ? a.len : b.len);

	return c ? c : (a.len > b.len) - (a.len < b.len);
}

/*
 * Go matches a JSON key to a field name exactly or case-insensitively,
 * folding runes to the smallest of their fold set: ASCII letters, and
 * the two non-ASCII runes whose set holds an ASCII letter (U+017F long
 * s, U+212A Kelvin sign).
 */
static unsigned char ascii_upper(unsigned char c)
{
	return c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
}

static bool field_match(const struct gojson_value *m, const char *name)
{
	const unsigned char *k = (const unsigned char *)m->key;
	size_t i = 0, n = 0, len = m->key_len;

	while (i < len) {
		unsigned char got;

		if (!name[n])
			return false;
		if (k[i] < 0x80) {
			got = ascii_upper(k[i++]);
		} else if (len - i >= 2 && k[i] == 0xc5 && k[i + 1] == 0xbf) {
			got = 'S';
			i += 2;
		} else if (len - i >= 3 && k[i] == 0xe2 && k[i + 1] == 0x84 &&
			   k[i + 2] == 0xaa) {
			got = 'K';
			i += 3;
		} else {
			return false;
		}
		if (got != ascii_upper((unsigned char)name[n++]))
			return false;
	}
	return !name[n];
}

static int type_error(struct cm_error *err, const struct decoded *d,
		      const char *field, const struct gojson_value *v,
		      const char *type)
{
	if (v->type == GOJSON_NUMBER && !strcmp(type, T_CHECKSUM))
		return cm_errorf(err, "json: cannot unmarshal number %s into Go struct field %s.%s of type %s",
				 v->str, d->go_struct, field, type);
	return cm_errorf(err, "json: cannot unmarshal %s into Go struct field %s.%s of type %s",
			 gojson_kind(v), d->go_struct, field, type);
}

/* A string field: null leaves it as it was. */
static int set_string(struct decoded *d, const char *field,
		      const struct gojson_value *v, struct gstr *out,
		      struct cm_error *err)
{
	if (v->type == GOJSON_NULL)
		return 0;
	if (v->type != GOJSON_STRING)
		return type_error(err, d, field, v, T_STRING);
	out->s = v->str;
	out->len = v->len;
	return 0;
}

/* strconv.ParseUint(literal, 10, 64) */
static int set_checksum(struct decoded *d, const struct gojson_value *v,
			struct cm_error *err)
{
	uint64_t sum = 0;

	if (v->type == GOJSON_NULL)
		return 0;
	if (v->type != GOJSON_NUMBER)
		return type_error(err, d, "checksum", v, T_CHECKSUM);
	for (const char *p = v->str; *p; p++) {
		unsigned int digit = (unsigned int)(*p - '0');

		if (*p < '0' || *p > '9' || sum > (UINT64_MAX - digit) / 10)
			return type_error(err, d, "checksum", v, T_CHECKSUM);
		sum = sum * 10 + digit;
	}
	d->checksum = sum;
	return 0;
}

static struct kv *kv_slot(struct kv_map *m, struct gstr key)
{
	for (unsigned int i = 0; i < m->nr; i++)
		if (gstr_eq(m->kv[i].key, key))
			return &m->kv[i];
	if (m->nr == m->cap) {
		unsigned int cap = m->cap ? 2 * m->cap : 8;
		struct kv *kv = realloc(m->kv, cap * sizeof(*kv));

		if (!kv)
			return NULL;
		m->kv = kv;
		m->cap = cap;
	}
	m->kv[m->nr].key = key;
	return &m->kv[m->nr++];
}

/* Decode an object into a map[string]string (null elements store ""). */
static int decode_kv_map(struct decoded *d, const struct gojson_value *obj,
			 struct kv_map *m, struct cm_error *err)
{
	for (const struct gojson_value *e = obj->child; e; e = e->next) {
		struct gstr key = { e->key, e->key_len }, val = { "", 0 };
		struct kv *slot;

		if (e->type != GOJSON_NULL &&
		    set_string(d, "entries", e, &val, err))
			return -EINVAL;
		slot = kv_slot(m, key);
		if (!slot)
			return cm_errorf(err, "out of memory"), -ENOMEM;
		slot->val = val;
	}
	m->nil = false;
	return 0;
}

static struct pod_map *pod_slot(struct decoded *d, struct gstr uid)
{
	struct pod_map *p;

	for (unsigned int i = 0; i < d->nr; i++)
		if (gstr_eq(d->pods[i].uid, uid))
			return &d->pods[i];
	if (d->nr == d->cap) {
		unsigned int cap = d->cap ? 2 * d->cap : 8;

		p = realloc(d->pods, cap * sizeof(*p));
		if (!p)
			return NULL;
		d->pods = p;
		d->cap = cap;
	}
	p = &d->pods[d->nr++];
	memset(p, 0, sizeof(*p));
	p->uid = uid;
	return p;
}

static int decode_entries_v2(struct decoded *d, const struct gojson_value *obj,
			     struct cm_error *err)
{
	for (const struct gojson_value *e = obj->child; e; e = e->next) {
		struct gstr uid = { e->key, e->key_len };
		struct pod_map *p;

		if (e->type != GOJSON_NULL && e->type != GOJSON_OBJECT)
			return type_error(err, d, "entries", e, T_MAP);
		p = pod_slot(d, uid);
		if (!p)
			return cm_errorf(err, "out of memory"), -ENOMEM;
		/* a repeated pod key replaces the pod's whole map */
		p->c.nr = 0;
		p->c.nil = e->type == GOJSON_NULL;
		if (e->type == GOJSON_OBJECT && decode_kv_map(d, e, &p->c, err))
			return -EINVAL;
	}
	return 0;
}

static int decode_entries(struct decoded *d, const struct gojson_value *v,
			  struct cm_error *err)
{
	if (v->type == GOJSON_NULL) {
		/* Go sets the map to nil, dropping what it held */
		for (unsigned int i = 0; i < d->nr; i++)
			free(d->pods[i].c.kv);
		d->nr = 0;
		d->flat.nr = 0;
		d->entries_nil = true;
		return 0;
	}
	if (v->type != GOJSON_OBJECT)
		return type_error(err, d, "entries", v,
				  d->v1 ? T_MAP : T_MAP_MAP);
	d->entries_nil = false;
	return d->v1 ? decode_kv_map(d, v, &d->flat, err) :
		       decode_entries_v2(d, v, err);
}

static int decode(const struct gojson_value *root, bool v1, struct decoded *d,
		  struct cm_error *err)
{
	memset(d, 0, sizeof(*d));
	d->v1 = v1;
	d->go_struct = v1 ? GO_STRUCT_V1 : GO_STRUCT_V2;
	d->policy.s = d->dflt.s = "";
	if (root->type == GOJSON_NULL)
		return 0;
	if (root->type != GOJSON_OBJECT)
		return cm_errorf(err, "json: cannot unmarshal %s into Go value of type state.%s",
				 gojson_kind(root), d->go_struct);
	for (const struct gojson_value *m = root->child; m; m = m->next) {
		int ret = 0;

		if (field_match(m, "policyName"))
			ret = set_string(d, "policyName", m, &d->policy, err);
		else if (field_match(m, "defaultCpuSet"))
			ret = set_string(d, "defaultCpuSet", m, &d->dflt, err);
		else if (field_match(m, "entries"))
			ret = decode_entries(d, m, err);
		else if (field_match(m, "checksum"))
			ret = set_checksum(d, m, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int kv_cmp(const void *a, const void *b)
{
	return gstr_cmp(((const struct kv *)a)->key,
			((const struct kv *)b)->key);
}

static int pod_cmp(const void *a, const void *b)
{
	return gstr_cmp(((const struct pod_map *)a)->uid,
			((const struct pod_map *)b)->uid);
}

static void spew_kv_map(struct strbuf *h, struct kv_map *m)
{
	if (m->nil) {
		strbuf_adds(h, "<nil>");
		return;
	}
	/* an empty map has no array: qsort() takes no NULL */
	if (m->nr > 1)
		qsort(m->kv, m->nr, sizeof(*m->kv), kv_cmp);
	strbuf_adds(h, "map[");
	for (unsigned int i = 0; i < m->nr; i++) {
		if (i)
			strbuf_addc(h, ' ');
		strbuf_add(h, m->kv[i].key.s, m->kv[i].key.len);
		strbuf_addc(h, ':');
		strbuf_add(h, m->kv[i].val.s, m->kv[i].val.len);
	}
	strbuf_addc(h, ']');
}

/*
 * The checksum the decoded struct hashes to.  v1 is rendered under the
 * v2 type name: the kubelet replaces "CPUManagerCheckpointV1" in it, as
 * v1 checkpoints were hashed before the type was renamed.
 */
static int decoded_checksum(struct decoded *d, uint32_t *sum)
{
	struct strbuf h = STRBUF_INIT;

	strbuf_adds(&h, SPEW_TYPE "{PolicyName:(string)");
	strbuf_add(&h, d->policy.s, d->policy.len);
	strbuf_adds(&h, " DefaultCPUSet:(string)");
	strbuf_add(&h, d->dflt.s, d->dflt.len);
	strbuf_adds(&h, " Entries:(");
	strbuf_adds(&h, d->v1 ? T_MAP : T_MAP_MAP);
	strbuf_addc(&h, ')');
	if (d->entries_nil) {
		strbuf_adds(&h, "<nil>");
	} else if (d->v1) {
		spew_kv_map(&h, &d->flat);
	} else {
		if (d->nr > 1)
			qsort(d->pods, d->nr, sizeof(*d->pods), pod_cmp);
		strbuf_adds(&h, "map[");
		for (unsigned int i = 0; i < d->nr; i++) {
			if (i)
				strbuf_addc(&h, ' ');
			strbuf_add(&h, d->pods[i].uid.s, d->pods[i].uid.len);
			strbuf_addc(&h, ':');
			spew_kv_map(&h, &d->pods[i].c);
		}
		strbuf_addc(&h, ']');
	}
	spew_tail(&h);
	if (h.oom) {
		strbuf_release(&h);
		return -ENOMEM;
	}
	*sum = fnv1a32(h.buf, h.len);
	strbuf_release(&h);
	return 0;
}

/*
 * Decode as one version and check its checksum: 0, -EINVAL (decoding,
 * message in err) or -EBADMSG (checksum).
 */
static int try_version(const struct gojson_value *root, bool v1,
		       struct decoded *d, struct cm_error *err)
{
	uint32_t sum;

	if (decode(root, v1, d, err))
		return -EINVAL;
	/*
	 * VerifyChecksum(): a zero or missing checksum is the kubelet's old
	 * file backend, taken unverified; the next save writes one.
	 */
	if (!d->checksum)
		return 0;
	if (decoded_checksum(d, &sum))
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (d->checksum != sum)
		return cm_errorf(err, CHECKPOINT_ERR_CORRUPT), -EBADMSG;
	return 0;
}

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

static int to_state(struct decoded *d, const struct checkpoint_opts *o,
		    struct checkpoint *out, struct cm_error *err)
{
	if (parse_cpus(d->dflt, &out->state.default_set, err)) {
		cm_error_prefix(err, "could not parse default cpu set \"%.*s\"",
				(int)d->dflt.len, d->dflt.s);
		return -EINVAL;
	}
	if (d->v1)
		return migrate_v1(d, o, &out->state, err);
	for (unsigned int i = 0; i < d->nr; i++)
		for (unsigned int j = 0; j < d->pods[i].c.nr; j++)
			if (add_entry(&out->state, d->pods[i].uid,
				      d->pods[i].c.kv[j].key,
				      d->pods[i].c.kv[j].val, err))
				return -EINVAL;
	return 0;
}

int checkpoint_parse(const char *buf, size_t len,
		     const struct checkpoint_opts *o, struct checkpoint *out,
		     struct cm_error *err)
{
	struct cm_error v2err = { 0 };
	struct gojson_value *root;
	struct decoded d;
	int ret, r2;

	memset(out, 0, sizeof(*out));
	assignments_init(&out->state);
	root = gojson_parse(buf, len, err);
	if (!root)
		return -EINVAL;
	/* loadCheckpoint(): v2 first, v1 when v2 fails to decode or verify */
	r2 = try_version(root, false, &d, &v2err);
	ret = r2;
	if (r2) {
		decoded_free(&d);
		ret = try_version(root, true, &d, err);
		/* report the v2 failure unless v1 got as far as its checksum */
		if (ret == -EINVAL || (ret && r2 == -EBADMSG)) {
			cm_errorf(err, "%s", cm_error_msg(&v2err));
			ret = r2;
		}
	}
	cm_error_clear(&v2err);
	if (!ret) {
		out->version = d.v1 ? CHECKPOINT_V1 : CHECKPOINT_V2;
		out->checksum = d.checksum;
		out->unverified = !d.checksum;
		out->policy = strndup(d.policy.s, d.policy.len);
		if (!out->policy)
			ret = (cm_errorf(err, "out of memory"), -ENOMEM);
		else if (strlen(out->policy) != d.policy.len)
			ret = cm_errorf(err, "policy name in checkpoint holds a NUL byte");
		else
			ret = to_state(&d, o, out, err);
	}
	decoded_free(&d);
	gojson_free(root);
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

int checkpoint_check_policy(const struct checkpoint *c, const char *policy,
			    struct cm_error *err)
{
	if (strcmp(c->policy, policy))
		return cm_errorf(err, "configured policy \"%s\" differs from state checkpoint policy \"%s\"",
				 policy, c->policy);
	return 0;
}
