#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test guest (see scripts/guest-run.sh): loads cpumgr.ko
# before each selftest and unloads it after, runs the selftest and prints
# its KTAP indented as a subtest, then one result line for the selftest,
# which fails when its results fall short of its plan (verdict()).
# On a kernel with kmemleak it ends with a leak check of the whole run.
#
# A selftest NAME is $CPUMGR_OUT/selftests/NAME (built from
# selftests/NAME.c) or selftests/NAME.sh.  Selftests find the module in
# $CPUMGR_MODULE and may unload and reload it; they must leave it loaded.
#
# A VAR=VALUE argument is exported to the selftests after it (a plan line
# can scale a selftest down on a slow kernel, see selftests/plan).
# CPUMGR_KMEMLEAK: the kmemleak file (scripts/tests/ktap-summary.sh runs
# this script on the host, with stand-ins, and names none).
#
# CPUMGR_MODULE_BOOTED=1 (a node that systemd booted, guest/node.sh): the
# module loaded at boot stays; the runner neither loads nor unloads it.
# CPUMGR_KTAP_START=N: results are numbered from N + 1.
#
# Usage: run-tests.sh [VAR=VALUE | NAME]...

n=${CPUMGR_KTAP_START:-0}
failed=0
kmemleak=${CPUMGR_KMEMLEAK:-/sys/kernel/debug/kmemleak}
# each selftest's KTAP, for its verdict
log=$(mktemp /tmp/selftest-ktap.XXXXXX) || exit 1

result()
{
	local ok=$1
	shift
	n=$((n + 1))
	if [ "$ok" = ok ]; then
		echo "ok $n $*"
	else
		echo "not ok $n $*"
		failed=1
	fi
}

# The pid most recently handed out, from /proc/loadavg.
last_pid()
{
	local _ last

	read -r _ _ _ _ last </proc/loadavg
	echo "$last"
}

test_path()
{
	if [ -x "$CPUMGR_OUT/selftests/$1" ]; then
		echo "$CPUMGR_OUT/selftests/$1"
	elif [ -e "$CPUMGR_TOP/selftests/$1.sh" ]; then
		echo "$CPUMGR_TOP/selftests/$1.sh"
	else
		return 1
	fi
}

# NAME STATUS: the selftest's result, from its exit status (kselftest's:
# 0 pass, 4 skip, anything else a failure) and its KTAP in $log, held
# to its plan by ktap-summary.awk: a result missing is a failure, even
# after a skip's exit status, and so is a selftest with no result at
# all.  A selftest skipped as a whole says why in its plan, "1..0 #
# SKIP reason", as kselftest's ksft_exit_skip() does.
verdict()
{
	local name=$1 status=$2 summary counted findings first reason

	summary=$(awk -v doc="$name" -f "$CPUMGR_TOP/scripts/ktap-summary.awk" "$log")
	counted=$?
	findings=$(grep '^# ' <<<"$summary")
	[ -z "$findings" ] || printf '%s\n' "$findings"
	if [ $counted -gt 1 ] || [ -z "$summary" ]; then
		result "not ok" "$name # ktap-summary.awk could not count its results"
	elif [ "$status" != 0 ] && [ "$status" != 4 ]; then
		result "not ok" "$name # exit status $status"
	elif [ -n "$findings" ]; then
		first=${findings%%$'\n'*}
		first=${first#"# "}
		result "not ok" "$name # ${first#"$name: "}"
	elif [ "$status" = 4 ]; then
		reason=$(sed -n 's/^1\.\.0[[:space:]]*#[[:space:]]*SKIP[[:space:]]*//p' "$log")
		result ok "$name # SKIP${reason:+ $reason}"
	elif [ "${summary##*$'\n'}" = "0 passed, 0 failed, 0 skipped" ]; then
		result "not ok" "$name # no result"
	else
		result ok "$name"
	fi
}

# rmmod cpumgr after selftest $1.  An unload still under way after 10 s
# says where it waits (make check's logs): under TCG it takes a second.
unload()
{
	local pid i t0=$SECONDS

	rmmod cpumgr &
	pid=$!
	for ((i = 0; i < 50; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "# slow: the unload after $1 still waits after 10 s, in:"
		sed 's/^/#   /' "/proc/$pid/stack" 2>/dev/null
	fi
	wait "$pid" || return
	[ $((SECONDS - t0)) -lt 10 ] || echo "# slow: the unload after $1 took $((SECONDS - t0)) s"
}

run_one()
{
	local name=$1 path status t0=$SECONDS pid0 pid_max

	echo "# selftest: $name"
	if ! path=$(test_path "$name"); then
		result "not ok" "$name # no such selftest"
		return
	fi
	if [ "${CPUMGR_MODULE_BOOTED:-0}" = 1 ]; then
		if ! grep -q '^cpumgr ' /proc/modules; then
			result "not ok" "$name # the module loaded at boot is gone"
			return
		fi
	elif ! insmod "$CPUMGR_MODULE"; then
		result "not ok" "$name # insmod $CPUMGR_MODULE failed"
		return
	fi
	cd "$CPUMGR_TOP" || exit 1
	pid0=$(last_pid)
	if [ "${path%.sh}" != "$path" ]; then
		bash "$path" 2>&1 | tee "$log" | sed 's/^/    /'
	else
		"$path" 2>&1 | tee "$log" | sed 's/^/    /'
	fi
	status=${PIPESTATUS[0]}
	# Where the time goes: under TCG every process started costs tens
	# of milliseconds or more.
	read -r pid_max </proc/sys/kernel/pid_max
	echo "# time: $name $((SECONDS - t0))s, $((($(last_pid) - pid0 + pid_max) % pid_max)) processes started"
	verdict "$name" "$status"
	[ "${CPUMGR_MODULE_BOOTED:-0}" = 1 ] && return
	if ! unload "$name"; then
		result "not ok" "$name: module unloads afterwards"
		# Later selftests need a fresh module: drop it by force.
		rmmod -f cpumgr 2>/dev/null
	fi
}

# Leaks of this run only: forget what boot left behind first.
[ -w $kmemleak ] && echo clear >$kmemleak

for name in "$@"; do
	case $name in
	*=*)	export "${name?}"; echo "# $name" ;;
	*)	run_one "$name" ;;
	esac
done

if [ -w $kmemleak ]; then
	# An object is reported once it is older than 5 s and unreferenced
	# in two scans.
	sleep 6
	echo scan >$kmemleak
	echo scan >$kmemleak
	leaks=$(cat $kmemleak)
	if [ -z "$leaks" ]; then
		result ok "kmemleak reports nothing"
	else
		printf '%s\n' "$leaks" | head -n 60 | sed 's/^/# /'
		result "not ok" "kmemleak reports nothing"
	fi
fi
rm -f "$log"
exit $failed
