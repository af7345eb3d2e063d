// SPDX-License-Identifier: GPL-2.0
/*
 * libyaml's event stream into cJSON trees: collections, anchors and
 * aliases, merge keys and key conversion here; scalar typing in
 * yaml_scalar.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "yaml_json.h"
#include "yaml_scalar.h"

/*
 * Aliases may copy up to this many nodes more than the text itself
 * holds: plenty for anchors in manifests, a stop for alias bombs.
 */
#define YAML_ALIAS_SLACK	100000u
#define YAML_MAX_DEPTH	1000

struct anchor {
	char *name;
	/* a copy: the tree's own node may be replaced */
	cJSON *node;
	size_t nodes;		/* in node: the budget is checked first */
	bool scalar;
	struct ys ys;		/* the scalar's type, for use as a key */
	struct anchor *next;
};

struct yp {
	yaml_parser_t parser;
	struct anchor *anchors;
	size_t nodes, alias_nodes;	/* written, and copied by aliases */
	struct cm_error *err;
};

static int fail_at(struct yp *y, yaml_mark_t m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct yp *y, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	cm_errorf(y->err, "%zu:%zu: %s", m.line + 1, m.column + 1,
		  msg ? msg : "out of memory");
	free(msg);
	return -EINVAL;
}

/* Position the message yaml_scalar_resolve() or yaml_scalar_key() recorded. */
static int locate(struct yp *y, yaml_mark_t m)
{
	cm_error_prefix(y->err, "%zu:%zu", m.line + 1, m.column + 1);
	return -EINVAL;
}

static int next_event(struct yp *y, yaml_event_t *ev)
{
	yaml_parser_t *p = &y->parser;

	if (yaml_parser_parse(p, ev))
		return 0;
	if (p->error == YAML_READER_ERROR)
		return cm_errorf(y->err, "byte %zu: %s", p->problem_offset,
				 p->problem ? p->problem : "invalid input");
	if (p->error == YAML_MEMORY_ERROR)
		return cm_errorf(y->err, "out of memory"), -ENOMEM;
	if (p->context)
		return fail_at(y, p->problem_mark, "%s (%s)",
			       p->problem ? p->problem : "syntax error",
			       p->context);
	return fail_at(y, p->problem_mark, "%s",
		       p->problem ? p->problem : "syntax error");
}

/* The next event of a collection: 1 at its end event, 0, or an error. */
static int next_in(struct yp *y, yaml_event_t *ev, yaml_event_type_t end)
{
	int ret = next_event(y, ev);

	if (ret)
		return ret;
	if (ev->type != end)
		return 0;
	yaml_event_delete(ev);
	return 1;
}

static size_t count_nodes(const cJSON *n)
{
	size_t c = 1;

	for (const cJSON *k = n->child; k; k = k->next)
		c += count_nodes(k);
	return c;
}

static int alias_budget(struct yp *y, size_t n, yaml_mark_t m)
{
	y->alias_nodes += n;
	if (y->alias_nodes > y->nodes + YAML_ALIAS_SLACK)
		return fail_at(y, m, "document contains excessive aliasing");
	return 0;
}

static int add_anchor(struct yp *y, const yaml_char_t *name, const cJSON *node,
		      const struct ys *ys)
{
	struct anchor *a;

	if (!name)
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return cm_errorf(y->err, "out of memory"), -ENOMEM;
	a->name = strdup((const char *)name);
	a->node = cJSON_Duplicate(node, true);
	if (!a->name || !a->node) {
		free(a->name);
		cJSON_Delete(a->node);
		free(a);
		return cm_errorf(y->err, "out of memory"), -ENOMEM;
	}
	a->nodes = count_nodes(a->node);
	if (ys) {
		a->scalar = true;
		a->ys = *ys;
	}
	/* a later anchor of the same name hides the earlier one */
	a->next = y->anchors;
	y->anchors = a;
	return 0;
}

