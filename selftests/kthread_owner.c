// SPDX-License-Identifier: GPL-2.0
/*
 * Helper of the kthreads selftest (not a selftest itself): makes the
 * kernel start a thread that works for this process, then waits, so that
 * the selftest can read where that thread may run and where it runs.
 *
 *   sqpoll [CPU]       io_uring_setup() with IORING_SETUP_SQPOLL (and
 *                      IORING_SETUP_SQ_AFF on CPU): the ring's SQ thread,
 *                      "iou-sqp-PID", polling for a minute before it sleeps
 *   iowq FIFO [CPUS]   a ring (IORING_REGISTER_IOWQ_AFF on the cpulist
 *                      CPUS first); on SIGUSR1 an open of the FIFO with
 *                      O_CREAT sent to the ring's io-wq, where it waits
 *                      for a writer: an io-wq worker, "iou-wrk-PID"
 *   vhost [kthread]    /dev/vhost-net with an owner: its worker,
 *                      "vhost-PID", a thread of this process or (6.1, and
 *                      with "kthread": VHOST_SET_FORK_FROM_OWNER 0) a
 *                      kernel thread moved into this process's cgroups
 *
 * Prints "ready" when the thread is there (iowq: "ring", then "ready"
 * after SIGUSR1) and waits for SIGTERM.  Exit status 1 with
 * "CALL: <strerror>" on stderr when the kernel refuses a call, 4 when the
 * kernel has no such thing (ENOSYS, ENOENT, ENOTTY; io_uring_disabled
 * gives EPERM, reported as 4 too, with the sysctl named).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/vhost.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Debian 12's uAPI headers are 6.1's: the ioctl came with 6.12 (0x84). */
#ifndef VHOST_SET_FORK_FROM_OWNER
#define VHOST_SET_FORK_FROM_OWNER _IOW(VHOST_VIRTIO, 0x84, __u8)
#endif

#define EXIT_REFUSED	1
#define EXIT_USAGE	2
#define EXIT_ABSENT	4

static int failed(const char *call)
{
	int err = errno;

	fprintf(stderr, "%s: %s%s\n", call, strerror(err),
		err == EPERM && !strcmp(call, "io_uring_setup") ?
		" (kernel.io_uring_disabled?)" : "");
	if (err == ENOSYS || err == ENOENT || err == ENOTTY || err == ENODEV ||
	    (err == EPERM && !strcmp(call, "io_uring_setup")))
		return EXIT_ABSENT;
	return EXIT_REFUSED;
}

static void ready(const char *what)
{
	printf("%s\n", what);
	fflush(stdout);
}

/* SIGUSR1 and SIGTERM, blocked from the start: taken by wait_for(). */
static sigset_t waited;

/* Waits for SIGTERM (and returns on SIGUSR1 when @sig is SIGUSR1). */
static void wait_for(int sig)
{
	int got;

	if (sigwait(&waited, &got) || got == SIGTERM || got != sig)
		exit(0);
}

static int uring_setup(unsigned int entries, struct io_uring_params *p)
{
	return syscall(__NR_io_uring_setup, entries, p);
}

static int mode_sqpoll(int argc, char **argv)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL;
	p.sq_thread_idle = 60000;
	if (argc > 2) {
		p.flags |= IORING_SETUP_SQ_AFF;
		p.sq_thread_cpu = atoi(argv[2]);
	}
	if (uring_setup(8, &p) < 0)
		return failed("io_uring_setup");
	ready("ready");
	wait_for(SIGTERM);
	return 0;
}

/* A cpulist ("1,6-7") into @set; false when it is not one. */
static int parse_cpus(const char *s, cpu_set_t *set)
{
	char *end;
	long a, b;

	CPU_ZERO(set);
	while (*s) {
		a = strtol(s, &end, 10);
		if (end == s || a < 0 || a >= CPU_SETSIZE)
			return 0;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b >= CPU_SETSIZE)
				return 0;
		}
		for (; a <= b; a++)
			CPU_SET(a, set);
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return 0;
	}
	return 1;
}

/* Sends one openat of @path to the io-wq of ring @fd (params @p). */
static int uring_open_async(int fd, const struct io_uring_params *p,
			    const char *path)
{
	size_t sq_len = p->sq_off.array + p->sq_entries * sizeof(__u32);
	size_t sqe_len = p->sq_entries * sizeof(struct io_uring_sqe);
	struct io_uring_sqe *sqe;
	unsigned int *tail, *array, mask;
	char *sq;

	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  fd, IORING_OFF_SQ_RING);
	sqe = mmap(NULL, sqe_len, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || sqe == MAP_FAILED)
		return failed("mmap");
	tail = (unsigned int *)(sq + p->sq_off.tail);
	array = (unsigned int *)(sq + p->sq_off.array);
	mask = *(unsigned int *)(sq + p->sq_off.ring_mask);
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_OPENAT;
	sqe->flags = IOSQE_ASYNC;
	sqe->fd = AT_FDCWD;
	sqe->addr = (uintptr_t)path;
	/* O_CREAT: never tried without blocking, a worker opens it */
	sqe->open_flags = O_RDONLY | O_CREAT;
	sqe->len = 0600;
	array[*tail & mask] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, fd, 1, 0, 0, NULL, 0) != 1)
		return failed("io_uring_enter");
	return 0;
}

static int mode_iowq(int argc, char **argv)
{
	struct io_uring_params p;
	cpu_set_t cpus;
	int fd, err;

	if (argc < 3)
		return EXIT_USAGE;
	memset(&p, 0, sizeof(p));
	fd = uring_setup(8, &p);
	if (fd < 0)
		return failed("io_uring_setup");
	if (argc > 3) {
		if (!parse_cpus(argv[3], &cpus))
			return EXIT_USAGE;
		if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_IOWQ_AFF,
			    &cpus, sizeof(cpus)) < 0)
			return failed("IORING_REGISTER_IOWQ_AFF");
	}
	ready("ring");
	wait_for(SIGUSR1);
	err = uring_open_async(fd, &p, argv[2]);
	if (err)
		return err;
	ready("ready");
	wait_for(SIGTERM);
	return 0;
}

static int mode_vhost(int argc, char **argv)
{
	int fd = open("/dev/vhost-net", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return failed("open /dev/vhost-net");
	if (argc > 2 && !strcmp(argv[2], "kthread")) {
		__u8 task = 0;

		if (ioctl(fd, VHOST_SET_FORK_FROM_OWNER, &task) < 0)
			return failed("VHOST_SET_FORK_FROM_OWNER");
	}
	if (ioctl(fd, VHOST_SET_OWNER, NULL) < 0)
		return failed("VHOST_SET_OWNER");
	ready("ready");
	wait_for(SIGTERM);
	return 0;
}

int main(int argc, char **argv)
{
	sigemptyset(&waited);
	sigaddset(&waited, SIGUSR1);
	sigaddset(&waited, SIGTERM);
	sigprocmask(SIG_BLOCK, &waited, NULL);
	if (argc >= 2 && !strcmp(argv[1], "sqpoll"))
		return mode_sqpoll(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "iowq"))
		return mode_iowq(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "vhost"))
		return mode_vhost(argc, argv);
	fprintf(stderr,
		"usage: %s sqpoll [CPU] | iowq FIFO [CPUS] | vhost [kthread]\n",
		argv[0]);
	return EXIT_USAGE;
}
