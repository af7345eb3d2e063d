// SPDX-License-Identifier: GPL-2.0
/*
 * Quiet CPUs for the containers that ask (pod.h's isolation
 * annotations), on the quiet layer:
 *
 * - a container's own: its cgroup an isolated partition on exactly its
 *   exclusive CPUs (cpu-load-balancing), made when it is attached and
 *   at every reconcile, undone before its CPUs are released; its CFS
 *   quota lifted (cpu-quota) is node_cgroup.c's;
 * - the node's, from every running container that asks: interrupts
 *   kept off their CPUs (irq-load-balancing; "housekeeping" leaves the
 *   first CPU and its SMT siblings), irqbalance told, idle states and
 *   governors set; what was there saved in the state directory
 *   (quiet.json) before it changes, and put back when no container asks
 *   any more; a restart keeps it, a reboot forgets what the kernel
 *   reset (quiet_saved.h), and the next sync reads its values again.
 *
 * Only a container holding exclusive CPUs is isolated, as CRI-O runs its
 * hooks for Guaranteed containers with whole CPUs alone: a pod's key
 * that reaches a container on the shared pool is a warning, a key naming
 * that container a refusal at its attach.  Where the kernel exposes no
 * idle states or governors (a virtual machine), asking for them is a
 * warning; a governor the CPUs do not offer is a refusal.
 *
 * Calls no other node_*.c but the log, the state directory's files and
 * the kernel's view: node_cgroup.c, node_attach.c and node_reconcile.c
 * call it with the cgroup names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node.h"
#include "node_internal.h"
#include "quiet_cpu.h"
#include "quiet_irq.h"
#include "quiet_partition.h"
#include "quiet_sysfs.h"

/* The first CPU of cpus and its SMT siblings among them (CRI-O's). */
static void housekeeping(const struct node *n, const struct cpuset *cpus,
			 struct cpuset *out)
{
	int first = cpuset_next(cpus, 0), core = -1;

	cpuset_zero(out);
	if (first < 0)
		return;
	for (unsigned int i = 0; i < n->kernel.nr_cpus; i++)
		if (n->kernel.cpus[i].cpu == first)
			core = n->kernel.cpus[i].core_cpu;
	for (unsigned int i = 0; i < n->kernel.nr_cpus; i++)
		if (core >= 0 && n->kernel.cpus[i].core_cpu == core)
			cpuset_set(out, (unsigned int)n->kernel.cpus[i].cpu);
	cpuset_set(out, (unsigned int)first);
	cpuset_and(out, out, cpus);
}

void node_quiet_housekeeping(const struct node *n, const struct pod_isolation *iso,
			     const struct cpuset *cpus, struct cpuset *out)
{
	if (iso->irq == POD_IRQ_HOUSEKEEPING)
		housekeeping(n, cpus, out);
	else
		cpuset_zero(out);
}

/* The container's exclusive CPUs, false when it has none. */
static bool exclusive_cpus(const struct node *n, const struct node_pod *p,
			   unsigned int k, struct cpuset *out)
{
	const struct cpumgr_assignment *a =
		node_assignment(n, p->pod.uid, p->pod.containers[k].name);

	return a && a->cpus && !cpuset_parse(out, a->cpus, NULL) &&
	       !cpuset_empty(out);
}

