// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_util.h"

/*
 * Parsing a request makes one small allocation per JSON value and key,
 * and one per number for a scratch copy (a 4096-CPU topology: 65 000,
 * 1.8 MB kept), and freeing the tree as many frees: a quarter of a
 * whole `cpumgrctl plan` process.  While json_load() parses, cJSON
 * allocates from chunks instead, by moving a pointer (the scratch copy,
 * freed at once, is taken back); a chunk is unmapped when the last value
 * allocated in it is freed.  Every other cJSON allocation goes to
 * malloc() as before.  Not thread-safe, like the rest of the library's
 * JSON reading.  (Transparent huge pages for the chunks halved the
 * median and made one run in ten take 8 ms: not used.)
 */
struct json_chunk {
	struct json_chunk *next;
	size_t size;		/* of the mapping, this header included */
	size_t used;
	size_t last;		/* offset of the newest allocation */
	size_t live;		/* values allocated here and not yet freed */
};

#define JSON_CHUNK_MIN	((size_t)256 << 10)

static struct json_chunk *json_chunks;	/* newest first */
static size_t json_chunk_want;		/* size of the next chunk; 0: off */

static void *json_map(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static struct json_chunk *json_chunk_new(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct json_chunk *c;

	size = (size + page - 1) & ~(page - 1);
	c = json_map(size);
	if (!c)
		return NULL;
	c->size = size;
	c->used = c->last = (sizeof(*c) + 15) & ~(size_t)15;
	c->live = 0;
	c->next = json_chunks;
	json_chunks = c;
	/* the next one, if this one fills up, twice as big */
	json_chunk_want = 2 * size;
	return c;
}

static void *json_alloc(size_t sz)
{
	struct json_chunk *c = json_chunks;
	void *p;

	if (!json_chunk_want)
		return malloc(sz);
	/* cJSON's values hold pointers and doubles: 8 bytes of alignment */
	sz = (sz + 7) & ~(size_t)7;
	if (!c || c->size - c->used < sz) {
		size_t want = json_chunk_want;

		if (want < sz + 64)
			want = sz + 64;
		c = json_chunk_new(want);
		if (!c)
			return malloc(sz);
	}
	p = (char *)c + c->used;
	c->last = c->used;
	c->used += sz;
	c->live++;
	return p;
}

static void json_free(void *p)
{
	struct json_chunk **pc, *c;

	for (pc = &json_chunks; (c = *pc); pc = &c->next) {
		if ((uintptr_t)p < (uintptr_t)c ||
		    (uintptr_t)p >= (uintptr_t)c + c->size)
			continue;
		/* cJSON's scratch copy of a number: freed at once, reused */
		if ((char *)p == (char *)c + c->last)
			c->used = c->last;
		if (--c->live)
			return;
		/* the chunk being filled stays, empty, while a parse runs */
		if (json_chunk_want && c == json_chunks) {
			c->used = c->last = (sizeof(*c) + 15) & ~(size_t)15;
			return;
		}
		*pc = c->next;
		munmap(c, c->size);
		return;
	}
	free(p);
}

static void json_arena_begin(size_t text_len)
{
	static bool hooked;

	if (!hooked) {
		cJSON_Hooks hooks = { .malloc_fn = json_alloc,
				      .free_fn = json_free };

		cJSON_InitHooks(&hooks);
		hooked = true;
	}
	/* a parsed tree takes about five times its text (indented) */
	json_chunk_want = text_len * 5 + 4096;
	if (json_chunk_want < JSON_CHUNK_MIN)
		json_chunk_want = JSON_CHUNK_MIN;
}

static void json_arena_end(void)
{
	struct json_chunk *c = json_chunks;

	json_chunk_want = 0;
	if (c && !c->live) {
		json_chunks = c->next;
		munmap(c, c->size);
	}
}

const cJSON *json_member(const cJSON *obj, const char *name)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);

	return m && !cJSON_IsNull(m) ? m : NULL;
}

