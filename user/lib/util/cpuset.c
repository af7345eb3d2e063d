// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"

void cpuset_zero(struct cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void cpuset_set(struct cpuset *s, unsigned int cpu)
{
	if (cpu < CPUSET_MAX_CPUS)
		s->w[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

void cpuset_clear(struct cpuset *s, unsigned int cpu)
{
	if (cpu < CPUSET_MAX_CPUS)
		s->w[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

bool cpuset_test(const struct cpuset *s, unsigned int cpu)
{
	return cpu < CPUSET_MAX_CPUS && (s->w[cpu / 64] >> (cpu % 64)) & 1;
}

void cpuset_set_range(struct cpuset *s, unsigned int first, unsigned int last)
{
	for (unsigned int c = first; c <= last && c < CPUSET_MAX_CPUS; c++)
		cpuset_set(s, c);
}

unsigned int cpuset_count(const struct cpuset *s)
{
	unsigned int n = 0;

	for (int i = 0; i < CPUSET_WORDS; i++)
		n += __builtin_popcountll(s->w[i]);
	return n;
}

bool cpuset_empty(const struct cpuset *s)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		if (s->w[i])
			return false;
	return true;
}

bool cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	return !memcmp(a, b, sizeof(*a));
}

bool cpuset_subset(const struct cpuset *a, const struct cpuset *b)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}

bool cpuset_intersects(const struct cpuset *a, const struct cpuset *b)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		if (a->w[i] & b->w[i])
			return true;
	return false;
}

void cpuset_and(struct cpuset *dst, const struct cpuset *a,
		const struct cpuset *b)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		dst->w[i] = a->w[i] & b->w[i];
}

void cpuset_or(struct cpuset *dst, const struct cpuset *a,
	       const struct cpuset *b)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		dst->w[i] = a->w[i] | b->w[i];
}

void cpuset_andnot(struct cpuset *dst, const struct cpuset *a,
		   const struct cpuset *b)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		dst->w[i] = a->w[i] & ~b->w[i];
}

int cpuset_next(const struct cpuset *s, int from)
{
	unsigned int i;
	uint64_t word;

	if (from < 0)
		from = 0;
	if (from >= CPUSET_MAX_CPUS)
		return -1;
	i = from / 64;
	word = s->w[i] & (~UINT64_C(0) << (from % 64));
	for (;;) {
		if (word)
			return i * 64 + __builtin_ctzll(word);
		if (++i >= CPUSET_WORDS)
			return -1;
		word = s->w[i];
	}
}

/* Parse a decimal CPU number at *p; advances *p. */
static int parse_num(const char **p, unsigned int *out)
{
	unsigned long v = 0;
	const char *q = *p;

	if (!isdigit((unsigned char)*q))
		return -EINVAL;
	while (isdigit((unsigned char)*q)) {
		v = v * 10 + (unsigned long)(*q - '0');
		if (v > 0xffffffffUL)
			return -ERANGE;
		q++;
	}
	*p = q;
	*out = (unsigned int)v;
	return 0;
}

static int parse_fail(struct cm_error *err, int ret, const char *str,
		      const char *why)
{
	cm_errorf(err, "invalid cpulist \"%s\": %s", str, why);
	return ret;
}

/* One group: "A", "A-B" or "A-B:USED/GROUP", added to s. */
static int parse_group(struct cpuset *s, const char **p, const char *str,
		       struct cm_error *err)
{
	unsigned int first, last, used, group;
	int ret;

