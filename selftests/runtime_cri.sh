#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Kubernetes node path: containerd with NRI, driven through the CRI
# as the kubelet drives it (selftests/cri_driver.py), `cpumgrctl nri` as
# its NRI plugin, cpumgr in enforce mode (selftests/cri_lib.sh sets the
# node up): containerd 1.7 and the cgroupfs driver on the host root, or,
# on a node of today (guest-run.sh -N), containerd 2.x, the systemd
# cgroup driver and cpumgr's packages under systemd.  Pods from
# examples/pods:
#
# - without the plugin: containerd answers the CRI with NRI enabled, the
#   image is imported, a pod runs and its container prints its CPUs;
# - decide mode (kubelet with cpuManagerPolicy none, no cpuset_cpus): a
#   Guaranteed 2-CPU container prints its exclusive CPUs as the first
#   line of its program; fractional Guaranteed, Burstable and
#   BestEffort containers, and the sidecar of a multi-container pod,
#   print the shared pool; a pod with pod-level resources (KEP-5526,
#   the kubelet's allocated_pods_state says so, cpumgr matching 1.37)
#   gets its pool of 4 at its sandbox: app's 2 CPUs and log's share of
#   the rest, each printed, none of them shared, back in the shared
#   pool with the pod's deletion (with --pool-moves partitions
#   refused, as admit refuses it); the node's system
#   partition (KEP-5894, CPU 0: init --system-partition 0, the kubelet
#   putting kube-system's pods below kubepods/system): a kube-system
#   pod asking for 2 whole CPUs gets none exclusive and prints the
#   partition's CPU, not the pool; a pod that does not fit is refused
#   with the kubelet's text and leaves nothing; containerd restarted
#   and the plugin restarted lose nothing; deleting pods returns their
#   CPUs;
#   shared CPUs on request: the container a Guaranteed pod's
#   prefer-shared-cpus.cpumgr.io annotation names prints the shared
#   pool, the other its exclusive CPUs, and a bad annotation refuses
#   the pod and leaves nothing;
#   in-place resize (UpdateContainerResources, the NRI's
#   UpdateContainer): a running Guaranteed container resized 2 -> 4 ->
#   3 -> 2 CPUs has its task's Cpus_allowed_list follow, keeps its
#   admission CPUs, never shares one with a Burstable container running
#   beside it, audit clean after each step; shrinking below the
#   admission set is refused with nothing changed;
#   a container that restarts in its pod (its program exits, the
#   kubelet creates attempt 1, a new container ID): the new instance
#   runs on its exclusive CPUs, and a late StopContainer and the
#   RemoveContainer of the dead instance (the kubelet's container GC)
#   leave them its, bound to its cgroup; the pod's deletion returns
#   them;
#   CPUMGR_CRI_CYCLES (default 30) pod create/delete cycles;
# - guard mode (kubelet with the static policy: its decision in
#   cpuset_cpus and in its checkpoint): exactly the kubelet's CPUs; a
#   container without an entry on the shared pool; cycles;
# - afterwards the table, the checkpoint, the pod files and the cgroups
#   agree and audit is clean;
# - with the systemd cgroup driver, where systemd writes the cpusets of
#   slices and scopes (AllowedCPUs): `systemctl set-property` of a
#   Burstable container's scope within the shared pool goes through, one
#   naming the Guaranteed container's CPUs is refused by the module with
#   its usual log line and systemd goes on; and no write systemd made on
#   its own was refused (each one would be named).
# The plugin's checks report SKIP when this cpumgrctl has no `nri` (by
# hand; under make check they fail);
# CPUMGR_POOL_MOVES=partitions: the node's init --pool-moves partitions
# (every exclusive container's cgroup a partition, the pool moved by the
# kernel): an init container that ended under --init-cpus keep holds
# its CPUs in its partition until its app is created, which reuses them
# as the kubelet's does, the rest shared from then on; the resize moves
# the container's partition with its CPUs each way; the rest as above.
# CPUMGR_CRI_SHORT=1 (the debug kernel, 6.12-rt) leaves out the
# multi-container pod, the restarts (containerd's, the plugin's, a
# container's in its pod), the shared CPUs on request (the
# controller's logic alone), guard's shared container and the cycles.
# smt8 preset: 8 CPUs, CPU 0 reserved.

. "$CPUMGR_TOP/selftests/cri_lib.sh"

trap cri_cleanup EXIT

cri_need

CYCLES=${CPUMGR_CRI_CYCLES:-30}
PARTS=0
[ "$CPUMGR_POOL_MOVES" != partitions ] || PARTS=1
RESIZE="decide: a running container resized 2 -> 4 -> 3 -> 2 CPUs, 1 refused"
[ "$PARTS" = 0 ] ||
	RESIZE="decide: a running container resized 2 -> 4 -> 3 -> 2 CPUs, its partition with it, 1 refused"
G2=0b1e5a44-5f3c-4c55-9a0e-000000000004
PP=0b1e5a44-5f3c-4c55-9a0e-000000000011
KS=0b1e5a44-5f3c-4c55-9a0e-000000000051
# the kubelet of today: pod-level resource managers on
CRI_INIT_ARGS=(--kubelet-version 1.37)
# KEP-5894's system partition where the kubelet is the test's own, with
# the cgroupfs driver: not on the node of today, whose KEP-5894 cgroups
# no released kubelet makes yet, nor where partitions move the pool
# below the root
SYSTEM="the system partition: not with"
if [ "$CRI_NODE" = 1 ]; then
	SYSTEM="$SYSTEM the node of today (guest-run.sh -N), whose KEP-5894 cgroups no released kubelet makes"
elif [ "$PARTS" = 1 ]; then
	SYSTEM="$SYSTEM --pool-moves partitions"