int json_opt_string(const cJSON *obj, const char *name, const char **out,
		    const char *where, struct cm_error *err)
{
	const cJSON *m = json_member(obj, name);

	*out = NULL;
	if (!m)
		return 0;
	if (!cJSON_IsString(m))
		return cm_errorf(err, "%s%s%s: must be a string", where,
				 *where ? "." : "", name);
	*out = m->valuestring;
	return 0;
}

int json_opt_uint(const cJSON *obj, const char *name, int max, int *out,
		  bool *present, const char *where, struct cm_error *err)
{
	const cJSON *m = json_member(obj, name);
	double v;

	if (present)
		*present = m != NULL;
	if (!m)
		return 0;
	v = m->valuedouble;
	if (!cJSON_IsNumber(m) || v < 0 || v > max || floor(v) != v)
		return cm_errorf(err, "%s%s%s: must be an integer from 0 to %d",
				 where, *where ? "." : "", name, max);
	*out = (int)v;
	return 0;
}

const char *json_number_text(const cJSON *n, char *buf, size_t len)
{
	if (n->valuestring)
		return n->valuestring;
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, n->valuedouble);
		if (strtod(buf, NULL) == n->valuedouble)
			break;
	}
	return buf;
}

int json_only(const cJSON *obj, const char *const *allowed,
	      const char *where, struct cm_error *err)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, obj) {
		const char *const *a;

		for (a = allowed; *a; a++)
			if (!strcmp(*a, m->string))
				break;
		if (!*a)
			return cm_errorf(err, "%s%sunknown field \"%s\"", where,
					 *where ? ": " : "", m->string);
	}
	return 0;
}

char *file_slurp(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, r;
	struct stat st;
	char *buf, *nb;

	/* a regular file: one read of the right size (and one more for EOF) */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
	    st.st_size >= (off_t)cap)
		cap = (size_t)st.st_size + 1;
	buf = malloc(cap + 1);

	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
	}
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * The plain JSON requests are made of (no escape in a string, no control
 * character, integer numbers of up to 15 digits, no byte order mark, no
 * deep nesting), parsed into the tree cJSON makes of it, without cJSON's
 * per-value literal comparisons, number copies and strtod(): a third of
 * the parse of a 4096-CPU topology.  Anything else, any error included,
 * is left to cJSON, whose verdict and error offset stand.
 */
struct plain {
	const char *p;
	unsigned int depth;
};

#define PLAIN_MAX_DEPTH	256	/* well under cJSON's limit */

static void plain_ws(struct plain *pl)
{
	while (*pl->p == ' ' || *pl->p == '\n' || *pl->p == '\t' ||
	       *pl->p == '\r')
		pl->p++;
}

static char *plain_string(struct plain *pl)
{
	const char *s = pl->p + 1, *e = s;
	char *out;

	while ((unsigned char)*e >= 0x20 && *e != '"' && *e != '\\')
		e++;
	if (*e != '"')
		return NULL;
	out = cJSON_malloc(e - s + 1);
	if (!out)
		return NULL;
	memcpy(out, s, e - s);
	out[e - s] = '\0';
	pl->p = e + 1;
	return out;
}

