// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "quantity.h"

#define ERR_FORMAT "quantities must match the regular expression " \
	"'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
#define ERR_SUFFIX "unable to parse quantity's suffix"

/* Past this a quantity is no resource amount anyone means (1e27). */
static const __int128 nano_limit = (__int128)1000000000000000000LL *
				   1000000000LL;

struct suffix {
	const char *s;
	int exp10;
	int exp2;
};

static const struct suffix suffixes[] = {
	{ "n", -9, 0 }, { "u", -6, 0 }, { "m", -3, 0 }, { "", 0, 0 },
	{ "k", 3, 0 }, { "M", 6, 0 }, { "G", 9, 0 }, { "T", 12, 0 },
	{ "P", 15, 0 }, { "E", 18, 0 },
	{ "Ki", 0, 10 }, { "Mi", 0, 20 }, { "Gi", 0, 30 }, { "Ti", 0, 40 },
	{ "Pi", 0, 50 }, { "Ei", 0, 60 },
};

static bool is_suffix_char(char c)
{
	return c && strchr("eEinumkKMGTP", c);
}

/* Split like Kubernetes' parseQuantityString(). */
static int split(const char *s, const char **num_end, const char **suffix)
{
	const char *p = s;

	if (*p == '+' || *p == '-')
		p++;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p))
			p++;
	}
	*num_end = p;
	*suffix = p;
	while (is_suffix_char(*p))
		p++;
	if (*p == '+' || *p == '-')
		p++;
	while (isdigit((unsigned char)*p))
		p++;
	return *p ? -EINVAL : 0;
}

static int interpret_suffix(const char *sfx, int *exp10, int *exp2,
			    bool *binary)
{
	long e = 0;
	const char *p;
	bool neg = false;

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (!strcmp(sfx, suffixes[i].s)) {
			*exp10 = suffixes[i].exp10;
			*exp2 = suffixes[i].exp2;
			*binary = suffixes[i].exp2 != 0;
			return 0;
		}
	if (strlen(sfx) < 2 || (sfx[0] != 'e' && sfx[0] != 'E'))
		return -EINVAL;
	p = sfx + 1;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (!*p)
		return -EINVAL;
	for (; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		e = e * 10 + (*p - '0');
		if (e > 1000)
			return -ERANGE;
	}
	*exp10 = (int)(neg ? -e : e);
	*exp2 = 0;
	*binary = false;
	return 0;
}

int quantity_parse(const char *s, struct quantity *q, struct cm_error *err)
{
	const char *num_end, *sfx, *p = s;
	__int128 mant = 0;
	int exp10 = 0, sexp10, sexp2, digits = 0;
	bool neg = false, binary, round_up = false;

	if (!*s || split(s, &num_end, &sfx))
		return cm_errorf(err, ERR_FORMAT);
	if (interpret_suffix(sfx, &sexp10, &sexp2, &binary))
		return cm_errorf(err, ERR_SUFFIX);
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	for (; p < num_end; p++) {
		if (*p == '.') {
			digits = 1;	/* from now on digits are fractional */
			continue;
		}
		if (mant > nano_limit) {
			/* extra precision only matters for rounding up */
			if (*p != '0')
				round_up = true;
			if (!digits)
				exp10++;
			continue;
		}
		mant = mant * 10 + (*p - '0');
		if (digits)
			exp10--;
	}
	exp10 += sexp10 + 9;
	for (; sexp2 > 0; sexp2--) {
		mant *= 2;
		if (mant > nano_limit)
			return cm_errorf(err, "quantity \"%s\" is too large", s);
	}
	for (; exp10 > 0; exp10--) {
		mant *= 10;
		if (mant > nano_limit)
			return cm_errorf(err, "quantity \"%s\" is too large", s);
	}
	for (; exp10 < 0; exp10++) {
		if (mant % 10)
			round_up = true;
		mant /= 10;
	}
	if (round_up)
		mant++;
	if (mant > nano_limit)
		return cm_errorf(err, "quantity \"%s\" is too large", s);
	q->nano = neg ? -mant : mant;
	q->binary = binary;
	return 0;
}

int quantity_parse_cpu(const char *s, struct quantity *q,
		       struct cm_error *err)
{
	struct quantity tmp;
	int ret = quantity_parse(s, &tmp, err);

	if (ret)
		return ret;
	if (tmp.binary)
		return cm_errorf(err, "cpu quantity \"%s\" must not use a binary suffix",
				 s);
	*q = tmp;
	return 0;
}

/*
 * ceil(nano / unit) for any sign, saturated to int64: the milli value of
 * a quantity above 9.2e15 (1e18 cpu, 1Ei of memory) does not fit.
 */
static int64_t ceil_div(__int128 nano, __int128 unit)
{
	__int128 d = nano / unit;

	if (nano % unit && nano > 0)
		d++;
	if (d > INT64_MAX)
		return INT64_MAX;
	if (d < INT64_MIN)
		return INT64_MIN;
	return (int64_t)d;
}

int64_t quantity_value(const struct quantity *q)
{
	return ceil_div(q->nano, 1000000000);
}

int64_t quantity_milli_value(const struct quantity *q)
{
	return ceil_div(q->nano, 1000000);
}

int quantity_cmp(const struct quantity *a, const struct quantity *b)
{
	return (a->nano > b->nano) - (a->nano < b->nano);
}

bool quantity_positive(const struct quantity *q)
{
	return q->nano > 0;
}