/* Some of its CPUs have no idle states / governor: said once, here. */
static void exposed(struct node *n, const struct node_pod *p, unsigned int k,
		    const struct cpuset *cpus, char *warn, size_t len)
{
	const struct pod_isolation *iso = &p->pod.containers[k].iso;
	bool idle = true, freq = true;
	int cpu;

	cpuset_for_each(cpu, cpus) {
		idle &= quiet_cpuidle_exposed(n->cfg.sys_mount, (unsigned int)cpu);
		freq &= quiet_cpufreq_exposed(n->cfg.sys_mount, (unsigned int)cpu);
	}
	if (iso->cstates[0] && !idle)
		snprintf(warn, len, "pod %s container %s: %s=%s not applied: the kernel exposes no cpuidle states for all of its CPUs (%.200s/devices/system/cpu/cpuN/cpuidle)",
			 p->pod.uid, p->pod.containers[k].name,
			 pod_isolation_name(POD_ISO_CSTATES), iso->cstates,
			 n->cfg.sys_mount);
	else if (iso->governor[0] && !freq)
		snprintf(warn, len, "pod %s container %s: %s=%s not applied: the kernel exposes no cpufreq governor for all of its CPUs (%.200s/devices/system/cpu/cpuN/cpufreq)",
			 p->pod.uid, p->pod.containers[k].name,
			 pod_isolation_name(POD_ISO_GOVERNOR), iso->governor,
			 n->cfg.sys_mount);
}

/* A governor none of its CPUs offers is refused before anything is set. */
static int governor_offered(struct node *n, const struct node_pod *p,
			    unsigned int k, const struct cpuset *cpus,
			    struct cm_error *err)
{
	const char *gov = p->pod.containers[k].iso.governor;
	char path[PATH_MAX + 96], list[512];
	int cpu;

	if (!gov[0])
		return 0;
	cpuset_for_each(cpu, cpus) {
		char *tok, *save = NULL;
		bool found = false;

		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%d/cpufreq/scaling_available_governors",
			 n->cfg.sys_mount, cpu);
		if (!quiet_cpufreq_exposed(n->cfg.sys_mount, (unsigned int)cpu))
			continue;
		if (!quiet_read_value(path, list, sizeof(list)))
			for (tok = strtok_r(list, " \t", &save); tok && !found;
			     tok = strtok_r(NULL, " \t", &save))
				found = !strcmp(tok, gov);
		if (!found)
			return cm_errorf(err, "pod %s container %s: %s=%s: CPU %d offers no such governor (%s)",
					 p->pod.uid, p->pod.containers[k].name,
					 pod_isolation_name(POD_ISO_GOVERNOR),
					 gov, cpu, path);
	}
	return 0;
}

int node_quiet_check(struct node *n, const struct node_pod *p, unsigned int k,
		     struct cm_error *err)
{
	const struct pod_isolation *iso = &p->pod.containers[k].iso;
	char what[256];
	struct cpuset cpus;

	if (!pod_isolation_any(iso))
		return 0;
	if (!exclusive_cpus(n, p, k, &cpus)) {
		if (!iso->by_container)
			return 0;
		pod_isolation_describe(iso, what, sizeof(what));
		return cm_errorf(err, "pod %s container %s: %s: only a container with exclusive CPUs (a Guaranteed pod's, with an integer CPU request) can be isolated, and this one runs on the shared pool",
				 p->pod.uid, p->pod.containers[k].name, what);
	}
	return governor_offered(n, p, k, &cpus, err) ? -EINVAL : 0;
}

void node_quiet_warn(struct node *n, const struct node_pod *p, unsigned int k)
{
	const struct pod_isolation *iso = &p->pod.containers[k].iso;
	char what[256];
	struct cpuset cpus;

	if (!pod_isolation_any(iso))
		return;
	if (exclusive_cpus(n, p, k, &cpus)) {
		exposed(n, p, k, &cpus, n->warning, sizeof(n->warning));
	} else {
		pod_isolation_describe(iso, what, sizeof(what));
		snprintf(n->warning, sizeof(n->warning),
			 "pod %s container %s: the pod's %s not applied: it runs on the shared pool (only containers with exclusive CPUs are isolated)",
			 p->pod.uid, p->pod.containers[k].name, what);
	}
	if (n->warning[0])
		node_log_sev(n, NODE_LOG_WARNING, "%s", n->warning);
}

/*
 * A cgroup some recorded container of the node has (its path as the
 * pod files keep it): not left behind.
 */
