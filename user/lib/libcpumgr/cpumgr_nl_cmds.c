// SPDX-License-Identifier: GPL-2.0
/* The commands of the cpumgr family, one function each. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/genl.h>

#include "cpumgr_nl_internal.h"

/* Room for a string attribute: header, NUL, padding. */
static size_t str_room(const char *s)
{
	return s ? NLA_ALIGN(NLA_HDRLEN + strlen(s) + 1) : 0;
}

static int put_str(struct nl_msg *msg, int type, const char *s)
{
	return s ? nla_put_string(msg, type, s) : 0;
}

/* Replies that carry only GENERATION. */
static int reply_generation(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[CPUMGR_A_MAX + 1];
	int err;

	err = cpumgr_nl_parse_table_attrs(nlh, tb);
	if (err)
		return err;
	if (!tb[CPUMGR_A_GENERATION])
		return -EBADMSG;
	*(uint64_t *)arg = cpumgr_nl_get_generation(tb);
	return 0;
}

/* Send a mutating request whose reply is GENERATION. */
static int mutate(struct cpumgr_nl *nl, struct nl_msg *msg,
		  uint64_t *generation)
{
	uint64_t gen = 0;
	int ret;

	ret = cpumgr_nl_request(nl, msg, reply_generation, &gen);
	if (ret == 0)
		return cpumgr_nl_fail(nl, -EBADMSG, "no reply with the new generation");
	if (ret < 0)
		return ret;
	if (generation)
		*generation = gen;
	return 0;
}

static int reply_state(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[CPUMGR_A_MAX + 1];
	struct cpumgr_table *st = arg;
	int err;

	err = cpumgr_nl_parse_table_attrs(nlh, tb);
	if (err)
		return err;
	if (!tb[CPUMGR_A_GENERATION] || !tb[CPUMGR_A_POLICY])
		return -EBADMSG;
	cpumgr_table_free(st);
	return cpumgr_nl_parse_table(tb, st);
}

int cpumgr_nl_get_table(struct cpumgr_nl *nl, struct cpumgr_table *st)
{
	struct nl_msg *msg;
	int err;

	memset(st, 0, sizeof(*st));
	msg = cpumgr_nl_new_request(nl, CPUMGR_CMD_GET_STATE, 0, 0);
	if (!msg)
		return nl->error.err;
	err = cpumgr_nl_request(nl, msg, reply_state, st);
	if (err == 0)
		err = cpumgr_nl_fail(nl, -EBADMSG, "GET_STATE gave no reply");
	if (err < 0) {
		cpumgr_table_free(st);
		return err;
	}
	return 0;
}

int cpumgr_nl_configure(struct cpumgr_nl *nl, const struct cpumgr_config *cfg,
			const uint64_t *expect, uint64_t *generation)
{
	const char *reserved = cfg->set & CPUMGR_CFG_RESERVED ?
			       cfg->reserved_cpus : NULL;
	const char *root = cfg->set & CPUMGR_CFG_CGROUP_ROOT ?
			   cfg->cgroup_root : NULL;
	const char *system = cfg->set & CPUMGR_CFG_SYSTEM_CGROUP ?
			     cfg->system_cgroup : NULL;
	struct nl_msg *msg;

	msg = cpumgr_nl_new_request(nl, CPUMGR_CMD_CONFIGURE, 0,
				    str_room(reserved) + str_room(root) +
				    str_room(system) + 64);
	if (!msg)
		return nl->error.err;
	if (cpumgr_nl_put_expect(msg, expect) ||
	    (cfg->set & CPUMGR_CFG_POLICY &&
	     nla_put_u32(msg, CPUMGR_A_POLICY, cfg->policy)) ||
	    (cfg->set & CPUMGR_CFG_OPTIONS &&
	     nla_put_u32(msg, CPUMGR_A_OPTIONS, cfg->options)) ||
	    put_str(msg, CPUMGR_A_RESERVED_CPUS, reserved) ||
	    (cfg->set & CPUMGR_CFG_ENFORCE &&
	     nla_put_u32(msg, CPUMGR_A_ENFORCE, cfg->enforce)) ||
	    (cfg->set & CPUMGR_CFG_HOTPLUG &&
	     nla_put_u32(msg, CPUMGR_A_HOTPLUG, cfg->hotplug)) ||
	    put_str(msg, CPUMGR_A_CGROUP_ROOT, root) ||
	    put_str(msg, CPUMGR_A_SYSTEM_CGROUP, system))
		return cpumgr_nl_fail_nomem(nl, msg);
	return mutate(nl, msg, generation);
}

