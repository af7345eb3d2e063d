// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/cpumgr/: the module's state, readable with cat.  The files
 * of the node read the RCU view; pods/ is cpumgr_pods.c's.
 */
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include "cpumgr.h"
#include "cpumgr_armed.h"
#include "cpumgr_events.h"
#include "cpumgr_names.h"
#include "cpumgr_pods.h"
#include "cpumgr_probes.h"
#include "cpumgr_sysfs.h"
#include "cpumgr_table.h"
#include "cpumgr_topology.h"
#include "cpumgr_view.h"

static struct kobject *cpumgr_kobj;

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

/* A table's cgroup path (@get: the root's or the system cgroup's). */
static ssize_t cpumgr_table_path_show(char *buf,
				      void (*get)(char *buf, size_t size))
{
	char *path = kmalloc(CPUMGR_PATH_MAX + 1, GFP_KERNEL);
	ssize_t len;

	if (!path)
		return -ENOMEM;
	get(path, CPUMGR_PATH_MAX + 1);
	len = cpumgr_path_show(buf, path);
	kfree(path);
	return len;
}

static ssize_t cgroup_root_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return cpumgr_table_path_show(buf, cpumgr_table_root_path);
}

static ssize_t system_cgroup_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return cpumgr_table_path_show(buf, cpumgr_table_system_path);
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

/*
 * 1 or 0, then why not: the probes are checked when this is read, and a
 * disarm since the last read is told once.
 */
static ssize_t armed_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	const char *why;

	if (cpumgr_armed_read(CPUMGR_ARMED_SYSFS, &why))
		return sysfs_emit(buf, "1\n");
	return sysfs_emit(buf, "0 %s\n", why);
}

static ssize_t probes_missed_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", cpumgr_probes_missed());
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
static struct kobj_attribute system_cgroup_attr =
	__ATTR_RO_MODE(system_cgroup, 0400);
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
	&system_cgroup_attr.attr,
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

int cpumgr_sysfs_init(void)
{
	int err;

	cpumgr_kobj = kobject_create_and_add("cpumgr", kernel_kobj);
	if (!cpumgr_kobj)
		return -ENOMEM;
	err = sysfs_create_group(cpumgr_kobj, &cpumgr_group);
	if (err)
		goto err_kobj;
	err = cpumgr_pods_init(cpumgr_kobj);
	if (err)
		goto err_group;
	return 0;

err_group:
	sysfs_remove_group(cpumgr_kobj, &cpumgr_group);
err_kobj:
	kobject_put(cpumgr_kobj);
	return err;
}

void cpumgr_sysfs_exit(void)
{
	cpumgr_pods_exit();
	sysfs_remove_group(cpumgr_kobj, &cpumgr_group);
	kobject_put(cpumgr_kobj);
}
