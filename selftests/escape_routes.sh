#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ways around the guarantee that start outside what the scope checks
# (issue 22), each refused in enforce mode, the container keeping its
# CPUs:
#   - a cgroup outside the managed root becoming a partition (root or,
#     on 6.12, through cpuset.cpus.exclusive) on a container's CPU would
#     take it from the container;
#   - the managed root itself written without a container's CPUs would
#     move the container's tasks off them;
#   - the managed root removed with c1 still assigned and made again:
#     the new root is another cgroup, and the checks fail closed (every
#     cgroup is checked) instead of leaving it out of the scope;
#   - a container of the same pod pinned to other CPUs falling back to
#     its pod cgroup's CPUs, c1's included: its cpuset.cpus written with
#     an offline CPU, its last CPU taken offline, or cpuset turned off in
#     the pod cgroup's subtree_control.  The same-pod rule is for a
#     cgroup that names no CPU yet (between a runtime's task move and its
#     first cpuset write), not for one pinned already, nor for its
#     cpuset.cpus written empty with its task in it (issue 32, item 1:
#     7.3 accepts that write, 6.1 and 6.12 answer ENOSPC themselves);
#   - a partition below the managed root (issue 22, item 5): c1 made a
#     partition and dissolved again (remote on 6.12 on, with
#     cpuset.cpus.exclusive on its ancestors) hands its CPUs back to the
#     top cpuset, past the checks, to a task in a new cgroup beside the
#     pod; the pod cgroup made a partition on other CPUs (4,5 exclusive,
#     root) moves c1 there.  c1's own partition, on its CPUs, is allowed
#     (issue 30, item 2; selftests/partitions.sh has the rest), but it
#     may not dissolve onto that task; the pod cgroup may hold no other
#     CPUs.  The managed root may be one, on c1's CPUs;
#   - with no managed root (every cgroup checked, partitions allowed),
#     c1 made a remote partition (6.7 on) and dissolved hands its CPUs
#     to the top cpuset, and on to a task in a cgroup that inherits from
#     it: refused;
#   - in release-mode hotplug, a CPU an offline took from c1 named in
#     another container's cpuset.cpus while it is offline (cgroup2
#     accepts offline CPUs there): c1's cgroup still names it and gets
#     it back when it comes online, so both would run on it.  It stays
#     c1's for the checks until then.
# Pod pa's container c1 is bound to 2-3 with a task in it, its sidecar c2
# runs on 4-5 (shared CPUs) with a task in it.  Written for the smt8
# preset, hotplug protect.  Leaves the module RESET and every CPU online.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

CG=/sys/fs/cgroup
ROOT=$CG/erpods
OUTSIDE=$CG/erx
INHERITS=$CG/erinh
C1=$ROOT/pa/c1
C2=$ROOT/pa/c2
PID=
PID2=
PID3=
CPU=/sys/devices/system/cpu

cleanup()
{
	local c

	for c in 2 4 5 7; do
		echo 1 >"$CPU/cpu$c/online" 2>/dev/null
	done
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
	[ -n "$PID2" ] && kill "$PID2" 2>/dev/null && wait "$PID2" 2>/dev/null
	[ -n "$PID3" ] && kill "$PID3" 2>/dev/null && wait "$PID3" 2>/dev/null
	undo_partitions
	"$CTL" reset >/dev/null 2>&1
	[ -e "$OUTSIDE/cpuset.cpus.partition" ] &&
		echo member >"$OUTSIDE/cpuset.cpus.partition" 2>/dev/null
	for d in "$OUTSIDE" "$INHERITS" "$ROOT/new" "$C1" "$C2" "$ROOT/pa" "$ROOT"; do
		[ -d "$d" ] && rmdir "$d"
	done
}
trap cleanup EXIT

# ROOT: the module configured as setup does, with ROOT managed ("": none)
configure_root()
{
	"$CTL" configure --policy static --reserved 0 --cgroup-root "$1" \
		>/dev/null
}

setup()
{
	echo +cpuset >"$CG/cgroup.subtree_control" &&
	mkdir -p "$C1" "$C2" "$OUTSIDE" &&
	echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/pa/cgroup.subtree_control" &&
	configure_root "$ROOT" &&
	"$CTL" assign pa c1 2-3 >/dev/null &&
	"$CTL" bind pa c1 --cgroup "$C1" --pod-cgroup "$ROOT/pa" >/dev/null &&
	echo 2-3 >"$C1/cpuset.cpus" || return 1
	sleep 1000 &
	PID=$!
	echo "$PID" >"$C1/cgroup.procs" &&
	echo 4-5 >"$C2/cpuset.cpus" || return 1
	sleep 1000 &
	PID2=$!
	echo "$PID2" >"$C2/cgroup.procs"
}

