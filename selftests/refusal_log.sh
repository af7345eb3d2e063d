#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A refusal explains itself in the kernel log: a container runtime that
# gets EBUSY says nothing about CPUs, so the module logs one line per
# violation naming what was tried, the cgroup, the task, the CPUs and
# whose they are (warning level when refused, notice when audited), at
# most 10 lines every 5 s per user: a delegated tenant's flood does not
# hide root's refusals.  On PREEMPT_RT before 7.x a probe handler, which
# runs with preemption off, may not take a cgroup's path (kernfs' rename
# lock sleeps there): its line names the cgroup by id, its event by path
# (enforce_matrix checks the events).  Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

CG=/sys/fs/cgroup
BASE=$CG/rlog
OUT=$(mktemp -d)
trap 'cleanup' EXIT

cleanup()
{
	"$CTL" reset >/dev/null 2>&1
	find "$BASE" -depth -type d -exec rmdir {} + 2>/dev/null
	rm -rf "$OUT"
}

setup()
{
	echo +cpuset >"$CG/cgroup.subtree_control" &&
	mkdir -p "$BASE/pa/c1" "$BASE/pb/c1" &&
	echo +cpuset >"$BASE/cgroup.subtree_control" &&
	echo +cpuset >"$BASE/pa/cgroup.subtree_control" &&
	echo +cpuset >"$BASE/pb/cgroup.subtree_control" &&
	"$CTL" configure --policy static --cgroup-root "$BASE" >/dev/null &&
	"$CTL" assign pa c1 2-3 >/dev/null &&
	"$CTL" bind pa c1 --cgroup "$BASE/pa/c1" --pod-cgroup "$BASE/pa" \
		>/dev/null
}

# The kernel log from line $1 on, raw (with the <level> prefix), the
# bytes as the module logged them: dmesg decodes /dev/kmsg's \xNN and,
# unless told not to, escapes what does not print again, which would
# hide a raw terminal escape.
log_since()
{
	dmesg -r --noescape | tail -n +"$1"
}

mark()
{
	MARK=$(($(dmesg -r --noescape | wc -l) + 1))
}

# WANT: the new log lines hold exactly this line (after the timestamp).
logged()
{
	log_since "$MARK" >"$OUT/log"
	grep -Fq -- "$1" "$OUT/log" && return 0
	echo "# want: $1"
	diag <"$OUT/log"
	return 1
}

# The new log lines hold this line at this level (<4> a warning).
logged_at()
{
	log_since "$MARK" >"$OUT/log"
	grep -F -- "$2" "$OUT/log" | grep -q "^<$1>\[" && return 0
	echo "# want at <$1>: $2"
	diag <"$OUT/log"
	return 1
}

refused_write()
{
	mark
	(echo $BASHPID >"$OUT/pid"; echo 2-3 >"$BASE/pb/cpuset.cpus") \
		2>/dev/null && return 1
	logged_at 4 "cpumgr: refused write of cpuset.cpus in cgroup /rlog/pb by pid $(<"$OUT/pid") (bash): CPUs 2-3 are pod pa container c1"
}

# Whether a probe handler here names a cgroup by id: PREEMPT_RT on a
# series whose kernfs takes a lock for a path (6.1, 6.12).
by_id()
{
	case $(uname -r) in
	6.*) uname -v | grep -q PREEMPT_RT ;;
	*) return 1 ;;
	esac
}

# How a probe handler's log line names cgroup directory $1 (path $2).
probe_names()
{
	if by_id; then
		echo "id $(stat -c %i "$1")"
	else
		echo "$2"
	fi
}

refused_move()
{
	mkdir "$BASE/pb/new" || return 1
	mark
	(echo $BASHPID >"$OUT/pid"
	 echo $BASHPID >"$BASE/pb/new/cgroup.procs") 2>/dev/null && return 1
	logged "cpumgr: refused task move through cgroup.procs in cgroup $(probe_names "$BASE/pb/new" /rlog/pb/new) by pid $(<"$OUT/pid") (bash): CPUs 2-3 are pod pa container c1"
}