/* Replies that are one assignment (ASSIGN, GET_ASSIGNMENT). */
static int reply_assignment(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[CPUMGR_A_MAX + 1];
	struct cpumgr_assignment *a = arg;
	int err;

	err = cpumgr_nl_parse_table_attrs(nlh, tb);
	if (err)
		return err;
	if (!tb[CPUMGR_A_POD_UID] || !tb[CPUMGR_A_CONTAINER] ||
	    !tb[CPUMGR_A_CPUS] || !tb[CPUMGR_A_GENERATION])
		return -EBADMSG;
	cpumgr_assignment_free(a);
	return cpumgr_nl_parse_assignment(tb, a);
}

/*
 * ASSIGN's reply: the assignment, or GENERATION alone when the table
 * changed again before the kernel built the reply (it does not report
 * an assignment that may have moved on); *a then keeps the request.
 */
static int reply_assign(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[CPUMGR_A_MAX + 1];
	struct cpumgr_assignment *a = arg;
	int err;

	err = cpumgr_nl_parse_table_attrs(nlh, tb);
	if (err)
		return err;
	if (tb[CPUMGR_A_POD_UID])
		return reply_assignment(nlh, arg);
	if (!tb[CPUMGR_A_GENERATION])
		return -EBADMSG;
	a->generation = cpumgr_nl_get_generation(tb);
	return 0;
}

int cpumgr_nl_assign(struct cpumgr_nl *nl, const char *pod_uid,
		     const char *container, const char *cpus, uint32_t flags,
		     const uint64_t *expect, uint64_t *generation,
		     struct cpumgr_assignment *out)
{
	struct cpumgr_assignment a = { .pod_uid = "" };
	bool narrowed = flags & CPUMGR_NL_ASSIGN_NARROWED;
	struct nl_msg *msg;
	int err;

	flags &= ~CPUMGR_NL_ASSIGN_NARROWED;
	msg = cpumgr_nl_new_request(nl, CPUMGR_CMD_ASSIGN, 0,
				    str_room(pod_uid) +
				    str_room(container) + str_room(cpus) + 32);
	if (!msg)
		return nl->error.err;
	if (cpumgr_nl_put_expect(msg, expect) ||
	    put_str(msg, CPUMGR_A_POD_UID, pod_uid) ||
	    put_str(msg, CPUMGR_A_CONTAINER, container) ||
	    put_str(msg, CPUMGR_A_CPUS, cpus) ||
	    (flags && nla_put_u32(msg, CPUMGR_A_FLAGS, flags)) ||
	    (narrowed && nla_put_flag(msg, CPUMGR_A_NARROWED)))
		return cpumgr_nl_fail_nomem(nl, msg);
	/* What the reply may not say: the request (valid, since it
	 * succeeded, so the names fit). */
	snprintf(a.pod_uid, sizeof(a.pod_uid), "%s", pod_uid ? pod_uid : "");
	snprintf(a.container, sizeof(a.container), "%s",
		 container ? container : "");
	a.flags = flags;
	a.cpus = strdup(cpus ? cpus : "");
	if (!a.cpus)
		return cpumgr_nl_fail_nomem(nl, msg);
	err = cpumgr_nl_request(nl, msg, reply_assign, &a);
	if (err == 0)
		err = cpumgr_nl_fail(nl, -EBADMSG, "ASSIGN gave no reply");
	if (err > 0 && generation)
		*generation = a.generation;
	if (err > 0 && out)
		*out = a;
	else
		cpumgr_assignment_free(&a);
	return err < 0 ? err : 0;
}

int cpumgr_nl_assign_pool(struct cpumgr_nl *nl, const char *pod_uid,
			  const char *cpus, const uint64_t *expect,
			  uint64_t *generation)
{
	struct nl_msg *msg;

	msg = cpumgr_nl_new_request(nl, CPUMGR_CMD_ASSIGN, 0,
				    str_room(pod_uid) + str_room(cpus) + 16);
	if (!msg)
		return nl->error.err;
	if (cpumgr_nl_put_expect(msg, expect) ||
	    put_str(msg, CPUMGR_A_POD_UID, pod_uid) ||
	    put_str(msg, CPUMGR_A_POD_CPUS, cpus ? cpus : ""))
		return cpumgr_nl_fail_nomem(nl, msg);
	return mutate(nl, msg, generation);
}

