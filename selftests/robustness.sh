#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's robustness (issue 4):
#  - it refuses to load, with a clear message, when one of its probes
#    cannot be placed: selftests/kmod/cpumgr_blocker.ko takes a function
#    the way a livepatch does (the first probed one, then the last, whose
#    failure must unwind the probes placed before it);
#  - it unloads and loads cleanly CPUMGR_ROBUST_CYCLES (20) times while
#    cpuset writes, task moves, forks into cgroups, CPU hotplug and an
#    events listener keep its hooks busy; its hooks refuse while it is
#    loaded and are gone once it is not.
# The guest runner fails the run on any kernel warning.  Leaves the module
# loaded and empty.

CTL=$CPUMGR_OUT/user/cpumgrctl
CLONE=$CPUMGR_OUT/selftests/clone_into_cgroup
BLOCKER=${CPUMGR_MODULE%/kmod/cpumgr.ko}/testmod/cpumgr_blocker.ko
CG=/sys/fs/cgroup/cpumgr-rb
CPU=/sys/devices/system/cpu
CYCLES=${CPUMGR_ROBUST_CYCLES:-20}
n=0
failed=0
pids=()

ktap()
{
	n=$((n + 1))
	echo "$1 $n $2"
	[ "$1" = ok ] || failed=1
}

check()
{
	local what=$1

	shift
	if "$@"; then ktap ok "$what"; else ktap "not ok" "$what"; fi
}

# Lines of the kernel log that match, so far.
log_count()
{
	dmesg | grep -c "$1"
}

# The module refuses to load while FUNC is taken, says so, and leaves
# no probe behind.
blocked_load()
{
	local func=$1 msg="cpumgr: cannot probe $1" before ok=0

	before=$(log_count "$msg")
	insmod "$BLOCKER" func="$func" || { echo "# cannot load the blocker"; return 1; }
	if insmod "$CPUMGR_MODULE" 2>"$WORK/err"; then
		echo "# cpumgr loaded although $func is taken"
		rmmod cpumgr
		ok=1
	fi
	echo "# insmod: $(<"$WORK/err")"
	if [ "$(log_count "$msg")" -le "$before" ]; then
		echo "# no \"$msg\" in the kernel log"
		ok=1
	fi
	dmesg | grep "$msg" | tail -n 1 | sed 's/^/# /'
	if [ -d /sys/kernel/cpumgr ] || grep -q cpumgr /sys/kernel/debug/kprobes/list 2>/dev/null; then
		echo "# the failed load left something behind"
		ok=1
	fi
	rmmod cpumgr_blocker || ok=1
	return $ok
}

load_again()
{
	insmod "$CPUMGR_MODULE" && "$CTL" table >/dev/null
}

# Background load on every hook: cpuset writes, moves, forks, hotplug.
start_load()
{
	local s

	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control || return 1
	mkdir -p "$CG/a" "$CG/b" "$CG/probe" || return 1
	echo +cpuset >"$CG/cgroup.subtree_control" || return 1
	echo 6-7 >"$CG/probe/cpuset.cpus" || return 1
	sleep 100000 &
	s=$!
	pids+=("$s")
	(while :; do
		echo 2-3 >"$CG/a/cpuset.cpus"
		echo 6-7 >"$CG/a/cpuset.cpus"
		echo >"$CG/a/cpuset.cpus"
	done) 2>/dev/null &
	pids+=($!)
	(while :; do
		echo "$s" >"$CG/a/cgroup.procs"
		echo "$s" >"$CG/b/cgroup.procs"
	done) 2>/dev/null &
	pids+=($!)
	(while :; do "$CLONE" "$CG/b"; (:); done) 2>/dev/null &
	pids+=($!)
	(while :; do
		echo 0 >"$CPU/cpu7/online"
		echo 1 >"$CPU/cpu7/online"
	done) 2>/dev/null &
	pids+=($!)
}

stop_load()
{
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	echo 1 >"$CPU/cpu7/online" 2>/dev/null
	for d in a b probe; do
		while read -r p; do
			echo "$p" >/sys/fs/cgroup/cgroup.procs
		done <"$CG/$d/cgroup.procs"
	done
	rmdir "$CG/a" "$CG/b" "$CG/probe" "$CG"
}

# One cycle: load, assign CPUs 2-3 (bound nowhere: no cgroup below the
# root may hold them), see a write refused, reset, unload while the load
# goes on, see the same write pass.
cycle()
{
	local i=$1 ev

	insmod "$CPUMGR_MODULE" || { echo "# cycle $i: insmod failed"; return 1; }
	"$CTL" events >/dev/null 2>&1 &
	ev=$!
	if ! "$CTL" configure --policy static >/dev/null ||
	   ! "$CTL" assign rb c 2-3 >/dev/null; then
		echo "# cycle $i: cannot assign"
		kill "$ev"
		return 1
	fi
	if echo 2-3 >"$CG/probe/cpuset.cpus" 2>/dev/null; then
		echo "# cycle $i: a write of assigned CPUs went through while loaded"
		echo 6-7 >"$CG/probe/cpuset.cpus"
		kill "$ev"
		return 1
	fi
	"$CTL" reset >/dev/null || { echo "# cycle $i: reset failed"; kill "$ev"; return 1; }
	if ! rmmod cpumgr; then
		echo "# cycle $i: rmmod failed"
		kill "$ev"
		return 1
	fi
	kill "$ev" 2>/dev/null
	wait "$ev" 2>/dev/null
	if ! echo 2-3 >"$CG/probe/cpuset.cpus"; then
		echo "# cycle $i: refused after unload"
		return 1
	fi
	echo 6-7 >"$CG/probe/cpuset.cpus"
}

cycles()
{
	local i

	start_load || { echo "# cannot start the load"; stop_load; return 1; }
	rmmod cpumgr || { stop_load; return 1; }
	for ((i = 1; i <= CYCLES; i++)); do
		cycle "$i" || break
	done
	stop_load
	[ -d /sys/module/cpumgr ] || insmod "$CPUMGR_MODULE"
	[ "$i" -gt "$CYCLES" ]
}

WORK=$(mktemp -d /tmp/cpumgr-rb.XXXXXX)
echo "TAP version 13"
echo "1..4"
if [ ! -e "$BLOCKER" ]; then
	echo "# $BLOCKER is missing (scripts/build-module.sh builds it)"
	exit 1
fi
rmmod cpumgr || exit 1
check "refuses to load while cpuset_write_resmask is taken" \
	blocked_load cpuset_write_resmask
# the offline function, probed last (7.x inlines cpu_down_maps_locked
# into _cpu_down, probed instead)
last=cpu_down_maps_locked
[ "$(uname -r | cut -d. -f1)" -ge 7 ] && last=_cpu_down
check "refuses to load while $last (probed last) is taken" \
	blocked_load "$last"
check "loads once the functions are free" load_again
check "$CYCLES unloads and loads with every hook busy" cycles
[ -d /sys/module/cpumgr ] || insmod "$CPUMGR_MODULE"
rm -rf "$WORK"
exit $failed
