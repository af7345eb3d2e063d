// SPDX-License-Identifier: GPL-2.0
/*
 * Opening the node and bringing the state directory in line with the
 * kernel, which is authoritative.  A module that was reloaded has lost
 * its configuration and its table: both come back from config.json and
 * the checkpoint, the checkpoint validated first the way the kubelet's
 * restoreState() and the static policy's validateState() do.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node.h"
#include "node_internal.h"

/* Temp files of our own writers that died mid-write (we hold the lock). */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if ((!strncmp(de->d_name, "." NODE_CONFIG_FILE ".tmp.", 17) ||
		     !strncmp(de->d_name, "." NODE_COUNTERS_FILE ".tmp.", 19)))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
}

static int open_cgroups(struct node *n, struct cm_error *err)
{
	int ret;

	if (!n->files.has_config)
		return 0;
	ret = cgroupfs_init(&n->cgroups.fs, n->cfg.cgroup_mount, 0, err);
	if (ret)
		return ret;
	/* systemd's slices and scopes: their AllowedCPUs too */
	if (n->cfg.cgroup_driver == NODE_DRIVER_SYSTEMD)
		n->cgroups.fs.units = cgroupfs_systemd(NULL);
	return node_cgroup_name(n, n->cfg.cgroup_root, n->cgroups.root_name,
				sizeof(n->cgroups.root_name), err);
}

static bool kernel_configured(const struct node *n);

static void lock_waiting(void *arg, long holder)
{
	struct node *n = arg;

	if (holder > 0)
		node_log(n, "waiting for the lock held by pid %ld (%s/.%s.lock)",
			 holder, n->files.dir, CHECKPOINT_FILE);
	else
		node_log(n, "waiting for the lock held by another process (%s/.%s.lock)",
			 n->files.dir, CHECKPOINT_FILE);
}

/* Read-only: say what a sync would repair, repair nothing. */
static void note_unsynced(struct node *n)
{
	if (!n->files.has_config)
		return;
	if (!kernel_configured(n))
		node_log(n, "note: the module does not run the configuration of %s/%s; the next command that changes the node configures it",
			 n->files.dir, NODE_CONFIG_FILE);
}

/*
 * The checkpoint's pod pools and baselines, which only it holds: read at
 * every open (a file without them is not parsed).  A checkpoint that does
 * not read is left to node_sync()'s judgement.
 */
static int load_pod_level(struct node *n, struct cm_error *err)
{
	struct cm_error ignored = { 0 };
	struct checkpoint cp;
	size_t len;
	char *buf;
	int ret = checkpoint_store_read(&n->files.store, &buf, &len, &ignored);

	cm_error_clear(&ignored);
	if (ret)
		return 0;
	if ((memmem(buf, len, "podEntries", 10) ||
	     memmem(buf, len, "baselines", 9)) &&
	    !checkpoint_parse(buf, len, NULL, &cp, &ignored)) {
		ret = assignments_copy_pod_level(&n->files.pod_level, &cp.state);
		checkpoint_free(&cp);
	}
	cm_error_clear(&ignored);
	free(buf);
	return ret ? cm_errorf(err, "out of memory") : 0;
}

int node_open(struct node *n, const char *dir, unsigned int flags,
	      struct cm_error *err)
{
	return node_open_within(n, dir, flags, NODE_LOCK_TIMEOUT_MS, err);
}

