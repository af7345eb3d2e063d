#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A CPU hotplug storm: for CPUMGR_STORM_SECONDS (default 30) in each
# hotplug mode (protect, then release), in enforce mode, at the same time:
#  - random non-boot CPUs go offline and online;
#  - STORM_PODS "containers" cycle as the controller runs them: ASSIGN of
#    1-2 random CPUs (cpumgrctl), BIND of the container and pod cgroups,
#    the container's cpuset.cpus written, a task started in it, held a
#    moment, stopped, unbound, RELEASEd;
#  - a hostile writer writes another container's CPUs into a container's
#    cpuset.cpus and random cpulists into an unmanaged cgroup;
#  - a mover moves a task into random container cgroups and back out.
# A checker (shell builtins only, so it is quick) checks continuously, on
# snapshots of the table that no change tore (the sysfs tree read before
# and after is the same):
#  - the table: pods/*/*/cpus of different pods disjoint, exclusive_cpus
#    their union;
#  - no CPU in the cpuset.cpus.effective of two populated bound containers
#    of different pods;
#  - no task of a bound container allowed (Cpus_allowed_list) on a CPU
#    assigned to another pod.
# In release mode a container whose last CPU went offline is left out (its
# cgroup falls back to its parent's CPUs, which the README documents):
# counted.  In protect mode a degraded container is a failure: no
# assigned CPU may go.  degraded_cpu_returns checks that a CPU back online
# returns to the release-mode container whose cgroup still names it;
# assign_offline_race races ASSIGNs with offlines of their CPU
# (CPUMGR_STORM_RACE_SECONDS, default 30).  The same checks run once more
# after the storm; every CPU is online at the end.  CPUMGR_STORM_SEED
# replays the random choices of the shell (not the timing).

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

SECONDS_EACH=${CPUMGR_STORM_SECONDS:-30}
RACE_SECONDS=${CPUMGR_STORM_RACE_SECONDS:-30}
PODS=${STORM_PODS:-3}
CG=/sys/fs/cgroup
BASE=$CG/storm
CPUDIR=/sys/devices/system/cpu
WORK=$(mktemp -d)
SEED=${CPUMGR_STORM_SEED:-$((RANDOM * 32768 + RANDOM))}
pids=()
OTHER_PID=
mkfifo "$WORK/nap"
exec {NAPFD}<>"$WORK/nap"

# Sleep without starting a process: under TCG each costs 60-150 ms.
nap()
{
	read -r -t "$1" -u "$NAPFD"
}

cleanup()
{
	touch "$WORK/stop" "$WORK/race-done"
	kill "${pids[@]}" $OTHER_PID 2>/dev/null
	wait 2>/dev/null
	all_online
	"$CTL" reset >/dev/null 2>&1
	for d in "$BASE"/*/c "$BASE"/* "$BASE"; do
		[ -d "$d" ] || continue
		while read -r p; do
			echo "$p" >"$CG/cgroup.procs"
		done <"$d/cgroup.procs" 2>/dev/null
	done
	find "$BASE" -depth -type d -exec rmdir {} + 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

all_online()
{
	local f

	for f in "$CPUDIR"/cpu[0-9]*/online; do
		read -r v <"$f"
		[ "$v" = 1 ] || echo 1 >"$f"
	done
}

