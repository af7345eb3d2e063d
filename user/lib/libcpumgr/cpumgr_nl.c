// SPDX-License-Identifier: GPL-2.0
/*
 * The cpumgr netlink connection: opening it, one request and its answer,
 * and the kernel's extended ACK turned into a struct cpumgr_nl_error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "cpumgr_nl_internal.h"

/* The send buffer asked for at open; the kernel caps it at wmem_max. */
#define NL_SNDBUF	(1 << 20)
/* Dumps that keep racing with changes are read again this many times. */
#define CMNL_DUMP_TRIES	64

void cpumgr_nl_clear_error(struct cpumgr_nl *nl)
{
	free(nl->errmsg);
	nl->errmsg = NULL;
	nl->error = (struct cpumgr_nl_error){ .msg = "", .entry = -1 };
}

static void set_msg(struct cpumgr_nl *nl, char *msg)
{
	free(nl->errmsg);
	nl->errmsg = msg;
	nl->error.msg = msg ? msg : "";
}

int cpumgr_nl_fail(struct cpumgr_nl *nl, int err, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	set_msg(nl, msg);
	nl->error.err = err;
	return err;
}

int cpumgr_nl_fail_nomem(struct cpumgr_nl *nl, struct nl_msg *msg)
{
	nlmsg_free(msg);
	return cpumgr_nl_fail(nl, -ENOMEM, "request does not fit in its buffer");
}

const struct cpumgr_nl_error *cpumgr_nl_last_error(const struct cpumgr_nl *nl)
{
	return &nl->error;
}

const char *cpumgr_nl_errmsg(const struct cpumgr_nl *nl)
{
	return nl->error.msg;
}

int cpumgr_nl_family_id(const struct cpumgr_nl *nl)
{
	return nl->family;
}

static int set_sockopt(struct nl_sock *sk, int level, int opt, int val)
{
	if (setsockopt(nl_socket_get_fd(sk), level, opt, &val, sizeof(val)))
		return -errno;
	return 0;
}

static int get_sndbuf(struct nl_sock *sk)
{
	socklen_t len;
	int val = 0;

	len = sizeof(val);
	getsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_SNDBUF, &val, &len);
	return val;
}

/*
 * netlink refuses a datagram larger than the send buffer (EMSGSIZE), and
 * RESTORE of a big node can exceed wmem_max: grow the buffer past it when
 * the caller is allowed to (CAP_NET_ADMIN), the way iproute2 does.
 */
static void ensure_sndbuf(struct cpumgr_nl *nl, size_t len)
{
	int want;

	if (len + 64 <= (size_t)nl->sndbuf || len > (1U << 30))
		return;
	want = (int)len + 4096;
	if (set_sockopt(nl->sk, SOL_SOCKET, SO_SNDBUFFORCE, want))
		set_sockopt(nl->sk, SOL_SOCKET, SO_SNDBUF, want);
	nl->sndbuf = get_sndbuf(nl->sk);
}

struct nl_msg *cpumgr_nl_new_request(struct cpumgr_nl *nl, uint8_t cmd,
				     int flags, size_t payload)
{
	struct nl_msg *msg;

	msg = nlmsg_alloc_size(NLMSG_HDRLEN + GENL_HDRLEN + payload + 64);
	if (!msg) {
		cpumgr_nl_fail(nl, -ENOMEM, "out of memory");
		return NULL;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, CPUMGR_GENL_VERSION)) {
		nlmsg_free(msg);
		cpumgr_nl_fail(nl, -ENOMEM, "out of memory");
		return NULL;
	}
	return msg;
}

int cpumgr_nl_put_expect(struct nl_msg *msg, const uint64_t *expect)
{
	if (expect && nla_put_u64(msg, CPUMGR_A_GENERATION, *expect))
		return -ENOMEM;
	return 0;
}

