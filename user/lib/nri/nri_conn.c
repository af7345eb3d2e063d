// SPDX-License-Identifier: GPL-2.0
/* One NRI connection, the plugin's side (see nri_conn.h). */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "nri_conn.h"

#define READ_CHUNK	65536

void nri_conn_init(struct nri_conn *c, int fd, FILE *log)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->log = log;
	nri_wire_init(&c->wire);
	c->next_stream = 1;
}

void nri_conn_free(struct nri_conn *c)
{
	nri_wire_free(&c->wire);
	strbuf_release(&c->out);
}

static int flush(struct nri_conn *c, struct cm_error *err)
{
	size_t at = 0;

	while (at < c->out.len) {
		ssize_t n = write(c->fd, c->out.buf + at, c->out.len - at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			cm_errorf(err, "writing to the runtime: %s", strerror(e));
			return -e;
		}
		at += (size_t)n;
	}
	c->out.len = 0;
	return 0;
}

static int queue_call(struct nri_conn *c, struct strbuf *to,
		      const char *method, const ProtobufCMessage *msg,
		      struct cm_error *err)
{
	struct strbuf req = STRBUF_INIT;
	struct nri_msg m = {
		.conn = NRI_CONN_RUNTIME, .type = NRI_MSG_REQUEST,
	};
	int ret;

	if (c->nr_pending == NRI_PENDING_MAX)
		return cm_errorf(err, "%u calls to the runtime unanswered",
				 c->nr_pending), -EBUSY;
	ret = nri_rpc_pack_request(&req, NRI_SERVICE_RUNTIME, method, msg, err);
	if (ret)
		return ret;
	m.stream = c->next_stream;
	m.payload = (const uint8_t *)req.buf;
	m.len = req.len;
	ret = nri_wire_put(to, &m, err);
	strbuf_release(&req);
	if (ret)
		return ret;
	c->pending[c->nr_pending].stream = c->next_stream;
	snprintf(c->pending[c->nr_pending].method,
		 sizeof(c->pending[0].method), "%s", method);
	c->nr_pending++;
	c->next_stream += 2;
	if (c->log)
		fprintf(c->log, "nri: -> %s (stream %u)\n", method, m.stream);
	return 0;
}

int nri_conn_call(struct nri_conn *c, const char *method,
		  const ProtobufCMessage *msg, struct cm_error *err)
{
	int ret = queue_call(c, &c->out, method, msg, err);

	return ret ? ret : flush(c, err);
}

static int serve_call(struct nri_conn *c, const struct nri_handler *h,
		      const struct nri_msg *m, struct cm_error *err)
{
	struct nri_reply reply = { .code = NRI_RPC_OK };
	struct strbuf rsp = STRBUF_INIT;
	struct nri_request req;
	struct nri_msg out = {
		.conn = NRI_CONN_PLUGIN, .stream = m->stream,
		.type = NRI_MSG_RESPONSE,
	};
	int ret = nri_rpc_unpack_request(m->payload, m->len, &req, err);

	if (ret)
		return ret;
	if (c->log)
		fprintf(c->log, "nri: <- %s.%s (stream %u)\n", req.service,
			req.method, m->stream);
	if (strcmp(req.service, NRI_SERVICE_PLUGIN)) {
		reply.code = NRI_RPC_UNIMPLEMENTED;
		snprintf(reply.message, sizeof(reply.message),
			 "service %s: not served by this plugin", req.service);
	} else {
		ret = h->call(h->ctx, c, &req, &reply);
	}
	nri_rpc_request_free(&req);
	if (ret < 0) {
		strbuf_release(&reply.payload);
		return ret;
	}
	ret = nri_rpc_pack_response(&rsp, reply.code, reply.message,
				    reply.payload.buf, reply.payload.len, err);
	strbuf_release(&reply.payload);
	if (!ret) {
		out.payload = (const uint8_t *)rsp.buf;
		out.len = rsp.len;
		ret = nri_wire_put(&c->out, &out, err);
	}
	strbuf_release(&rsp);
	return ret ? ret : flush(c, err);
}