# The CPUs a cpulist names, into the array LIST (builtins only).
LIST=()
expand()
{
	local IFS=, r a b i

	LIST=()
	for r in $1; do
		if [ "${r#*-}" != "$r" ]; then
			a=${r%-*}
			b=${r#*-}
			for ((i = a; i <= b; i++)); do
				LIST+=("$i")
			done
		elif [ -n "$r" ]; then
			LIST+=("$r")
		fi
	done
}

NCPUS=0
for f in "$CPUDIR"/cpu[0-9]*; do
	NCPUS=$((NCPUS + 1))
done

# The sysfs tree of the table: one text for comparing snapshots.
snap()
{
	local d v

	SNAP=""
	for d in "$SYSFS"/pods/*/*/; do
		v="(gone)"
		read -r v 2>/dev/null <"$d/cpus"
		SNAP+="$d cpus=$v "
		v="(gone)"
		read -r v 2>/dev/null <"$d/cgroup"
		SNAP+="cgroup=$v;"
	done
	read -r v <"$SYSFS/exclusive_cpus"
	SNAP+="exclusive=$v"
}

# Task $1 is in cgroup2 directory $2.
in_cg()
{
	local l=""

	read -r l 2>/dev/null <"/proc/$1/cgroup"
	[ "$CG${l#0::}" = "$2" ]
}

# One check.  0: consistent, 1: broken (WHY says how), 2: torn snapshot.
check_once()
{
	local d pod cpus cg v s1 c pid line excl key procs status flags
	local -A owner=() eff=() inexcl=()

	WHY=""
	snap
	s1=$SNAP
	for d in "$SYSFS"/pods/*/*/; do
		pod=${d%/*/}
		pod=${pod##*/}
		read -r cpus 2>/dev/null <"$d/cpus" || continue
		expand "$cpus"
		for c in "${LIST[@]}"; do
			if [ -n "${owner[$c]}" ] && [ "${owner[$c]}" != "$pod" ]; then
				WHY="table: CPU $c in pods ${owner[$c]} and $pod"
			fi
			owner[$c]=$pod
		done
	done
	read -r excl <"$SYSFS/exclusive_cpus"
	expand "$excl"
	for c in "${LIST[@]}"; do
		inexcl[$c]=1
		[ -n "${owner[$c]}" ] || WHY="exclusive_cpus $excl: CPU $c in no assignment"
	done
	for c in "${!owner[@]}"; do
		[ -n "${inexcl[$c]}" ] || WHY="exclusive_cpus $excl lacks CPU $c"
	done
	for d in "$SYSFS"/pods/*/*/; do
		cg=""
		cpus=""
		read -r cg 2>/dev/null <"$d/cgroup"
		read -r cpus 2>/dev/null <"$d/cpus" || continue
		[ -n "$cg" ] && [ -d "$cg" ] || continue
		pod=${d%/*/}
		pod=${pod##*/}
		# Tasks first: a task enters after its cpuset is written.
		pid=""
		read -r pid 2>/dev/null <"$cg/cgroup.procs"
		[ -n "$pid" ] || continue
		if [ -z "$cpus" ] && [ "$MODE" = release ]; then
			FALLBACK=$((FALLBACK + 1))
			continue
		fi
		flags=""
		read -r flags 2>/dev/null <"${d}flags"
		if [ "${flags#*degraded}" != "$flags" ]; then
			# Protect mode never lets an assigned CPU go.
			if [ "$MODE" = protect ]; then
				WHY="protect mode: $pod/c degraded (table $cpus)"
			fi
			DEGRADED=$((DEGRADED + 1))
		fi
		v=""
		read -r v 2>/dev/null <"$cg/cpuset.cpus.effective"
		expand "$v"
		for c in "${LIST[@]}"; do
			if [ -n "${eff[$c]}" ] && [ "${eff[$c]}" != "$pod" ]; then
				WHY="CPU $c in the effective CPUs of ${eff[$c]} and $pod ($cg: $v)"
			fi
			eff[$c]=$pod
		done
		mapfile -t procs 2>/dev/null <"$cg/cgroup.procs"
		for pid in "${procs[@]}"; do
			# The task may move on meanwhile (the mover does):
			# its cgroup read before and after its status.
			in_cg "$pid" "$cg" || continue
			status=()
			mapfile -t status 2>/dev/null <"/proc/$pid/status"
			in_cg "$pid" "$cg" || continue
			line=""
			for key in "${status[@]}"; do
				if [ "${key#Cpus_allowed_list:}" != "$key" ]; then
					line=${key#Cpus_allowed_list:}
					line=${line//[[:space:]]/}
					break
				fi
			done
			expand "$line"
			for c in "${LIST[@]}"; do
				if [ -n "${owner[$c]}" ] && [ "${owner[$c]}" != "$pod" ]; then
					WHY="task $pid of $pod ($cg) allowed on CPU $c of ${owner[$c]} ($line)"
				fi
			done
		done
	done
	snap
	[ "$SNAP" = "$s1" ] || return 2
	[ -z "$WHY" ] || return 1
	return 0
}

# Background: random CPUs offline and online.
hotplug_loop()
{
	local cpu f v up=0 down=0 refused=0

	RANDOM=$((SEED + 1))
	while [ ! -e "$WORK/stop" ]; do
		cpu=$((1 + RANDOM % (NCPUS - 1)))
		f=$CPUDIR/cpu$cpu/online
		read -r v <"$f"
		if [ "$v" = 1 ]; then
			if echo 0 2>/dev/null >"$f"; then
				down=$((down + 1))
			else
				refused=$((refused + 1))
			fi
		else
			echo 1 >"$f" && up=$((up + 1))
		fi
		nap 0.0$((RANDOM % 10))
	done
	echo "$down $up $refused" >"$WORK/hotplug"
}

# Background: one container's life, over and over.
pod_loop()
{
	local i=$1 cg=$BASE/storm$1/c pcg=$BASE/storm$1 a b cpus t ok=0 no=0

	RANDOM=$((SEED + 10 + i))
	while [ ! -e "$WORK/stop" ]; do
		a=$((1 + RANDOM % (NCPUS - 1)))
		b=$((1 + RANDOM % (NCPUS - 1)))
		if [ $a = $b ]; then cpus=$a
		elif [ $a -lt $b ]; then cpus=$a,$b
		else cpus=$b,$a
		fi
		if ! "$CTL" assign "storm$i" c "$cpus" >/dev/null 2>&1; then
			no=$((no + 1))
			continue
		fi
		ok=$((ok + 1))
		"$CTL" bind "storm$i" c --cgroup "$cg" --pod-cgroup "$pcg" \
			>/dev/null 2>&1
		if echo "$cpus" 2>/dev/null >"$cg/cpuset.cpus"; then
			(echo "$BASHPID" >"$cg/cgroup.procs" && exec sleep 100) \
				2>/dev/null &
			t=$!
			nap 0.$((RANDOM % 5))
			kill "$t" 2>/dev/null
			wait "$t" 2>/dev/null
		fi
		# Whatever else was moved in leaves before the CPUs do.
		while read -r p; do
			echo "$p" >"$CG/cgroup.procs"
		done <"$cg/cgroup.procs"
		"$CTL" bind "storm$i" c --cgroup "" --pod-cgroup "" >/dev/null 2>&1
		"$CTL" release "storm$i" >/dev/null 2>&1
	done
	echo "$ok $no" >"$WORK/pod$i"
}

# Background: writes that must not take another container's CPUs, and
# writes of an unmanaged cgroup; a task moved in and out of containers.
hostile_loop()
{
	local j k v cpus taken=0 refused=0 other=0 moved=0 s

	RANDOM=$((SEED + 2))
	sleep 1000 &
	s=$!
	while [ ! -e "$WORK/stop" ]; do
		j=$((RANDOM % PODS))
		k=$((RANDOM % PODS))
		v=""
		read -r v 2>/dev/null <"$SYSFS/pods/storm$k/c/cpus"
		if [ "$j" != "$k" ] && [ -n "$v" ]; then
			if echo "$v" 2>/dev/null >"$BASE/storm$j/c/cpuset.cpus"; then
				taken=$((taken + 1))
			else
				refused=$((refused + 1))
			fi
		fi
		cpus=$((RANDOM % NCPUS))-$((RANDOM % NCPUS))
		echo "$cpus" 2>/dev/null >"$BASE/other/cpuset.cpus" &&
			other=$((other + 1))
		if echo "$s" 2>/dev/null >"$BASE/storm$j/c/cgroup.procs"; then
			moved=$((moved + 1))
			echo "$s" >"$CG/cgroup.procs"
		fi
		nap 0.05
	done
	kill "$s"
	echo "$taken $refused $other $moved" >"$WORK/hostile"
}

storm()
{
	local t_end checks=0 torn=0 broken=0 first="" r i
	local settled=0 settled_first="" first_why

	MODE=$1
	FALLBACK=0
	DEGRADED=0
	rm -f "$WORK/stop" "$WORK"/pod* "$WORK/hotplug" "$WORK/hostile"
	"$CTL" configure --hotplug "$MODE" --enforce enforce >/dev/null || return 1
	pids=()
	hotplug_loop &
	pids+=($!)
	for ((i = 0; i < PODS; i++)); do
		pod_loop "$i" &
		pids+=($!)
	done
	hostile_loop &
	pids+=($!)
	t_end=$((SECONDS + SECONDS_EACH))
	while [ $SECONDS -lt $t_end ]; do
		check_once
		r=$?
		# Release mode: a cpuset whose CPUs went offline fell back to
		# its parent's, and cpuset's hotplug work, asynchronous on
		# 6.1, can leave its tasks allowed there for a moment after
		# the table and the cpuset have their CPUs again.  Such a
		# finding counts when the next check, a second later, still
		# has one.
		if [ $r = 1 ] && [ "$MODE" = release ] && [ "${WHY#task }" != "$WHY" ]; then
			first_why=$WHY
			nap 1
			check_once
			r=$?
			if [ $r != 1 ]; then
				settled=$((settled + 1))
				[ -n "$settled_first" ] || settled_first=$first_why
			fi
		fi
		case $r in
		0) checks=$((checks + 1)) ;;
		1) checks=$((checks + 1))
		   broken=$((broken + 1))
		   [ -n "$first" ] || first=$WHY ;;
		*) torn=$((torn + 1)) ;;
		esac
		nap 0.05
	done
	touch "$WORK/stop"
	wait "${pids[@]}"
	pids=()
	all_online
	# Once more, with nothing moving.
	check_once
	r=$?
	checks=$((checks + 1))
	if [ $r != 0 ]; then
		broken=$((broken + 1))
		[ -n "$first" ] || first="after the storm: $WHY"
	fi
	read -r down up refused <"$WORK/hotplug"
	echo "# $MODE: ${SECONDS_EACH}s, seed $SEED: $down offlines, $up onlines, $refused offlines refused"
	for ((i = 0; i < PODS; i++)); do
		read -r ok no <"$WORK/pod$i"
		echo "# $MODE: container storm$i: $ok assignments, $no refused"
	done
	read -r taken refused other moved <"$WORK/hostile"
	echo "# $MODE: hostile writes $refused refused, $taken accepted; $other writes of an unmanaged cgroup; $moved moves into containers"
	echo "# $MODE: $checks checks of consistent snapshots ($torn torn, retried), $broken broken; populated containers left out of a check $FALLBACK times (no CPU left), $DEGRADED times (degraded)"
	[ $settled = 0 ] ||
		echo "# $MODE: $settled task findings gone a second later (cpuset's hotplug work), the first: $settled_first"
	[ -n "$first" ] && echo "# $MODE: first broken: $first"
	# a storm whose snapshots were nearly all torn checked nothing
	if [ $checks -lt 5 ] || [ $checks -le $torn ]; then
		echo "# $MODE: too few consistent snapshots to judge: $checks, $torn torn"
		return 1
	fi
	[ $broken = 0 ]
}

