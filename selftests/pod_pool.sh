#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A pod's pool (KEP-5526 pod-level resources; ASSIGN with
# CPUMGR_A_POD_CPUS, `cpumgrctl pool`): the CPUs the kubelet takes out of
# the shared pool for one pod, its containers' slices and shares among
# them.  Pod pp's app holds its slice 2-3, log shares 4-5, its pool is
# 2-6: CPU 6, which no container holds, stays out of the shared pool and
# may appear in pp's cgroups only; the slice stays app's; a pool must
# hold its containers' CPUs and no other pod's, and needs its pod; a
# container released leaves its CPUs in the pool; an offline in release
# mode takes a CPU out of it (protect mode refuses it); "" drops the
# pool, and it goes with the pod's last container.  Pod pq, on the shared pool
# with a task, wants the CPUs.  Written for the smt8 preset.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

CG=/sys/fs/cgroup
ROOT=$CG/pppods
APP=$ROOT/pp/app
LOG=$ROOT/pp/log
EXTRA=$ROOT/pp/extra
S=$ROOT/pq/s
OUTSIDE=$CG/ppx
PIDS=()
OUT=$(mktemp -d)

cleanup()
{
	local p d

	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	"$CTL" reset >/dev/null 2>&1
	for d in "$APP" "$LOG" "$EXTRA" "$S" "$ROOT/pp" "$ROOT/pq" "$ROOT" \
		 "$OUTSIDE"; do
		[ -d "$d" ] && rmdir "$d"
	done
	rm -rf "$OUT"
}
trap cleanup EXIT

# ARGS...: cpumgrctl ARGS refused, the error in $OUT/e
ctl_refused()
{
	if "$CTL" "$@" >"$OUT/o" 2>"$OUT/e"; then
		echo "# cpumgrctl $* was taken"
		return 1
	fi
}

setup()
{
	echo +cpuset >"$CG/cgroup.subtree_control" &&
	mkdir -p "$APP" "$LOG" "$S" "$OUTSIDE" &&
	echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/pp/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/pq/cgroup.subtree_control" &&
	"$CTL" configure --policy static --reserved 0 --cgroup-root "$ROOT" \
		>/dev/null &&
	"$CTL" assign pp app 2-3 >/dev/null &&
	"$CTL" assign pp log 4-5 >/dev/null &&
	"$CTL" bind pp app --cgroup "$APP" --pod-cgroup "$ROOT/pp" >/dev/null &&
	"$CTL" bind pp log --cgroup "$LOG" >/dev/null &&
	echo 2-3 >"$APP/cpuset.cpus" && task_in "$APP" &&
	echo 4-5 >"$LOG/cpuset.cpus" && task_in "$LOG" &&
	echo 1,7 >"$S/cpuset.cpus" && task_in "$S" &&
	echo 1,7 >"$OUTSIDE/cpuset.cpus" && task_in "$OUTSIDE"
}

pool_set()
{
	"$CTL" pool pp 2-6 >"$OUT/o" 2>"$OUT/e" || { diag <"$OUT/e"; return 1; }
	grep -q "pp pod-cpus 2-6 generation" "$OUT/o" &&
	sysfs_is pods/pp/pod_cpus 2-6 && sysfs_is shared_cpus 0-1,7 &&
	sysfs_is exclusive_cpus 2-6
}

rest_refused_elsewhere()
{
	refused 1,6-7 "$S/cpuset.cpus" && refused 6 "$ROOT/pq/cpuset.cpus"
}

# the managed root's outside is not checked, as for any assigned CPU
rest_taken_in_the_pod()
{
	mkdir "$EXTRA" && echo 6 >"$EXTRA/cpuset.cpus" && task_in "$EXTRA" &&
	echo 4-6 >"$LOG/cpuset.cpus" && echo 4-5 >"$LOG/cpuset.cpus"
}

# a partition anywhere else would take it from the pod: outside the
# managed root, where a cgroup may name any CPU
rest_not_taken_by_a_partition()
{
	echo 6 >"$OUTSIDE/cpuset.cpus" &&
	refused root "$OUTSIDE/cpuset.cpus.partition" &&
	echo 1,7 >"$OUTSIDE/cpuset.cpus"
}

slice_stays_its_own()
{
	refused 2 "$LOG/cpuset.cpus" && refused 2 "$EXTRA/cpuset.cpus"
}

