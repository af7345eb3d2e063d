// SPDX-License-Identifier: GPL-2.0
/*
 * The checkpoint file in its state directory.  The kubelet's file store
 * writes a temporary ".XXXX" file, syncs it and renames it over the
 * checkpoint; we do the same, also sync the directory so the rename
 * itself survives a crash, and serialise writers with an flock because
 * several cpumgrctl processes (CLI and daemon) share one directory.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "atomic_file.h"
#include "checkpoint.h"
#include "json_util.h"

static int sys_error(struct cm_error *err, int e, const char *what,
		     const struct checkpoint_store *st, const char *name)
{
	cm_errorf(err, "%s %s/%s: %s", what, st->dir, name, strerror(e));
	return -e;
}

/* The kubelet's store keys are [A-Za-z0-9._-]+; dot files are ours. */
static bool valid_name(const char *name)
{
	if (!*name || *name == '.' || strlen(name) > 200)
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return false;
	return true;
}

/* Every parent, then the directory itself, each made durable when made. */
static int mkdir_p(const char *dir)
{
	char *path = strdup(dir), *p;
	struct cm_error ignored = { 0 };
	int ret = 0;

	if (!path)
		return -ENOMEM;
	for (p = strchr(path + 1, '/'); p && !ret; p = strchr(p + 1, '/')) {
		*p = '\0';
		ret = atomic_file_mkdir(path, 0755, &ignored);
		*p = '/';
	}
	if (!ret)
		ret = atomic_file_mkdir(path, 0755, &ignored);
	cm_error_clear(&ignored);
	free(path);
	return ret;
}

int checkpoint_store_open(struct checkpoint_store *st, const char *dir,
			  const char *name, bool create, struct cm_error *err)
{
	int ret;

	memset(st, 0, sizeof(*st));
	st->dir_fd = st->lock_fd = -1;
	name = name ? name : CHECKPOINT_FILE;
	if (!valid_name(name))
		return cm_errorf(err, "invalid checkpoint name \"%s\"", name);
	if (create && (ret = mkdir_p(dir))) {
		cm_errorf(err, "cannot create state directory %s: %s", dir,
			  strerror(-ret));
		return ret;
	}
	st->dir = strdup(dir);
	st->name = strdup(name);
	if (!st->dir || !st->name) {
		checkpoint_store_close(st);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	st->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->dir_fd < 0) {
		ret = -errno;
		cm_errorf(err, "cannot open state directory %s: %s", dir,
			  strerror(errno));
		checkpoint_store_close(st);
		return ret;
	}
	return 0;
}

void checkpoint_store_close(struct checkpoint_store *st)
{
	checkpoint_store_unlock(st);
	if (st->dir_fd >= 0)
		close(st->dir_fd);
	free(st->dir);
	free(st->name);
	memset(st, 0, sizeof(*st));
	st->dir_fd = st->lock_fd = -1;
}

static char *dot_name(const struct checkpoint_store *st, const char *suffix)
{
	char *s;

	return asprintf(&s, ".%s%s", st->name, suffix) < 0 ? NULL : s;
}

/* Remove ".<name>.tmp.*": temp files of writers that died mid-write. */
static unsigned int remove_stale(struct checkpoint_store *st)
{
	char *prefix = dot_name(st, ATOMIC_FILE_TMP_INFIX);
	int fd = dup(st->dir_fd);
	unsigned int n = 0;
	struct dirent *de;
	DIR *d;

	if (!prefix || fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		free(prefix);
		return 0;
	}
	rewinddir(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)) &&
		    !unlinkat(st->dir_fd, de->d_name, 0))
			n++;
	closedir(d);
	free(prefix);
	return n;
}

static long holder_pid(int fd)
{
	char buf[24];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* The second line of the lock file: the last holder's token, or "". */
static void read_token(int fd, char *out, size_t len)
{
	char buf[128], *nl;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	out[0] = '\0';
	if (n <= 0)
		return;
	buf[n] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		snprintf(out, len, "%.*s", (int)strcspn(nl + 1, "\n"), nl + 1);
}

/* Unique to this lock: pid, a count of this process's locks, the time. */
static void new_token(char *out, size_t len)
{
	static unsigned long count;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(out, len, "%ld.%lu.%lld.%09ld", (long)getpid(), ++count,
		 (long long)ts.tv_sec, ts.tv_nsec);
}

int checkpoint_store_lock(struct checkpoint_store *st, int timeout_ms,
			  struct cm_error *err)
{
	long long deadline = clock_mono_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	char *lock = dot_name(st, ".lock"), pid[24 + sizeof(st->token)];
	int fd, len;
	long holder;

	if (st->lock_fd >= 0) {
		free(lock);
		return 0;
	}
	if (!lock)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	fd = openat(st->dir_fd, lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		int ret = sys_error(err, errno, "cannot open lock file", st,
				    lock);

		free(lock);
		return ret;
	}
	free(lock);
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		struct timespec ts = { 0, 10 * 1000000 };

		if (errno != EWOULDBLOCK && errno != EINTR) {
			int ret = sys_error(err, errno, "cannot lock", st,
					    st->name);

			close(fd);
			return ret;
		}
		if (timeout_ms >= 0 && clock_mono_ms() >= deadline) {
			holder = holder_pid(fd);
			close(fd);
			if (holder > 0)
				cm_errorf(err, "checkpoint %s/%s is locked by another writer (pid %ld)",
					  st->dir, st->name, holder);
			else
				cm_errorf(err, "checkpoint %s/%s is locked by another writer",
					  st->dir, st->name);
			return timeout_ms ? -ETIMEDOUT : -EWOULDBLOCK;
		}
		if (st->waiting) {
			st->waiting(st->waiting_arg, holder_pid(fd));
			st->waiting = NULL;
		}
		nanosleep(&ts, NULL);
	}
	read_token(fd, st->prev_token, sizeof(st->prev_token));
	new_token(st->token, sizeof(st->token));
	/* who holds it, for the message of whoever waits, and the token */
	len = snprintf(pid, sizeof(pid), "%ld\n%s\n", (long)getpid(),
		       st->token);
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)len, 0) != len) {
		/* only informative: the lock itself is held */
	}
	st->lock_fd = fd;
	st->waiting = NULL;
	st->stale_removed = remove_stale(st);
	return 0;
}