int node_open_within(struct node *n, const char *dir, unsigned int flags,
		     int lock_timeout_ms, struct cm_error *err)
{
	char *msg = NULL;
	int ret;

	memset(n, 0, sizeof(*n));
	n->files.store.dir_fd = n->files.store.lock_fd = -1;
	/* repairs are diagnostics: stdout may carry a command's output */
	n->log = stderr;
	assignments_init(&n->assignments);
	if (strlen(dir) >= sizeof(n->files.dir))
		return cm_errorf(err, "%s: path too long", dir), -ENAMETOOLONG;
	strcpy(n->files.dir, dir);
	ret = checkpoint_store_open(&n->files.store, dir, NULL,
				    flags & NODE_CREATE, err);
	if (ret)
		return ret;
	n->read_only = flags & NODE_READ_ONLY;
	n->kernel.restricted_ok = flags & NODE_RESTRICTED_OK;
	if (n->read_only) {
		/* every file is replaced atomically: readers need no lock */
		ret = node_load_config(n, err);
	} else {
		n->files.store.waiting = lock_waiting;
		n->files.store.waiting_arg = n;
		ret = checkpoint_store_lock(&n->files.store, lock_timeout_ms,
					    err);
		if (!ret) {
			remove_stale(dir);
			ret = node_load_config(n, err);
		}
	}
	if (!ret && (flags & NODE_NEED_CONFIG) && !n->files.has_config)
		ret = cm_errorf(err, "%s/%s: not found: run 'cpumgrctl init' first",
				dir, NODE_CONFIG_FILE);
	if (!ret)
		ret = open_cgroups(n, err);
	if (!ret)
		ret = node_load_pods(n, err);
	if (!ret)
		ret = load_pod_level(n, err);
	if (ret)
		goto fail;
	n->kernel.nl = cpumgr_nl_open(&ret, &msg);
	if (!n->kernel.nl) {
		cm_errorf(err, "connect to cpumgr: %s%s%s", strerror(-ret),
			  msg ? ": " : "", msg ? msg : "");
		free(msg);
		goto fail;
	}
	ret = node_refresh(n, err);
	if (!ret && (flags & NODE_READ_ONLY))
		note_unsynced(n);
	else if (!ret && !(flags & NODE_NO_SYNC))
		ret = node_sync(n, flags, err);
	if (!ret) {
		/* the cgroups as the last change left them: on this pool */
		node_shared_pool(n, &n->narrowed_pool);
		n->reconciled_pool = n->narrowed_pool;
		return 0;
	}
fail:
	node_close(n);
	return ret ? ret : -EINVAL;
}

void node_close(struct node *n)
{
	cpumgr_table_free(&n->kernel.table);
	cpumgr_assignments_free(n->kernel.as, n->kernel.nr_as);
	free(n->kernel.sorted);
	free(n->kernel.cpus);
	topology_free(n->kernel.topo);
	assignments_free(&n->assignments);
	assignments_free(&n->files.pod_level);
	if (n->policy_ready)
		cpu_policy_destroy(&n->policy);
	for (unsigned int i = 0; i < n->nr_pods; i++)
		node_pod_free(&n->pods[i]);
	free(n->pods);
	if (n->kernel.nl)
		cpumgr_nl_close(n->kernel.nl);
	checkpoint_store_close(&n->files.store);
	free(n->files.written);
	quiet_saved_free(&n->quiet);
	memset(n, 0, sizeof(*n));
	n->files.store.dir_fd = n->files.store.lock_fd = -1;
}

/* The kernel refused the cgroup root: say which and why. */
static int root_error(struct node *n, const char *root, struct cm_error *err)
{
	struct stat st;

	node_nl_error(n, "configure", err);
	if (stat(root, &st))
		return cm_errorf(err, "configure: cgroup root %s: %s", root,
				 strerror(errno)), -ENOTDIR;
	if (!S_ISDIR(st.st_mode))
		return cm_errorf(err, "configure: cgroup root %s: %s", root,
				 strerror(ENOTDIR)), -ENOTDIR;
	cm_error_prefix(err, "cgroup root %s", root);
	return -ENOTDIR;
}