static bool plain_number(struct plain *pl, cJSON *c)
{
	const char *p = pl->p + (*pl->p == '-');
	uint64_t v = 0;
	int digits = 0;
	double d;

	if (*p == '0') {
		p++;
		digits = 1;
	} else {
		for (; *p >= '0' && *p <= '9'; p++, digits++)
			v = v * 10 + (uint64_t)(*p - '0');
	}
	/* what cJSON would read on with, and what strtod() may round */
	if (!digits || digits > 15 || (*p >= '0' && *p <= '9') ||
	    *p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-')
		return false;
	d = *pl->p == '-' ? -(double)v : (double)v;
	c->type = cJSON_Number;
	c->valuedouble = d;
	c->valueint = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN :
		      (int)d;
	pl->p = p;
	return true;
}

static cJSON *plain_value(struct plain *pl);

/* The members of an array or object, linked as cJSON links them. */
static bool plain_children(struct plain *pl, cJSON *parent, bool object)
{
	char close = object ? '}' : ']';
	cJSON *last = NULL, *c;
	char *key = NULL;

	if (++pl->depth > PLAIN_MAX_DEPTH)
		return false;
	pl->p++;
	plain_ws(pl);
	if (*pl->p == close) {
		pl->p++;
		pl->depth--;
		return true;
	}
	for (;;) {
		if (object) {
			if (*pl->p != '"' || !(key = plain_string(pl)))
				return false;
			plain_ws(pl);
			if (*pl->p != ':') {
				cJSON_free(key);
				return false;
			}
			pl->p++;
			plain_ws(pl);
		}
		c = plain_value(pl);
		if (!c) {
			cJSON_free(key);
			return false;
		}
		c->string = key;
		key = NULL;
		if (last) {
			last->next = c;
			c->prev = last;
		} else {
			parent->child = c;
		}
		last = c;
		/* cJSON's first member points back at the last one */
		parent->child->prev = last;
		plain_ws(pl);
		if (*pl->p == close)
			break;
		if (*pl->p != ',')
			return false;
		pl->p++;
		plain_ws(pl);
	}
	pl->p++;
	pl->depth--;
	return true;
}

static cJSON *plain_value(struct plain *pl)
{
	cJSON *c = cJSON_malloc(sizeof(*c));
	bool ok;

	if (!c)
		return NULL;
	memset(c, 0, sizeof(*c));
	switch (*pl->p) {
	case '{':
	case '[':
		c->type = *pl->p == '{' ? cJSON_Object : cJSON_Array;
		ok = plain_children(pl, c, *pl->p == '{');
		break;
	case '"':
		c->type = cJSON_String;
		c->valuestring = plain_string(pl);
		ok = c->valuestring;
		break;
	case 't':
		ok = !strncmp(pl->p, "true", 4);
		c->type = cJSON_True;
		c->valueint = 1;
		pl->p += ok ? 4 : 0;
		break;
	case 'f':
		ok = !strncmp(pl->p, "false", 5);
		c->type = cJSON_False;
		pl->p += ok ? 5 : 0;
		break;
	case 'n':
		ok = !strncmp(pl->p, "null", 4);
		c->type = cJSON_NULL;
		pl->p += ok ? 4 : 0;
		break;
	default:
		ok = plain_number(pl, c);
		break;
	}
	if (!ok) {
		cJSON_Delete(c);
		return NULL;
	}
	return c;
}

/* The whole of text as plain JSON, or NULL (and nothing held). */
static cJSON *plain_parse(const char *text)
{
	struct plain pl = { .p = text };
	cJSON *root;

	plain_ws(&pl);
	root = plain_value(&pl);
	if (!root)
		return NULL;
	plain_ws(&pl);
	if (*pl.p) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

void json_position(const char *text, size_t off, unsigned int *line,
		   unsigned int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			++*line;
			*col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			++*col;	/* not a UTF-8 continuation byte */
		}
	}
}

static int json_error_at(struct cm_error *err, const char *name,
			 const char *text, size_t off, const char *what)
{
	unsigned int line, col;

	json_position(text, off, &line, &col);
	return cm_errorf(err, "%s:%u:%u: %s", name, line, col, what);
}

/*
 * The offset of the first "\u0000" escape inside a string of text
 * (valid JSON), or -1.  Outside strings a backslash cannot be.
 */
static long nul_escape(const char *text)
{
	bool in_string = false;

	for (const char *p = text; *p; p++) {
		if (*p == '"') {
			in_string = !in_string;
		} else if (in_string && *p == '\\') {
			if (p[1] == 'u' && !strncmp(p + 2, "0000", 4))
				return p - text;
			p++;	/* the escaped character */
		}
	}
	return -1;
}

struct member {
	cJSON *m;
	size_t at;		/* its place in the object */
};

static int cmp_members(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->m->string, y->m->string);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

static bool has_duplicate(const cJSON *obj)
{
	for (const cJSON *m = obj->child; m; m = m->next)
		for (const cJSON *o = m->next; o; o = o->next)
			if (!strcmp(m->string, o->string))
				return true;
	return false;
}

/*
 * Of an object's members with one name, the one Go's encoding/json
 * leaves in a struct field: the last that is not null (null changes
 * nothing), else the last.  The others go.  Sorted by name, so an
 * object of thousands of members stays fast.
 */
