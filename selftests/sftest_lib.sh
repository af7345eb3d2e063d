# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell selftests: KTAP results, and the two clients they
# drive the module with, cpumgrctl and the kernel's own YNL CLI.

CTL=$CPUMGR_OUT/user/cpumgrctl
YNL_DIR=$CPUMGR_CACHE/src/6.12/tools/net/ynl
SPEC=$CPUMGR_TOP/include/uapi/linux/cpumgr.yaml
SCHEMA=$CPUMGR_CACHE/src/6.12/Documentation/netlink/genetlink-c.yaml
SYSFS=/sys/kernel/cpumgr

ktap_n=0
ktap_failed=0

ktap_plan()
{
	echo "TAP version 13"
	echo "1..$1"
}

# ok|not-ok DESCRIPTION: one result.
ktap_result()
{
	ktap_n=$((ktap_n + 1))
	if [ "$1" = ok ]; then
		echo "ok $ktap_n $2"
	else
		echo "not ok $ktap_n $2"
		ktap_failed=1
	fi
}

# CHECK DESCRIPTION COMMAND...: ok when the command succeeds, a skip
# when it cannot run here and says why (skip_case), else a failure.
check()
{
	# a name of its own: the case runs in this scope
	local what=$1 status check_start=$SECONDS
	shift
	ktap_skip_reason=
	"$@"
	status=$?
	# Where a slow run's time went: a case takes seconds under TCG.
	[ $((SECONDS - check_start)) -lt 30 ] ||
		echo "# slow: $((SECONDS - check_start)) s for: $what"
	if [ $status = 0 ]; then
		ktap_result ok "$what"
	elif [ $status = 4 ] && [ -n "$ktap_skip_reason" ]; then
		ktap_result ok "$what # SKIP $ktap_skip_reason"
	else
		ktap_result not-ok "$what"
	fi
}

# REASON: in a command run by check, the case cannot run here, for
# REASON; returns 4, which the case returns ("skip_case REASON; return").
skip_case()
{
	ktap_skip_reason=$*
	return 4
}

# REASON: the whole selftest cannot run here, before its plan: an empty
# plan that says why, as kselftest's ksft_exit_skip() prints it, and
# kselftest's skip status.
skip_all()
{
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit 4
}

# Under make check (scripts/check.sh sets CPUMGR_CHECK=1) scripts/setup.sh
# has installed everything the selftests use, so one missing there is a
# failure; by hand (make guest) it is a skip.
#   ktap_missing DESCRIPTION WHAT   a case's result, WHAT missing
#   ktap_missing_all WHAT           the whole selftest's, before its plan
missing_reason()
{
	echo "missing $1, which scripts/setup.sh installs"
}

ktap_missing()
{
	if [ -n "${CPUMGR_CHECK:-}" ]; then
		ktap_result not-ok "$1 # $(missing_reason "$2")"
	else
		ktap_result ok "$1 # SKIP $(missing_reason "$2")"
	fi
}

ktap_missing_all()
{
	[ -n "${CPUMGR_CHECK:-}" ] || skip_all "$(missing_reason "$1")"
	ktap_plan 1
	ktap_result not-ok "$(missing_reason "$1")"
	exit 1
}

# PID: wait up to 60 s for process PID to join a netlink multicast group
# (a listener that subscribed hears every change made after): a generic
# netlink socket (protocol 16) of it (the port id's low 22 bits, as
# libnl makes them) with group bits in /proc/net/netlink.  Says so when
# it does not.
nl_subscribed()
{
	local end=$((SECONDS + 60)) eth port groups

	while [ $SECONDS -lt $end ]; do
		while read -r _ eth port groups _; do
			[ "$eth" = 16 ] && [ "$groups" != 00000000 ] &&
				(((port & 0x3fffff) == $1)) && return 0
		done </proc/net/netlink
		sleep 0.1
	done
	echo "# process $1 joined no netlink multicast group in 60 s"
	return 1
}

# VALUE FILE: the write of VALUE to FILE is refused with EBUSY; says
# what happened when not.
refused()
{
	local err

	err=$( { echo "$1" >"$2"; } 2>&1) &&
		{ echo "# '$1' > $2 was accepted"; return 1; }
	grep -q "busy" <<<"$err" && return 0
	echo "# '$1' > $2: $err"
	return 1
}

# DIR: a task that sleeps in DIR, its pid added to the caller's PIDS
# (which its cleanup kills).
task_in()
{
	sleep 1000 &
	PIDS+=($!)
	echo $! >"$1/cgroup.procs"
}

# tracefs_functions NAME...: those of NAME this kernel can trace (in
# TR/available_filter_functions), one a line, read in one pass.
tracefs_functions()
{
	awk 'NR == FNR { want[$1]; next } ($1 in want) && !seen[$1]++ { print $1 }' \
		<(printf '%s\n' "$@") "$TR/available_filter_functions"
}