int node_configure(struct node *n, struct cm_error *err)
{
	char *reserved = cpuset_to_str(&n->cfg.reserved);
	bool is_static = n->cfg.policy == CPU_POLICY_STATIC;
	struct cpumgr_config kc = {
		.set = CPUMGR_CFG_POLICY | CPUMGR_CFG_OPTIONS |
		       CPUMGR_CFG_RESERVED | CPUMGR_CFG_ENFORCE |
		       CPUMGR_CFG_HOTPLUG | CPUMGR_CFG_CGROUP_ROOT,
		.policy = is_static ? CPUMGR_POLICY_STATIC : CPUMGR_POLICY_NONE,
		.options = is_static ? node_config_option_bits(&n->cfg) : 0,
		.reserved_cpus = is_static && reserved ? reserved : "",
		.enforce = n->cfg.enforce,
		.hotplug = n->cfg.hotplug,
	};
	char root[PATH_MAX], sys[PATH_MAX];
	int ret, made = 0;

	if (!reserved)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	if (node_system_path(n, sys, sizeof(sys), err)) {
		free(reserved);
		return -EINVAL;
	}
	/* "" takes one away; a module older than partitions is not asked */
	if (sys[0] || (n->kernel.table.system_cgroup &&
		       n->kernel.table.system_cgroup[0])) {
		kc.set |= CPUMGR_CFG_SYSTEM_CGROUP;
		kc.system_cgroup = sys;
	}
	/* the root of the hierarchy itself: every non-root cgroup */
	if (!n->cgroups.root_name[0])
		root[0] = '\0';
	else if (node_cgroup_path(n, n->cgroups.root_name, root, sizeof(root),
				  err)) {
		free(reserved);
		return -EINVAL;
	}
	kc.cgroup_root = root;
	/* the root is created when missing (a reboot, a cgroup removed) */
	if (root[0] && access(root, F_OK) && errno == ENOENT) {
		ret = cgroupfs_create(&n->cgroups.fs, n->cgroups.root_name,
				      NULL, err);
		if (ret) {
			free(reserved);
			cm_error_prefix(err, "cannot create the managed cgroup root %s",
					root);
			return ret;
		}
		node_log(n, "created the managed cgroup root %s", root);
	}
	/* the system partition's cgroup too, as the root */
	if (sys[0])
		made = node_system_make(n, err);
	if (made < 0) {
		free(reserved);
		return made;
	}
	ret = cpumgr_nl_configure(n->kernel.nl, &kc, NULL, NULL);
	free(reserved);
	if (ret && made)
		node_system_unmake(n);
	if (ret == -ENOTDIR && root[0])
		return root_error(n, root, err);
	if (ret)
		return node_nl_error(n, "configure", err);
	/* the configuration is the kernel's now: a round repairs the rest */
	if (sys[0] && node_system_setup(n, err)) {
		node_log(n, "%s: the system partition's CPUs not given: %s",
			 sys, cm_error_msg(err));
		cm_error_clear(err);
	}
	return node_refresh(n, err);
}

/*
 * Does the kernel hold the system cgroup of config.json?  Not when the
 * cgroup was removed (and maybe made again since): the kernel then shows
 * none.
 */
static bool system_configured(const struct node *n)
{
	char sys[PATH_MAX], real[PATH_MAX];
	const char *have = n->kernel.table.system_cgroup ?: "";
	struct cm_error err = { 0 };

	if (node_system_path(n, sys, sizeof(sys), &err)) {
		cm_error_clear(&err);
		return false;
	}
	/* the kernel's path is the directory's own, symbolic links resolved */
	return !strcmp(sys, have) ||
	       (sys[0] && realpath(sys, real) && !strcmp(real, have));
}

/* Does the kernel run config.json's policy, options and reserved CPUs? */
static bool policy_configured(const struct node *n)
{
	bool is_static = n->cfg.policy == CPU_POLICY_STATIC;

	if (n->kernel.table.policy != (is_static ? CPUMGR_POLICY_STATIC :
				       CPUMGR_POLICY_NONE))
		return false;
	if (!is_static)
		return true;
	return n->kernel.table.options == node_config_option_bits(&n->cfg) &&
	       cpuset_equal(&n->kernel.reserved, &n->cfg.reserved);
}

/* Does the kernel run the configuration of config.json? */
static bool kernel_configured(const struct node *n)
{
	return policy_configured(n) && system_configured(n);
}

