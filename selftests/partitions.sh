#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Cpuset partitions and what they move (issue 32 item 4, issue 30 item 2).
# A partition takes its CPUs from every cpuset outside it, a cpuset left
# with none of its own falls back on its parent's, and a partition
# dissolving hands its CPUs back: each way below would put a task on a
# container's CPUs with the old module, and is refused (EBUSY), nothing
# moving; a container's own isolated partition is allowed, made as
# CRI-O makes it, and refused in every other shape.
#
# Pod pa: container c1 bound to ROOT/pa/c1 on 2-3 with a task, its
# sidecar c2 (not assigned) on 4-5 with a task.  Written for the smt8
# preset (CPUs 0-7), hotplug protect, reserved CPU 0.
#   1. partitions that take CPUs by their side effects:
#      - OUT, a partition root outside the managed root, widening its
#        cpuset.cpus onto c1's CPU 2;
#      - OUTI, an invalid partition root outside, turning valid when its
#        cpuset.cpus names 2;
#      - OUT, a top-level cgroup naming the whole shared pool, becoming
#        a partition: the managed root, pa and c2 would keep only c1's
#        CPUs, and c2's task would fall back onto them;
#      - the managed root, cpuset.cpus.exclusive 2-3, becoming a
#        partition (6.7 on): c2 would fall back onto 2-3.
#   2. c1's isolated partition, with CRI-O's writes (6.7 on): allowed;
#      the pod cgroup written while it stands; a cgroup below pa naming
#      no CPU (new, or c2 emptied) gets none of 2-3; dissolving it (member, its
#      cgroup removed, an emptied cpuset.cpus.exclusive, cpuset turned off
#      in pa) refused while a task beside the pod would inherit 2-3;
#      it shrinks once c1's ASSIGN gave a CPU back, not before, and
#      grows onto a pool CPU once ASSIGNed, not by a writer without
#      CAP_SYS_ADMIN (the kernel would make it invalid);
#      CRI-O's undo once none would; partitions and exclusive CPUs that
#      hold more than c1's CPUs, another pod's, pa's whole pod, or an
#      unbound container's: refused.  With another pod holding exclusive
#      CPUs, CRI-O's widening of the pod cgroup's cpuset.cpus is refused
#      (the pod cgroup may not name them) and the writes of
#      doc/kernel-guarantee.md's contract are allowed.  On 6.1 (no
#      cpuset.cpus.exclusive) a local partition where the layout allows
#      it: pod pb, whose only container holds 6-7, under the managed root
#      made a partition.
#   3. The controller's way when the pool moves by partitions (6.7 on):
#      a new container's ASSIGN with its partition pending lets a task
#      into a pool cgroup that still holds its CPU; its cgroup made the
#      partition (another container's pending CPU staying in the pool),
#      the pool leaves the CPU, and the flag is cleared.
# Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

CG=/sys/fs/cgroup
ROOT=$CG/ptroot
PA=$ROOT/pa
C1=$PA/c1
C2=$PA/c2
PB=$ROOT/pb
NEW=$ROOT/new
OUT=$CG/ptx
OUTI=$CG/pty
PID=
PID2=
PIDN=
PIDB=

allowed()
{
	sed -n 's/^Cpus_allowed_list:\t//p' "/proc/$1/status"
}

# PID LIST: the task's allowed CPUs are LIST.
task_on()
{
	local got

	got=$(allowed "$1")
	[ "$got" = "$2" ] && return 0
	echo "# task $1 allowed on '$got', not '$2'"
	return 1
}

c1_keeps()
{
	local eff

	read -r eff <"$C1/cpuset.cpus.effective"
	[ "$eff" = 2-3 ] || { echo "# c1 effective '$eff'"; return 1; }
	task_on "$PID" 2-3
}

c2_stays()
{
	task_on "$PID2" 4-5
}

# WRITE VALUE FILE: accepted.
wr()
{
	local err

	err=$( { echo "$1" >"$2"; } 2>&1) && return 0
	echo "# '$1' > $2: $err"
	return 1
}

