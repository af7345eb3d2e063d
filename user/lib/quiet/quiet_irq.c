// SPDX-License-Identifier: GPL-2.0
/* Interrupts kept off CPUs, irqbalance told (quiet_irq.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_file.h"
#include "json_util.h"
#include "quiet_irq.h"
#include "quiet_sysfs.h"

#define BANNED		"IRQBALANCE_BANNED_CPULIST="

/* A hex mask ("ff", "00000001,ffffffff") into s; its chunks in *chunks. */
static int mask_parse(const char *text, struct cpuset *s, int *chunks)
{
	int nr = 1, bit = 0;

	cpuset_zero(s);
	for (const char *p = text; *p; p++)
		nr += *p == ',';
	*chunks = nr;
	for (const char *p = text + strlen(text); p > text;) {
		const char *start = p;
		unsigned long v;
		char word[16];

		while (start > text && start[-1] != ',')
			start--;
		if (p - start > 8 || p == start)
			return -EINVAL;
		snprintf(word, sizeof(word), "%.*s", (int)(p - start), start);
		for (char *c = word; *c; c++)
			if (!isxdigit((unsigned char)*c))
				return -EINVAL;
		v = strtoul(word, NULL, 16);
		for (int b = 0; b < 32; b++)
			if (v & (1ul << b))
				cpuset_set(s, (unsigned int)(bit + b));
		bit += 32;
		p = start > text ? start - 1 : start;
	}
	return 0;
}

/* s as a hex mask of chunks 32-bit words, the highest first. */
static void mask_format(const struct cpuset *s, int chunks, char *buf,
			size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int c = chunks - 1; c >= 0 && at < len; c--) {
		unsigned long v = 0;

		for (int b = 0; b < 32; b++)
			if (cpuset_test(s, (unsigned int)(c * 32 + b)))
				v |= 1ul << b;
		at += (size_t)snprintf(buf + at, len - at, "%s%08lx",
				       c == chunks - 1 ? "" : ",", v);
	}
}

/*
 * What an affinity of orig becomes with off kept off (orig itself when
 * off is empty): false when that is have, nothing to write.
 */
static bool without(const struct cpuset *orig, const struct cpuset *off,
		    const struct cpuset *online, const struct cpuset *have,
		    struct cpuset *out)
{
	*out = *orig;
	if (!cpuset_empty(off)) {
		cpuset_andnot(out, orig, off);
		cpuset_and(out, out, online);
		if (cpuset_empty(out))
			cpuset_andnot(out, online, off);
	}
	return !cpuset_equal(out, have);
}

static void note_stuck(struct quiet_irq_result *r, unsigned int irq)
{
	size_t at = strlen(r->stuck_list);

	if (r->stuck++ < 8 && at + 12 < sizeof(r->stuck_list))
		snprintf(r->stuck_list + at, sizeof(r->stuck_list) - at,
			 "%s%u", at ? "," : "", irq);
}

/*
 * One interrupt's affinity as off says (or back to its saved one); with
 * write false, only its affinity before saved in s where it will change.
 */
static int sync_one(const char *dir, unsigned int irq, bool write,
		    const struct cpuset *off, const struct cpuset *online,
		    struct quiet_saved *s, struct quiet_irq_result *r,
		    struct cm_error *err)
{
	struct quiet_irq_orig *o = quiet_saved_irq(s, irq);
	char path[PATH_MAX + 48], text[4096], *want_text;
	struct cpuset have, orig, want;
	int ret;

	snprintf(path, sizeof(path), "%s/%u/smp_affinity_list", dir, irq);
	if (quiet_read_value(path, text, sizeof(text)) ||
	    cpuset_parse(&have, text, NULL))
		return 0;	/* gone, or nothing to read: not ours */
	r->seen += write;
	if (cpuset_empty(off) && !o)
		return 0;
	if (!o && !cpuset_intersects(&have, off))
		return 0;
	if (o && cpuset_parse(&orig, o->list, NULL))
		return cm_errorf(err, "quiet state: irq %u: \"%s\" is no CPU list",
				 irq, o->list);
	if (!o)
		orig = have;
	if (!without(&orig, off, online, &have, &want))
		return 0;
	if (!write) {
		if (!o && quiet_saved_add_irq(s, irq, text, err))
			return -ENOMEM;
		r->recorded += !o;
		return 0;
	}
	want_text = cpuset_to_str(&want);
	if (!want_text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = quiet_write_value(path, want_text);
	free(want_text);
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		if (cpuset_intersects(&have, off))
			note_stuck(r, irq);
		/* not put back: its original stays saved for the next try */
		if (o && cpuset_empty(off))
			o->restore_failed = true;
		return 0;
	}
	r->moved++;
	return 0;
}

