// SPDX-License-Identifier: GPL-2.0
/* cpumgrctl version: the controller's version and the module's, if loaded. */
#include <stdio.h>

#include "cmd.h"

#define CPUMGRCTL_VERSION "0.1.0"

static int cmd_version(int argc, char **argv)
{
	char buf[64] = "";
	FILE *f;

	if (argc != 1)
		return ctl_usage(argv[0]);
	printf("cpumgrctl %s\n", CPUMGRCTL_VERSION);
	f = fopen("/sys/kernel/cpumgr/version", "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			printf("cpumgr.ko %s", buf);
		fclose(f);
	} else {
		printf("cpumgr.ko not loaded\n");
	}
	return CPUMGRCTL_EXIT_OK;
}

CPUMGRCTL_COMMAND(version, "version", "", "print the controller's and the module's version",
		  cmd_version);