# FILE WORD: cpuset.cpus.partition reads WORD (first word), valid.
state_is()
{
	local got

	read -r got <"$1"
	[ "$got" = "$2" ] && return 0
	echo "# $1 reads '$got', not '$2'"
	return 1
}

have_exclusive()
{
	[ -e "$ROOT/cpuset.cpus.exclusive" ]
}

# REASON: the case needs cpuset.cpus.exclusive (6.7 on), or is skipped.
needs_exclusive()
{
	have_exclusive && return 0
	skip_case "no cpuset.cpus.exclusive on this kernel (6.1): $1"
}

# VAR: a sleeping task started, its pid in VAR.
sleeper()
{
	sleep 1000 &
	printf -v "$1" %s $!
}

kill_wait()
{
	[ -n "$1" ] && kill "$1" 2>/dev/null && wait "$1" 2>/dev/null
	return 0
}

# Whatever a case left: no partition, no exclusive CPU, no task beside.
undo()
{
	local d

	for d in "$C1" "$PB/c1" "$PB" "$PA" "$ROOT" "$OUT" "$OUTI"; do
		[ -e "$d/cpuset.cpus.partition" ] &&
			echo member >"$d/cpuset.cpus.partition" 2>/dev/null
	done
	kill_wait "$PIDN"
	PIDN=
	[ -d "$NEW" ] && rmdir "$NEW"
	for d in "$C1" "$PB/c1" "$PB" "$PA" "$ROOT" "$OUT" "$OUTI"; do
		[ -e "$d/cpuset.cpus.exclusive" ] &&
			echo >"$d/cpuset.cpus.exclusive" 2>/dev/null
	done
	# (6.1 makes a partition beside a cgroup naming its CPUs invalid)
	echo >"$OUT/cpuset.cpus"
	echo >"$OUTI/cpuset.cpus"
	return 0
}

cleanup()
{
	kill_wait "$PID"
	kill_wait "$PID2"
	kill_wait "$PIDB"
	undo
	"$CTL" reset >/dev/null 2>&1
	for d in "$OUT" "$OUTI" "$PB/c1" "$PB" "$C1" "$C2" "$PA/c3" "$PA" \
		"$ROOT"; do
		[ -d "$d" ] && rmdir "$d"
	done
}
trap cleanup EXIT

setup()
{
	echo +cpuset >"$CG/cgroup.subtree_control" &&
	mkdir -p "$C1" "$C2" "$OUT" "$OUTI" &&
	echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	echo +cpuset >"$PA/cgroup.subtree_control" &&
	"$CTL" configure --policy static --reserved 0 --cgroup-root "$ROOT" \
		>/dev/null &&
	"$CTL" assign pa c1 2-3 >/dev/null &&
	"$CTL" bind pa c1 --cgroup "$C1" --pod-cgroup "$PA" >/dev/null &&
	echo 2-3 >"$C1/cpuset.cpus" &&
	echo 4-5 >"$C2/cpuset.cpus" || return 1
	sleeper PID
	sleeper PID2
	echo "$PID" >"$C1/cgroup.procs" &&
	echo "$PID2" >"$C2/cgroup.procs" &&
	c1_keeps && c2_stays
}

# 1. OUT a partition root on CPU 4, a shared one; then its cpuset.cpus
# widened onto 2.
outside_root_widens()
{
	local ret=0

	wr 4 "$OUT/cpuset.cpus" &&
	wr root "$OUT/cpuset.cpus.partition" &&
	state_is "$OUT/cpuset.cpus.partition" root || ret=1
	refused 2,4 "$OUT/cpuset.cpus" || ret=1
	c1_keeps || ret=1
	undo
	return $ret
}

# OUTI a partition root with no CPU: invalid; its cpuset.cpus then names 2.
outside_invalid_turns_valid()
{
	local ret=0

	wr root "$OUTI/cpuset.cpus.partition" || return 1
	grep -q "^root invalid" "$OUTI/cpuset.cpus.partition" || {
		echo "# $(cat "$OUTI/cpuset.cpus.partition")"
		ret=1
	}
	refused 2 "$OUTI/cpuset.cpus" || ret=1
	c1_keeps || ret=1
	undo
	return $ret
}