static int sync_default(const char *dir, bool write,
			const struct cpuset *off, const struct cpuset *online,
			struct quiet_saved *s, struct quiet_irq_result *r,
			struct cm_error *err)
{
	char path[PATH_MAX + 48], text[4096], want_text[4096];
	struct cpuset have, orig, want;
	int chunks, ret;

	snprintf(path, sizeof(path), "%s/default_smp_affinity", dir);
	if (quiet_read_value(path, text, sizeof(text)) ||
	    mask_parse(text, &have, &chunks))
		return 0;
	if (cpuset_empty(off) && !s->default_affinity)
		return 0;
	if (s->default_affinity && mask_parse(s->default_affinity, &orig,
					      &chunks))
		return cm_errorf(err, "quiet state: default affinity \"%s\" is no mask",
				 s->default_affinity);
	if (!s->default_affinity)
		orig = have;
	if (!without(&orig, off, online, &have, &want))
		return 0;
	if (!write) {
		if (!s->default_affinity && !(s->default_affinity = strdup(text)))
			return cm_errorf(err, "out of memory"), -ENOMEM;
		r->recorded++;
		return 0;
	}
	/* given back as it was read, else in the width the kernel printed */
	if (cpuset_empty(off))
		snprintf(want_text, sizeof(want_text), "%s", s->default_affinity);
	else
		mask_format(&want, chunks, want_text, sizeof(want_text));
	ret = quiet_write_value(path, want_text);
	if (ret)
		return cm_errorf(err, "%s: %s: %s", path, want_text,
				 strerror(-ret)), ret;
	return 0;
}

static int irq_number(const char *name, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)name[0]))
		return -1;
	v = strtoul(name, &end, 10);
	if (*end || v > INT_MAX)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/* Every interrupt of dir, then the default affinity: one pass. */
static int sync_pass(const char *dir, bool write, const struct cpuset *off,
		     const struct cpuset *online, struct quiet_saved *s,
		     struct quiet_irq_result *r, struct cm_error *err)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(dir);
	if (!d) {
		ret = -errno;
		return cm_errorf(err, "%s: %s", dir, strerror(-ret)), ret;
	}
	while (!ret && (de = readdir(d))) {
		unsigned int irq;

		if (!irq_number(de->d_name, &irq))
			ret = sync_one(dir, irq, write, off, online, s, r, err);
	}
	closedir(d);
	if (!ret)
		ret = sync_default(dir, write, off, online, s, r, err);
	return ret;
}

int quiet_irq_sync(const char *proc, const struct cpuset *off,
		   const struct cpuset *online, struct quiet_saved *s,
		   quiet_persist_fn *persist, void *arg,
		   struct quiet_irq_result *r, struct cm_error *err)
{
	size_t nr_before = s->nr_irqs;
	bool had_default = s->default_affinity != NULL;
	char dir[PATH_MAX];
	int ret;

	memset(r, 0, sizeof(*r));
	snprintf(dir, sizeof(dir), "%s/irq", proc);
	/* the originals kept where a crash cannot lose them, then changed */
	ret = sync_pass(dir, false, off, online, s, r, err);
	if (!ret && r->recorded && persist)
		ret = persist(arg, err);
	if (ret) {
		/* not kept: forgotten, so that the next try saves them */
		quiet_saved_truncate_irqs(s, nr_before, had_default);
		return ret;
	}
	ret = sync_pass(dir, true, off, online, s, r, err);
	if (ret)
		return ret;
	s->irq_off = *off;
	/* given back: what was saved is what there is, but for the refused */
	if (cpuset_empty(off))
		quiet_saved_drop_irqs(s, true);
	return 0;
}

