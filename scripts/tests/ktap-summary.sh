#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The runner holds each selftest to its plan (KTAP).  The selftests are
# stand-ins that print a fixture of scripts/tests/ktap-summary/ and exit
# with a status; scripts/guest/run-tests.sh runs them as the guest does
# (insmod and rmmod stood in for too), and its results must be the
# verdicts below.  Then its KTAP, nested as make check nests a guest's,
# goes through scripts/ktap-summary.awk, with each awk the guests have
# (mawk on the host root, busybox's in a RAM root): its closing line
# must count every result once and each missing one as a failure, and
# name the selftests that fell short.

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/scripts/tests/ktap-summary
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/scripts/tests/ktap.sh"

# fixture, exit status, run-tests.sh's result line for it
cases=(
	"complete 0 ok N complete"
	"short 0 not ok N short # results 3-5 of 1..5 missing"
	"plan-only 0 not ok N plan-only # results 1-4 of 1..4 missing"
	"skip-short 4 not ok N skip-short # results 3-4 of 1..4 missing"
	"skip-all 4 ok N skip-all # SKIP no suspend to test"
	"silent 0 not ok N silent # no result"
	"too-many 0 not ok N too-many # 3 results for a plan of 1..2"
	"no-plan 0 not ok N no-plan # 2 result(s) and no plan"
	"failed 1 not ok N failed # exit status 1"
	"trailing-plan 0 ok N trailing-plan"
	"bail 1 not ok N bail # exit status 1"
	"nested 0 not ok N nested # outer two: results 2-3 of 1..3 missing"
)
# what make check's closing line says of them, and the shortfalls it names
want_summary="18 passed, 16 failed, 2 skipped"
want_named=(
	"# short: results 3-5 of 1..5 missing"
	"# plan-only: results 1-4 of 1..4 missing"
	"# skip-short: results 3-4 of 1..4 missing"
	"# too-many: 3 results for a plan of 1..2"
	"# no-plan: 2 result(s) and no plan"
	"# outer two: results 2-3 of 1..3 missing"
)