# OUT names every CPU but c1's (the shared pool and the reserved CPU)
# and becomes a partition: the top cpuset keeps 2-3 only, and so would
# every cgroup below the managed root.
outside_takes_shared_pool()
{
	local ret=0

	wr 0-1,4-7 "$OUT/cpuset.cpus" || return 1
	refused root "$OUT/cpuset.cpus.partition" || ret=1
	refused isolated "$OUT/cpuset.cpus.partition" || ret=1
	c2_stays && c1_keeps || ret=1
	undo
	return $ret
}

# The managed root holds c1's CPUs as exclusive ones and becomes a
# partition: pa and c2 would have 2-3 only.
managed_root_partition_on_c1()
{
	local ret=0

	needs_exclusive "no remote partitions" || return
	wr 2-3 "$ROOT/cpuset.cpus.exclusive" || return 1
	refused root "$ROOT/cpuset.cpus.partition" || ret=1
	c2_stays && c1_keeps || ret=1
	undo
	return $ret
}

# CRI-O's writes for a container with cpu-load-balancing.crio.io
# "disable" (internal/runtimehandlerhooks, setCPULoadBalancingV2): for
# every cgroup from the one below the cgroup root down to the pod's,
# then the container's: cpuset.cpus |= every online CPU (its own CPUs
# for the container's cgroup), skipped when it holds them already, then
# cpuset.cpus.exclusive |= the container's CPUs; last
# cpuset.cpus.partition = isolated on the container's cgroup.
crio_add()
{
	local d cpus

	for d in "$ROOT" "$PA"; do
		read -r cpus <"$d/cpuset.cpus"
		[ "$cpus" = 0-7 ] || wr 0-7 "$d/cpuset.cpus" || return 1
		wr 2-3 "$d/cpuset.cpus.exclusive" || return 1
	done
	read -r cpus <"$C1/cpuset.cpus"
	[ "$cpus" = 2-3 ] || wr 2-3 "$C1/cpuset.cpus" || return 1
	wr 2-3 "$C1/cpuset.cpus.exclusive" &&
	wr isolated "$C1/cpuset.cpus.partition"
}

# CRI-O's undo (PostStop, the container's tasks gone): from the
# container's cgroup up, cpuset.cpus.exclusive minus the container's
# CPUs, and the container's cpuset.cpus too where it held only those.
crio_remove()
{
	wr "" "$C1/cpuset.cpus.exclusive" &&
	wr "" "$C1/cpuset.cpus" &&
	wr "" "$PA/cpuset.cpus.exclusive" &&
	wr "" "$ROOT/cpuset.cpus.exclusive"
}

