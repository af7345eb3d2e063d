#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Notifications built while the table lock is held must not take it
# again: every change, with a listener on the events group, completes and
# is announced.  (CONFIGURE once deadlocked here reading the cgroup root.)

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

ktap_plan 3
events=$(mktemp)

# A change with a listener: it must finish in time, and the event come.
change_with_listener()
{
	local what=$1 expect=$2 pid
	shift 2

	"$CTL" events --count 1 >"$events" 2>&1 &
	pid=$!
	sleep 1
	if ! timeout 20 "$CTL" "$@" >/dev/null; then
		ktap_result not-ok "$what completes with a listener"
		kill $pid 2>/dev/null
		return
	fi
	timeout 20 tail --pid=$pid -f /dev/null
	if grep -q "^$expect" "$events"; then
		ktap_result ok "$what completes with a listener"
	else
		diag <"$events"
		ktap_result not-ok "$what completes with a listener"
	fi
}

mkdir -p /sys/fs/cgroup/notify-root
change_with_listener configure configured \
	configure --policy static --reserved 0 --cgroup-root /sys/fs/cgroup/notify-root
change_with_listener assign assigned assign pod-a c1 1
change_with_listener reset reset reset
rmdir /sys/fs/cgroup/notify-root
rm -f "$events"
ktap_exit