setup()
{
	local i

	echo +cpuset >"$CG/cgroup.subtree_control" &&
	mkdir -p "$BASE/other" &&
	echo +cpuset >"$BASE/cgroup.subtree_control" || return 1
	for ((i = 0; i < PODS; i++)); do
		mkdir -p "$BASE/storm$i/c" &&
		echo +cpuset >"$BASE/storm$i/cgroup.subtree_control" || return 1
	done
	sleep 1000 &
	OTHER_PID=$!
	echo $OTHER_PID >"$BASE/other/cgroup.procs" &&
	"$CTL" configure --policy static --cgroup-root "$BASE" >/dev/null
}

# The hole the storm found (release mode): a CPU that went offline from a
# container and comes back online joins the shared pool, but cgroup v2
# gives it back to the container's effective CPUs (its cpuset.cpus still
# names it); another pod may then be assigned it, and the two containers
# share it with no violation counted.
degraded_cpu_returns()
{
	local cg=$BASE/storm0/c cg2=$BASE/storm1/c s t ok=0 cpu=3 v

	"$CTL" configure --policy static --hotplug release >/dev/null &&
	"$CTL" assign storm0 c 2-$cpu >/dev/null &&
	"$CTL" bind storm0 c --cgroup "$cg" --pod-cgroup "$BASE/storm0" \
		>/dev/null &&
	echo 2-$cpu >"$cg/cpuset.cpus" || return 1
	sleep 1000 &
	s=$!
	echo $s >"$cg/cgroup.procs" || return 1
	echo 0 >"$CPUDIR/cpu$cpu/online" &&
	echo 1 >"$CPUDIR/cpu$cpu/online" || return 1
	echo "# storm0/c: table $(<"$SYSFS/pods/storm0/c/cpus"), effective $(<"$cg/cpuset.cpus.effective")"
	# its cgroup still names the CPU: it comes back to the container
	[ "$(<"$SYSFS/pods/storm0/c/cpus")" = "2-$cpu" ] || ok=1
	if "$CTL" assign storm1 c $cpu >/dev/null 2>&1 &&
	   "$CTL" bind storm1 c --cgroup "$cg2" --pod-cgroup "$BASE/storm1" \
		>/dev/null && echo $cpu 2>/dev/null >"$cg2/cpuset.cpus"; then
		sleep 1000 &
		t=$!
		echo $t >"$cg2/cgroup.procs"
		v=$(<"$cg/cpuset.cpus.effective")
		expand "$v"
		for c in "${LIST[@]}"; do
			[ "$c" = $cpu ] && ok=1
		done
		[ $ok = 1 ] && echo "# CPU $cpu assigned to storm1 and in storm0/c's effective CPUs ($v): $(grep Cpus_allowed_list /proc/$s/status)"
		kill $t
	fi
	kill $s
	wait $s $t 2>/dev/null
	"$CTL" reset >/dev/null
	[ $ok = 0 ]
}

