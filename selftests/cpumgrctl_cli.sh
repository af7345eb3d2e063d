#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cpumgrctl's command line against the module, where it must be safe to
# type: reset keeps its guard when the state directory is broken and
# says why; a wait for the lock is announced at once; the read-only
# commands (status, hints, metrics, topology, table, checkpoint verify)
# take no lock, change nothing and work for a normal user with the
# kernel's reduced view (no pod, container or cgroup), while those that
# print the assignments (dump, audit, checkpoint export) say they are
# root's; a managed
# cgroup root that went away (reset --force, a reboot) is created
# again; the daemon's lines carry sd-daemon severities on the journal;
# JSON output has one convention; bad input exits 2.
# Any preset with 4 CPUs or more.  Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

OUT=$(mktemp -d)
S=$OUT/state
CG=/sys/fs/cgroup/cpumgr-cli
DATA=$CPUMGR_TOP/user/tests/data
PODS=$DATA/pods
G2=0b1e5a44-5f3c-4c55-9a0e-000000000004
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

cleanup()
{
	node_cleanup
	rm -rf "$OUT"
}
trap cleanup EXIT
# a normal user reads the state directory through here
chmod 755 "$OUT"


# What a read-only command must leave as it is.
snapshot()
{
	{
		cat "$SYSFS/generation" "$SYSFS/policy"
		ls -l --time-style=+%s.%N "$S" "$S/pods"
		cat "$S/cpu_manager_state"
	} 2>&1
}

t_setup()
{
	run ctl init --cpu-manager-policy static --reserved-cpus 0 \
		--cgroup-root "$CG"
	rc 0 || return 1
	run ctl admit "$PODS/guaranteed-2cpu.json"
	rc 0 && [ -n "$(cat "$SYSFS/pods/$G2/nginx/cpus")" ] || shows
}

t_read_only_as_nobody()
{
	local before c

	before=$(snapshot)
	for c in "status" "status --json" "hints $PODS/guaranteed-2cpu.json" \
		 "metrics" \
		 "checkpoint verify $DATA/checkpoint/kubelet-8cpu-empty.json"; do
		# shellcheck disable=SC2086
		run "${NOBODY[@]}" "$CTL" $c --state-dir "$S"
		rc 0 || { echo "as nobody: cpumgrctl $c" | diag; return 1; }
		# the reduced view: nothing that names the pod or its cgroups
		# (hints names the pods of the file it was given)
		[ "${c%% *}" = hints ] || ! grep -q -e "$G2" -e "$CG" "$OUT/o" ||
			{ echo "as nobody: cpumgrctl $c" | diag; shows; return 1; }
	done
	run "${NOBODY[@]}" "$CTL" status --state-dir "$S"
	grep -q "^pods and containers: root's" "$OUT/o" &&
		grep -q "^cgroups   (root's)" "$OUT/o" &&
		grep -q "X exclusive (whose: root's)" "$OUT/o" || { shows; return 1; }
	run "${NOBODY[@]}" "$CTL" status --json --state-dir "$S"
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
x = [c for c in j["cpus"] if c["pool"] == "exclusive"]
sys.exit(not (j["restricted"] and not j["containers"] and
	      "cgroupRoot" not in j and len(x) == 2 and
	      not any("key" in c for c in x)))' "$OUT/o" || { shows; return 1; }
	run "${NOBODY[@]}" "$CTL" topology
	rc 0 || return 1
	run "${NOBODY[@]}" "$CTL" table
	rc 0 && grep -q "^cgroup root     (root's)" "$OUT/o" || { shows; return 1; }
	for c in "dump" "audit --state-dir $S" "checkpoint export --state-dir $S"; do
		# shellcheck disable=SC2086
		run "${NOBODY[@]}" "$CTL" $c
		rc 1 && grep -q "needs CAP_SYS_ADMIN" "$OUT/e" &&
			! grep -q "$G2" "$OUT/o" ||
			{ echo "as nobody: cpumgrctl $c" | diag; return 1; }
	done
	# a writer as nobody: refused on the lock file, not by a crash
	run "${NOBODY[@]}" "$CTL" reconcile --state-dir "$S"
	rc 1 && grep -q "lock" "$OUT/e" || { shows; return 1; }
	[ "$before" = "$(snapshot)" ] ||
		{ diff <(echo "$before") <(snapshot) | diag; return 1; }
}

