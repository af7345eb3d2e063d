// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/cpumgr/: the module's state, readable with cat.  The files
 * of the node read the RCU view and the pods/ files their own object
 * under cpumgr_show_lock: no reader ever waits for the table lock, so the
 * table can remove directories while holding it.
 */
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include "cpumgr.h"

static struct kobject *cpumgr_kobj;
struct kobject *cpumgr_pods_kobj;
DEFINE_SPINLOCK(cpumgr_show_lock);

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", CPUMGR_VERSION);
}

static ssize_t policy_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	ssize_t len;

	rcu_read_lock();
	len = sysfs_emit(buf, "%s\n",
			 cpumgr_policy_names[cpumgr_view_get()->policy]);
	rcu_read_unlock();
	return len;
}

/* The option names, comma-separated, as the kubelet's flag takes them. */
static ssize_t options_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	unsigned int i, len = 0;
	u32 options;

	rcu_read_lock();
	options = cpumgr_view_get()->options;
	rcu_read_unlock();
	for (i = 0; i < ARRAY_SIZE(cpumgr_option_names); i++) {
		if (options & BIT(i))
			len += sysfs_emit_at(buf, len, "%s%s", len ? "," : "",
					     cpumgr_option_names[i]);
	}
	return len + sysfs_emit_at(buf, len, "\n");
}

static ssize_t enforce_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	ssize_t len;

	rcu_read_lock();
	len = sysfs_emit(buf, "%s\n",
			 cpumgr_enforce_names[cpumgr_view_get()->enforce]);
	rcu_read_unlock();
	return len;
}

static ssize_t hotplug_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	ssize_t len;

	rcu_read_lock();
	len = sysfs_emit(buf, "%s\n",
			 cpumgr_hotplug_names[cpumgr_view_get()->hotplug]);
	rcu_read_unlock();
	return len;
}

/* A path, escaped, and a newline; cut to a page if it must be. */
static ssize_t cpumgr_path_show(char *buf, const char *path)
{
	size_t len = cpumgr_escape(buf, PAGE_SIZE - 1, path ?: "");

	buf[len++] = '\n';
	return len;
}

static ssize_t cgroup_root_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	char *path = kmalloc(CPUMGR_PATH_MAX + 1, GFP_KERNEL);
	ssize_t len;

	if (!path)
		return -ENOMEM;
	cpumgr_table_root_path(path, CPUMGR_PATH_MAX + 1);
	len = cpumgr_path_show(buf, path);
	kfree(path);
	return len;
}

#define CPUMGR_COUNTER_SHOW(name)					\
static ssize_t name##_show(struct kobject *kobj,			\
			   struct kobj_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lld\n",				\
			  atomic64_read(&cpumgr_counters.name));	\
}

CPUMGR_COUNTER_SHOW(violations)
CPUMGR_COUNTER_SHOW(offlines_refused)
CPUMGR_COUNTER_SHOW(events_dropped)

/* 1 or 0, then why not: the probes are checked when this is read. */
static ssize_t armed_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	const char *why;

	if (cpumgr_armed(&why))
		return sysfs_emit(buf, "1\n");
	return sysfs_emit(buf, "0 %s\n", why);
}

static ssize_t probes_missed_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", cpumgr_hooks_missed());
}

/*
 * Under the table mutex: a change adds and removes pods/ directories
 * around its commit, so only a generation read between changes brackets
 * a walk of pods/ that is a snapshot when it reads the same after it.
 */
static ssize_t generation_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	u64 generation;
	int err;

	err = cpumgr_table_lock_killable();
	if (err)
		return err;
	generation = cpumgr_table_generation();
	cpumgr_table_unlock();
	return sysfs_emit(buf, "%llu\n", generation);
}

static ssize_t reserved_cpus_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	ssize_t len;

	rcu_read_lock();
	len = sysfs_emit(buf, "%*pbl\n",
			 cpumask_pr_args(cpumgr_view_get()->reserved));
	rcu_read_unlock();
	return len;
}

static ssize_t exclusive_cpus_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	ssize_t len;

	rcu_read_lock();
	len = sysfs_emit(buf, "%*pbl\n",
			 cpumask_pr_args(cpumgr_view_get()->exclusive));
	rcu_read_unlock();
	return len;
}

static ssize_t shared_cpus_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	cpumask_var_t shared;
	ssize_t len;

	if (!alloc_cpumask_var(&shared, GFP_KERNEL))
		return -ENOMEM;
	rcu_read_lock();
	cpumgr_view_shared(cpumgr_view_get(), shared);
	rcu_read_unlock();
	len = sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(shared));
	free_cpumask_var(shared);
	return len;
}

