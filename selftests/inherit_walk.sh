#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The inherit check's walk (issue 12): a cgroup2 cpuset.cpus write is
# checked for every cpuset below it whose tasks would inherit the CPUs.
# That walk runs with preemption off (but on PREEMPT_RT, where it runs
# behind a local lock that sleeps), so
#   - it is skipped below cgroups whose subtree cannot reach the managed
#     root: a delegated tree outside the scope costs nothing and is not
#     refused for its size;
#   - it skips subtrees with no task, and those below a cpuset whose
#     effective CPUs the write leaves as they are (issue 22: a tenant's
#     empty or untouched cgroups cannot make the controller's writes
#     fail);
#   - it stops after inherit_walk_max cpusets with tasks (a module
#     parameter) and then refuses every assigned CPU the subtree could
#     get.
# A cpuset.cpus.exclusive write searches the cpusets below it for
# partitions it shrinks or dissolves, bounded the same way (6.7 on).
# The offline check (the last CPU of a cpuset with tasks) walks the
# whole hierarchy with preemption off: bounded the same way, it refuses
# the offline (protect mode) when there are more.
# Set here to WALK (20) cpusets with WALK + 10 of them in each subtree.
# Written for the smt8 preset.  Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

ROOT=/sys/fs/cgroup/walkpods
OUTSIDE=/sys/fs/cgroup/walkdeleg
PARAM=/sys/module/cpumgr/parameters/inherit_walk_max
WALK=20
OLD_MAX=
SLEEPERS=
OUT=$(mktemp -d)

# remove a tree, leaves first
rmtree()
{
	[ -d "$1" ] || return 0
	find "$1" -depth -type d -exec rmdir {} + 2>/dev/null
}

cleanup()
{
	[ -n "$OLD_MAX" ] && echo "$OLD_MAX" >"$PARAM"
	[ -n "$SLEEPERS" ] && kill $SLEEPERS 2>/dev/null && wait 2>/dev/null
	echo 1 >/sys/devices/system/cpu/cpu7/online 2>/dev/null
	"$CTL" reset >/dev/null 2>&1
	rmtree "$ROOT"
	rmtree "$OUTSIDE"
	rm -rf "$OUT"
}
trap cleanup EXIT

# DIR N: N child cpusets below DIR
children()
{
	local i

	echo +cpuset >"$1/cgroup.subtree_control" || return 1
	for ((i = 0; i < $2; i++)); do
		mkdir "$1/c$i" || return 1
	done
}

# FILE CPUS: the write's exit status (a subshell: a refused write is
# an error of echo, not of this shell)
write()
{
	(echo "$2" >"$1") 2>"$OUT/err"
}

setup()
{
	OLD_MAX=$(<"$PARAM") || return 1
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control &&
	mkdir -p "$ROOT/poda" "$OUTSIDE" &&
	echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	children "$ROOT/poda" $((WALK + 10)) &&
	children "$OUTSIDE" $((WALK + 10)) &&
	"$CTL" configure --policy static --enforce enforce \
		--cgroup-root "$ROOT" >/dev/null &&
	"$CTL" assign pa c0 2-3 >/dev/null &&
	"$CTL" bind pa c0 --cgroup "$ROOT/poda/c0" \
		--pod-cgroup "$ROOT/poda" >/dev/null &&
	echo "$WALK" >"$PARAM" &&
	[ "$(<"$PARAM")" = "$WALK" ]
}

# A parameter outside 1..1000000 is refused and changes nothing.
param_bounds()
{
	! write "$PARAM" 0 && ! write "$PARAM" 1000001 &&
		! write "$PARAM" x && [ "$(<"$PARAM")" = "$WALK" ]
}

# Out of scope, more cpusets than the bound: not walked, so the write of
# every CPU (the pod's included) to the delegated root is let through.
outside_not_walked()
{
	write "$OUTSIDE/cpuset.cpus" 0-7 || { diag <"$OUT/err"; return 1; }
	[ "$(<"$OUTSIDE/cpuset.cpus.effective")" = 0-7 ]
}

# LINE: the kernel log has LINE since the count T0 of its lines
logged_since()
{
	dmesg | tail -n +"$(($1 + 1))" | grep -q "$2" || {
		echo "# no log line: $2"
		return 1
	}
}

