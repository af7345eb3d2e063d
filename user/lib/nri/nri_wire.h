/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NRI's wire format, below the protobuf messages (containerd/nri
 * pkg/net/multiplex, containerd/ttrpc channel.go):
 *
 * - The runtime's Unix socket is one trunk carrying two connections in
 *   frames of an 8-byte header, both fields big-endian:
 *     u32 connection id, u32 payload length (at most 16 MiB)
 *   Connection 1 carries the plugin's service (the runtime calls it),
 *   connection 2 the runtime's (the plugin calls it).  A frame is a
 *   slice of that connection's byte stream: a message may span frames
 *   and a frame may hold several messages.
 * - Each connection is a ttrpc channel of messages with a 10-byte
 *   header, big-endian:
 *     u32 length (of the payload, at most 4 MiB), u32 stream id,
 *     u8 type (1 request, 2 response, 3 data), u8 flags
 *   and a protobuf payload (ttrpc.Request or ttrpc.Response).  Clients
 *   number their streams 1, 3, 5, ...
 *
 * nri_wire reassembles the messages of both connections from the bytes
 * read off the trunk and frames outgoing ones; it does no I/O.
 */
#ifndef CPUMGR_NRI_WIRE_H
#define CPUMGR_NRI_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "strbuf.h"

#define NRI_FRAME_HDR_LEN	8
#define NRI_FRAME_MAX		(1u << 24)
#define NRI_MSG_HDR_LEN		10
#define NRI_MSG_MAX		(4u << 20)

/* the multiplexed connections, as the NRI names them */
enum nri_conn_id {
	NRI_CONN_PLUGIN = 1,	/* PluginServiceConn: the runtime calls us */
	NRI_CONN_RUNTIME = 2,	/* RuntimeServiceConn: we call the runtime */
	NRI_CONN_NR = 3,
};

enum nri_msg_type {
	NRI_MSG_REQUEST = 1,
	NRI_MSG_RESPONSE = 2,
	NRI_MSG_DATA = 3,
};

/* One ttrpc message of one connection; payload points into the wire. */
struct nri_msg {
	uint32_t conn;
	uint32_t stream;
	uint8_t type, flags;
	const uint8_t *payload;
	size_t len;
};

struct nri_wire {
	/* the trunk's bytes not yet split into frames */
	struct strbuf in;
	/* each connection's stream, frames joined */
	struct strbuf conn[NRI_CONN_NR];
	size_t consumed[NRI_CONN_NR];	/* of conn[], handed out already */
};

void nri_wire_init(struct nri_wire *w);
void nri_wire_free(struct nri_wire *w);

/*
 * Take bytes read off the trunk.  Frames of unknown connections are
 * dropped, as the runtime's multiplexer does.  -EPROTO (err says why)
 * for a frame over NRI_FRAME_MAX, -ENOMEM.
 */
int nri_wire_feed(struct nri_wire *w, const void *data, size_t len,
		  struct cm_error *err);
/*
 * The next complete message of either connection (the plugin's first):
 * 1 and *m, 0 when none is complete yet, -EPROTO for a message over
 * NRI_MSG_MAX.  m->payload stays valid until the next feed or next.
 */
int nri_wire_next(struct nri_wire *w, struct nri_msg *m,
		  struct cm_error *err);

/*
 * Append one message, framed for the trunk, to out: the frame header,
 * the message header and the payload in one frame.
 */
int nri_wire_put(struct strbuf *out, const struct nri_msg *m,
		 struct cm_error *err);

#endif
