// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup directories named by path: what BIND records of them.  A
 * cgroup's id is its directory's inode number (cgroup_id() == i_ino), on
 * cgroup2 and on the v1 cpuset hierarchy alike, which is all the checks
 * of a cpuset write need to know.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kernfs.h>
#include <linux/magic.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/slab.h>
#include <linux/version.h>

#include "cpumgr_cgroup.h"

/* A v1 hierarchy counts only if it is the cpuset one. */
static bool cpumgr_v1_is_cpuset(const char *dir)
{
	struct path file;
	char *name;
	int err;

	name = kasprintf(GFP_KERNEL, "%s/cpuset.cpus", dir);
	if (!name)
		return false;
	err = kern_path(name, 0, &file);
	kfree(name);
	if (err)
		return false;
	path_put(&file);
	return true;
}

/*
 * A kernfs node's parent.  From 6.15 it is RCU-managed and renamed, to be
 * read through kernfs_get_parent(), which modules cannot call; a cgroup
 * directory never moves to another parent, and kernfs says its parent
 * may then be read directly.
 */
static struct kernfs_node *cpumgr_kn_parent(struct kernfs_node *kn)
{
#if KERNEL_VERSION(6, 15, 0) <= LINUX_VERSION_CODE
	return rcu_dereference_protected(kn->__parent, true);
#else
	return kn->parent;
#endif
}

/*
 * The ids of every ancestor of the cgroup directory @dir, parent first.
 * They come from its kernfs node (a kernfs inode's i_private), not from
 * the dentries: a cgroup namespace or a bind mount may show only part of
 * the hierarchy, and the hooks compare against the whole of it.
 */
static int cpumgr_cgroup_ancestors(struct dentry *dir,
				   struct cpumgr_cgroup_ref *ref,
				   const struct nlattr *attr,
				   struct netlink_ext_ack *extack)
{
	struct kernfs_node *kn = d_inode(dir)->i_private;
	u64 ids[CPUMGR_CGROUP_DEPTH_MAX];
	u32 depth = 0;

	for (kn = cpumgr_kn_parent(kn); kn; kn = cpumgr_kn_parent(kn)) {
		if (depth == CPUMGR_CGROUP_DEPTH_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "cgroup is nested too deep (64 levels at most)");
			return -ENOTDIR;
		}
		ids[depth++] = kernfs_ino(kn);
	}
	ref->ancestors = kmemdup(ids, depth * sizeof(*ids), GFP_KERNEL);
	if (depth && !ref->ancestors)
		return -ENOMEM;
	ref->depth = depth;
	return 0;
}

/*
 * The cgroup of the directory @dir, held: the managed root is matched by
 * id, and a root removed and made again under the same path is another
 * id, so the checks must know when the one they were given is gone.  A
 * cgroup directory's kernfs node points at its cgroup.
 */
static int cpumgr_cgroup_hold(struct dentry *dir, struct cpumgr_cgroup_ref *ref,
			      const struct nlattr *attr,
			      struct netlink_ext_ack *extack)
{
	struct kernfs_node *kn = d_inode(dir)->i_private;
	struct cgroup *cgrp;
	bool held;

	rcu_read_lock();
	cgrp = kn->priv;
	held = cgrp && css_tryget_online(&cgrp->self);
	rcu_read_unlock();
	if (!held) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "cgroup is being removed");
		return -ENOENT;
	}
	ref->live = cgrp;
	return 0;
}

/**
 * cpumgr_cgroup_resolve - look up a cgroup directory by absolute path
 * @path: the directory, in the caller's mount namespace
 * @ref: filled with its id, hierarchy and normalized path
 * @hold: keep a reference to the cgroup in @ref->live (the managed root)
 * @attr, @extack: where a refusal is reported
 *
 * Return: 0, -ENOMEM, -ENOENT when the cgroup is being removed, or
 * -ENOTDIR when @path is not a directory of cgroup2 or of the cgroup v1
 * cpuset hierarchy.
 */
int cpumgr_cgroup_resolve(const char *path, struct cpumgr_cgroup_ref *ref,
			  bool hold, const struct nlattr *attr,
			  struct netlink_ext_ack *extack)
{
	unsigned long magic;
	struct path dir;
	char *buf, *name;
	int err;

	memset(ref, 0, sizeof(*ref));
	if (path[0] != '/' ||
	    kern_path(path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "cgroup path is not an absolute path of a directory");
		return -ENOTDIR;
	}
	err = -ENOTDIR;
	magic = dir.dentry->d_sb->s_magic;
	if (magic != CGROUP2_SUPER_MAGIC && magic != CGROUP_SUPER_MAGIC) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "cgroup path is not in a cgroup filesystem");
		goto out;
	}
	ref->v1 = magic == CGROUP_SUPER_MAGIC;
	if (ref->v1 && !cpumgr_v1_is_cpuset(path)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "cgroup v1 path is not in the cpuset hierarchy");
		goto out;
	}
	ref->id = d_inode(dir.dentry)->i_ino;
	err = cpumgr_cgroup_ancestors(dir.dentry, ref, attr, extack);
	if (!err && hold)
		err = cpumgr_cgroup_hold(dir.dentry, ref, attr, extack);
	if (err)
		goto out;

	err = -ENOMEM;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		goto out;
	name = d_path(&dir, buf, PATH_MAX);
	if (IS_ERR(name)) {
		err = PTR_ERR(name);
		NL_SET_ERR_MSG_ATTR(extack, attr, "cgroup path cannot be resolved");
	} else {
		ref->path = kstrdup(name, GFP_KERNEL);
		err = ref->path ? 0 : -ENOMEM;
	}
	kfree(buf);
out:
	path_put(&dir);
	if (err)
		cpumgr_cgroup_ref_free(ref);
	return err;
}

/*
 * The cgroup is freed an RCU grace period after its last reference goes
 * (css_release()), so a view that still points at it stays safe to read.
 */
void cpumgr_cgroup_ref_free(struct cpumgr_cgroup_ref *ref)
{
	if (ref->live)
		css_put(&ref->live->self);
	kfree(ref->path);
	kfree(ref->ancestors);
	memset(ref, 0, sizeof(*ref));
}

/*
 * Bound cgroups compare by id within one hierarchy: cgroup2 and the v1
 * cpuset hierarchy number their directories each on its own.  Neither
 * is below a cgroup that is not bound (id 0).
 */
bool cpumgr_cgroup_below(const struct cpumgr_cgroup_ref *ref,
			 const struct cpumgr_cgroup_ref *top)
{
	u32 i;

	if (!ref->id || !top->id || ref->v1 != top->v1)
		return false;
	for (i = 0; i < ref->depth; i++) {
		if (ref->ancestors[i] == top->id)
			return true;
	}
	return false;
}

/*
 * A held cgroup that was removed: a directory made again at its path is
 * another cgroup, so the reference names none.  The caller holds the
 * table lock or cpumgr_show_lock, under which references are swapped.
 */
bool cpumgr_cgroup_ref_gone(const struct cpumgr_cgroup_ref *ref)
{
	return ref->live && !(READ_ONCE(ref->live->self.flags) & CSS_ONLINE);
}

bool cpumgr_cgroup_at_or_below(const struct cpumgr_cgroup_ref *ref,
			       const struct cpumgr_cgroup_ref *top)
{
	if (ref->id && ref->id == top->id && ref->v1 == top->v1)
		return true;
	return cpumgr_cgroup_below(ref, top);
}