	ret = parse_num(p, &first);
	if (ret)
		goto bad_num;
	last = first;
	used = group = 1;
	if (**p == '-') {
		(*p)++;
		ret = parse_num(p, &last);
		if (ret)
			goto bad_num;
		if (**p == ':') {
			(*p)++;
			ret = parse_num(p, &used);
			if (ret)
				goto bad_num;
			if (**p != '/')
				return parse_fail(err, -EINVAL, str,
						  "expected '/' after ':N'");
			(*p)++;
			ret = parse_num(p, &group);
			if (ret)
				goto bad_num;
			if (!used || !group || used > group)
				return parse_fail(err, -EINVAL, str,
						  "bad USED/GROUP stride");
		}
	}
	if (first > last)
		return parse_fail(err, -EINVAL, str, "range start above end");
	if (last >= CPUSET_MAX_CPUS)
		return parse_fail(err, -ERANGE, str,
				  "CPU number out of range (max 8191)");
	for (unsigned int c = first; c <= last; c++)
		if ((c - first) % group < used)
			cpuset_set(s, c);
	return 0;
bad_num:
	return parse_fail(err, ret, str, ret == -ERANGE ?
			  "CPU number out of range (max 8191)" :
			  "expected a CPU number");
}

int cpuset_parse(struct cpuset *s, const char *str, struct cm_error *err)
{
	struct cpuset tmp;
	const char *p = str;
	int ret;

	cpuset_zero(&tmp);
	if (*p == '\0' || !strcmp(p, "\n")) {
		*s = tmp;
		return 0;
	}
	for (;;) {
		ret = parse_group(&tmp, &p, str, err);
		if (ret)
			return ret;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n' && p[1] == '\0')
			break;
		if (*p == '\0')
			break;
		return parse_fail(err, -EINVAL, str, "unexpected character");
	}
	*s = tmp;
	return 0;
}

int cpuset_parse_kube(struct cpuset *s, const char *str, struct cm_error *err)
{
	if (str[strspn(str, "0123456789,-")])
		return parse_fail(err, -EINVAL, str, "unexpected character");
	return cpuset_parse(s, str, err);
}

/* The first CPU at or after from that s lacks (CPUSET_MAX_CPUS if none). */
static int next_clear(const struct cpuset *s, int from)
{
	unsigned int i = (unsigned int)from / 64;
	uint64_t word;

	if (from >= CPUSET_MAX_CPUS)
		return CPUSET_MAX_CPUS;
	word = ~s->w[i] & (~UINT64_C(0) << (from % 64));
	for (;;) {
		if (word)
			return (int)(i * 64 + __builtin_ctzll(word));
		if (++i >= CPUSET_WORDS)
			return CPUSET_MAX_CPUS;
		word = ~s->w[i];
	}
}

/* Append text (n bytes) at buf + *at, as far as len allows. */
static void put_text(char *buf, size_t len, size_t *at, const char *text,
		     size_t n)
{
	if (*at < len)
		memcpy(buf + *at, text, *at + n < len ? n : len - 1 - *at);
	*at += n;
}

static void put_number(char *buf, size_t len, size_t *at, unsigned int v)
{
	char tmp[12];
	size_t k = sizeof(tmp);

	do {
		tmp[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put_text(buf, len, at, tmp + k, sizeof(tmp) - k);
}

/*
 * Runs found a word at a time and numbers written by hand: the sets of a
 * 4096-CPU machine are formatted several times in every process.
 */
size_t cpuset_format(const struct cpuset *s, char *buf, size_t len)
{
	size_t n = 0;
	int first = cpuset_next(s, 0);

	while (first >= 0) {
		int last = next_clear(s, first + 1) - 1;

		if (n)
			put_text(buf, len, &n, ",", 1);
		put_number(buf, len, &n, (unsigned int)first);
		if (last > first) {
			put_text(buf, len, &n, "-", 1);
			put_number(buf, len, &n, (unsigned int)last);
		}
		first = last + 1 < CPUSET_MAX_CPUS ? cpuset_next(s, last + 1) :
						     -1;
	}
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}

char *cpuset_to_str(const struct cpuset *s)
{
	size_t n = cpuset_format(s, NULL, 0);
	char *buf = malloc(n + 1);

	if (buf)
		cpuset_format(s, buf, n + 1);
	return buf;
}