# kprobe_group_off GROUP: the kprobe events of GROUP off and removed.
kprobe_group_off()
{
	local e

	[ -d "$TR/events/$1" ] && echo 0 >"$TR/events/$1/enable"
	for e in $(sed -n "s|^[pr][0-9]*:$1/\([^ ]*\) .*|\1|p" \
			"$TR/kprobe_events" 2>/dev/null); do
		echo "-:$1/$e" >>"$TR/kprobe_events"
	done
}

# pa_on_2_3 CG STATE: the module set up (static, CPU 0 reserved, the
# state in STATE), pod pa's container c1 holding 2-3 bound to CG/pa,
# and CG/other beside it for the writes to try.
pa_on_2_3()
{
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control &&
	mkdir -p "$1/pa" "$1/other" &&
	echo +cpuset >"$1/cgroup.subtree_control" &&
	"$CTL" init --cpu-manager-policy static --reserved-cpus 0 \
		--state-dir "$2" >/dev/null &&
	"$CTL" assign pa c1 2-3 >/dev/null &&
	"$CTL" bind pa c1 --cgroup "$1/pa" >/dev/null
}

# The node of state directory $S reset (its table too), whatever it
# holds, and the cgroups at and below $CG removed, deepest first: the
# node selftests' clean-up.
node_cleanup()
{
	"$CTL" reset --force --state-dir "$S" >/dev/null 2>&1 ||
		CPUMGR_STATE_DIR=/nonexistent "$CTL" reset >/dev/null 2>&1
	find "$CG" -depth -type d 2>/dev/null | while read -r d; do
		rmdir "$d" 2>/dev/null
	done
}

# cpus_rel OP A B: cpulists A and B share no CPU (OP disjoint), A is a
# subset of B (OP subset), or they are the same CPUs however written
# (OP same); OP minus prints A without B.
cpus_rel()
{
	/usr/bin/python3 - "$@" <<-'EOF'
	import sys
	def cpus(t):
	    s = set()
	    for p in t.split(","):
	        if p:
	            lo, _, hi = p.partition("-")
	            s.update(range(int(lo), int(hi or lo) + 1))
	    return s
	op, a, b = sys.argv[1], cpus(sys.argv[2]), cpus(sys.argv[3])
	if op == "minus":
	    print(",".join(str(c) for c in sorted(a - b)))
	    sys.exit(0)
	if op == "same":
	    sys.exit(0 if a == b else 1)
	sys.exit(0 if (not (a & b) if op == "disjoint" else a <= b) else 1)
	EOF
}

# FILE WANT: the module's sysfs FILE reads WANT, said when it does not.
sysfs_is()
{
	local got=

	read -r got <"$SYSFS/$1"
	[ "$got" = "$2" ] && return 0
	echo "# $1 is '$got', not '$2'"
	return 1
}

# Indented diagnostics.
diag()
{
	sed 's/^/# /'
}

ktap_exit()
{
	exit $ktap_failed
}

# The kernel's YNL CLI on our spec, JSON output.  Validating the spec
# against the schema costs seconds in a TCG guest: ynl_schema does it,
# ynl does not (make lint checks the spec against the schema).
ynl()
{
	/usr/bin/python3 "$YNL_DIR/cli.py" --spec "$SPEC" --no-schema \
		--output-json "$@"
}

ynl_schema()
{
	/usr/bin/python3 "$YNL_DIR/cli.py" --spec "$SPEC" --schema "$SCHEMA" \
		--output-json "$@"
}

# JSON-CHECK FILE: a Python expression over the JSON in FILE, bound to
# `j`; true when it is.  The file is shown when it is not.
json_true()
{
	python3 -c '
import json, sys
j = json.load(open(sys.argv[2]))
sys.exit(0 if eval("(" + sys.argv[1] + ")") else 1)' "$1" "$2" || {
		diag <"$2"
		return 1
	}
}

# The static policy, and back to the state after load.
ctl_static()
{
	"$CTL" configure --policy static >/dev/null
}

ctl_reset()
{
	"$CTL" reset >/dev/null
}

# The node commands' selftests, which set OUT (a scratch directory) and
# S (the state directory):
#   ctl ARGS...  cpumgrctl ARGS... --state-dir $S
#   run CMD...   runs, keeping its output and status for rc and shows
#   rc N         the status was N, or the output is shown
#   shows        the output, as diagnostics; returns 1, so that
#                "CHECK || shows" ending a test fails it
ctl()
{
	"$CTL" "$@" --state-dir "$S"
}

run()
{
	"$@" >"$OUT/o" 2>"$OUT/e"
	echo $? >"$OUT/rc"
}

shows()
{
	cat "$OUT/o" "$OUT/e" | diag
	return 1
}

rc()
{
	[ "$(cat "$OUT/rc")" = "$1" ] || { shows; return 1; }
}