t_read_only_repairs_nothing()
{
	local before

	# the module loses its configuration and its table (a reload)
	CPUMGR_STATE_DIR=/nonexistent "$CTL" reset >/dev/null || return 1
	before=$(snapshot)
	for c in status metrics audit "hints $PODS/guaranteed-2cpu.json"; do
		# shellcheck disable=SC2086
		run ctl $c
		# 0, or audit's 3 (offenders); not 1, nor a crash
		case $(cat "$OUT/rc") in
		0 | 3) ;;
		*) echo "# $c: exit $(cat "$OUT/rc")"; shows; return 1 ;;
		esac
	done
	run ctl status
	rc 0 && grep -q "^note: the module does not run the configuration" "$OUT/e" ||
		return 1
	[ "$before" = "$(snapshot)" ] && [ "$(cat $SYSFS/policy)" = none ] &&
		[ -e "$S/pods/$G2.json" ] ||
		{ diff <(echo "$before") <(snapshot) | diag; return 1; }
	# a writer syncs it all back
	run ctl reconcile
	rc 0 && grep -q "sync: restored 1 assignment from" "$OUT/e" &&
		[ "$(cat $SYSFS/policy)" = static ] || { shows; return 1; }
}

# SECONDS: hold the state directory's lock, the holder's pid in it, as
# cpumgrctl does; the pid is $! (the subshell becomes the sleep).
hold_lock()
{
	local lock=$S/.cpu_manager_state.lock

	(
		exec {fd}>>"$lock"
		flock "$fd"
		echo "$BASHPID" >"$lock"
		exec sleep "$1"
	) &
	while [ "$(cat "$lock" 2>/dev/null)" != "$!" ]; do
		sleep 0.1
	done
}

t_lock_wait_is_announced()
{
	local start

	hold_lock 3
	start=$SECONDS
	run ctl reconcile
	rc 0 && grep -q "^waiting for the lock held by pid $! " "$OUT/e" &&
		[ $((SECONDS - start)) -lt 30 ] || { shows; wait; return 1; }
	wait
	# and a reader does not wait at all
	hold_lock 20
	start=$SECONDS
	run ctl status
	kill $!
	wait
	rc 0 && ! grep -q waiting "$OUT/e" && [ $((SECONDS - start)) -lt 10 ] ||
		{ shows; return 1; }
}

t_reset_keeps_its_guard()
{
	local cpus

	cpus=$(cat "$SYSFS/pods/$G2/nginx/cpus")
	[ -n "$cpus" ] || return 1
	cp "$S/config.json" "$OUT/config.json"
	echo '{"cpuManagerPolicy": ' >"$S/config.json"
	# the state directory by the environment, as by default
	run env CPUMGR_STATE_DIR="$S" "$CTL" reset
	rc 1 && grep -q "config.json" "$OUT/e" &&
		[ "$(cat "$SYSFS/pods/$G2/nginx/cpus")" = "$cpus" ] ||
		{ shows; return 1; }
	run env CPUMGR_STATE_DIR="$S" "$CTL" reset --force
	rc 1 && [ "$(cat "$SYSFS/pods/$G2/nginx/cpus")" = "$cpus" ] ||
		{ shows; return 1; }
	cp "$OUT/config.json" "$S/config.json"
	# no state directory at all: the kernel's RESET, as ever
	run env CPUMGR_STATE_DIR="$OUT/none" "$CTL" reset
	rc 0 && [ ! -e "$SYSFS/pods/$G2" ] || { shows; return 1; }
	run ctl reconcile
	rc 0 && [ "$(cat "$SYSFS/pods/$G2/nginx/cpus")" = "$cpus" ] || shows
}

