// SPDX-License-Identifier: GPL-2.0
/*
 * Helper of the armed selftest (not a selftest itself): writes TEXT to
 * FILE from a page that is mapped but was never touched, so that a
 * kprobe reading the buffer without faulting (copy_from_user_nofault())
 * finds nothing there, while the kernel's writer faults the page in and
 * reads TEXT.  The page is a fresh private mapping of a new file on
 * /tmp holding TEXT.  Exit status 0 when the write took all of TEXT,
 * otherwise 1 and "write FILE: <strerror>" on stderr.
 *
 * Usage: write_untouched FILE TEXT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/write_untouched.XXXXXX";
	size_t len;
	ssize_t n;
	char *page;
	int src, dst;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE TEXT\n", argv[0]);
		return 2;
	}
	len = strlen(argv[2]);
	src = mkstemp(tmp);
	if (src < 0 || write(src, argv[2], len) != (ssize_t)len) {
		fprintf(stderr, "%s: %s\n", tmp, strerror(errno));
		return 1;
	}
	unlink(tmp);
	/* not populated: the first access faults */
	page = mmap(NULL, len, PROT_READ, MAP_PRIVATE, src, 0);
	if (page == MAP_FAILED) {
		fprintf(stderr, "mmap %s: %s\n", tmp, strerror(errno));
		return 1;
	}
	dst = open(argv[1], O_WRONLY | O_CLOEXEC);
	if (dst < 0) {
		fprintf(stderr, "open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	n = write(dst, page, len);
	if (n != (ssize_t)len) {
		fprintf(stderr, "write %s: %s\n", argv[1],
			n < 0 ? strerror(errno) : "short write");
		return 1;
	}
	return 0;
}
