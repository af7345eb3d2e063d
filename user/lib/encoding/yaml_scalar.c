// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yaml_scalar.h"

#define TAG_PREFIX	"tag:yaml.org,2002:"

#define N_OF(a)		(sizeof(a) / sizeof((a)[0]))

/* go-yaml v2's resolveMap: the words YAML 1.1 gives a type */
static const char *const true_words[] = {
	"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
};
static const char *const false_words[] = {
	"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off",
	"OFF",
};
static const char *const null_words[] = { "", "~", "null", "Null", "NULL" };
static const char *const nan_words[] = { ".nan", ".NaN", ".NAN" };
static const char *const inf_words[] = {
	".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
};
static const char *const minus_inf_words[] = { "-.inf", "-.Inf", "-.INF" };

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

/* ---- Go's number printing ---- */

/*
 * The shortest digits that read back as |v| (as a float when f32):
 * value = 0.DIGITS * 10^dp.
 */
static void shortest(double v, bool f32, char *digits, int *dp)
{
	char buf[40], *e, *o = digits;

	v = fabs(v);
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
		if (f32 ? strtof(buf, NULL) == (float)v : strtod(buf,
								 NULL) == v)
			break;
	}
	/* buf is "d.ddde+XX" */
	e = strchr(buf, 'e');
	for (const char *p = buf; p < e; p++)
		if (*p != '.')
			*o++ = *p;
	*o = '\0';
	*dp = v == 0 ? 1 : atoi(e + 1) + 1;
}

static void put(char *out, size_t len, size_t *o, const char *s, size_t n)
{
	while (n-- && *o + 1 < len)
		out[(*o)++] = *s++;
	out[*o] = '\0';
}

static void put_zeros(char *out, size_t len, size_t *o, int n)
{
	while (n-- > 0)
		put(out, len, o, "0", 1);
}

/* %e with Go's shortest precision: d[.ddd]e+XX */
static void fmt_e(char *out, size_t len, const char *sign, const char *d,
		  int dp)
{
	int exp = dp - 1;

	snprintf(out, len, "%s%c%s%se%c%02d", sign, d[0], d[1] ? "." : "",
		 d + 1, exp < 0 ? '-' : '+', abs(exp));
}

/* %f with Go's shortest precision */
static void fmt_f(char *out, size_t len, const char *sign, const char *d,
		  int dp)
{
	size_t o = 0, n = strlen(d);

	put(out, len, &o, sign, strlen(sign));
	if (dp <= 0) {
		put(out, len, &o, "0.", 2);
		put_zeros(out, len, &o, -dp);
		put(out, len, &o, d, n);
	} else if ((size_t)dp >= n) {
		put(out, len, &o, d, n);
		put_zeros(out, len, &o, dp - (int)n);
	} else {
		put(out, len, &o, d, (size_t)dp);
		put(out, len, &o, ".", 1);
		put(out, len, &o, d + dp, n - (size_t)dp);
	}
}

/* encoding/json's float64: 'f', or 'e' outside [1e-6, 1e21), e-0X -> e-X */
static void json_float(double v, char *out, size_t len)
{
	const char *sign = signbit(v) ? "-" : "";
	double a = fabs(v);
	char d[24];
	int dp;

	shortest(v, false, d, &dp);
	if (a != 0 && (a < 1e-6 || a >= 1e21)) {
		size_t n;

		fmt_e(out, len, sign, d, dp);
		n = strlen(out);
		if (n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' &&
		    out[n - 2] == '0') {
			out[n - 2] = out[n - 1];
			out[n - 1] = '\0';
		}
	} else {
		fmt_f(out, len, sign, d, dp);
	}
}

/* strconv.FormatFloat(v, 'g', -1, 32): %e when the exponent is < -4 or >= 6 */
static void float32_g(double v, char *out, size_t len)
{
	const char *sign = signbit(v) ? "-" : "";
	char d[24];
	int dp;

	shortest(v, true, d, &dp);
	if (dp - 1 < -4 || dp - 1 >= 6)
		fmt_e(out, len, sign, d, dp);
	else
		fmt_f(out, len, sign, d, dp);
}