# Protect mode: a CPU offline whose early check passed (the CPU free)
# waits for the hotplug lock while an ASSIGN of that CPU holds it; unless
# the ASSIGN refuses a CPU going down (and the offline one being
# assigned), the offline then takes the CPU out of the new assignment
# (degraded, empty).  CPU 5 offline and online in a loop for
# CPUMGR_STORM_RACE_SECONDS (default 30) while it is assigned and
# released: before the fix 4 of 81 and 1 of 47 assignments on 6.12 lost
# it in 30 s.  On a loaded host an assignment takes seconds: the race goes
# on until 3 assignments got through, for at most 3 times as long.
assign_offline_race()
{
	local f=$CPUDIR/cpu5/online h n=0 hits=0 refused=0 going=0 fl cp err
	local t=$((SECONDS + RACE_SECONDS)) tmax=$((SECONDS + 3 * RACE_SECONDS))

	"$CTL" configure --policy static --hotplug protect >/dev/null ||
		return 1
	(
		while [ ! -e "$WORK/race-done" ]; do
			echo 0 2>/dev/null >"$f"
			echo 1 2>/dev/null >"$f"
		done
	) &
	h=$!
	while [ $SECONDS -lt $t ] ||
	      { [ $n -lt 3 ] && [ $SECONDS -lt $tmax ]; }; do
		if ! err=$("$CTL" assign race c 5 2>&1 >/dev/null); then
			case $err in
			*"going offline"*) going=$((going + 1)) ;;
			*) refused=$((refused + 1)) ;;
			esac
			continue
		fi
		n=$((n + 1))
		read -r fl <"$SYSFS/pods/race/c/flags"
		read -r cp <"$SYSFS/pods/race/c/cpus"
		if [ "${fl#*degraded}" != "$fl" ]; then
			hits=$((hits + 1))
			echo "# assignment of CPU 5 now '$cp', flags '$fl'"
		fi
		"$CTL" release race >/dev/null 2>&1
	done
	touch "$WORK/race-done"
	wait $h
	echo 1 2>/dev/null >"$f"
	echo "# $n assignments of CPU 5, $hits lost it in protect mode; refused: $going going offline, $refused other (offline)"
	"$CTL" reset >/dev/null
	[ $n -gt 0 ] && [ $hits = 0 ]
}

every_cpu_online()
{
	[ "$(<"$CPUDIR/online")" = "0-$((NCPUS - 1))" ]
}

ktap_plan 6
echo "# seed $SEED (CPUMGR_STORM_SEED=$SEED), $NCPUS CPUs, $PODS containers, ${SECONDS_EACH}s per mode"
check "set-up" setup
check "storm, hotplug protect" storm protect
check "storm, hotplug release" storm release
check "release mode: a CPU back online returns to the container whose cgroup names it" degraded_cpu_returns
check "protect mode: no ASSIGN loses its CPU to an offline" assign_offline_race
check "every CPU online at the end" every_cpu_online
ktap_exit
