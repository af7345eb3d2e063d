/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stand-in NRI runtime for the tests, written from the protocol of NRI
 * 0.12 (no runtime Debian ships speaks it: containerd 2.1 has NRI
 * 0.8.0): it runs a plugin process, either launched on one end of a
 * socketpair (NRI_PLUGIN_SOCKET, as containerd launches the plugins of
 * its plugin_path) or dialing a socket it listens on (a plugin started
 * by systemd, which connects again when the runtime closes it), answers
 * its RegisterPlugin and UpdateContainers, and calls it with a deadline:
 * a call not answered in time is the runtime's timeout, after which NRI
 * closes the plugin's connection and goes on without it.
 */
#ifndef CPUMGR_TESTS_NRI_RUNTIME_H
#define CPUMGR_TESTS_NRI_RUNTIME_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nri.pb-c.h"
#include "nri_rpc.h"
#include "nri_wire.h"
#include "ttrpc.pb-c.h"

struct nri_rt {
	int fd;			/* the plugin's connection, -1 none */
	int listen_fd;		/* the socket the plugin dials, -1 launched */
	char sock[108];
	pid_t plugin;
	struct nri_wire w;
	uint32_t stream;	/* ours: 1, 3, 5, ... */
	char plugin_nri[64];	/* RegisterPlugin's NRI_version */
	unsigned long updates;	/* ContainerUpdates the plugin sent unasked */
};

static inline long long nri_rt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int nri_rt_send(struct nri_rt *rt, uint32_t conn,
			      uint32_t stream, uint8_t type,
			      const struct strbuf *payload)
{
	struct strbuf out = STRBUF_INIT;
	struct cm_error err = { 0 };
	struct nri_msg m = {
		.conn = conn, .stream = stream, .type = type,
		.payload = (const uint8_t *)payload->buf, .len = payload->len,
	};
	size_t off = 0;
	int ret = nri_wire_put(&out, &m, &err);

	cm_error_clear(&err);
	while (!ret && off < out.len) {
		ssize_t n = write(rt->fd, out.buf + off, out.len - off);

		if (n <= 0)
			ret = -EPIPE;
		else
			off += (size_t)n;
	}
	strbuf_release(&out);
	return ret;
}

/* The plugin's own call (RegisterPlugin, UpdateContainers): answered OK. */
static inline int nri_rt_answer(struct nri_rt *rt, const struct nri_msg *m)
{
	Nri__Pkg__Api__V1alpha1__RegisterPluginRequest *reg;
	Nri__Pkg__Api__V1alpha1__UpdateContainersRequest *u;
	struct strbuf rsp = STRBUF_INIT;
	struct cm_error err = { 0 };
	struct nri_request req;
	int ret;

	if (nri_rpc_unpack_request(m->payload, m->len, &req, &err))
		return cm_error_clear(&err), -EPROTO;
	if (!strcmp(req.method, "RegisterPlugin")) {
		reg = nri__pkg__api__v1alpha1__register_plugin_request__unpack(
			NULL, req.payload.len, req.payload.data);
		if (reg)
			snprintf(rt->plugin_nri, sizeof(rt->plugin_nri), "%s",
				 reg->nri_version);
		if (reg)
			nri__pkg__api__v1alpha1__register_plugin_request__free_unpacked(reg, NULL);
	} else if (!strcmp(req.method, "UpdateContainers")) {
		u = nri__pkg__api__v1alpha1__update_containers_request__unpack(
			NULL, req.payload.len, req.payload.data);
		if (u)
			rt->updates += u->n_update;
		if (u)
			nri__pkg__api__v1alpha1__update_containers_request__free_unpacked(u, NULL);
	}
	ret = nri_rpc_pack_response(&rsp, NRI_RPC_OK, NULL, "", 0, &err);
	if (!ret)
		ret = nri_rt_send(rt, NRI_CONN_RUNTIME, m->stream,
				  NRI_MSG_RESPONSE, &rsp);
	cm_error_clear(&err);
	nri_rpc_request_free(&req);
	strbuf_release(&rsp);
	return ret;
}

/*
 * Read until a message answers stream (0: until the plugin's
 * RegisterPlugin is answered), answering the plugin's calls, for at most
 * timeout_ms (< 0: no limit).  0 and *r (when stream), -ETIMEDOUT, or
 * -EPIPE when the plugin closed the connection.
 */
static inline int nri_rt_wait(struct nri_rt *rt, uint32_t stream,
			      int timeout_ms, struct nri_response *r)
{
	long long end = nri_rt_now_ms() + timeout_ms;
	struct cm_error err = { 0 };
	struct nri_msg m;
	char buf[65536];
	ssize_t n;
	int ret;

	for (;;) {
		while ((ret = nri_wire_next(&rt->w, &m, &err)) == 1) {
			if (m.conn == NRI_CONN_RUNTIME &&
			    m.type == NRI_MSG_REQUEST) {
				if (nri_rt_answer(rt, &m))
					return -EPIPE;
				if (!stream)
					return 0;
				continue;
			}
			if (m.conn != NRI_CONN_PLUGIN || m.stream != stream ||
			    !r)
				continue;
			ret = nri_rpc_unpack_response(m.payload, m.len, r, &err);
			cm_error_clear(&err);
			return ret ? -EPROTO : 0;
		}
		if (ret < 0)
			return cm_error_clear(&err), -EPROTO;
		if (timeout_ms >= 0) {
			struct pollfd pfd = { .fd = rt->fd, .events = POLLIN };
			long long left = end - nri_rt_now_ms();

			if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
				return -ETIMEDOUT;
		}
		n = read(rt->fd, buf, sizeof(buf));
		if (n <= 0 || nri_wire_feed(&rt->w, buf, (size_t)n, &err))
			return cm_error_clear(&err), -EPIPE;
	}
}

