#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Checked, not yet done (issue 22, item 10): a cpuset.cpus write of a
# parent is checked against the children that have tasks, and a task
# entering a child against what the child has now; neither waits for
# the other.  A write that gives the parent a container's CPU, checked
# while the child is still empty, must not land after a task entered the
# child, and a task checked before the write must not enter after it:
# either way the task inherits the container's CPU.  cpumgr counts the
# task entry under way in the write's walk, and the write under way in
# the entry's check (kmod/cpumgr_inflight.c).  Two writes under way are
# the same race: erace given 7 while q, with a task, is emptied (so that
# it inherits); a write waits while another on its branch is under way,
# and is checked against what that one made.  A write checked while the
# table was empty is under way as well (issue 32, item 2): a task entry
# after an ASSIGN meets it, and an ASSIGN that narrowed first waits for
# it to land, then looks at q.  So does it for the other writes that can
# hand q's task 7: a partition dissolved (cpuset.cpus.partition, or
# cpuset.cpus.exclusive emptied above it) and cpuset turned off above
# q (cgroup.subtree_control).  Three writes on one branch, each
# harmless alone or with one other, may not all land (issue 32, item 6).
#
# selftests/kmod's cpumgr_cpuset_park.ko parks another cgroup's
# cpuset.cpus (or cpuset.mems) write with cpuset's locks held: the write
# or the task entry made next is checked and then waits for those locks,
# until the test has brought the other side.  A cpuset.mems write holds
# no place among the cpuset writes an ASSIGN waits for: the ASSIGN's
# cases park one.  A task move that waits there holds the lock every
# fork takes: the shell then waits with builtins only.
#
# Pod p0's container c0 holds CPU 7, bound at erace/c0; erace has 0-6;
# erace/q is empty and inherits.  The write gives erace 0-7 (its own
# cpuset.cpus may name 7: it is above c0).  Each case checks that the
# side that came second is refused, and that no task runs on 7 in q.
# Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

PARK=${CPUMGR_MODULE%/kmod/cpumgr.ko}/testmod/cpumgr_cpuset_park.ko
CLONE=$CPUMGR_OUT/selftests/clone_into_cgroup
PARAMS=/sys/module/cpumgr_cpuset_park/parameters
CG=/sys/fs/cgroup/erace
BLK=/sys/fs/cgroup/epark
OUT=$(mktemp -d)
TASK=
MOVER=
BG=()
FAMILY=()

cleanup()
{
	echo 1 2>/dev/null >"$PARAMS/release"
	[ -n "$TASK" ] && kill "$TASK" 2>/dev/null
	[ -n "$MOVER" ] && kill "$MOVER" 2>/dev/null
	wait
	rmmod cpumgr_cpuset_park 2>/dev/null
	"$CTL" reset >/dev/null 2>&1
	echo 1 2>/dev/null >/sys/devices/system/cpu/cpu5/online
	rmdir "$CG/q/r" "$CG/q" "$CG/c0" "$CG" "$BLK" 2>/dev/null
	rm -rf "$OUT"
}
trap cleanup EXIT

# A fifth of a second's wait without a fork (a parked task move blocks forks).
nap()
{
	read -r -t 0.2 2>/dev/null <>"$OUT/never"
	return 0
}