static bool recorded(const char *name, void *arg)
{
	struct node *n = arg;
	struct cm_error err = { 0 };
	char path[PATH_MAX];

	if (cgroupfs_path(&n->cgroups.fs, CGROUPFS_CPUSET, name, NULL, path,
			  sizeof(path), &err)) {
		cm_error_clear(&err);
		return true;
	}
	for (unsigned int i = 0; i < n->nr_pods; i++)
		for (unsigned int k = 0; k < n->pods[i].pod.nr; k++)
			if (!strcmp(n->pods[i].c[k].cgroup, path))
				return true;
	return false;
}

/* The same CPUs assigned again, once more after a refresh if refused. */
static int assign_again(struct node *n, const char *uid, const char *c,
			const char *cpus, uint32_t flags, struct cm_error *err)
{
	struct cm_error ignored = { 0 };

	if (!node_assign(n, uid, c, cpus, flags, NULL, NULL))
		return 0;
	node_refresh(n, &ignored);
	cm_error_clear(&ignored);
	if (!node_assign(n, uid, c, cpus, flags, NULL, NULL))
		return 0;
	node_log_sev(n, NODE_LOG_ERR, "%s/%s: released to undo its last instance's partition, CPUs %s not assigned again: %s",
		     uid, c, cpus, cpumgr_nl_errmsg(n->kernel.nl));
	return node_nl_error(n, "assign", err);
}

/*
 * Container k about to start again (a restart keeps its CPUs; the pool
 * moved by partitions): the partition its last instance left below the
 * pod's cgroup, which its runtime could not remove, holds its CPUs, so
 * that its new cgroup, still without a task, can be none.  The kernel
 * refuses that partition undone while the CPUs are the container's (the
 * pool would inherit them): the container is released for the moment,
 * the partition undone and its cgroup removed, and the same CPUs
 * assigned, its partition pending, and its new cgroup bound again.  It
 * runs nowhere meanwhile; tasks on the pool may, until its partition is
 * made.  Not for a container a release-mode offline degraded: its
 * top-up is owed.
 */