else
	SYSTEM=
	CRI_INIT_ARGS+=(--system-partition 0)
	CRI_SYSTEM_NS=kube-system
fi
# the systemd driver's own checks (set-property, systemd's writes)
SYSTEMD_CHECKS=0
[ "$CRI_DRIVER" != systemd ] || SYSTEMD_CHECKS=3
ktap_plan $((25 + SYSTEMD_CHECKS))

cri_node_up || {
	echo "# set-up failed"
	exit 1
}
CRI_VERSION=$("$CRI_BIN/containerd" --version | awk '{ print $3 }')
echo "# containerd $CRI_VERSION, runc $(runc --version | awk 'NR == 1 { print $3 }'), $CRI_DRIVER cgroup driver"

# timed COMMAND...: run it, say how long it took (TCG guests are slow;
# the figures go into selftests/plan).
timed()
{
	local t0=$SECONDS status

	"$@"
	status=$?
	echo "# $((SECONDS - t0)) s"
	return $status
}

# Without the plugin: the runtime, the image, one pod through the CRI.
t_plain()
{
	local line want

	local pod

	pod=$(cri_pod_cgroup 0b1e5a44-5f3c-4c55-9a0e-000000000001 besteffort)
	cri_image && [ -S "$NRI_SOCK" ] || { echo "# no NRI socket"; return 1; }
	cri_up "$PODS/besteffort.json" || { diag <"$CRI/up.err"; return 1; }
	line=$(cri_line nginx)
	want=$(cat "$pod/cpuset.cpus.effective")
	echo "# plain: first line '$line', pod cgroup '$want'"
	kubelet down 0b1e5a44-5f3c-4c55-9a0e-000000000001 || return 1
	[ -n "$line" ] && [ "$line" = "$want" ] && [ ! -e "$pod" ] &&
		[ -z "$(ctr_k8s containers ls -q)" ]
}
check "containerd $CRI_VERSION with NRI: the image imports, a pod runs through the CRI" \
	timed t_plain

if ! cri_have_plugin; then
	for t in "decide: status --ready nri once the plugin registered with containerd" \
		 "decide: Guaranteed 2-CPU container on its exclusive CPUs; status names its pod" \
		 "decide: fractional, Burstable, BestEffort on the shared pool" \
		 "decide: a pod's pool (pod-level resources) from the kubelet's allocated_pods_state" \
		 "decide: a kube-system pod on the system partition, none exclusive" \
		 "decide: init container, app, sidecar; --init-cpus keep and release" \
		 "decide: a pod that does not fit is refused, nothing left" \
		 "decide: containerd restarted loses nothing" \
		 "decide: the plugin restarted loses nothing" \
		 "decide: deleting the pods returns their CPUs" \
		 "decide: shared CPUs on request: the annotated agent shared, app exclusive" \
		 "decide: a bad prefer-shared-cpus annotation refuses the pod, nothing left" \
		 "$RESIZE" \
		 "decide: a container restarted in its pod keeps its CPUs when its dead instance goes" \
		 "decide: pod create/delete cycles" \
		 "decide: table, checkpoint, cgroups agree" \
		 "status --ready nri: not ready once the plugin stopped" \
		 "guard: the kubelet's CPUs, assigned and bound" \
		 "guard: a container without an entry gets the shared pool" \
		 "guard: a pod's pool (pod-level resources) from the kubelet's v4 checkpoint" \
		 "guard: a pod that does not fit is refused by the kubelet" \
		 "guard: pod create/delete cycles" \
		 "guard: table, checkpoint, cgroups agree; audit clean" \
		 "afterwards: nothing assigned, no pod cgroup left"; do
		ktap_missing "$t" "the NRI plugin in this cpumgrctl (cpumgrctl nri, built with protobuf-c)"
	done
	for ((t = 0; t < SYSTEMD_CHECKS; t++)); do
		ktap_missing "systemd check $t" "the NRI plugin in this cpumgrctl (cpumgrctl nri, built with protobuf-c)"
	done
	ktap_exit
fi

cri_plugin_start decide || { echo "# the plugin did not start"; exit 1; }
# the DaemonSet's readiness: the plugin says it registered
check "decide: status --ready nri once the plugin registered with containerd" \
	eval 'ctl status --ready nri 2>&1 | diag; [ "${PIPESTATUS[0]}" = 0 ]'

# long_check DESCRIPTION COMMAND...: a check CPUMGR_CRI_SHORT=1 leaves
# out (the debug kernel, where each pod takes a minute).
long_check()
{
	if [ "${CPUMGR_CRI_SHORT:-0}" = 1 ]; then
		ktap_result ok "$1 # SKIP CPUMGR_CRI_SHORT=1"
		return
	fi
	check "$@"
}

# first_is_exclusive UID NAME: its first line is its exclusive CPUs.
first_is_exclusive()
{
	local line mine

	line=$(cri_line "$2")
	mine=$(rt_cpus "$1" "$2")
	echo "# $1/$2: first line '$line', exclusive '$mine'"
	[ -n "$mine" ] && [ "$line" = "$mine" ]
}

# first_is_shared NAME: its first line is the shared pool.
first_is_shared()
{
	local line shared

	line=$(cri_line "$1")
	shared=$(cat $SYSFS/shared_cpus)
	echo "# $1: first line '$line', shared '$shared'"
	[ "$line" = "$shared" ] && rt_disjoint "$line" "$(cat $SYSFS/exclusive_cpus)"
}

t_guaranteed()
{
	cri_up "$PODS/guaranteed-2cpu.json" || { diag <"$CRI/up.err"; return 1; }
	first_is_exclusive $G2 nginx &&
		[ "$(cat $SYSFS/pods/$G2/nginx/pod_cgroup 2>/dev/null || cat $SYSFS/pods/$G2/pod_cgroup)" = "$(cri_pod_cgroup $G2)" ] || return 1
	# status names the pod as the NRI named it, not by its UID alone
	"$CTL" status --json --state-dir "$S" >"$CRI/status.json" &&
		grep -Eq '"podName":[[:space:]]*"guaranteed-2cpu"' "$CRI/status.json" ||
		{ diag <"$CRI/status.json"; return 1; }
}

