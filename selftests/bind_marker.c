// SPDX-License-Identifier: GPL-2.0
/*
 * Helper of the shell selftests (not a selftest itself): BIND requests on
 * one connection, one per line of stdin, for scripts that bracket the
 * kernel's events with markers (every BIND sends a BOUND notification)
 * and cannot afford to start a program each time under TCG.
 *
 * Each input line "POD POD_CGROUP_PATH" (the path may be empty: unbind)
 * binds the pod's cgroup again and prints the new generation, or
 * "error <errno>: <message>".  Ends at the end of stdin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpumgr_nl.h"

int main(void)
{
	struct cpumgr_nl *nl;
	char line[4200];
	char *msg = NULL;
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	nl = cpumgr_nl_open(&err, &msg);
	if (!nl) {
		printf("error %d: %s\n", err, msg ? msg : "");
		free(msg);
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char *pod = strtok(line, " \n");
		char *path = strtok(NULL, "\n");
		uint64_t gen;

		if (!pod) {
			printf("error 0: no pod\n");
			continue;
		}
		err = cpumgr_nl_bind(nl, pod, NULL, NULL, path ? path : "",
				     NULL, &gen);
		if (err)
			printf("error %d: %s\n", err, cpumgr_nl_errmsg(nl));
		else
			printf("%llu\n", (unsigned long long)gen);
	}
	cpumgr_nl_close(nl);
	return 0;
}
