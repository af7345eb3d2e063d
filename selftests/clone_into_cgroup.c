// SPDX-License-Identifier: GPL-2.0
/*
 * Helper of the shell selftests (not a selftest itself): fork one child
 * straight into a cgroup2 directory with clone3(CLONE_INTO_CGROUP), the
 * way container runtimes start a container's first process.  The child
 * exits at once.  Exit status 0 when the clone worked; otherwise 1 and
 * "clone3 into DIR: <strerror>" on stderr (the message the shell
 * selftests match, as they do for the shell's own write errors).
 *
 * Usage: clone_into_cgroup DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct clone_args args;
	int fd, status;
	long pid;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CGROUP_DIR\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memset(&args, 0, sizeof(args));
	args.flags = CLONE_INTO_CGROUP;
	args.exit_signal = SIGCHLD;
	args.cgroup = (uint64_t)fd;
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0) {
		fprintf(stderr, "clone3 into %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (pid == 0)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		fprintf(stderr, "clone3 into %s: the child did not exit\n",
			argv[1]);
		return 1;
	}
	return 0;
}