static struct kobj_attribute version_attr = __ATTR_RO(version);
static struct kobj_attribute policy_attr = __ATTR_RO(policy);
static struct kobj_attribute options_attr = __ATTR_RO(options);
static struct kobj_attribute generation_attr = __ATTR_RO(generation);
static struct kobj_attribute reserved_cpus_attr = __ATTR_RO(reserved_cpus);
static struct kobj_attribute shared_cpus_attr = __ATTR_RO(shared_cpus);
static struct kobj_attribute exclusive_cpus_attr = __ATTR_RO(exclusive_cpus);
static struct kobj_attribute enforce_attr = __ATTR_RO(enforce);
static struct kobj_attribute hotplug_attr = __ATTR_RO(hotplug);
/* A host path, root's as GET_STATE's CGROUP_ROOT is (and pods/). */
static struct kobj_attribute cgroup_root_attr =
	__ATTR_RO_MODE(cgroup_root, 0400);
static struct kobj_attribute violations_attr = __ATTR_RO(violations);
static struct kobj_attribute offlines_refused_attr = __ATTR_RO(offlines_refused);
static struct kobj_attribute events_dropped_attr = __ATTR_RO(events_dropped);
static struct kobj_attribute armed_attr = __ATTR_RO(armed);
static struct kobj_attribute probes_missed_attr = __ATTR_RO(probes_missed);

/* One line of the topology file; returns its length. */
static int cpumgr_format_cpu(char *line, size_t size, unsigned int cpu)
{
	const struct cpumgr_cpu_topo *t = cpumgr_topology_cpu(cpu);

	if (!t->seen)
		return scnprintf(line, size, "%u 0 - - - - - -\n", cpu);
	return scnprintf(line, size, "%u %d %u %u %u %u %u %*pbl\n", cpu,
			 t->online, t->package, t->die, t->core, t->node,
			 t->llc, cpumask_pr_args(t->siblings));
}

static const char cpumgr_topology_header[] =
	"# cpu online package die core node llc siblings\n";

/*
 * sysfs hands binary attributes to their methods as const since its
 * rework of 6.13 to 6.16 (which had both kinds); 6.1 and 6.12 have the
 * mutable kind only.
 */
#if KERNEL_VERSION(7, 0, 0) <= LINUX_VERSION_CODE
#define CPUMGR_BIN_CONST const
#else
#define CPUMGR_BIN_CONST
#endif

/*
 * The file can outgrow a page on big machines, hence a binary attribute:
 * format line by line and copy the part of [off, off + count) each covers.
 */
static ssize_t topology_read(struct file *file, struct kobject *kobj,
			     CPUMGR_BIN_CONST struct bin_attribute *attr,
			     char *buf, loff_t off, size_t count)
{
	loff_t pos = 0;
	size_t done = 0;
	int cpu = -1, len;
	char *line;

	line = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!line)
		return -ENOMEM;

	cpumgr_topology_lock();
	len = strscpy(line, cpumgr_topology_header, PAGE_SIZE);
	while (done < count) {
		if (pos + len > off + done) {
			size_t skip = off + done - pos;
			size_t n = min_t(size_t, len - skip, count - done);

			memcpy(buf + done, line + skip, n);
			done += n;
		}
		pos += len;
		cpu = cpumask_next(cpu, cpu_possible_mask);
		if (cpu >= nr_cpu_ids)
			break;
		len = cpumgr_format_cpu(line, PAGE_SIZE, cpu);
	}
	cpumgr_topology_unlock();
	kfree(line);
	return done;
}

static BIN_ATTR_RO(topology, 0);

/* pods/<uid>/pod_cgroup: no DNS label has a '_', so no container clashes. */
static ssize_t pod_cgroup_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct cpumgr_pod *pod = container_of(kobj, struct cpumgr_pod, kobj);
	ssize_t len;

	spin_lock(&cpumgr_show_lock);
	len = cpumgr_path_show(buf, pod->cgroup.path);
	spin_unlock(&cpumgr_show_lock);
	return len;
}

/*
 * Pod UIDs, container names and host cgroup paths are the node admin's
 * business, not every container's that mounts /sys: root only.
 */
static struct kobj_attribute pod_cgroup_attr = __ATTR_RO_MODE(pod_cgroup, 0400);

