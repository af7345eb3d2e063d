#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# An ASSIGN that gives a container CPUs while a task still runs on them
# elsewhere (issue 32, item 5).  With CPUMGR_A_NARROWED (cpumgrctl
# assign --narrowed: the controller says it took them out of every other
# cgroup first) the kernel checks that it did, and refuses the ASSIGN
# with -EBUSY, naming the CPU and the cgroup, when a cpuset with tasks in
# the scope still holds one the new table would not let it hold:
#   - a sibling container of the same pod (the grow of `cpumgrctl
#     resize`), another pod's shared container, for a container in the
#     table and for a new one;
#   - not the cgroups that may hold them: the container's own, a cgroup
#     below its pod cgroup that names no CPU yet (a runtime's new one),
#     and those outside the managed root;
#   - more cpusets with tasks than inherit_walk_max: refused unchecked.
# Without the flag the ASSIGN is taken as it is (guard mode mirrors the
# kubelet's decisions, which narrows after).  A refused ASSIGN changes
# nothing.  Pod pa's c1 is bound to 2-3 with a task, its sidecar c2 runs
# on 4-5, pod pb's shared container s on 4-7, a cgroup outside the
# managed root on 1-7, each with a task.  Written for the smt8 preset.
#
# An ASSIGN with CPUMGR_ASSIGNMENT_F_PARTITION_PENDING (cpumgrctl assign
# --partition-pending: the container has no task yet, and the shared
# pool holds its CPUs until its cgroup becomes their partition, init
# --pool-moves partitions): a task may enter a pool cgroup inheriting
# them, which it may not without the flag, and a write may leave a pool
# cgroup with a task inheriting them; not one that names them, nor the
# container's own cgroup, nor a CPU another container holds too; the
# ASSIGN that clears the flag is checked as --narrowed is, for
# all of its CPUs, and from then on the entry is refused again.  Pod
# pc's p1 takes CPU 1, which pod pb's cgroup and its pool still hold.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

CG=/sys/fs/cgroup
ROOT=$CG/gcpods
OUTSIDE=$CG/gcx
C1=$ROOT/pa/c1
C2=$ROOT/pa/c2
S=$ROOT/pb/s
NEW=$ROOT/pa/new
P1=$ROOT/pc/p1
POOL=$ROOT/pb/pool
POOL2=$ROOT/pb/pool2
NAMED=$ROOT/pb/named
WALK_MAX=/sys/module/cpumgr/parameters/inherit_walk_max
PIDS=()
OUT=$(mktemp -d)

cleanup()
{
	local p d

	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	"$CTL" reset >/dev/null 2>&1
	for d in "$NEW" "$C1" "$C2" "$S" "$P1" "$POOL" "$POOL2" "$NAMED" "$ROOT/pa" "$ROOT/pb" \
		 "$ROOT/pc" "$ROOT" "$OUTSIDE"; do
		[ -d "$d" ] && rmdir "$d"
	done
	rm -rf "$OUT"
}
trap cleanup EXIT

setup()
{
	echo +cpuset >"$CG/cgroup.subtree_control" &&
	mkdir -p "$C1" "$C2" "$S" "$OUTSIDE" &&
	echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/pa/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/pb/cgroup.subtree_control" &&
	"$CTL" configure --policy static --reserved 0 --cgroup-root "$ROOT" \
		>/dev/null &&
	"$CTL" assign pa c1 2-3 >/dev/null &&
	"$CTL" bind pa c1 --cgroup "$C1" --pod-cgroup "$ROOT/pa" >/dev/null &&
	echo 2-3 >"$C1/cpuset.cpus" && task_in "$C1" &&
	echo 4-5 >"$C2/cpuset.cpus" && task_in "$C2" &&
	echo 4-7 >"$S/cpuset.cpus" && task_in "$S" &&
	echo 1-7 >"$OUTSIDE/cpuset.cpus" && task_in "$OUTSIDE"
}

# POD CONTAINER CPUS: what the table holds for it ("" when nothing)
holds()
{
	local cpus=

	[ -e "$SYSFS/pods/$1/$2/cpus" ] && read -r cpus <"$SYSFS/pods/$1/$2/cpus"
	[ "$cpus" = "$3" ] && return 0
	echo "# the table holds '$cpus' for $1/$2, not '$3'"
	return 1
}