# The starting point of every case: erace on 0-6, c0 assigned 7 and
# bound, the task outside erace.  arm_empty: the same with nothing in
# the table.
arm_empty()
{
	"$CTL" reset >/dev/null &&
	"$CTL" configure --policy static >/dev/null &&
	echo "$TASK" >/sys/fs/cgroup/cgroup.procs &&
	echo 0-6 >"$CG/cpuset.cpus" &&
	echo >"$CG/q/cpuset.cpus" &&
	echo 7 >"$CG/c0/cpuset.cpus" &&
	rm -f "$OUT"/status.* "$OUT"/*.err &&
	echo 2 >"$BLK/cpuset.cpus" &&
	echo >"$BLK/cpuset.mems"
}

arm()
{
	arm_empty &&
	"$CTL" assign p0 c0 7 >/dev/null &&
	"$CTL" bind p0 c0 --cgroup "$CG/c0" >/dev/null
}

setup()
{
	mkfifo "$OUT/never" "$OUT/go.write" "$OUT/go.entry" \
		"$OUT/go.first" "$OUT/go.second" "$OUT/go.third" \
		"$OUT/go.assign" "$OUT/go.move" &&
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control &&
	mkdir -p "$CG/c0" "$CG/q" "$BLK" &&
	echo +cpuset >"$CG/cgroup.subtree_control" || return 1
	sleep 1000 &
	TASK=$!
	sleep 1000 &
	MOVER=$!
}

# Until file $1 reads $2; 1 after 60 s.  No fork.
until_reads()
{
	local i v

	for ((i = 0; i < 300; i++)); do
		read -r v <"$1"
		[ "$v" = "$2" ] && return 0
		nap
	done
	return 1
}

# Park a write of epark: cpuset's locks are held until release.  With
# $1 "mems", its cpuset.mems given node 0 (it had both, inherited), else
# its cpuset.cpus given 1.
park()
{
	insmod "$PARK" cgroup=epark || return 1
	if [ "$1" = mems ]; then
		(echo 0 >"$BLK/cpuset.mems") &
	else
		(echo 1 >"$BLK/cpuset.cpus") &
	fi
	BG=($!)
	until_reads "$PARAMS/waiting" 1 && return 0
	echo "# the write of epark was not parked"
	return 1
}

unpark()
{
	echo 1 >"$PARAMS/release"
	wait "${BG[@]}"
	rmmod cpumgr_cpuset_park
}

# Process $1 and its children, into FAMILY (builtins only; not every
# kernel has /proc/PID/task/TID/children).
family_of()
{
	local stat pid ppid

	FAMILY=()
	for stat in /proc/[0-9]*/stat; do
		# pid (comm) state ppid ...
		read -r pid _ _ ppid _ 2>/dev/null <"$stat" || continue
		if [ "$pid" = "$1" ] || [ "$ppid" = "$1" ]; then
			FAMILY+=("$pid")
		fi
	done
}

# Whether process $1, or a child of it, waits in the kernel in function
# $2.  No fork.
waits_in()
{
	local line pid

	family_of "$1"
	for pid in "${FAMILY[@]}"; do
		while read -r line; do
			case $line in
			*"$2"*) return 0 ;;
			esac
		done 2>/dev/null <"/proc/$pid/stack"
	done
	return 1
}

# Whether process $1 has ended (gone, or a zombie not yet waited for).
ended()
{
	local state

	read -r _ _ state _ 2>/dev/null <"/proc/$1/stat" || return 0
	[ "$state" = Z ]
}

# Where process $1, and each child of it, waits in the kernel (the
# first 8 frames), for a side that did not wait where it should.  No fork.
stack_of()
{
	local pid line n

	family_of "$1"
	for pid in "${FAMILY[@]}"; do
		n=0
		while read -r line && ((n++ < 8)); do
			echo "# $pid: $line"
		done 2>/dev/null <"/proc/$pid/stack"
	done
}

# Until status file $1 is written, or process $2 ended (0), or process
# $2 waits in the kernel in function $3 (2); 1 after 60 s.  No fork.
until_status()
{
	local i

	for ((i = 0; i < 300; i++)); do
		[ -s "$OUT/status.$1" ] && return 0
		[ -n "$2" ] && ended "$2" && return 0
		[ -n "$2" ] && waits_in "$2" "$3" && return 2
		nap
	done
	return 1
}

status_of()
{
	local s

	read -r s 2>/dev/null <"$OUT/status.$1"
	echo "${s:-none}"
}

# In the background, once "$OUT/go.entry" is written to: the entry ($1:
# move or clone), its exit status into status.entry.
entry_later()
{
	(
		read -r _ <"$OUT/go.entry"
		case $1 in
		move) echo "$TASK" >"$CG/q/cgroup.procs" ;;
		clone) "$CLONE" "$CG/q" ;;
		esac 2>"$OUT/entry.err"
		echo $? >"$OUT/status.entry"
	) &
	BG+=($!)
}

