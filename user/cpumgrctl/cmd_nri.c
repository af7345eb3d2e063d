// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl nri: an NRI plugin (containerd 1.7+, CRI-O 1.26+).  It
 * connects to the runtime's NRI socket, registers, and answers the
 * runtime's calls (ctl_nri.c) until the runtime goes away; then it
 * connects again, waiting 0.1 s doubling up to 5 s between attempts,
 * and the runtime's Synchronize brings the node's state in line with
 * the containers that exist (a restart of either side loses nothing).
 *
 * Launched by the runtime (a plugin in its plugin_path), the socket is
 * already connected: NRI_PLUGIN_SOCKET holds its fd, NRI_PLUGIN_NAME and
 * NRI_PLUGIN_IDX the name and index; the plugin then ends with the
 * connection.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "ctl_kubelet.h"
#include "ctl_node.h"
#include "ctl_nri.h"
#include "ctl_nri_gone.h"
#include "ctl_ready.h"
#include "ctl_sd.h"
#include "kubeletconfig.h"

#define NRI_SOCKET		"/var/run/nri/nri.sock"
#define NRI_NAME		"cpumgr"
#define NRI_INDEX		"10"
#define BACKOFF_MIN_MS		100
#define BACKOFF_MAX_MS		5000
#define SWEEP_MS		10000
/* the NRI whose protocol the plugin speaks (lib/nri/nri.proto) */
#define NRI_PROTOCOL		"v0.12.0"

struct nri_opts {
	const char *socket, *name, *index;
	int fd;				/* NRI_PLUGIN_SOCKET, else -1 */
	unsigned int sweep_ms;		/* --sweep-period, 0: none */
	struct ctl_nri p;
	struct ctl_nri_record rec;	/* for status --ready nri */
};

/* Where the plugin is, for status --ready nri (ctl_ready.h). */
static void record(struct nri_opts *o, const char *state)
{
	char plugin[64];

	snprintf(plugin, sizeof(plugin), "%s-%s", o->index, o->name);
	ctl_nri_record_set(&o->rec, state,
			   o->p.rt.mode == CTL_MODE_GUARD ? "guard" : "decide",
			   plugin, o->fd >= 0 ? "NRI_PLUGIN_SOCKET" : o->socket);
}