static int clear_last_instance(struct node *n, const struct node_pod *p,
			       unsigned int k, const char *name,
			       const struct cpuset *cpus, struct cm_error *err)
{
	const char *c = p->pod.containers[k].name;
	const struct cpumgr_assignment *a = node_assignment(n, p->pod.uid, c);
	struct cm_error scan = { 0 };
	char parent[PATH_MAX], *text;
	unsigned int found = 0;
	uint32_t flags;
	int ret;

	cgroupfs_parent(name, parent, sizeof(parent));
	if (n->cfg.pool_moves != NODE_POOL_PARTITIONS || !a || !a->cpus ||
	    (a->flags & CPUMGR_ASSIGNMENT_F_DEGRADED) ||
	    !quiet_unpopulated(&n->cgroups.fs, name))
		return 0;
	/* a scan that fails finds nothing to clear: the move goes on */
	if (quiet_part_left(&n->cgroups.fs, parent, recorded, n, cpus, false,
			    &found, &scan))
		found = 0;
	cm_error_clear(&scan);
	if (!found)
		return 0;
	text = strdup(a->cpus);
	flags = (a->flags & CPUMGR_ASSIGNMENT_F_USER) |
		CPUMGR_ASSIGNMENT_F_PARTITION_PENDING;
	if (!text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = cpumgr_nl_release(n->kernel.nl, p->pod.uid, c, NULL, NULL) ?
	      node_nl_error(n, "release", err) : 0;
	if (!ret)
		ret = quiet_part_left(&n->cgroups.fs, parent, recorded, n, cpus,
				      true, &found, err);
	/* assigned again whatever the undo did: the CPUs stay its own */
	if (assign_again(n, p->pod.uid, c, text, flags, ret ? NULL : err)) {
		ret = ret ?: -EIO;
	} else if (cpumgr_nl_bind(n->kernel.nl, p->pod.uid, c, p->c[k].cgroup,
				  p->pod_cgroup[0] ? p->pod_cgroup : NULL,
				  NULL, NULL)) {
		if (!ret)
			ret = node_nl_error(n, "bind", err);
	} else if (!ret) {
		node_log(n, "%s/%s: the partition its last instance left on CPUs %s undone (released and assigned again)",
			 p->pod.uid, c, text);
	}
	free(text);
	if (ret) {
		struct cm_error ignored = { 0 };

		node_refresh(n, &ignored);
		cm_error_clear(&ignored);
		return ret;
	}
	return node_refresh(n, err);
}

/*
 * Container k's partition stands: the pool let go of its CPUs, and the
 * kernel counts them at every task entry again.  The kernel refuses
 * this while a cgroup with tasks still holds one.  At the generation
 * read, so that a release meanwhile is not undone.  Not for a container
 * a release-mode offline degraded: the ASSIGN would clear that mark and
 * the CPUs its top-up owes; the top-up keeps this flag, and the apply
 * after it, its partition moved, clears it.
 */
static int partition_made(struct node *n, const struct node_pod *p,
			  unsigned int k, struct cm_error *err)
{
	const char *c = p->pod.containers[k].name;
	int ret = -ESTALE;

	for (int t = 0; t < 3 && ret == -ESTALE; t++) {
		const struct cpumgr_assignment *a;
		uint64_t expect, gen;
		char *text;

		if (t && node_refresh(n, err))
			return -EIO;
		a = node_assignment(n, p->pod.uid, c);
		if (!a || !a->cpus ||
		    !(a->flags & CPUMGR_ASSIGNMENT_F_PARTITION_PENDING) ||
		    (a->flags & CPUMGR_ASSIGNMENT_F_DEGRADED))
			return 0;
		expect = n->kernel.table.generation;
		text = strdup(a->cpus);
		if (!text)
			return cm_errorf(err, "out of memory"), -ENOMEM;
		ret = node_assign(n, p->pod.uid, c, text,
				  a->flags & CPUMGR_ASSIGNMENT_F_USER &
				  ~CPUMGR_ASSIGNMENT_F_PARTITION_PENDING,
				  &expect, &gen);
		free(text);
		if (!ret)
			node_own_change(n, expect, gen);
	}
	if (ret)
		return node_nl_error(n, "assign (its partition made)", err);
	return node_refresh(n, err);
}

int node_quiet_container(struct node *n, const struct node_pod *p,
			 unsigned int k, const char *name,
			 const struct cpuset *cpus, bool exclusive,
			 bool verbose, struct cm_error *err)
{
	const struct pod_container *c = &p->pod.containers[k];
	enum quiet_part state;
	char text[256], parent[PATH_MAX];
	bool changed = false;
	int ret;

	if (n->cgroups.fs.version != 2)
		return 0;
	if (exclusive && node_quiet_partitioned(n, p, k)) {
		ret = quiet_part_make(&n->cgroups.fs, name, cpus,
				      c->iso.cpu_lb_off, &changed, err);
		if (ret) {
			if (c->iso.cpu_lb_off)
				cm_error_prefix(err, "pod %s container %s: %s=disable",
						p->pod.uid, c->name,
						pod_isolation_name(POD_ISO_CPU_LB));
			else
				cm_error_prefix(err, "pod %s container %s: its partition (the pool moves by partitions)",
						p->pod.uid, c->name);
			return ret;
		}
		cpuset_format(cpus, text, sizeof(text));
		if (changed || verbose)
			node_log(n, "%s/%s: %s %s partition on CPUs %s",
				 p->pod.uid, c->name, p->c[k].cgroup,
				 c->iso.cpu_lb_off ? "an isolated" : "a",
				 text);
		ret = partition_made(n, p, k, err);
		return ret ? ret : changed;
	}
	/* no longer asked, or not exclusive: a partition it had goes */
	if (quiet_part_state(&n->cgroups.fs, name, &state, NULL, 0, err) ||
	    state == QUIET_PART_MEMBER) {
		cm_error_clear(err);
		return 0;
	}
	cgroupfs_parent(name, parent, sizeof(parent));
	/* its CPUs now may be the shared pool's: undo what it held */
	ret = quiet_part_undo(&n->cgroups.fs, parent, name, NULL, err);
	if (!ret)
		node_log(n, "%s/%s: %s no longer a partition", p->pod.uid,
			 c->name, p->c[k].cgroup);
	return ret ? ret : 1;
}

int node_quiet_move(struct node *n, const struct node_pod *p, unsigned int k,
		    const char *name, const struct cpuset *cpus, bool exclusive,
		    bool verbose, struct cm_error *err)
{
	struct cm_error ignored = { 0 };
	enum quiet_part state;
	bool valid;
	int ret;

	if (n->cgroups.fs.version != 2 || !exclusive ||
	    !node_quiet_partitioned(n, p, k))
		return 0;
	ret = clear_last_instance(n, p, k, name, cpus, err);
	if (ret)
		return ret;
	valid = !quiet_part_state(&n->cgroups.fs, name, &state, NULL, 0,
				  &ignored) &&
		(state == QUIET_PART_ROOT || state == QUIET_PART_ISOLATED);
	cm_error_clear(&ignored);
	return valid ? node_quiet_container(n, p, k, name, cpus, exclusive,
					    verbose, err) : 0;
}

bool node_quiet_pending(const struct node *n)
{
	return n->cfg.pool_moves == NODE_POOL_PARTITIONS &&
	       n->cgroups.fs.version == 2;
}

bool node_quiet_partitioned(const struct node *n, const struct node_pod *p,
			    unsigned int k)
{
	return p->pod.containers[k].iso.cpu_lb_off ||
	       n->cfg.pool_moves == NODE_POOL_PARTITIONS;
}

int node_quiet_release(struct node *n, const char *uid, const char *container,
		       const char *parent, const char *name,
		       const struct cpuset *cpus, struct cm_error *err)
{
	struct cm_error ignored = { 0 };
	const char *gone = NULL;
	unsigned int left = 0;
	enum quiet_part state;
	char text[256];
	int ret = 0;

	if (n->cgroups.fs.version != 2 || !parent || !parent[0])
		return 0;
	/*
	 * The pool moved by partitions, the container ended: its runtime
	 * could not remove its cgroup while the CPUs were its own; now it
	 * goes (the one left behind when cpumgr no longer has the name).
	 */
	if (!name && n->cfg.pool_moves == NODE_POOL_PARTITIONS)
		ret = quiet_part_left(&n->cgroups.fs, parent, recorded, n, cpus,
				      true, &left, err);
	/* a partition its runtime may have failed to remove: this one */
	if (!ret && name && n->cfg.pool_moves == NODE_POOL_PARTITIONS &&
	    !quiet_part_state(&n->cgroups.fs, name, &state, NULL, 0, &ignored) &&
	    state != QUIET_PART_MEMBER && quiet_unpopulated(&n->cgroups.fs, name))
		gone = name;
	cm_error_clear(&ignored);
	if (!ret)
		ret = quiet_part_undo(&n->cgroups.fs, parent, name, cpus, err);
	if (!ret && gone && !cgroupfs_remove(&n->cgroups.fs, gone, &ignored))
		left++;
	cm_error_clear(&ignored);
	if (ret)
		return ret;
	cpuset_format(cpus, text, sizeof(text));
	node_log(n, "%s/%s: partition on CPUs %s undone%s", uid, container,
		 text, left ? ", the cgroup its runtime left removed" : "");
	return 0;
}

/* ---- the node's interrupts, idle states and governors ---- */

struct wanted {
	struct cpuset irq_off;
	/* per CPU: what the container holding it asks ("" nothing) */
	const char **cstates, **governor;
};

/* What every running container that may be isolated asks of the node. */
static int wanted(struct node *n, struct wanted *w, struct cm_error *err)
{
	cpuset_zero(&w->irq_off);
	w->cstates = calloc(CPUSET_MAX_CPUS, sizeof(*w->cstates));
	w->governor = calloc(CPUSET_MAX_CPUS, sizeof(*w->governor));
	if (!w->cstates || !w->governor)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	for (unsigned int i = 0; i < n->nr_pods; i++) {
		const struct node_pod *p = &n->pods[i];

		for (unsigned int k = 0; k < p->pod.nr; k++) {
			const struct pod_isolation *iso =
				&p->pod.containers[k].iso;
			struct cpuset cpus, keep;
			int cpu;

			/* a container that ended gives its CPUs no work */
			if (!pod_isolation_any(iso) || p->c[k].removed ||
			    p->c[k].exited || !p->c[k].cgroup[0] ||
			    !exclusive_cpus(n, p, k, &cpus))
				continue;
			if (iso->irq != POD_IRQ_ON) {
				node_quiet_housekeeping(n, iso, &cpus, &keep);
				cpuset_andnot(&keep, &cpus, &keep);
				cpuset_or(&w->irq_off, &w->irq_off, &keep);
			}
			cpuset_for_each(cpu, &cpus) {
				if (iso->cstates[0])
					w->cstates[cpu] = iso->cstates;
				if (iso->governor[0])
					w->governor[cpu] = iso->governor;
			}
		}
	}
	return 0;
}

static void wanted_free(struct wanted *w)
{
	free(w->cstates);
	free(w->governor);
}

/* This boot's id ("" where procfs has none: a test's tree). */
static void boot_id(const struct node *n, char *buf, size_t len)
{
	char path[PATH_MAX + 40];

	snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id",
		 n->cfg.proc_mount);
	if (quiet_read_value(path, buf, len))
		buf[0] = '\0';
}