static const struct anchor *find_anchor(const struct yp *y, const char *name)
{
	for (const struct anchor *a = y->anchors; a; a = a->next)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

static void free_anchors(struct yp *y)
{
	while (y->anchors) {
		struct anchor *a = y->anchors;

		y->anchors = a->next;
		free(a->name);
		cJSON_Delete(a->node);
		free(a);
	}
}

/* A JSON number that remembers its text (see yaml_json.h). */
static cJSON *number(const struct ys *s)
{
	cJSON *n = cJSON_CreateNumber(s->num);

	if (n) {
		n->valuestring = strdup(s->text);
		if (!n->valuestring) {
			cJSON_Delete(n);
			return NULL;
		}
	}
	return n;
}

static cJSON *scalar_node(const yaml_event_t *ev, const struct ys *s)
{
	switch (s->kind) {
	case YAML_SCALAR_NULL:
		return cJSON_CreateNull();
	case YAML_SCALAR_BOOL:
		return cJSON_CreateBool(s->boolean);
	case YAML_SCALAR_INT:
	case YAML_SCALAR_UINT:
	case YAML_SCALAR_FLOAT:
		return number(s);
	case YAML_SCALAR_TIME:
		return cJSON_CreateString(s->text);
	case YAML_SCALAR_MERGE:
		return cJSON_CreateString("<<");
	default:
		return cJSON_CreateString((const char *)ev->data.scalar.value);
	}
}

static int resolve_event(struct yp *y, const yaml_event_t *ev, struct ys *s)
{
	const char *v = (const char *)ev->data.scalar.value;

	if (strlen(v) != ev->data.scalar.length)
		return fail_at(y, ev->start_mark,
			       "a NUL byte in a scalar is not supported");
	if (yaml_scalar_resolve(v, (const char *)ev->data.scalar.tag,
				ev->data.scalar.plain_implicit, s, y->err))
		return locate(y, ev->start_mark);
	return 0;
}

static cJSON *parse_node(struct yp *y, yaml_event_t *ev, int depth);

static cJSON *parse_scalar(struct yp *y, yaml_event_t *ev)
{
	struct ys s;
	cJSON *n = NULL;

	if (!resolve_event(y, ev, &s)) {
		n = scalar_node(ev, &s);
		y->nodes++;
		if (!n)
			cm_errorf(y->err, "out of memory");
		else if (add_anchor(y, ev->data.scalar.anchor, n, &s)) {
			cJSON_Delete(n);
			n = NULL;
		}
	}
	yaml_event_delete(ev);
	return n;
}

static cJSON *parse_alias(struct yp *y, yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	const struct anchor *a = find_anchor(y, name);
	cJSON *n = NULL;

	if (!a)
		fail_at(y, ev->start_mark, "unknown anchor '%s' referenced", name);
	else if (!alias_budget(y, a->nodes, ev->start_mark) &&
		 !(n = cJSON_Duplicate(a->node, true)))
		cm_errorf(y->err, "out of memory");
	yaml_event_delete(ev);
	return n;
}

static cJSON *parse_sequence(struct yp *y, yaml_event_t *ev, int depth)
{
	cJSON *arr = cJSON_CreateArray();

	/* the start event lives until the end: it holds the anchor's name */
	if (!arr)
		goto fail;
	y->nodes++;
	for (;;) {
		yaml_event_t e;
		cJSON *item;
		int r = next_in(y, &e, YAML_SEQUENCE_END_EVENT);

		if (r < 0)
			goto fail;
		if (r)
			break;
		item = parse_node(y, &e, depth + 1);
		if (!item)
			goto fail;
		cJSON_AddItemToArray(arr, item);
	}
	if (add_anchor(y, ev->data.sequence_start.anchor, arr, NULL))
		goto fail;
	yaml_event_delete(ev);
	return arr;
fail:
	if (!arr)
		cm_errorf(y->err, "out of memory");
	yaml_event_delete(ev);
	cJSON_Delete(arr);
	return NULL;
}

/* Set or replace obj[key] (value is consumed). */
static int obj_set(struct yp *y, cJSON *obj, const char *key, cJSON *value)
{
	bool ok = cJSON_HasObjectItem(obj, key) ?
		  cJSON_ReplaceItemInObjectCaseSensitive(obj, key, value) :
		  cJSON_AddItemToObject(obj, key, value);

	if (!ok) {
		cJSON_Delete(value);
		return cm_errorf(y->err, "out of memory"), -ENOMEM;
	}
	return 0;
}

/* Copy every member of src into obj, replacing (go-yaml v2 order). */
static int merge_one(struct yp *y, cJSON *obj, const cJSON *src)
{
	for (const cJSON *m = src->child; m; m = m->next) {
		cJSON *c = cJSON_Duplicate(m, true);

		if (!c || obj_set(y, obj, m->string, c))
			return cm_errorf(y->err, "out of memory"), -ENOMEM;
	}
	return 0;
}

/* "<<: *base" or "<<: [*a, *b]" (the earlier map wins) */
static int merge(struct yp *y, cJSON *obj, cJSON *value, yaml_mark_t m)
{
	int ret = 0;

	if (cJSON_IsObject(value)) {
		ret = merge_one(y, obj, value);
	} else if (cJSON_IsArray(value)) {
		for (const cJSON *e = value->child; e && !ret; e = e->next)
			if (!cJSON_IsObject(e))
				ret = -EINVAL;
		/* backwards, so that earlier maps override later ones */
		for (int i = cJSON_GetArraySize(value) - 1; i >= 0 && !ret; i--)
			ret = merge_one(y, obj, cJSON_GetArrayItem(value, i));
	} else {
		ret = -EINVAL;
	}
	cJSON_Delete(value);
	if (ret == -EINVAL)
		return fail_at(y, m, "map merge requires map or sequence of maps as the value");
	return ret;
}

/*
 * A mapping key as YAMLToJSON turns it into a string; *is_merge for a
 * plain "<<".  Consumes ev.
 */
static char *parse_key(struct yp *y, yaml_event_t *ev, bool *is_merge)
{
	char buf[64], *key = NULL;
	const struct anchor *a;
	struct ys s;

	*is_merge = false;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		if (resolve_event(y, ev, &s))
			break;
		if (s.kind == YAML_SCALAR_MERGE) {
			*is_merge = true;
			key = strdup("<<");
		} else if (s.kind == YAML_SCALAR_STRING) {
			key = strdup((const char *)ev->data.scalar.value);
		} else if (!yaml_scalar_key(&s, buf, sizeof(buf), y->err)) {
			key = strdup(buf);
		} else {
			locate(y, ev->start_mark);
			break;
		}
		if (key) {
			cJSON *n = scalar_node(ev, &s);

			if (!n || add_anchor(y, ev->data.scalar.anchor, n,
					     &s)) {
				free(key);
				key = NULL;
			}
			cJSON_Delete(n);
		}
		break;
	case YAML_ALIAS_EVENT:
		a = find_anchor(y, (const char *)ev->data.alias.anchor);
		if (!a) {
			fail_at(y, ev->start_mark, "unknown anchor '%s' referenced",
				(const char *)ev->data.alias.anchor);
		} else if (a->scalar && a->ys.kind == YAML_SCALAR_STRING) {
			key = strdup(a->node->valuestring);
		} else if (a->scalar && a->ys.kind != YAML_SCALAR_MERGE) {
			if (!yaml_scalar_key(&a->ys, buf, sizeof(buf), y->err))
				key = strdup(buf);
			else
				locate(y, ev->start_mark);
		} else {
			fail_at(y, ev->start_mark, "unsupported map key: a collection");
		}
		break;
	default:
		fail_at(y, ev->start_mark, "unsupported map key: a collection");
	}
	yaml_event_delete(ev);
	return key;
}