/* What one request gathers from the kernel's answers. */
struct req_ctx {
	struct cpumgr_nl *nl;
	struct nlmsghdr *req;
	uint32_t seq;
	cpumgr_nl_reply_fn fn;
	void *arg;
	int err;		/* -errno from the kernel */
	int fn_err;		/* -errno from fn */
	int replies;
	bool done;
	bool interrupted;
};

/* Which attribute of the request (and of a RESTORE entry) is at off. */
static void blame_offset(struct req_ctx *ctx, uint32_t off)
{
	struct cpumgr_nl_error *e = &ctx->nl->error;
	struct nlattr *attrs, *nla, *inner;
	int rem, irem, entries = 0;

	if (off < NLMSG_HDRLEN + GENL_HDRLEN || off >= ctx->req->nlmsg_len)
		return;
	attrs = (struct nlattr *)((char *)ctx->req + NLMSG_HDRLEN + GENL_HDRLEN);
	rem = ctx->req->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	nla_for_each_attr(nla, attrs, rem, rem) {
		uint32_t start = (char *)nla - (char *)ctx->req;

		if (off >= start + NLA_ALIGN(nla->nla_len)) {
			entries += nla_type(nla) == CPUMGR_A_ASSIGNMENT;
			continue;
		}
		e->attr = nla_type(nla);
		if (e->attr != CPUMGR_A_ASSIGNMENT)
			return;
		e->entry = entries;
		nla_for_each_nested(inner, nla, irem) {
			start = (char *)inner - (char *)ctx->req;
			if (off < start + NLA_ALIGN(inner->nla_len)) {
				e->entry_attr = nla_type(inner);
				return;
			}
		}
		return;
	}
}

/*
 * The TLVs after an error (or a dump's DONE): NLMSGERR_ATTR_MSG and the
 * attribute the kernel blamed.  off is where they start in nlh.
 */
static void parse_extack(struct req_ctx *ctx, struct nlmsghdr *nlh, size_t off)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	struct cpumgr_nl_error *e = &ctx->nl->error;

	off = NLMSG_ALIGN(off);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= nlh->nlmsg_len)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)nlh + off),
		      nlh->nlmsg_len - off, NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0)
		set_msg(ctx->nl, strndup(nla_data(tb[NLMSGERR_ATTR_MSG]),
					 nla_len(tb[NLMSGERR_ATTR_MSG])));
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= 4)
		e->missing_attr = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
	if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4)
		blame_offset(ctx, nla_get_u32(tb[NLMSGERR_ATTR_OFFS]));
	else if (tb[NLMSGERR_ATTR_MISS_NEST] &&
		 nla_len(tb[NLMSGERR_ATTR_MISS_NEST]) >= 4)
		blame_offset(ctx, nla_get_u32(tb[NLMSGERR_ATTR_MISS_NEST]));
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *err, void *arg)
{
	/* libnl hands over the payload of the NLMSG_ERROR message. */
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)err - NLMSG_HDRLEN);
	struct req_ctx *ctx = arg;
	size_t off = NLMSG_HDRLEN + sizeof(*err);

	if (nlh->nlmsg_seq != ctx->seq)
		return NL_SKIP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - NLMSG_HDRLEN;
	ctx->err = err->error < 0 ? err->error : -EPROTO;
	parse_extack(ctx, nlh, off);
	ctx->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct req_ctx *ctx = arg;

	ctx->done = true;
	return NL_STOP;
}

