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
#include "utf8.h"

void prom_init(struct prom_writer *w)
{
	memset(w, 0, sizeof(*w));
}

void prom_free(struct prom_writer *w)
{
	for (size_t i = 0; i < w->nr_families; i++)
		free(w->families[i]);
	free(w->families);
	strbuf_release(&w->text);
	prom_init(w);
}

const char *prom_text(const struct prom_writer *w)
{
	return w->text.buf ? w->text.buf : "";
}

static int put(struct prom_writer *w, const char *s, size_t n)
{
	strbuf_add(&w->text, s, n);
	return w->text.oom ? -ENOMEM : 0;
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

static const char *current(const struct prom_writer *w)
{
	return w->nr_families ? w->families[w->nr_families - 1] : NULL;
}

int prom_family(struct prom_writer *w, const char *name, enum prom_type type,
		const char *help, struct cm_error *err)
{
	size_t n, mark = w->text.len;
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
		strbuf_truncate(&w->text, mark);
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
		if (!l[i].value || !utf8_valid(l[i].value))
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
	size_t mark = w->text.len;
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
		strbuf_truncate(&w->text, mark);
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
