/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A plugin's side of one NRI connection: the trunk socket, the runtime's
 * calls served one at a time as they come (connection 1), our own calls
 * to the runtime (connection 2: RegisterPlugin, UpdateContainers) sent
 * without waiting, their responses matched by stream id when they come.
 *
 * One thread, no locks: a call of ours is never sent from within a
 * handler, so the runtime, which may hold its own locks while it waits
 * for our reply, is never kept waiting on a call of ours.
 */
#ifndef CPUMGR_NRI_CONN_H
#define CPUMGR_NRI_CONN_H

#include <stdbool.h>
#include <stdio.h>

#include "nri_rpc.h"
#include "nri_wire.h"

#define NRI_PENDING_MAX	64

struct nri_reply {
	int code;			/* NRI_RPC_OK or a gRPC code */
	char message[1024];		/* the error's text */
	struct strbuf payload;		/* the packed response message */
};

struct nri_conn;

struct nri_handler {
	/* one call of the runtime; fills the reply; <0: drop the connection */
	int (*call)(void *ctx, struct nri_conn *c,
		    const struct nri_request *req, struct nri_reply *reply);
	/* the runtime's response to one of our calls (may be NULL) */
	void (*response)(void *ctx, struct nri_conn *c, const char *method,
			 const struct nri_response *rsp);
	/*
	 * Called every tick_ms (0: never) whether the runtime says anything
	 * or not, between its messages (may be NULL); <0: drop the connection
	 */
	int (*tick)(void *ctx, struct nri_conn *c);
	unsigned int tick_ms;
	void *ctx;
};

struct nri_conn {
	int fd;
	struct nri_wire wire;
	struct strbuf out;		/* framed, not yet written */
	uint32_t next_stream;
	struct {
		uint32_t stream;
		char method[32];
	} pending[NRI_PENDING_MAX];
	unsigned int nr_pending;
	bool registered;		/* RegisterPlugin answered OK */
	bool failed;			/* a call of ours was refused */
	FILE *log;			/* one line per message, or NULL */
};

void nri_conn_init(struct nri_conn *c, int fd, FILE *log);
/* Frees the buffers; the fd is the caller's. */
void nri_conn_free(struct nri_conn *c);

/* Call the runtime's method with msg; sent at once. */
int nri_conn_call(struct nri_conn *c, const char *method,
		  const ProtobufCMessage *msg, struct cm_error *err);

/*
 * Serve until the runtime closes the connection (0) or something fails
 * (-errno, err says what): read, reassemble, hand each call to h->call
 * and send its reply, hand each response to h->response.
 */
int nri_conn_serve(struct nri_conn *c, const struct nri_handler *h,
		   struct cm_error *err);

#endif