int cpumgr_nl_release(struct cpumgr_nl *nl, const char *pod_uid,
		      const char *container, const uint64_t *expect,
		      uint64_t *generation)
{
	struct nl_msg *msg;

	msg = cpumgr_nl_new_request(nl, CPUMGR_CMD_RELEASE, 0,
				    str_room(pod_uid) +
				    str_room(container) + 16);
	if (!msg)
		return nl->error.err;
	if (cpumgr_nl_put_expect(msg, expect) ||
	    put_str(msg, CPUMGR_A_POD_UID, pod_uid) ||
	    put_str(msg, CPUMGR_A_CONTAINER, container))
		return cpumgr_nl_fail_nomem(nl, msg);
	return mutate(nl, msg, generation);
}

int cpumgr_nl_bind(struct cpumgr_nl *nl, const char *pod_uid,
		   const char *container, const char *cgroup_path,
		   const char *pod_cgroup_path, const uint64_t *expect,
		   uint64_t *generation)
{
	struct nl_msg *msg;

	msg = cpumgr_nl_new_request(nl, CPUMGR_CMD_BIND, 0, str_room(pod_uid) +
			     str_room(container) + str_room(cgroup_path) +
				    str_room(pod_cgroup_path) + 16);
	if (!msg)
		return nl->error.err;
	if (cpumgr_nl_put_expect(msg, expect) ||
	    put_str(msg, CPUMGR_A_POD_UID, pod_uid) ||
	    put_str(msg, CPUMGR_A_CONTAINER, container) ||
	    put_str(msg, CPUMGR_A_CGROUP_PATH, cgroup_path) ||
	    put_str(msg, CPUMGR_A_POD_CGROUP_PATH, pod_cgroup_path))
		return cpumgr_nl_fail_nomem(nl, msg);
	return mutate(nl, msg, generation);
}

int cpumgr_nl_get_assignment(struct cpumgr_nl *nl, const char *pod_uid,
			     const char *container,
			     struct cpumgr_assignment *out)
{
	struct nl_msg *msg;
	int err;

	memset(out, 0, sizeof(*out));
	msg = cpumgr_nl_new_request(nl, CPUMGR_CMD_GET_ASSIGNMENT, 0,
				    str_room(pod_uid) + str_room(container));
	if (!msg)
		return nl->error.err;
	if (put_str(msg, CPUMGR_A_POD_UID, pod_uid) ||
	    put_str(msg, CPUMGR_A_CONTAINER, container))
		return cpumgr_nl_fail_nomem(nl, msg);
	err = cpumgr_nl_request(nl, msg, reply_assignment, out);
	if (err == 0)
		err = cpumgr_nl_fail(nl, -EBADMSG, "GET_ASSIGNMENT gave no reply");
	if (err < 0) {
		cpumgr_assignment_free(out);
		return err;
	}
	return 0;
}

/* What one dump returned, whatever it lists: an array of size-byte
 * elements, each parsed from one message. */
struct dump_list {
	void *v;
	size_t n, cap, size;
	int (*parse)(struct nlmsghdr *nlh, void *elem);
	void (*free)(void *elem);
};

static int dump_one(struct nlmsghdr *nlh, void *arg)
{
	struct dump_list *l = arg;
	void *elem;
	int err;

	if (cpumgr_nl_grow(&l->v, &l->cap, l->n, l->size))
		return -ENOMEM;
	elem = (char *)l->v + l->n * l->size;
	memset(elem, 0, l->size);
	err = l->parse(nlh, elem);
	if (err)
		l->free(elem);
	else
		l->n++;
	return err;
}

static void dump_restart(void *arg)
{
	struct dump_list *l = arg;

	for (size_t i = 0; i < l->n; i++)
		l->free((char *)l->v + i * l->size);
	l->n = 0;
}

/* On failure the list is left empty. */
static int dump_list(struct cpumgr_nl *nl, uint8_t cmd, struct dump_list *l)
{
	int err = cpumgr_nl_dump(nl, cmd, dump_one, dump_restart, l);

	if (err) {
		dump_restart(l);
		free(l->v);
		l->v = NULL;
	}
	return err;
}

static void free_assignment(void *a)
{
	cpumgr_assignment_free(a);
}

