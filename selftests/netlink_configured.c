// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIGURE with a listener on the events group, and its CONFIGURED
 * notification (the state, as GET_STATE).  A file and a plan line of its
 * own: while the kernel deadlocks here (see configured_event), it takes
 * the module, and its guest, down with it, and nothing else should go
 * down too.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sftest_nl.h"

FIXTURE(cfg) {
	struct cpumgr_nl *nl;
	struct sft_cpus c;
};

FIXTURE_SETUP(cfg)
{
	self->nl = sft_nl_open();
	ASSERT_NE(NULL, self->nl);
	ASSERT_TRUE(sft_cpus_read(&self->c, 2));
}

FIXTURE_TEARDOWN(cfg)
{
	EXPECT_EQ(0, sft_reset_close(self->nl));
}

/* The child of configured_event: CONFIGURE while subscribed. */
static int configure_observed(const char *reserved)
{
	struct cpumgr_config cfg = {
		.set = CPUMGR_CFG_POLICY | CPUMGR_CFG_RESERVED,
		.policy = CPUMGR_POLICY_STATIC,
		.reserved_cpus = reserved,
	};
	struct cpumgr_nl *nl = sft_nl_open();
	struct cpumgr_event ev;
	uint64_t gen;
	int bad = 0;

	if (!nl || cpumgr_nl_subscribe(nl) ||
	    cpumgr_nl_configure(nl, &cfg, NULL, &gen))
		return 10;
	if (cpumgr_nl_recv_event(nl, &ev, 1000))
		return 11;
	bad |= ev.type != CPUMGR_CMD_CONFIGURED_NTF;
	bad |= ev.generation != gen;
	bad |= ev.table.policy != CPUMGR_POLICY_STATIC;
	bad |= !ev.table.reserved_cpus || strcmp(ev.table.reserved_cpus,
						 reserved);
	cpumgr_event_free(&ev);
	cpumgr_nl_close(nl);
	return bad ? 12 : 0;
}

/*
 * In a child with a deadline: KERNEL BUG seen on 1c06d5f ("kmod:
 * exclusivity enforced..."): the CONFIGURE never returns,
 * cpumgr_table_configure() holding the table mutex calls
 * cpumgr_notify_configured() -> cpumgr_state_msg() ->
 * cpumgr_table_root_path(), which takes it again.  The module is then
 * stuck for good, rmmod included, and the guest runs into its timeout.
 */
TEST_F_TIMEOUT(cfg, configured_event, 120)
{
	int status = -1, waited;
	pid_t pid;

	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(configure_observed(self->c.name[0]));
	for (waited = 0; waited < 600; waited++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		usleep(100 * 1000);
	}
	if (waited == 600) {
		/* Leave the module alone: any request would hang too. */
		cpumgr_nl_close(self->nl);
		self->nl = NULL;
	}
	ASSERT_GT(600, waited)
		TH_LOG("KERNEL BUG: CONFIGURE with an events listener did not return in 60 s (table mutex taken twice through cpumgr_notify_configured?)");
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
