// SPDX-License-Identifier: GPL-2.0
/*
 * Pods and containers, the table's objects, and their directories in
 * sysfs: pods/<uid>/{pod_cgroup,pod_cpus} and
 * pods/<uid>/<container>/{cpus,cgroup,flags}.  Those files read their
 * own object under cpumgr_show_lock, the lock the table takes to change
 * what they show: no reader ever waits for the table lock, so the table
 * can remove directories while holding it.
 */
#include <linux/bitops.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "cpumgr_cgroup.h"
#include "cpumgr_names.h"
#include "cpumgr_pods.h"

/* The directory of the pods, /sys/kernel/cpumgr/pods. */
static struct kobject *cpumgr_pods_kobj;
/* Serializes changes of what the pods/ files show with their readers. */
static DEFINE_SPINLOCK(cpumgr_show_lock);

static void cpumgr_container_free(struct cpumgr_container *c)
{
	free_cpumask_var(c->cpus);
	free_cpumask_var(c->lost);
	cpumgr_cgroup_ref_free(&c->cgroup);
	kfree(c);
}

static void cpumgr_pod_free(struct cpumgr_pod *pod)
{
	free_cpumask_var(pod->cpus);
	free_cpumask_var(pod->pool);
	cpumgr_cgroup_ref_free(&pod->cgroup);
	kfree(pod);
}

/* Their files */

/* A path, escaped, and a newline; cut to a page if it must be. */
ssize_t cpumgr_path_show(char *buf, const char *path)
{
	size_t len = cpumgr_escape(buf, PAGE_SIZE - 1, path ?: "");

	buf[len++] = '\n';
	return len;
}

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

/* pods/<uid>/pod_cpus: the pod's pool, an empty line for none. */
static ssize_t pod_cpus_show(struct kobject *kobj,
			     struct kobj_attribute *attr, char *buf)
{
	struct cpumgr_pod *pod = container_of(kobj, struct cpumgr_pod, kobj);
	ssize_t len;

	spin_lock(&cpumgr_show_lock);
	len = sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(pod->pool));
	spin_unlock(&cpumgr_show_lock);
	return len;
}

/*
 * Pod UIDs, container names and host cgroup paths are the node admin's
 * business, not every container's that mounts /sys: root only.
 */
static struct kobj_attribute pod_cgroup_attr = __ATTR_RO_MODE(pod_cgroup, 0400);
static struct kobj_attribute pod_cpus_attr = __ATTR_RO_MODE(pod_cpus, 0400);

