// SPDX-License-Identifier: GPL-2.0
/* containerd's base-spec hooks and launched plugins (ctl_containerd.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "ctl_containerd.h"
#include "json_util.h"

/* A hook object running `cpumgrctl ... oci-hook ...`. */
static bool cpumgr_hook(const cJSON *h)
{
	const cJSON *path = json_member(h, "path"), *a;
	const char *base;

	if (!cJSON_IsString(path))
		return false;
	base = strrchr(path->valuestring, '/');
	base = base ? base + 1 : path->valuestring;
	if (strcmp(base, "cpumgrctl"))
		return false;
	cJSON_ArrayForEach(a, json_member(h, "args")) {
		if (cJSON_IsString(a) && !strcmp(a->valuestring, "oci-hook"))
			return true;
	}
	return false;
}

/* Drop cpumgr's hooks from every stage of hooks; how many went. */
static unsigned int drop_hooks(cJSON *hooks)
{
	unsigned int n = 0;
	cJSON *stage, *next;

	for (stage = hooks ? hooks->child : NULL; stage; stage = next) {
		cJSON *h = cJSON_IsArray(stage) ? stage->child : NULL, *hn;

		next = stage->next;
		for (; h; h = hn) {
			hn = h->next;
			if (cpumgr_hook(h)) {
				cJSON_Delete(cJSON_DetachItemViaPointer(stage, h));
				n++;
			}
		}
		if (cJSON_IsArray(stage) && !stage->child)
			cJSON_Delete(cJSON_DetachItemViaPointer(hooks, stage));
	}
	return n;
}

/* Add every hook of src's "hooks" to spec's, stage by stage. */
static int add_hooks(cJSON *spec, const cJSON *src, struct cm_error *err)
{
	cJSON *hooks = cJSON_GetObjectItemCaseSensitive(spec, "hooks");
	const cJSON *stage, *h;

	if (!hooks) {
		hooks = cJSON_AddObjectToObject(spec, "hooks");
		if (!hooks)
			return cm_errorf(err, "out of memory"), -1;
	}
	if (!cJSON_IsObject(hooks))
		return cm_errorf(err, "its \"hooks\" is no object"), -1;
	cJSON_ArrayForEach(stage, json_member(src, "hooks")) {
		cJSON *to = cJSON_GetObjectItemCaseSensitive(hooks, stage->string);

		if (!to)
			to = cJSON_AddArrayToObject(hooks, stage->string);
		if (!cJSON_IsArray(to))
			return cm_errorf(err, "its hooks.%s is no list",
					 stage->string), -1;
		cJSON_ArrayForEach(h, stage) {
			cJSON_AddItemToArray(to, cJSON_Duplicate(h, true));
		}
	}
	return 0;
}

/* The package's hooks: each one cpumgr's, its program there. */
static cJSON *load_hooks(const char *path, struct cm_error *err)
{
	cJSON *src = json_load(path, err), *stage, *h;

	if (!src)
		return cm_error_prefix(err, "the hooks cpumgr installs"), NULL;
	cJSON_ArrayForEach(stage, json_member(src, "hooks")) {
		cJSON_ArrayForEach(h, stage) {
			const cJSON *p = json_member(h, "path");

			if (!cpumgr_hook(h)) {
				cm_errorf(err, "%s: a hook that is not cpumgrctl oci-hook", path);
			} else if (access(p->valuestring, X_OK)) {
				cm_errorf(err, "%s: hook path %s: %s", path,
					  p->valuestring, strerror(errno));
			} else {
				continue;
			}
			cJSON_Delete(src);
			return NULL;
		}
	}
	return src;
}

static int write_spec(const char *path, const cJSON *spec,
		      struct cm_error *err)
{
	char dir[PATH_MAX], *text = cJSON_Print(spec), *slash;
	struct stat st;
	size_t len;
	int ret;

	if (!text)
		return cm_errorf(err, "out of memory"), -1;
	len = strlen(text);
	text[len++] = '\n';	/* cJSON_Print() left room: it ended in NUL */
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	ret = atomic_file_write(dir, slash + 1, text, len,
				stat(path, &st) ? 0644 : st.st_mode & 07777, 0,
				err);
	free(text);
	return ret ? -1 : 0;
}