# LIST CPU: CPU is in the cpulist LIST.
cl_has()
{
	local r a b

	for r in ${1//,/ }; do
		a=${r%-*} b=${r#*-}
		[ "$2" -ge "$a" ] && [ "$2" -le "$b" ] && return 0
	done
	return 1
}

# c1 an isolated partition: it keeps 2-3, which leave every other cgroup.
c1_isolated()
{
	local eff

	state_is "$C1/cpuset.cpus.partition" isolated && c1_keeps || return 1
	read -r eff <"$PA/cpuset.cpus.effective"
	if cl_has "$eff" 2 || cl_has "$eff" 3; then
		echo "# pa effective '$eff'"
		return 1
	fi
	read -r eff <"$CG/cpuset.cpus.isolated"
	cl_has "$eff" 2 && cl_has "$eff" 3 || {
		echo "# cpuset.cpus.isolated '$eff'"
		return 1
	}
	c2_stays
}

crio_sequence()
{
	needs_exclusive "CRI-O's cgroup v2 writes need it" || return
	crio_add && c1_isolated
}

# The controller narrows the pod cgroup while c1 is a partition: pa's
# effective CPUs lack 2-3 (the partition took them), yet c1 keeps them.
pod_cgroup_written_beside_partition()
{
	needs_exclusive "no remote partitions" || return
	wr 0-5 "$PA/cpuset.cpus" && c1_isolated &&
	wr 0-7 "$PA/cpuset.cpus" && c1_isolated
}

# With c1 a partition, its CPUs leave pa's effective CPUs: a cgroup
# below pa that names no CPU (a new one, or c2 written empty with its
# task in it where the kernel lets it, 7.3) inherits none of them, so
# the same-pod rule has none of c1's to give (issue 32, item 1).
pod_inherits_none_of_partition()
{
	local ret=0 d=$PA/fresh pid err

	needs_exclusive "no remote partitions" || return
	c1_isolated && mkdir "$d" || return 1
	sleeper pid
	wr "$pid" "$d/cgroup.procs" && task_on "$pid" 0-1,4-7 || ret=1
	kill_wait "$pid"
	rmdir "$d" || ret=1
	if err=$( { echo >"$C2/cpuset.cpus"; } 2>&1); then
		task_on "$PID2" 0-1,4-7 || ret=1
		wr 4-5 "$C2/cpuset.cpus" || ret=1
	elif [[ $err != *"No space left"* ]]; then
		echo "# '' > c2's cpuset.cpus: $err"
		ret=1
	fi
	c2_stays && c1_isolated || ret=1
	return $ret
}

# A task in a new cgroup under the managed root: it inherits what the
# partition left, and would inherit 2-3 if it dissolved.
task_beside()
{
	mkdir "$NEW" || return 1
	sleeper PIDN
	wr "$PIDN" "$NEW/cgroup.procs" && task_on "$PIDN" 0-1,4-7
}

no_task_beside()
{
	kill_wait "$PIDN"
	PIDN=
	rmdir "$NEW"
}

# HOW: c1's partition dissolved by "member", by its cgroup removed (its
# task out first), by its own cpuset.cpus.exclusive emptied (6.12
# dissolves it; 7.3 keeps it on its cpuset.cpus, refused all the same
# only where it dissolves), by pa's emptied, by cpuset off in pa.
dissolve_refused()
{
	local ret=0 err

	needs_exclusive "no remote partitions" || return
	task_beside || return 1
	case $1 in
	member)	refused member "$C1/cpuset.cpus.partition" || ret=1 ;;
	rmdir)	kill_wait "$PID"
		PID=
		err=$(rmdir "$C1" 2>&1) && { echo "# rmdir c1 accepted"; ret=1; }
		[ -d "$C1" ] && [[ $err == *busy* ]] || { echo "# $err"; ret=1; }
		sleeper PID
		echo "$PID" >"$C1/cgroup.procs" || ret=1 ;;
	parent)	refused "" "$PA/cpuset.cpus.exclusive" || ret=1 ;;
	subtree) refused -cpuset "$PA/cgroup.subtree_control" || ret=1 ;;
	esac
	task_on "$PIDN" 0-1,4-7 || ret=1
	c1_isolated || ret=1
	no_task_beside || ret=1
	return $ret
}

# A resize gives up CPU 3 while a task beside the pod would inherit it.
# Before c1's ASSIGN gives 3 back, its partition may not leave 3 (it
# would hold part of c1's CPUs); after it, a remote partition that only
# shrinks stays valid (the kernel invalidates one left with no CPU
# online, or one that gains CPUs it may not take), so the write is
# allowed and only 3 goes to the task beside.  The grow back, nobody beside: ASSIGN, then the write.
partition_shrinks()
{
	local ret=0

	needs_exclusive "no remote partitions" || return
	task_beside || return 1
	refused 2 "$C1/cpuset.cpus.exclusive" || ret=1
	"$CTL" assign pa c1 2 >/dev/null &&
	wr 2 "$C1/cpuset.cpus.exclusive" &&
	state_is "$C1/cpuset.cpus.partition" isolated &&
	task_on "$PID" 2 && task_on "$PIDN" 0-1,3-7 || ret=1
	no_task_beside || ret=1
	"$CTL" assign pa c1 2-3 >/dev/null &&
	wr 2-3 "$C1/cpuset.cpus.exclusive" && c1_isolated || ret=1
	return $ret
}

