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
# In release mode a container whose last CPU went offline is exempt (its
# cgroup falls back to its parent's CPUs, which the README documents):
# those are counted.  The same checks run once more after the storm; every
# CPU is online at the end.  CPUMGR_STORM_SEED replays the random choices
# of the shell (not the timing).

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

SECONDS_EACH=${CPUMGR_STORM_SECONDS:-30}
PODS=${STORM_PODS:-3}
CG=/sys/fs/cgroup
BASE=$CG/storm
CPUDIR=/sys/devices/system/cpu
WORK=$(mktemp -d)
SEED=${CPUMGR_STORM_SEED:-$((RANDOM * 32768 + RANDOM))}
pids=()
OTHER_PID=

cleanup()
{
	touch "$WORK/stop"
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
		[ -f "$d/cpus" ] || continue
		read -r v <"$d/cpus"
		SNAP+="$d cpus=$v "
		read -r v <"$d/cgroup"
		SNAP+="cgroup=$v;"
	done
	read -r v <"$SYSFS/exclusive_cpus"
	SNAP+="exclusive=$v"
}

# One check.  0: consistent, 1: broken (WHY says how), 2: torn snapshot.
check_once()
{
	local d pod cpus cg v s1 c pid line excl key
	local -A owner=() eff=() inexcl=()

	WHY=""
	snap
	s1=$SNAP
	for d in "$SYSFS"/pods/*/*/; do
		[ -f "$d/cpus" ] || continue
		pod=${d%/*/}
		pod=${pod##*/}
		read -r cpus <"$d/cpus"
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
		[ -f "$d/cgroup" ] || continue
		read -r cg <"$d/cgroup"
		read -r cpus <"$d/cpus"
		[ -n "$cg" ] && [ -d "$cg" ] || continue
		pod=${d%/*/}
		pod=${pod##*/}
		# Tasks first: a task enters after its cpuset is written.
		pid=""
		read -r pid <"$cg/cgroup.procs" 2>/dev/null
		[ -n "$pid" ] || continue
		if [ -z "$cpus" ] && [ "$MODE" = release ]; then
			FALLBACK=1
			continue
		fi
		read -r v <"$cg/cpuset.cpus.effective"
		expand "$v"
		for c in "${LIST[@]}"; do
			if [ -n "${eff[$c]}" ] && [ "${eff[$c]}" != "$pod" ]; then
				WHY="CPU $c in the effective CPUs of ${eff[$c]} and $pod ($cg: $v)"
			fi
			eff[$c]=$pod
		done
		while read -r pid; do
			line=""
			while read -r key line; do
				[ "$key" = "Cpus_allowed_list:" ] && break
				line=""
			done <"/proc/$pid/status" 2>/dev/null
			expand "$line"
			for c in "${LIST[@]}"; do
				if [ -n "${owner[$c]}" ] && [ "${owner[$c]}" != "$pod" ]; then
					WHY="task $pid of $pod ($cg) allowed on CPU $c of ${owner[$c]} ($line)"
				fi
			done
		done <"$cg/cgroup.procs"
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
			sleep 0.$((RANDOM % 5))
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
		read -r v <"$SYSFS/pods/storm$k/c/cpus" 2>/dev/null
		if [ "$j" != "$k" ] && [ -n "$v" ] &&
		   [ -n "$(<"$BASE/storm$j/c/cgroup.procs")" ]; then
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
	done
	kill "$s"
	echo "$taken $refused $other $moved" >"$WORK/hostile"
}

storm()
{
	local t_end checks=0 torn=0 broken=0 first="" r i

	MODE=$1
	FALLBACK=0
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
		case $r in
		0) checks=$((checks + 1)) ;;
		1) checks=$((checks + 1))
		   broken=$((broken + 1))
		   [ -n "$first" ] || first=$WHY ;;
		*) torn=$((torn + 1)) ;;
		esac
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
	echo "# $MODE: $checks checks of consistent snapshots ($torn torn, retried), $broken broken, fallback containers seen: $FALLBACK"
	[ -n "$first" ] && echo "# $MODE: first broken: $first"
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

every_cpu_online()
{
	[ "$(<"$CPUDIR/online")" = "0-$((NCPUS - 1))" ]
}

ktap_plan 4
echo "# seed $SEED (CPUMGR_STORM_SEED=$SEED), $NCPUS CPUs, $PODS containers, ${SECONDS_EACH}s per mode"
check "set-up" setup
check "storm, hotplug protect" storm protect
check "storm, hotplug release" storm release
check "every CPU online at the end" every_cpu_online
ktap_exit