static int load(struct node *n, struct cm_error *err)
{
	char path[PATH_MAX + 32], boot[QUIET_BOOT_ID_MAX];
	cJSON *j;
	int ret;

	if (n->quiet_loaded)
		return 0;
	quiet_saved_init(&n->quiet);
	boot_id(n, boot, sizeof(boot));
	snprintf(path, sizeof(path), "%s/%s", n->files.dir, NODE_QUIET_FILE);
	ret = node_read_json(path, &j, err);
	if (ret == -ENOENT) {
		cm_error_clear(err);
		quiet_saved_rebooted(&n->quiet, boot);
		n->quiet_loaded = true;
		return 0;
	}
	if (!ret)
		ret = quiet_saved_from_json(&n->quiet, j, err);
	cJSON_Delete(j);
	if (ret)
		return ret;
	if (quiet_saved_rebooted(&n->quiet, boot))
		node_log(n, "quiet: %s is of an earlier boot: the interrupts' and CPUs' values read again",
			 path);
	n->quiet_loaded = true;
	return 0;
}

static int save(struct node *n, struct cm_error *err)
{
	char path[PATH_MAX + 32], *text;
	cJSON *j;
	int ret;

	if (quiet_saved_empty(&n->quiet)) {
		snprintf(path, sizeof(path), "%s/%s", n->files.dir,
			 NODE_QUIET_FILE);
		return unlink(path) && errno != ENOENT ?
		       cm_errorf(err, "%s: %s", path, strerror(errno)) : 0;
	}
	j = quiet_saved_to_json(&n->quiet);
	text = j ? cJSON_Print(j) : NULL;
	cJSON_Delete(j);
	if (!text)
		return cm_errorf(err, "out of memory"), -ENOMEM;
	ret = node_write_file(n->files.dir, NODE_QUIET_FILE, text,
			      strlen(text), err);
	free(text);
	return ret;
}

