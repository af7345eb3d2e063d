// SPDX-License-Identifier: GPL-2.0
/*
 * cpumgrctl daemon: keep the node in line as things happen: top up
 * assignments that lost CPUs to a release-mode offline, give the shared
 * set back to containers when a CPU comes online, fix what an audited
 * violation broke, reconcile after every change and every period.
 * When its stdout or stderr is the journal (JOURNAL_STREAM), every line
 * starts with its sd-daemon severity: <3> error, <4> warning, <6> info.
 * Under systemd (NOTIFY_SOCKET) it says READY=1 once the first round is
 * done, WATCHDOG=1 at least every half WATCHDOG_USEC, STOPPING=1 on exit.
 * Each round also adds and pins the containers whose NRI CreateContainer
 * did not finish in the runtime's time (ctl_nri_pending.h): the runtime
 * created them without their CPUs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cmd.h"
#include "ctl_node.h"
#include "ctl_nri_pending.h"
#include "ctl_sd.h"
#include "kubeletconfig.h"
#include "node.h"

/*
 * Is f the journal?  systemd sets JOURNAL_STREAM to "DEV:INODE" of the
 * stream it connected stdout/stderr to.
 */
static bool is_journal(FILE *f)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!js || sscanf(js, "%llu:%llu", &dev, &ino) != 2 ||
	    fstat(fileno(f), &st))
		return false;
	return (unsigned long long)st.st_dev == dev &&
	       (unsigned long long)st.st_ino == ino;
}

static int cmd_daemon(const struct ctl_cmdline *cl)
{
	struct node_daemon_opts o = {
		.log = stdout, .pods = ctl_val(cl, "pods"),
		.once = ctl_flag(cl, "once"),
		/* containers left unpinned by an NRI call past its timeout */
		.round_hook = ctl_nri_pending_round,
	};
	const char *period = ctl_val(cl, "reconcile-period");
	struct cm_error err = { 0 };
	int64_t ns = 0;
	bool journal;
	struct node n;
	int ret;

	if (period && (go_parse_duration(period, &ns, &err) || ns <= 0)) {
		ctl_err("--reconcile-period: %s", cm_error_msg(&err)[0] ?
			cm_error_msg(&err) : "must be positive");
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_USAGE;
	}
	/* the journal takes sd-daemon severity prefixes ("<3>...") */
	journal = is_journal(stdout) || is_journal(stderr);
	node_log_severity(journal);
	/* the first open's repairs too: a module reloaded configured again */
	node_log_stamp(true);
	ctl_err_severity = journal;
	o.dir = ctl_state_dir(cl->state_dir);
	/* fail now, not in the first round: no config, no module */
	ret = ctl_node_start(cl, NODE_NEED_CONFIG, &n);
	if (ret)
		return ret;
	o.period_ms = period ? ns / 1000000 : n.cfg.reconcile_ns / 1000000;
	node_close(&n);
	ctl_sd_setup(&o);
	if (node_daemon(&o, &err)) {
		ctl_err("%s", cm_error_msg(&err));
		cm_error_clear(&err);
		return CPUMGRCTL_EXIT_FAIL;
	}
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(daemon) = {
	.name = "daemon",
	.help = "follow the kernel's events: top up, re-apply, fix violations, reconcile",
	.opts = (const struct ctl_opt[]){
		{ "reconcile-period", 0, "DURATION", CTL_ANY, NULL, "reconcile this often, a Go duration (default: init's --cpu-manager-reconcile-period, 10s)" },
		{ "pods", 0, "FILE", CTL_FILE, NULL, "the node's active pods (a PodList): the others are removed at each round" },
		{ "once", 0, NULL, CTL_ANY, NULL, "one round, then exit" },
		CTL_OPT_STATE_DIR,
		{ NULL }
	},
	.examples = { "cpumgrctl daemon --reconcile-period 30s" },
	.run = cmd_daemon,
};