static int take_response(struct nri_conn *c, const struct nri_handler *h,
			 const struct nri_msg *m, struct cm_error *err)
{
	struct nri_response rsp;
	char method[32] = "";
	unsigned int i;
	int ret;

	for (i = 0; i < c->nr_pending; i++)
		if (c->pending[i].stream == m->stream)
			break;
	if (i == c->nr_pending)
		return cm_errorf(err, "a response on stream %u: no call of ours",
				 m->stream), -EPROTO;
	memcpy(method, c->pending[i].method, sizeof(method));
	c->pending[i] = c->pending[--c->nr_pending];
	ret = nri_rpc_unpack_response(m->payload, m->len, &rsp, err);
	if (ret)
		return ret;
	if (c->log)
		fprintf(c->log, "nri: <- response to %s: code %d%s%s\n", method,
			rsp.code, rsp.message[0] ? " " : "", rsp.message);
	if (!strcmp(method, "RegisterPlugin")) {
		if (rsp.code != NRI_RPC_OK) {
			cm_errorf(err, "the runtime refused the registration: %s (code %d)",
				  rsp.message, rsp.code);
			nri_rpc_response_free(&rsp);
			return -EPERM;
		}
		c->registered = true;
	}
	if (rsp.code != NRI_RPC_OK)
		c->failed = true;
	if (h->response)
		h->response(h->ctx, c, method, &rsp);
	nri_rpc_response_free(&rsp);
	return 0;
}

static int unexpected(const struct nri_msg *m, struct cm_error *err)
{
	cm_errorf(err, "ttrpc message of type %u on connection %u: not expected",
		  m->type, m->conn);
	return -EPROTO;
}

/*
 * Wait for the runtime, calling h->tick whenever its period is over
 * (counted from the last tick, not from the last message, so that a busy
 * runtime does not hold it off): 1 when there is something to read, <0
 * when the tick said to drop the connection.
 */
static int wait_readable(struct nri_conn *c, const struct nri_handler *h,
			 long long *next, struct cm_error *err)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };

	if (!h->tick || !h->tick_ms)
		return 1;
	for (;;) {
		long long left = *next - clock_mono_ms();
		int n;

		if (left <= 0) {
			int ret = h->tick(h->ctx, c);

			*next = clock_mono_ms() + h->tick_ms;
			if (ret < 0) {
				cm_errorf(err, "dropped by the plugin's tick (%d)",
					  ret);
				return ret;
			}
			continue;
		}
		n = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR) {
			int e = errno;

			cm_errorf(err, "waiting for the runtime: %s", strerror(e));
			return -e;
		}
	}
}

int nri_conn_serve(struct nri_conn *c, const struct nri_handler *h,
		   struct cm_error *err)
{
	static char buf[READ_CHUNK];
	long long next = clock_mono_ms() + h->tick_ms;

	for (;;) {
		struct nri_msg m;
		ssize_t n;
		int ret = wait_readable(c, h, &next, err);

		if (ret < 0)
			return ret;
		n = read(c->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			cm_errorf(err, "reading from the runtime: %s",
				  strerror(e));
			return -e;
		}
		if (n == 0)
			return 0;
		ret = nri_wire_feed(&c->wire, buf, (size_t)n, err);
		while (!ret && (ret = nri_wire_next(&c->wire, &m, err)) > 0) {
			if (m.conn == NRI_CONN_PLUGIN &&
			    m.type == NRI_MSG_REQUEST)
				ret = serve_call(c, h, &m, err);
			else if (m.conn == NRI_CONN_RUNTIME &&
				 m.type == NRI_MSG_RESPONSE)
				ret = take_response(c, h, &m, err);
			else
				ret = unexpected(&m, err);
		}
		if (ret < 0)
			return ret;
	}
}
