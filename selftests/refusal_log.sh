#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A refusal explains itself in the kernel log: a container runtime that
# gets EBUSY says nothing about CPUs, so the module logs one line per
# violation naming what was tried, the cgroup, the task, the CPUs and
# whose they are (warning level when refused, notice when audited), at
# most 10 lines every 5 s per user: a delegated tenant's flood does not
# hide root's refusals.  Leaves the module RESET.

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

refused_move()
{
	mkdir "$BASE/pb/new" || return 1
	mark
	(echo $BASHPID >"$OUT/pid"
	 echo $BASHPID >"$BASE/pb/new/cgroup.procs") 2>/dev/null && return 1
	logged "cpumgr: refused task move through cgroup.procs in cgroup /rlog/pb/new by pid $(<"$OUT/pid") (bash): CPUs 2-3 are pod pa container c1"
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

ktap_plan 7
check "set-up: two pods, one bound" setup
check "a refused write names the cgroup, the task, the CPUs and their owner" refused_write
check "a refused task move likewise" refused_move
check "control characters in a cgroup path are escaped" escaped_path
check "an audited write is logged at notice level" audited_write
check "at most 10 lines in 5 s, every violation counted" rate_limited
check "a tenant's flood does not hide root's refusals" tenant_cannot_hide_root
ktap_exit
