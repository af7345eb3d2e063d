// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus text exposition format, version 0.0.4: "# HELP" and
 * "# TYPE" lines, then name{label="value",...} value, one per line, the
 * file ending in '\n'.  Escapes: '\\' and '\n' in help texts, and '"'
 * too in label values.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

void prom_init(struct prom_writer *w)
{
	memset(w, 0, sizeof(*w));
}

void prom_free(struct prom_writer *w)
{
	for (size_t i = 0; i < w->nr_families; i++)
		free(w->families[i]);
	free(w->families);
	free(w->buf);
	prom_init(w);
}

const char *prom_text(const struct prom_writer *w)
{
	return w->buf ? w->buf : "";
}

static int reserve(struct prom_writer *w, size_t more)
{
	size_t cap = w->cap ? w->cap : 1024;
	char *nb;

	if (w->len + more + 1 <= w->cap)
		return 0;
	while (cap < w->len + more + 1)
		cap *= 2;
	nb = realloc(w->buf, cap);
	if (!nb)
		return -ENOMEM;
	w->buf = nb;
	w->cap = cap;
	return 0;
}

static int put(struct prom_writer *w, const char *s, size_t n)
{
	if (reserve(w, n))
		return -ENOMEM;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = '\0';
	return 0;
}

static int put_str(struct prom_writer *w, const char *s)
{
	return put(w, s, strlen(s));
}

/* s with '\\', '\n' and, for label values, '"' escaped. */
static int put_escaped(struct prom_writer *w, const char *s, bool quote)
{
	int ret = 0;

	for (; *s && !ret; s++) {
		if (*s == '\\')
			ret = put(w, "\\\\", 2);
		else if (*s == '\n')
			ret = put(w, "\\n", 2);
		else if (*s == '"' && quote)
			ret = put(w, "\\\"", 2);
		else
			ret = put(w, s, 1);
	}
	return ret;
}

static bool name_ok(const char *s)
{
	if (!*s || !(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		     (*s >= 'A' && *s <= 'Z')))
		return false;
	for (s++; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

bool prom_metric_name_ok(const char *name)
{
	return name && name_ok(name);
}

bool prom_label_name_ok(const char *name)
{
	return name && name_ok(name) && strncmp(name, "__", 2);
}

/* Well-formed UTF-8: no overlong forms, surrogates or code points > 10FFFF. */
static bool utf8_ok(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		unsigned int c = *s, n, cp;

		if (c < 0x80) {
			s++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		for (unsigned int i = 1; i <= n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return false;
		s += n + 1;
	}
	return true;
}

static const char *current(const struct prom_writer *w)
{
	return w->nr_families ? w->families[w->nr_families - 1] : NULL;
}

int prom_family(struct prom_writer *w, const char *name, enum prom_type type,
		const char *help, struct cm_error *err)
{
	size_t n, mark = w->len;
	char **nf;
	int ret;

	if (!prom_metric_name_ok(name))
		return cm_errorf(err, "metric name \"%s\": must match [a-zA-Z_][a-zA-Z0-9_]*",
				 name ? name : "");
	n = strlen(name);
	/* the convention Prometheus and OpenMetrics read counters by */
	if (type == PROM_COUNTER &&
	    (n <= 6 || strcmp(name + n - 6, "_total")))
		return cm_errorf(err, "counter %s: the name must end in _total",
				 name);
	for (size_t i = 0; i < w->nr_families; i++)
		if (!strcmp(w->families[i], name))
			return cm_errorf(err, "metric %s: a second family of that name",
					 name);
	nf = realloc(w->families, (w->nr_families + 1) * sizeof(*nf));
	if (!nf)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	w->families = nf;
	nf[w->nr_families] = strdup(name);
	if (!nf[w->nr_families])
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = 0;
	if (help)
		ret = put_str(w, "# HELP ") || put_str(w, name) ||
		      put_str(w, " ") || put_escaped(w, help, false) ||
		      put_str(w, "\n");
	if (!ret)
		ret = put_str(w, "# TYPE ") || put_str(w, name) ||
		      put_str(w, type == PROM_COUNTER ? " counter\n" :
			      " gauge\n");
	if (ret) {
		free(nf[w->nr_families]);
		w->len = mark;
		if (w->buf)
			w->buf[mark] = '\0';
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	w->nr_families++;
	w->type = type;
	return 0;
}

static int check_labels(const char *metric, const struct prom_label *l,
			size_t nr, struct cm_error *err)
{
	for (size_t i = 0; i < nr; i++) {
		if (!prom_label_name_ok(l[i].name))
			return cm_errorf(err, "metric %s: label name \"%s\": must match [a-zA-Z_][a-zA-Z0-9_]* and not start with __",
					 metric, l[i].name ? l[i].name : "");
		if (!l[i].value || !utf8_ok(l[i].value))
			return cm_errorf(err, "metric %s: label %s: the value must be UTF-8 text",
					 metric, l[i].name);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(l[i].name, l[j].name))
				return cm_errorf(err, "metric %s: label %s given twice",
						 metric, l[i].name);
	}
	return 0;
}

/* One sample line; nothing of it stays when it cannot be written whole. */
static int sample(struct prom_writer *w, const struct prom_label *l,
		  size_t nr, const char *value, struct cm_error *err)
{
	const char *name = current(w);
	size_t mark = w->len;
	int ret;

	if (!name)
		return cm_errorf(err, "a sample needs a metric family first");
	ret = check_labels(name, l, nr, err);
	if (ret)
		return ret;
	ret = put_str(w, name);
	for (size_t i = 0; i < nr && !ret; i++)
		ret = put_str(w, i ? "," : "{") || put_str(w, l[i].name) ||
		      put_str(w, "=\"") || put_escaped(w, l[i].value, true) ||
		      put_str(w, "\"");
	if (!ret && nr)
		ret = put_str(w, "}");
	if (!ret)
		ret = put_str(w, " ") || put_str(w, value) || put_str(w, "\n");
	if (ret) {
		w->len = mark;
		if (w->buf)
			w->buf[mark] = '\0';
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	return 0;
}

int prom_sample_u64(struct prom_writer *w, const struct prom_label *labels,
		    size_t nr, uint64_t value, struct cm_error *err)
{
	char v[32];

	snprintf(v, sizeof(v), "%" PRIu64, value);
	return sample(w, labels, nr, v, err);
}

int prom_sample_i64(struct prom_writer *w, const struct prom_label *labels,
		    size_t nr, int64_t value, struct cm_error *err)
{
	char v[32];

	if (value < 0 && current(w) && w->type == PROM_COUNTER)
		return cm_errorf(err, "counter %s: negative value %" PRId64,
				 current(w), value);
	snprintf(v, sizeof(v), "%" PRId64, value);
	return sample(w, labels, nr, v, err);
}

int prom_sample_double(struct prom_writer *w, const struct prom_label *labels,
		       size_t nr, double value, struct cm_error *err)
{
	char v[40];

	if (current(w) && w->type == PROM_COUNTER && !(value >= 0))
		return cm_errorf(err, "counter %s: value %g is not a count",
				 current(w), value);
	if (isnan(value)) {
		strcpy(v, "NaN");
	} else if (isinf(value)) {
		strcpy(v, value > 0 ? "+Inf" : "-Inf");
	} else {
		/* the shortest text that reads back as value, as Go prints */
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(v, sizeof(v), "%.*g", prec, value);
			if (strtod(v, NULL) == value)
				break;
		}
	}
	return sample(w, labels, nr, v, err);
}
