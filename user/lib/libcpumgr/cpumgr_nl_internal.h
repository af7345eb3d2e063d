/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the cpumgr netlink client: the connection and its helpers. */
#ifndef CPUMGR_NL_INTERNAL_H
#define CPUMGR_NL_INTERNAL_H

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "cpumgr_nl.h"

struct cpumgr_nl {
	struct nl_sock *sk;	/* requests and their replies */
	struct nl_cb *cb;
	int family;
	int events_group;
	int sndbuf;		/* bytes the socket can send at once */

	/* Events, once subscribed: a socket of their own and what was
	 * received of it but not yet handed out. */
	struct nl_sock *ev_sk;
	unsigned char *ev_buf;
	size_t ev_len;
	size_t ev_off;

	struct cpumgr_nl_error error;
	char *errmsg;		/* owned; error.msg points here or at "" */
};

/* Called for each reply message of a request; non-zero is an -errno. */
typedef int (*cpumgr_nl_reply_fn)(struct nlmsghdr *nlh, void *arg);

/* A request whose dump the kernel marked NLM_F_DUMP_INTR. */
#define CMNL_DUMP_INTERRUPTED	(-EINTR)

/* A request with room for `payload` bytes of attributes; NULL on ENOMEM
 * (recorded in nl's error). */
struct nl_msg *cpumgr_nl_new_request(struct cpumgr_nl *nl, uint8_t cmd,
				     int flags, size_t payload);
/* Put the optional expected generation; 0 or -ENOMEM. */
int cpumgr_nl_put_expect(struct nl_msg *msg, const uint64_t *expect);
/* Send, collect replies (fn may be NULL), wait for the ACK or the end of
 * the dump.  Frees msg.  Returns the number of replies,
 * CMNL_DUMP_INTERRUPTED or -errno. */
int cpumgr_nl_request(struct cpumgr_nl *nl, struct nl_msg *msg,
		      cpumgr_nl_reply_fn fn, void *arg);
/* A dump, read again while the kernel marks it NLM_F_DUMP_INTR; restart
 * drops what fn gathered from the interrupted one. */
int cpumgr_nl_dump(struct cpumgr_nl *nl, uint8_t cmd, cpumgr_nl_reply_fn fn,
		   void (*restart)(void *arg), void *arg);
/* Grow *v (of *cap elements of size bytes) to hold n + 1; -ENOMEM. */
int cpumgr_nl_grow(void **v, size_t *cap, size_t n, size_t size);
/* Forget the last error. */
void cpumgr_nl_clear_error(struct cpumgr_nl *nl);
/* Record a library-made failure; returns err. */
int cpumgr_nl_fail(struct cpumgr_nl *nl, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ENOMEM while building a request. */
int cpumgr_nl_fail_nomem(struct cpumgr_nl *nl, struct nl_msg *msg);

/* cpumgr_nl_parse.c: attributes of the table (tb[CPUMGR_A_MAX + 1]). */
int cpumgr_nl_parse_table_attrs(struct nlmsghdr *nlh, struct nlattr **tb);
int cpumgr_nl_parse_table(struct nlattr **tb, struct cpumgr_table *st);
int cpumgr_nl_parse_assignment(struct nlattr **tb, struct cpumgr_assignment *a);
int cpumgr_nl_parse_cpu(struct nlmsghdr *nlh, struct cpumgr_cpu *cpu);
uint64_t cpumgr_nl_get_generation(struct nlattr **tb);

#endif
