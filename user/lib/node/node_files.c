// SPDX-License-Identifier: GPL-2.0
/*
 * The state directory's own files besides the checkpoint: config.json and
 * counters.json.  Each is replaced the way the checkpoint is (temporary
 * file, fsync, rename, fsync of the directory) so a crash leaves either
 * the old or the new file, never half of one.  counters.json alone is not
 * synced: after a power loss it may be older or empty, which reads as
 * counters restarted, as the kubelet's own do when it restarts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "json_util.h"
#include "node.h"

int node_write_file(const char *dir, const char *name, const char *data,
		    size_t len, struct cm_error *err)
{
	return atomic_file_write(dir, name, data, len, 0644, 0, err);
}

int node_read_json(const char *path, cJSON **out, struct cm_error *err)
{
	FILE *f = fopen(path, "re");
	size_t len;
	char *buf;

	*out = NULL;
	if (!f) {
		int e = errno;

		cm_errorf(err, "%s: %s", path, strerror(e));
		return -e;
	}
	buf = file_slurp(f, &len);
	fclose(f);
	if (!buf)
		return cm_errorf(err, "%s: cannot read", path), -EIO;
	*out = cJSON_ParseWithLength(buf, len);
	free(buf);
	if (!*out)
		return cm_errorf(err, "%s: not valid JSON", path), -EINVAL;
	return 0;
}

/* A JSON document, printed for people and diffs, into dir/name. */
static int write_json(const char *dir, const char *name, const cJSON *j,
		      unsigned int flags, struct cm_error *err)
{
	char *text = j ? cJSON_Print(j) : NULL;
	int ret;

	if (!text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = atomic_file_write(dir, name, text, strlen(text), 0644, flags, err);
	free(text);
	return ret;
}

int node_load_config(struct node *n, struct cm_error *err)
{
	char path[PATH_MAX + 64];
	cJSON *j;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", n->files.dir, NODE_CONFIG_FILE);
	n->files.has_config = false;
	ret = node_read_json(path, &j, err);
	if (ret == -ENOENT) {
		cm_error_clear(err);
		node_config_default(&n->cfg);
		return 0;
	}
	if (ret)
		return ret;
	ret = node_config_from_json(&n->cfg, j, err);
	cJSON_Delete(j);
	if (ret) {
		cm_error_prefix(err, "%s", path);
		return ret;
	}
	n->files.has_config = true;
	return 0;
}

int node_save_config(struct node *n, struct cm_error *err)
{
	cJSON *j = node_config_to_json(&n->cfg);
	int ret = write_json(n->files.dir, NODE_CONFIG_FILE, j, 0, err);

	cJSON_Delete(j);
	if (!ret)
		n->files.has_config = true;
	return ret;
}

static uint64_t get_u64(const cJSON *j, const char *k)
{
	const cJSON *v = json_member(j, k);

	return cJSON_IsNumber(v) && v->valuedouble > 0 ?
	       (uint64_t)v->valuedouble : 0;
}

int node_counters_load(const struct node *n, struct node_counters *c)
{
	char path[PATH_MAX + 64];
	struct cm_error err = { 0 };
	cJSON *j;
	int ret;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "%s/%s", n->files.dir, NODE_COUNTERS_FILE);
	ret = node_read_json(path, &j, &err);
	cm_error_clear(&err);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	c->pinning_requests = get_u64(j, "pinningRequests");
	c->pinning_errors = get_u64(j, "pinningErrors");
	cJSON_Delete(j);
	return 0;
}

int node_counters_add(struct node *n, uint64_t requests, uint64_t errors,
		      struct cm_error *err)
{
	struct node_counters c;
	cJSON *j;
	int ret;

	if (!requests && !errors)
		return 0;
	node_counters_load(n, &c);
	j = cJSON_CreateObject();
	if (!j ||
	    !cJSON_AddNumberToObject(j, "pinningRequests",
				     (double)(c.pinning_requests + requests)) ||
	    !cJSON_AddNumberToObject(j, "pinningErrors",
				     (double)(c.pinning_errors + errors))) {
		cJSON_Delete(j);
		return cm_errorf(err, "out of memory"), -ENOMEM;
	}
	ret = write_json(n->files.dir, NODE_COUNTERS_FILE, j,
			 ATOMIC_FILE_NO_SYNC, err);
	cJSON_Delete(j);
	return ret;
}