# c2's task still on 4-5, or what is left of them online
c2_stays_off_c1()
{
	local allowed

	allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' "/proc/$PID2/status")
	case $allowed in
	4-5|4|5) return 0 ;;
	esac
	echo "# c2's task allowed on '$allowed'"
	return 1
}

# c1 and its task still on exactly 2-3
c1_keeps_its_cpus()
{
	local eff allowed

	read -r eff <"$C1/cpuset.cpus.effective"
	allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' "/proc/$PID/status")
	[ "$eff" = 2-3 ] && [ "$allowed" = 2-3 ] && return 0
	echo "# c1 effective '$eff', its task allowed on '$allowed'"
	return 1
}

partition_outside_scope()
{
	echo 2 >"$OUTSIDE/cpuset.cpus" || return 1
	refused root "$OUTSIDE/cpuset.cpus.partition" &&
	refused isolated "$OUTSIDE/cpuset.cpus.partition" &&
	c1_keeps_its_cpus
}

partition_outside_scope_of_free_cpus()
{
	echo 6 >"$OUTSIDE/cpuset.cpus" &&
	echo root >"$OUTSIDE/cpuset.cpus.partition" &&
	echo member >"$OUTSIDE/cpuset.cpus.partition"
}

exclusive_outside_scope()
{
	if [ ! -e "$OUTSIDE/cpuset.cpus.exclusive" ]; then
		skip_case "no cpuset.cpus.exclusive on this kernel (6.7 on)"
		return
	fi
	refused 2 "$OUTSIDE/cpuset.cpus.exclusive" &&
	c1_keeps_its_cpus
}

# What the partition cases may have left, whatever they found: no
# partition, no exclusive CPUs, c1's task not moved elsewhere.
undo_partitions()
{
	local d

	for d in "$C1" "$ROOT/pa" "$ROOT"; do
		[ -e "$d/cpuset.cpus.partition" ] &&
			echo member >"$d/cpuset.cpus.partition" 2>/dev/null
	done
	for d in "$C1" "$ROOT/pa" "$ROOT"; do
		[ -e "$d/cpuset.cpus.exclusive" ] &&
			echo >"$d/cpuset.cpus.exclusive" 2>/dev/null
	done
	[ -n "$PID3" ] && kill "$PID3" 2>/dev/null && wait "$PID3" 2>/dev/null
	PID3=
	[ -d "$ROOT/new" ] && rmdir "$ROOT/new"
	return 0
}

# Item 5, step 1: the ancestors hold 2-3 as exclusive CPUs, c1 becomes a
# (remote) partition, a task enters a new cgroup under the managed root
# (it gets what the partition left: 0-1,4-7), c1 may not dissolve: 2-3
# would go back to the top cpuset and on to the new cgroup's task.  On
# 6.1 c1's partition is invalid (its parent is none), holds nothing, and
# the new cgroup's task is refused at once.
container_partition_dissolved()
{
	local ret=0 allowed remote=

	if [ -e "$ROOT/cpuset.cpus.exclusive" ]; then
		echo 2-3 >"$ROOT/cpuset.cpus.exclusive" &&
		echo 2-3 >"$ROOT/pa/cpuset.cpus.exclusive" || return 1
		remote=1
	fi
	echo root >"$C1/cpuset.cpus.partition" || ret=1
	mkdir "$ROOT/new" || return 1
	sleep 1000 &
	PID3=$!
	# refused when the new cgroup inherits 2-3: the task stays out
	echo "$PID3" >"$ROOT/new/cgroup.procs" 2>/dev/null
	if [ -n "$remote" ]; then
		refused member "$C1/cpuset.cpus.partition" || ret=1
	else
		echo member >"$C1/cpuset.cpus.partition" || ret=1
	fi
	if grep -qx "$PID3" "$ROOT/new/cgroup.procs"; then
		allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' \
			"/proc/$PID3/status")
		case $allowed in
		0-1,4-7|0-1,4-5|0,4-7) ;;
		*) echo "# the new cgroup's task allowed on '$allowed'"; ret=1 ;;
		esac
	fi
	c1_keeps_its_cpus || ret=1
	undo_partitions
	return $ret
}