# A resize gives c1 CPU 6 while a task beside the pod inherits it.  A
# remote partition that grows onto the top cpuset's free CPUs stays
# valid (remote_cpus_update() fails a growth only onto another
# partition's CPUs, onto all the top cpuset has, or by a writer without
# CAP_SYS_ADMIN), so with ASSIGN first the write of its
# cpuset.cpus.exclusive is allowed and 6 leaves the task beside; the
# same write without CAP_SYS_ADMIN would turn the partition invalid and
# hand 2-3 to that task: refused.  Then back.
partition_grows()
{
	local ret=0 eff x=$C1/cpuset.cpus.exclusive

	needs_exclusive "no remote partitions" || return
	task_beside || return 1
	"$CTL" assign pa c1 2-3,6 >/dev/null &&
	wr 2-3,6 "$ROOT/cpuset.cpus.exclusive" &&
	wr 2-3,6 "$PA/cpuset.cpus.exclusive" || ret=1
	if setpriv --bounding-set=-sys_admin sh -c "echo 2-3,6 >$x" 2>/dev/null; then
		echo "# a growth without CAP_SYS_ADMIN accepted"
		ret=1
	fi
	task_on "$PIDN" 0-1,4-7 || ret=1
	wr 2-3,6 "$x" && wr 2-3,6 "$C1/cpuset.cpus" &&
	state_is "$C1/cpuset.cpus.partition" isolated &&
	task_on "$PID" 2-3,6 && task_on "$PIDN" 0-1,4-5,7 || ret=1
	read -r eff <"$CG/cpuset.cpus.isolated"
	cl_has "$eff" 6 || { echo "# cpuset.cpus.isolated '$eff'"; ret=1; }
	"$CTL" assign pa c1 2-3 >/dev/null && wr 2-3 "$x" &&
	wr 2-3 "$C1/cpuset.cpus" && task_on "$PIDN" 0-1,4-7 || ret=1
	no_task_beside || ret=1
	wr 2-3 "$PA/cpuset.cpus.exclusive" &&
	wr 2-3 "$ROOT/cpuset.cpus.exclusive" && c1_isolated || ret=1
	return $ret
}

# The container ends, CRI-O undoes its writes: nobody inherits 2-3 but
# the pod's cgroups, which may hold them.  Then c1 runs again.
crio_undo()
{
	local eff ret=0

	needs_exclusive "CRI-O's cgroup v2 writes need it" || return
	kill_wait "$PID"
	PID=
	crio_remove || ret=1
	grep -q "^isolated invalid\|^member" "$C1/cpuset.cpus.partition" || {
		echo "# c1: $(cat "$C1/cpuset.cpus.partition")"
		ret=1
	}
	read -r eff <"$PA/cpuset.cpus.effective"
	[ "$eff" = 0-7 ] || { echo "# pa effective '$eff'"; ret=1; }
	c2_stays || ret=1
	wr member "$C1/cpuset.cpus.partition" &&
	wr 2-3 "$C1/cpuset.cpus" || ret=1
	sleeper PID
	echo "$PID" >"$C1/cgroup.procs" && c1_keeps || ret=1
	return $ret
}

# Partitions below the managed root that do not hold whole containers'
# CPUs bound at or below them, each refused.  6.7 on: through
# cpuset.cpus.exclusive, the managed root holding c1's CPUs (the chain a
# remote partition needs); 6.1: a local partition under the managed root
# made one on 1-7.
prepare_shapes()
{
	if have_exclusive; then
		wr 2-3 "$ROOT/cpuset.cpus.exclusive"
	else
		wr 1-7 "$ROOT/cpuset.cpus" &&
		wr root "$ROOT/cpuset.cpus.partition" &&
		state_is "$ROOT/cpuset.cpus.partition" root
	fi
}

# (6.1 and 6.12 refuse to empty the cpuset.cpus of a cgroup with tasks
# below it.)
unprepare_shapes()
{
	undo
	have_exclusive || wr 0-7 "$ROOT/cpuset.cpus"
}

# On 6.1: DIR's cpuset.cpus CPUS, then DIR a partition root: refused.
# (Back to every CPU after: 6.1 refuses to empty a cpuset.cpus over
# tasks.)
local_refused()
{
	local ret=0

	wr "$1" "$2/cpuset.cpus" || return 1
	refused root "$2/cpuset.cpus.partition" || ret=1
	wr 0-7 "$2/cpuset.cpus" || ret=1
	return $ret
}