/* ---- Go's number parsing ---- */

/*
 * strconv.ParseUint(s, 0, 64) on the digits after an optional sign:
 * 0x, 0o, 0b prefixes, a leading 0 for octal.  -EINVAL or -ERANGE.
 */
static int parse_magnitude(const char *s, uint64_t *out)
{
	unsigned int base = 10;
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	if (s[0] == '0') {
		char c = (char)tolower((unsigned char)s[1]);

		if (strlen(s) >= 3 && (c == 'b' || c == 'o' || c == 'x')) {
			base = c == 'b' ? 2 : c == 'o' ? 8 : 16;
			s += 2;
		} else {
			base = 8;
			s++;
		}
	}
	for (; *s; s++) {
		unsigned int d;

		if (isdigit((unsigned char)*s))
			d = (unsigned int)(*s - '0');
		else if (isalpha((unsigned char)*s))
			d = (unsigned int)(tolower((unsigned char)*s) - 'a' + 10);
		else
			return -EINVAL;
		if (d >= base)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

static bool digits(const char **p)
{
	const char *s = *p;

	while (isdigit((unsigned char)**p))
		(*p)++;
	return *p > s;
}

/* ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static bool yaml_style_float(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	if (*s == '.') {
		s++;
		if (!digits(&s))
			return false;
	} else {
		if (!digits(&s))
			return false;
		if (*s == '.') {
			s++;
			digits(&s);
		}
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!digits(&s))
			return false;
	}
	return !*s;
}

/* ParseFloat: a finite result (overflow is ErrRange in Go) */
static bool parse_float(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return !*end && isfinite(*out);
}

static void set_int(struct ys *o, bool neg, uint64_t mag)
{
	o->kind = YAML_SCALAR_INT;
	if (neg) {
		o->num = -(double)mag;
		snprintf(o->text, sizeof(o->text), "-%" PRIu64, mag);
		if (!mag)
			strcpy(o->text, "0");
	} else {
		o->num = (double)mag;
		snprintf(o->text, sizeof(o->text), "%" PRIu64, mag);
		if (mag > INT64_MAX)
			o->kind = YAML_SCALAR_UINT;
	}
}

static void set_float(struct ys *o, double v)
{
	o->kind = YAML_SCALAR_FLOAT;
	o->num = v;
	json_float(v, o->text, sizeof(o->text));
}

/* ---- timestamps ---- */

static int num(const char **p, int min_digits, int max_digits)
{
	int v = 0, n = 0;

	while (n < max_digits && isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n >= min_digits ? v : -1;
}

static int days_in(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
				    30, 31 };
	bool leap = (year % 4 == 0 && year % 100) || year % 400 == 0;

	return month == 2 && leap ? 29 : days[month - 1];
}

/*
 * go-yaml's timestamp formats ("2006-1-2T15:4:5.999999999Z07:00", the
 * same with 't', "2006-1-2 15:4:5.999999999", "2006-1-2"), printed as
 * time.Time marshals: RFC 3339 with trailing zeros of the fraction cut.
 */
static bool parse_time(const char *s, char *out, size_t len)
{
	int y, mo, d, h = 0, mi = 0, sec = 0, off = 0;
	char frac[10] = "", zone[8] = "Z";
	const char *p = s;
	char sep;

	y = num(&p, 4, 4);
	if (y < 0 || *p++ != '-' || (mo = num(&p, 1, 2)) < 0 || *p++ != '-' ||
	    (d = num(&p, 1, 2)) < 0)
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in(y, mo))
		return false;
	if (*p) {
		sep = *p++;
		if (sep != 'T' && sep != 't' && sep != ' ')
			return false;
		if ((h = num(&p, 1, 2)) < 0 || *p++ != ':' ||
		    (mi = num(&p, 1, 2)) < 0 || *p++ != ':' ||
		    (sec = num(&p, 1, 2)) < 0)
			return false;
		if (h > 23 || mi > 59 || sec > 59)
			return false;
		if ((*p == '.' || *p == ',') && isdigit((unsigned char)p[1])) {
			int n = 0;

			for (p++; isdigit((unsigned char)*p); p++)
				if (n < 9)
					frac[n++] = *p;
			while (n && frac[n - 1] == '0')
				frac[--n] = '\0';
		}
		if (sep != ' ' && *p == 'Z') {
			p++;
		} else if (sep != ' ' && (*p == '+' || *p == '-')) {
			int zh, zm;

			zone[0] = *p++;
			if ((zh = num(&p, 2, 2)) < 0 || *p++ != ':' ||
			    (zm = num(&p, 2, 2)) < 0 || zh > 24 || zm > 59)
				return false;
			off = zh * 60 + zm;
			snprintf(zone + 1, sizeof(zone) - 1, "%02d:%02d", zh, zm);
		} else if (sep != ' ') {
			return false;
		}
	}
	if (*p)
		return false;
	if (!off)
		strcpy(zone, "Z");
	snprintf(out, len, "%04d-%02d-%02dT%02d:%02d:%02d%s%s%s", y, mo, d, h,
		 mi, sec, *frac ? "." : "", frac, zone);
	return true;
}

/*
 * The digit and sign hints: a timestamp, then after removing underscores
 * ParseInt, ParseUint (no sign), a YAML-style float.  go-yaml goes on to
 * a big.Int for integers beyond 64 bits: refused here.
 */
static int resolve_number(const char *in, bool try_time, struct ys *o,
			  struct cm_error *err)
{
	char *plain = malloc(strlen(in) + 1), *w = plain;
	bool neg, sign;
	uint64_t mag;
	int r, ret = 0;
	double f;

	if (try_time && parse_time(in, o->text, sizeof(o->text))) {
		o->kind = YAML_SCALAR_TIME;
		free(plain);
		return 0;
	}
	if (!plain)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	for (const char *p = in; *p; p++)
		if (*p != '_')
			*w++ = *p;
	*w = '\0';
	neg = plain[0] == '-';
	sign = neg || plain[0] == '+';
	r = parse_magnitude(plain + sign, &mag);
	if (!r && (neg ? mag <= (uint64_t)INT64_MAX + 1 :
		   mag <= INT64_MAX || !sign))
		set_int(o, neg, mag);
	else if (yaml_style_float(plain) && parse_float(plain, &f))
		set_float(o, f);
	else if (r == -ERANGE)
		ret = cm_errorf(err, "integer %s does not fit in 64 bits", in);
	free(plain);
	return ret;
}

/* "tag:yaml.org,2002:int" -> "!!int" for messages */
static const char *short_tag(const char *tag, char *buf, size_t len)
{
	if (!strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)))
		snprintf(buf, len, "!!%s", tag + strlen(TAG_PREFIX));
	else
		snprintf(buf, len, "%s", tag);
	return buf;
}