/* Close the plugin's connection, as NRI does after a timeout. */
static inline void nri_rt_hangup(struct nri_rt *rt)
{
	if (rt->fd >= 0)
		close(rt->fd);
	rt->fd = -1;
	nri_wire_free(&rt->w);
	nri_wire_init(&rt->w);
	rt->stream = 1;
}

/*
 * A connection from the plugin (socket mode: accepted within
 * timeout_ms) and its RegisterPlugin, answered: 0, or -errno.
 */
static inline int nri_rt_accept(struct nri_rt *rt, int timeout_ms)
{
	if (rt->listen_fd >= 0) {
		struct pollfd pfd = { .fd = rt->listen_fd, .events = POLLIN };

		nri_rt_hangup(rt);
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return -ETIMEDOUT;
		rt->fd = accept4(rt->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (rt->fd < 0)
			return -errno;
	}
	return nri_rt_wait(rt, 0, timeout_ms, NULL);
}

/*
 * Start the plugin ctl (cpumgrctl) with args after "nri" (NULL-ended),
 * its stderr into log: launched, or dialing a socket in dir.
 */
static inline int nri_rt_start(struct nri_rt *rt, const char *ctl,
			       const char *dir, const char *log,
			       bool launched, const char *const *args)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sv[2] = { -1, -1 };
	const char *argv[16];
	int n = 0;

	memset(rt, 0, sizeof(*rt));
	rt->fd = rt->listen_fd = -1;
	rt->stream = 1;
	nri_wire_init(&rt->w);
	if (launched) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
			return -errno;
	} else {
		if (snprintf(rt->sock, sizeof(rt->sock), "%s/nri.sock", dir) >=
		    (int)sizeof(rt->sock))
			return -ENAMETOOLONG;
		strcpy(sa.sun_path, rt->sock);
		rt->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (rt->listen_fd < 0 ||
		    bind(rt->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) ||
		    listen(rt->listen_fd, 4))
			return -errno;
	}
	argv[n++] = ctl;
	argv[n++] = "nri";
	if (!launched) {
		argv[n++] = "--socket";
		argv[n++] = rt->sock;
	}
	while (args && *args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	rt->plugin = fork();
	if (rt->plugin < 0)
		return -errno;
	if (!rt->plugin) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		char num[16];

		if (fd >= 0)
			dup2(fd, 2);
		if (launched) {
			/* without CLOEXEC: the plugin's */
			snprintf(num, sizeof(num), "%d", dup(sv[1]));
			setenv("NRI_PLUGIN_SOCKET", num, 1);
			setenv("NRI_PLUGIN_NAME", "cpumgr", 1);
			setenv("NRI_PLUGIN_IDX", "10", 1);
		}
		execv(ctl, (char *const *)argv);
		_exit(127);
	}
	if (launched) {
		close(sv[1]);
		rt->fd = sv[0];
	}
	return 0;
}

/*
 * Call the plugin's method with msg and wait for its answer at most
 * timeout_ms (what the runtime tells the plugin in the ttrpc request's
 * timeout_nano too): 0 and *r, -ETIMEDOUT (then, as NRI does, the
 * connection is closed), -EPIPE.
 */
static inline int nri_rt_call(struct nri_rt *rt, const char *method,
			      const ProtobufCMessage *msg, int timeout_ms,
			      struct nri_response *r)
{
	Ttrpc__Request req = TTRPC__REQUEST__INIT;
	struct strbuf payload = STRBUF_INIT, out = STRBUF_INIT;
	struct cm_error err = { 0 };
	uint32_t stream = rt->stream;
	int ret;

	rt->stream += 2;
	ret = nri_rpc_pack(&payload, msg, &err);
	req.service = NRI_SERVICE_PLUGIN;
	req.method = (char *)method;
	req.payload.data = (uint8_t *)payload.buf;
	req.payload.len = payload.len;
	req.timeout_nano = timeout_ms > 0 ? (int64_t)timeout_ms * 1000000 : 0;
	if (!ret)
		ret = nri_rpc_pack(&out, &req.base, &err);
	if (!ret)
		ret = nri_rt_send(rt, NRI_CONN_PLUGIN, stream, NRI_MSG_REQUEST,
				  &out);
	strbuf_release(&payload);
	strbuf_release(&out);
	cm_error_clear(&err);
	if (!ret)
		ret = nri_rt_wait(rt, stream, timeout_ms, r);
	if (ret == -ETIMEDOUT)
		nri_rt_hangup(rt);
	return ret;
}

static inline void nri_rt_stop(struct nri_rt *rt)
{
	int status;

	nri_rt_hangup(rt);
	nri_wire_free(&rt->w);
	if (rt->listen_fd >= 0) {
		close(rt->listen_fd);
		unlink(rt->sock);
	}
	if (rt->plugin > 0) {
		kill(rt->plugin, SIGTERM);
		waitpid(rt->plugin, &status, 0);
	}
	rt->plugin = 0;
}

#endif