shape_more_cpus()
{
	local ret=0

	prepare_shapes || return 1
	if have_exclusive; then
		refused 2-4 "$PA/cpuset.cpus.exclusive" || ret=1
		wr 2-3 "$PA/cpuset.cpus.exclusive" || ret=1
		refused 2-4 "$C1/cpuset.cpus.exclusive" || ret=1
	else
		local_refused 2-5 "$PA" || ret=1
	fi
	c1_keeps && c2_stays || ret=1
	unprepare_shapes || ret=1
	return $ret
}

# Pod pb's container c1 on 6-7, bound to PB/c1 (no task); and gone.
pod_pb()
{
	"$CTL" assign pb c1 6-7 >/dev/null &&
	mkdir -p "$PB/c1" &&
	"$CTL" bind pb c1 --cgroup "$PB/c1" --pod-cgroup "$PB" >/dev/null
}

no_pod_pb()
{
	"$CTL" release pb >/dev/null || return 1
	rmdir "$PB/c1" "$PB"
}

shape_another_pods()
{
	local ret=0

	pod_pb && prepare_shapes || return 1
	if have_exclusive; then
		refused 2-3,6-7 "$PA/cpuset.cpus.exclusive" || ret=1
		refused 6-7 "$C1/cpuset.cpus.exclusive" || ret=1
	else
		refused 2-7 "$PA/cpuset.cpus" || ret=1
	fi
	c1_keeps && c2_stays || ret=1
	unprepare_shapes || ret=1
	no_pod_pb || ret=1
	return $ret
}

# pa holds all of c1's CPUs, but c2 would fall back onto them (on 6.1 pa
# may not name them alone for the same reason, and holds c2's with them).
shape_pod_cgroup()
{
	local ret=0

	prepare_shapes || return 1
	if have_exclusive; then
		wr 2-3 "$PA/cpuset.cpus.exclusive" &&
		refused isolated "$PA/cpuset.cpus.partition" || ret=1
		refused root "$PA/cpuset.cpus.partition" || ret=1
	else
		refused 2-3 "$PA/cpuset.cpus" || ret=1
		local_refused 2-5 "$PA" || ret=1
	fi
	c1_keeps && c2_stays || ret=1
	unprepare_shapes || ret=1
	return $ret
}

# c3 of pod pa holds CPU 1, bound nowhere (assigned once the managed
# root holds its partition: taking an unbound container's CPU is refused).
shape_unbound_container()
{
	local ret=0

	prepare_shapes && "$CTL" assign pa c3 1 >/dev/null || ret=1
	if [ "$ret" = 1 ]; then
		:
	elif have_exclusive; then
		refused 1-3 "$PA/cpuset.cpus.exclusive" || ret=1
	else
		local_refused 1-5 "$PA" || ret=1
	fi
	c1_keeps && c2_stays || ret=1
	"$CTL" release pa c3 >/dev/null 2>&1
	unprepare_shapes || ret=1
	return $ret
}

# Pod pb holds 6-7: the pod cgroup pa may not name every CPU, as CRI-O
# writes it, but the contract's writes (doc/kernel-guarantee.md) go
# through.
crio_with_another_pod()
{
	local ret=0

	needs_exclusive "CRI-O's cgroup v2 writes need it" || return
	pod_pb && wr 0-5 "$PA/cpuset.cpus" || return 1
	refused 0-7 "$PA/cpuset.cpus" || ret=1
	wr 2-3 "$ROOT/cpuset.cpus.exclusive" &&
	wr 2-3 "$PA/cpuset.cpus.exclusive" &&
	wr 2-3 "$C1/cpuset.cpus.exclusive" &&
	wr isolated "$C1/cpuset.cpus.partition" &&
	state_is "$C1/cpuset.cpus.partition" isolated && c1_keeps || ret=1
	wr member "$C1/cpuset.cpus.partition" &&
	wr "" "$C1/cpuset.cpus.exclusive" &&
	wr "" "$PA/cpuset.cpus.exclusive" &&
	wr "" "$ROOT/cpuset.cpus.exclusive" && c1_keeps || ret=1
	undo
	no_pod_pb || ret=1
	wr 0-7 "$PA/cpuset.cpus" || ret=1
	return $ret
}

