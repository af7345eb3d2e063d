// SPDX-License-Identifier: GPL-2.0
/*
 * One of the checkpoint's Go structs out of a parsed JSON document, as
 * encoding/json fills it: field names matched as Go matches them, null
 * leaving a field as it was (a map: nil), the last of repeated members
 * winning, a type error remembered while the rest is still decoded (Go
 * keeps the first and goes on), a pod entry's own UnmarshalJSON stopping
 * it.  Then the checksum the decoded struct hashes to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint_internal.h"

struct dec {
	struct decoded *d;
	struct cm_error *err;
	bool failed;		/* a type error is recorded */
};

void checkpoint_decoded_free(struct decoded *d)
{
	for (unsigned int i = 0; i < d->nr; i++)
		free(d->pods[i].c.kv);
	for (unsigned int i = 0; i < d->nr_bl; i++)
		free(d->bl[i].c.kv);
	free(d->pods);
	free(d->bl);
	free(d->pools);
	free(d->flat.kv);
	memset(d, 0, sizeof(*d));
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

/* Go's UnmarshalTypeError; the first one is kept, decoding goes on. */
static int type_error(struct dec *x, const char *go_struct, const char *field,
		      const struct gojson_value *v, const char *type)
{
	if (x->failed)
		return 0;
	x->failed = true;
	if (v->type == GOJSON_NUMBER && !strcmp(type, T_CHECKSUM))
		cm_errorf(x->err, "json: cannot unmarshal number %s into Go struct field %s.%s of type %s",
			  v->str, go_struct, field, type);
	else
		cm_errorf(x->err, "json: cannot unmarshal %s into Go struct field %s.%s of type %s",
			  gojson_kind(v), go_struct, field, type);
	return 0;
}

static int oom(struct dec *x)
{
	cm_errorf(x->err, "out of memory");
	return -ENOMEM;
}

/* A string: null leaves it as it was. */
static int set_string(struct dec *x, const char *go_struct, const char *field,
		      const struct gojson_value *v, struct gstr *out)
{
	if (v->type == GOJSON_NULL)
		return 0;
	if (v->type != GOJSON_STRING)
		return type_error(x, go_struct, field, v, T_STRING);
	out->s = v->str;
	out->len = v->len;
	return 0;
}

/* strconv.ParseUint(literal, 10, 64) into a checksum.Checksum */
static int set_checksum(struct dec *x, const char *field,
			const struct gojson_value *v, uint64_t *out)
{
	uint64_t sum = 0;

	if (v->type == GOJSON_NULL)
		return 0;
	if (v->type != GOJSON_NUMBER)
		return type_error(x, x->d->type->name, field, v, T_CHECKSUM);
	for (const char *p = v->str; *p; p++) {
		unsigned int digit = (unsigned int)(*p - '0');

		if (*p < '0' || *p > '9' || sum > (UINT64_MAX - digit) / 10)
			return type_error(x, x->d->type->name, field, v,
					  T_CHECKSUM);
		sum = sum * 10 + digit;
	}
	*out = sum;
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
	m->kv[m->nr].val = (struct gstr){ "", 0 };
	return &m->kv[m->nr++];
}

/* Decode an object into a map[string]string (null elements store ""). */
static int decode_kv_map(struct dec *x, const char *field,
			 const struct gojson_value *obj, struct kv_map *m)
{
	for (const struct gojson_value *e = obj->child; e; e = e->next) {
		struct gstr key = { e->key, e->key_len }, val = { "", 0 };
		struct kv *slot;

		if (set_string(x, x->d->type->name, field, e, &val))
			return -ENOMEM;
		slot = kv_slot(m, key);
		if (!slot)
			return oom(x);
		slot->val = val;
	}
	m->nil = false;
	return 0;
}

/* ContainerCPUs: {"baseline": "..."} (null: the zero value) */
static int decode_baseline(struct dec *x, const struct gojson_value *v,
			   struct kv_map *m, struct gstr key)
{
	struct kv *slot = kv_slot(m, key);

	if (!slot)
		return oom(x);
	if (v->type == GOJSON_NULL)
		return 0;
	if (v->type != GOJSON_OBJECT)
		return type_error(x, x->d->type->name, "baselines", v,
				  T_BASELINE);
	for (const struct gojson_value *f = v->child; f; f = f->next)
		if (gojson_field_match(f, "baseline") &&
		    set_string(x, "ContainerCPUs", "baselines.baseline", f,
			       &slot->val))
			return -ENOMEM;
	return 0;
}

static struct pod_map *pod_slot(struct pod_map **arr, unsigned int *nr,
				unsigned int *cap, struct gstr uid)
{
	struct pod_map *p;

	for (unsigned int i = 0; i < *nr; i++)
		if (gstr_eq((*arr)[i].uid, uid))
			return &(*arr)[i];
	if (*nr == *cap) {
		unsigned int n = *cap ? 2 * *cap : 8;

		p = realloc(*arr, n * sizeof(*p));
		if (!p)
			return NULL;
		*arr = p;
		*cap = n;
	}
	p = &(*arr)[(*nr)++];
	memset(p, 0, sizeof(*p));
	p->uid = uid;
	return p;
}

/*
 * A map[string]map[string]X: entries (X string) or baselines (X
 * ContainerCPUs).  A repeated pod key replaces the pod's whole map, as
 * Go decodes each value into a fresh one.
 */
static int decode_pod_maps(struct dec *x, const char *field,
			   const struct gojson_value *obj, bool baselines)
{
	struct decoded *d = x->d;

	for (const struct gojson_value *e = obj->child; e; e = e->next) {
		struct gstr uid = { e->key, e->key_len };
		struct pod_map *p;

		if (e->type != GOJSON_NULL && e->type != GOJSON_OBJECT) {
			type_error(x, d->type->name, field, e,
				   baselines ? T_BASELINES_POD : T_MAP);
			continue;
		}
		p = baselines ? pod_slot(&d->bl, &d->nr_bl, &d->cap_bl, uid) :
				pod_slot(&d->pods, &d->nr, &d->cap, uid);
		if (!p)
			return oom(x);
		p->c.nr = 0;
		p->c.nil = e->type == GOJSON_NULL;
		if (e->type == GOJSON_NULL)
			continue;
		if (!baselines) {
			if (decode_kv_map(x, field, e, &p->c))
				return -ENOMEM;
			continue;
		}
		for (const struct gojson_value *c = e->child; c; c = c->next)
			if (decode_baseline(x, c, &p->c,
					    (struct gstr){ c->key, c->key_len }))
				return -ENOMEM;
	}
	return 0;
}

/*
 * PodEntry.UnmarshalJSON(): the value as {"cpuSet": "..."} decoded on
 * its own, then cpuset.Parse().  Its errors end the whole decoding; Go
 * names a type error in it after the outer struct and field.
 */
static int decode_pool(struct dec *x, const struct gojson_value *v,
		       struct cpuset *out)
{
	const char *outer = x->d->type->name;
	struct gstr text = { "", 0 };
	struct cm_error perr = { 0 };
	char *s;
	int ret;

	if (v->type != GOJSON_NULL && v->type != GOJSON_OBJECT)
		return cm_errorf(x->err, "json: cannot unmarshal %s into Go struct field %s.podEntries of type %s",
				 gojson_kind(v), outer, T_POD_ENTRY_JSON);
	for (const struct gojson_value *f = v->type == GOJSON_OBJECT ?
					    v->child : NULL; f; f = f->next) {
		if (!gojson_field_match(f, "cpuSet") || f->type == GOJSON_NULL)
			continue;
		if (f->type != GOJSON_STRING)
			return cm_errorf(x->err, "json: cannot unmarshal %s into Go struct field %s.podEntries.cpuSet of type string",
					 gojson_kind(f), outer);
		text = (struct gstr){ f->str, f->len };
	}
	s = strndup(text.s, text.len);
	if (!s)
		return oom(x);
	ret = strlen(s) != text.len ?
	      cm_errorf(&perr, "invalid cpulist: NUL byte") :
	      cpuset_parse_kube(out, s, &perr);
	free(s);
	if (ret)
		cm_errorf(x->err, "failed to parse cpuset: %s",
			  cm_error_msg(&perr));
	cm_error_clear(&perr);
	return ret ? -EINVAL : 0;
}

static int decode_pools(struct dec *x, const struct gojson_value *obj)
{
	struct decoded *d = x->d;

	for (const struct gojson_value *e = obj->child; e; e = e->next) {
		struct gstr uid = { e->key, e->key_len };
		struct pod_pool *p = NULL;
		struct cpuset cpus;

		if (decode_pool(x, e, &cpus))
			return -EINVAL;
		for (unsigned int i = 0; i < d->nr_pools; i++)
			if (gstr_eq(d->pools[i].uid, uid))
				p = &d->pools[i];
		if (!p && d->nr_pools == d->cap_pools) {
			unsigned int n = d->cap_pools ? 2 * d->cap_pools : 8;
			struct pod_pool *np = realloc(d->pools,
						      n * sizeof(*np));

			if (!np)
				return oom(x);
			d->pools = np;
			d->cap_pools = n;
		}
		if (!p)
			p = &d->pools[d->nr_pools++];
		p->uid = uid;
		p->cpus = cpus;
	}
	return 0;
}

/* A map member: null makes it nil, dropping what it held. */
static int decode_map_member(struct dec *x, const char *field,
			     const struct gojson_value *v, unsigned int f)
{
	struct decoded *d = x->d;
	const char *type = f == F_FLAT ? T_MAP :
			   f == F_ENTRIES ? T_MAP_MAP :
			   f == F_PODS ? T_POD_ENTRIES : T_BASELINES;

	if (v->type == GOJSON_NULL) {
		if (f == F_ENTRIES || f == F_FLAT) {
			for (unsigned int i = 0; i < d->nr; i++)
				free(d->pods[i].c.kv);
			d->nr = d->flat.nr = 0;
			d->entries_nil = true;
		} else if (f == F_PODS) {
			d->nr_pools = 0;
			d->pods_nil = true;
		} else {
			for (unsigned int i = 0; i < d->nr_bl; i++)
				free(d->bl[i].c.kv);
			d->nr_bl = 0;
			d->baselines_nil = true;
		}
		return 0;
	}
	if (v->type != GOJSON_OBJECT)
		return type_error(x, d->type->name, field, v, type);
	switch (f) {
	case F_FLAT:
		d->entries_nil = false;
		return decode_kv_map(x, field, v, &d->flat);
	case F_ENTRIES:
		d->entries_nil = false;
		return decode_pod_maps(x, field, v, false);
	case F_PODS:
		d->pods_nil = false;
		return decode_pools(x, v);
	default:
		d->baselines_nil = false;
		return decode_pod_maps(x, field, v, true);
	}
}

static const struct {
	const char *name;
	unsigned int flag;
} members[] = {
	{ "policyName", F_POLICY },
	{ "defaultCpuSet", F_DEFAULT },
	{ "entries", F_ENTRIES | F_FLAT },
	{ "podEntries", F_PODS },
	{ "baselines", F_BASELINES },
	{ "checksum", F_CHECKSUM },
	{ "data", F_DATA },
	{ "dataChecksum", F_DATA_SUM },
};

static int decode_member(struct dec *x, const struct gojson_value *m)
{
	struct decoded *d = x->d;
	unsigned int f = 0;
	const char *name = NULL;

	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
		if ((d->type->fields & members[i].flag) &&
		    gojson_field_match(m, members[i].name)) {
			f = d->type->fields & members[i].flag;
			name = members[i].name;
			break;
		}
	switch (f) {
	case 0:
		return 0;	/* unknown members are ignored */
	case F_POLICY:
		return set_string(x, d->type->name, name, m, &d->policy);
	case F_DEFAULT:
		return set_string(x, d->type->name, name, m, &d->dflt);
	case F_DATA:
		return set_string(x, d->type->name, name, m, &d->data);
	case F_CHECKSUM:
		return set_checksum(x, name, m, &d->checksum);
	case F_DATA_SUM:
		return set_checksum(x, name, m, &d->data_checksum);
	default:
		return decode_map_member(x, name, m, f);
	}
}

int checkpoint_decode(const struct gojson_value *root,
		      const struct go_struct *type, struct decoded *d,
		      struct cm_error *err)
{
	struct dec x = { .d = d, .err = err };

	memset(d, 0, sizeof(*d));
	d->type = type;
	d->policy.s = d->dflt.s = d->data.s = "";
	if (root->type == GOJSON_NULL)
		return 0;
	if (root->type != GOJSON_OBJECT)
		return cm_errorf(err, "json: cannot unmarshal %s into Go value of type state.%s",
				 gojson_kind(root), type->name);
	for (const struct gojson_value *m = root->child; m; m = m->next) {
		int ret = decode_member(&x, m);

		if (ret)
			return ret;
	}
	return x.failed ? -EINVAL : 0;
}

/* ---- the checksum of a decoded v1, v2 or v3 ---- */

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

static int pool_cmp(const void *a, const void *b)
{
	return gstr_cmp(((const struct pod_pool *)a)->uid,
			((const struct pod_pool *)b)->uid);
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

static void spew_entries(struct strbuf *h, struct decoded *d)
{
	if (d->entries_nil) {
		strbuf_adds(h, "<nil>");
		return;
	}
	if (d->type->fields & F_FLAT) {
		spew_kv_map(h, &d->flat);
		return;
	}
	if (d->nr > 1)
		qsort(d->pods, d->nr, sizeof(*d->pods), pod_cmp);
	strbuf_adds(h, "map[");
	for (unsigned int i = 0; i < d->nr; i++) {
		if (i)
			strbuf_addc(h, ' ');
		strbuf_add(h, d->pods[i].uid.s, d->pods[i].uid.len);
		strbuf_addc(h, ':');
		spew_kv_map(h, &d->pods[i].c);
	}
	strbuf_addc(h, ']');
}

static void spew_pools(struct strbuf *h, struct decoded *d)
{
	strbuf_adds(h, " PodEntries:(" T_POD_ENTRIES ")");
	if (d->pods_nil) {
		strbuf_adds(h, "<nil>");
		return;
	}
	if (d->nr_pools > 1)
		qsort(d->pools, d->nr_pools, sizeof(*d->pools), pool_cmp);
	strbuf_adds(h, "map[");
	for (unsigned int i = 0; i < d->nr_pools; i++) {
		strbuf_adds(h, i ? " " : "");
		strbuf_add(h, d->pools[i].uid.s, d->pools[i].uid.len);
		strbuf_adds(h, ":{CPUSet:(cpuset.CPUSet){elems:(map[int]struct {})");
		checkpoint_spew_cpus(h, &d->pools[i].cpus);
		strbuf_adds(h, "}}");
	}
	strbuf_addc(h, ']');
}

int checkpoint_decoded_checksum(struct decoded *d, const char *type_name,
				uint32_t *sum)
{
	struct strbuf h = STRBUF_INIT;

	strbuf_adds(&h, SPEW_PTR);
	strbuf_adds(&h, type_name);
	strbuf_adds(&h, "){PolicyName:(" T_STRING ")");
	strbuf_add(&h, d->policy.s, d->policy.len);
	strbuf_adds(&h, " DefaultCPUSet:(" T_STRING ")");
	strbuf_add(&h, d->dflt.s, d->dflt.len);
	strbuf_adds(&h, " Entries:(");
	strbuf_adds(&h, d->type->fields & F_FLAT ? T_MAP : T_MAP_MAP);
	strbuf_addc(&h, ')');
	spew_entries(&h, d);
	if (d->type->fields & F_PODS)
		spew_pools(&h, d);
	strbuf_adds(&h, " Checksum:(" T_CHECKSUM ")0}");
	if (h.oom) {
		strbuf_release(&h);
		return -ENOMEM;
	}
	*sum = checkpoint_fnv1a32(h.buf, h.len);
	strbuf_release(&h);
	return 0;
}