bool quiet_irqbalance_running(const char *proc)
{
	DIR *d = opendir(proc);
	struct dirent *de;
	bool found = false;

	while (d && !found && (de = readdir(d))) {
		char path[PATH_MAX], comm[32];
		unsigned int pid;

		if (irq_number(de->d_name, &pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", proc, de->d_name);
		found = !quiet_read_value(path, comm, sizeof(comm)) &&
			!strcmp(comm, "irqbalance");
	}
	if (d)
		closedir(d);
	return found;
}

/* The value of an active IRQBALANCE_BANNED_CPULIST= line, NULL if none. */
static const char *banned_value(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	if (!strncmp(line, "export ", 7))
		line += 7;
	return strncmp(line, BANNED, strlen(BANNED)) ? NULL :
	       line + strlen(BANNED);
}

/* The number of the last active banned line of text (len bytes), or -1. */
static long last_banned(const char *text, size_t len)
{
	long nr = 0, last = -1;

	for (const char *line = text; line < text + len; nr++) {
		const char *nl = memchr(line, '\n', (size_t)(text + len - line));
		size_t ll = nl ? (size_t)(nl - line) : (size_t)(text + len - line);
		char buf[QUIET_LINE_MAX];

		if (ll < sizeof(buf)) {
			memcpy(buf, line, ll);
			buf[ll] = '\0';
			if (banned_value(buf))
				last = nr;
		}
		line += ll + (nl ? 1 : 0);
	}
	return last;
}

/* The line irqbalance's banned CPUs get: off and what was banned before. */
static int banned_line(const struct quiet_saved *s, const char *was,
		       const struct cpuset *off, char *buf, size_t len)
{
	struct cpuset banned;
	char *list;

	cpuset_zero(&banned);
	if (was && banned_value(was))
		cpuset_parse(&banned, banned_value(was), NULL);
	cpuset_or(&banned, &banned, off);
	list = cpuset_to_str(&banned);
	if (!list)
		return -ENOMEM;
	snprintf(buf, len, "%s%s", BANNED, list);
	free(list);
	return 0;
}

int quiet_irqbalance_ban(const char *file, const struct cpuset *off,
			 struct quiet_saved *s, quiet_persist_fn *persist,
			 void *arg, bool *changed, struct cm_error *err)
{
	bool found = false, restore = cpuset_empty(off), first;
	char *text, *out, *before, dir[PATH_MAX], mine[2 * QUIET_LINE_MAX];
	const char *slash = strrchr(file, '/');
	size_t len = 0, at = 0, cap;
	long last, nr = 0;
	FILE *f;
	int ret = 0;

	*changed = false;
	if (restore && !s->irqbalance_banned)
		return 0;
	f = fopen(file, "re");
	if (!f) {
		ret = -errno;
		return cm_errorf(err, "%s: %s", file, strerror(-ret)), ret;
	}
	text = file_slurp(f, &len);
	fclose(f);
	cap = len + sizeof(mine) + 64;
	out = text ? malloc(cap) : NULL;
	before = text ? malloc(len + 1) : NULL;
	if (!out || !before) {
		free(text);
		free(out);
		free(before);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	memcpy(before, text, len);
	last = last_banned(text, len);
	for (char *line = text; line < text + len; nr++) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line));
		size_t ll = nl ? (size_t)(nl - line) : (size_t)(text + len - line);

		if (nl)
			*nl = '\0';
		/* the shell reads them all, and the last one counts */
		if (nr == last) {
			found = true;
			/* the line before cpumgr's, kept the first time */
			if (!s->irqbalance_banned)
				snprintf(s->irqbalance_line,
					 sizeof(s->irqbalance_line), "%s", line);
			if (restore && s->irqbalance_line[0])
				at += (size_t)snprintf(out + at, cap - at, "%s\n",
						       s->irqbalance_line);
			else if (!restore &&
				 !banned_line(s, s->irqbalance_line, off, mine,
					      sizeof(mine)))
				at += (size_t)snprintf(out + at, cap - at, "%s\n",
						       mine);
		} else {
			memcpy(out + at, line, ll);
			at += ll;
			if (nl)
				out[at++] = '\n';
		}
		line += ll + (nl ? 1 : 0);
	}
	if (!found && !restore) {
		if (!s->irqbalance_banned)
			s->irqbalance_line[0] = '\0';
		if (at && out[at - 1] != '\n')
			out[at++] = '\n';
		if (!banned_line(s, NULL, off, mine, sizeof(mine)))
			at += (size_t)snprintf(out + at, cap - at, "%s\n", mine);
	}
	*changed = len != at || memcmp(before, out, at);
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) : 1,
		 slash ? file : ".");
	/* the line before, kept where a crash cannot lose it, then changed */
	first = *changed && !restore && !s->irqbalance_banned;
	if (first) {
		s->irqbalance_banned = true;
		ret = persist ? persist(arg, err) : 0;
	}
	if (*changed && !ret)
		ret = atomic_file_write(dir[0] ? dir : "/", slash ? slash + 1 :
					file, out, at, 0644, 0, err);
	if (!ret) {
		s->irqbalance_banned = !restore;
	} else if (first) {
		s->irqbalance_banned = false;
		s->irqbalance_line[0] = '\0';
		*changed = false;
	}
	free(text);
	free(before);
	free(out);
	return ret;
}

int quiet_run(const char *cmd, struct cm_error *err)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		int e = errno;

		return cm_errorf(err, "fork: %s", strerror(e)), -e;
	}
	if (!pid) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		int e = errno;

		if (e != EINTR)
			return cm_errorf(err, "%s: %s", cmd, strerror(e)), -e;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return cm_errorf(err, "%s: exit status %d", cmd,
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1),
		       -EIO;
	return 0;
}
