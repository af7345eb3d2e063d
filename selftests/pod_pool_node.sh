#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A pod pool (KEP-5526) the node's way, against the module: a node of
# the 1.37 kubelet (init --kubelet-version 1.37) admits
# examples/pods/guaranteed-pod-pool.json (a pool of 4; app, 2 CPUs with
# memory request = limit, gets a slice; log, a CPU limit alone, shares
# the rest) and attaches both with tasks: each task runs on its own
# CPUs, the pod cgroup holds the pool, log keeps its CFS quota, the
# kernel holds the pool and a shared pod's cgroup gets none of it; the
# checkpoint's podEntries has it; audit is clean; app removed, its slice
# stays the pod's; the pod removed, the pool is the shared pool's again.
# Written for the smt8 preset.  Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

OUT=$(mktemp -d)
S=$OUT/state
CG=/sys/fs/cgroup/cpumgr-pool
PODS=$CPUMGR_TOP/examples/pods
PP=0b1e5a44-5f3c-4c55-9a0e-000000000011
BE=0b1e5a44-5f3c-4c55-9a0e-000000000001
PIDS=()

cleanup()
{
	local p

	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	node_cleanup
	rm -rf "$OUT"
}
trap cleanup EXIT

allowed()
{
	awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$1/status"
}

# a task waiting to be attached
waiting()
{
	sleep 100000 &
	PIDS+=($!)
}

t_admit()
{
	run ctl init --cpu-manager-policy static --reserved-cpus 0 \
		--cgroup-root "$CG" --kubelet-version 1.37
	rc 0 || return 1
	run ctl admit "$PODS/guaranteed-pod-pool.json"
	rc 0 || return 1
	POOL=$(awk -v u="$PP" '$1 == u && $2 == "(pod" { print $4 }' "$OUT/o")
	SLICE=$(awk -v u="$PP" '$1 == u && $2 == "app" && $3 == "exclusive" { print $4 }' "$OUT/o")
	REST=$(awk -v u="$PP" '$1 == u && $2 == "log" && $3 == "pod-shared" { print $4 }' "$OUT/o")
	echo "# pool '$POOL', app '$SLICE', log '$REST'"
	[ -n "$POOL" ] && [ -n "$SLICE" ] && [ -n "$REST" ] || { shows; return 1; }
	[ "$(cat $SYSFS/pods/$PP/pod_cpus)" = "$POOL" ] &&
		[ "$(cat $SYSFS/pods/$PP/app/cpus)" = "$SLICE" ] &&
		[ "$(cat $SYSFS/pods/$PP/log/cpus)" = "$REST" ] &&
		[ "$(cat $SYSFS/exclusive_cpus)" = "$POOL" ] &&
		grep -q "podEntries.*$PP.*cpuSet.*$POOL" "$S/cpu_manager_state" ||
		{ cat "$S/cpu_manager_state" | diag; return 1; }
}

t_attach()
{
	waiting
	run ctl attach --pod $PP --container app --cgroup pod-pp/app \
		--pod-cgroup pod-pp --create --pid "${PIDS[-1]}"
	rc 0 && [ "$(allowed "${PIDS[-1]}")" = "$SLICE" ] || { shows; return 1; }
	grep -q "^max 100000" $CG/pod-pp/app/cpu.max || return 1
	waiting
	run ctl attach --pod $PP --container log --cgroup pod-pp/log \
		--create --pid "${PIDS[-1]}"
	rc 0 && [ "$(allowed "${PIDS[-1]}")" = "$REST" ] || { shows; return 1; }
	# a sharer of the pool keeps its quota: 1 CPU
	grep -q "^100000 100000" $CG/pod-pp/log/cpu.max ||
		{ cat $CG/pod-pp/log/cpu.max | diag; return 1; }
	cpus_rel subset "$POOL" "$(cat $CG/pod-pp/cpuset.cpus.effective)"
}


t_shared_pod()
{
	run ctl admit "$PODS/besteffort.json"
	rc 0 || return 1
	waiting
	run ctl attach --pod $BE --container nginx --cgroup "$CG/pod-be/nginx" \
		--create --pid "${PIDS[-1]}"
	rc 0 || return 1
	cpus_rel disjoint "$(allowed "${PIDS[-1]}")" "$POOL" &&
		[ "$(allowed "${PIDS[-1]}")" = "$(cat $SYSFS/shared_cpus)" ] &&
		run ctl audit && rc 0 && grep -q "^audit: clean" "$OUT/o" ||
		{ shows; return 1; }
}

t_remove()
{
	run ctl remove $PP app
	rc 0 && grep -q "released CPUs (none)" "$OUT/o" &&
		[ "$(cat $SYSFS/pods/$PP/pod_cpus)" = "$POOL" ] || { shows; return 1; }
	run ctl remove $PP
	rc 0 && grep -q "released CPUs $POOL" "$OUT/o" &&
		[ ! -e "$SYSFS/pods/$PP" ] && [ -z "$(cat $SYSFS/exclusive_cpus)" ] &&
		! grep -q "$PP" "$S/cpu_manager_state" || { shows; return 1; }
}

ktap_plan 4
check "a 1.37 node admits a pod pool: slice, rest, kernel, checkpoint" t_admit
check "attached: each task on its CPUs, the sharer's quota kept, the pod cgroup holds the pool" t_attach
check "a shared pod gets none of the pool; audit clean" t_shared_pod
check "the slice stays the pod's; the pool goes with the pod" t_remove
ktap_exit