pool_holds_its_containers()
{
	ctl_refused pool pp 3-6 &&
	grep -q "a pod pool holds its containers' CPUs" "$OUT/e" &&
	{ ! grep -q "CPU [0-9]" "$OUT/e" || grep -q "CPU 2" "$OUT/e"; } ||
		{ diag <"$OUT/e"; return 1; }
	sysfs_is pods/pp/pod_cpus 2-6
}

no_other_pods_cpus()
{
	"$CTL" assign pq q 1 >/dev/null &&
	ctl_refused pool pq 1,6 && grep -q "pod pp\|another pod" "$OUT/e" &&
	ctl_refused assign pq q2 6 && grep -q "pod pp\|another pod" "$OUT/e" ||
		{ diag <"$OUT/e"; return 1; }
	"$CTL" release pq >/dev/null
}

pool_needs_its_pod()
{
	ctl_refused pool nopod 7 && grep -q "no such pod" "$OUT/e" ||
		{ diag <"$OUT/e"; return 1; }
	[ ! -e "$SYSFS/pods/nopod" ]
}

dump_shows_it()
{
	"$CTL" dump >"$OUT/o" 2>"$OUT/e" || { diag <"$OUT/e"; return 1; }
	grep -q "^pp app cpus 2-3 .*pod-cpus 2-6" "$OUT/o" || {
		diag <"$OUT/o"
		return 1
	}
}

# the kubelet does not give a slice back to the pod's shared pool
released_slice_stays_the_pods()
{
	"$CTL" release pp app >/dev/null &&
	sysfs_is pods/pp/pod_cpus 2-6 && sysfs_is shared_cpus 0-1,7 &&
	refused 1-2 "$S/cpuset.cpus" && echo 2,6 >"$EXTRA/cpuset.cpus"
}

# protect mode refuses the offline of a pool CPU; in release mode it
# takes it out of the pool for good (the kubelet's pool is the
# controller's to set again)
offline_of_a_pool_cpu()
{
	local online=/sys/devices/system/cpu/cpu6/online err

	err=$( { echo 0 >"$online"; } 2>&1) &&
		{ echo "# CPU 6 of the pool went offline in protect mode"; return 1; }
	"$CTL" configure --hotplug release >/dev/null &&
	echo 0 >"$online" && sysfs_is pods/pp/pod_cpus 2-5 &&
	echo 1 >"$online" && sysfs_is pods/pp/pod_cpus 2-5 &&
	sysfs_is shared_cpus 0-1,6-7 && "$CTL" pool pp 2-6 >/dev/null &&
	"$CTL" configure --hotplug protect >/dev/null && sysfs_is shared_cpus 0-1,7
}

empty_drops_it()
{
	"$CTL" pool pp "" >/dev/null && sysfs_is pods/pp/pod_cpus "" &&
	sysfs_is shared_cpus 0-3,6-7 && "$CTL" pool pp 2-6 >/dev/null &&
	sysfs_is shared_cpus 0-1,7
}

gone_with_the_last_container()
{
	"$CTL" release pp log >/dev/null && [ ! -e "$SYSFS/pods/pp" ] &&
	sysfs_is shared_cpus 0-7 && echo 1-7 >"$S/cpuset.cpus"
}

ktap_plan 14
check "set-up: pp's app on its slice 2-3, log on 4-5, pq on the shared pool" setup
check "a pool 2-6: 6, which no container holds, leaves the shared pool" pool_set
check "another pod's cgroups may not hold the pool's rest" rest_refused_elsewhere
check "the pod's own cgroups may" rest_taken_in_the_pod
check "nor may a partition elsewhere take it" rest_not_taken_by_a_partition
check "a slice stays its container's within the pod" slice_stays_its_own
check "a pool holds its containers' CPUs" pool_holds_its_containers
check "nor may it or a container take another pod's pool" no_other_pods_cpus
check "a pool needs its pod in the table" pool_needs_its_pod
check "dump shows the pool with each container" dump_shows_it
check "a released slice stays in the pool, out of the shared pool" released_slice_stays_the_pods
check "an offline takes a pool CPU in release mode only, for good" offline_of_a_pool_cpu
check "an empty pool drops it" empty_drops_it
check "the pool goes with the pod's last container" gone_with_the_last_container
ktap_exit
