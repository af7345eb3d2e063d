#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unload and load the module 100 times with a few operations in between:
# a fresh module has an empty table, rmmod refuses ("in use") while
# assignments exist and works once they are released or RESET.  Leaves
# the module loaded, as the runner wants it.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

# CPUMGR_LOAD_LOOPS scales it down where a cycle is slow (debug kernel).
LOOPS=${CPUMGR_LOAD_LOOPS:-100}

# A fresh table: policy none, no pods, nothing exclusive, every online
# CPU shared, no pods/ directory.  Bash builtins only besides cpumgrctl:
# every process started in a TCG guest costs a good part of a second.
fresh_and_empty()
{
	local out line p= n= e= s= o= pods

	out=$("$CTL" table) || return 1
	while read -r line; do
		case $line in
		"policy "*) p=${line##* } ;;
		"pods "*) n=${line##* } ;;
		"exclusive cpus "*) e=${line##* } ;;
		"shared cpus "*) s=${line##* } ;;
		"online cpus "*) o=${line##* } ;;
		esac
	done <<<"$out"
	pods=("$SYSFS"/pods/*)
	if [ "$p" != none ] || [ "$n" != 0 ] || [ "$e" != "(none)" ] ||
	   [ "$s" != "$o" ] || [ -e "${pods[0]}" ]; then
		echo "$out" | diag
		return 1
	fi
}

# rmmod must fail with "in use" and leave the module and its table.
rmmod_refused()
{
	local out

	if out=$(rmmod cpumgr 2>&1); then
		echo "rmmod succeeded with assignments" | diag
		insmod "$CPUMGR_MODULE"
		return 1
	fi
	echo "$out" | diag
	grep -q "in use" <<<"$out" && [ -d /sys/module/cpumgr ] &&
		"$CTL" dump | grep -q "^lu-pod app cpus 1"
}

loop()
{
	local i bad=0

	for i in $(seq 1 $LOOPS); do
		rmmod cpumgr || { echo "rmmod $i failed" | diag; return 1; }
		insmod "$CPUMGR_MODULE" || { echo "insmod $i failed" | diag; return 1; }
		fresh_and_empty || { echo "loop $i: not fresh" | diag; bad=1; }
		# Every tenth time, a table that pins the module.
		[ $((i % 10)) = 0 ] || continue
		ctl_static && "$CTL" assign lu-pod app 1 >/dev/null &&
			rmmod_refused || { echo "loop $i: in use" | diag; bad=1; }
		if [ $((i % 20)) = 0 ]; then
			"$CTL" release lu-pod >/dev/null || bad=1
		else
			ctl_reset || bad=1
		fi
	done
	return $bad
}

# rmmod -f (where the kernel has MODULE_FORCE_UNLOAD) goes through with
# assignments: they go with the module, which loads again fresh.  Not
# with lockdep: the taint of a forced unload turns it off for good.
forced()
{
	if [ -e /proc/lockdep ]; then
		ktap_result ok "rmmod -f drops the table # SKIP it would turn lockdep off"
		return 2
	fi
	ctl_static && "$CTL" assign lu-pod app 1 >/dev/null || return 1
	if ! rmmod -f cpumgr 2>/dev/null; then
		[ -d /sys/module/cpumgr ] || return 1
		ktap_result ok "rmmod -f drops the table # SKIP no forced unload"
		ctl_reset
		return 2
	fi
	[ ! -d "$SYSFS" ] && insmod "$CPUMGR_MODULE" && fresh_and_empty
}

# The module built for a series cpumgr does not know (build-module.sh's
# unknown/ copy, which takes itself for 1.0) is refused at load with one
# line naming the series it knows; the real one says its series, the
# running kernel's.
series()
{
	local unknown=${CPUMGR_MODULE%/kmod/cpumgr.ko}/unknown/cpumgr.ko
	local n lines rel

	rel=$(uname -r | cut -d. -f1,2)
	rmmod cpumgr || return 1
	n=$(dmesg | grep -c 'cpumgr: ')
	if insmod "$unknown" 2>/dev/null; then
		echo "the unknown series' module loaded" | diag
		rmmod cpumgr
		insmod "$CPUMGR_MODULE"
		return 1
	fi
	lines=$(dmesg | grep 'cpumgr: ' | tail -n +$((n + 1)))
	echo "$lines" | diag
	n=$((n + $(grep -c . <<<"$lines")))
	insmod "$CPUMGR_MODULE" || return 1
	[ "$(grep -c . <<<"$lines")" = 1 ] &&
		grep -q "is series 1\.0, which cpumgr does not know (it knows 6\.1, 6\.12, 7\.3)" <<<"$lines" &&
		dmesg | grep 'cpumgr: ' | tail -n +$((n + 1)) |
		grep -q "cpumgr: kernel series $rel: "
}

ktap_plan 5
check "a module for an unknown series is refused with one line" series
check "a fresh module has an empty table" fresh_and_empty
ctl_static && "$CTL" assign lu-pod app 1 >/dev/null
check "rmmod refuses while assignments exist" rmmod_refused
ctl_reset
check "$LOOPS unloads and loads, rmmod refused while assigned" loop
forced
case $? in
0) ktap_result ok "rmmod -f drops the table, the module loads again" ;;
1) ktap_result not-ok "rmmod -f drops the table, the module loads again" ;;
esac
[ -d /sys/module/cpumgr ] || insmod "$CPUMGR_MODULE"
ktap_exit