# The same move traced (function_graph below the task move's handler):
# where the line names the cgroup by id, the handler calls no
# kernfs_path_from_node(), which would take a sleeping lock with
# preemption off.  Elsewhere the path is taken there: a skip.
TR=/sys/kernel/tracing
no_path_in_probe()
{
	local calls all ret=0

	if ! by_id; then
		skip_case "the probe takes the path here ($(uname -r): not PREEMPT_RT, or 7.x, whose kernfs reads it under RCU)"
		return
	fi
	[ -e "$TR/trace" ] || mount -t tracefs nodev "$TR" || return 1
	echo 0 >"$TR/tracing_on" &&
	echo cpumgr_attach_pre >"$TR/set_graph_function" &&
	echo function_graph >"$TR/current_tracer" && : >"$TR/trace" &&
	echo 1 >"$TR/tracing_on" || ret=1
	[ $ret = 0 ] && (echo $BASHPID >"$BASE/pb/new/cgroup.procs") 2>/dev/null &&
		ret=1
	echo 0 >"$TR/tracing_on"
	calls=$(grep -c 'cpumgr_attach_pre' "$TR/trace")
	all=$(grep -c '()' "$TR/trace")
	echo "# function_graph below cpumgr_attach_pre: $calls lines naming it, $all calls in all, $(grep -c kernfs_path_from_node "$TR/trace") kernfs_path_from_node()"
	grep -q 'kernfs_path_from_node' "$TR/trace" && ret=1
	# the handler and what it calls were traced
	[ "$calls" -gt 0 ] && [ "$all" -gt 1 ] || ret=1
	echo nop >"$TR/current_tracer"
	: >"$TR/set_graph_function"
	echo 1 >"$TR/tracing_on"
	return $ret
}

# cgroup names may hold any byte but '/' and newline: a terminal escape
# must not reach the log as it is.
escaped_path()
{
	local esc=$'a\e[2Jb'

	mkdir "$BASE/pb/$esc" || return 1
	mark
	echo 2 >"$BASE/pb/$esc/cpuset.cpus" 2>/dev/null && return 1
	logged 'in cgroup /rlog/pb/a\x1b[2Jb by pid' &&
	! grep -q $'\e' "$OUT/log"
}

audited_write()
{
	"$CTL" configure --enforce audit >/dev/null || return 1
	mark
	echo 3 >"$BASE/pb/cpuset.cpus" || return 1
	echo >"$BASE/pb/cpuset.cpus"
	"$CTL" configure --enforce enforce >/dev/null || return 1
	logged_at 5 "cpumgr: audited write of cpuset.cpus in cgroup /rlog/pb by pid"
}

rate_limited()
{
	local v0 v1 i n

	sleep 5.5
	read -r v0 <"$SYSFS/violations"
	mark
	for ((i = 0; i < 15; i++)); do
		echo 2 >"$BASE/pb/cpuset.cpus" 2>/dev/null
	done
	read -r v1 <"$SYSFS/violations"
	n=$(log_since "$MARK" | grep -c 'cpumgr: refused write')
	echo "# $((v1 - v0)) violations, $n logged"
	[ $((v1 - v0)) = 15 ] && [ "$n" -ge 1 ] && [ "$n" -le 10 ]
}

# A tenant (uid 65534, owning a delegated cgroup) writing another pod's
# CPUs in a loop uses up its own lines; root's refusal is still logged.
tenant_cannot_hide_root()
{
	local tenant=$BASE/pb/tenant i n

	mkdir "$tenant" &&
	chown 65534:65534 "$tenant" "$tenant/cpuset.cpus" || return 1
	sleep 5.5
	mark
	setpriv --reuid=65534 --regid=65534 --clear-groups bash -c '
		for ((i = 0; i < 15; i++)); do
			echo 2 >"$1/cpuset.cpus" 2>/dev/null && exit 1
		done
		exit 0' tenant "$tenant" || return 1
	n=$(log_since "$MARK" | grep -c 'cpumgr: refused write of cpuset.cpus in cgroup /rlog/pb/tenant ')
	echo "# the tenant's 15 refusals: $n logged"
	[ "$n" -ge 1 ] && [ "$n" -le 10 ] || return 1
	refused_write
}

ktap_plan 8
check "set-up: two pods, one bound" setup
check "a refused write names the cgroup, the task, the CPUs and their owner" refused_write
check "a refused task move likewise" refused_move
check "its handler takes no path with preemption off where that would sleep" no_path_in_probe
check "control characters in a cgroup path are escaped" escaped_path
check "an audited write is logged at notice level" audited_write
check "at most 10 lines in 5 s, every violation counted" rate_limited
check "a tenant's flood does not hide root's refusals" tenant_cannot_hide_root
ktap_exit
