// SPDX-License-Identifier: GPL-2.0
/*
 * CPU lists as they travel over netlink: the cpulist syntax of sysfs and
 * cgroup files, "N" (the last possible CPU) included as cpuset.cpus
 * takes it, but parsed strictly otherwise (bitmap_parselist() accepts
 * more: group syntax, spaces).
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/stringify.h>

#include "cpumgr.h"
#include "cpumgr_cpulist.h"

/*
 * A CPU number: decimal digits, no sign, no leading zeros but "0"; or
 * "N", the last possible CPU.
 */
static int cpumgr_parse_cpu(const char **p, unsigned int *cpu)
{
	const char *s = *p;
	unsigned long val = 0;

	if (*s == 'N') {
		*p = s + 1;
		*cpu = nr_cpu_ids - 1;
		return 0;
	}
	if (!isdigit(*s) || (s[0] == '0' && isdigit(s[1])))
		return -EINVAL;
	while (isdigit(*s)) {
		val = val * 10 + (*s++ - '0');
		/* Saturate: anything this big is out of range anyway. */
		if (val > UINT_MAX)
			val = UINT_MAX;
	}
	*p = s;
	*cpu = val;
	return 0;
}

#define CPUMGR_CPULIST_TOO_LONG \
	"cpulist is longer than " __stringify(CPUMGR_CPULIST_MAX) " bytes"

/**
 * cpumgr_cpulist_parse - parse a cpulist into @mask
 * @list: "0-3,8" style list; "" is the empty set; at most
 *	CPUMGR_CPULIST_MAX bytes
 * @mask: result, cleared first
 * @attr: the attribute @list came from, for the extack
 * @extack: where the reason of a refusal goes
 *
 * Return: 0, -EINVAL on bad syntax or a list over its limit, -ERANGE for
 * a CPU number that is not below nr_cpu_ids.
 */
int cpumgr_cpulist_parse(const char *list, struct cpumask *mask,
			 const struct nlattr *attr,
			 struct netlink_ext_ack *extack)
{
	const char *p = list;
	unsigned int first, last;

	cpumask_clear(mask);
	/* Here rather than in the policy, whose message has no number. */
	if (strnlen(list, CPUMGR_CPULIST_MAX + 1) > CPUMGR_CPULIST_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, attr, CPUMGR_CPULIST_TOO_LONG);
		return -EINVAL;
	}
	if (!*p)
		return 0;
	for (;;) {
		if (cpumgr_parse_cpu(&p, &first))
			goto syntax;
		last = first;
		if (*p == '-') {
			p++;
			if (cpumgr_parse_cpu(&p, &last))
				goto syntax;
			if (last < first) {
				CPUMGR_ERR(extack, attr,
					   "cpulist range goes backwards",
					   "%u-%u", first, last);
				return -EINVAL;
			}
		}
		if (last >= nr_cpu_ids) {
			CPUMGR_ERR(extack, attr, "CPU number out of range",
				   "%u >= %u possible CPUs", last, nr_cpu_ids);
			return -ERANGE;
		}
		bitmap_set(cpumask_bits(mask), first, last - first + 1);
		if (!*p)
			return 0;
		if (*p++ != ',' || !*p)
			goto syntax;
	}
syntax:
	CPUMGR_ERR(extack, attr, "cpulist syntax error",
		   "at offset %td", p - list);
	return -EINVAL;
}

/* The cpulist of @mask as a new string ("" for the empty set). */
char *cpumgr_cpulist_format(const struct cpumask *mask, gfp_t gfp)
{
	return kasprintf(gfp, "%*pbl", cpumask_pr_args(mask));
}