static cJSON *parse_mapping(struct yp *y, yaml_event_t *ev, int depth)
{
	cJSON *obj = cJSON_CreateObject(), *seen = cJSON_CreateObject();

	if (!obj || !seen) {
		cm_errorf(y->err, "out of memory");
		goto fail;
	}
	y->nodes++;
	for (;;) {
		yaml_event_t ke, ve;
		yaml_mark_t km;
		const cJSON *dup;
		bool is_merge;
		cJSON *value;
		char *key;
		int r = next_in(y, &ke, YAML_MAPPING_END_EVENT);

		if (r < 0)
			goto fail;
		if (r)
			break;
		km = ke.start_mark;
		key = parse_key(y, &ke, &is_merge);
		if (!key)
			goto fail;
		if (next_event(y, &ve)) {
			free(key);
			goto fail;
		}
		value = parse_node(y, &ve, depth + 1);
		if (!value) {
			free(key);
			goto fail;
		}
		if (is_merge) {
			free(key);
			if (merge(y, obj, value, km))
				goto fail;
			continue;
		}
		dup = cJSON_GetObjectItemCaseSensitive(seen, key);
		if (dup) {
			fail_at(y, km, "mapping key \"%s\" already defined at line %d",
				key, dup->valueint);
			cJSON_Delete(value);
			free(key);
			goto fail;
		}
		cJSON_AddNumberToObject(seen, key, (double)km.line + 1);
		if (obj_set(y, obj, key, value)) {
			free(key);
			goto fail;
		}
		free(key);
	}
	if (add_anchor(y, ev->data.mapping_start.anchor, obj, NULL))
		goto fail;
	cJSON_Delete(seen);
	yaml_event_delete(ev);
	return obj;
fail:
	cJSON_Delete(seen);
	cJSON_Delete(obj);
	yaml_event_delete(ev);
	return NULL;
}

