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
#     move the container's tasks off them.
# Pod pa's container c1 is bound to 2-3 with a task in it.  Written for
# the smt8 preset.  Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

CG=/sys/fs/cgroup
ROOT=$CG/erpods
OUTSIDE=$CG/erx
C1=$ROOT/pa/c1
PID=

cleanup()
{
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
	"$CTL" reset >/dev/null 2>&1
	[ -e "$OUTSIDE/cpuset.cpus.partition" ] &&
		echo member >"$OUTSIDE/cpuset.cpus.partition" 2>/dev/null
	for d in "$OUTSIDE" "$C1" "$ROOT/pa" "$ROOT"; do
		[ -d "$d" ] && rmdir "$d"
	done
}
trap cleanup EXIT

setup()
{
	echo +cpuset >"$CG/cgroup.subtree_control" &&
	mkdir -p "$C1" "$OUTSIDE" &&
	echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	echo +cpuset >"$ROOT/pa/cgroup.subtree_control" &&
	"$CTL" configure --policy static --reserved 0 --cgroup-root "$ROOT" \
		>/dev/null &&
	"$CTL" assign pa c1 2-3 >/dev/null &&
	"$CTL" bind pa c1 --cgroup "$C1" --pod-cgroup "$ROOT/pa" >/dev/null &&
	echo 2-3 >"$C1/cpuset.cpus" || return 1
	sleep 1000 &
	PID=$!
	echo "$PID" >"$C1/cgroup.procs"
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

# WRITE VALUE FILE: the write is refused with EBUSY.
refused()
{
	local err

	err=$( { echo "$1" >"$2"; } 2>&1) &&
		{ echo "# '$1' > $2 was accepted"; return 1; }
	grep -q "busy" <<<"$err" && return 0
	echo "# '$1' > $2: $err"
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
		echo "# no cpuset.cpus.exclusive on this kernel"
		return 0
	fi
	refused 2 "$OUTSIDE/cpuset.cpus.exclusive" &&
	c1_keeps_its_cpus
}

managed_root_drops_cpus()
{
	refused 0-1,4-7 "$ROOT/cpuset.cpus" &&
	c1_keeps_its_cpus &&
	echo 0-7 >"$ROOT/cpuset.cpus"
}

ktap_plan 5
check "set-up: c1 bound to 2-3 with a task" setup
check "a partition outside the managed root may not take c1's CPU" partition_outside_scope
check "one on CPUs nobody holds may" partition_outside_scope_of_free_cpus
check "nor may cpuset.cpus.exclusive outside it (6.12)" exclusive_outside_scope
check "the managed root may not drop c1's CPUs" managed_root_drops_cpus
ktap_exit