int cpumgr_nl_list_assignments(struct cpumgr_nl *nl,
			       struct cpumgr_assignment **list, size_t *count)
{
	struct dump_list l = {
		.size = sizeof(**list),
		.parse = reply_assignment,
		.free = free_assignment,
	};
	int err;

	err = dump_list(nl, CPUMGR_CMD_GET_ASSIGNMENT, &l);
	if (err)
		return err;
	*list = l.v;
	*count = l.n;
	return 0;
}

int cpumgr_nl_dump_assignments(struct cpumgr_nl *nl, cpumgr_assignment_cb cb,
			       void *arg)
{
	struct cpumgr_assignment *list;
	size_t count, i;
	int ret;

	ret = cpumgr_nl_list_assignments(nl, &list, &count);
	if (ret)
		return ret;
	for (i = 0; i < count && !ret; i++)
		ret = cb(&list[i], arg);
	cpumgr_assignments_free(list, count);
	return ret ? ret : (int)count;
}

static int parse_cpu(struct nlmsghdr *nlh, void *cpu)
{
	return cpumgr_nl_parse_cpu(nlh, cpu);
}

static void free_cpu(void *cpu)
{
	cpumgr_cpu_free(cpu);
}

int cpumgr_nl_dump_topology(struct cpumgr_nl *nl, cpumgr_cpu_cb cb, void *arg)
{
	struct dump_list l = {
		.size = sizeof(struct cpumgr_cpu),
		.parse = parse_cpu,
		.free = free_cpu,
	};
	const struct cpumgr_cpu *cpus;
	size_t i;
	int ret;

	ret = dump_list(nl, CPUMGR_CMD_GET_TOPOLOGY, &l);
	if (ret)
		return ret;
	cpus = l.v;
	for (i = 0; i < l.n && !ret; i++)
		ret = cb(&cpus[i], arg);
	if (!ret)
		ret = (int)l.n;
	dump_restart(&l);
	free(l.v);
	return ret;
}

static size_t entry_room(const struct cpumgr_restore_entry *e)
{
	return NLA_HDRLEN + str_room(e->pod_uid) + str_room(e->container) +
	       str_room(e->cpus) + str_room(e->cgroup_path) +
	       str_room(e->pod_cgroup_path) + 16;
}

static int put_entry(struct nl_msg *msg, const struct cpumgr_restore_entry *e)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, CPUMGR_A_ASSIGNMENT);
	if (!nest ||
	    put_str(msg, CPUMGR_A_POD_UID, e->pod_uid) ||
	    put_str(msg, CPUMGR_A_CONTAINER, e->container) ||
	    put_str(msg, CPUMGR_A_CPUS, e->cpus) ||
	    (e->flags && nla_put_u32(msg, CPUMGR_A_FLAGS, e->flags)) ||
	    put_str(msg, CPUMGR_A_CGROUP_PATH, e->cgroup_path) ||
	    put_str(msg, CPUMGR_A_POD_CGROUP_PATH, e->pod_cgroup_path))
		return -ENOMEM;
	nla_nest_end(msg, nest);
	return 0;
}

int cpumgr_nl_restore(struct cpumgr_nl *nl,
		      const struct cpumgr_restore_entry *entries, size_t count,
		      const uint64_t *expect, uint64_t *generation)
{
	struct nl_msg *msg;
	size_t i, room = 16;

	for (i = 0; i < count; i++)
		room += entry_room(&entries[i]);
	msg = cpumgr_nl_new_request(nl, CPUMGR_CMD_RESTORE, 0, room);
	if (!msg)
		return nl->error.err;
	if (cpumgr_nl_put_expect(msg, expect))
		return cpumgr_nl_fail_nomem(nl, msg);
	for (i = 0; i < count; i++) {
		if (put_entry(msg, &entries[i]))
			return cpumgr_nl_fail_nomem(nl, msg);
	}
	return mutate(nl, msg, generation);
}

int cpumgr_nl_reset(struct cpumgr_nl *nl, const uint64_t *expect,
		    uint64_t *generation)
{
	struct nl_msg *msg;

	msg = cpumgr_nl_new_request(nl, CPUMGR_CMD_RESET, 0, 16);
	if (!msg)
		return nl->error.err;
	if (cpumgr_nl_put_expect(msg, expect))
		return cpumgr_nl_fail_nomem(nl, msg);
	return mutate(nl, msg, generation);
}
