// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon: the kernel's events drive it, a timer backs them up.  Each
 * round takes the state directory's lock only while it acts (the CLI
 * stays usable), syncs with the kernel, tops up degraded assignments,
 * fixes what the audit finds after a violation, and reconciles.  A
 * signal ends it between rounds, so the checkpoint it leaves is whole.
 *
 * Between rounds it watches the managed root and its QoS cgroups
 * (inotify): a cgroup created there gets the shared pool at once, before
 * a runtime can move a task in, and a round follows (node_narrow.c says
 * why).  A task move the kernel refused asks for a round too, so that a
 * runtime's retry finds the cgroup narrowed.
 *
 * The command may add to each round (round_hook): cpumgrctl pins there
 * the containers whose NRI plugin call did not finish in the runtime's
 * time, which the runtime created without their CPUs.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "clock.h"
#include "node.h"
#include "node_internal.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* An offender outside the controller's containers: narrow its cpuset. */
static int fix_offender(struct node *n, const struct node_offender *o,
			struct cm_error *err)
{
	struct cpuset eff, want;
	bool changed;
	char *text;
	int ret;

	ret = cgroupfs_get_effective_cpus(&n->cgroups.fs, o->name, &eff, err);
	if (ret)
		return ret;
	cpuset_andnot(&want, &eff, &o->cpus);
	if (cpuset_empty(&want))
		node_cgroup_shared_cpus(n, o->name, &want);
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

/*
 * Whether the kernel's guarantee is armed, said when that changes (and
 * at the first round when it is not): at error severity when it is off.
 */
static void log_armed(struct node *n, bool armed, const char *why)
{
	static int was = -1;
	int now = armed ? 1 : 0;

	if (now == was || (was < 0 && armed)) {
		was = now;
		return;
	}
	was = now;
	if (armed)
		node_log(n, "the kernel's guarantee is armed again");
	else
		node_log_sev(n, NODE_LOG_ERR,
			     "the kernel's guarantee is NOT ARMED: %s: cpusets and task moves go unchecked",
			     why ?: "?");
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
	log_armed(&n, n.kernel.table.armed, n.kernel.table.unarmed_reason);
	if (what & DAEMON_TOPUP) {
		ret = node_topup(&n, err);
		if (ret > 0)
			what |= DAEMON_RECONCILE;
	}
	if (ret >= 0 && (what & DAEMON_AUDIT))
		ret = audit_fix(&n, err);
	if (ret >= 0)
		ret = node_sweep_inits(&n, err);
	if (ret >= 0 && o->round_hook)
		ret = o->round_hook(&n, o->round_hook_arg, err);
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
		if (ev->verdict == CPUMGR_VERDICT_AUDITED)
			return DAEMON_AUDIT | DAEMON_RECONCILE;
		/* a runtime's task refused on a cgroup not yet narrowed */
		return ev->kind == CPUMGR_VIOLATION_ATTACH ||
		       ev->kind == CPUMGR_VIOLATION_FORK ? DAEMON_RECONCILE : 0;
	case CPUMGR_CMD_OFFLINE_REFUSED_NTF:
		return 0;
	case CPUMGR_CMD_ARMED_NTF:
		/* armed again: what went unchecked meanwhile is fixed */
		return ev->table.armed ? DAEMON_AUDIT | DAEMON_RECONCILE : 0;
	default:
		/* CPUs online or offline, another controller's change */
		return DAEMON_RECONCILE;
	}
}

