// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/cpumgr/: the module's state, readable with cat.
 */
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "cpumgr.h"

static struct kobject *cpumgr_kobj;

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", CPUMGR_VERSION);
}

static struct kobj_attribute version_attr = __ATTR_RO(version);

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
 * The file can outgrow a page on big machines, hence a binary attribute:
 * format line by line and copy the part of [off, off + count) each covers.
 */
static ssize_t topology_read(struct file *file, struct kobject *kobj,
			     struct bin_attribute *attr, char *buf, loff_t off,
			     size_t count)
{
	size_t hlen = sizeof(cpumgr_topology_header) - 1;
	loff_t pos = 0;
	size_t done = 0;
	unsigned int cpu;
	char *line;
	int len;

	line = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!line)
		return -ENOMEM;

	cpumgr_topology_lock();
	for (cpu = 0; done < count; cpu++) {
		if (cpu == 0) {
			memcpy(line, cpumgr_topology_header, hlen);
			len = hlen;
		} else if (cpu - 1 < nr_cpu_ids) {
			if (!cpu_possible(cpu - 1))
				continue;
			len = cpumgr_format_cpu(line, PAGE_SIZE, cpu - 1);
		} else {
			break;
		}
		if (pos + len > off + done) {
			size_t skip = off + done - pos;
			size_t n = min_t(size_t, len - skip, count - done);

			memcpy(buf + done, line + skip, n);
			done += n;
		}
		pos += len;
	}
	cpumgr_topology_unlock();
	kfree(line);
	return done;
}

static BIN_ATTR_RO(topology, 0);

static struct attribute *cpumgr_attrs[] = {
	&version_attr.attr,
	NULL,
};

static struct bin_attribute *cpumgr_bin_attrs[] = {
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
	if (err) {
		kobject_put(cpumgr_kobj);
		return err;
	}
	return 0;
}

void cpumgr_sysfs_exit(void)
{
	sysfs_remove_group(cpumgr_kobj, &cpumgr_group);
	kobject_put(cpumgr_kobj);
}