/* A dump's DONE carries the dump's error, if any, and its extack. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct req_ctx *ctx = arg;
	int status;

	ctx->done = true;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(int))
		return NL_STOP;
	memcpy(&status, nlmsg_data(nlh), sizeof(status));
	if (status < 0 && !ctx->err) {
		ctx->err = status;
		parse_extack(ctx, nlh, NLMSG_HDRLEN + sizeof(int));
	}
	return NL_STOP;
}

static int on_dump_intr(struct nl_msg *msg, void *arg)
{
	struct req_ctx *ctx = arg;

	ctx->interrupted = true;
	return NL_OK;
}

/* Leftovers of an earlier request that was abandoned are skipped. */
static int on_seq_check(struct nl_msg *msg, void *arg)
{
	struct req_ctx *ctx = arg;

	return nlmsg_hdr(msg)->nlmsg_seq == ctx->seq ? NL_OK : NL_SKIP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct req_ctx *ctx = arg;
	int err;

	ctx->replies++;
	if (!ctx->fn || ctx->fn_err)
		return NL_OK;
	/* On failure keep reading to the end: the socket stays in step. */
	err = ctx->fn(nlmsg_hdr(msg), ctx->arg);
	if (err)
		ctx->fn_err = err;
	return NL_OK;
}

static int send_and_wait(struct cpumgr_nl *nl, struct nlmsghdr *nlh,
			 cpumgr_nl_reply_fn fn, void *arg)
{
	struct req_ctx ctx = { .nl = nl, .req = nlh, .fn = fn, .arg = arg };
	ssize_t sent;
	int ret;

	cpumgr_nl_clear_error(nl);
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = nl_socket_use_seq(nl->sk);
	nlh->nlmsg_pid = nl_socket_get_local_port(nl->sk);
	ctx.seq = nlh->nlmsg_seq;
	ensure_sndbuf(nl, nlh->nlmsg_len);

	do {
		sent = send(nl_socket_get_fd(nl->sk), nlh, nlh->nlmsg_len, 0);
	} while (sent < 0 && errno == EINTR);
	if (sent < 0)
		return cpumgr_nl_fail(nl, -errno, "sending the request failed");

	nl_cb_set(nl->cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &ctx);
	nl_cb_set(nl->cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &ctx);
	nl_cb_set(nl->cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &ctx);
	nl_cb_set(nl->cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_dump_intr, &ctx);
	nl_cb_set(nl->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, on_seq_check, &ctx);
	nl_cb_err(nl->cb, NL_CB_CUSTOM, on_error, &ctx);
	while (!ctx.done) {
		ret = nl_recvmsgs(nl->sk, nl->cb);
		if (ret < 0 && !ctx.done)
			return cpumgr_nl_fail(nl, -EIO, "receiving the answer failed: %s",
					      nl_geterror(ret));
	}
	if (ctx.err) {
		nl->error.err = ctx.err;
		return ctx.err;
	}
	if (ctx.fn_err)
		return cpumgr_nl_fail(nl, ctx.fn_err, "%s", ctx.fn_err == -ENOMEM ?
				      "out of memory reading the reply" :
				      "malformed reply from the kernel");
	if (ctx.interrupted)
		return CMNL_DUMP_INTERRUPTED;
	return ctx.replies;
}

int cpumgr_nl_request(struct cpumgr_nl *nl, struct nl_msg *msg,
		      cpumgr_nl_reply_fn fn, void *arg)
{
	int ret = send_and_wait(nl, nlmsg_hdr(msg), fn, arg);

	nlmsg_free(msg);
	return ret;
}

int cpumgr_nl_send_raw(struct cpumgr_nl *nl, struct nlmsghdr *req)
{
	return send_and_wait(nl, req, NULL, NULL);
}

int cpumgr_nl_grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t new_cap;
	void *p;

	if (n < *cap)
		return 0;
	new_cap = *cap ? 2 * *cap : 64;
	p = realloc(*v, new_cap * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = new_cap;
	return 0;
}

/* Dumps are read again while the kernel says they raced with a change. */
int cpumgr_nl_dump(struct cpumgr_nl *nl, uint8_t cmd, cpumgr_nl_reply_fn fn,
		   void (*restart)(void *arg), void *arg)
{
	struct nl_msg *msg;
	int ret, tries;

	for (tries = 0; tries < CMNL_DUMP_TRIES; tries++) {
		msg = cpumgr_nl_new_request(nl, cmd, NLM_F_DUMP, 0);
		if (!msg)
			return nl->error.err;
		ret = cpumgr_nl_request(nl, msg, fn, arg);
		if (ret != CMNL_DUMP_INTERRUPTED)
			return ret < 0 ? ret : 0;
		restart(arg);
	}
	return cpumgr_nl_fail(nl, -EAGAIN, "the table kept changing during %d dumps",
			      CMNL_DUMP_TRIES);
}

