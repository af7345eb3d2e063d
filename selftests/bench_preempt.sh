#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How long the hooks keep preemption off (issue 19), during a storm of
# cpuset writes: a pod's cgroup with CHILDREN child cpusets, tasks in
# TASKS of them, WRITES cpuset.cpus writes to the pod's cgroup (each
# checked against every child: the inherit walk), cgroup.procs moves
# (into c0, whose check goes through every container of its pod, and
# into two shared children), cpuset.cpus.partition writes, and a shared
# CPU taken offline and back every 30 writes.  The table is full:
# pod pa has CONTAINERS more containers on c0's CPU 3, the most the
# module keeps in one pod with c0 (CPUMGR_POD_CONTAINERS_MAX; containers
# of one pod may share CPUs, as an init container's and its app's do;
# pods may not, so a check meets one pod per CPU it holds at most, and
# every container of each).  The kernel's function_graph tracer
# times each hook function: the kprobe handlers run with preemption off
# for all of their time, and the cpuset write check with preemption off
# where it disables it.  Prints the longest and the median time per
# function, and the flags it was traced with, as KTAP comments
# (microseconds in the TCG guest, where everything is slower than on
# hardware); fails only when the storm or the tracer does not work.
# Then MOVES task moves into c0, one after another, are timed alone, and
# again while a cpuset.cpus write of the pod's cgroup is under way
# (parked with cpuset's locks held by the test module
# cpumgr_cpuset_park): each is then checked against that write too, the
# most a task move's check meets (writes on one branch go one at a
# time), and waits for the locks.  Written for the smt8 preset.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

ROOT=/sys/fs/cgroup/preemptpods
POD=$ROOT/poda
TR=/sys/kernel/tracing
CPU7=/sys/devices/system/cpu/cpu7
CHILDREN=${CPUMGR_PREEMPT_CHILDREN:-200}
TASKS=${CPUMGR_PREEMPT_TASKS:-20}
WRITES=${CPUMGR_PREEMPT_WRITES:-300}
CONTAINERS=${CPUMGR_PREEMPT_CONTAINERS:-63}
MOVES=${CPUMGR_PREEMPT_PARKED_MOVES:-20}
PARK=${CPUMGR_MODULE%/kmod/cpumgr.ko}/testmod/cpumgr_cpuset_park.ko
PARAMS=/sys/module/cpumgr_cpuset_park/parameters
# The hooks' functions that run with preemption off: the kprobe handlers
# (kmod/cpumgr_probes.c: the cgroup file writers' redirect, task moves,
# forks, kernel threads' affinity, offlines, rmdir, SMT off), and the
# inherit walk, which the cpuset.cpus write check runs (where it is
# inlined into, the write check is the whole write: not timed).
FUNCS="cpumgr_redirect_pre cpumgr_attach_pre cpumgr_fork_pre
cpumgr_fork_end_pre cpumgr_affinity_pre cpumgr_offline_pre
cpumgr_rmdir_pre cpumgr_smt_off_pre cpumgr_rules_check_inherit"
OUT=$(mktemp -d)
pids=()

cleanup()
{
	[ -d "$TR" ] && echo nop >"$TR/current_tracer" 2>/dev/null &&
		echo 1 >"$TR/tracing_on" && echo 0 >"$TR/options/latency-format" &&
		echo 0 >"$TR/options/funcgraph-tail"
	[ -d "$TR" ] && : >"$TR/set_graph_function" 2>/dev/null
	echo 1 >"$CPU7/online" 2>/dev/null
	[ -e "$PARAMS/release" ] && echo 1 >"$PARAMS/release"
	kill "${pids[@]}" 2>/dev/null
	wait 2>/dev/null
	"$CTL" reset >/dev/null 2>&1
	[ -d "$ROOT" ] && find "$ROOT" -depth -type d -exec rmdir {} + 2>/dev/null
	rm -rf "$OUT"
}
trap cleanup EXIT

setup()
{
	local i

	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control &&
	mkdir -p "$POD" && echo +cpuset >"$ROOT/cgroup.subtree_control" &&
	echo +cpuset >"$POD/cgroup.subtree_control" || return 1
	for ((i = 0; i < CHILDREN; i++)); do
		mkdir "$POD/c$i" || return 1
		[ $i = 0 ] || echo 4-7 >"$POD/c$i/cpuset.cpus" || return 1
	done
	for ((i = 1; i <= TASKS; i++)); do
		sleep 1000 &
		pids+=($!)
		echo $! >"$POD/c$i/cgroup.procs" || return 1
	done
	"$CTL" configure --policy static --enforce enforce \
		--cgroup-root "$ROOT" >/dev/null &&
	"$CTL" assign pa c0 2-3 >/dev/null &&
	"$CTL" bind pa c0 --cgroup "$POD/c0" --pod-cgroup "$POD" >/dev/null &&
	echo 2-3 >"$POD/c0/cpuset.cpus" || return 1
	for ((i = 1; i <= CONTAINERS; i++)); do
		"$CTL" assign pa "x$i" 3 >/dev/null || return 1
	done
}