static const char *kind_tag(enum yaml_scalar_kind k)
{
	switch (k) {
	case YAML_SCALAR_NULL:
		return "!!null";
	case YAML_SCALAR_BOOL:
		return "!!bool";
	case YAML_SCALAR_INT:
	case YAML_SCALAR_UINT:
		return "!!int";
	case YAML_SCALAR_FLOAT:
		return "!!float";
	case YAML_SCALAR_TIME:
		return "!!timestamp";
	case YAML_SCALAR_MERGE:
		return "!!merge";
	default:
		return "!!str";
	}
}

/* go-yaml's resolve(): the type from the value's first character on. */
static int resolve_plain(const char *in, bool try_time, struct ys *o,
			 struct cm_error *err)
{
	double f;

	memset(o, 0, sizeof(*o));
	if (in_list(in, true_words, N_OF(true_words)) ||
	    in_list(in, false_words, N_OF(false_words))) {
		o->kind = YAML_SCALAR_BOOL;
		o->boolean = in_list(in, true_words, N_OF(true_words));
		return 0;
	}
	if (in_list(in, null_words, N_OF(null_words))) {
		o->kind = YAML_SCALAR_NULL;
		return 0;
	}
	if (!strcmp(in, "<<")) {
		o->kind = YAML_SCALAR_MERGE;
		return 0;
	}
	if (in_list(in, nan_words, N_OF(nan_words)) ||
	    in_list(in, inf_words, N_OF(inf_words)) ||
	    in_list(in, minus_inf_words, N_OF(minus_inf_words))) {
		o->kind = YAML_SCALAR_FLOAT;
		o->num = *in == '-' ? -INFINITY :
			 in_list(in, nan_words,
				 N_OF(nan_words)) ? NAN : INFINITY;
		return 0;
	}
	if (*in == '+' || *in == '-' || isdigit((unsigned char)*in))
		return resolve_number(in, try_time, o, err);
	if (*in == '.' && yaml_style_float(in) && parse_float(in, &f))
		set_float(o, f);
	return 0;
}

