/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replacing a file so that a reader or a crash sees the old file or the
 * new one, never half of one: the data goes into a hidden temporary
 * ".<name>.tmp.XXXXXX" beside it, is synced, renamed over the file, and
 * the directory is synced so the rename itself survives a crash.  The
 * checkpoint, the state directory's own files and the metrics file are
 * all written this way.
 *
 * ATOMIC_FILE_NO_SYNC leaves the two syncs out: readers still see the old
 * file or the new one, but after a power loss the file may be the old
 * one, or empty.  For files whose loss costs nothing but a restart of
 * their numbers (the counters, the metrics file): each sync is a device
 * write and wait, a sixth of an admission's CPU on ext4 without a journal.
 */
#ifndef CPUMGR_ATOMIC_FILE_H
#define CPUMGR_ATOMIC_FILE_H

#include <stddef.h>
#include <sys/types.h>

#include "error.h"

/* What every temporary name holds after ".<name>" (to recognise them). */
#define ATOMIC_FILE_TMP_INFIX	".tmp."

/*
 * Write data into a new synced temporary file of dir (open as dir_fd)
 * for name, with mode (0: mkostemp's 0600), and return its name (free
 * it) in *tmp_name.  On failure nothing is left behind.
 */
int atomic_file_stage(int dir_fd, const char *dir, const char *name,
		      const void *data, size_t len, mode_t mode,
		      char **tmp_name, struct cm_error *err);
/* Rename the staged tmp_name over name and sync the directory. */
int atomic_file_commit(int dir_fd, const char *dir, const char *tmp_name,
		       const char *name, struct cm_error *err);
#define ATOMIC_FILE_NO_SYNC	0x1

/* Stage and commit in one (flags: ATOMIC_FILE_*): dir/name holds data. */
int atomic_file_write(const char *dir, const char *name, const void *data,
		      size_t len, mode_t mode, unsigned int flags,
		      struct cm_error *err);

/*
 * mkdir path unless it exists; when made, sync its parent so that files
 * later committed into it cannot outlive a crash that loses the directory.
 */
int atomic_file_mkdir(const char *path, mode_t mode, struct cm_error *err);

#endif