/* n->quiet as compact JSON text, to tell a change (NULL: no memory). */
static char *saved_text(const struct node *n)
{
	cJSON *j = quiet_saved_to_json(&n->quiet);
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;

	cJSON_Delete(j);
	return text;
}

/* A sync, and what its state directory holds as saved_text() has it. */
struct quiet_sync {
	struct node *n;
	char *saved;			/* NULL: unknown */
};

/* The quiet_*() calls' persist: saved, and known to be. */
static int persist(void *arg, struct cm_error *err)
{
	struct quiet_sync *qs = arg;
	int ret = save(qs->n, err);

	if (!ret) {
		free(qs->saved);
		qs->saved = saved_text(qs->n);
	}
	return ret;
}

/*
 * irqbalance's file says off even when it does not run, so that a later
 * start reads it; restarted only when it runs.  No file, no irqbalance.
 */
static void irqbalance(struct quiet_sync *qs, const struct cpuset *off)
{
	struct node *n = qs->n;
	bool runs = quiet_irqbalance_running(n->cfg.proc_mount), changed;
	struct cm_error err = { 0 };
	int ret;

	ret = quiet_irqbalance_ban(n->cfg.irqbalance_config, off, &n->quiet,
				   persist, qs, &changed, &err);
	if (ret == -ENOENT && !runs)	/* none installed */
		ret = 0;
	if (ret)
		node_log_sev(n, NODE_LOG_WARNING,
			     runs ? "quiet: irqbalance runs and may move interrupts back: %s" :
			     "quiet: irqbalance's file not updated, it would move interrupts back if started: %s",
			     cm_error_msg(&err));
	else if (changed && runs &&
		 quiet_run(n->cfg.irqbalance_restart, &err))
		node_log_sev(n, NODE_LOG_WARNING,
			     "quiet: irqbalance not restarted: %s",
			     cm_error_msg(&err));
	else if (changed)
		node_log(n, "quiet: irqbalance's banned CPUs in %s: %s",
			 n->cfg.irqbalance_config,
			 cpuset_empty(off) ? "as they were" : "updated");
	cm_error_clear(&err);
}

