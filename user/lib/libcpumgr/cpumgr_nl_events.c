// SPDX-License-Identifier: GPL-2.0
/*
 * The "events" multicast group: a socket of its own, read with recv() so
 * that a datagram holding several notifications is handed out one at a
 * time and a lost batch (ENOBUFS) reaches the caller as such.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <netlink/genl/genl.h>

#include "cpumgr_nl_internal.h"

/* The largest notification: an assignment with a cpulist and two paths
 * at their limits, or a state with four cpulists of thousands of CPUs. */
#define EV_BUF_SIZE	(256 * 1024)
/* Bursts of notifications wait here while the controller is busy. */
#define EV_RCVBUF	(4 << 20)

int cpumgr_nl_subscribe(struct cpumgr_nl *nl)
{
	struct nl_sock *sk;
	int err, fd, size = EV_RCVBUF;

	cpumgr_nl_clear_error(nl);
	if (nl->ev_sk)
		return 0;
	nl->ev_buf = malloc(EV_BUF_SIZE);
	sk = nl_socket_alloc();
	if (!sk || !nl->ev_buf) {
		if (sk)
			nl_socket_free(sk);
		return cpumgr_nl_fail(nl, -ENOMEM, "out of memory");
	}
	err = genl_connect(sk);
	if (!err)
		err = nl_socket_add_membership(sk, nl->events_group);
	if (err) {
		nl_socket_free(sk);
		/* The group is for CAP_SYS_ADMIN, like changes. */
		return cpumgr_nl_fail(nl, err == -NLE_PERM ? -EPERM : -EIO,
				      "cannot join the \"%s\" group: %s",
				 CPUMGR_GENL_MCGRP_EVENTS, nl_geterror(err));
	}
	fd = nl_socket_get_fd(sk);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	nl->ev_sk = sk;
	nl->ev_len = 0;
	nl->ev_off = 0;
	return 0;
}

int cpumgr_nl_event_fd(const struct cpumgr_nl *nl)
{
	return nl->ev_sk ? nl_socket_get_fd(nl->ev_sk) : -1;
}

/* The next notification of our family already received, or NULL. */
static struct nlmsghdr *next_buffered(struct cpumgr_nl *nl)
{
	while (nl->ev_off < nl->ev_len) {
		struct nlmsghdr *nlh = (void *)(nl->ev_buf + nl->ev_off);
		int rem = nl->ev_len - nl->ev_off;

		if (!nlmsg_ok(nlh, rem)) {
			nl->ev_len = 0;
			return NULL;
		}
		nl->ev_off += NLMSG_ALIGN(nlh->nlmsg_len);
		if (nlh->nlmsg_type == nl->family)
			return nlh;
	}
	return NULL;
}

/* A string attribute into a fixed buffer, cut to fit. */
static void copy_str(struct nlattr *nla, char *dst, size_t size)
{
	if (nla)
		snprintf(dst, size, "%.*s", nla_len(nla),
			 (const char *)nla_data(nla));
}

/* What violations and CPU events carry besides the table's fields. */
static void parse_event_info(struct nlattr **tb, struct cpumgr_event *ev)
{
	if (tb[CPUMGR_A_KIND])
		ev->kind = nla_get_u32(tb[CPUMGR_A_KIND]);
	if (tb[CPUMGR_A_VERDICT])
		ev->verdict = nla_get_u32(tb[CPUMGR_A_VERDICT]);
	if (tb[CPUMGR_A_CPU])
		ev->cpu = nla_get_u32(tb[CPUMGR_A_CPU]);
	if (tb[CPUMGR_A_PID])
		ev->pid = nla_get_u32(tb[CPUMGR_A_PID]);
	copy_str(tb[CPUMGR_A_COMM], ev->comm, sizeof(ev->comm));
	copy_str(tb[CPUMGR_A_FILE], ev->file, sizeof(ev->file));
}

static int parse_event(struct cpumgr_nl *nl, struct nlmsghdr *nlh,
		       struct cpumgr_event *ev)
{
	struct nlattr *tb[CPUMGR_A_MAX + 1];
	int err;

	memset(ev, 0, sizeof(*ev));
	ev->type = ((struct genlmsghdr *)nlmsg_data(nlh))->cmd;
	err = cpumgr_nl_parse_table_attrs(nlh, tb);
	/* Every event carries what it has in the table's attributes. */
	err = err ?: cpumgr_nl_parse_assignment(tb, &ev->assignment);
	err = err ?: cpumgr_nl_parse_table(tb, &ev->table);
	if (err) {
		cpumgr_event_free(ev);
		return cpumgr_nl_fail(nl, err, "malformed notification");
	}
	ev->generation = cpumgr_nl_get_generation(tb);
	parse_event_info(tb, ev);
	return 0;
}

static int ms_left(const struct timespec *deadline)
{
	struct timespec now;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (deadline->tv_sec - now.tv_sec) * 1000 +
	     (deadline->tv_nsec - now.tv_nsec) / 1000000;
	return ms > 0 ? (int)ms : 0;
}

int cpumgr_nl_recv_event(struct cpumgr_nl *nl, struct cpumgr_event *ev,
			 int timeout_ms)
{
	struct pollfd pfd = { .fd = cpumgr_nl_event_fd(nl), .events = POLLIN };
	struct timespec deadline;
	struct nlmsghdr *nlh;
	ssize_t n;
	int wait = timeout_ms;

	cpumgr_nl_clear_error(nl);
	if (!nl->ev_sk)
		return cpumgr_nl_fail(nl, -ENOTCONN, "not subscribed to events");
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	for (;;) {
		nlh = next_buffered(nl);
		if (nlh)
			return parse_event(nl, nlh, ev);
		n = recv(pfd.fd, nl->ev_buf, EV_BUF_SIZE,
			 MSG_DONTWAIT | MSG_TRUNC);
		if (n > EV_BUF_SIZE)
			return cpumgr_nl_fail(nl, -EMSGSIZE, "a notification of %zd bytes was too big",
					      n);
		if (n >= 0) {
			nl->ev_len = n;
			nl->ev_off = 0;
			continue;
		}
		if (errno == ENOBUFS)
			return cpumgr_nl_fail(nl, -ENOBUFS,
				       "events were lost: re-read the table");
		if (errno != EAGAIN && errno != EINTR)
			return cpumgr_nl_fail(nl, -errno, "receiving events failed");
		if (timeout_ms >= 0) {
			wait = ms_left(&deadline);
			if (!wait)
				return cpumgr_nl_fail(nl, -EAGAIN, "no event");
		}
		if (poll(&pfd, 1, wait) < 0 && errno != EINTR)
			return cpumgr_nl_fail(nl, -errno, "waiting for events failed");
	}
}