static int dedupe_object(cJSON *obj)
{
	struct member *v;
	size_t n = 0, i, k;
	cJSON *m;

	cJSON_ArrayForEach(m, obj)
		n++;
	if (n < 2)
		return 0;
	/* the common case, a small object of distinct names: no sorting */
	if (n <= 16 && !has_duplicate(obj))
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	cJSON_ArrayForEach(m, obj) {
		v[n].m = m;
		v[n].at = n;
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_members);
	for (i = 0; i < n; i = k) {
		size_t win;

		for (k = i + 1; k < n && !strcmp(v[k].m->string, v[i].m->string); k++)
			;
		win = k - 1;
		while (win > i && cJSON_IsNull(v[win].m))
			win--;
		if (cJSON_IsNull(v[win].m))
			win = k - 1;
		for (size_t d = i; d < k; d++)
			if (d != win)
				cJSON_Delete(cJSON_DetachItemViaPointer(obj, v[d].m));
	}
	free(v);
	return 0;
}

static int dedupe(cJSON *j)
{
	cJSON *m;

	if (cJSON_IsObject(j) && dedupe_object(j))
		return -ENOMEM;
	for (m = j->child; m; m = m->next)
		if (dedupe(m))
			return -ENOMEM;
	return 0;
}

int json_go_rules(cJSON *j, const char *text, const char *name,
		  struct cm_error *err)
{
	long nul = nul_escape(text);

	if (nul >= 0)
		return json_error_at(err, name, text, (size_t)nul,
				     "U+0000 in a string (\\u0000: cpumgrctl does not take it)");
	return dedupe(j) ? cm_errorf(err, "out of memory") : 0;
}

static cJSON *parse_text(const char *text, size_t len, const char *name,
			 struct cm_error *err)
{
	const char *end = NULL;
	bool plain;
	cJSON *j;

	json_arena_begin(len);
	j = plain_parse(text);
	plain = j;
	if (!j)
		j = cJSON_ParseWithOpts(text, &end, true);
	json_arena_end();
	if (!j) {
		json_error_at(err, name, text, end ? (size_t)(end - text) : 0,
			      "invalid JSON");
		return NULL;
	}
	/* the plain form has no escapes: no NUL to look for */
	if (json_go_rules(j, plain ? "" : text, name, err)) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

cJSON *json_parse_text(const char *text, const char *name,
		       struct cm_error *err)
{
	return parse_text(text, strlen(text), name, err);
}

size_t json_load_held(void)
{
	size_t n = 0;

	for (const struct json_chunk *c = json_chunks; c; c = c->next)
		n += c->size;
	return n;
}

/*
 * A regular file's text, mapped rather than copied: NUL-terminated by
 * the zeroes that follow the end of a file in its last page, so only
 * when the size is not a multiple of the page size.  NULL otherwise.
 */
static char *map_text(FILE *f, size_t *len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct stat st;
	void *p;

	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || !st.st_size ||
	    !((size_t)st.st_size % page))
		return NULL;
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
		 fileno(f), 0);
	if (p == MAP_FAILED)
		return NULL;
	*len = st.st_size;
	return p;
}

cJSON *json_load(const char *path, struct cm_error *err)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "re");
	cJSON *j = NULL;
	bool mapped;
	size_t len;
	char *buf;

	if (!f) {
		cm_errorf(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = map_text(f, &len);
	mapped = buf;
	if (!buf)
		buf = file_slurp(f, &len);
	if ((!mapped && ferror(f)) || !buf)
		cm_errorf(err, "%s: read error", is_stdin ? "stdin" : path);
	else if (memchr(buf, '\0', len))
		json_error_at(err, is_stdin ? "stdin" : path, buf,
			      (size_t)((char *)memchr(buf, '\0', len) - buf),
			      "NUL byte in JSON");
	else
		j = parse_text(buf, len, is_stdin ? "stdin" : path, err);
	if (!is_stdin)
		fclose(f);
	if (mapped)
		munmap(buf, len);
	else
		free(buf);
	return j;
}
