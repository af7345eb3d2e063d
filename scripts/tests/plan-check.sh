#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/plan-check.sh passes on the plans and finds a selftest that
# leaves a kernel out, in copies that do (KTAP).

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/scripts/plan-check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/scripts/tests/ktap.sh"

ktap_plan 4

# $1: what the copies get wrong, $2 and $3: sed scripts making the plan
# and the soak plan so, $4: the finding expected
finds()
{
	local out

	sed "$2" "$top/selftests/plan" >"$tmp/plan"
	sed "$3" "$top/selftests/plan.soak" >"$tmp/soak"
	out=$("$check" "$tmp/plan" "$tmp/soak")
	[ $? = 1 ] && grep -q -- "$4" <<<"$out"
	result $? "finds $1"
}

"$check" >"$tmp/out"
status=$?
sed 's/^/# /' "$tmp/out"
result $status "the plans pass"

finds "a kernel left out in both plans" 's/ hotplug_storm$//' \
	's/ hotplug_storm / /' "hotplug_storm runs on no 6.12-rt guest"
finds "a kernel that only make soak ran, left out" '' \
	'/^7.3-rt	smt8	netlink_contract/d' "netlink_perm runs on no 7.3-rt guest"
finds "an exemption taken away" '/^#@ not every kernel: quiet_cpu/d' '' \
	"quiet_cpu runs on no 6.1 guest"

ktap_done
