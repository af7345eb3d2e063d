// SPDX-License-Identifier: GPL-2.0
/* NRI's frames and ttrpc's messages (see nri_wire.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nri_wire.h"

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Drop the first n bytes of a buffer. */
static void sb_consume(struct strbuf *sb, size_t n)
{
	if (!n)
		return;
	memmove(sb->buf, sb->buf + n, sb->len - n);
	sb->len -= n;
}

void nri_wire_init(struct nri_wire *w)
{
	memset(w, 0, sizeof(*w));
}

void nri_wire_free(struct nri_wire *w)
{
	strbuf_release(&w->in);
	for (int i = 0; i < NRI_CONN_NR; i++)
		strbuf_release(&w->conn[i]);
	nri_wire_init(w);
}

int nri_wire_feed(struct nri_wire *w, const void *data, size_t len,
		  struct cm_error *err)
{
	size_t at = 0;

	strbuf_add(&w->in, data, len);
	if (w->in.oom)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	while (w->in.len - at >= NRI_FRAME_HDR_LEN) {
		const uint8_t *h = (const uint8_t *)w->in.buf + at;
		uint32_t id = get_be32(h), n = get_be32(h + 4);

		if (n > NRI_FRAME_MAX) {
			cm_errorf(err, "NRI frame of %u bytes on connection %u: more than %u",
				  n, id, NRI_FRAME_MAX);
			return -EPROTO;
		}
		if (w->in.len - at - NRI_FRAME_HDR_LEN < n)
			break;
		if (id > 0 && id < NRI_CONN_NR) {
			strbuf_add(&w->conn[id], h + NRI_FRAME_HDR_LEN, n);
			if (w->conn[id].oom)
				return cm_errorf(err, "out of memory"), -ENOMEM;
		}
		at += NRI_FRAME_HDR_LEN + n;
	}
	sb_consume(&w->in, at);
	return 0;
}

int nri_wire_next(struct nri_wire *w, struct nri_msg *m,
		  struct cm_error *err)
{
	for (uint32_t id = 1; id < NRI_CONN_NR; id++) {
		struct strbuf *s = &w->conn[id];
		const uint8_t *h;
		uint32_t n;

		/* what the last call handed out is done with now */
		sb_consume(s, w->consumed[id]);
		w->consumed[id] = 0;
		if (s->len < NRI_MSG_HDR_LEN)
			continue;
		h = (const uint8_t *)s->buf;
		n = get_be32(h);
		if (n > NRI_MSG_MAX) {
			cm_errorf(err, "ttrpc message of %u bytes on connection %u: more than %u",
				  n, id, NRI_MSG_MAX);
			return -EPROTO;
		}
		if (s->len - NRI_MSG_HDR_LEN < n)
			continue;
		m->conn = id;
		m->stream = get_be32(h + 4);
		m->type = h[8];
		m->flags = h[9];
		m->payload = h + NRI_MSG_HDR_LEN;
		m->len = n;
		w->consumed[id] = NRI_MSG_HDR_LEN + n;
		return 1;
	}
	return 0;
}

int nri_wire_put(struct strbuf *out, const struct nri_msg *m,
		 struct cm_error *err)
{
	uint8_t h[NRI_FRAME_HDR_LEN + NRI_MSG_HDR_LEN];

	if (m->len > NRI_MSG_MAX)
		return cm_errorf(err, "ttrpc message of %zu bytes: more than %u",
				 m->len, NRI_MSG_MAX), -EMSGSIZE;
	put_be32(h, m->conn);
	put_be32(h + 4, (uint32_t)(NRI_MSG_HDR_LEN + m->len));
	put_be32(h + 8, (uint32_t)m->len);
	put_be32(h + 12, m->stream);
	h[16] = m->type;
	h[17] = m->flags;
	strbuf_add(out, h, sizeof(h));
	if (m->len)
		strbuf_add(out, m->payload, m->len);
	if (out->oom)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	return 0;
}