# Item 5, step 2: DIR made a partition on other CPUs (4,5 exclusive,
# root) would move c1 there.  The pod cgroup may hold no CPU but its
# containers' (its root write, with nothing to hold, leaves it an invalid
# root).  The managed root (outside the scope) may name them as a member
# (they move nothing), but not become a partition on them: that is what
# it would hold.  On 6.1 (no exclusive CPUs) the managed root's
# partition on all its CPUs is left invalid by the kernel itself.
partition_on_other_cpus()
{
	local dir=$1 ret=0

	if [ ! -e "$ROOT/cpuset.cpus.exclusive" ]; then
		echo root >"$dir/cpuset.cpus.partition" || ret=1
	elif [ "$dir" = "$ROOT" ]; then
		echo 2-5 >"$ROOT/cpuset.cpus.exclusive" &&
		echo 4,5 >"$ROOT/cpuset.cpus.exclusive" || return 1
		refused root "$ROOT/cpuset.cpus.partition" || ret=1
	else
		echo 2-5 >"$ROOT/cpuset.cpus.exclusive" || return 1
		refused 4,5 "$dir/cpuset.cpus.exclusive" || ret=1
		echo root >"$dir/cpuset.cpus.partition" || ret=1
	fi
	if [ "$dir" != "$ROOT" ]; then
		grep -q "^root invalid" "$dir/cpuset.cpus.partition" || {
			echo "# $dir: $(cat "$dir/cpuset.cpus.partition")"
			ret=1
		}
	fi
	c1_keeps_its_cpus || ret=1
	undo_partitions
	return $ret
}

managed_root_drops_cpus()
{
	refused 0-1,4-7 "$ROOT/cpuset.cpus" &&
	c1_keeps_its_cpus &&
	echo 0-7 >"$ROOT/cpuset.cpus"
}

sibling_written_with_offline_cpu()
{
	echo 0 >"$CPU/cpu7/online" || return 1
	refused 7 "$C2/cpuset.cpus" &&
	c2_stays_off_c1 && c1_keeps_its_cpus &&
	echo 1 >"$CPU/cpu7/online"
}

sibling_last_cpu_offline()
{
	echo 0 >"$CPU/cpu4/online" || return 1
	refused 0 "$CPU/cpu5/online" &&
	c2_stays_off_c1 && c1_keeps_its_cpus &&
	echo 1 >"$CPU/cpu4/online"
}

# c1's CPU 2 offline in release mode: c1 keeps 3 and is owed 2.
owed_cpu_steps()
{
	local cpus

	"$CTL" configure --hotplug release >/dev/null &&
	echo 0 >"$CPU/cpu2/online" || return 1
	read -r cpus <"$SYSFS/pods/pa/c1/cpus"
	[ "$cpus" = 3 ] || { echo "# c1 holds '$cpus' with 2 offline"; return 1; }
	refused 2,4-5 "$C2/cpuset.cpus" || return 1
	# c1's own cgroup may still name it (the controller rewrites it)
	echo 2-3 >"$C1/cpuset.cpus" &&
	echo 1 >"$CPU/cpu2/online" || return 1
	read -r cpus <"$SYSFS/pods/pa/c1/cpus"
	[ "$cpus" = 2-3 ] || { echo "# c1 holds '$cpus' with 2 back"; return 1; }
	# cpusets follow a CPU coming online from a work item on 6.1
	for _ in $(seq 50); do
		read -r cpus <"$C1/cpuset.cpus.effective"
		[ "$cpus" = 2-3 ] && break
		sleep 0.1
	done
	c2_stays_off_c1 && c1_keeps_its_cpus
}

# The steps, then CPU 2 online and protect mode again whatever they found,
# so that a failure here is not the next case's too.
release_owed_cpu_named_elsewhere()
{
	local ret

	owed_cpu_steps
	ret=$?
	echo 1 >"$CPU/cpu2/online" 2>/dev/null
	"$CTL" configure --hotplug protect >/dev/null || ret=1
	return $ret
}

pod_subtree_drops_cpuset()
{
	refused -cpuset "$ROOT/pa/cgroup.subtree_control" &&
	c2_stays_off_c1 && c1_keeps_its_cpus
}

# c2, pinned to 4-5 with its task in it, written empty would inherit
# its pod cgroup's CPUs, c1's 2-3 among them.
sibling_emptied()
{
	local err ret=0

	if err=$( { echo >"$C2/cpuset.cpus"; } 2>&1); then
		echo "# '' > c2's cpuset.cpus was accepted"
		ret=1
	elif ! grep -q "busy\|No space left" <<<"$err"; then
		echo "# '' > c2's cpuset.cpus: $err"
		ret=1
	fi
	c2_stays_off_c1 && c1_keeps_its_cpus || ret=1
	[ "$(<"$C2/cpuset.cpus")" = 4-5 ] || echo 4-5 >"$C2/cpuset.cpus"
	return $ret
}

# c1's own cpuset.cpus.exclusive emptied: 6.12 dissolves the partition
# (refused), 7.3 keeps it on c1's cpuset.cpus (accepted, still valid).
own_exclusive_emptied()
{
	local err

	err=$( { echo >"$C1/cpuset.cpus.exclusive"; } 2>&1) || {
		grep -q "busy" <<<"$err" && return 0
		echo "# '' > c1's cpuset.cpus.exclusive: $err"
		return 1
	}
	grep -q "^root$" "$C1/cpuset.cpus.partition" && return 0
	echo "# accepted, and c1 is '$(cat "$C1/cpuset.cpus.partition")'"
	return 1
}

