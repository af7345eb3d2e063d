// SPDX-License-Identifier: GPL-2.0
/*
 * The view of the table that lock-free readers see: its storage, sized
 * before a change by the table, which fills it after the change and
 * publishes it here; readers get the current one under RCU.
 */
#include <linux/bitmap.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cpumgr_cgroup.h"
#include "cpumgr_view.h"

static struct cpumgr_view __rcu *cpumgr_view_current;

void cpumgr_view_free(struct cpumgr_view *view)
{
	if (!view)
		return;
	free_cpumask_var(view->reserved);
	free_cpumask_var(view->exclusive);
	free_cpumask_var(view->owed);
	free_cpumask_var(view->pending);
	kfree(view->pods);
	kfree(view->containers);
	kfree(view->bits);
	kfree(view->ids);
	kfree(view);
}

static void cpumgr_view_free_rcu(struct rcu_head *rcu)
{
	cpumgr_view_free(container_of(rcu, struct cpumgr_view, rcu));
}

struct cpumgr_view *cpumgr_view_alloc(const struct cpumgr_view_size *size)
{
	/*
	 * each pod and container: its CPUs, then what it is owed; then
	 * each pod's pool rest
	 */
	unsigned int masks = (size->pods + size->containers) * 2 + size->pods;
	struct cpumgr_view *view = kzalloc(sizeof(*view), GFP_KERNEL);

	if (!view)
		return NULL;
	view->cap = *size;
	if (!zalloc_cpumask_var(&view->reserved, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&view->exclusive, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&view->owed, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&view->pending, GFP_KERNEL))
		goto err;
	view->pods = kcalloc(size->pods ?: 1, sizeof(*view->pods), GFP_KERNEL);
	view->containers = kcalloc(size->containers ?: 1,
				   sizeof(*view->containers), GFP_KERNEL);
	view->bits = bitmap_zalloc((masks ?: 1) * cpumask_size() * BITS_PER_BYTE,
				   GFP_KERNEL);
	view->ids = kcalloc(size->ids ?: 1, sizeof(*view->ids), GFP_KERNEL);
	if (!view->pods || !view->containers || !view->bits || !view->ids)
		goto err;
	return view;
err:
	cpumgr_view_free(view);
	return NULL;
}

/* Bound cgroup @ref into @vcg, its ancestors at view->ids + *@nr_ids. */
void cpumgr_view_set_cg(struct cpumgr_view *view, struct cpumgr_view_cg *vcg,
			const struct cpumgr_cgroup_ref *ref,
			unsigned int *nr_ids)
{
	vcg->id = ref->id;
	vcg->v1 = ref->v1;
	vcg->ancestors = view->ids + *nr_ids;
	vcg->depth = 0;
	if (WARN_ON_ONCE(*nr_ids + ref->depth > view->cap.ids))
		return;
	vcg->depth = ref->depth;
	memcpy(view->ids + *nr_ids, ref->ancestors,
	       ref->depth * sizeof(*ref->ancestors));
	*nr_ids += ref->depth;
}

struct cpumask *cpumgr_view_mask(struct cpumgr_view *view, unsigned int i)
{
	return (struct cpumask *)((char *)view->bits + i * cpumask_size());
}

struct cpumask *cpumgr_view_owed(struct cpumgr_view *view, unsigned int i)
{
	return cpumgr_view_mask(view, view->cap.pods + view->cap.containers +
				i);
}

struct cpumask *cpumgr_view_pool_rest(struct cpumgr_view *view,
				      unsigned int i)
{
	return cpumgr_view_mask(view, (view->cap.pods +
				       view->cap.containers) * 2 + i);
}

void cpumgr_view_publish(struct cpumgr_view *view, struct mutex *lock)
{
	struct cpumgr_view *old;

	old = rcu_replace_pointer(cpumgr_view_current, view,
				  lockdep_is_held(lock));
	if (old)
		call_rcu(&old->rcu, cpumgr_view_free_rcu);
}

void cpumgr_view_exit(void)
{
	struct cpumgr_view *view;

	view = rcu_replace_pointer(cpumgr_view_current, NULL, true);
	synchronize_rcu();
	cpumgr_view_free(view);
	/* Views retired by call_rcu() are freed before the module goes. */
	rcu_barrier();
}

const struct cpumgr_view *cpumgr_view_get(void)
{
	return rcu_dereference(cpumgr_view_current);
}

void cpumgr_view_shared(const struct cpumgr_view *view, struct cpumask *shared)
{
	cpumask_andnot(shared, cpu_online_mask, view->exclusive);
	if (view->options & CPUMGR_OPT_STRICT_CPU_RESERVATION)
		cpumask_andnot(shared, shared, view->reserved);
}