/* 0, or -errno with a malloc'ed message in *text. */
static int connect_socket(struct nl_sock **skp, char **text)
{
	struct nl_sock *sk;
	int ret;

	*text = NULL;
	sk = nl_socket_alloc();
	if (!sk) {
		*text = strdup("out of memory");
		return -ENOMEM;
	}
	ret = genl_connect(sk);
	if (ret) {
		if (asprintf(text, "cannot open a generic netlink socket: %s",
			     nl_geterror(ret)) < 0)
			*text = NULL;
		nl_socket_free(sk);
		return -EPROTONOSUPPORT;
	}
	*skp = sk;
	return 0;
}

static struct cpumgr_nl *open_fail(struct cpumgr_nl *nl, int *err, char **msg,
				   int code, char *text)
{
	cpumgr_nl_close(nl);
	if (err)
		*err = code;
	if (msg)
		*msg = text;
	else
		free(text);
	return NULL;
}

struct cpumgr_nl *cpumgr_nl_open(int *err, char **msg)
{
	struct cpumgr_nl *nl;
	char *text = NULL;
	int code = 0;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return open_fail(NULL, err, msg, -ENOMEM, strdup("out of memory"));
	cpumgr_nl_clear_error(nl);
	code = connect_socket(&nl->sk, &text);
	if (code)
		return open_fail(nl, err, msg, code, text);
	nl->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!nl->cb)
		return open_fail(nl, err, msg, -ENOMEM, strdup("out of memory"));
	/* Big replies (a cpulist of thousands of CPUs) are read whole. */
	nl_socket_enable_msg_peek(nl->sk);
	nl_socket_set_buffer_size(nl->sk, NL_SNDBUF, NL_SNDBUF);
	nl->sndbuf = get_sndbuf(nl->sk);
	/* Extended ACK messages, without the request echoed back. */
	set_sockopt(nl->sk, SOL_NETLINK, NETLINK_EXT_ACK, 1);
	set_sockopt(nl->sk, SOL_NETLINK, NETLINK_CAP_ACK, 1);

	nl->family = genl_ctrl_resolve(nl->sk, CPUMGR_GENL_NAME);
	if (nl->family < 0) {
		code = nl->family == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
		if (asprintf(&text, "no generic netlink family \"%s\" (%s)",
			     CPUMGR_GENL_NAME, code == -ENOENT ?
			     "is cpumgr.ko loaded? it serves the initial network namespace only" :
			     nl_geterror(nl->family)) < 0)
			text = NULL;
		return open_fail(nl, err, msg, code, text);
	}
	nl->events_group = genl_ctrl_resolve_grp(nl->sk, CPUMGR_GENL_NAME,
						 CPUMGR_GENL_MCGRP_EVENTS);
	if (nl->events_group < 0) {
		if (asprintf(&text, "family \"%s\" has no group \"%s\"",
			     CPUMGR_GENL_NAME, CPUMGR_GENL_MCGRP_EVENTS) < 0)
			text = NULL;
		return open_fail(nl, err, msg, -ENOENT, text);
	}
	if (err)
		*err = 0;
	if (msg)
		*msg = NULL;
	return nl;
}

void cpumgr_nl_close(struct cpumgr_nl *nl)
{
	if (!nl)
		return;
	if (nl->ev_sk)
		nl_socket_free(nl->ev_sk);
	free(nl->ev_buf);
	if (nl->cb)
		nl_cb_put(nl->cb);
	if (nl->sk)
		nl_socket_free(nl->sk);
	free(nl->errmsg);
	free(nl);
}