# 6.1: pod pb, one container on 6-7, its pod cgroup naming those only,
# pa's the rest; the managed root a partition on 1-7, pb one on 6-7, pb/c1 an isolated
# one: local partitions, each holding whole containers' CPUs.  pb may not
# hold a shared CPU too, and may not dissolve ("member", its cgroup
# removed) while a task beside the pods would inherit 6-7.
local_partitions()
{
	local ret=0 err

	if have_exclusive; then
		skip_case "6.7 on: remote partitions, the cases above"
		return
	fi
	pod_pb && echo +cpuset >"$PB/cgroup.subtree_control" &&
	wr 6-7 "$PB/cpuset.cpus" && wr 6-7 "$PB/c1/cpuset.cpus" || return 1
	# the tree narrowed: pa holds the shared pool and its own CPUs (6.1
	# makes a partition beside a cgroup naming its CPUs invalid)
	wr 0-5 "$PA/cpuset.cpus" || return 1
	sleeper PIDB
	wr "$PIDB" "$PB/c1/cgroup.procs" &&
	wr 1-7 "$ROOT/cpuset.cpus" &&
	wr root "$ROOT/cpuset.cpus.partition" &&
	wr root "$PB/cpuset.cpus.partition" &&
	wr isolated "$PB/c1/cpuset.cpus.partition" &&
	state_is "$ROOT/cpuset.cpus.partition" root &&
	state_is "$PB/cpuset.cpus.partition" root &&
	state_is "$PB/c1/cpuset.cpus.partition" isolated || ret=1
	task_on "$PIDB" 6-7 && c1_keeps && c2_stays || ret=1
	wr member "$PB/c1/cpuset.cpus.partition" &&
	wr member "$PB/cpuset.cpus.partition" || ret=1
	# a pod cgroup with more than its container's CPUs
	wr 5-7 "$PB/cpuset.cpus" &&
	refused root "$PB/cpuset.cpus.partition" && wr 6-7 "$PB/cpuset.cpus" ||
		ret=1
	# dissolving pb hands 6-7 to the managed root, and to new's task
	# (which inherits from it: c1 released meanwhile, its CPUs shared)
	wr root "$PB/cpuset.cpus.partition" &&
	"$CTL" release pa c1 >/dev/null || ret=1
	mkdir "$NEW" && sleeper PIDN && wr "$PIDN" "$NEW/cgroup.procs" &&
	task_on "$PIDN" 1-5 || ret=1
	refused member "$PB/cpuset.cpus.partition" || ret=1
	kill_wait "$PIDB"
	PIDB=
	rmdir "$PB/c1" || ret=1
	err=$(rmdir "$PB" 2>&1) && { echo "# rmdir pb accepted"; ret=1; }
	[ -d "$PB" ] && [[ $err == *busy* ]] || { echo "# $err"; ret=1; }
	task_on "$PIDN" 1-5 || ret=1
	no_task_beside || ret=1
	"$CTL" assign pa c1 2-3 >/dev/null &&
	"$CTL" bind pa c1 --cgroup "$C1" --pod-cgroup "$PA" >/dev/null ||
		ret=1
	wr member "$PB/cpuset.cpus.partition" &&
	wr member "$ROOT/cpuset.cpus.partition" &&
	wr 0-7 "$ROOT/cpuset.cpus" || ret=1
	undo
	"$CTL" release pb >/dev/null || ret=1
	wr 0-7 "$PA/cpuset.cpus" || ret=1
	rmdir "$PB"
	return $ret
}