static struct attribute *cpumgr_pod_attrs[] = {
	&pod_cgroup_attr.attr,
	&pod_cpus_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(cpumgr_pod);

static void cpumgr_pod_release(struct kobject *kobj)
{
	cpumgr_pod_free(container_of(kobj, struct cpumgr_pod, kobj));
}

static const struct kobj_type cpumgr_pod_ktype = {
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
	unsigned int i, len = 0;
	u32 flags;

	spin_lock(&cpumgr_show_lock);
	flags = to_container(kobj)->flags;
	spin_unlock(&cpumgr_show_lock);
	/* Comma-separated names, like the options file. */
	for (i = 0; i < ARRAY_SIZE(cpumgr_assignment_flag_names); i++) {
		if (flags & BIT(i))
			len += sysfs_emit_at(buf, len, "%s%s", len ? "," : "",
					     cpumgr_assignment_flag_names[i]);
	}
	return len + sysfs_emit_at(buf, len, "\n");
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

static const struct kobj_type cpumgr_container_ktype = {
	.release = cpumgr_container_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = cpumgr_container_groups,
};

/* Their life */

/* A pod not yet in the table or in sysfs; freed by kobject_put(). */
struct cpumgr_pod *cpumgr_pod_alloc(const char *uid)
{
	struct cpumgr_pod *pod = kzalloc(sizeof(*pod), GFP_KERNEL);

	if (!pod)
		return NULL;
	if (!zalloc_cpumask_var(&pod->cpus, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&pod->pool, GFP_KERNEL)) {
		free_cpumask_var(pod->cpus);
		kfree(pod);
		return NULL;
	}
	INIT_LIST_HEAD(&pod->containers);
	strscpy(pod->uid, uid, sizeof(pod->uid));
	kobject_init(&pod->kobj, &cpumgr_pod_ktype);
	return pod;
}

struct cpumgr_container *cpumgr_container_alloc(const char *name)
{
	struct cpumgr_container *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	if (!zalloc_cpumask_var(&c->cpus, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&c->lost, GFP_KERNEL)) {
		free_cpumask_var(c->cpus);
		kfree(c);
		return NULL;
	}
	strscpy(c->name, name, sizeof(c->name));
	kobject_init(&c->kobj, &cpumgr_container_ktype);
	return c;
}

/*
 * Remove from sysfs now, whoever else holds a reference, and drop the
 * table's.  Objects that never made it into sysfs are just put.
 */
static void cpumgr_kobj_drop(struct kobject *kobj)
{
	if (kobj->state_in_sysfs)
		kobject_del(kobj);
	kobject_put(kobj);
}

void cpumgr_container_put(struct cpumgr_container *c)
{
	cpumgr_kobj_drop(&c->kobj);
}

void cpumgr_pod_put(struct cpumgr_pod *pod)
{
	cpumgr_kobj_drop(&pod->kobj);
}

/* A pod made, in pods/; the table's to put, whether or not it fails. */
int cpumgr_pod_add(struct cpumgr_pod *pod)
{
	return kobject_add(&pod->kobj, cpumgr_pods_kobj, "%s", pod->uid);
}

/* A container made, in its pod's directory; the same. */
int cpumgr_container_add(struct cpumgr_container *c)
{
	return kobject_add(&c->kobj, &c->pod->kobj, "%s", c->name);
}

struct cpumgr_container *cpumgr_pod_find(struct cpumgr_pod *pod,
					 const char *name)
{
	struct cpumgr_container *c;

	list_for_each_entry(c, &pod->containers, node) {
		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

/* How many containers @pod has in the table (CPUMGR_POD_CONTAINERS_MAX). */
unsigned int cpumgr_pod_nr_containers(const struct cpumgr_pod *pod)
{
	const struct cpumgr_container *c;
	unsigned int nr = 0;

	list_for_each_entry(c, &pod->containers, node)
		nr++;
	return nr;
}

void cpumgr_pod_update_cpus(struct cpumgr_pod *pod)
{
	struct cpumgr_container *c;

	cpumask_copy(pod->cpus, pod->pool);
	list_for_each_entry(c, &pod->containers, node)
		cpumask_or(pod->cpus, pod->cpus, c->cpus);
}

void cpumgr_pod_set_pool(struct cpumgr_pod *pod, const struct cpumask *pool)
{
	spin_lock(&cpumgr_show_lock);
	cpumask_copy(pod->pool, pool);
	spin_unlock(&cpumgr_show_lock);
}

/* Set what a container shows, under the lock its readers take. */
void cpumgr_container_set(struct cpumgr_container *c,
			  const struct cpumask *cpus, u32 flags)
{
	spin_lock(&cpumgr_show_lock);
	cpumask_copy(c->cpus, cpus);
	c->flags = flags;
	spin_unlock(&cpumgr_show_lock);
}

/* A new decision (ASSIGN, RESTORE): what offlines took is forgotten. */
void cpumgr_container_decide(struct cpumgr_container *c,
			     const struct cpumask *cpus, u32 flags)
{
	cpumgr_container_set(c, cpus, flags);
	cpumask_clear(c->lost);
}

/* Swap a binding in; @ref gets the old one, for the caller to free. */
void cpumgr_cgroup_swap(struct cpumgr_cgroup_ref *bound,
			struct cpumgr_cgroup_ref *ref)
{
	spin_lock(&cpumgr_show_lock);
	swap(*bound, *ref);
	spin_unlock(&cpumgr_show_lock);
}

/* The path of the cgroup @ref names ("" for none), as its files show it. */
void cpumgr_cgroup_ref_path(const struct cpumgr_cgroup_ref *ref, char *buf,
			    size_t size)
{
	spin_lock(&cpumgr_show_lock);
	strscpy(buf, ref->path ?: "", size);
	spin_unlock(&cpumgr_show_lock);
}

/*
 * The same for a held cgroup, "" once it is removed: a directory made
 * again at its path is another cgroup, which the table does not name.
 */
void cpumgr_cgroup_ref_live_path(const struct cpumgr_cgroup_ref *ref,
				 char *buf, size_t size)
{
	spin_lock(&cpumgr_show_lock);
	strscpy(buf, cpumgr_cgroup_ref_gone(ref) ? "" : ref->path ?: "", size);
	spin_unlock(&cpumgr_show_lock);
}

static const struct attribute cpumgr_pods_dir = { .name = "pods" };

/* pods/, in the module's directory @parent. */
int cpumgr_pods_init(struct kobject *parent)
{
	int err;

	cpumgr_pods_kobj = kobject_create_and_add("pods", parent);
	if (!cpumgr_pods_kobj)
		return -ENOMEM;
	/*
	 * Its entries' names are pod UIDs and container names: pods/ is
	 * root only.  sysfs has no mode for a kobject's directory, but
	 * sysfs_chmod_file() finds any child by name, a directory too.
	 */
	err = sysfs_chmod_file(parent, &cpumgr_pods_dir, 0700);
	if (err)
		kobject_put(cpumgr_pods_kobj);
	return err;
}

void cpumgr_pods_exit(void)
{
	kobject_put(cpumgr_pods_kobj);
}