static bool resolvable(const char *t)
{
	static const char *const names[] = {
		"str", "bool", "int", "float", "null", "timestamp",
	};

	return in_list(t, names, N_OF(names));
}

int yaml_scalar_resolve(const char *value, const char *tag, bool plain,
			struct ys *out, struct cm_error *err)
{
	const char *t = NULL;	/* yaml.org tag without its prefix */
	char want[64];

	memset(out, 0, sizeof(*out));
	if (tag) {
		/* "!" and local tags leave the value a string */
		if (strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)))
			return 0;
		t = tag + strlen(TAG_PREFIX);
		if (!strcmp(t, "binary"))
			return cm_errorf(err, "!!binary is not supported");
		if (!strcmp(t, "merge")) {
			out->kind = strcmp(value, "<<") ? YAML_SCALAR_STRING : YAML_SCALAR_MERGE;
			return 0;
		}
		if (!resolvable(t) || !strcmp(t, "str"))
			return 0;
	} else if (!plain) {
		return 0;	/* quoted and block scalars */
	}
	if (resolve_plain(value, !t || !strcmp(t, "timestamp"), out, err))
		return -EINVAL;
	if (out->kind == YAML_SCALAR_FLOAT && !isfinite(out->num))
		return cm_errorf(err, "json: unsupported value: %s",
				 isnan(out->num) ? "NaN" :
				 out->num > 0 ? "+Inf" : "-Inf");
	if (!t || !strcmp(kind_tag(out->kind) + 2, t))
		return 0;
	/* !!float takes an integer as a float */
	if (!strcmp(t, "float") && (out->kind == YAML_SCALAR_INT || out->kind == YAML_SCALAR_UINT)) {
		set_float(out, out->num);
		return 0;
	}
	return cm_errorf(err, "cannot decode %s `%s` as a %s",
			 kind_tag(out->kind), value,
			 short_tag(tag, want, sizeof(want)));
}

int yaml_scalar_key(const struct ys *s, char *buf, size_t len,
		    struct cm_error *err)
{
	switch (s->kind) {
	case YAML_SCALAR_INT:
		snprintf(buf, len, "%s", s->text);
		return 0;
	case YAML_SCALAR_FLOAT:
		float32_g(s->num, buf, len);
		return 0;
	case YAML_SCALAR_BOOL:
		snprintf(buf, len, "%s", s->boolean ? "true" : "false");
		return 0;
	case YAML_SCALAR_NULL:
		return cm_errorf(err, "unsupported map key of type: <nil>");
	case YAML_SCALAR_UINT:
		return cm_errorf(err, "unsupported map key of type: uint64, key: %s",
				 s->text);
	default:
		return cm_errorf(err, "unsupported map key of type: time.Time, key: %s",
				 s->text);
	}
}
