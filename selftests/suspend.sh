#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Suspend and hibernation take every CPU but the boot CPU down and up
# again with tasks frozen.  cpumgr must not refuse that (in protect mode
# an ordinary offline of an assigned CPU is refused) and must not release
# assigned CPUs either: the table comes back as it was, with no event.
# /sys/power/pm_test=processors ends both right after the CPUs went down,
# so the guest needs no firmware to wake it.
#
# The guest must run from RAM (scripts/guest-run.sh -r): the virtio 9p
# driver behind the host root has no resume, and every process with a
# file open there hangs once it closes it after a suspend.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

EVENTS=/run/cpumgr-suspend-events

# The table and the CPUs as one string.
snapshot()
{
	local f out= v

	for f in "$SYSFS"/{generation,exclusive_cpus,shared_cpus,offlines_refused} \
		 "$SYSFS"/pods/*/*/{cpus,flags} /sys/devices/system/cpu/online; do
		v=
		[ -e "$f" ] && read -r v <"$f"
		out+="${f#"$SYSFS"/}=$v "
	done
	echo "$out"
}

# STATE: suspend (mem) or hibernate (disk) up to the CPUs going down;
# true when the write succeeded and nothing changed.
sleep_and_compare()
{
	local state=$1 before after ev_before ev_after ok=0

	before=$(snapshot)
	ev_before=$(<"$EVENTS")
	if ! echo "$state" >/sys/power/state; then
		echo "echo $state >/sys/power/state failed" | diag
		ok=1
	fi
	after=$(snapshot)
	ev_after=$(<"$EVENTS")
	if [ "$before" != "$after" ]; then
		printf 'before: %s\nafter:  %s\n' "$before" "$after" | diag
		ok=1
	fi
	if [ "$ev_before" != "$ev_after" ]; then
		echo "events during $state:" "${ev_after#"$ev_before"}" | diag
		ok=1
	fi
	return $ok
}

if grep -q " 9p " /proc/mounts; then
	ktap_plan 1
	ktap_result not-ok "the guest runs from RAM # run it with guest-run.sh -r"
	ktap_exit
fi
if [ ! -w /sys/power/pm_test ] ||
   ! grep -qw mem /sys/power/state; then
	skip_all "no suspend to test (CONFIG_PM_DEBUG, /sys/power/state)"
fi

# Before the first suspend: a static table in protect mode with CPUs on
# both sockets, and an event listener that heard the set-up (so a deaf
# one would be noticed).
ktap_plan 3
"$CTL" events >"$EVENTS" 2>&1 &
listener=$!
ready=1
if ctl_static; then
	# Configure again until the listener has joined the group.
	for _ in $(seq 50); do
		"$CTL" configure --hotplug protect >/dev/null || break
		grep -q configured "$EVENTS" && ready=0 && break
		sleep 0.2
	done
fi
[ $ready = 0 ] && "$CTL" assign sp-pod app 2-3 >/dev/null &&
	"$CTL" assign sp-pod2 app "$(($(nproc) - 1))" >/dev/null &&
	echo processors >/sys/power/pm_test || ready=1
for _ in $(seq 50); do
	[ "$(grep -c assigned "$EVENTS")" = 2 ] && break
	sleep 0.1
done
[ "$(grep -c assigned "$EVENTS")" = 2 ] || ready=1
[ $ready = 0 ] || diag <"$EVENTS"
check "set-up: two pods, protect mode, a listener that hears them" \
	test $ready = 0

check "suspend: CPUs down and up, table and events unchanged" \
	sleep_and_compare mem
if grep -qw disk /sys/power/state; then
	check "hibernation: CPUs down and up, table and events unchanged" \
		sleep_and_compare disk
else
	ktap_result ok "hibernation # SKIP not offered by /sys/power/state"
fi
echo none >/sys/power/pm_test
kill "$listener"
wait "$listener"
ctl_reset
ktap_exit
