#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Exclusivity as a kernel guarantee (issue 4), as a table in the spirit of
# the kernel's tools/testing/selftests/cgroup/test_cpuset_prs.sh.  One
# KTAP result per row.
#
# Rows come in groups; each group starts from an empty table and a fresh
# cgroup tree under $BASE (enforce_rows.sh says which).  A row is eleven
# fields separated by "|":
#
#   name      what the row shows
#   mode      ENFORCE[,HOTPLUG]: off|audit|enforce, protect|release
#             (default protect); set with CONFIGURE when it changes
#   target    the cgroup acted on, relative to $BASE ("." is $BASE,
#             "-" none)
#   pre       shell steps before the action (enforce_lib.sh), must work
#   action    Clist   write cpuset.cpus (C alone: the empty write)
#             Xlist   write cpuset.cpus.exclusive
#             Pstate  write cpuset.cpus.partition
#             T       move the group's sleeping task in (cgroup.procs,
#                     v1 tasks)
#             F       clone3(CLONE_INTO_CGROUP) a child into it
#             On=v    write v to cpuN/online
#             Hn=on|off  write cpuN/hotplug/target
#             Son|Soff   write smt/control
#             U+ctrl|U-ctrl  write the target's cgroup.subtree_control
#   errno     0 or the errno name the action fails with (EBUSY)
#   eff       the target's effective CPUs afterwards ("." unchecked)
#   counters  "V O": how much violations and offlines_refused grew
#   events    the notifications of the action, in any order ("." none):
#             KIND:VERDICT:FILE:CPUS (violations), offline-refused:CPU,
#             cpu-offline:CPU, cpu-online:CPU, degraded:CPU:LEFT;
#             CPU "SMT" is every SMT sibling that is not first in its core
#   checks    more conditions, comma-separated ("." none):
#             eff:DIR=L on:CPU=0|1 cpus:POD/CTR=L flags:POD/CTR=F
#             shared=L excl=L smt=S part=WORD
#             allowed=L (the busy task's Cpus_allowed_list)
#             pin=CPU (the busy task is still pinned to and runs on CPU)
#             moved=CPU (the busy task lives on, off CPU)
#   post      shell steps after the row (errors reported)
#
# Cpulists (L) may be expressions: ALL (every CPU online at the start),
# lists, "+" union and "~" minus, left to right ("ALL~2-3").
#
# Violation events must name the target's cgroup and the acting task's pid
# and comm.  The topology must have at least 8 CPUs, CPUs 2n and 2n+1
# being SMT siblings (the smt8, numa16 and big64 presets).

. "$CPUMGR_TOP/selftests/enforce_lib.sh"
. "$CPUMGR_TOP/selftests/enforce_run.sh"
. "$CPUMGR_TOP/selftests/enforce_rows.sh"

ktap_n=0
ktap_failed=0
V1MNT=$WORK/v1
rd ALL "$CPUDIR/online"
ONLINE_STATE=
CUR_MODE=enforce
DIRTY=
SMT=
V1=0
HROOT=$CG2
PROCS=cgroup.procs

ktap()
{
	ktap_n=$((ktap_n + 1))
	echo "$1 $ktap_n $2"
	[ "$1" = ok ] || ktap_failed=1
}

# SMT siblings that are not the first of their core.
smt_secondaries()
{
	local c first all

	cl_words "$ALL"
	all=$CL
	SMT=
	for c in $all; do
		rd first "$CPUDIR/cpu$c/topology/thread_siblings_list"
		first=${first%%[,-]*}
		[ "$first" = "$c" ] || SMT+="${SMT:+ }$c"
	done
}

