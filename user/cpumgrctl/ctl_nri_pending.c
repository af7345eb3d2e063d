// SPDX-License-Identifier: GPL-2.0
/* cpumgrctl nri: the CreateContainer calls not done (see ctl_nri_pending.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cmd.h"
#include "ctl_node.h"
#include "ctl_nri_pending.h"
#include "ctl_nri_update.h"
#include "json_util.h"
#include "nri_spec.h"

/* A container id is the file's name: the characters runtimes use. */
static bool id_ok(const char *id)
{
	size_t len = strlen(id);

	if (!len || len > OCI_ID_MAX || id[0] == '.')
		return false;
	return strspn(id, "abcdefghijklmnopqrstuvwxyz"
			  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == len;
}

static char *hex(const uint8_t *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *s = malloc(2 * len + 1);

	if (!s)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		s[2 * i] = digits[data[i] >> 4];
		s[2 * i + 1] = digits[data[i] & 15];
	}
	s[2 * len] = '\0';
	return s;
}

static int nibble(char c)
{
	return c >= '0' && c <= '9' ? c - '0' :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The bytes of a hex string, malloc'd; NULL when it is none. */
static uint8_t *unhex(const char *s, size_t *len)
{
	size_t n = strlen(s);
	uint8_t *b;

	if (n % 2)
		return NULL;
	b = malloc(n / 2 + 1);
	for (size_t i = 0; b && i < n / 2; i++) {
		int hi = nibble(s[2 * i]), lo = nibble(s[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(b);
			return NULL;
		}
		b[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return b;
}

static int pending_dir(const char *state, char *out, size_t len)
{
	return snprintf(out, len, "%s/%s", state, CTL_NRI_PENDING_DIR) >=
	       (int)len ? -ENAMETOOLONG : 0;
}

void ctl_nri_pending_note(struct ctl_nri *p, const struct nri_request *req,
			  char *path)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerRequest *in =
		UNPACK(create_container_request, req);
	struct cm_error err = { 0 };
	/* room for the name after it in path */
	char dir[PATH_MAX - OCI_ID_MAX - 8], name[OCI_ID_MAX + 6];
	cJSON *rec = cJSON_CreateObject();
	char *text = NULL, *data = NULL;

	path[0] = '\0';
	if (!in || !in->container || !id_ok(in->container->id) || !rec ||
	    pending_dir(ctl_state_dir(p->dir), dir, sizeof(dir)))
		goto out;
	snprintf(name, sizeof(name), "%s.json", in->container->id);
	data = hex(req->payload.data, req->payload.len);
	if (!data ||
	    !cJSON_AddStringToObject(rec, "mode", p->rt.mode == CTL_MODE_GUARD ?
				     "guard" : "decide") ||
	    !cJSON_AddStringToObject(rec, "kubeletState",
				     p->rt.kubelet_state ?: "") ||
	    !cJSON_AddStringToObject(rec, "request", data))
		goto out;
	text = cJSON_PrintUnformatted(rec);
	/* a note: losing it to a power cut costs nothing, no sync */
	if (!text || atomic_file_mkdir(dir, 0700, &err) ||
	    atomic_file_write(dir, name, text, strlen(text), 0600,
			      ATOMIC_FILE_NO_SYNC, &err)) {
		ctl_err("nri: %s: not noted: %s", in->container->id,
			cm_error_msg(&err)[0] ? cm_error_msg(&err) : "out of memory");
		goto out;
	}
	snprintf(path, PATH_MAX, "%s/%s", dir, name);
out:
	cm_error_clear(&err);
	free(text);
	free(data);
	cJSON_Delete(rec);
	if (in)
		FREE(create_container_request, in);
}

void ctl_nri_pending_done(const char *path)
{
	if (path[0])
		unlink(path);
}

void ctl_nri_pending_clear(struct ctl_nri *p)
{
	char dir[PATH_MAX], path[2 * PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (pending_dir(ctl_state_dir(p->dir), dir, sizeof(dir)))
		return;
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
}

/* The recorded container follows c (its instance): someone added it. */
static bool recorded(struct node *n, const struct oci_container *c)
{
	const struct node_pod *pod = node_find_pod(n, c->pod_uid);
	int k = pod ? node_pod_container(pod, c->name) : -1;

	return k >= 0 && !pod->c[k].removed && pod->c[k].cgroup[0] &&
	       ctl_runtime_follows(n, c->pod_uid, c->name, c->cgroups_path);
}

/*
 * One file: 1 when its container was added now, 0 when the file stays
 * or went; the file goes once the container is recorded, refused for
 * good (not a container of ours, a request that does not parse) or
 * older than CTL_NRI_PENDING_MAX_S without running.
 */
static int settle(struct node *n, const char *path)
{
	Nri__Pkg__Api__V1alpha1__CreateContainerRequest *in = NULL;
	struct ctl_runtime rt = { .kubelet_state = CTL_KUBELET_STATE };
	const cJSON *mode, *state, *req;
	struct cm_error err = { 0 };
	char cgroup[PATH_MAX], cpus[256];
	struct oci_container c;
	uint8_t *bytes = NULL;
	cJSON *rec = NULL;
	struct stat st;
	size_t len = 0;
	int ret = 0;
	bool done = true;

	/* gone meanwhile: the plugin finished the call */
	if (stat(path, &st))
		return 0;
	if (node_read_json(path, &rec, &err))
		goto out;
	mode = json_member(rec, "mode");
	state = json_member(rec, "kubeletState");
	req = json_member(rec, "request");
	if (!cJSON_IsString(mode) || !cJSON_IsString(req) ||
	    ctl_runtime_mode(mode->valuestring, &rt.mode) ||
	    !(bytes = unhex(req->valuestring, &len)) ||
	    !(in = nri__pkg__api__v1alpha1__create_container_request__unpack(
		      NULL, len, bytes)) || !in->container) {
		cm_errorf(&err, "not a CreateContainer noted by cpumgrctl nri");
		goto out;
	}
	if (cJSON_IsString(state) && state->valuestring[0])
		rt.kubelet_state = state->valuestring;
	if (nri_spec_container(in->pod, in->container, &c, &err) ||
	    c.kind == OCI_UNMANAGED || recorded(n, &c) ||
	    nri_spec_shared_cpus(in->pod, &c, &err) ||
	    nri_spec_isolation(in->pod, &c, &err) ||
	    ctl_runtime_spec_cgroup(n, c.cgroups_path, cgroup, sizeof(cgroup),
				    &err))
		goto out;
	if (!node_cgroup_has_tasks(n, cgroup)) {
		/* not created yet, or it never ran */
		done = time(NULL) - st.st_mtime > CTL_NRI_PENDING_MAX_S;
		goto out;
	}
	if (ctl_runtime_add(n, &rt, &c, cgroup, false, &err)) {
		/* the next round tries again */
		done = false;
		goto out;
	}
	ctl_nri_cpus_of(n, c.pod_uid, c.name, cpus, sizeof(cpus));
	node_log_sev(n, NODE_LOG_WARNING,
		     "nri: container %s (%s/%s) runs, created without cpumgr's answer (its CreateContainer did not finish in the runtime's time): added, cpuset %s",
		     c.id, c.pod_uid, c.name, cpus);
	ret = 1;
out:
	if (cm_error_msg(&err)[0])
		node_log_sev(n, NODE_LOG_WARNING, "nri: %s: %s%s", path,
			     cm_error_msg(&err), done ? "; dropped" : "");
	cm_error_clear(&err);
	if (done)
		unlink(path);
	if (in)
		nri__pkg__api__v1alpha1__create_container_request__free_unpacked(in, NULL);
	free(bytes);
	cJSON_Delete(rec);
	return ret;
}

int ctl_nri_pending_round(struct node *n, void *arg, struct cm_error *err)
{
	char dir[PATH_MAX], path[2 * PATH_MAX];
	struct dirent *e;
	int added = 0;
	DIR *d;

	if (pending_dir(n->files.dir, dir, sizeof(dir)))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		/* "." "..", and a note being written */
		if (e->d_name[0] == '.' || l < 6 ||
		    strcmp(e->d_name + l - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		added += settle(n, path);
	}
	closedir(d);
	return added;
}
