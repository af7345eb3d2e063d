# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by enforce_matrix.sh: cpulist arithmetic, the events listener,
# the table through cpumgrctl, and the steps rows are made of.  Not a
# selftest itself.

CTL=$CPUMGR_OUT/user/cpumgrctl
CLONE=$CPUMGR_OUT/selftests/clone_into_cgroup
SYSFS=/sys/kernel/cpumgr
CPUDIR=/sys/devices/system/cpu
CG2=/sys/fs/cgroup
WORK=$(mktemp -d /tmp/cpumgr-matrix.XXXXXX)
EVF=$WORK/events

# --- cpulists ---------------------------------------------------------
#
# In bash alone: under TCG, with the host's root over 9p, every program
# run costs a good part of a second.

# Adds to (op +) or removes from (op ~) the array _cl the CPUs of a list.
cl_apply()
{
	local part a b IFS=,

	for part in $1; do
		[ -n "$part" ] || continue
		a=${part%-*}
		b=${part#*-}
		for ((; a <= b; a++)); do
			if [ "$2" = + ]; then _cl[a]=1; else unset "_cl[a]"; fi
		done
	done
}

# CL= the normalised cpulist of an expression: lists and ALL (the CPUs
# online when the test began) joined by "+" (union) and "~" (minus), left
# to right ("ALL~2-5+3").
cl_set()
{
	local expr=${1//ALL/$ALL} op=+ tok n start=-1 prev=-2 out=

	_cl=()
	while [ -n "$expr" ]; do
		tok=${expr%%[+~]*}
		expr=${expr:${#tok}}
		cl_apply "$tok" "$op"
		op=${expr:0:1}
		expr=${expr:1}
	done
	for n in "${!_cl[@]}" -1; do
		if ((n == prev + 1)); then
			prev=$n
			continue
		fi
		if ((start >= 0)); then
			out+=$start
			((prev > start)) && out+=-$prev
			out+=,
		fi
		start=$n
		prev=$n
	done
	CL=${out%,}
}

# The CPUs of a cpulist, as words.
cl_words()
{
	cl_set "$1"
	CL="${!_cl[*]}"
}

# A sleep without a program: a read that times out on a FIFO nobody
# writes to.
mkfifo "$WORK/nap"
exec {NAP_FD}<>"$WORK/nap"
nap()
{
	read -r -t "$1" -u "$NAP_FD" _
}

# VAR=first line of a file, without a program.
rd()
{
	IFS= read -r "$1" <"$2" || [ -n "${!1}" ]
}

# --- the table ----------------------------------------------------------

ctl()
{
	"$CTL" "$@" >"$WORK/ctl.out" 2>&1 || {
		echo "# cpumgrctl $*: $(<"$WORK/ctl.out")"
		return 1
	}
}

# The generation a cpumgrctl command printed ("... generation N").
ctl_generation()
{
	local line

	rd line "$WORK/ctl.out"
	echo "${line##* }"
}

# --- events ---------------------------------------------------------------
#
# `cpumgrctl events` runs in the background, appending to $EVF.  Rows see
# the lines between two markers: a BIND of the marker pod to the cgroup
# it already has, whose BOUND event follows every event of what came
# before it (violations and refused offlines are queued, and the kernel
# sends what is queued before any later notification: netlink_contract
# tests that on its own).
#
# The listener is stopped around every CONFIGURE: before e32ac0a a
# CONFIGURE with a listener deadlocked in the kernel (netlink_configured
# tests that on its own), and the modes are not what this test is about.

EV_PID=
MARK_POD=
MARK_CG=

# Bind the marker pod again (through bind_marker, started once as a
# coprocess: a program run costs a good part of a second) and wait up to
# $1 s (default 3) for its event; MARK= the line number of the marker in
# $EVF.
binder_start()
{
	coproc BINDER { "$CPUMGR_OUT/selftests/bind_marker"; }
}

ev_mark()
{
	local gen n i tries=$((${1:-3} * 20)) from=${MARK:-0} lines

	echo "$MARK_POD $MARK_CG" >&"${BINDER[1]}"
	read -r -t 10 gen <&"${BINDER[0]}" || { echo "# no reply to the marker"; return 1; }
	[[ $gen != error* ]] || { echo "# marker: $gen"; return 1; }
	for ((i = 0; i < tries; i++)); do
		mapfile -t -s "$from" lines <"$EVF"
		for n in "${!lines[@]}"; do
			if [[ ${lines[n]} == "bound generation $gen "* ]]; then
				MARK=$((from + n + 1))
				return 0
			fi
		done
		nap 0.05
	done
	return 1
}

# Wait up to 30 s for the listener to join a multicast group: a generic
# netlink socket (protocol 16) of its process (the port id's low 22 bits,
# as libnl makes them) with group bits in /proc/net/netlink.
ev_subscribed()
{
	local i eth port groups rest

	for ((i = 0; i < 600; i++)); do
		while read -r _ eth port groups rest; do
			[ "$eth" = 16 ] && [ "$groups" != 00000000 ] &&
			   (((port & 0x3fffff) == EV_PID)) && return 0
		done </proc/net/netlink
		nap 0.05
	done
	return 1
}

ev_start()
{
	local i

	: >>"$EVF"
	"$CTL" events >>"$EVF" 2>>"$WORK/events.err" &
	EV_PID=$!
	ev_subscribed || echo "# events listener: no group in /proc/net/netlink"
	# Sure once a marker comes through.
	for ((i = 0; i < 20; i++)); do
		ev_mark 1 && return 0
	done
	echo "# the events listener does not see the marker"
	return 1
}

# Stop the background process whose pid the variable named $1 holds.
stop_bg()
{
	[ -n "${!1}" ] || return 0
	kill "${!1}" 2>/dev/null
	wait "${!1}" 2>/dev/null
	printf -v "$1" '%s' ''
}

ev_stop()
{
	stop_bg EV_PID
}

# CONFIGURE, with the listener paused.
configure()
{
	local was=$EV_PID ret=0

	ev_stop
	ctl configure "$@" || ret=1
	[ -z "$was" ] || ev_start || ret=1
	return $ret
}

# --- steps of rows (set-up, clean-up) ---------------------------------------
#
# Paths are relative to $BASE, the hierarchy's test directory; $PROCS is
# where tasks are moved (cgroup.procs, v1 tasks).

SLEEPER=
BUSY=

# mkdir, parents first; on cgroup2 each parent gets the cpuset
# controller, on v1 each child its parent's memory nodes.
mk()
{
	local d parent

	mkdir "${@/#/$BASE/}" || return 1
	for d in "$@"; do
		parent=$BASE/$d
		parent=${parent%/*}
		if [ "$V1" = 0 ]; then
			echo +cpuset >"$parent/cgroup.subtree_control" || return 1
		else
			echo "$(<"$parent/cpuset.mems")" >"$BASE/$d/cpuset.mems" || return 1
		fi
	done
}

cw()
{
	cl_set "$2"
	echo "$CL" >"$BASE/$1/cpuset.cpus"
}

xw()
{
	cl_set "$2"
	echo "$CL" >"$BASE/$1/cpuset.cpus.exclusive"
}

task()
{
	echo "$SLEEPER" >"$BASE/$1/$PROCS"
}

untask()
{
	echo "$SLEEPER" >"$HROOT/$PROCS"
}

# The CPU a task last ran on (field 39 of /proc/PID/stat; its comm has
# no spaces here).
last_cpu()
{
	local f

	read -r -a f <"/proc/$1/stat" 2>/dev/null && echo "${f[38]}"
}

# PID: its Cpus_allowed_list.  The file is read in one go: read(1)
# seeks back after each line, and every seek makes /proc generate the
# file again, so a field above that changed length (a busy task's State)
# shifts the lines and the one sought can be missed.
allowed()
{
	local lines l

	mapfile -t lines 2>/dev/null <"/proc/$1/status"
	for l in "${lines[@]}"; do
		[[ $l == Cpus_allowed_list:* ]] && { echo "${l#*:$'\t'}"; return 0; }
	done
}

# A busy task in a cgroup, optionally pinned to one CPU it then runs on.
busy()
{
	local i

	sh -c 'while :; do :; done' &
	BUSY=$!
	echo "$BUSY" >"$BASE/$1/$PROCS" || return 1
	[ -n "$2" ] || return 0
	taskset -pc "$2" "$BUSY" >/dev/null || return 1
	for ((i = 0; i < 100; i++)); do
		[ "$(last_cpu "$BUSY")" = "$2" ] && return 0
		nap 0.02
	done
	echo "# the busy task does not run on CPU $2"
	return 1
}

unbusy()
{
	stop_bg BUSY
}

online()
{
	echo "$2" >"$CPUDIR/cpu$1/online"
}

# hotplug/target of a CPU: on (the online state) or off.
target()
{
	local v=0

	[ "$2" = on ] && v=$ONLINE_STATE
	echo "$v" >"$CPUDIR/cpu$1/hotplug/target"
}

smt()
{
	echo "$1" >"$CPUDIR/smt/control"
}

# Every present CPU online again, SMT control "on".
allon()
{
	local c v

	[ -w "$CPUDIR/smt/control" ] && echo on >"$CPUDIR/smt/control" 2>/dev/null
	rd v "$CPUDIR/present"
	cl_words "$v"
	for c in $CL; do
		[ -e "$CPUDIR/cpu$c/online" ] || continue
		rd v "$CPUDIR/cpu$c/online"
		[ "$v" = 1 ] || online "$c" 1 || return 1
	done
}

# rmtree DIR ROOT PROCS: every task of a tree back to the hierarchy's
# root, then the tree removed, deepest first.
rmtree()
{
	local d p dirs

	[ -d "$1" ] || return 0
	find "$1" -depth -type d >"$WORK/dirs"
	mapfile -t dirs <"$WORK/dirs"
	for d in "${dirs[@]}"; do
		while read -r p; do
			echo "$p" >"$2/$3" 2>/dev/null
		done <"$d/$3"
	done
	rmdir "${dirs[@]}"
}