tracer()
{
	local f n=0

	[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" || return 1
	echo nop >"$TR/current_tracer" && echo 1 >"$TR/tracing_on" &&
	: >"$TR/trace" &&
	echo 1 >"$TR/max_graph_depth" || return 1
	for f in $FUNCS; do
		echo "$f" >>"$TR/set_graph_function" 2>/dev/null && n=$((n + 1))
	done
	echo "# $n hook functions traced: $(tr '\n' ' ' <"$TR/set_graph_function")"
	# the flags of each line: interrupts off (d), preemption depth; and
	# the function's name where its return is not next to its call
	echo 1 >"$TR/options/latency-format" &&
	echo 1 >"$TR/options/funcgraph-tail" || return 1
	[ $n -gt 0 ] && echo 16384 >"$TR/buffer_size_kb" &&
	echo function_graph >"$TR/current_tracer"
}

storm()
{
	local i bad=0

	for ((i = 0; i < WRITES; i++)); do
		if [ $((i % 2)) = 0 ]; then
			(echo 2-7 >"$POD/cpuset.cpus") 2>>"$OUT/err" || bad=1
		else
			(echo 2-6 >"$POD/cpuset.cpus") 2>>"$OUT/err" || bad=1
		fi
		echo "${pids[0]}" >"$POD/c$((i % 3))/cgroup.procs" || bad=1
		[ $((i % 10)) = 0 ] &&
			(echo member >"$POD/c5/cpuset.cpus.partition") 2>>"$OUT/err"
		# the offline check walks every cpuset with tasks
		if [ $((i % 30)) = 15 ]; then
			echo 0 >"$CPU7/online" && echo 1 >"$CPU7/online" ||
				bad=1
		fi
	done
	# stopped, not switched to nop: that would empty the buffer
	echo 0 >"$TR/tracing_on"
	[ -s "$OUT/err" ] && diag <"$OUT/err"
	return $bad
}

# The function_graph lines (latency format: "  1)  bash-42  |  d..1. |
# 12.345 us  |  cpumgr_x();") per function: calls, median, the three
# longest (each phase has had one outlier of milliseconds, the others
# near the median: under TCG most likely a path's first run, its code
# not yet translated), and the flags its calls were traced with
# (interrupts off, need-resched, hard/soft interrupt, preemption depth,
# migrate-disable depth; the tracer's own part included).
report()
{
	awk 'match($0, /[0-9]+\.[0-9]+ us/) {
		d = substr($0, RSTART, RLENGTH - 3)
		fl = "?"
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[.dXb][.nNpPlL][.hHsSzZ][.0-9][.0-9]?$/)
				fl = $i
		if (match($0, /cpumgr_[a-z_]+/))
			print substr($0, RSTART, RLENGTH), d, fl
	}' "$TR/trace" | sort -k1,1 -k2,2n >"$OUT/times"
	if [ ! -s "$OUT/times" ]; then
		head -n 20 "$TR/trace" | diag
		return 1
	fi
	awk '{ n[$1]++; t[$1, n[$1]] = $2; fl[$1, $3]++; fls[$1] = fls[$1] " " $3 }
	END {
		for (f in n) {
			split(fls[f], a, " "); seen = ""
			for (i in a)
				if (index(seen, a[i]) == 0)
					seen = seen sprintf(" %s x%d", a[i], fl[f, a[i]])
			printf "# %-26s calls %5d  median %8.1f us  longest %8.1f us (then %.1f, %.1f)  flags%s\n",
				f, n[f], t[f, int((n[f] + 1) / 2)], t[f, n[f]],
				t[f, n[f] - 1], t[f, n[f] - 2], seen
		}
	}' "$OUT/times" | sort
}

# Until $1 holds a line matching $2 $3 times or more; 1 after 60 s.
until_count()
{
	local i

	for ((i = 0; i < 600; i++)); do
		[ "$(grep -c -- "$2" "$1")" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}

# MOVES tasks moved into c0 ($1: parked, while the pod's cgroup is
# written and parked where the kernel applies the write: each move then
# waits for cpuset's locks once checked, until the write is let go).
# The trace holds only these.
moves_into_c0()
{
	local i w ret=0 movers=()

	: >"$TR/trace"
	if [ "$1" = parked ]; then
		insmod "$PARK" cgroup="${POD##*/}" || return 1
		(echo 2-7 >"$POD/cpuset.cpus") 2>>"$OUT/err" &
		w=$!
		until_count "$PARAMS/waiting" 1 1 ||
			{ echo "# the write of ${POD##*/} was not parked"; ret=1; }
	fi
	echo 1 >"$TR/tracing_on"
	for ((i = 0; ret == 0 && i < MOVES; i++)); do
		sleep 1000 &
		pids+=($!)
		if [ "$1" = parked ]; then
			echo "$!" >"$POD/c0/cgroup.procs" &
			movers+=($!)
		else
			echo "$!" >"$POD/c0/cgroup.procs" || ret=1
		fi
	done
	# a line per check, written when the handler returns
	[ $ret = 0 ] && ! until_count "$TR/trace" cpumgr_attach_pre "$MOVES" &&
		{ echo "# $(grep -c cpumgr_attach_pre "$TR/trace") of $MOVES task moves checked"; ret=1; }
	echo 0 >"$TR/tracing_on"
	if [ "$1" = parked ]; then
		echo 1 >"$PARAMS/release"
		wait "$w" "${movers[@]}" || ret=1
		rmmod cpumgr_cpuset_park || ret=1
	fi
	[ -s "$OUT/err" ] && diag <"$OUT/err"
	return $ret
}

ktap_plan 8
echo "# kernel $(uname -r), $CHILDREN child cpusets, tasks in $TASKS, $WRITES writes, $CONTAINERS containers more in the table"
check "set-up: $CHILDREN cpusets below a pod's cgroup, tasks in $TASKS, $CONTAINERS containers more" setup
check "the function_graph tracer times the hooks" tracer
check "a storm of $WRITES cpuset.cpus writes and task moves, timed" storm
check "the hooks' times, from the trace" report
check "$MOVES task moves into c0, no write under way" moves_into_c0
check "their checks' times, from the trace" report
check "$MOVES task moves into c0 while a write of its pod's cgroup is under way" moves_into_c0 parked
check "their checks' times, from the trace" report
ktap_exit
