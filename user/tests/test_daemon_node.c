// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's log, a whole cpumgrctl process on the stand-in kernel
 * (standin_node.h): every line starts with its time, the repairs of its
 * first open too (the module, reloaded empty, configured again).
 */
#include <regex.h>

#include "kselftest_harness.h"

#include "standin_node.h"
#include "test_util.h"

/* what a reloaded module holds: no policy, nothing reserved */
#define RELOADED "generation 1 policy 0 options 0 enforce 0 hotplug 0\nreserved \nroot \n"

TEST(every_line_stamped)
{
	struct standin_node sn = { 0 };
	char *line, *save = NULL;
	unsigned int lines = 0;
	regex_t stamp;

	ASSERT_EQ(0, standin_node_init(&sn)) TH_LOG("%s", sn.out);
	fake_write(sn.dir, "kernel", RELOADED);
	standin_run(&sn, "daemon --once", NULL);
	ASSERT_EQ(0, sn.status) TH_LOG("%s", sn.out);
	EXPECT_NE(NULL, strstr(sn.out, "Z sync: configured the module from "))
		TH_LOG("%s", sn.out);
	ASSERT_EQ(0, regcomp(&stamp, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z ",
			     REG_EXTENDED | REG_NOSUB));
	line = strtok_r(sn.out, "\n", &save);
	while (line) {
		const char *l = line;

		EXPECT_EQ(0, regexec(&stamp, l, 0, NULL, 0)) TH_LOG("%s", l);
		lines++;
		line = strtok_r(NULL, "\n", &save);
	}
	EXPECT_LE(2U, lines);
	regfree(&stamp);
	standin_node_free(&sn);
}

TEST_HARNESS_MAIN