t_root_comes_back()
{
	run ctl reset --force
	rc 0 || return 1
	find "$CG" -depth -type d -exec rmdir {} \; || return 1
	# what a reboot leaves: the module empty, the cgroup root gone
	run ctl reconcile
	rc 0 && grep -q "created the managed cgroup root $CG" "$OUT/e" &&
		[ -d "$CG" ] && [ "$(cat $SYSFS/cgroup_root)" = "$CG" ] ||
		{ shows; return 1; }
	rmdir "$CG" && CPUMGR_STATE_DIR=/nonexistent "$CTL" reset >/dev/null ||
		return 1
	run ctl init --force --cpu-manager-policy static --reserved-cpus 0 \
		--cgroup-root "$CG"
	rc 0 && [ -d "$CG" ] || { shows; return 1; }
	run ctl admit "$PODS/guaranteed-2cpu.json"
	rc 0 || { shows; return 1; }
	# a root that cannot be made: the path and the reason, nothing else
	run ctl reset --force
	rc 0 || return 1
	cp "$S/config.json" "$OUT/config.json"
	sed -i "s,\"cgroupRoot\":[^,]*,\"cgroupRoot\": \"$CG/cgroup.procs/x\"," \
		"$S/config.json"
	CPUMGR_STATE_DIR=/nonexistent "$CTL" reset >/dev/null
	run ctl reconcile
	cp "$OUT/config.json" "$S/config.json"
	rc 1 && grep -q "$CG/cgroup.procs/x: Not a directory" "$OUT/e" ||
		{ shows; return 1; }
	run ctl admit "$PODS/guaranteed-2cpu.json"
	rc 0 || shows
}

t_daemon_severities()
{
	: >"$OUT/journal"
	JOURNAL_STREAM=$(stat -c %d:%i "$OUT/journal") \
		"$CTL" daemon --once --state-dir "$S" >>"$OUT/journal" 2>&1
	grep -q "^<6>.*daemon: started" "$OUT/journal" &&
		! grep -qv "^<[346]>" "$OUT/journal" || { diag <"$OUT/journal"; return 1; }
	"$CTL" daemon --once --state-dir "$S" >"$OUT/plain" 2>&1
	grep -q "daemon: started" "$OUT/plain" && ! grep -q "^<" "$OUT/plain" ||
		{ diag <"$OUT/plain"; return 1; }
	# an error line is <3>
	mv "$S/config.json" "$OUT/config.json"
	echo '[]' >"$S/config.json"
	JOURNAL_STREAM=$(stat -c %d:%i "$OUT/journal") \
		"$CTL" daemon --once --state-dir "$S" >>"$OUT/journal" 2>&1
	mv "$OUT/config.json" "$S/config.json"
	grep -q "^<3>cpumgrctl: .*config.json" "$OUT/journal" ||
		{ diag <"$OUT/journal"; return 1; }
}

# Exit codes: arguments or a file the node cannot take exit 2 and change
# nothing; a refusal of good input is a failure, 1.
t_exit_codes()
{
	local before c

	sed 's/"checksum":[0-9]*/"checksum":12345/' "$S/cpu_manager_state" >"$OUT/bad"
	before=$(snapshot)
	for c in "checkpoint import $OUT/nonexistent" \
		 "checkpoint import $OUT/bad --force" \
		 "attach --pod no-such-pod --container nginx --cgroup x" \
		 "attach --pod $G2 --container no-such --cgroup x" \
		 "attach --pod $G2 --container nginx --cgroup /sys/fs/cgroup/x" \
		 "attach --pod $G2 --container nginx --cgroup x --pod-cgroup y" \
		 "remove no-such-pod" "remove $G2 no-such"; do
		# shellcheck disable=SC2086
		run ctl $c
		rc 2 && [ "$(wc -l <"$OUT/e")" = 1 ] ||
			{ echo "cpumgrctl $c" | diag; return 1; }
	done
	[ "$(snapshot)" = "$before" ] || { echo "bad input changed the node" | diag; return 1; }
	run ctl checkpoint import "$S/cpu_manager_state"
	rc 1 && grep -q "holds 1 assignment:" "$OUT/e"
}