t_shared()
{
	local f ok=0

	for f in guaranteed-fractional burstable-cpu besteffort; do
		cri_up "$PODS/$f.json" || { diag <"$CRI/up.err"; ok=1; continue; }
		first_is_shared nginx || ok=1
	done
	[ $ok = 0 ]
}

# KEP-5526 in decide mode: the kubelet's allocated_pods_state says the
# pod has pod-level resources (4 CPUs); the plugin admits it whole at its
# sandbox, as admit does: the pool out of the shared pool, app's slice
# and log's share of the rest; its deletion returns the pool.  A pool's
# sharers cannot each be a partition of its rest: where partitions move
# the pool, refused.
t_decide_pod_pool()
{
	local pool app log

	if [ "$PARTS" = 1 ]; then
		if cri_up "$PODS/guaranteed-pod-pool.json"; then
			echo "# the pod started"
			return 1
		fi
		diag <"$CRI/up.err"
		grep -q "do not go together" "$CRI/up.err" &&
			[ ! -e "$SYSFS/pods/$PP" ] && [ ! -e "$(cri_pod_cgroup $PP)" ]
		return
	fi
	cri_up "$PODS/guaranteed-pod-pool.json" || { diag <"$CRI/up.err"; return 1; }
	pool=$(cat $SYSFS/pods/$PP/pod_cpus 2>/dev/null)
	app=$(rt_cpus $PP app)
	log=$(rt_cpus $PP log)
	echo "# the pool '$pool', app '$app', log '$log', shared '$(cat $SYSFS/shared_cpus)'"
	if ! [ "$(rt_cpus_minus "$pool" "" | tr , '\n' | grep -c .)" = 4 ] ||
	   ! [ "$(rt_cpus_minus "$app" "" | tr , '\n' | grep -c .)" = 2 ] ||
	   ! first_is_exclusive $PP app || ! first_is_exclusive $PP log ||
	   ! rt_disjoint "$app" "$log" || ! rt_cpus_rel same "$pool" "$app,$log" ||
	   ! rt_disjoint "$pool" "$(cat $SYSFS/shared_cpus)" ||
	   ! grep -q "pod $PP: pod-level resources in .*, admitted whole" "$NRI_LOG"; then
		# what the plugin made of it, and what it matches
		grep -F "$PP" "$NRI_LOG" | tail -n 6 | diag
		grep -o '"[a-zA-Z]*[vV]ersion"[^,]*' "$S/config.json" | diag
		return 1
	fi
	# its deletion returns the pool to the shared pool
	kubelet down $PP || return 1
	echo "# deleted: shared '$(cat $SYSFS/shared_cpus)'"
	[ ! -e "$SYSFS/pods/$PP" ] && rt_subset "$pool" "$(cat $SYSFS/shared_cpus)"
}

# KEP-5894: the kubelet puts a kube-system pod below the system cgroup;
# its Guaranteed container is no exclusive one, the plugin gives it the
# partition's CPU (0), not the shared pool, which holds it too here.
t_system_pod()
{
	local f line cg

	f=$(cri_pod_file "$PODS/guaranteed-2cpu.json" $KS "" kube-system)
	cri_up "$f" || { diag <"$CRI/up.err"; return 1; }
	line=$(cri_line nginx)
	cg=$CG/system/pod$KS
	echo "# kube-system pod: first line '$line', its cgroup's CPUs '$(cat "$cg/cpuset.cpus.effective" 2>&1)', the module's system cgroup '$(cat $SYSFS/system_cgroup)'"
	[ "$line" = 0 ] && [ ! -e "$SYSFS/pods/$KS" ] &&
		[ "$(cat "$cg/cpuset.cpus.effective")" = 0 ] &&
		[ "$(cat $SYSFS/system_cgroup)" = "$CG/system" ] || return 1
	kubelet down $KS && [ ! -e "$cg" ]
}

# ---- the systemd cgroup driver: systemd writes AllowedCPUs ----

# cri_cid UID NAME: the container's ID, from the kubelet's record.
cri_cid()
{
	grep -o "\"$2\": \"[0-9a-f]*\"" "$CRI/kubelet/pods/$1.json" | cut -d'"' -f4
}

# The kernel log's lines from line $1 on.
kmsg_since()
{
	dmesg | tail -n +"$1"
}

# set_property UNIT CPUS: `systemctl set-property --runtime UNIT
# AllowedCPUs=CPUS`, as an administrator runs it; systemd writes the
# unit's cpuset.cpus itself.
set_property()
{
	systemctl set-property --runtime "$1" "AllowedCPUs=$2" 2>&1 | diag
	[ "${PIPESTATUS[0]}" = 0 ]
}

# CG WANT [PID]: wait up to 30 s for CG's cpuset.cpus to be WANT, and
# with PID the CPUs of that task too, both at one look.  systemd answers
# set-property before it writes the cgroup: it queues the unit's cgroup
# to be realized by its event loop.  A look reads two files with the
# shell alone: under TCG a fork takes long enough to miss a short state.
# BECAME_CPUS and BECAME_TASK hold the last look.
cpuset_becomes()
{
	local end=$((SECONDS + 30))

	while :; do
		read -r BECAME_CPUS <"$1/cpuset.cpus"
		BECAME_TASK=
		[ -z "$3" ] || task_allowed "$3"
		[ "$BECAME_CPUS" = "$2" ] &&
			{ [ -z "$3" ] || [ "$BECAME_TASK" = "$2" ]; } && return 0
		((SECONDS < end)) || return 1
		sleep 0.1
	done
}