int node_sync_configure(struct node *n, struct cm_error *err)
{
	char *want, *have;

	if (kernel_configured(n))
		return 0;
	/*
	 * Nothing held, or only the system cgroup to tell again (made
	 * anew): the settings the assignments depend on stay as they are.
	 */
	if (!n->kernel.nr_as || policy_configured(n)) {
		int ret = node_configure(n, err);

		if (!ret)
			node_log(n, "sync: configured the module from %s/%s%s",
				 n->files.dir, NODE_CONFIG_FILE,
				 n->kernel.nr_as ? " (its system cgroup)" : "");
		return ret;
	}
	want = cpuset_to_str(&n->cfg.reserved);
	have = cpuset_to_str(&n->kernel.reserved);
	cm_errorf(err, "the module runs policy \"%s\" with reserved CPUs \"%s\" and holds %zu assignment%s, %s/%s says policy \"%s\" with reserved CPUs \"%s\": release them ('cpumgrctl reset --force') or init again",
		  cpumgr_policy_name(n->kernel.table.policy) ?: "?", have ? have : "",
		  n->kernel.nr_as, n->kernel.nr_as == 1 ? "" : "s",
		  n->files.dir, NODE_CONFIG_FILE,
		  cpu_policy_name(n->cfg.policy), want ? want : "");
	free(want);
	free(have);
	return -EINVAL;
}

/* The kubelet's words, with our file and our remedy. */
static int restore_error(struct node *n, struct cm_error *err)
{
	cm_error_prefix(err, "could not restore state from checkpoint");
	return cm_errorf(err, "%s, please drain this node and delete the CPU manager checkpoint file \"%s/%s\" (or run 'cpumgrctl reset --force') before restarting cpumgrctl",
			 cm_error_msg(err), n->files.dir, CHECKPOINT_FILE);
}

/* validateState(): the checkpoint against the configuration. */
int node_validate_checkpoint(struct node *n, const struct checkpoint *cp,
			     struct cm_error *err)
{
	struct cpu_assignments copy;
	int ret;

	if (checkpoint_check_policy(cp, cpu_policy_name(n->cfg.policy), err))
		return -EINVAL;
	ret = node_policy(n, err);
	if (ret)
		return ret;
	assignments_init(&copy);
	ret = assignments_copy(&copy, &cp->state);
	if (!ret)
		ret = cpu_policy_start(&n->policy, &copy, err);
	assignments_free(&copy);
	return ret;
}

int node_try_state(struct node *n, int t, struct cpu_assignments *st,
		   struct cm_error *err)
{
	int ret;

	assignments_init(st);
	if (t && node_refresh(n, err))
		return -EIO;
	ret = node_policy(n, err);
	if (!ret && assignments_copy(st, &n->assignments)) {
		cm_errorf(err, "out of memory");
		ret = -ENOMEM;
	}
	if (ret)
		assignments_free(st);
	return ret;
}

/* A bound cgroup recorded for the pod, if its directory is still there. */
static const char *existing(const char *path)
{
	struct stat st;

	return path[0] && !stat(path, &st) && S_ISDIR(st.st_mode) ? path :
								    NULL;
}

int node_restore_state(struct node *n, const struct cpu_assignments *s,
		       struct cm_error *err)
{
	struct cpumgr_restore_entry *e = calloc(s->nr ? s->nr : 1, sizeof(*e));
	int ret;

	if (!e)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	for (unsigned int i = 0; i < s->nr; i++) {
		const struct assignment_entry *ce = &s->entries[i];
		struct node_pod *p = node_find_pod(n, ce->pod_uid);
		int k = p ? node_pod_container(p, ce->container) : -1;

		e[i].pod_uid = ce->pod_uid;
		e[i].container = ce->container;
		e[i].cpus = cpuset_to_str(&ce->cpus);
		if (!e[i].cpus) {
			ret = cm_errorf(err, "out of memory");
			goto out;
		}
		if (k >= 0) {
			const struct pod_container *c =
				&p->pod.containers[k];

			if (c->init && !c->restartable)
				e[i].flags = CPUMGR_ASSIGNMENT_F_INIT;
			e[i].cgroup_path = existing(p->c[k].cgroup);
			e[i].pod_cgroup_path = existing(p->pod_cgroup);
		}
	}
	ret = cpumgr_nl_restore(n->kernel.nl, e, s->nr, NULL, NULL);
	if (ret)
		ret = node_nl_error(n, "restore", err);
	/* the pods' pools, once their containers are back */
	for (unsigned int i = 0; !ret && i < s->nr_pods; i++) {
		struct cpuset held;

		assignments_pod_cpus(s, s->pods[i].pod_uid, NULL, &held);
		if (cpuset_empty(&held))
			continue;
		ret = node_assign_pool(n, s->pods[i].pod_uid, &s->pods[i].cpus,
				       NULL, NULL);
		if (ret)
			ret = node_nl_error(n, "restore a pod pool", err);
	}
out:
	for (unsigned int i = 0; i < s->nr; i++)
		free((char *)e[i].cpus);
	free(e);
	return ret ? ret : node_refresh(n, err);
}