# CPU DIR ARGS...: cpumgrctl assign ARGS --narrowed refused, its error
# naming CPU and DIR's cgroup id, the kernel log DIR's path
refused_for()
{
	local cpu=$1 dir=$2 id
	shift 2

	id=$(stat -c %i "$dir")
	mark
	if "$CTL" assign "$@" --narrowed >"$OUT/o" 2>"$OUT/e"; then
		echo "# assign $* --narrowed was taken"
		return 1
	fi
	# the CPU and the cgroup id where the kernel formats extack (6.3 on)
	if ! grep -q "still held by a cgroup with tasks" "$OUT/e" ||
	   { grep -q "CPU [0-9]*, cgroup" "$OUT/e" &&
	     ! grep -q "CPU $cpu, cgroup $id" "$OUT/e"; }; then
		echo "# not CPU $cpu and ${dir#"$CG"} (cgroup $id) in:"
		diag <"$OUT/e"
		return 1
	fi
	dmesg | tail -n +"$MARK" |
		grep -q "CPU $cpu is still held by ${dir#"$CG"} (cgroup $id)" || {
		echo "# no kernel log line names ${dir#"$CG"}"
		return 1
	}
}

taken()
{
	"$CTL" assign "$@" >"$OUT/o" 2>"$OUT/e" && return 0
	echo "# assign $* was refused:"
	diag <"$OUT/e"
	return 1
}

mark()
{
	MARK=$(($(dmesg | wc -l) + 1))
}

sibling_holds_it()
{
	refused_for 4 "$C2" pa c1 2-4 && holds pa c1 2-3
}

other_pod_holds_it()
{
	echo 5 >"$C2/cpuset.cpus" &&
	refused_for 4 "$S" pa c1 2-4 && holds pa c1 2-3
}

# the cgroup outside the managed root still runs on 4
grow_taken()
{
	echo 5-7 >"$S/cpuset.cpus" &&
	taken pa c1 2-4 --narrowed && holds pa c1 2-4 &&
	echo 2-4 >"$C1/cpuset.cpus"
}

new_container_checked()
{
	refused_for 7 "$S" pa c3 7 && holds pa c3 ""
}

# a runtime's new cgroup in the pod, a task in it, no cpuset.cpus written
runtime_new_cgroup_may()
{
	mkdir "$NEW" && task_in "$NEW" &&
	echo 5-6 >"$S/cpuset.cpus" &&
	taken pa c3 7 --narrowed && holds pa c3 7
}

guard_takes_it_as_is()
{
	taken pa c4 6 && holds pa c4 6 &&
	"$CTL" release pa c4 >/dev/null && holds pa c4 ""
}

walk_max_refuses()
{
	local max ret=0

	read -r max <"$WALK_MAX"
	echo 1 >"$WALK_MAX" || return 1
	if "$CTL" assign pa c4 6 --narrowed >"$OUT/o" 2>"$OUT/e"; then
		echo "# assign with inherit_walk_max 1 was taken"
		ret=1
	elif ! grep -q "inherit_walk_max" "$OUT/e"; then
		diag <"$OUT/e"
		ret=1
	fi
	echo "$max" >"$WALK_MAX"
	[ "$ret" = 0 ] && holds pa c4 ""
}

# POD CONTAINER FLAGS: the flags sysfs shows for it
flags_are()
{
	sysfs_is "pods/$1/$2/flags" "$3"
}

# DIR: a task moved into DIR is refused (EBUSY)
entry_refused()
{
	sleep 1000 &
	PIDS+=($!)
	refused $! "$1/cgroup.procs"
}

# p1 on CPU 1, no task yet; pb's cgroup (a pod on the shared pool) names
# it, and its pool cgroups inherit it but one that names it too; pa's new
# cgroup, which names no CPU, no longer holds it
pool_entry_refused_without_flag()
{
	echo 2-7 >"$ROOT/pa/cpuset.cpus" &&
	mkdir -p "$P1" "$POOL" "$POOL2" "$NAMED" &&
	echo +cpuset >"$ROOT/pc/cgroup.subtree_control" &&
	echo 1,5-6 >"$ROOT/pb/cpuset.cpus" &&
	echo 1,5-6 >"$NAMED/cpuset.cpus" &&
	taken pc p1 1 && entry_refused "$POOL"
}

