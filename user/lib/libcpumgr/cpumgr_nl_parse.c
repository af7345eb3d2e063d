// SPDX-License-Identifier: GPL-2.0
/*
 * Replies and notifications of the cpumgr family turned into the structs
 * of cpumgr_nl.h, and the functions that free them (the names for
 * printing are generated from the spec: cpumgr_nl_names_gen.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/genl.h>

#include "cpumgr_nl_internal.h"

/*
 * Integers have their exact size checked; strings are taken as they come
 * (NUL-terminated or not) and bounded by the attribute.
 */
static struct nla_policy table_policy[CPUMGR_A_MAX + 1] = {
	[CPUMGR_A_GENERATION]		= { .type = NLA_U64 },
	[CPUMGR_A_POLICY]		= { .type = NLA_U32 },
	[CPUMGR_A_OPTIONS]		= { .type = NLA_U32 },
	[CPUMGR_A_NR_PODS]		= { .type = NLA_U32 },
	[CPUMGR_A_NR_ASSIGNMENTS]	= { .type = NLA_U32 },
	[CPUMGR_A_FLAGS]		= { .type = NLA_U32 },
	[CPUMGR_A_CGROUP_ID]		= { .type = NLA_U64 },
	[CPUMGR_A_POD_CGROUP_ID]	= { .type = NLA_U64 },
	[CPUMGR_A_ENFORCE]		= { .type = NLA_U32 },
	[CPUMGR_A_HOTPLUG]		= { .type = NLA_U32 },
	[CPUMGR_A_VIOLATIONS]		= { .type = NLA_U64 },
	[CPUMGR_A_OFFLINES_REFUSED]	= { .type = NLA_U64 },
	[CPUMGR_A_EVENTS_DROPPED]	= { .type = NLA_U64 },
	[CPUMGR_A_CPU]			= { .type = NLA_U32 },
	[CPUMGR_A_PID]			= { .type = NLA_U32 },
	[CPUMGR_A_KIND]			= { .type = NLA_U32 },
	[CPUMGR_A_VERDICT]		= { .type = NLA_U32 },
	[CPUMGR_A_ARMED]		= { .type = NLA_U8 },
	[CPUMGR_A_PROBES_MISSED]	= { .type = NLA_U64 },
	[CPUMGR_A_RESTRICTED]		= { .type = NLA_U8 },
};

static struct nla_policy cpu_policy[CPUMGR_A_CPU_MAX + 1] = {
	[CPUMGR_A_CPU_ID]		= { .type = NLA_U32 },
	[CPUMGR_A_CPU_ONLINE]		= { .type = NLA_U8 },
	[CPUMGR_A_CPU_PACKAGE]		= { .type = NLA_U32 },
	[CPUMGR_A_CPU_DIE]		= { .type = NLA_U32 },
	[CPUMGR_A_CPU_CORE]		= { .type = NLA_U32 },
	[CPUMGR_A_CPU_NODE]		= { .type = NLA_U32 },
	[CPUMGR_A_CPU_LLC]		= { .type = NLA_U32 },
};

int cpumgr_nl_parse_table_attrs(struct nlmsghdr *nlh, struct nlattr **tb)
{
	if (genlmsg_parse(nlh, 0, tb, CPUMGR_A_MAX, table_policy))
		return -EBADMSG;
	return 0;
}

/* A string attribute as a malloc'ed C string; *dst stays NULL if absent. */
static int get_str(struct nlattr *nla, char **dst)
{
	if (!nla)
		return 0;
	*dst = strndup(nla_data(nla), nla_len(nla));
	return *dst ? 0 : -ENOMEM;
}

/* Into a fixed buffer; a name longer than the uAPI allows is malformed. */
static int get_name(struct nlattr *nla, char *dst, size_t size)
{
	size_t len;

	if (!nla)
		return 0;
	len = strnlen(nla_data(nla), nla_len(nla));
	if (len >= size)
		return -EBADMSG;
	memcpy(dst, nla_data(nla), len);
	dst[len] = '\0';
	return 0;
}

static uint32_t get_u32(struct nlattr *nla)
{
	return nla ? nla_get_u32(nla) : 0;
}

static uint64_t get_u64(struct nlattr *nla)
{
	return nla ? nla_get_u64(nla) : 0;
}

uint64_t cpumgr_nl_get_generation(struct nlattr **tb)
{
	return get_u64(tb[CPUMGR_A_GENERATION]);
}