static struct attribute *cpumgr_pod_attrs[] = {
	&pod_cgroup_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(cpumgr_pod);

static void cpumgr_pod_release(struct kobject *kobj)
{
	cpumgr_pod_free(container_of(kobj, struct cpumgr_pod, kobj));
}

const struct kobj_type cpumgr_pod_ktype = {
	.release = cpumgr_pod_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = cpumgr_pod_groups,
};

static struct cpumgr_container *to_container(struct kobject *kobj)
{
	return container_of(kobj, struct cpumgr_container, kobj);
}

static ssize_t cpus_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	ssize_t len;

	spin_lock(&cpumgr_show_lock);
	len = sysfs_emit(buf, "%*pbl\n",
			 cpumask_pr_args(to_container(kobj)->cpus));
	spin_unlock(&cpumgr_show_lock);
	return len;
}

static ssize_t cgroup_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	ssize_t len;

	spin_lock(&cpumgr_show_lock);
	len = cpumgr_path_show(buf, to_container(kobj)->cgroup.path);
	spin_unlock(&cpumgr_show_lock);
	return len;
}

static ssize_t flags_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	u32 flags;

	spin_lock(&cpumgr_show_lock);
	flags = to_container(kobj)->flags;
	spin_unlock(&cpumgr_show_lock);
	/* Comma-separated names, like the options file. */
	return sysfs_emit(buf, "%s%s%s\n",
			  flags & CPUMGR_ASSIGNMENT_F_INIT ? "init" : "",
			  (flags & CPUMGR_ASSIGNMENT_F_INIT) &&
			  (flags & CPUMGR_ASSIGNMENT_F_DEGRADED) ? "," : "",
			  flags & CPUMGR_ASSIGNMENT_F_DEGRADED ? "degraded" : "");
}

static struct kobj_attribute cpus_attr = __ATTR_RO_MODE(cpus, 0400);
static struct kobj_attribute cgroup_attr = __ATTR_RO_MODE(cgroup, 0400);
static struct kobj_attribute flags_attr = __ATTR_RO_MODE(flags, 0400);

static struct attribute *cpumgr_container_attrs[] = {
	&cpus_attr.attr,
	&cgroup_attr.attr,
	&flags_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(cpumgr_container);

static void cpumgr_container_release(struct kobject *kobj)
{
	cpumgr_container_free(to_container(kobj));
}

const struct kobj_type cpumgr_container_ktype = {
	.release = cpumgr_container_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = cpumgr_container_groups,
};

static struct attribute *cpumgr_attrs[] = {
	&version_attr.attr,
	&policy_attr.attr,
	&options_attr.attr,
	&generation_attr.attr,
	&reserved_cpus_attr.attr,
	&shared_cpus_attr.attr,
	&exclusive_cpus_attr.attr,
	&enforce_attr.attr,
	&hotplug_attr.attr,
	&cgroup_root_attr.attr,
	&violations_attr.attr,
	&offlines_refused_attr.attr,
	&events_dropped_attr.attr,
	&armed_attr.attr,
	&probes_missed_attr.attr,
	NULL,
};

static CPUMGR_BIN_CONST struct bin_attribute *cpumgr_bin_attrs[] = {
	&bin_attr_topology,
	NULL,
};

static const struct attribute_group cpumgr_group = {
	.attrs = cpumgr_attrs,
	.bin_attrs = cpumgr_bin_attrs,
};

static const struct attribute cpumgr_pods_dir = { .name = "pods" };

int cpumgr_sysfs_init(void)
{
	int err;

	cpumgr_kobj = kobject_create_and_add("cpumgr", kernel_kobj);
	if (!cpumgr_kobj)
		return -ENOMEM;
	err = sysfs_create_group(cpumgr_kobj, &cpumgr_group);
	if (err)
		goto err_kobj;
	cpumgr_pods_kobj = kobject_create_and_add("pods", cpumgr_kobj);
	if (!cpumgr_pods_kobj) {
		err = -ENOMEM;
		goto err_group;
	}
	/*
	 * Its entries' names are pod UIDs and container names: pods/ is
	 * root only.  sysfs has no mode for a kobject's directory, but
	 * sysfs_chmod_file() finds any child by name, a directory too.
	 */
	err = sysfs_chmod_file(cpumgr_kobj, &cpumgr_pods_dir, 0700);
	if (err)
		goto err_pods;
	return 0;

err_pods:
	kobject_put(cpumgr_pods_kobj);

err_group:
	sysfs_remove_group(cpumgr_kobj, &cpumgr_group);
err_kobj:
	kobject_put(cpumgr_kobj);
	return err;
}

void cpumgr_sysfs_exit(void)
{
	kobject_put(cpumgr_pods_kobj);
	sysfs_remove_group(cpumgr_kobj, &cpumgr_group);
	kobject_put(cpumgr_kobj);
}
