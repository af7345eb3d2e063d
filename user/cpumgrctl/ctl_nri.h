/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumgrctl nri: the plugin's answers to the runtime's calls (see
 * ctl_nri.c), one node_open() per call, and what it remembers between
 * them: the runtime's containers it manages and the cpuset it last told
 * the runtime for each, so that a change of the shared pool becomes
 * ContainerUpdates for the containers whose CPUs changed.
 */
#ifndef CPUMGRCTL_CTL_NRI_H
#define CPUMGRCTL_CTL_NRI_H

#include <stdbool.h>
#include <stdio.h>

#include "nri.pb-c.h"
#include "ctl_runtime.h"
#include "nri_conn.h"
#include "oci.h"

/* One of api.proto's messages out of a call's payload, and freed. */
#define UNPACK(type, req) \
	nri__pkg__api__v1alpha1__##type##__unpack(NULL, (req)->payload.len, \
						  (req)->payload.data)
#define FREE(type, m) nri__pkg__api__v1alpha1__##type##__free_unpacked(m, NULL)

struct ctl_nri_gone;

struct ctl_nri_known {
	char id[OCI_ID_MAX + 1];		/* the runtime's container id */
	char pod_uid[POD_UID_MAX + 1];
	char name[CONTAINER_NAME_MAX + 1];
	char told[256];				/* cpuset last told, "" none */
	bool no_quota;				/* and no CFS quota (cpu-quota) */
};

struct ctl_nri {
	const char *dir;			/* --state-dir */
	struct ctl_runtime rt;
	FILE *log;				/* --verbose: stderr */
	struct ctl_nri_known *known;
	size_t nr_known;
	/*
	 * The node of the last call, kept without the lock between calls
	 * (ctl_nri_close()): the next call takes it up again when no other
	 * writer held the lock since (token: the one our lock wrote) and
	 * the kernel's table did not move, instead of reading the state
	 * directory and the table again.
	 */
	struct node node;
	bool cached;
	/* the shared pool as the updates last told it (ctl_nri_update.c) */
	struct cpuset told_pool;
	bool told_pool_known;
	char token[sizeof(((struct checkpoint_store *)0)->token)];
	/* "<index>-<name>": this plugin as the runtime names it */
	char self[80];
	/*
	 * What Configure told of the runtime: its timeouts in ms (0: not
	 * told, before NRI 0.8), and whether it knows NRI 0.10's events
	 * (UpdatePodSandbox, ValidateContainerAdjustment).
	 */
	int64_t registration_timeout_ms, request_timeout_ms;
	bool validates;
	/* a Synchronize in parts (NRI 0.8's "more"): the parts so far */
	Nri__Pkg__Api__V1alpha1__SynchronizeRequest **parts;
	size_t nr_parts;
	/*
	 * CPUMGR_NRI_STALL=METHOD:DURATION (tests): the first call of
	 * METHOD is held that long before it is served, as a plugin too
	 * slow for the runtime's timeout is.
	 */
	char stall_method[48];
	unsigned int stall_ms;
	/*
	 * The cgroups the sweeps found gone of containers not known to
	 * have stopped, released after gone_grace_ms (0: at once):
	 * ctl_nri_gone.c.
	 */
	struct ctl_nri_gone *gone;
	size_t nr_gone;
	unsigned int gone_grace_ms;
};

/* The runtime's request timeout when it did not say (NRI's default). */
#define CTL_NRI_REQUEST_TIMEOUT_MS	2000

/*
 * The node for one call, targeted (node.targeted): the last call's when
 * nothing moved since, else node_open() and a sweep of the containers
 * whose cgroup is gone; on failure r holds the error for the runtime.
 */
int ctl_nri_open(struct ctl_nri *p, struct node *n, struct nri_reply *r);
/*
 * The same without the sweep of the containers whose cgroup is gone:
 * Synchronize, where the runtime's list of pods says more (a container
 * that ended while its pod lives keeps its CPUs).
 */
int ctl_nri_open_unswept(struct ctl_nri *p, struct node *n,
			 struct nri_reply *r);
/* The call is done: unlock, and keep the node for the next call. */
void ctl_nri_close(struct ctl_nri *p, struct node *n);
/* Drop the node kept (node_close()): the next call reads it all again. */
void ctl_nri_drop(struct ctl_nri *p);
/* An NRI error back to the runtime. */
void ctl_nri_refuse(struct nri_reply *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A pod's sandbox on the shared pool, when the runtime names its cgroup. */
void ctl_nri_add_sandbox(struct ctl_nri *p, struct node *n,
			 struct oci_container *c);
/* Synchronize: the runtime's pods and containers after a (re)connect. */
int ctl_nri_synchronize(struct ctl_nri *p, const struct nri_request *req,
			struct nri_reply *r);
/* Drop the parts of a Synchronize not finished (a new connection). */
void ctl_nri_sync_parts_free(struct ctl_nri *p);
/*
 * ValidateContainerAdjustment (ctl_nri_validate.c): another plugin's
 * cpuset that holds CPUs another container holds exclusively is refused
 * (but those of an ended container of the same pod).
 */
int ctl_nri_validate(struct ctl_nri *p, const struct nri_request *req,
		     struct nri_reply *r);
/* CPUMGR_NRI_STALL into p; -1 (said on stderr) when it does not parse. */
int ctl_nri_stall_setup(struct ctl_nri *p, const char *spec);

struct ctl_nri_updates;
/*
 * Release the recorded containers whose cgroup is gone, and the others'
 * updates into set: the number of updates, <0 on error.
 */
int ctl_nri_sweep(struct ctl_nri *p, struct ctl_nri_updates *set);
/* The nri_conn tick: ctl_nri_sweep(), its updates sent. */
int ctl_nri_tick(void *ctx, struct nri_conn *c);

/* The nri_conn handler of the Plugin service. */
int ctl_nri_call(void *ctx, struct nri_conn *c, const struct nri_request *req,
		 struct nri_reply *reply);
/* Responses to our UpdateContainers: failures are logged. */
void ctl_nri_response(void *ctx, struct nri_conn *c, const char *method,
		      const struct nri_response *rsp);
/*
 * Forget everything remembered (a new connection syncs again), the
 * cgroups seen gone included.
 */
void ctl_nri_forget(struct ctl_nri *p);

#endif