static int dial(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Register and serve one connection; 0 when the runtime closed it. */
static int session(struct nri_opts *o, int fd)
{
	Nri__Pkg__Api__V1alpha1__RegisterPluginRequest reg =
		NRI__PKG__API__V1ALPHA1__REGISTER_PLUGIN_REQUEST__INIT;
	const struct nri_handler h = {
		.call = ctl_nri_call, .response = ctl_nri_response,
		.tick = ctl_nri_tick, .tick_ms = o->sweep_ms,
		.ctx = &o->p,
	};
	struct cm_error err = { 0 };
	struct nri_conn c;
	int ret;

	nri_conn_init(&c, fd, o->p.log);
	reg.plugin_name = (char *)o->name;
	reg.plugin_idx = (char *)o->index;
	/* the protocol it speaks: per-event calls, validation */
	reg.nri_version = NRI_PROTOCOL;
	snprintf(o->p.self, sizeof(o->p.self), "%s-%s", o->index, o->name);
	ret = nri_conn_call(&c, "RegisterPlugin", &reg.base, &err);
	if (!ret) {
		fprintf(stderr, "cpumgrctl: nri: plugin %s-%s connected (mode %s)\n",
			o->index, o->name,
			o->p.rt.mode == CTL_MODE_GUARD ? "guard" : "decide");
		ctl_sd_notify("READY=1\nSTATUS=connected to the runtime");
		record(o, "registered");
		ret = nri_conn_serve(&c, &h, &err);
	}
	record(o, "connecting");
	if (ret)
		ctl_err("nri: %s", cm_error_msg(&err));
	else
		fprintf(stderr, "cpumgrctl: nri: the runtime closed the connection\n");
	cm_error_clear(&err);
	nri_conn_free(&c);
	ctl_nri_forget(&o->p);
	ctl_nri_sync_parts_free(&o->p);
	return ret;
}

static int run(struct nri_opts *o)
{
	unsigned int backoff = BACKOFF_MIN_MS;
	int last_errno = 0;

	if (o->fd >= 0)
		return session(o, o->fd) ? CPUMGRCTL_EXIT_FAIL :
		       CPUMGRCTL_EXIT_OK;
	for (;;) {
		int fd = dial(o->socket);

		if (fd < 0) {
			/* one line per new reason, not one per attempt */
			if (errno != last_errno)
				ctl_err("nri: %s: %s; retrying", o->socket,
					strerror(errno));
			last_errno = errno;
			sleep_ms(backoff);
			backoff = backoff * 2 > BACKOFF_MAX_MS ?
				  BACKOFF_MAX_MS : backoff * 2;
			continue;
		}
		last_errno = 0;
		backoff = BACKOFF_MIN_MS;
		session(o, fd);
		close(fd);
		ctl_sd_notify("STATUS=waiting for the runtime");
		sleep_ms(backoff);
	}
}

/*
 * One decider: decide is refused while the kubelet runs static (exit 2:
 * the unit does not restart it), follow is guard then and decide
 * otherwise, read once at start.
 */
static int one_decider(struct nri_opts *o, const char *mode,
		       const char *kubelet_config)
{
	struct cm_error err = { 0 };
	struct ctl_kubelet k;

	if (!strcmp(mode, "guard"))
		return 0;
	if (ctl_kubelet_read(&k, kubelet_config, o->p.rt.kubelet_state, &err)) {
		ctl_err("nri: cannot tell whether the kubelet decides: %s",
			cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	if (!strcmp(mode, "follow")) {
		o->p.rt.mode = k.is_static ? CTL_MODE_GUARD : CTL_MODE_DECIDE;
		fprintf(stderr, "cpumgrctl: nri: --mode follow: %s (%s)\n",
			k.is_static ? "guard" : "decide",
			k.found ? k.why : "no kubelet configuration or checkpoint");
		return 0;
	}
	if (!k.is_static)
		return 0;
	ctl_kubelet_refuse(&k, "--mode guard (or follow), with cpumgrctl init given the kubelet's own settings",
			   &err);
	ctl_err("nri: --mode decide: %s", cm_error_msg(&err));
	cm_error_clear(&err);
	return CPUMGRCTL_EXIT_USAGE;
}

/* NRI indexes are two digits ("00".."99"), as the runtime checks. */
static bool valid_index(const char *s)
{
	return strlen(s) == 2 && s[0] >= '0' && s[0] <= '9' &&
	       s[1] >= '0' && s[1] <= '9';
}

static int from_env(struct nri_opts *o)
{
	const char *fd = getenv("NRI_PLUGIN_SOCKET");
	const char *name = getenv("NRI_PLUGIN_NAME");
	const char *idx = getenv("NRI_PLUGIN_IDX");
	char *end;
	long v;

	if (name && *name)
		o->name = name;
	if (idx && *idx)
		o->index = idx;
	if (!fd || !*fd)
		return 0;
	v = strtol(fd, &end, 10);
	if (*end || v < 0 || v > 65535) {
		ctl_err("nri: NRI_PLUGIN_SOCKET=%s is not a file descriptor",
			fd);
		return -1;
	}
	o->fd = (int)v;
	return 0;
}

static int cmd_nri(const struct ctl_cmdline *cl)
{
	struct nri_opts o = {
		.socket = ctl_val(cl, "socket") ?: NRI_SOCKET,
		.name = NRI_NAME, .index = NRI_INDEX, .fd = -1,
		.p.rt.kubelet_state = ctl_val(cl, "kubelet-state") ?:
				      CTL_KUBELET_STATE,
		.p.dir = cl->state_dir,
		.p.log = ctl_flag(cl, "verbose") ? stderr : NULL,
	};
	const char *mode = ctl_val(cl, "mode") ?: "decide";
	const char *sweep = ctl_val(cl, "sweep-period");
	struct cm_error err = { 0 };
	int64_t ns = (int64_t)SWEEP_MS * 1000000;
	int ret;

	/* the runtime's environment, then the command line */
	if (from_env(&o))
		return CPUMGRCTL_EXIT_USAGE;
	o.name = ctl_val(cl, "name") ?: o.name;
	o.index = ctl_val(cl, "index") ?: o.index;
	if (sweep && (go_parse_duration(sweep, &ns, &err) || ns < 0 ||
		      ns / 1000000 > 24 * 3600 * 1000LL ||
		      (ns > 0 && ns < 1000000))) {
		ctl_err("--sweep-period %s: %s", sweep, cm_error_msg(&err)[0] ?
			cm_error_msg(&err) : "must be 0 (off) or 1ms to 24h");
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_USAGE;
	}
	o.sweep_ms = (unsigned int)(ns / 1000000);
	/* a container's stop may come after its cgroup went: wait a period */
	o.p.gone_grace_ms = ctl_nri_gone_grace_ms(o.sweep_ms);
	/* tests: a call held past the runtime's timeout (doc/development.md) */
	if (ctl_nri_stall_setup(&o.p, getenv("CPUMGR_NRI_STALL")))
		return CPUMGRCTL_EXIT_USAGE;
	/* the table has checked the mode's name; follow is resolved below */
	ctl_runtime_mode(mode, &o.p.rt.mode);
	if (!*o.name || !valid_index(o.index)) {
		ctl_err("plugin name '%s', index '%s': the name may not be empty, the index is two digits",
			o.name, o.index);
		return CPUMGRCTL_EXIT_USAGE;
	}
	ret = one_decider(&o, mode, ctl_val(cl, "kubelet-config") ?:
				    CTL_KUBELET_CONFIG);
	if (ret)
		return ret;
	/* a runtime that goes away is a closed connection, not a signal */
	signal(SIGPIPE, SIG_IGN);
	ctl_nri_record_open(&o.rec, ctl_state_dir(o.p.dir));
	record(&o, "connecting");
	return run(&o);
}

CPUMGRCTL_COMMAND(nri) = {
	.name = "nri",
	.help = "an NRI plugin: containerd's or CRI-O's containers get their CPUs before they are created (decide mode reads the prefer-shared-cpus.cpumgr.io annotations, as admit does)",
	.opts = (const struct ctl_opt[]){
		{ "socket", 0, "PATH", CTL_FILE, NULL, "the runtime's NRI socket (default " NRI_SOCKET ")" },
		{ "mode", 'm', "MODE", CTL_WORD, "decide guard follow", "decide: the static policy allocates (refused while the kubelet runs static); guard: the kubelet's checkpoint decided; follow: guard while the kubelet runs static, else decide" },
		CTL_OPT_KUBELET_STATE,
		CTL_OPT_KUBELET_CONFIG,
		{ "name", 0, "NAME", CTL_ANY, NULL, "the plugin's name (default " NRI_NAME ", or $NRI_PLUGIN_NAME)" },
		{ "index", 0, "NN", CTL_ANY, NULL, "the plugin's two-digit index (default " NRI_INDEX ", or $NRI_PLUGIN_IDX)" },
		{ "sweep-period", 0, "DURATION", CTL_ANY, NULL, "release containers whose cgroup is gone this often, whatever the runtime says, a Go duration (default 10s, 0: off): a plugin the runtime launches gets no Synchronize; a container not known to have stopped is released once a sweep saw its cgroup gone a period before (1s to 10s, 10s when off), as the runtime tells of a stop after the cgroup went" },
		{ "verbose", 'v', NULL, CTL_ANY, NULL, "log every call on stderr" },
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl nri --mode decide" },
	.run = cmd_nri,
};