# BECAME_TASK: task $1's Cpus_allowed_list, read by the shell alone.
task_allowed()
{
	local key val

	while read -r key val; do
		[ "$key" = Cpus_allowed_list: ] && BECAME_TASK=$val && return
	done <"/proc/$1/status"
}

# daemon_hold, daemon_go: stop the node daemon (SIGSTOP), let it go on
# (SIGCONT).  Its round every period puts a shared container's cpuset
# back to the pool, as the kubelet's reconcile does: a round right after
# systemd's write would undo what a check waits to see.  Its watchdog
# fires 2 min after its last ping, which came within the last minute; a
# check holds it for one set-property and at most 30 s of looks.
DAEMON_HELD=
daemon_hold()
{
	if [ "$CRI_NODE" = 1 ]; then
		DAEMON_HELD=$(systemctl show -p MainPID --value cpumgr.service)
	else
		DAEMON_HELD=$RT_DAEMON_PID
	fi
	[ "${DAEMON_HELD:-0}" = 0 ] || kill -STOP "$DAEMON_HELD"
}

daemon_go()
{
	[ "${DAEMON_HELD:-0}" = 0 ] || kill -CONT "$DAEMON_HELD"
	DAEMON_HELD=
}

# The daemon's lines of the last 2 min about cgroup $1 (it logs each
# cpuset it writes).
daemon_lines()
{
	if [ "$CRI_NODE" = 1 ]; then
		journalctl --no-pager -o cat -u cpumgr.service --since=-120s
	else
		cat "$RT/daemon.log"
	fi | grep -F "${1#/sys/fs/cgroup}" | tail -n 5 | diag
}