static int irqs(struct quiet_sync *qs, const struct cpuset *off, bool full,
		struct cm_error *err)
{
	struct node *n = qs->n;
	struct quiet_irq_result r;
	char text[256];
	int ret;

	if (!full && cpuset_equal(off, &n->quiet.irq_off))
		return 0;
	/* never asked, nothing saved: not a file of /proc/irq read */
	if (cpuset_empty(off) && cpuset_empty(&n->quiet.irq_off) &&
	    !n->quiet.nr_irqs && !n->quiet.default_affinity &&
	    !n->quiet.irqbalance_banned)
		return 0;
	ret = quiet_irq_sync(n->cfg.proc_mount, off, &n->kernel.online,
			     &n->quiet, persist, qs, &r, err);
	if (ret)
		return ret;
	irqbalance(qs, off);
	cpuset_format(off, text, sizeof(text));
	if (r.moved)
		node_log(n, "quiet: %u of %u interrupts moved, kept off CPUs %s",
			 r.moved, r.seen, text[0] ? text : "(none)");
	if (r.stuck)
		node_log_sev(n, NODE_LOG_WARNING,
			     "quiet: %u interrupts the kernel does not let move may fire on CPUs %s: %s",
			     r.stuck, text, r.stuck_list);
	return r.moved ? 1 : 0;
}

/*
 * One CPU's idle states and governor as w says (or as they were); full:
 * written again where they are what was set (a reboot reset them).
 */
