#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cpumgrctl table, assign, release, dump and events against the module:
# what they print, their JSON, and their errors (one line "cpumgrctl:
# <what>: <strerror>: <extack>", exit 1; usage errors exit 2).

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

table_json()
{
	"$CTL" table --json >"$OUT/state" &&
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
sysfs = lambda f: open("/sys/kernel/cpumgr/" + f).read().strip()
sys.exit(0 if s["policy"] == sysfs("policy") == "static" and
	  s["generation"] == int(sysfs("generation")) and
	  s["options"] == [] and s["module"] == sysfs("version") and
	  s["sharedCpus"] == sysfs("shared_cpus") and
	  s["exclusiveCpus"] == "" and s["podCount"] == 0 and
	  s["enforce"] == sysfs("enforce") and
	  s["hotplug"] == sysfs("hotplug") else 1)' \
		"$OUT/state" || { diag <"$OUT/state"; return 1; }
}

table_human()
{
	"$CTL" table >"$OUT/human" &&
	grep -qx "policy          static" "$OUT/human" &&
	grep -qx "generation      $(cat $SYSFS/generation)" "$OUT/human" &&
	grep -qx "exclusive cpus  (none)" "$OUT/human" ||
		{ diag <"$OUT/human"; return 1; }
	# the older name runs the same command
	"$CTL" state | diff - "$OUT/human" | diag
	[ "${PIPESTATUS[1]}" = 0 ]
}

assign_and_dump()
{
	local gen

	gen=$(cat $SYSFS/generation)
	"$CTL" assign p1 init 1-2 --init >"$OUT/a1" &&
	grep -qx "p1 init cpus 1-2 init generation $((gen + 1))" "$OUT/a1" &&
	"$CTL" assign --generation $((gen + 1)) p1 app 1 >"$OUT/a2" &&
	grep -qx "p1 app cpus 1 generation $((gen + 2))" "$OUT/a2" &&
	"$CTL" dump >"$OUT/dump" &&
	[ "$(sort "$OUT/dump")" = "$(printf '%s\n' 'p1 app cpus 1' \
		'p1 init cpus 1-2 init')" ] &&
	"$CTL" dump --json >"$OUT/dump.json" &&
	python3 -c '
import json, sys
d = sorted(json.load(open(sys.argv[1])), key=lambda a: a["container"])
sys.exit(0 if [(a["podUID"], a["container"], a["cpus"], a["flags"])
	       for a in d] == [("p1", "app", "1", []),
			       ("p1", "init", "1-2", ["init"])] else 1)' \
		"$OUT/dump.json" ||
		{ cat "$OUT"/a1 "$OUT"/a2 "$OUT"/dump* 2>/dev/null | diag; return 1; }
}

# The error line: one line, the operation, strerror, the extack message.
errors()
{
	local gen status

	gen=$(cat $SYSFS/generation)
	"$CTL" assign p2 c 1 >"$OUT/o" 2>"$OUT/e"
	status=$?
	diag <"$OUT/e"
	[ $status = 1 ] && [ ! -s "$OUT/o" ] && [ "$(wc -l <"$OUT/e")" = 1 ] &&
		grep -q "^cpumgrctl: assign p2/c: Device or resource busy: ." \
			"$OUT/e" || return 1
	"$CTL" release --generation $((gen + 5)) p1 2>"$OUT/e"
	status=$?
	diag <"$OUT/e"
	[ $status = 1 ] &&
		grep -q "^cpumgrctl: release p1: Stale file handle: ." "$OUT/e" ||
		return 1
	"$CTL" release p1 nope 2>"$OUT/e"
	status=$?
	diag <"$OUT/e"
	[ $status = 1 ] &&
		grep -q "^cpumgrctl: release p1/nope: No such file or directory: ." \
			"$OUT/e" &&
		[ "$(cat $SYSFS/generation)" = "$gen" ]
}

usage()
{
	local s1 s2 s3 s4

	"$CTL" assign p1 c 2>/dev/null
	s1=$?
	"$CTL" assign --generation x p1 c 1 2>/dev/null
	s2=$?
	"$CTL" release 2>/dev/null
	s3=$?
	"$CTL" events --count 0 2>/dev/null
	s4=$?
	[ "$s1 $s2 $s3 $s4" = "2 2 2 2" ] || { echo "$s1 $s2 $s3 $s4" | diag; return 1; }
}

events()
{
	local pid gen

	"$CTL" events --count 3 >"$OUT/ev" &
	pid=$!
	# Wait until it listens: its socket joins the group before the
	# first change we make counts.
	nl_subscribed $pid || { kill $pid; return 1; }
	gen=$(cat $SYSFS/generation)
	# p3's only container: releasing it releases the pod.
	"$CTL" assign p3 c 3 >/dev/null && "$CTL" release p3 c >/dev/null &&
		"$CTL" release p1 >/dev/null || return 1
	wait $pid || return 1
	diag <"$OUT/ev"
	[ "$(cat "$OUT/ev")" = "$(printf '%s\n' \
		"assigned generation $((gen + 1)) p3 c cpus 3" \
		"released generation $((gen + 2)) p3 cpus 3" \
		"released generation $((gen + 3)) p1 cpus 1-2")" ]
}

not_loaded()
{
	local status

	"$CTL" table 2>"$OUT/e"
	status=$?
	diag <"$OUT/e"
	[ $status = 1 ] &&
		grep -q "^cpumgrctl: table: connect to cpumgr: No such file or directory: .*cpumgr.ko" \
			"$OUT/e"
}

ktap_plan 7
ctl_static
check "table --json" table_json
check "table, and state, its older name" table_human
check "assign and dump, --init, --generation, --json" assign_and_dump
check "errors: one line with strerror and extack, exit 1" errors
check "usage errors exit 2" usage
check "events prints one line per change" events
ctl_reset
rmmod cpumgr
check "a clear error when the module is not loaded" not_loaded
insmod "$CPUMGR_MODULE"
ktap_exit