# Once "$OUT/go.$1" is written to: a write of $2 into file $3 (default
# erace given 0-7), status into status.$1, its errors into $1.err.
write_later()
{
	(
		read -r _ <"$OUT/go.$1"
		if echo "${2-0-7}" 2>"$OUT/$1.err" >"${3-$CG/cpuset.cpus}"; then
			echo 0
		else
			echo 1
		fi >"$OUT/status.$1"
	) &
	BG+=($!)
}

# Let side $1 go (no fork).
go()
{
	echo go >"$OUT/go.$1"
}

# Let side $1 (its process $2) go: it must wait in the kernel in
# function $3 (parked, or in line behind another), said when it does not.
goes_to_wait()
{
	go "$1"
	until_status "$1" "$2" "$3"
	[ $? = 2 ] && return 0
	echo "# the $1 did not wait in $3: status $(status_of "$1")"
	stack_of "$2"
	return 1
}

# Whether CPU list $1 (as the kernel prints it) holds CPU $2.
holds_cpu()
{
	local range lo hi

	for range in ${1//,/ }; do
		lo=${range%-*}
		hi=${range#*-}
		((lo <= $2 && $2 <= hi)) && return 0
	done
	return 1
}

# Whether the task runs on CPU 7 (wherever it is: q may have no cpuset).
task_on_7()
{
	local key list

	while read -r key list; do
		[ "$key" = Cpus_allowed_list: ] && holds_cpu "$list" 7 && return 0
	done <"/proc/$TASK/status"
	return 1
}

# No task in q runs on CPU 7.
q_off_7()
{
	local eff procs

	procs=$(<"$CG/q/cgroup.procs")
	eff=$(<"$CG/q/cpuset.cpus.effective")
	[ -z "$procs" ] || ! holds_cpu "$eff" 7 && return 0
	echo "# tasks $procs in q, which has CPUs $eff"
	return 1
}

# Side $1 (as entry_later or write_later named it, its process $2) goes
# first and must wait in the kernel in function $3 (parked); side $4
# (its process $5, when it is a write) comes and must be refused, and $1
# land.  A write waits for a write under way on its branch to end, and
# is checked then.
race()
{
	local ok=0 st

	go "$1"
	until_status "$1" "$2" "$3"
	if [ $? != 2 ]; then
		echo "# the $1 did not wait: status $(status_of "$1")"
		ok=1
	fi
	go "$4"
	# an entry refused at once, or waiting for cpuset's locks (no fork
	# now); a write waiting for the write under way on its branch
	until_status "$4" "$5" cpumgr_inflight_write_get
	st=$?
	if [ -n "$5" ] && [ $st != 2 ]; then
		echo "# the $4 did not wait for the $1: status $(status_of "$4")"
		ok=1
	fi
	unpark
	if [ "$(status_of "$4")" = 0 ]; then
		echo "# the $4 got through while the $1 was under way"
		ok=1
	else
		grep -q busy "$OUT/$4.err" || { diag <"$OUT/$4.err"; ok=1; }
	fi
	[ "$(status_of "$1")" = 0 ] ||
		{ echo "# the $1: $(status_of "$1")"; diag <"$OUT/$1.err"; ok=1; }
	q_off_7 || ok=1
	return $ok
}

# The write is checked and waits (parked); the entry ($1) comes.
write_then_entry()
{
	local writer

	arm && park || return 1
	write_later write
	writer=$!
	entry_later "$1"
	race write "$writer" cpuset_write_resmask entry
}

# The entry ($1) is checked and waits (parked); the write comes.  A move
# waits in cpuset_can_attach(), a clone3 in cpuset_can_fork().
entry_then_write()
{
	local pid

	arm && park || return 1
	entry_later "$1"
	pid=$!
	write_later write
	race entry "$pid" cpuset_can_ write
}

# The write $1 (erace given 7, or q emptied) is checked and waits
# (parked); the other comes, and is refused.  q has a task and 0-1.
write_then_write()
{
	local first err give=(0-7 "$CG/cpuset.cpus") empty=("" "$CG/q/cpuset.cpus")
	local -a one other

	case $1 in
	erace) one=("${give[@]}") other=("${empty[@]}") ;;
	q) one=("${empty[@]}") other=("${give[@]}") ;;
	esac
	arm && echo 0-1 >"$CG/q/cpuset.cpus" &&
	echo "$TASK" >"$CG/q/cgroup.procs" || return 1
	# q emptied alone inherits erace's 0-6, no exclusive CPU: cpumgr lets
	# it through.  6.1 and 6.12 refuse to empty a cpuset with tasks
	# (ENOSPC): no write can empty q there, so there is no race, and
	# nothing of cpumgr's to check (a skip, not a pass).  Any other
	# refusal, cpumgr's EBUSY first, is a failure.
	if ! err=$( { echo >"$CG/q/cpuset.cpus"; } 2>&1); then
		case $err in
		*"No space left on device"*)
			skip_case "this kernel does not empty a cpuset with tasks (ENOSPC): no race"
			return ;;
		esac
		echo "# q emptied on its own: $err"
		return 1
	fi
	echo 0-1 >"$CG/q/cpuset.cpus" && park || return 1
	write_later first "${one[@]}"
	first=$!
	write_later second "${other[@]}"
	race first "$first" cpuset_write_resmask second $!
}

