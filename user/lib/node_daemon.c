// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon: the kernel's events drive it, a timer backs them up.  Each
 * round takes the state directory's lock only while it acts (the CLI
 * stays usable), syncs with the kernel, tops up degraded assignments,
 * fixes what the audit finds after a violation, and reconciles.  A
 * signal ends it between rounds, so the checkpoint it leaves is whole.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "node.h"
#include "node_daemon.h"
#include "node_internal.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* An offender outside the controller's containers: narrow its cpuset. */
static int fix_offender(struct node *n, const struct node_offender *o,
			struct cm_error *err)
{
	struct cpuset eff, want;
	bool changed;
	char *text;
	int ret;

	ret = cg_get_effective_cpus(&n->cg, o->name, &eff, err);
	if (ret)
		return ret;
	cpuset_andnot(&want, &eff, &o->cpus);
	if (cpuset_empty(&want))
		node_shared_pool(n, &want);
	ret = node_set_cpuset(n, o->name, &want, &changed, err);
	if (ret)
		return ret;
	text = cpuset_to_str(&want);
	node_log_sev(n, NODE_LOG_WARNING,
		     "audit: %s held CPUs of %s: cpuset.cpus %s", o->name,
		     o->owner, text ? text : "?");
	free(text);
	return 0;
}

static int audit_fix(struct node *n, struct cm_error *err)
{
	struct node_audit a;
	int ret;

	/* the controller's own containers first: reconcile knows them */
	ret = node_reconcile(n, NULL, err);
	if (ret < 0)
		return ret;
	ret = node_audit(n, &a, err);
	if (ret)
		return ret;
	for (unsigned int i = 0; i < a.nr && !ret; i++)
		ret = fix_offender(n, &a.v[i], err);
	node_audit_free(&a);
	return ret;
}

/* One round under the lock. */
static int round_once(const struct node_daemon_opts *o, unsigned int what,
		      struct cm_error *err)
{
	struct pod_list active = { 0 };
	struct node n;
	int ret;

	if (o->pods && pod_list_load(o->pods, &active, err))
		return -EINVAL;
	ret = node_open(&n, o->dir, NODE_NEED_CONFIG, err);
	if (ret) {
		pod_list_free(&active);
		return ret;
	}
	n.log = o->log;
	n.log_time = true;
	if (what & DAEMON_TOPUP) {
		ret = node_topup(&n, err);
		if (ret > 0)
			what |= DAEMON_RECONCILE;
	}
	if (ret >= 0 && (what & DAEMON_AUDIT))
		ret = audit_fix(&n, err);
	if (ret >= 0)
		ret = node_reconcile(&n, o->pods ? &active : NULL, err);
	/* whatever changed, the checkpoint follows the kernel */
	if (ret >= 0)
		ret = node_refresh(&n, err);
	if (!ret)
		ret = node_save_checkpoint(&n, 0, err);
	node_close(&n);
	pod_list_free(&active);
	return ret < 0 ? ret : 0;
}

/* What an event asks for. */
static unsigned int wants(const struct cpumgr_event *ev)
{
	switch (ev->type) {
	case CPUMGR_CMD_DEGRADED_NTF:
		return DAEMON_TOPUP | DAEMON_RECONCILE;
	case CPUMGR_CMD_VIOLATION_NTF:
		return ev->verdict == CPUMGR_VERDICT_AUDITED ?
		       DAEMON_AUDIT | DAEMON_RECONCILE : 0;
	case CPUMGR_CMD_OFFLINE_REFUSED_NTF:
		return 0;
	default:
		/* CPUs online or offline, another controller's change */
		return DAEMON_RECONCILE;
	}
}