/* The node starting with ev (consumed). */
static cJSON *parse_node(struct yp *y, yaml_event_t *ev, int depth)
{
	if (depth > YAML_MAX_DEPTH) {
		fail_at(y, ev->start_mark, "nesting deeper than %d levels",
			YAML_MAX_DEPTH);
		yaml_event_delete(ev);
		return NULL;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return parse_scalar(y, ev);
	case YAML_ALIAS_EVENT:
		return parse_alias(y, ev);
	case YAML_SEQUENCE_START_EVENT:
		return parse_sequence(y, ev, depth);
	case YAML_MAPPING_START_EVENT:
		return parse_mapping(y, ev, depth);
	default:
		fail_at(y, ev->start_mark, "unexpected YAML event");
		yaml_event_delete(ev);
		return NULL;
	}
}

/* One document after its DOCUMENT-START event; NULL on error. */
static cJSON *parse_document(struct yp *y)
{
	yaml_event_t ev;
	cJSON *doc;

	if (next_event(y, &ev))
		return NULL;
	doc = parse_node(y, &ev, 0);
	if (doc && next_event(y, &ev)) {
		cJSON_Delete(doc);
		return NULL;
	}
	if (doc)
		yaml_event_delete(&ev);	/* DOCUMENT-END */
	free_anchors(y);	/* anchors do not cross documents */
	return doc;
}

cJSON *yaml_json_parse_all(const char *buf, size_t len, struct cm_error *err)
{
	struct yp y = { .err = err };
	cJSON *docs = cJSON_CreateArray();
	yaml_event_t ev;

	if (!docs || !yaml_parser_initialize(&y.parser)) {
		cJSON_Delete(docs);
		return cm_errorf(err, "out of memory"), NULL;
	}
	yaml_parser_set_input_string(&y.parser, (const unsigned char *)buf,
				     len);
	if (next_event(&y, &ev))	/* STREAM-START */
		goto fail;
	yaml_event_delete(&ev);
	for (;;) {
		cJSON *doc;

		if (next_event(&y, &ev))
			goto fail;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);	/* DOCUMENT-START */
		doc = parse_document(&y);
		if (!doc)
			goto fail;
		cJSON_AddItemToArray(docs, doc);
	}
	yaml_parser_delete(&y.parser);
	return docs;
fail:
	free_anchors(&y);
	yaml_parser_delete(&y.parser);
	cJSON_Delete(docs);
	return NULL;
}

cJSON *yaml_json_parse(const char *buf, size_t len, struct cm_error *err)
{
	cJSON *docs = yaml_json_parse_all(buf, len, err), *first;

	if (!docs)
		return NULL;
	first = cJSON_DetachItemFromArray(docs, 0);
	cJSON_Delete(docs);
	return first ? first : cJSON_CreateNull();
}
