#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own YNL CLI (tools/net/ynl/cli.py of linux-source-6.12) as
# an independent client, driven only by include/uapi/linux/cpumgr.yaml and
# the genetlink-c schema: get-state, configure, assign, the assignment and
# topology dumps, a refusal with its extack, and the events group while
# another process (cpumgrctl) assigns.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

get_state()
{
	ynl_schema --do get-state >"$OUT/state" &&
	json_true "j['policy'] == open('$SYSFS/policy').read().strip() and
		   j['generation'] == int(open('$SYSFS/generation').read()) and
		   j['version'] == open('$SYSFS/version').read().strip() and
		   j['shared-cpus'] == open('$SYSFS/shared_cpus').read().strip() and
		   j['nr-pods'] == 0" "$OUT/state"
}

configure()
{
	ynl --do configure \
		--json '{"policy": "static", "options": ["align-by-socket"]}' \
		>"$OUT/cfg" &&
	json_true "j['generation'] == int(open('$SYSFS/generation').read())" \
		"$OUT/cfg" &&
	[ "$(cat $SYSFS/policy)" = static ] &&
	[ "$(cat $SYSFS/options)" = align-by-socket ]
}

assign()
{
	ynl --do assign --json \
		'{"pod-uid": "ynl-pod", "container": "app", "cpus": "1", "flags": ["init"]}' \
		>"$OUT/assign" &&
	json_true "j['pod-uid'] == 'ynl-pod' and j['container'] == 'app' and
		   j['cpus'] == '1' and j['flags'] == ['init'] and
		   j['generation'] == int(open('$SYSFS/generation').read())" \
		"$OUT/assign" &&
	[ "$(cat $SYSFS/pods/ynl-pod/app/cpus)" = 1 ] &&
	[ "$(cat $SYSFS/pods/ynl-pod/app/flags)" = init ]
}

dump()
{
	"$CTL" assign ynl-pod side 1 >/dev/null &&
	ynl --dump get-assignment >"$OUT/dump" &&
	json_true "sorted((a['pod-uid'], a['container'], a['cpus']) for a in j) ==
		   [('ynl-pod', 'app', '1'), ('ynl-pod', 'side', '1')] and
		   len(set(a['generation'] for a in j)) == 1" "$OUT/dump"
}

topology()
{
	ynl --dump get-topology >"$OUT/topo" &&
	json_true "len(j) == len(open('$SYSFS/topology').readlines()) - 1 and
		   all(c['siblings'] for c in j)" "$OUT/topo"
}

refusal()
{
	local gen

	gen=$(cat $SYSFS/generation)
	if ynl --do assign --json \
		'{"pod-uid": "x", "container": "c", "cpus": "3-1"}' \
		>"$OUT/refused" 2>&1; then
		diag <"$OUT/refused"
		return 1
	fi
	diag <"$OUT/refused"
	grep -q "Invalid argument" "$OUT/refused" &&
		grep -q "'msg'" "$OUT/refused" &&
		[ "$(cat $SYSFS/generation)" = "$gen" ]
}

# Another process assigns while cli.py listens: it subscribes, sleeps,
# then prints what arrived.  Assign once a second for as long, so that
# some assignments land after its subscription whatever its start-up.
events()
{
	local pid i

	ynl --subscribe events --sleep 8 >"$OUT/events" 2>&1 &
	pid=$!
	for i in $(seq 1 30); do
		kill -0 $pid 2>/dev/null || break
		"$CTL" assign ev-pod "c$i" 2 >/dev/null || return 1
		sleep 0.5
	done
	wait $pid || { diag <"$OUT/events"; return 1; }
	json_true "len(j) > 0 and
		   all(e['name'] == 'assigned-ntf' and
		       e['msg']['pod-uid'] == 'ev-pod' and
		       e['msg']['cpus'] == '2' for e in j) and
		   [e['msg']['generation'] for e in j] ==
		   sorted(set(e['msg']['generation'] for e in j))" "$OUT/events"
}

reset()
{
	ynl --do reset >"$OUT/reset" &&
	[ "$(cat $SYSFS/policy)" = none ] && [ -z "$(ls $SYSFS/pods)" ]
}

ktap_plan 8
check "get-state agrees with sysfs" get_state
check "configure sets policy and options" configure
check "assign replies with the assignment" assign
check "get-assignment dump" dump
check "get-topology dump, one per possible CPU" topology
check "a refused assign carries the extack" refusal
check "events: assigned-ntf while cpumgrctl assigns" events
check "reset" reset
ktap_exit