# In scope, cpusets with no task: not walked, so more of them than the
# bound do not refuse the pod's write.
empty_not_walked()
{
	write "$ROOT/poda/cpuset.cpus" 2-7 || { diag <"$OUT/err"; return 1; }
	[ "$(<"$ROOT/poda/c$WALK/cpuset.cpus.effective")" = 2-7 ]
}

# A task in every child but c0 (the bound container, kept empty).
populate()
{
	local i

	for ((i = 1; i < WALK + 10; i++)); do
		sleep 1000 &
		SLEEPERS="$SLEEPERS $!"
		echo $! >"$ROOT/poda/c$i/cgroup.procs" || return 1
	done
}

# In scope, the pod's own cgroup: its children may inherit its CPUs,
# but more than the bound below it with tasks cannot be checked, so
# they are refused; the log says why.
inside_bounded()
{
	local t0

	t0=$(dmesg | wc -l)
	if write "$ROOT/poda/cpuset.cpus" 2-6; then
		echo "# a write over the bound was let through"
		return 1
	fi
	logged_since "$t0" "more than $WALK cpusets with tasks below cgroup"
}

# A write above the pod that leaves its effective CPUs as they are
# (the pod names 2-7 itself) changes nothing below it: not walked.
unchanged_not_walked()
{
	write "$ROOT/cpuset.cpus" 1-7 || { diag <"$OUT/err"; return 1; }
	[ "$(<"$ROOT/poda/cpuset.cpus.effective")" = 2-7 ]
}

# The same write with the bound raised is checked and allowed: it was
# the bound that refused it, nothing else.
inside_checked()
{
	echo 10000 >"$PARAM" || return 1
	write "$ROOT/poda/cpuset.cpus" 2-6 || { diag <"$OUT/err"; return 1; }
	[ "$(<"$ROOT/poda/cpuset.cpus")" = 2-6 ]
}

# The offline check, over the bound: CPU 7 (no container's) may not go
# offline unchecked; with the bound raised it goes.
offline_bounded()
{
	local t0 online=/sys/devices/system/cpu/cpu7/online

	echo "$WALK" >"$PARAM" || return 1
	t0=$(dmesg | wc -l)
	if write "$online" 0; then
		echo "# an offline over the bound was let through"
		return 1
	fi
	logged_since "$t0" "more than $WALK cpusets with tasks below cgroup 1:" &&
	[ "$(<"$online")" = 1 ] &&
	echo 10000 >"$PARAM" &&
	write "$online" 0 && [ "$(<"$online")" = 0 ] &&
	write "$online" 1
}

# A cpuset.cpus.exclusive write searches every cpuset below it for the
# partitions that would shrink or dissolve: over the bound the search
# stops and the write is refused, and the log says it was the search
# (not partitions dissolving); with the bound raised it goes.
partition_search_bounded()
{
	local t0 f=$ROOT/cpuset.cpus.exclusive

	[ -e "$f" ] ||
		{ skip_case "no cpuset.cpus.exclusive on this kernel (6.1)"; return; }
	echo "$WALK" >"$PARAM" || return 1
	t0=$(dmesg | wc -l)
	if write "$f" 2-3; then
		echo "# a write over the bound was let through"
		return 1
	fi
	diag <"$OUT/err"
	logged_since "$t0" "more than $WALK cpusets below cgroup [0-9]* to search for partitions" &&
	[ -z "$(<"$f")" ] &&
	echo 10000 >"$PARAM" &&
	write "$f" 2-3 && [ "$(<"$f")" = 2-3 ] &&
	write "$f" "" || { diag <"$OUT/err"; return 1; }
}

ktap_plan 10
check "set-up: a pod with $((WALK + 10)) child cpusets, a delegated tree as big, inherit_walk_max $WALK" setup
check "inherit_walk_max refuses 0, 1000001 and a word" param_bounds
check "a subtree outside the scope is not walked, whatever its size" outside_not_walked
check "cpusets with no task are not walked: more than the bound of them let the write through" empty_not_walked
check "a task in $((WALK + 9)) of the pod's children" populate
check "more cpusets with tasks than the bound below a pod's cgroup: its CPUs refused, logged" inside_bounded
check "a write that leaves the pod's effective CPUs as they are is not walked below it" unchanged_not_walked
check "with the bound raised the same write is checked and allowed" inside_checked
check "the offline check is bounded too: refused over the bound, logged, let through under it" offline_bounded
check "the search for partitions below a cpuset.cpus.exclusive write is bounded: refused over it, logged as such" partition_search_bounded
ktap_exit