static int restore(struct node *n, unsigned int flags, struct cm_error *err)
{
	struct checkpoint cp;
	int ret;

	ret = checkpoint_store_load(&n->files.store, NULL, &cp, err);
	if (ret == -ENOENT) {
		cm_error_clear(err);
		return 0;
	}
	if (ret) {
		if (flags & NODE_FORCE) {
			node_log(n, "sync: %s/%s: %s: rewritten from the kernel",
				 n->files.dir, CHECKPOINT_FILE, cm_error_msg(err));
			cm_error_clear(err);
			return 0;
		}
		cm_error_prefix(err, "%s/%s", n->files.dir, CHECKPOINT_FILE);
		return ret;
	}
	/* the kubelet's old file backend: node_sync() saves it with one */
	if (cp.unverified)
		node_log(n, "sync: %s/%s: no checksum (the kubelet's old file backend): taken unverified, written back with one",
			 n->files.dir, CHECKPOINT_FILE);
	if (n->kernel.nr_as || !cp.state.nr) {
		checkpoint_free(&cp);
		return 0;
	}
	ret = node_validate_checkpoint(n, &cp, err);
	if (ret) {
		checkpoint_free(&cp);
		return restore_error(n, err);
	}
	ret = node_restore_state(n, &cp.state, err);
	if (!ret)
		node_log(n, "sync: restored %u assignment%s from %s/%s",
			 cp.state.nr, cp.state.nr == 1 ? "" : "s",
			 n->files.dir, CHECKPOINT_FILE);
	checkpoint_free(&cp);
	return ret;
}

/* Does the pod have a container that should hold exclusive CPUs? */
static bool wants_exclusive(const struct node_pod *p)
{
	for (unsigned int i = 0; i < p->pod.nr; i++)
		if (!p->c[i].removed &&
		    pod_guaranteed_cpus(&p->pod, &p->pod.containers[i]) > 0)
			return true;
	return false;
}

/*
 * Pod files the kernel no longer backs: a remove that died between the
 * RELEASE and the file, or a table that was reset.
 */
static int prune_pods(struct node *n, struct cm_error *err)
{
	for (unsigned int i = 0; i < n->nr_pods;) {
		struct node_pod *p = &n->pods[i];
		char uid[POD_UID_MAX + 1];
		bool dirty = false;

		if (wants_exclusive(p) && !node_pod_in_kernel(n, p->pod.uid)) {
			strcpy(uid, p->pod.uid);
			if (node_delete_pod(n, uid, err))
				return -EIO;
			node_log(n, "sync: pod %s has no CPUs in the kernel: dropped %s/%s/%s.json",
				 uid, n->files.dir, NODE_PODS_DIR, uid);
			continue;
		}
		for (unsigned int k = 0; k < p->pod.nr; k++) {
			const struct pod_container *c = &p->pod.containers[k];

			if (p->c[k].removed ||
			    pod_guaranteed_cpus(&p->pod, c) <= 0 ||
			    node_assignment(n, p->pod.uid, c->name))
				continue;
			p->c[k].removed = true;
			p->c[k].cgroup[0] = '\0';
			dirty = true;
			node_log(n, "sync: container %s/%s has no CPUs in the kernel: marked removed",
				 p->pod.uid, c->name);
		}
		if (dirty && node_save_pod(n, p, err))
			return -EIO;
		i++;
	}
	return 0;
}

int node_sync(struct node *n, unsigned int flags, struct cm_error *err)
{
	int ret;

	if (!n->files.has_config)
		return 0;
	ret = node_sync_configure(n, err);
	if (!ret)
		ret = restore(n, flags, err);
	if (!ret && n->cfg.policy == CPU_POLICY_STATIC)
		ret = prune_pods(n, err);
	if (!ret)
		ret = node_save_checkpoint(n, flags, err);
	return ret;
}
