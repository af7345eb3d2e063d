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
#   - it stops after inherit_walk_max cpusets (a module parameter) and
#     then refuses every assigned CPU the subtree could get.
# Set here to WALK (20) cpusets with WALK + 10 of them in each subtree.
# Written for the smt8 preset.  Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

ROOT=/sys/fs/cgroup/walkpods
OUTSIDE=/sys/fs/cgroup/walkdeleg
PARAM=/sys/module/cpumgr/parameters/inherit_walk_max
WALK=20
OLD_MAX=
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

# In scope, the pod's own cgroup: its children may inherit its CPUs,
# but more than the bound below it cannot be checked, so they are
# refused; the log says why.
inside_bounded()
{
	local t0

	t0=$(dmesg | wc -l)
	if write "$ROOT/poda/cpuset.cpus" 2-7; then
		echo "# a write over the bound was let through"
		return 1
	fi
	dmesg | tail -n +"$((t0 + 1))" |
		grep -q "more than $WALK cpusets below cgroup" || {
		echo "# no log line for the bound"
		return 1
	}
}

# The same write with the bound raised is checked and allowed: it was
# the bound that refused it, nothing else.
inside_checked()
{
	echo 10000 >"$PARAM" || return 1
	write "$ROOT/poda/cpuset.cpus" 2-7 || { diag <"$OUT/err"; return 1; }
	[ "$(<"$ROOT/poda/cpuset.cpus")" = 2-7 ]
}

ktap_plan 5
check "set-up: a pod with $((WALK + 10)) child cpusets, a delegated tree as big, inherit_walk_max $WALK" setup
check "inherit_walk_max refuses 0, 1000001 and a word" param_bounds
check "a subtree outside the scope is not walked, whatever its size" outside_not_walked
check "more cpusets than the bound below a pod's cgroup: its CPUs refused, logged" inside_bounded
check "with the bound raised the same write is checked and allowed" inside_checked
ktap_exit