# In the background, once "$OUT/go.assign" is written to: c0 assigned 7
# (with flags $@), its status into status.assign.
assign_later()
{
	(
		read -r _ <"$OUT/go.assign"
		"$CTL" assign p0 c0 7 "$@" >/dev/null 2>"$OUT/assign.err"
		echo $? >"$OUT/status.assign"
	) &
	BG+=($!)
}

# Until the table holds CPU 7; 1 after 60 s.  No fork.
until_assigned()
{
	until_reads "$SYSFS/exclusive_cpus" 7 && return 0
	echo "# CPU 7 was not assigned"
	return 1
}

# The write is checked while the table is empty (nothing to check it
# against) and waits (parked); c0 is assigned 7 (the ASSIGN publishes
# the table, then waits for the writes checked before it); a task move
# into q, which the write gives 7, comes and must be refused.
write_then_assign()
{
	local writer mover ok=0

	arm_empty && park || return 1
	write_later write
	writer=$!
	assign_later
	goes_to_wait write "$writer" cpuset_write_resmask || ok=1
	go assign
	until_assigned || ok=1
	entry_later move
	mover=$!
	go entry
	until_status entry "$mover" cpuset_can_
	unpark
	if [ "$(status_of entry)" = 0 ]; then
		echo "# the task move got through while the write was under way"
		ok=1
	else
		grep -q busy "$OUT/entry.err" || { diag <"$OUT/entry.err"; ok=1; }
	fi
	[ "$(status_of write)" = 0 ] || { echo "# the write: $(status_of write)"; ok=1; }
	[ "$(status_of assign)" = 0 ] ||
		{ echo "# the ASSIGN: $(status_of assign)"; diag <"$OUT/assign.err"; ok=1; }
	q_off_7 || ok=1
	return $ok
}

# Run in the background (forked before anything is parked): once
# "$OUT/go.assign" is written to, without a fork (a task move parked
# holds the lock every fork takes), c0 assigned 7 that says the others
# let go of it (--narrowed).  Its exit status is wait's, its errors
# assign.err.
assign_exec()
{
	read -r _ <"$OUT/go.assign"
	exec "$CTL" assign p0 c0 7 --narrowed >/dev/null 2>"$OUT/assign.err"
}