set_mode()
{
	local want=$1 hp=protect

	[ "$want" = "$CUR_MODE" ] && return 0
	[ "$want" = "${want#*,}" ] || hp=${want#*,}
	configure --enforce "${want%%,*}" --hotplug "$hp" || return 1
	CUR_MODE=$want
}

# --- groups --------------------------------------------------------------

# The v1 hierarchy dies asynchronously after its unmount: wait until
# cgroup2 can have the cpuset controller again, for whatever runs next.
v2_cpuset_back()
{
	local i

	for ((i = 0; i < 100; i++)); do
		if echo +cpuset >"$CG2/cgroup.subtree_control" 2>/dev/null; then
			echo -cpuset >"$CG2/cgroup.subtree_control"
			return 0
		fi
		nap 0.1
	done
	echo "cpuset does not come back to cgroup2"
	return 1
}

# A v1 hierarchy is destroyed at its unmount only when its root has no
# children left, and a removed cgroup stays a child until its last
# reference goes: wait for the removed ones to go (the cgroups of the
# hierarchy /proc/cgroups counts, the root included) before unmounting.
v1_children_gone()
{
	local i name hier num rest

	for ((i = 0; i < 100; i++)); do
		while read -r name hier num rest; do
			[ "$name" = cpuset ] && [ "$num" = 1 ] && return 0
		done </proc/cgroups
		nap 0.1
	done
	echo "removed v1 cpusets do not go away"
	return 1
}

# Back to an empty table, no test cgroups, every CPU online.
teardown()
{
	ev_stop
	unbusy
	[ -n "$SLEEPER" ] && echo "$SLEEPER" >"$CG2/cgroup.procs" 2>/dev/null
	allon
	rmtree "$CG2/mx" "$CG2" cgroup.procs &&
	rmtree "$CG2/mxout" "$CG2" cgroup.procs || return 1
	if mountpoint -q "$V1MNT"; then
		[ -n "$SLEEPER" ] && echo "$SLEEPER" >"$V1MNT/tasks" 2>/dev/null
		rmtree "$V1MNT/mx" "$V1MNT" tasks && v1_children_gone &&
			umount "$V1MNT" || return 1
		v2_cpuset_back || return 1
	fi
	ctl reset || return 1
	CUR_MODE=enforce
}

# The common tree: a container of pod pa (CPUs 2-3) in pa/c1 with a
# child, a shared-pool container pa/c2, pod pb's container pb/c1 (4-5),
# an unrelated cgroup.
tree()
{
	mk pa pb pa/c1 pa/c1/sub pa/c2 pb/c1 other || return 1
	# v1 children take their CPUs within their parent's.
	if [ "$V1" = 1 ]; then
		cw pa 2-3,6-7 && cw pb 4-5 || return 1
	fi
	cw pa/c1 2-3 && cw pa/c2 6-7 && cw pb/c1 4-5 && cw other 6-7
}

# ASSIGN POD CONTAINER CPUS [bind the container] [bind the pod]
pod()
{
	local bind=()

	ctl assign "$1" "$2" "$3" || return 1
	[ -z "$4" ] || bind+=("$2" --cgroup "$4")
	[ -z "$5" ] || bind+=(--pod-cgroup "$5")
	[ ${#bind[@]} = 0 ] || ctl bind "$1" "${bind[@]}"
}

two_pods()
{
	pod pa c1 2-3 "$BASE/pa/c1" "$BASE/pa" &&
	pod pb c1 4-5 "$BASE/pb/c1" "$BASE/pb"
}

v2_base()
{
	V1=0
	HROOT=$CG2
	PROCS=cgroup.procs
	BASE=$CG2/mx
	EFF_FILE=cpuset.cpus.effective
	echo +cpuset >"$CG2/cgroup.subtree_control" && mkdir "$BASE" && tree
}

# Set-ups, by the name a group gives.
setup_two_pods()
{
	v2_base && ctl configure --policy static && two_pods
}

setup_pod_only()
{
	v2_base && ctl configure --policy static &&
	pod pa c1 2-3 "" "$BASE/pa"
}

setup_unbound()
{
	v2_base && ctl configure --policy static && pod pa c1 2-3
}

setup_strict()
{
	v2_base &&
	ctl configure --policy static --options strict-cpu-reservation \
		--reserved 0-1 &&
	pod pa c1 2-3 "$BASE/pa/c1" "$BASE/pa"
}

setup_reserved()
{
	v2_base && ctl configure --policy static --reserved 0-1 && two_pods
}

setup_root_mx()
{
	v2_base && mkdir "$CG2/mxout" &&
	ctl configure --policy static --cgroup-root "$BASE" && two_pods
}

# mx a partition root with the pods' CPUs, a populated sibling mxout
# beside it: dissolving the partition would hand it those CPUs.
setup_partition()
{
	v2_base && mkdir "$CG2/mxout" && ctl configure --policy static &&
	two_pods
}

setup_root_pb()
{
	v2_base &&
	ctl configure --policy static --cgroup-root "$BASE/pb" && two_pods
}

# cgroup v1: the cpuset controller leaves cgroup2 for a hierarchy of its
# own (a controller lives in one hierarchy at a time).
setup_v1()
{
	local i

	echo -cpuset >"$CG2/cgroup.subtree_control" || return 1
	mkdir -p "$V1MNT"
	# The cgroup2 cpusets die asynchronously.
	for ((i = 0; i < 50; i++)); do
		mount -t cgroup -o "${V1_OPTS:-cpuset}" cpumgr-v1 "$V1MNT" \
			2>/dev/null && break
		nap 0.1
	done
	mountpoint -q "$V1MNT" || { echo "cannot mount the v1 cpuset hierarchy"; return 1; }
	V1=1
	HROOT=$V1MNT
	PROCS=tasks
	BASE=$V1MNT/mx
	EFF_FILE=cpuset.effective_cpus
	mkdir "$BASE" && echo "$(<"$V1MNT/cpuset.mems")" >"$BASE/cpuset.mems" &&
	cw . ALL && tree && ctl configure --policy static && two_pods
}

# The same, mounted with cpuset_v2_mode: effective CPUs as on cgroup2
# (an empty or offline cpuset.cpus takes the parent's CPUs).
setup_v1v2()
{
	V1_OPTS=cpuset,cpuset_v2_mode setup_v1
}

# What a group needs that the kernel may lack (v1): prints why not.
group_unsupported()
{
	local cfg

	case $1 in
	v1)
		for cfg in "/boot/config-$(uname -r)" \
			   "$CPUMGR_CACHE/kernels/${CPUMGR_KERNEL:-none}/build/.config"; do
			[ -r "$cfg" ] || continue
			grep -q '^# CONFIG_CPUSETS_V1 is not set' "$cfg" || return 0
			echo "no cgroup v1 cpuset controller (CONFIG_CPUSETS_V1 is off)"
			return 0
		done
		;;
	esac
}

start_group()
{
	teardown || return 1
	"setup_$1" || return 1
	MARK_POD=pa
	rd MARK_CG "$SYSFS/pods/pa/pod_cgroup" || MARK_CG=
	MARK=
	DIRTY=
	ev_start
}

# --- main ------------------------------------------------------------------

main()
{
	local line group skip nrows=0 name t0 out

	for line in "${MATRIX[@]}"; do
		[ "${line:0:1}" = @ ] || nrows=$((nrows + 1))
	done
	echo "TAP version 13"
	cl_words "$ALL"
	if [ "$(wc -w <<<"$CL")" -lt 8 ]; then
		echo "1..0 # SKIP needs 8 CPUs or more"
		exit 4
	fi
	echo "1..$nrows"
	while IFS=: read -r c name; do
		[ "$name" = " online" ] && ONLINE_STATE=$c
	done <"$CPUDIR/hotplug/states"
	rd line "$CPUDIR/smt/control" 2>/dev/null && [ "$line" = on ] &&
		smt_secondaries
	sleep 100000 &
	SLEEPER=$!
	binder_start

	for line in "${MATRIX[@]}"; do
		if [ "${line:0:1}" = @ ]; then
			set -- $line
			group=$2
			skip=
			[ "$3" = v1 ] && skip=$(group_unsupported v1)
			t0=$SECONDS
			if [ -z "$skip" ] &&
			   ! start_group "$group" >"$WORK/setup.out" 2>&1; then
				mapfile -t out <"$WORK/setup.out"
				skip="set-up of $group failed: ${out[*]}"
			fi
			[ -z "${MATRIX_TIME:-}" ] ||
				echo "# group $group: set-up $((SECONDS - t0)) s"
			continue
		fi
		read -r name <<<"${line%%|*}"
		if [ -n "${MATRIX_ONLY:-}" ] && ! [[ $name =~ $MATRIX_ONLY ]]; then
			ktap ok "$name # SKIP not in MATRIX_ONLY"
		elif [[ $skip == set-up* ]]; then
			ktap "not ok" "$name # $skip"
		elif [ -n "$skip" ]; then
			ktap ok "$name # SKIP $skip"
		else
			run_row "$line"
		fi
	done
	if ! teardown >"$WORK/teardown.out" 2>&1; then
		echo "# teardown: $(<"$WORK/teardown.out")"
		ktap_failed=1
	fi
	kill "$SLEEPER" "$BINDER_PID"
	wait "$SLEEPER" "$BINDER_PID" 2>/dev/null
	rm -rf "$WORK"
	exit $ktap_failed
}

main "$@"