# Every key of every object in FILE (nested too) is camelCase.
camel()
{
	python3 -c '
import json, re, sys
bad = []
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if not re.fullmatch(r"[a-z][a-zA-Z0-9]*", k):
                bad.append(k)
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
for line in open(sys.argv[1]).read().splitlines() if sys.argv[2] == "lines" else [open(sys.argv[1]).read()]:
    walk(json.loads(line))
print(" ".join(sorted(set(bad))))
sys.exit(1 if bad else 0)' "$1" "${2:-doc}" || { diag <"$1"; return 1; }
}

t_json()
{
	local pid c

	for c in "table" "dump" "version" "topology" "status --state-dir $S" \
		 "audit --state-dir $S" "hints $PODS/guaranteed-2cpu.json --state-dir $S" \
		 "checkpoint verify $S/cpu_manager_state --state-dir $S"; do
		# shellcheck disable=SC2086
		"$CTL" -j $c >"$OUT/j" 2>"$OUT/e" || { shows; echo "$c" | diag; return 1; }
		# one trailing newline, cJSON's printer
		[ "$(tail -c 1 "$OUT/j" | od -An -c | tr -d ' ')" = '\n' ] &&
			camel "$OUT/j" || { echo "-j $c" | diag; return 1; }
		# -j after the command, anywhere among its arguments: the same
		# shellcheck disable=SC2086
		"$CTL" $c -j >"$OUT/j2" 2>"$OUT/e" &&
			if [ "${c%% *}" = dump ] || [ "${c%% *}" = table ]; then
				# the generation may move between the two
				python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(type(a) != type(b))' "$OUT/j" "$OUT/j2"
			else
				cmp -s "$OUT/j" "$OUT/j2"
			fi || { shows; echo "$c -j" | diag; return 1; }
	done
	"$CTL" -j state >"$OUT/j" &&
		json_true "j['podCount'] == 1 and j['exclusiveCpus'] == open('$SYSFS/exclusive_cpus').read().strip()" "$OUT/j" &&
		"$CTL" -j dump >"$OUT/j" &&
		json_true "j[0]['podUID'] == '$G2'" "$OUT/j" &&
		"$CTL" -j status --state-dir "$S" >"$OUT/j" &&
		json_true "j['containers'][0]['podUID'] == '$G2' and 'onlineCpus' in j" "$OUT/j" &&
		"$CTL" -j audit --state-dir "$S" >"$OUT/j" &&
		json_true "j['clean'] and j['offenders'] == []" "$OUT/j" || return 1
	# events: one object per line
	"$CTL" events --json --count 2 >"$OUT/ev" &
	pid=$!
	nl_subscribed $pid || { kill $pid; return 1; }
	"$CTL" assign cli-pod c1 "$(cat $SYSFS/shared_cpus | sed 's/.*[,-]//')" >/dev/null &&
		"$CTL" release cli-pod >/dev/null || { kill $pid; return 1; }
	wait $pid
	[ "$(wc -l <"$OUT/ev")" = 2 ] && camel "$OUT/ev" lines &&
		head -n 1 "$OUT/ev" | grep -q '^{"event":"assigned".*"podUID":"cli-pod","container":"c1"' ||
		{ diag <"$OUT/ev"; return 1; }
}

if [ "$(nproc)" -lt 4 ]; then
	ktap_plan 1
	echo "ok 1 # SKIP needs 4 CPUs"
	exit 0
fi
ktap_plan 9
check "init and admit" t_setup
check "JSON: camelCase everywhere, -j before or after the command, a trailing newline, events one per line" t_json
check "read-only commands work as nobody and change nothing" t_read_only_as_nobody
check "read-only commands repair nothing after a reload; a writer does" t_read_only_repairs_nothing
check "a wait for the lock says whose, at once; readers do not wait" t_lock_wait_is_announced
check "reset with a broken state directory changes nothing and says why" t_reset_keeps_its_guard
check "a managed cgroup root that went away is created again; one that cannot be is named" t_root_comes_back
check "daemon lines carry sd-daemon severities on the journal" t_daemon_severities
check "bad input exits 2 and changes nothing; a refusal exits 1" t_exit_codes
ktap_exit
