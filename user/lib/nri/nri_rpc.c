// SPDX-License-Identifier: GPL-2.0
/* ttrpc's Request and Response (see nri_rpc.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nri_rpc.h"
#include "ttrpc.pb-c.h"

int nri_rpc_pack(struct strbuf *out, const ProtobufCMessage *msg,
		 struct cm_error *err)
{
	size_t n = protobuf_c_message_get_packed_size(msg);
	char *buf = malloc(n + 1);

	if (!buf)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	strbuf_release(out);
	out->buf = buf;
	out->cap = n + 1;
	out->len = protobuf_c_message_pack(msg, (uint8_t *)buf);
	buf[out->len] = '\0';
	return 0;
}

int nri_rpc_pack_request(struct strbuf *out, const char *service,
			 const char *method, const ProtobufCMessage *msg,
			 struct cm_error *err)
{
	Ttrpc__Request req = TTRPC__REQUEST__INIT;
	struct strbuf payload = STRBUF_INIT;
	int ret = nri_rpc_pack(&payload, msg, err);

	if (ret)
		return ret;
	req.service = (char *)service;
	req.method = (char *)method;
	req.payload.data = (uint8_t *)payload.buf;
	req.payload.len = payload.len;
	ret = nri_rpc_pack(out, &req.base, err);
	strbuf_release(&payload);
	return ret;
}

int nri_rpc_pack_response(struct strbuf *out, int code, const char *message,
			  const void *payload, size_t len, struct cm_error *err)
{
	Ttrpc__Response rsp = TTRPC__RESPONSE__INIT;
	Ttrpc__Status status = TTRPC__STATUS__INIT;

	if (code != NRI_RPC_OK) {
		status.code = code;
		status.message = (char *)(message ? message : "");
		rsp.status = &status;
	} else {
		rsp.payload.data = (uint8_t *)payload;
		rsp.payload.len = len;
	}
	return nri_rpc_pack(out, &rsp.base, err);
}

int nri_rpc_unpack_request(const uint8_t *data, size_t len,
			   struct nri_request *r, struct cm_error *err)
{
	Ttrpc__Request *req = ttrpc__request__unpack(NULL, len, data);

	memset(r, 0, sizeof(*r));
	if (!req)
		return cm_errorf(err, "a ttrpc request that does not parse"),
		       -EPROTO;
	r->service = req->service;
	r->method = req->method;
	r->payload = req->payload;
	r->timeout_nano = req->timeout_nano;
	r->msg = req;
	return 0;
}

void nri_rpc_request_free(struct nri_request *r)
{
	if (r->msg)
		ttrpc__request__free_unpacked(r->msg, NULL);
	memset(r, 0, sizeof(*r));
}

int nri_rpc_unpack_response(const uint8_t *data, size_t len,
			    struct nri_response *r, struct cm_error *err)
{
	Ttrpc__Response *rsp = ttrpc__response__unpack(NULL, len, data);

	memset(r, 0, sizeof(*r));
	if (!rsp)
		return cm_errorf(err, "a ttrpc response that does not parse"),
		       -EPROTO;
	r->code = rsp->status ? rsp->status->code : NRI_RPC_OK;
	r->message = strdup(rsp->status ? rsp->status->message : "");
	r->payload = rsp->payload;
	r->msg = rsp;
	if (!r->message) {
		nri_rpc_response_free(r);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	return 0;
}

void nri_rpc_response_free(struct nri_response *r)
{
	if (r->msg)
		ttrpc__response__free_unpacked(r->msg, NULL);
	free(r->message);
	memset(r, 0, sizeof(*r));
}