static void log_event(const struct node_daemon_opts *o,
		      const struct cpumgr_event *ev)
{
	struct node quiet = { .log = o->log, .log_time = true };
	const char *name = cpumgr_event_name(ev->type);

	if (ev->type == CPUMGR_CMD_DEGRADED_NTF)
		node_log(&quiet, "event %s: cpu %u left %s/%s, now %s", name,
			 ev->cpu, ev->assignment.pod_uid,
			 ev->assignment.container,
			 ev->assignment.cpus ? ev->assignment.cpus : "");
	else if (ev->type == CPUMGR_CMD_CPU_ONLINE_NTF ||
		 ev->type == CPUMGR_CMD_CPU_OFFLINE_NTF)
		node_log(&quiet, "event %s: cpu %u", name, ev->cpu);
	else if (ev->type == CPUMGR_CMD_VIOLATION_NTF)
		node_log_sev(&quiet, NODE_LOG_WARNING,
			     "event violation: %s %s by %s[%u] on %s",
			     cpumgr_violation_name(ev->kind) ?: "?",
			     cpumgr_verdict_name(ev->verdict) ?: "?", ev->comm,
			     ev->pid, ev->assignment.cgroup_path ?: "?");
}

/* Drain the socket: what the events ask for, all of it on -ENOBUFS. */
static unsigned int drain(struct cpumgr_nl *ev_nl,
			  const struct node_daemon_opts *o)
{
	struct node quiet = { .log = o->log, .log_time = true };
	unsigned int what = 0;
	struct cpumgr_event ev;
	int ret;

	while (!(ret = cpumgr_nl_recv_event(ev_nl, &ev, 0))) {
		log_event(o, &ev);
		what |= wants(&ev);
		cpumgr_event_free(&ev);
	}
	if (ret == -ENOBUFS) {
		node_log_sev(&quiet, NODE_LOG_WARNING,
			     "events were lost: reading everything again");
		what |= DAEMON_ALL;
	}
	return what;
}

int node_daemon(const struct node_daemon_opts *o, struct cm_error *err)
{
	struct node quiet = { .log = o->log, .log_time = true };
	struct sigaction sa = { .sa_handler = on_signal };
	int64_t period = o->period_ms > 0 ? o->period_ms : 10000, next;
	struct cpumgr_nl *ev_nl;
	unsigned int what = DAEMON_ALL;
	char *msg = NULL;
	int ret = 0;

	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a signal must end the wait */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	ev_nl = cpumgr_nl_open(&ret, &msg);
	if (!ev_nl) {
		cm_errorf(err, "connect to cpumgr: %s%s%s", strerror(-ret),
			  msg ? ": " : "", msg ? msg : "");
		free(msg);
		return ret;
	}
	if (cpumgr_nl_subscribe(ev_nl)) {
		cm_errorf(err, "subscribe to events: %s",
			  cpumgr_nl_errmsg(ev_nl));
		cpumgr_nl_close(ev_nl);
		return -EIO;
	}
	node_log(&quiet, "daemon: started, state %s, reconcile every %lld ms",
		 o->dir, (long long)period);
	next = now_ms();
	while (!stop_signal) {
		struct pollfd pfd = {
			.fd = cpumgr_nl_event_fd(ev_nl), .events = POLLIN,
		};
		int64_t wait;

		if (now_ms() >= next) {
			what |= DAEMON_RECONCILE;
			next = now_ms() + period;
		}
		if (what) {
			ret = round_once(o, what, err);
			if (ret) {
				/* say so, and try again next round */
				node_log_sev(&quiet, NODE_LOG_ERR, "daemon: %s",
					     cm_error_msg(err));
				cm_error_clear(err);
			}
			what = 0;
			if (o->once)
				break;
			continue;
		}
		wait = next - now_ms();
		if (poll(&pfd, 1, wait < 0 ? 0 : (int)wait) > 0)
			what |= drain(ev_nl, o);
	}
	cpumgr_nl_close(ev_nl);
	if (stop_signal)
		node_log(&quiet, "daemon: signal %d, exiting", (int)stop_signal);
	return 0;
}