int cpumgr_nl_parse_table(struct nlattr **tb, struct cpumgr_table *st)
{
	int err;

	memset(st, 0, sizeof(*st));
	st->generation = get_u64(tb[CPUMGR_A_GENERATION]);
	st->policy = get_u32(tb[CPUMGR_A_POLICY]);
	st->options = get_u32(tb[CPUMGR_A_OPTIONS]);
	st->nr_pods = get_u32(tb[CPUMGR_A_NR_PODS]);
	st->nr_assignments = get_u32(tb[CPUMGR_A_NR_ASSIGNMENTS]);
	st->enforce = get_u32(tb[CPUMGR_A_ENFORCE]);
	st->hotplug = get_u32(tb[CPUMGR_A_HOTPLUG]);
	st->violations = get_u64(tb[CPUMGR_A_VIOLATIONS]);
	st->offlines_refused = get_u64(tb[CPUMGR_A_OFFLINES_REFUSED]);
	st->events_dropped = get_u64(tb[CPUMGR_A_EVENTS_DROPPED]);
	st->armed = tb[CPUMGR_A_ARMED] && nla_get_u8(tb[CPUMGR_A_ARMED]);
	st->probes_missed = get_u64(tb[CPUMGR_A_PROBES_MISSED]);
	st->restricted = tb[CPUMGR_A_RESTRICTED] &&
			 nla_get_u8(tb[CPUMGR_A_RESTRICTED]);
	err = get_str(tb[CPUMGR_A_VERSION], &st->version);
	err = err ?: get_str(tb[CPUMGR_A_UNARMED_REASON], &st->unarmed_reason);
	err = err ?: get_str(tb[CPUMGR_A_CGROUP_ROOT], &st->cgroup_root);
	err = err ?: get_str(tb[CPUMGR_A_SYSTEM_CGROUP], &st->system_cgroup);
	err = err ?: get_str(tb[CPUMGR_A_RESERVED_CPUS], &st->reserved_cpus);
	err = err ?: get_str(tb[CPUMGR_A_SHARED_CPUS], &st->shared_cpus);
	err = err ?: get_str(tb[CPUMGR_A_EXCLUSIVE_CPUS], &st->exclusive_cpus);
	err = err ?: get_str(tb[CPUMGR_A_ONLINE_CPUS], &st->online_cpus);
	if (err)
		cpumgr_table_free(st);
	return err;
}

int cpumgr_nl_parse_assignment(struct nlattr **tb, struct cpumgr_assignment *a)
{
	int err;

	memset(a, 0, sizeof(*a));
	a->flags = get_u32(tb[CPUMGR_A_FLAGS]);
	a->generation = get_u64(tb[CPUMGR_A_GENERATION]);
	a->cgroup_id = get_u64(tb[CPUMGR_A_CGROUP_ID]);
	a->pod_cgroup_id = get_u64(tb[CPUMGR_A_POD_CGROUP_ID]);
	err = get_name(tb[CPUMGR_A_POD_UID], a->pod_uid, sizeof(a->pod_uid));
	err = err ?: get_name(tb[CPUMGR_A_CONTAINER], a->container,
			      sizeof(a->container));
	err = err ?: get_str(tb[CPUMGR_A_CPUS], &a->cpus);
	err = err ?: get_str(tb[CPUMGR_A_CGROUP_PATH], &a->cgroup_path);
	err = err ?: get_str(tb[CPUMGR_A_POD_CGROUP_PATH], &a->pod_cgroup_path);
	err = err ?: get_str(tb[CPUMGR_A_POD_CPUS], &a->pod_cpus);
	if (err)
		cpumgr_assignment_free(a);
	return err;
}

int cpumgr_nl_parse_cpu(struct nlmsghdr *nlh, struct cpumgr_cpu *cpu)
{
	struct nlattr *tb[CPUMGR_A_CPU_MAX + 1];

	memset(cpu, 0, sizeof(*cpu));
	if (genlmsg_parse(nlh, 0, tb, CPUMGR_A_CPU_MAX, cpu_policy) ||
	    !tb[CPUMGR_A_CPU_ID])
		return -EBADMSG;
	cpu->id = nla_get_u32(tb[CPUMGR_A_CPU_ID]);
	/* The values are absent for a CPU never seen online. */
	cpu->known = tb[CPUMGR_A_CPU_PACKAGE] != NULL;
	cpu->online = tb[CPUMGR_A_CPU_ONLINE] &&
		      nla_get_u8(tb[CPUMGR_A_CPU_ONLINE]);
	cpu->package = get_u32(tb[CPUMGR_A_CPU_PACKAGE]);
	cpu->die = get_u32(tb[CPUMGR_A_CPU_DIE]);
	cpu->core = get_u32(tb[CPUMGR_A_CPU_CORE]);
	cpu->numa = get_u32(tb[CPUMGR_A_CPU_NODE]);
	cpu->llc = get_u32(tb[CPUMGR_A_CPU_LLC]);
	return get_str(tb[CPUMGR_A_CPU_SIBLINGS], &cpu->siblings);
}

void cpumgr_table_free(struct cpumgr_table *st)
{
	if (!st)
		return;
	free(st->version);
	free(st->reserved_cpus);
	free(st->shared_cpus);
	free(st->exclusive_cpus);
	free(st->online_cpus);
	free(st->cgroup_root);
	free(st->system_cgroup);
	free(st->unarmed_reason);
	memset(st, 0, sizeof(*st));
}

void cpumgr_assignment_free(struct cpumgr_assignment *a)
{
	if (!a)
		return;
	free(a->cpus);
	free(a->cgroup_path);
	free(a->pod_cgroup_path);
	free(a->pod_cpus);
	memset(a, 0, sizeof(*a));
}

void cpumgr_assignments_free(struct cpumgr_assignment *list, size_t count)
{
	if (!list)
		return;
	for (size_t i = 0; i < count; i++)
		cpumgr_assignment_free(&list[i]);
	free(list);
}

void cpumgr_cpu_free(struct cpumgr_cpu *cpu)
{
	if (!cpu)
		return;
	free(cpu->siblings);
	memset(cpu, 0, sizeof(*cpu));
}

void cpumgr_event_free(struct cpumgr_event *ev)
{
	if (!ev)
		return;
	cpumgr_assignment_free(&ev->assignment);
	cpumgr_table_free(&ev->table);
	memset(ev, 0, sizeof(*ev));
}