int ctl_base_spec_hooks(const char *path, const char *hooks, FILE *log,
			struct cm_error *err)
{
	cJSON *spec, *src = NULL;
	unsigned int gone;
	int ret = -1;

	if (access(path, F_OK) && errno == ENOENT) {
		if (hooks)
			fprintf(log, "integration: no %s: containerd has no cpumgr hooks (make it as contrib/containerd/config.toml says)\n",
				path);
		return 0;
	}
	if (hooks) {
		src = load_hooks(hooks, err);
		if (!src)
			return -1;
	}
	spec = json_load(path, err);
	if (spec && !cJSON_IsObject(spec))
		cm_errorf(err, "%s: not a JSON object", path);
	else if (spec)
		ret = 0;
	gone = ret ? 0 : drop_hooks(cJSON_GetObjectItemCaseSensitive(spec, "hooks"));
	if (!ret && src)
		ret = add_hooks(spec, src, err);
	if (!ret && (src || gone))
		ret = write_spec(path, spec, err);
	if (ret)
		cm_error_prefix(err, "containerd's base spec %s", path);
	else if (src)
		fprintf(log, "integration: cpumgr's hooks in %s (containerd reads it when it starts: restart it)\n",
			path);
	else if (gone)
		fprintf(log, "integration: removed cpumgr's hooks from %s (containerd reads it when it starts: restart it)\n",
			path);
	cJSON_Delete(spec);
	cJSON_Delete(src);
	return ret;
}

bool ctl_base_spec_has_hooks(const char *path)
{
	struct cm_error err = { 0 };
	cJSON *spec = json_load(path, &err), *stage, *h;
	bool found = false;

	cm_error_clear(&err);
	cJSON_ArrayForEach(stage, json_member(spec, "hooks")) {
		cJSON_ArrayForEach(h, stage) {
			found = found || cpumgr_hook(h);
		}
	}
	cJSON_Delete(spec);
	return found;
}

/* "NN-cpumgr" or "NN-cpumgr-...", as the runtime names a plugin NN-NAME */
static bool plugin_name(const char *s)
{
	return s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' &&
	       !strncmp(s + 2, "-cpumgr", 7) && (!s[9] || s[9] == '-');
}

/* A link to a cpumgrctl, or a (script) file that names one. */
static bool runs_cpumgrctl(int dfd, const char *name)
{
	char buf[4096];
	ssize_t n;
	FILE *f;
	int fd;

	n = readlinkat(dfd, name, buf, sizeof(buf) - 1);
	if (n >= 0) {
		buf[n] = '\0';
		n = (ssize_t)strlen(buf);
		return n >= 9 && !strcmp(buf + n - 9, "cpumgrctl");
	}
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	n = (ssize_t)fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n > 0 ? n : 0] = '\0';
	return strstr(buf, "cpumgrctl") != NULL;
}

int ctl_nri_plugins_off(const char *dir, bool list, FILE *log,
			struct cm_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0, n = 0;

	if (!d)
		return errno == ENOENT ? 0 :
		       (cm_errorf(err, "%s: %s", dir, strerror(errno)), -1);
	while ((e = readdir(d)) && !ret) {
		if (!plugin_name(e->d_name) || !runs_cpumgrctl(dirfd(d), e->d_name))
			continue;
		n++;
		if (list) {
			fprintf(log, "%s/%s: an NRI plugin the runtime launches\n",
				dir, e->d_name);
		} else if (unlinkat(dirfd(d), e->d_name, 0)) {
			ret = cm_errorf(err, "cannot remove %s/%s: %s", dir,
					e->d_name, strerror(errno));
		} else {
			fprintf(log, "integration: removed %s/%s (an NRI plugin the runtime launched: it runs until the runtime restarts)\n",
				dir, e->d_name);
		}
	}
	closedir(d);
	return ret ? -1 : n;
}