awks=(awk)
busybox awk 'BEGIN { exit 0 }' 2>/dev/null && awks+=("busybox awk")
ktap_plan $((${#cases[@]} + 3 + 4 * ${#awks[@]}))

# The stand-ins: selftests, insmod and rmmod.
mkdir -p "$tmp/out/selftests" "$tmp/bin"
names=()
for c in "${cases[@]}"; do
	read -r name status _ <<<"$c"
	names+=("$name")
	printf '#!/bin/sh\ncat "%s"\nexit %s\n' "$fixtures/$name.ktap" "$status" \
		>"$tmp/out/selftests/$name"
	chmod +x "$tmp/out/selftests/$name"
done
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/insmod"
cp "$tmp/bin/insmod" "$tmp/bin/rmmod"
chmod +x "$tmp/bin/insmod" "$tmp/bin/rmmod"

# run-tests.sh SELFTEST...: with the stand-ins
run_tests()
{
	PATH=$tmp/bin:$PATH CPUMGR_TOP=$top CPUMGR_OUT=$tmp/out \
		CPUMGR_MODULE=$tmp/cpumgr.ko CPUMGR_KMEMLEAK=$tmp/no-kmemleak \
		bash "$top/scripts/guest/run-tests.sh" "$@"
}

run_tests "${names[@]}" >"$tmp/guest.ktap"
status=$?
sed 's/^/# /' "$tmp/guest.ktap"

i=0
for c in "${cases[@]}"; do
	i=$((i + 1))
	read -r name _ want <<<"$c"
	want=${want/ N / $i }
	grep -qxF -- "$want" "$tmp/guest.ktap"
	result $? "run-tests.sh: $name gives '$want'"
done
[ "$status" = 1 ] && [ "$(grep -cE '^(not )?ok ' "$tmp/guest.ktap")" = ${#cases[@]} ]
result $? "run-tests.sh: one result per selftest, and it fails"

# An awk that does not run passes nothing.
mkdir "$tmp/noawk"
printf '#!/bin/sh\nexit 2\n' >"$tmp/noawk/awk"
chmod +x "$tmp/noawk/awk"
PATH=$tmp/noawk:$PATH run_tests complete | tail -n 1 | tee "$tmp/noawk.out" | sed 's/^/# /'
grep -qx "not ok 1 complete # ktap-summary.awk could not count its results" "$tmp/noawk.out"
result $? "run-tests.sh: a selftest whose results cannot be counted fails"

# The guest's KTAP as guest-run.sh ends it and check.sh nests it.
{
	echo "TAP version 13"
	echo "    TAP version 13"
	sed 's/^/    /' "$tmp/guest.ktap"
	echo "    1..${#cases[@]}"
	echo "not ok 1 guest: the fixtures"
	echo "1..1"
} >"$tmp/check.ktap"
for a in "${awks[@]}"; do
	$a -f "$top/scripts/ktap-summary.awk" "$tmp/check.ktap" >"$tmp/summary"
	status=$?
	sed 's/^/# /' "$tmp/summary"
	[ "$status" = 1 ] && [ "$(tail -n 1 "$tmp/summary")" = "$want_summary" ]
	result $? "ktap-summary.awk ($a): '$want_summary'"
	ok=0
	for w in "${want_named[@]}"; do
		grep -qxF -- "$w" "$tmp/summary" || { echo "# not named: $w"; ok=1; }
	done
	result $ok "ktap-summary.awk ($a): names each selftest short of its plan"
done

# With list=1 the tail names each failure under its parents: a log's
# last lines are all CI shows.
want_list="# failed: guest: x: b & c
# failed: y: results 2-3 of 1..3 missing
# failed: z
2 passed, 4 failed, 0 skipped"
for a in "${awks[@]}"; do
	printf 'TAP version 13\n1..3\n    1..2\n    ok 1 a\n    not ok 2 b & c\nnot ok 1 guest: x\n    1..3\n    ok 1 b\nnot ok 2 y\nnot ok 3 z # exit 1\n' |
		$a -v list=1 -f "$top/scripts/ktap-summary.awk" | tail -n 4 >"$tmp/summary"
	sed 's/^/# /' "$tmp/summary"
	[ "$(cat "$tmp/summary")" = "$want_list" ]
	result $? "ktap-summary.awk ($a): list=1 names the failures at the end"
done

# With list=1 a failure's last 8 diagnostics at its indentation since
# the result before it follow its name: none from an earlier document,
# none deeper; results missing (a crash) show the last words after the
# last result.
want_why="# failed: guest: x: b
#   # why b
# failed: y
#   # 3
#   # 4
#   # 5
#   # 6
#   # 7
#   # 8
#   # 9
#   # 10
# failed: guest: z: results 2-3 of 1..3 missing
#   # crashed here
3 passed, 4 failed, 0 skipped"
for a in "${awks[@]}"; do
	{
		printf 'TAP version 13\n1..3\n    TAP version 13\n    1..1\n    ok 1 s\n    # stale\n'
		printf '    TAP version 13\n    1..2\n    # why b\n        # deeper\n'
		printf '    not ok 1 b\n    ok 2 a\nnot ok 1 guest: x\n'
		for i in $(seq 10); do printf '# %d\n' "$i"; done
		printf 'not ok 2 y\n    TAP version 13\n    1..3\n    ok 1 c\n    # crashed here\n'
		printf 'not ok 3 guest: z\n'
	} | $a -v list=1 -f "$top/scripts/ktap-summary.awk" | tail -n 14 >"$tmp/summary"
	sed 's/^/# /' "$tmp/summary"
	[ "$(cat "$tmp/summary")" = "$want_why" ]
	result $? "ktap-summary.awk ($a): list=1 shows each failure's last diagnostics"
done

# A complete run passes, and a parent that failed after all its
# results passed counts once.
printf 'TAP version 13\n1..2\n    1..1\n    ok 1 a\nok 1 x\n    1..1\n    ok 1 b\nnot ok 2 y # exit status 1\n' |
	awk -f "$top/scripts/ktap-summary.awk" >"$tmp/summary"
status=$?
[ "$status" = 1 ] && [ "$(cat "$tmp/summary")" = "2 passed, 1 failed, 0 skipped" ]
result $? "ktap-summary.awk: a parent that failed after its results counts once"

ktap_done