static void log_event(const struct node_daemon_opts *o,
		      const struct cpumgr_event *ev)
{
	struct node quiet = { .log = o->log };
	const char *name = cpumgr_event_name(ev->type);

	if (ev->type == CPUMGR_CMD_DEGRADED_NTF)
		node_log(&quiet, "event %s: cpu %u left %s/%s, now %s", name,
			 ev->cpu, ev->assignment.pod_uid,
			 ev->assignment.container,
			 ev->assignment.cpus ? ev->assignment.cpus : "");
	else if (ev->type == CPUMGR_CMD_CPU_ONLINE_NTF ||
		 ev->type == CPUMGR_CMD_CPU_OFFLINE_NTF)
		node_log(&quiet, "event %s: cpu %u", name, ev->cpu);
	else if (ev->type == CPUMGR_CMD_ARMED_NTF)
		log_armed(&quiet, ev->table.armed, ev->table.unarmed_reason);
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
	struct node quiet = { .log = o->log };
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

/* The directories watched for new cgroups: the root, its QoS cgroups. */
#define WATCH_MAX 16

struct watch {
	int fd;
	struct cgroupfs cg;		/* the node's, units and all */
	unsigned int nr;
	int wd[WATCH_MAX];
	char dir[WATCH_MAX][PATH_MAX];
	bool qos_level[WATCH_MAX];	/* the root: QoS cgroups appear here */
	char system[PATH_MAX];		/* the system cgroup's name, "": none */
};

static void watch_add(struct watch *w, const char *dir, bool qos_level)
{
	int wd;

	if (w->nr == WATCH_MAX ||
	    strlen(dir) >= sizeof(w->dir[0]))
		return;
	wd = inotify_add_watch(w->fd, dir, IN_CREATE | IN_ONLYDIR);
	if (wd < 0)
		return;
	for (unsigned int i = 0; i < w->nr; i++)
		if (w->wd[i] == wd)
			return;
	w->wd[w->nr] = wd;
	strcpy(w->dir[w->nr], dir);
	w->qos_level[w->nr++] = qos_level;
}

/*
 * A new cgroup gets the shared pool as the module sees it now: no lock,
 * no netlink, nothing bound there yet.  The round after it corrects
 * what changed meanwhile.  A slice systemd made gets it as its
 * AllowedCPUs too, or systemd would empty it again as soon as a scope
 * starts below (cgroupfs_set_cpus()).
 */
static void narrow_new(const struct watch *w, const struct node_daemon_opts *o,
		       const char *dir)
{
	struct node quiet = { .log = o->log };
	const char *top = w->cg.root[CGROUPFS_CPUSET];
	struct cm_error err = { 0 };
	struct cpuset pool;
	char cpus[4096];
	size_t tl = strlen(top);
	ssize_t len;
	int fd, ret;

	if (strncmp(dir, top, tl) || dir[tl] != '/')
		return;
	/*
	 * The system partition's, made anew: not the pool.  The module
	 * takes the partition's CPUs there once the round that follows has
	 * named it (CONFIGURE) and given them.
	 */
	if (w->system[0] && !strcmp(dir + tl + 1, w->system)) {
		node_log(&quiet, "%s: new, the system partition's: told to the module next",
			 dir);
		return;
	}
	fd = open("/sys/kernel/cpumgr/shared_cpus", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = read(fd, cpus, sizeof(cpus) - 1);
	close(fd);
	if (len <= 0)
		return;
	cpus[len] = '\0';
	cpus[strcspn(cpus, "\n")] = '\0';
	ret = cpuset_parse(&pool, cpus, &err);
	if (!ret)
		ret = cgroupfs_set_cpus(&w->cg, dir + tl + 1, &pool, &err);
	if (ret) {
		/* gone again, or no cpuset controller there: nothing to say */
		if (ret != -ENOENT)
			node_log_sev(&quiet, NODE_LOG_WARNING, "%s: new: %s",
				     dir, cm_error_msg(&err));
		cm_error_clear(&err);
		return;
	}
	node_log(&quiet, "%s: new, cpuset.cpus %s", dir, cpus);
}

/* Read the watch: narrow what was created; whether anything was. */
static bool watch_read(struct watch *w, const struct node_daemon_opts *o)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	char path[PATH_MAX * 2];
	bool created = false;
	ssize_t len;

	while ((len = read(w->fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *e = (const void *)p;

			p += sizeof(*e) + e->len;
			if (!(e->mask & IN_ISDIR) || !e->len)
				continue;
			for (unsigned int i = 0; i < w->nr; i++) {
				if (w->wd[i] != e->wd)
					continue;
				snprintf(path, sizeof(path), "%s/%s", w->dir[i],
					 e->name);
				narrow_new(w, o, path);
				if (w->qos_level[i] && node_qos_cgroup(e->name))
					watch_add(w, path, false);
				created = true;
			}
		}
	}
	return created;
}

/* Watch the managed root and its QoS cgroups (cgroup2, a root set). */
static void watch_open(struct watch *w, const struct node_daemon_opts *o)
{
	char root[PATH_MAX], path[PATH_MAX * 2];
	struct cm_error err = { 0 };
	struct dirent *d;
	struct node n;
	DIR *dir;

	w->fd = -1;
	w->nr = 0;
	if (node_open(&n, o->dir, NODE_NEED_CONFIG | NODE_READ_ONLY, &err)) {
		cm_error_clear(&err);
		return;
	}
	strcpy(root, n.cfg.cgroup_root);
	if (n.cgroups.fs.version != 2 || !n.cgroups.root_name[0]) {
		node_close(&n);
		return;
	}
	if (node_system_cgroup(&n, w->system, sizeof(w->system)))
		w->system[0] = '\0';
	w->cg = n.cgroups.fs;
	node_close(&n);
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->fd < 0)
		return;
	watch_add(w, root, true);
	dir = opendir(root);
	while (dir && (d = readdir(dir))) {
		if (d->d_type == DT_DIR && node_qos_cgroup(d->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", root, d->d_name);
			watch_add(w, path, false);
		}
	}
	if (dir)
		closedir(dir);
}

static void notify(const struct node_daemon_opts *o, const char *state)
{
	if (o->notify)
		o->notify(state);
}

/* Tell the watchdog we live, when it is due; the time left until then. */
static int64_t watchdog(const struct node_daemon_opts *o, int64_t *due)
{
	int64_t now = clock_mono_ms();

	if (!o->notify || o->watchdog_ms <= 0)
		return INT64_MAX;
	if (now >= *due) {
		notify(o, "WATCHDOG=1");
		*due = now + o->watchdog_ms;
	}
	return *due - now;
}

int node_daemon(const struct node_daemon_opts *o, struct cm_error *err)
{
	struct node quiet = { .log = o->log };
	struct sigaction sa = { .sa_handler = on_signal };
	int64_t period = o->period_ms > 0 ? o->period_ms : 10000, next, wd_due;
	bool ready = false;
	struct cpumgr_nl *ev_nl;
	unsigned int what = DAEMON_ALL;
	struct watch w;
	char *msg = NULL;
	int ret = 0;

	node_log_stamp(true);
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
	watch_open(&w, o);
	node_log(&quiet, "daemon: started, state %s, reconcile every %lld ms%s",
		 o->dir, (long long)period,
		 w.nr ? ", watching the managed root for new cgroups" : "");
	next = clock_mono_ms();
	wd_due = next;
	while (!stop_signal) {
		struct pollfd pfd[2] = {
			{ .fd = cpumgr_nl_event_fd(ev_nl), .events = POLLIN },
			{ .fd = w.fd, .events = POLLIN },
		};
		int64_t wait, wd_left;

		wd_left = watchdog(o, &wd_due);
		if (clock_mono_ms() >= next) {
			what |= DAEMON_RECONCILE;
			next = clock_mono_ms() + period;
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
			if (!ready) {
				/* the first round is done, failed or not */
				notify(o, "READY=1");
				ready = true;
			}
			if (o->once)
				break;
			continue;
		}
		wait = next - clock_mono_ms();
		if (wait > wd_left)
			wait = wd_left;
		if (poll(pfd, w.fd < 0 ? 1 : 2, wait < 0 ? 0 : (int)wait) <= 0)
			continue;
		if (pfd[1].revents && watch_read(&w, o))
			what |= DAEMON_RECONCILE;
		if (pfd[0].revents)
			what |= drain(ev_nl, o);
	}
	notify(o, "STOPPING=1");
	if (w.fd >= 0)
		close(w.fd);
	cpumgr_nl_close(ev_nl);
	if (stop_signal)
		node_log(&quiet, "daemon: signal %d, exiting", (int)stop_signal);
	return 0;
}