# 3. c3 of pa gets CPU 6, which a pool cgroup beside the pods still
# inherits (from a parent that names the shared pool and 6).  Its
# cgroup made a partition as cpumgrctl makes it (init
# --pool-moves partitions: cpuset.cpus.exclusive down the chain, then
# "root"), the pool's task leaves 6 and the ASSIGN that clears the flag
# is taken; c3 released, then its partition undone.  Meanwhile pod pc's
# c4 waits for its partition on 7, which the pool keeps inheriting as
# c3's partition moves it: that is no reason to refuse c3's.
partition_pending_flow()
{
	local ret=0 d=$PA/c3 pp=$ROOT/pp pool=$ROOT/pp/pool pid flags

	needs_exclusive "no remote partitions" || return
	mkdir -p "$pool" && wr 0-1,4-7 "$pp/cpuset.cpus" &&
	wr +cpuset "$pp/cgroup.subtree_control" &&
	"$CTL" assign pa c3 6 >/dev/null || return 1
	sleeper pid
	refused "$pid" "$pool/cgroup.procs" || ret=1
	"$CTL" assign pa c3 6 --partition-pending >/dev/null &&
	"$CTL" assign pc c4 7 --partition-pending >/dev/null &&
	wr "$pid" "$pool/cgroup.procs" && task_on "$pid" 0-1,4-7 || ret=1
	mkdir "$d" && "$CTL" bind pa c3 --cgroup "$d" >/dev/null &&
	wr 6 "$d/cpuset.cpus" && wr 6 "$ROOT/cpuset.cpus.exclusive" &&
	wr 6 "$PA/cpuset.cpus.exclusive" && wr 6 "$d/cpuset.cpus.exclusive" &&
	wr root "$d/cpuset.cpus.partition" &&
	state_is "$d/cpuset.cpus.partition" root &&
	task_on "$pid" 0-1,4-5,7 || ret=1
	"$CTL" assign pa c3 6 >/dev/null || ret=1
	read -r flags <"$SYSFS/pods/pa/c3/flags"
	[ -z "$flags" ] || { echo "# c3's flags '$flags'"; ret=1; }
	kill_wait "$pid"
	"$CTL" release pc >/dev/null || ret=1
	"$CTL" release pa c3 >/dev/null &&
	wr member "$d/cpuset.cpus.partition" &&
	wr "" "$d/cpuset.cpus.exclusive" && wr "" "$PA/cpuset.cpus.exclusive" &&
	wr "" "$ROOT/cpuset.cpus.exclusive" && rmdir "$d" "$pool" "$pp" ||
		ret=1
	return $ret
}

ktap_plan 23
check "set-up: c1 bound to 2-3 with a task, c2 on 4-5" setup
check "a partition root outside may not widen its cpuset.cpus onto c1's CPU" outside_root_widens
check "an invalid root outside may not turn valid on c1's CPU" outside_invalid_turns_valid
check "a top-level partition on the shared pool would leave the pods c1's CPUs: refused" outside_takes_shared_pool
check "the managed root a partition on c1's exclusive CPUs would move c2 onto them: refused" managed_root_partition_on_c1
check "c1's isolated partition, CRI-O's writes: allowed" crio_sequence
check "the pod cgroup written while it stands" pod_cgroup_written_beside_partition
check "a cgroup below pa that names no CPU inherits none of c1's" pod_inherits_none_of_partition
check "it may not dissolve onto a task beside the pod: member" dissolve_refused member
check "nor by its cgroup removed" dissolve_refused rmdir
check "nor by pa's cpuset.cpus.exclusive emptied" dissolve_refused parent
check "nor by cpuset turned off in pa" dissolve_refused subtree
check "it shrinks with c1's CPUs, the rest refused while c1 holds them" partition_shrinks
check "it grows onto the pool's CPUs, not by a writer without CAP_SYS_ADMIN" partition_grows
check "CRI-O's undo, with nobody beside to inherit" crio_undo
check "no partition below the managed root holds more than its containers' CPUs" shape_more_cpus
check "nor another pod's" shape_another_pods
check "nor is a pod cgroup one over a sidecar" shape_pod_cgroup
check "nor holds an unbound container's CPUs" shape_unbound_container
check "another pod's CPUs: CRI-O's pod cgroup write refused, the contract's writes allowed" crio_with_another_pod
check "6.1: local partitions where the layout allows" local_partitions
check "a partition pending lets the pool take tasks until it is made" partition_pending_flow
check "the tree is as it was" c1_keeps
ktap_exit