void checkpoint_store_unlock(struct checkpoint_store *st)
{
	char text[8 + sizeof(st->token)];
	int len;

	if (st->lock_fd < 0)
		return;
	/* no holder, the token stays for the next one */
	len = snprintf(text, sizeof(text), "-\n%s\n", st->token);
	if (ftruncate(st->lock_fd, 0) ||
	    pwrite(st->lock_fd, text, (size_t)len, 0) != len) {
		/* a stale pid in the file only misleads a message, a
		 * missing token only costs its next holder a full read */
	}
	close(st->lock_fd);
	st->lock_fd = -1;
}

int checkpoint_store_read(struct checkpoint_store *st, char **buf,
			  size_t *len, struct cm_error *err)
{
	int fd = openat(st->dir_fd, st->name, O_RDONLY | O_CLOEXEC);
	FILE *f;

	*buf = NULL;
	*len = 0;
	if (fd < 0 && errno == ENOENT)
		return cm_errorf(err, CHECKPOINT_ERR_MISSING), -ENOENT;
	if (fd < 0)
		return sys_error(err, errno, "cannot open", st, st->name);
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	*buf = file_slurp(f, len);
	if (!*buf || ferror(f)) {
		fclose(f);
		free(*buf);
		*buf = NULL;
		return cm_errorf(err, "cannot read %s/%s", st->dir, st->name),
		       -EIO;
	}
	fclose(f);
	return 0;
}

int checkpoint_store_load(struct checkpoint_store *st,
			  const struct checkpoint_opts *o,
			  struct checkpoint *out, struct cm_error *err)
{
	size_t len;
	char *buf;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = checkpoint_store_read(st, &buf, &len, err);
	if (ret)
		return ret;
	ret = checkpoint_parse(buf, len, o, out, err);
	free(buf);
	return ret;
}

static int need_lock(const struct checkpoint_store *st, struct cm_error *err)
{
	if (st->lock_fd < 0)
		return cm_errorf(err, "checkpoint %s/%s: write without the lock",
				 st->dir, st->name), -ENOLCK;
	return 0;
}

int checkpoint_store_stage(struct checkpoint_store *st, const void *data,
			   size_t len, char **tmp_name, struct cm_error *err)
{
	int ret = need_lock(st, err);

	*tmp_name = NULL;
	if (ret)
		return ret;
	return atomic_file_stage(st->dir_fd, st->dir, st->name, data, len, 0,
				 tmp_name, err);
}

int checkpoint_store_commit(struct checkpoint_store *st, const char *tmp_name,
			    struct cm_error *err)
{
	int ret = need_lock(st, err);

	if (ret)
		return ret;
	return atomic_file_commit(st->dir_fd, st->dir, tmp_name, st->name, err);
}

void checkpoint_store_abort(struct checkpoint_store *st, const char *tmp_name)
{
	if (tmp_name)
		unlinkat(st->dir_fd, tmp_name, 0);
}

int checkpoint_store_write(struct checkpoint_store *st, const void *data,
			   size_t len, struct cm_error *err)
{
	char *tmp;
	int ret = checkpoint_store_stage(st, data, len, &tmp, err);

	if (ret)
		return ret;
	ret = checkpoint_store_commit(st, tmp, err);
	free(tmp);
	return ret;
}

/* Keep a file that does not read back as "<name>.corrupt". */
static int set_aside(struct checkpoint_store *st, struct cm_error *err)
{
	char *aside;
	int ret = 0;

	if (asprintf(&aside, "%s.corrupt", st->name) < 0)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (renameat(st->dir_fd, st->name, st->dir_fd, aside))
		ret = sys_error(err, errno, "cannot set aside", st, st->name);
	free(aside);
	return ret;
}

int checkpoint_store_save_text(struct checkpoint_store *st, const char *data,
			       size_t len, unsigned int flags,
			       struct cm_error *err)
{
	struct checkpoint old;
	int ret = need_lock(st, err);

	if (ret)
		return ret;
	ret = checkpoint_store_load(st, NULL, &old, err);
	checkpoint_free(&old);
	if (ret && ret != -ENOENT) {
		if (!(flags & CHECKPOINT_FORCE)) {
			cm_error_prefix(err, "refusing to overwrite %s/%s",
					st->dir, st->name);
			return ret;
		}
		ret = set_aside(st, err);
		if (ret)
			return ret;
	}
	cm_error_clear(err);
	return checkpoint_store_write(st, data, len, err);
}

int checkpoint_store_save(struct checkpoint_store *st, const char *policy,
			  const struct cpu_assignments *s, unsigned int flags,
			  struct cm_error *err)
{
	size_t len;
	char *data = checkpoint_format(policy, s, &len);
	int ret;

	if (!data)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = checkpoint_store_save_text(st, data, len, flags, err);
	free(data);
	return ret;
}
