// SPDX-License-Identifier: GPL-2.0
/*
 * The family exists only while the hooks are armed: while the module
 * loads, the family may not be found before every probe is registered,
 * and while it unloads, not after any probe is gone.  Otherwise a
 * request (ASSIGN, RESTORE) is accepted with nothing enforcing it, or
 * runs while the module is going away.
 *
 * A tight loop watches the family and the kprobes list while a child
 * loads or unloads the module, CPUMGR_ORDER_CYCLES times (default 20).
 * Leaves the module loaded, as the runner wants it.  And no family lookup
 * loads the module (no alias for one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "kselftest_harness.h"
#include "sftest_util.h"
#include <linux/cpumgr.h>

#define KPROBES "/sys/kernel/debug/kprobes/list"

/* Lines of the kprobes list: the module's probes (nothing else probes). */
static int probes(void)
{
	FILE *f = fopen(KPROBES, "r");
	int n = 0, c;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static bool family_up(struct nl_sock *sk)
{
	return genl_ctrl_resolve(sk, CPUMGR_GENL_NAME) >= 0;
}

static pid_t run(const char *cmd)
{
	pid_t pid = fork();

	if (!pid) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* The child's exit status; -2 while it runs (when !wait). */
static int reap(pid_t pid, bool wait)
{
	int status;
	pid_t got = waitpid(pid, &status, wait ? 0 : WNOHANG);

	if (!got)
		return -2;
	if (got != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(family_only_while_armed)
{
	const char *env = getenv("CPUMGR_ORDER_CYCLES");
	int cycles = env ? atoi(env) : 20, armed, early = 0, late = 0, ret;
	const char *module = getenv("CPUMGR_MODULE");
	struct nl_sock *sk = nl_socket_alloc();
	char cmd[512];
	pid_t pid;

	ASSERT_NE(NULL, module);
	ASSERT_NE(NULL, sk);
	ASSERT_EQ(0, genl_connect(sk));
	ASSERT_TRUE(family_up(sk));
	armed = probes();
	if (armed < 0)
		SKIP(return, "no %s", KPROBES);
	ASSERT_LT(0, armed);

	for (int i = 0; i < cycles; i++) {
		/* Unload: probes first (read), then the family (resolved). */
		pid = run("rmmod cpumgr");
		ret = -2;
		while (ret == -2) {
			int n = probes();

			if (!family_up(sk))
				break;
			if (n != armed) {
				late++;
				break;
			}
			ret = reap(pid, false);
		}
		if (ret == -2)
			ret = reap(pid, true);
		ASSERT_EQ(0, ret);
		ASSERT_EQ(0, probes());

		/* Load: the family first, then the probes. */
		snprintf(cmd, sizeof(cmd), "insmod %s", module);
		pid = run(cmd);
		ret = -2;
		while (ret == -2) {
			if (family_up(sk)) {
				if (probes() != armed)
					early++;
				break;
			}
			ret = reap(pid, false);
		}
		if (ret == -2)
			ret = reap(pid, true);
		ASSERT_EQ(0, ret);
	}
	TH_LOG("%d cycles: family before the probes %d times, after them %d",
	       cycles, early, late);
	EXPECT_EQ(0, early);
	EXPECT_EQ(0, late);
	nl_socket_free(sk);
}

/*
 * No user may load the module: a family lookup asks for the alias
 * "net-pf-16-proto-16-family-cpumgr", which the module must not carry.
 */
TEST(no_autoload_alias)
{
	const char *module = getenv("CPUMGR_MODULE");
	char cmd[512], line[256];
	int aliases = 0;
	FILE *f;

	ASSERT_NE(NULL, module);
	snprintf(cmd, sizeof(cmd), "modinfo -F alias %s", module);
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		TH_LOG("alias %s", line);
		aliases++;
	}
	ASSERT_EQ(0, pclose(f));
	EXPECT_EQ(0, aliases);
}

TEST_HARNESS_MAIN