# With no managed root, c1 a remote partition on 2-3 (its ancestors
# hold them in cpuset.cpus.exclusive, none is a partition), a task in a
# cgroup beside them that inherits from the top cpuset: c1 dissolving
# would hand 2-3 to the top cpuset, and so to that task.  It dissolves
# by "member" ($1 partition), by its own cpuset.cpus.exclusive emptied
# ($1 own, where the kernel dissolves it then) or by its parent's
# emptied ($1 parent).
remote_partition_without_root()
{
	local ret=0 allowed

	if [ ! -e "$ROOT/cpuset.cpus.exclusive" ]; then
		skip_case "no remote partitions on this kernel (cpuset.cpus.exclusive, 6.7 on)"
		return
	fi
	configure_root "" &&
	echo 2-3 >"$ROOT/cpuset.cpus.exclusive" &&
	echo 2-3 >"$ROOT/pa/cpuset.cpus.exclusive" &&
	echo root >"$C1/cpuset.cpus.partition" &&
	grep -q "^root" "$C1/cpuset.cpus.partition" || ret=1
	mkdir "$INHERITS" || ret=1
	sleep 1000 &
	PID3=$!
	echo "$PID3" >"$INHERITS/cgroup.procs" || ret=1
	case $1 in
	partition) refused member "$C1/cpuset.cpus.partition" ;;
	own) own_exclusive_emptied ;;
	parent) refused "" "$ROOT/pa/cpuset.cpus.exclusive" ;;
	esac || ret=1
	allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' "/proc/$PID3/status")
	case $allowed in
	0-1,4-7) ;;
	*) echo "# the inheriting cgroup's task allowed on '$allowed'"; ret=1 ;;
	esac
	kill "$PID3" && wait "$PID3" 2>/dev/null
	PID3=
	rmdir "$INHERITS"
	undo_partitions
	configure_root "$ROOT" || ret=1
	c1_keeps_its_cpus || ret=1
	return $ret
}

# Last: it takes the tree down.  c1 stays assigned (and bound to a cgroup
# that is gone); the root is made again by path, as a kubelet would.
managed_root_made_again()
{
	kill "$PID" "$PID2" && wait "$PID" "$PID2" 2>/dev/null
	PID= PID2=
	rmdir "$C1" "$C2" "$ROOT/pa" "$ROOT" || return 1
	mark
	mkdir -p "$ROOT/x/c" &&
	echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/x/cgroup.subtree_control" || return 1
	refused 2 "$ROOT/x/c/cpuset.cpus" || return 1
	dmesg | tail -n +"$MARK" |
		grep -q "managed cgroup root (cgroup [0-9]*) was removed" || {
		echo "# no kernel log line says the root was removed"
		return 1
	}
	rmdir "$ROOT/x/c" "$ROOT/x"
}

mark()
{
	MARK=$(($(dmesg | wc -l) + 1))
}

ktap_plan 17
check "set-up: c1 bound to 2-3 with a task" setup
check "a partition outside the managed root may not take c1's CPU" partition_outside_scope
check "one on CPUs nobody holds may" partition_outside_scope_of_free_cpus
check "nor may cpuset.cpus.exclusive outside it (6.12)" exclusive_outside_scope
check "the managed root may not drop c1's CPUs" managed_root_drops_cpus
check "c1's own partition below the managed root may not dissolve onto a task beside" container_partition_dissolved
check "no partition below it on other CPUs: the pod cgroup's" partition_on_other_cpus "$ROOT/pa"
check "the managed root's may not leave c1's CPUs out" partition_on_other_cpus "$ROOT"
check "a pinned sibling may not fall back onto c1's CPUs: an offline CPU written" sibling_written_with_offline_cpu
check "nor its last CPU taken offline" sibling_last_cpu_offline
check "nor cpuset turned off in the pod cgroup" pod_subtree_drops_cpuset
check "nor its cpuset.cpus written empty with its task in it" sibling_emptied
check "release mode: a CPU offline while owed to c1 may not be named elsewhere" release_owed_cpu_named_elsewhere
check "without a managed root, c1's remote partition may not dissolve onto the top cpuset's inheritors" remote_partition_without_root partition
check "without a managed root, nor by emptying its cpuset.cpus.exclusive" remote_partition_without_root own
check "without a managed root, nor by emptying its parent's cpuset.cpus.exclusive" remote_partition_without_root parent
check "a managed root removed and made again is checked (fail closed)" managed_root_made_again
ktap_exit