static int cpu_one(struct quiet_sync *qs, unsigned int cpu,
		   const struct wanted *w, bool full, int *changes)
{
	struct node *n = qs->n;
	struct quiet_cpu_orig *c = quiet_saved_cpu(&n->quiet, cpu, false);
	const char *cs = w->cstates[cpu] ? w->cstates[cpu] : "";
	const char *gov = w->governor[cpu] ? w->governor[cpu] : "";
	struct cm_error err = { 0 };
	bool changed;
	int ret;

	if (strcmp(cs, c ? c->cstates_now : "") || (full && cs[0])) {
		ret = quiet_cstates_set(n->cfg.sys_mount, cpu, cs, &n->quiet,
					persist, qs, &changed, &err);
		if (ret && ret != -ENOENT)
			node_log_sev(n, NODE_LOG_WARNING, "quiet: CPU %u: %s",
				     cpu, cm_error_msg(&err));
		else if (changed)
			node_log(n, "quiet: CPU %u idle states %s", cpu,
				 cs[0] ? cs : "as they were");
		*changes += changed;
		cm_error_clear(&err);
	}
	c = quiet_saved_cpu(&n->quiet, cpu, false);
	if (strcmp(gov, c ? c->governor_now : "") || (full && gov[0])) {
		ret = quiet_governor_set(n->cfg.sys_mount, cpu, gov, &n->quiet,
					 persist, qs, &changed, &err);
		if (ret && ret != -ENOENT)
			node_log_sev(n, NODE_LOG_WARNING, "quiet: CPU %u: %s",
				     cpu, cm_error_msg(&err));
		else if (changed)
			node_log(n, "quiet: CPU %u governor %s", cpu,
				 gov[0] ? gov : "as it was");
		*changes += changed;
		cm_error_clear(&err);
	}
	return 0;
}

/* Any container asks, as wanted() would find. */
static bool anyone_asks(const struct node *n)
{
	for (unsigned int i = 0; i < n->nr_pods; i++)
		for (unsigned int k = 0; k < n->pods[i].pod.nr; k++)
			if (pod_isolation_any(&n->pods[i].pod.containers[k].iso))
				return true;
	return false;
}

int node_quiet_sync(struct node *n, struct cm_error *err)
{
	struct quiet_sync qs = { .n = n };
	struct wanted w = { 0 };
	int changes = 0, ret;
	struct cpuset cpus;
	struct stat st;
	char path[PATH_MAX + 32];

	/* the common case: nobody asks, nothing to put back */
	snprintf(path, sizeof(path), "%s/%s", n->files.dir, NODE_QUIET_FILE);
	if (!anyone_asks(n) && (n->quiet_loaded ? quiet_saved_empty(&n->quiet) :
				stat(path, &st) && errno == ENOENT))
		return 0;
	ret = wanted(n, &w, err);
	if (!ret)
		ret = load(n, err);
	if (ret)
		goto out;
	qs.saved = saved_text(n);
	ret = irqs(&qs, &w.irq_off, !n->targeted, err);
	if (ret >= 0) {
		changes += ret;
		/* the CPUs asked for and those with something to put back */
		cpuset_zero(&cpus);
		for (unsigned int cpu = 0; cpu < CPUSET_MAX_CPUS; cpu++)
			if (w.cstates[cpu] || w.governor[cpu])
				cpuset_set(&cpus, cpu);
		for (size_t i = 0; i < n->quiet.nr_cpus; i++)
			cpuset_set(&cpus, n->quiet.cpus[i].cpu);
		for (int cpu = cpuset_next(&cpus, 0); cpu >= 0;
		     cpu = cpuset_next(&cpus, cpu + 1))
			cpu_one(&qs, (unsigned int)cpu, &w, !n->targeted,
				&changes);
	}
	/* kept whatever happened: a failed sync may have changed some */
	{
		char *after = saved_text(n);
		struct cm_error serr = { 0 };
		int sret = 0;

		if (!after || !qs.saved || strcmp(after, qs.saved))
			sret = save(n, ret < 0 ? &serr : err);
		if (sret && ret < 0)
			node_log_sev(n, NODE_LOG_WARNING, "quiet: %s",
				     cm_error_msg(&serr));
		else if (sret)
			ret = sret;
		cm_error_clear(&serr);
		free(after);
	}
out:
	free(qs.saved);
	wanted_free(&w);
	return ret < 0 ? ret : changes;
}