# The write (write_later's, process $1), checked on the empty table,
# waits in the kernel in function $2 (parked behind a cpuset.mems write)
# and will give the task 7; the ASSIGN (assign_exec's, process $3)
# comes.  It waits for the write to land (cpumgr_inflight_gate_close()),
# then finds the task on 7: refused.  Without the wait it looked first,
# was taken, and the write gave the task the container's CPU.
narrowed_assign_waits()
{
	local assigner=$3 st ok=0

	goes_to_wait write "$1" "$2" || ok=1
	goes_to_wait assign "$assigner" cpumgr_inflight_gate_close || ok=1
	unpark
	wait "$assigner"
	st=$?
	[ "$(status_of write)" = 0 ] ||
		{ echo "# the write: $(status_of write)"; diag <"$OUT/write.err"; ok=1; }
	if [ $st = 0 ]; then
		echo "# the ASSIGN was taken while the task had 7"
		ok=1
	else
		grep -q "still held by a cgroup with tasks" "$OUT/assign.err" ||
			{ diag <"$OUT/assign.err"; ok=1; }
	fi
	[ -z "$(<"$SYSFS/exclusive_cpus")" ] ||
		{ echo "# exclusive: $(<"$SYSFS/exclusive_cpus")"; ok=1; }
	task_on_7 || { echo "# the write did not give the task 7"; ok=1; }
	echo "$TASK" >/sys/fs/cgroup/cgroup.procs
	return $ok
}

# erace given 0-7 while q, which inherits, has a task.
write_then_narrowed_assign()
{
	local writer

	arm_empty && echo "$TASK" >"$CG/q/cgroup.procs" && park mems || return 1
	write_later write
	writer=$!
	assign_exec &
	narrowed_assign_waits "$writer" cpuset_write_resmask $!
}

# c0 a remote partition on 7 (cpuset.cpus.exclusive 7 on erace and on
# c0), erace on 0-7: q, which inherits, has 0-6 and the task.
c0_partition()
{
	local state

	echo 0-7 >"$CG/cpuset.cpus" &&
	echo 7 >"$CG/cpuset.cpus.exclusive" &&
	echo 7 >"$CG/c0/cpuset.cpus.exclusive" &&
	echo root >"$CG/c0/cpuset.cpus.partition" &&
	read -r state <"$CG/c0/cpuset.cpus.partition" &&
	echo "$TASK" >"$CG/q/cgroup.procs" || return 1
	[ "$state" = root ] && ! task_on_7 && return 0
	echo "# c0's partition: $state"
	return 1
}

no_partition()
{
	echo member >"$CG/c0/cpuset.cpus.partition" &&
	echo >"$CG/c0/cpuset.cpus.exclusive" &&
	echo >"$CG/cpuset.cpus.exclusive"
}

# c0's remote partition dissolved ($1: member written, or erace's
# cpuset.cpus.exclusive emptied) gives 7 back to q.
dissolve_then_narrowed_assign()
{
	local ok=0 writer

	[ -e "$CG/cpuset.cpus.exclusive" ] ||
		{ skip_case "no remote partition before 6.7 (no cpuset.cpus.exclusive)"; return; }
	arm_empty && c0_partition && park mems || { no_partition; return 1; }
	case $1 in
	member)
		write_later write member "$CG/c0/cpuset.cpus.partition"
		writer=$!
		assign_exec &
		narrowed_assign_waits "$writer" _partition_write $! || ok=1 ;;
	exclusive)
		write_later write "" "$CG/cpuset.cpus.exclusive"
		writer=$!
		assign_exec &
		narrowed_assign_waits "$writer" cpuset_write_resmask $! || ok=1 ;;
	esac
	no_partition || ok=1
	return $ok
}

# cpuset turned off in erace (on 0-7) moves q's task, on 0-1, to
# erace's cpuset.  The kernel turns it off in erace's
# cgroup.subtree_control before it moves the tasks, and cpumgr counts
# them as erace's from then on: the write must wait before that, for
# cgroup_mutex, which a task move into epark holds while it waits for
# the parked write (and every fork with it).
subtree_then_narrowed_assign()
{
	local ok=0 mover writer assigner

	arm_empty && echo 0-7 >"$CG/cpuset.cpus" &&
	echo 0-1 >"$CG/q/cpuset.cpus" &&
	echo "$TASK" >"$CG/q/cgroup.procs" && park mems || return 1
	write_later move "$MOVER" "$BLK/cgroup.procs"
	mover=$!
	write_later write -cpuset "$CG/cgroup.subtree_control"
	writer=$!
	assign_exec &
	assigner=$!
	goes_to_wait move "$mover" cpuset_can_attach || ok=1
	narrowed_assign_waits "$writer" cgroup_subtree_control_write "$assigner" || ok=1
	[ "$(status_of move)" = 0 ] || { echo "# the move into epark: $(status_of move)"; ok=1; }
	echo "$MOVER" >/sys/fs/cgroup/cgroup.procs &&
	echo +cpuset >"$CG/cgroup.subtree_control" || ok=1
	return $ok
}

