// SPDX-License-Identifier: GPL-2.0
/* The node's readiness and the NRI plugin's record (ctl_ready.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cmd.h"
#include "ctl_ready.h"
#include "strbuf.h"

void ctl_nri_record_open(struct ctl_nri_record *r, const char *dir)
{
	char path[PATH_MAX];

	r->dir = dir;
	snprintf(path, sizeof(path), "%s/%s", dir, CTL_NRI_LOCK);
	r->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (r->lock_fd < 0)
		return;
	if (flock(r->lock_fd, LOCK_EX | LOCK_NB)) {
		ctl_note("nri: %s is held: another NRI plugin of cpumgr's runs on this state directory; this one records nothing",
			 path);
		close(r->lock_fd);
		r->lock_fd = -1;
	}
}

void ctl_nri_record_set(struct ctl_nri_record *r, const char *state,
			const char *mode, const char *plugin,
			const char *socket)
{
	struct cm_error err = { 0 };
	char line[512];
	int n;

	if (r->lock_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s %s %s %s %lld\n", state, mode,
		     plugin, socket, (long long)time(NULL));
	if (n < 0 || (size_t)n >= sizeof(line) ||
	    atomic_file_write(r->dir, CTL_NRI_STATE, line, (size_t)n, 0644,
			      ATOMIC_FILE_NO_SYNC, &err))
		ctl_note("nri: cannot record the plugin's state in %s: %s",
			 r->dir, cm_error_msg(&err)[0] ? cm_error_msg(&err) :
			 "too long");
	cm_error_clear(&err);
}

void ctl_nri_read(const char *dir, struct ctl_nri_view *v)
{
	char path[PATH_MAX];
	FILE *f;
	int fd;

	memset(v, 0, sizeof(*v));
	snprintf(path, sizeof(path), "%s/%s", dir, CTL_NRI_STATE);
	f = fopen(path, "re");
	if (f) {
		v->recorded = fscanf(f, "%15s %15s %63s %255s %lld", v->state,
				     v->mode, v->plugin, v->socket,
				     &v->since) == 5;
		fclose(f);
	}
	/* the plugin holds the lock while it runs: read-only is enough */
	snprintf(path, sizeof(path), "%s/%s", dir, CTL_NRI_LOCK);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	v->running = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);
}

bool ctl_refused_read(const char *dir, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, CTL_REFUSED);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] != '\0';
}

bool ctl_ready(const struct node *n, const char *dir, bool nri, char *why,
	       size_t len)
{
	struct ctl_nri_view v;
	char refused[1024];

	if (!n->files.has_config) {
		snprintf(why, len, "the node is not set up (cpumgrctl init)");
		return false;
	}
	if (!n->kernel.table.armed) {
		snprintf(why, len, "the kernel's guarantee is not armed: %s",
			 n->kernel.table.unarmed_reason ?: "?");
		return false;
	}
	if (ctl_refused_read(dir, refused, sizeof(refused))) {
		snprintf(why, len, "a change of settings was refused, the node runs its old ones: %s",
			 refused);
		return false;
	}
	if (!nri)
		return true;
	ctl_nri_read(dir, &v);
	if (!v.running) {
		snprintf(why, len, "no NRI plugin runs on %s", dir);
		return false;
	}
	if (!v.recorded || strcmp(v.state, "registered")) {
		snprintf(why, len, "the NRI plugin is not registered with the runtime (%s%s%s)",
			 v.recorded ? v.state : "no record",
			 v.recorded ? " to " : "", v.recorded ? v.socket : "");
		return false;
	}
	return true;
}

void ctl_name_holders(const struct node *n, struct cm_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int shown = 0, more = 0;
	const char *last = NULL;
	char *list;

	/* sorted by pod: each pod once */
	for (size_t i = 0; n->kernel.sorted && i < n->kernel.nr_as; i++) {
		const char *uid = n->kernel.sorted[i]->pod_uid;
		const struct pod *p = NULL;

		if (last && !strcmp(last, uid))
			continue;
		last = uid;
		if (shown == 8) {
			more++;
			continue;
		}
		for (unsigned int k = 0; k < n->nr_pods && !p; k++)
			if (!strcmp(n->pods[k].pod.uid, uid))
				p = &n->pods[k].pod;
		if (p && p->name)
			strbuf_addf(&sb, "%s%s/%s (%s)", shown ? ", " : "",
				    p->ns ? p->ns : "default", p->name, uid);
		else
			strbuf_addf(&sb, "%s%s", shown ? ", " : "", uid);
		shown++;
	}
	if (more)
		strbuf_addf(&sb, " and %u more", more);
	list = strbuf_detach(&sb, NULL);
	if (list && shown)
		cm_error_prefix(err, "pods hold exclusive CPUs (%s): drain them first",
				list);
	free(list);
}

int ctl_refused_keep(const char *dir, struct cm_error *err)
{
	struct cm_error werr = { 0 };
	char *line = NULL;
	int len;

	ctl_note("the change was refused, the node keeps the settings it runs: %s",
		 cm_error_msg(err));
	len = asprintf(&line, "%s\n", cm_error_msg(err));
	cm_error_clear(err);
	if (len < 0 || atomic_file_write(dir, CTL_REFUSED, line, (size_t)len,
					 0644, 0, &werr)) {
		ctl_err("cannot record the refusal in %s: %s", dir,
			len < 0 ? "out of memory" : cm_error_msg(&werr));
		cm_error_clear(&werr);
		free(line);
		return CPUMGRCTL_EXIT_FAIL;
	}
	free(line);
	return CPUMGRCTL_EXIT_OK;
}

void ctl_refused_clear(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, CTL_REFUSED);
	if (unlink(path) && errno != ENOENT)
		ctl_note("cannot remove %s: %s", path, strerror(errno));
}