pool_entry_taken_while_pending()
{
	taken pc p1 1 --partition-pending &&
	grep -q " partition-pending " "$OUT/o" &&
	flags_are pc p1 partition-pending && task_in "$POOL" &&
	entry_refused "$NAMED"
}

# POOL's task stays: its cpuset may be written to inherit CPU 1 again
# (as the controller gives a shared container the pool), not to name it.
# Where the kernel refuses to empty a cpuset with tasks (6.1 and 6.12:
# ENOSPC; tried outside the managed root), nothing can.
pool_write_inherits_while_pending()
{
	echo >"$OUTSIDE/cpuset.cpus" 2>/dev/null || {
		skip_case "this kernel refuses an empty cpuset.cpus where tasks run (ENOSPC): no write leaves them inheriting"
		return
	}
	echo 1-7 >"$OUTSIDE/cpuset.cpus" &&
	echo 5-6 >"$POOL/cpuset.cpus" && echo >"$POOL/cpuset.cpus" &&
	refused 1,5 "$POOL/cpuset.cpus" && [ -z "$(cat "$POOL/cpuset.cpus")" ] &&
	flags_are pc p1 partition-pending
}

# p2 of the same pod on CPU 1 too, not pending (an app reusing its init
# container's CPUs): the CPU stays checked for the pool
shared_cpu_stays_checked()
{
	taken pc p2 1 && entry_refused "$POOL2" &&
	"$CTL" release pc p2 >/dev/null && holds pc p2 ""
}

own_cgroup_refused_while_pending()
{
	"$CTL" bind pc p1 --cgroup "$P1" --pod-cgroup "$ROOT/pc" >/dev/null &&
	echo 1 >"$P1/cpuset.cpus" && mark && entry_refused "$P1" &&
	# by id on PREEMPT_RT before 7.x (refusal_log.sh says why)
	dmesg | tail -n +"$MARK" | grep -q \
		-e "in cgroup ${P1#"$CG"} by .*container p1, whose partition is not made yet" \
		-e "in cgroup id $(stat -c %i "$P1") by .*container p1, whose partition is not made yet" || {
		echo "# no kernel log line says p1's partition is not made yet"
		return 1
	}
}

# the pool's task is still on CPU 1
clear_refused_while_held()
{
	local id

	id=$(stat -c %i "$POOL")
	if "$CTL" assign pc p1 1 >"$OUT/o" 2>"$OUT/e"; then
		echo "# the flag was cleared with the pool on CPU 1"
		return 1
	fi
	grep -q "still held by a cgroup with tasks" "$OUT/e" &&
	{ ! grep -q "CPU [0-9]*, cgroup" "$OUT/e" ||
	  grep -q "CPU 1, cgroup $id" "$OUT/e"; } || { diag <"$OUT/e"; return 1; }
	flags_are pc p1 partition-pending && holds pc p1 1
}

clear_taken_once_left()
{
	echo 5-6 >"$POOL/cpuset.cpus" &&
	taken pc p1 1 && flags_are pc p1 "" &&
	task_in "$P1" && entry_refused "$POOL2"
}

ktap_plan 15
check "set-up: c1 on 2-3, its sidecar on 4-5, another pod's container on 4-7" setup
check "a grow onto the CPU of a sibling with a task is refused" sibling_holds_it
check "so is one onto another pod's shared container's" other_pod_holds_it
check "once they left it, the grow is taken (a cgroup outside the managed root does not count)" grow_taken
check "a new container's CPUs are checked the same way" new_container_checked
check "a cgroup of the pod that names no CPU may hold them" runtime_new_cgroup_may
check "without --narrowed an assignment is taken as it is" guard_takes_it_as_is
check "more cpusets with tasks than inherit_walk_max: refused unchecked" walk_max_refuses
check "a task may not enter a pool cgroup that holds a container's CPU" pool_entry_refused_without_flag
check "it may while the container's partition is pending, not one that names it" pool_entry_taken_while_pending
check "a pool cgroup with a task may inherit them again by a write while pending, not name them" pool_write_inherits_while_pending
check "a CPU another container of the pod holds too stays checked" shared_cpu_stays_checked
check "the container's own cgroup may not take a task while it is pending" own_cgroup_refused_while_pending
check "the flag is not cleared while the pool's task is on the CPU" clear_refused_while_held
check "once the pool let go of it, it is, and the CPU is checked again" clear_taken_once_left
ktap_exit