# Issue 32, item 6: three writes on one branch, erace, q and q/r, each
# given CPU 5, offline (a cgroup2 cpuset with no CPU of its own online
# takes its parent's), while epark's write holds cpuset's locks.  Each
# alone, or any two, leave r's task on 0-1; all three would hand it
# erace's parent's CPUs, 7 among them.  They may not all land.
three_writes()
{
	local ok=0 first second third refused=0 side eff

	arm || return 1
	mkdir -p "$CG/q/r" &&
	echo +cpuset >"$CG/q/cgroup.subtree_control" &&
	echo 0-1 >"$CG/q/cpuset.cpus" && echo 0-1 >"$CG/q/r/cpuset.cpus" &&
	echo "$TASK" >"$CG/q/r/cgroup.procs" &&
	echo 0 >/sys/devices/system/cpu/cpu5/online && park || return 1
	write_later first 5 "$CG/cpuset.cpus"
	first=$!
	write_later second 5 "$CG/q/cpuset.cpus"
	second=$!
	write_later third 5 "$CG/q/r/cpuset.cpus"
	third=$!
	goes_to_wait first "$first" cpuset_write_resmask || ok=1
	# each waits for the one before on its branch
	goes_to_wait second "$second" cpumgr_inflight_write_get || ok=1
	goes_to_wait third "$third" cpumgr_inflight_write_get || ok=1
	unpark
	for side in first second third; do
		case $(status_of $side) in
		0) ;;
		1) grep -q busy "$OUT/$side.err" && refused=$((refused + 1)) ;;
		*) echo "# the $side write: $(status_of $side)"; ok=1 ;;
		esac
	done
	[ $refused -gt 0 ] || { echo "# all three writes landed"; ok=1; }
	eff=$(<"$CG/q/r/cpuset.cpus.effective")
	if holds_cpu "$eff" 7; then
		echo "# r's task on $eff"
		ok=1
	fi
	echo "$TASK" >/sys/fs/cgroup/cgroup.procs
	echo 1 >/sys/devices/system/cpu/cpu5/online
	rmdir "$CG/q/r" && echo -cpuset >"$CG/q/cgroup.subtree_control" || ok=1
	return $ok
}

ktap_plan 13
check "set-up: c0 on 7, erace on 0-6, q empty" setup
check "a task move into q while a write giving erace 7 is under way: refused" write_then_entry move
check "a clone3 into q while a write giving erace 7 is under way: refused" write_then_entry clone
check "a write giving erace 7 while a task move into q is under way: refused" entry_then_write move
check "a write giving erace 7 while a clone3 into q is under way: refused" entry_then_write clone
check "q emptied while a write giving erace 7 is under way: refused" write_then_write erace
check "a write giving erace 7 while q is being emptied: refused" write_then_write q
check "a task move into q after an ASSIGN, while a write checked on the empty table is under way: refused" write_then_assign
check "an ASSIGN that narrowed first, while a write checked on the empty table gives q's task 7: refused" write_then_narrowed_assign
check "an ASSIGN that narrowed first, while c0's partition written member gives q's task 7: refused" dissolve_then_narrowed_assign member
check "an ASSIGN that narrowed first, while erace's cpuset.cpus.exclusive emptied gives q's task 7: refused" dissolve_then_narrowed_assign exclusive
check "an ASSIGN that narrowed first, while cpuset turned off in erace gives q's task 7: refused" subtree_then_narrowed_assign
check "three writes on one branch, each harmless alone: not all land" three_writes
ktap_exit