# A Burstable container's scope (cri-containerd-<ID>.scope in its pod's
# slice) on the shared pool: AllowedCPUs set to part of the pool goes
# through (its task follows), then back to the pool.
BU=0b1e5a44-5f3c-4c55-9a0e-000000000003
t_set_property_fits()
{
	local unit cg shared one pid status

	unit=cri-containerd-$(cri_cid $BU nginx).scope
	cg=$(cri_container_cgroup "$(cri_cid $BU nginx)")
	pid=$(head -n 1 "$cg/cgroup.procs")
	shared=$(cat $SYSFS/shared_cpus)
	one=${shared##*,}
	one=${one##*-}
	[ -n "$pid" ] && [ "$one" != "$shared" ] || {
		echo "# $cg: task '$pid', shared pool '$shared'"
		return 1
	}
	daemon_hold || return 1
	set_property "$unit" "$one" && cpuset_becomes "$cg" "$one" "$pid"
	status=$?
	daemon_go
	echo "# $unit AllowedCPUs=$one: cpuset.cpus '$BECAME_CPUS', its task '$BECAME_TASK'"
	[ $status = 0 ] || { daemon_lines "$cg"; return 1; }
	set_property "$unit" "$shared" && cpuset_becomes "$cg" "$shared" "$pid"
}

# AllowedCPUs naming the Guaranteed pod's exclusive CPUs: the module
# refuses systemd's write of cpuset.cpus (its usual line: pid 1,
# systemd, the cgroup, whose CPUs), nothing changes, and systemd keeps
# working: the unit stays active and a fitting AllowedCPUs goes through.
t_set_property_refused()
{
	local unit cg excl before mark v0 rel shared i line

	unit=cri-containerd-$(cri_cid $BU nginx).scope
	cg=$(cri_container_cgroup "$(cri_cid $BU nginx)")
	excl=$(rt_cpus $G2 nginx)
	before=$(cat "$cg/cpuset.cpus")
	read -r v0 <$SYSFS/violations
	mark=$(($(dmesg | wc -l) + 1))
	set_property "$unit" "$excl" || return 1
	rel=${cg#/sys/fs/cgroup}
	line="cpumgr: refused write of cpuset.cpus in cgroup $rel by pid 1 (systemd)"
	# systemd writes the cgroup from its event loop, after its answer
	for ((i = 0; i < 300; i++)); do
		kmsg_since "$mark" | grep -qF "$line" && break
		sleep 0.1
	done
	echo "# $unit AllowedCPUs=$excl: cpuset.cpus '$(cat "$cg/cpuset.cpus")' (was '$before'), its task '$(task_cpus $BU nginx)', violations $v0 -> $(cat $SYSFS/violations)"
	kmsg_since "$mark" | grep cpumgr | diag
	journalctl -b --no-pager -o cat _PID=1 --since=-60s | grep -F "$rel" | tail -n 3 | diag
	[ "$(cat "$cg/cpuset.cpus")" = "$before" ] &&
		rt_disjoint "$(task_cpus $BU nginx)" "$excl" &&
		[ "$(cat $SYSFS/violations)" -gt "$v0" ] &&
		kmsg_since "$mark" | grep -qF "$line: CPUs $excl are pod $G2 container nginx" &&
		echo "$rel" >>"$CRI/provoked" &&
		systemctl is-active --quiet "$unit" || return 1
	shared=$(cat $SYSFS/shared_cpus)
	set_property "$unit" "$shared" && cpuset_becomes "$cg" "$shared"
}

# init_reuse UID: guaranteed-init-reuse.json as pod UID: its init
# container setup (4 CPUs) runs to its end, then app (2, exclusive) and
# sidecar (500m, shared) run.  Prints setup's CPUs.
init_reuse()
{
	local f

	f=$(cri_pod_file "$PODS/guaranteed-init-reuse.json" "$1")
	cri_up "$f" || { diag <"$CRI/up.err" >&2; return 1; }
	echo "# init container setup ran on '$(cri_line setup)'" >&2
	# the kubelet's static policy hands the init container's CPUs on
	first_is_exclusive "$1" app >&2 && first_is_shared sidecar >&2 &&
		rt_subset "$(cri_line app)" "$(cri_line setup)" &&
		cri_line setup
}

# setup_released UID SETUP: pod UID's setup, which ran on SETUP, holds
# no CPU, and those of SETUP its app does not hold are shared.
setup_released()
{
	local held

	held=$(rt_cpus "$1" setup)
	echo "# setup holds '$held', shared '$(cat $SYSFS/shared_cpus)'"
	[ -n "$2" ] && [ -z "$held" ] &&
		rt_subset "$(rt_cpus_minus "$2" "$(rt_cpus "$1" app)")" \
			  "$(cat $SYSFS/shared_cpus)"
}

# --init-cpus keep (the default, the kubelet's behaviour): setup keeps
# the CPUs app does not reuse until its pod goes (kubernetes#112228).
# With the pool moved by partitions, setup's partition keeps them once
# it ended, and goes when app is created: app chooses from the free
# CPUs and setup's, as the kubelet's reuse has it, and what it leaves
# of them is shared from then on.
# --init-cpus release: they return to the shared pool when setup ends.
t_multi()
{
	local setup held

	setup=$(init_reuse init-keep) || return 1
	if [ "$PARTS" = 1 ]; then
		setup_released init-keep "$setup" || return 1
	else
		held=$(rt_cpus init-keep setup)
		echo "# keep: setup holds '$held' after it ran to its end"
		[ -n "$held" ] && [ "$held" = "$setup" ] &&
			rt_disjoint "$(cat $SYSFS/shared_cpus)" "$setup" ||
			return 1
	fi
	kubelet down init-keep || return 1
	rt_configure enforce --init-cpus release || return 1
	setup=$(init_reuse init-release) &&
		setup_released init-release "$setup" &&
		rt_subset "$(cri_line sidecar)" "$(cat $SYSFS/shared_cpus)" &&
		kubelet down init-release && rt_configure enforce
}

# refused UID: a 16-CPU pod UID is refused with the kubelet's text and
# leaves no pod in the kernel, no pod cgroup, no record of the kubelet.
refused()
{
	local f

	f=$(cri_pod_file "$PODS/guaranteed-2cpu.json" "$1" 16)
	if cri_up "$f"; then
		echo "# a 16-CPU pod started on 8 CPUs"
		return 1
	fi
	diag <"$CRI/up.err"
	grep -q "not enough cpus available to satisfy request" "$CRI/up.err" &&
		[ ! -e "$SYSFS/pods/$1" ] && [ ! -e "$(cri_pod_cgroup "$1")" ] &&
		[ ! -e "$CRI/kubelet/pods/$1.json" ]
}

t_no_fit()
{
	local before

	before=$(ls "$CG" | sort)
	refused big && [ ! -e "$S/pods/big.json" ] &&
		[ "$(ls "$CG" | sort)" = "$before" ] &&
		[ -z "$(ctr_k8s containers ls -q | grep -v -f "$(kubelet_ids)")" ]
}

# A file of the container IDs the kubelet knows (its pods' records).
kubelet_ids()
{
	{
		cat "$CRI"/kubelet/pods/*.json 2>/dev/null |
			grep -o '"[0-9a-f]\{64\}"' | tr -d '"'
		echo none
	} >"$CRI/known-ids"
	echo "$CRI/known-ids"
}

# What the node holds: the kernel's assignments and the runtime's
# containers, for a before/after comparison.
node_snapshot()
{
	"$CTL" dump --json | tr -d ' \n'
	echo
	ctr_k8s containers ls -q | sort
}

t_restart_containerd()
{
	local before after from f

	before=$(node_snapshot)
	from=$(cri_log_lines)
	cri_stop_containerd
	cri_start_containerd || return 1
	# the plugin connects again by itself and resynchronizes
	cri_wait_registered "$from" || return 1
	after=$(node_snapshot)
	[ "$before" = "$after" ] || { echo "# before: $before"; echo "# after: $after"; return 1; }
	# a new pod is placed beside the old ones
	f=$(cri_pod_file "$PODS/guaranteed-2cpu.json" after-ctd)
	cri_up "$f" || { diag <"$CRI/up.err"; return 1; }
	first_is_exclusive after-ctd nginx &&
		rt_disjoint "$(rt_cpus after-ctd nginx)" "$(rt_cpus $G2 nginx)"
}

t_restart_plugin()
{
	local before after f from

	before=$(node_snapshot)
	if [ "$CRI_NODE" = 1 ]; then
		# as an operator restarts it
		from=$(cri_log_lines)
		systemctl restart cpumgr-nri@decide.service &&
			cri_wait_registered "$from" || return 1
	else
		cri_plugin_stop
		cri_plugin_start decide || return 1
	fi
	after=$(node_snapshot)
	[ "$before" = "$after" ] || { echo "# before: $before"; echo "# after: $after"; return 1; }
	f=$(cri_pod_file "$PODS/guaranteed-2cpu.json" after-nri 1)
	cri_up "$f" || { diag <"$CRI/up.err"; return 1; }
	first_is_exclusive after-nri nginx
}

t_delete()
{
	local f uid left from

	from=$(cri_log_lines)
	for f in "$CRI"/kubelet/pods/*.json; do
		uid=${f##*/}
		kubelet down "${uid%.json}" || return 1
	done
	left=$(ls "$S/pods" 2>/dev/null)
	echo "# exclusive '$(cat $SYSFS/exclusive_cpus)', shared '$(cat $SYSFS/shared_cpus)', pods '$left'"
	# what the plugin made of a pod left's deletion
	for uid in $left; do
		tail -n +"$((from + 1))" "$NRI_LOG" | grep -F "${uid%.json}" |
			tail -n 6 | diag
	done
	[ -z "$(cat $SYSFS/exclusive_cpus)" ] && [ -z "$left" ] &&
		[ "$(cat $SYSFS/shared_cpus)" = "$(cat /sys/devices/system/cpu/online)" ] &&
		[ -z "$(ctr_k8s containers ls -q)" ]
}

# Shared CPUs on request: agent (1 CPU of a Guaranteed pod) on the
# shared pool as its pod's annotation asks, app on 2 exclusive CPUs.
t_shared_on_request()
{
	local uid=0b1e5a44-5f3c-4c55-9a0e-000000000010

	cri_up "$PODS/guaranteed-shared-sidecar.json" || { diag <"$CRI/up.err"; return 1; }
	first_is_exclusive $uid app && first_is_shared agent &&
		[ ! -e "$SYSFS/pods/$uid/agent" ] &&
		grep -q '"prefer-shared-cpus.cpumgr.io/container.agent"' "$S/pods/$uid.json" ||
		return 1
	kubelet down $uid
}

# A value that is neither "true" nor "false": CreateContainer refused
# with the annotation named; no pod in the kernel, no cgroup, no record.
t_shared_bad()
{
	local f uid=shared-bad

	f=$(cri_pod_file "$PODS/guaranteed-shared-sidecar.json" $uid)
	sed -i 's/"prefer-shared-cpus.cpumgr.io\/container.agent": "true"/"prefer-shared-cpus.cpumgr.io\/container.agent": "on"/' "$f"
	grep -q '"on"' "$f" || { echo "# $f: no bad value"; return 1; }
	if cri_up "$f"; then
		echo "# a pod with a bad annotation started"
		return 1
	fi
	diag <"$CRI/up.err"
	grep -q 'annotation prefer-shared-cpus.cpumgr.io/container.agent: "on": must be "true" or "false"' "$CRI/up.err" &&
		[ ! -e "$SYSFS/pods/$uid" ] && [ ! -e "$(cri_pod_cgroup $uid)" ] &&
		[ ! -e "$CRI/kubelet/pods/$uid.json" ] && [ ! -e "$S/pods/$uid.json" ]
}

# task_cpus UID NAME: the Cpus_allowed_list of the container's first
# task now (the driver's record names the container's ID, its cgroup).
task_cpus()
{
	local cid cg pid

	cid=$(grep -o "\"$2\": \"[0-9a-f]*\"" "$CRI/kubelet/pods/$1.json" | cut -d'"' -f4)
	[ -n "$cid" ] || return 1
	cg=$(cri_container_cgroup "$cid")
	pid=$(head -n 1 "$cg/cgroup.procs" 2>/dev/null)
	[ -n "$pid" ] && awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$pid/status"
}

# The number of CPUs of a cpulist.
cpu_count()
{
	echo "$1" | awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { m = split($i, r, "-"); n += m == 2 ? r[2] - r[1] + 1 : 1 } print n }'
}

# In-place resize of a running Guaranteed container (the KEP-5554 rules):
# 2 -> 4 -> 3 -> 2 CPUs, a Burstable container running beside it.
t_resize()
{
	local uid=resize-g buid=resize-b f b n adm mine got other

	f=$(cri_pod_file "$PODS/guaranteed-2cpu.json" $uid)
	b=$(cri_pod_file "$PODS/burstable-cpu.json" $buid)
	cri_up "$b" || { diag <"$CRI/up.err"; return 1; }
	cri_up "$f" || { diag <"$CRI/up.err"; return 1; }
	adm=$(rt_cpus $uid nginx)
	echo "# admitted with '$adm'"
	for n in 4 3 2; do
		kubelet resize "$f" nginx $n >"$CRI/resize.out" 2>&1 ||
			{ diag <"$CRI/resize.out"; return 1; }
		mine=$(rt_cpus $uid nginx)
		got=$(task_cpus $uid nginx)
		other=$(task_cpus $buid nginx)
		echo "# $n CPUs: exclusive '$mine', its task '$got', the Burstable task '$other'"
		[ "$(cpu_count "$mine")" = $n ] && [ "$got" = "$mine" ] &&
			rt_subset "$adm" "$mine" && rt_disjoint "$got" "$other" &&
			[ "$other" = "$(cat $SYSFS/shared_cpus)" ] || return 1
		[ "$PARTS" = 0 ] || partition_on $uid "$mine" || return 1
		ctl audit >"$RT/audit" 2>&1 || { diag <"$RT/audit"; return 1; }
	done
	[ "$mine" = "$adm" ] || return 1
	"$CTL" status --json --state-dir "$S" >"$CRI/status.json" &&
		grep -Eq "\"admittedCpus\":[[:space:]]*\"$adm\"" "$CRI/status.json" ||
		{ diag <"$CRI/status.json"; return 1; }
	# below the admission set: refused, nothing changes
	resize_refused "$f" $uid 1 "it was admitted with 2 ($adm)" "$adm" &&
		rt_agree && kubelet down $uid $buid
}

# resize_refused FILE UID N TEXT CPUS: the resize of UID's nginx to N
# CPUs is refused with TEXT, the node as it was, its task still on CPUS.
resize_refused()
{
	local before

	before=$(node_snapshot)
	if kubelet resize "$1" nginx "$3" >"$CRI/resize.out" 2>&1; then
		echo "# resized to $3 CPUs"
		return 1
	fi
	diag <"$CRI/resize.out"
	grep -qF "$4" "$CRI/resize.out" && [ "$(node_snapshot)" = "$before" ] &&
		[ "$(task_cpus "$2" nginx)" = "$5" ]
}

# partition_on UID CPUS: UID's nginx cgroup is a valid partition on CPUS.
partition_on()
{
	local cg state excl

	cg=$(cat "$SYSFS/pods/$1/nginx/cgroup") &&
	state=$(cat "$cg/cpuset.cpus.partition") &&
	excl=$(cat "$cg/cpuset.cpus.exclusive") || return 1
	[ "$state" = root ] && [ "$excl" = "$2" ] && return 0
	echo "# $cg: partition '$state', exclusive '$excl'"
	return 1
}

# held UID NAME CID ADM: the record holds ADM for container ID, bound to
# its cgroup, its task on ADM, in the table and in status (whose cgroup
# path ends with the ID, or with the ID's systemd scope, cri-containerd-
# ID.scope, under the systemd driver).
held()
{
	local mine cg bound got

	mine=$(rt_cpus "$1" "$2")
	cg=$(cri_container_cgroup "$3")
	bound=$(cat "$SYSFS/pods/$1/$2/cgroup" 2>/dev/null)
	got=$(task_cpus "$1" "$2")
	echo "# exclusive '$mine', bound '$bound', its task '$got'"
	[ -n "$4" ] && [ "$mine" = "$4" ] && [ "$got" = "$4" ] &&
		[ -n "$cg" ] && [ "$bound" = "$cg" ] &&
		rt_disjoint "$4" "$(cat "$SYSFS/shared_cpus")" || return 1
	"$CTL" status --json --state-dir "$S" >"$CRI/status.json" &&
		grep -Eq "\"cpus\":[[:space:]]*\"$4\"" "$CRI/status.json" &&
		grep -Eq "\"cgroupPath\":[[:space:]]*\"[^\"]*$3(\.scope)?\"" "$CRI/status.json" ||
		{ diag <"$CRI/status.json"; return 1; }
}

# A container restarts in its pod (restartPolicy Always): its program
# exits, the kubelet creates attempt 1 (a new container ID, its own
# cgroup) and later removes the dead attempt 0 (its container GC); a
# StopContainer of attempt 0 may come late.  The end of attempt 0 is
# none of attempt 1's: its CPUs stay its own.
restart_in_pod()
{
	local uid=$1 f adm a b from status

	f=$(cri_pod_file "$PODS/guaranteed-2cpu.json" "$uid")
	from=$(cri_log_lines)
	kubelet up "$f" --exits nginx >"$CRI/up.out" 2>"$CRI/up.err" ||
		{ diag <"$CRI/up.err"; return 1; }
	first_is_exclusive "$uid" nginx || return 1
	adm=$(rt_cpus "$uid" nginx)
	a=$(awk '$1 == "nginx" { print $2 }' "$CRI/up.out")
	kubelet restart "$f" nginx >"$CRI/up.out" 2>"$CRI/up.err" ||
		{ diag <"$CRI/up.err"; return 1; }
	b=$(awk '$1 == "nginx" { print $2 }' "$CRI/up.out")
	echo "# attempt 0 ${a:0:12} ran on '$adm', attempt 1 ${b:0:12}"
	[ -n "$b" ] && [ "$b" != "$a" ] ||
		{ echo "# no new container for attempt 1"; return 1; }
	first_is_exclusive "$uid" nginx && held "$uid" nginx "$b" "$adm" ||
		return 1
	kubelet earlier "$uid" nginx stop >"$CRI/earlier.out" 2>&1 ||
		{ diag <"$CRI/earlier.out"; return 1; }
	echo "# attempt 0 stopped late"
	held "$uid" nginx "$b" "$adm" || return 1
	kubelet earlier "$uid" nginx remove >"$CRI/earlier.out" 2>&1 ||
		{ diag <"$CRI/earlier.out"; return 1; }
	echo "# attempt 0 removed"
	# what the plugin made of each instance's events: the removal
	# reached it (containerd forwards no second stop of an instance)
	tail -n +"$((from + 1))" "$NRI_LOG" | grep -F -e "$a" -e "$b" |
		tee "$CRI/restart.log" | diag
	grep -Eq "nri: (removal|released) $a" "$CRI/restart.log" ||
		{ echo "# the plugin logged no removal of attempt 0"; return 1; }
	held "$uid" nginx "$b" "$adm" && rt_agree || return 1
	kubelet down "$uid" >"$CRI/down.out" 2>&1
	status=$?
	diag <"$CRI/down.out"
	[ $status = 0 ] || { echo "# the pod's deletion failed"; return 1; }
	echo "# deleted: exclusive '$(cat "$SYSFS/exclusive_cpus")', shared '$(cat "$SYSFS/shared_cpus")'"
	[ ! -e "$SYSFS/pods/$uid" ] ||
		{ echo "# the pod is still in the table"; return 1; }
	rt_subset "$adm" "$(cat "$SYSFS/shared_cpus")"
}

t_restart_in_pod()
{
	restart_in_pod restart-g && return 0
	# the plugin's last words on the pod, within the log's tail CI shows
	grep -F restart-g "$NRI_LOG" | tail -n 5 | diag
	# nothing left behind for the checks after it
	kubelet down restart-g >/dev/null 2>&1
	return 1
}

t_cycles()
{
	kubelet cycles "$1" "$PODS/guaranteed-2cpu.json" \
		"$PODS/burstable-cpu.json" "$PODS/guaranteed-fractional.json" \
		"$PODS/besteffort.json" >"$CRI/cycles.out" 2>&1
	local status=$?
	diag <"$CRI/cycles.out"
	[ $status = 0 ] && [ -z "$(cat $SYSFS/exclusive_cpus)" ] &&
		[ -z "$(ctr_k8s containers ls -q)" ]
}

check "decide: Guaranteed 2-CPU container on its exclusive CPUs; status names its pod" timed t_guaranteed
check "decide: fractional, Burstable, BestEffort on the shared pool" timed t_shared
check "decide: a pod's pool (pod-level resources) from the kubelet's allocated_pods_state" timed t_decide_pod_pool
if [ -n "$SYSTEM" ]; then
	ktap_result ok "decide: a kube-system pod on the system partition, none exclusive # SKIP $SYSTEM"
else
	check "decide: a kube-system pod on the system partition, none exclusive" timed t_system_pod
fi
if [ "$CRI_DRIVER" = systemd ]; then
	check "systemd: set-property AllowedCPUs within the shared pool goes through" timed t_set_property_fits
	check "systemd: set-property AllowedCPUs of another pod's CPUs refused, systemd goes on" timed t_set_property_refused
fi
long_check "decide: init container, app, sidecar; --init-cpus keep and release" timed t_multi
check "decide: a pod that does not fit is refused, nothing left" timed t_no_fit
long_check "decide: containerd restarted loses nothing" timed t_restart_containerd
if [ "$CRI_PLUGIN" = launched ] && [ "$CRI_NODE" = 1 ]; then
	ktap_result ok "decide: the plugin restarted loses nothing # SKIP a plugin containerd launched restarts with containerd (the check before)"
else
	long_check "decide: the plugin restarted loses nothing" timed t_restart_plugin
fi
check "decide: deleting the pods returns their CPUs" timed t_delete
long_check "decide: shared CPUs on request: the annotated agent shared, app exclusive" timed t_shared_on_request
long_check "decide: a bad prefer-shared-cpus annotation refuses the pod, nothing left" timed t_shared_bad
check "$RESIZE" timed t_resize
long_check "decide: a container restarted in its pod keeps its CPUs when its dead instance goes" timed t_restart_in_pod
long_check "decide: $CYCLES pod create/delete cycles" timed t_cycles "$CYCLES"
check "decide: table, checkpoint, cgroups agree" timed rt_agree

# guard: the kubelet runs the static policy and decides
cri_plugin_stop
check "status --ready nri: not ready once the plugin stopped" \
	eval '! ctl status --ready nri 2>&1 | diag; [ "${PIPESTATUS[0]}" = 1 ]'
CRI_MODE=guard
rm -f "$KSTATE"
cri_plugin_start guard || { echo "# the plugin did not start in guard mode"; exit 1; }

t_guard()
{
	local want

	cri_up "$PODS/guaranteed-2cpu.json" || { diag <"$CRI/up.err"; return 1; }
	want=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["entries"][sys.argv[2]]["nginx"])' "$KSTATE" $G2)
	echo "# the kubelet's checkpoint: '$want'"
	first_is_exclusive $G2 nginx && [ "$(rt_cpus $G2 nginx)" = "$want" ]
}

t_guard_shared()
{
	cri_up "$PODS/burstable-cpu.json" || { diag <"$CRI/up.err"; return 1; }
	first_is_shared nginx
}

# KEP-5526: the kubelet's pool (its v4 checkpoint's podEntries), app's
# slice and log's share of the rest; the kernel holds the pool, but
# where partitions move the pool (its rest would stay in the shared
# cgroups, and no partition could be made)
t_guard_pod_pool()
{
	local pool want

	cri_up "$PODS/guaranteed-pod-pool.json" || { diag <"$CRI/up.err"; return 1; }
	pool=$(/usr/bin/python3 -c 'import json, sys; print(json.loads(json.load(open(sys.argv[1]))["data"])["podEntries"][sys.argv[2]]["cpuSet"])' "$KSTATE" $PP)
	want=$pool
	[ "$PARTS" = 0 ] || want=
	echo "# the kubelet's pool '$pool', the kernel's '$(cat $SYSFS/pods/$PP/pod_cpus)'"
	first_is_exclusive $PP app && first_is_exclusive $PP log &&
		[ "$(cat $SYSFS/pods/$PP/pod_cpus)" = "$want" ] &&
		rt_disjoint "$(rt_cpus $PP app)" "$(rt_cpus $PP log)"
}

check "guard: the kubelet's CPUs, assigned and bound" timed t_guard
long_check "guard: a container without an entry gets the shared pool" timed t_guard_shared
check "guard: a pod's pool (pod-level resources) from the kubelet's v4 checkpoint" timed t_guard_pod_pool
check "guard: a pod that does not fit is refused by the kubelet" timed refused gbig
kubelet down $G2 0b1e5a44-5f3c-4c55-9a0e-000000000003 $PP
long_check "guard: $((CYCLES / 3 + 1)) pod create/delete cycles" timed t_cycles $((CYCLES / 3 + 1))
check "guard: table, checkpoint, cgroups agree; audit clean" timed rt_agree

t_after()
{
	local left

	left=$(find "$CG" -mindepth 1 -type d \( -name 'pod*' -o -name '*-pod*.slice' \))
	echo "# pod cgroups left: '$left'"
	[ -z "$left" ] && [ -z "$(cat $SYSFS/exclusive_cpus)" ] &&
		[ -z "$(ls "$S/pods" 2>/dev/null)" ]
}
check "afterwards: nothing assigned, no pod cgroup left" timed t_after

# What systemd wrote on its own (slices, scopes, AllowedCPUs from runc)
# and the module refused: each is a finding, named with its write.
t_systemd_own()
{
	local own

	own=$(dmesg | grep 'cpumgr: refused .* by pid 1 (systemd)' |
		grep -vF -f <(cat "$CRI/provoked" 2>/dev/null; echo /nothing-provoked/))
	[ -z "$own" ] || {
		echo "# refused writes systemd made on its own:"
		diag <<<"$own"
		echo "# the cpuset writes systemd made below kubepods.slice (cgroup_file_write traced):"
		cri_systemd_writes | tail -n 80 | diag
	}
	[ -z "$own" ]
}
[ "$CRI_DRIVER" != systemd ] ||
	check "systemd: no write systemd made on its own was refused" t_systemd_own

ktap_exit
