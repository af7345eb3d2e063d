// SPDX-License-Identifier: GPL-2.0
/*
 * What the runtime sends the NRI plugin: the trunk's bytes, cut into
 * reads where the input's first byte says, through the frame and
 * message reassembly (nri_wire), ttrpc's Request and Response, and the
 * CreateContainer and Synchronize messages read as containers
 * (nri_spec), a Configure's NRI version (nri_version).  No crash, no message over its limit, every container
 * either refused with a message or read with its strings in bounds.
 */
#include "nri.pb-c.h"
#include "fuzz_util.h"
#include "nri_rpc.h"
#include "nri_spec.h"
#include "nri_version.h"
#include "nri_wire.h"

static void container(const NriPod *pod, const NriContainer *ctr)
{
	struct cm_error err = { 0 };
	struct oci_container c;

	if (nri_spec_container(pod, ctr, &c, &err)) {
		fuzz_assert(err.msg);
		cm_error_clear(&err);
		return;
	}
	fuzz_assert(!err.msg);
	fuzz_assert(strlen(c.id) < sizeof(c.id));
	fuzz_assert(c.kind == OCI_UNMANAGED || c.pod_uid[0]);
	if (pod && !nri_spec_sandbox(pod, &c, &err))
		fuzz_assert(c.kind == OCI_SANDBOX);
	cm_error_clear(&err);
}

static void request(const struct nri_msg *m)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerRequest *cr;
	Nri__Pkg__Api__V1alpha1__SynchronizeRequest *sr;
	Nri__Pkg__Api__V1alpha1__ConfigureRequest *cfg;
	struct cm_error err = { 0 };
	struct nri_version v;
	struct nri_request req;

	if (nri_rpc_unpack_request(m->payload, m->len, &req, &err)) {
		cm_error_clear(&err);
		return;
	}
	cr = nri__pkg__api__v1alpha1__create_container_request__unpack(
		NULL, req.payload.len, req.payload.data);
	if (cr && cr->container)
		container(cr->pod, cr->container);
	if (cr)
		nri__pkg__api__v1alpha1__create_container_request__free_unpacked(cr, NULL);
	sr = nri__pkg__api__v1alpha1__synchronize_request__unpack(
		NULL, req.payload.len, req.payload.data);
	for (size_t i = 0; sr && i < sr->n_containers; i++)
		container(i < sr->n_pods ? sr->pods[i] : NULL,
			  sr->containers[i]);
	if (sr)
		nri__pkg__api__v1alpha1__synchronize_request__free_unpacked(sr, NULL);
	/* the runtime's NRI, said or from its name and version */
	cfg = nri__pkg__api__v1alpha1__configure_request__unpack(
		NULL, req.payload.len, req.payload.data);
	if (cfg) {
		nri_version_of_runtime(cfg->nri_version, cfg->runtime_name,
				       cfg->runtime_version, &v);
		fuzz_assert(!v.known || (v.major >= 0 && v.minor >= 0));
		nri__pkg__api__v1alpha1__configure_request__free_unpacked(cfg, NULL);
	}
	nri_rpc_request_free(&req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cm_error err = { 0 };
	struct nri_response rsp;
	struct nri_wire w;
	size_t chunk, at = 1;
	struct nri_msg m;
	int ret = 0;

	if (!size)
		return 0;
	chunk = data[0] ? data[0] : 1;
	nri_wire_init(&w);
	while (at < size && !ret) {
		size_t n = size - at < chunk ? size - at : chunk;

		ret = nri_wire_feed(&w, data + at, n, &err);
		at += n;
		while (!ret && (ret = nri_wire_next(&w, &m, &err)) > 0) {
			ret = 0;
			fuzz_assert(m.len <= NRI_MSG_MAX);
			fuzz_assert(m.conn == NRI_CONN_PLUGIN ||
				    m.conn == NRI_CONN_RUNTIME);
			if (m.type == NRI_MSG_REQUEST) {
				request(&m);
			} else if (!nri_rpc_unpack_response(m.payload, m.len,
							    &rsp, &err)) {
				fuzz_assert(rsp.message);
				nri_rpc_response_free(&rsp);
			}
			cm_error_clear(&err);
		}
	}
	if (ret)
		fuzz_assert(err.msg);
	cm_error_clear(&err);
	nri_wire_free(&w);
	return 0;
}
