#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cpumgrctl status on a big machine (the big64 preset: 2 sockets, 4 NUMA
# nodes, 64 CPUs): every line within 80 columns, every CPU on the map and
# in --json, a pod's CPUs marked with its key.  With
# CPUMGR_POOL_MOVES=partitions the containers admitted are
# partition-pending, a flag too long for its row: it goes below, the
# lines still fit.  Leaves the module RESET.

. "$CPUMGR_TOP/selftests/sftest_lib.sh"

OUT=$(mktemp -d)
S=$OUT/state
PODS=$CPUMGR_TOP/user/tests/data/pods
trap '"$CTL" reset --force --state-dir "$S" >/dev/null 2>&1; rm -rf "$OUT"' EXIT

setup()
{
	"$CTL" init --cpu-manager-policy static --reserved-cpus 0-1 \
		${CPUMGR_POOL_MOVES:+--pool-moves "$CPUMGR_POOL_MOVES"} \
		--state-dir "$S" >/dev/null &&
	"$CTL" admit "$PODS/guaranteed-3cpu.yaml" --state-dir "$S" >/dev/null &&
	"$CTL" admit "$PODS/guaranteed-init-reuse.json" --state-dir "$S" >/dev/null
}

fits()
{
	"$CTL" status --state-dir "$S" >"$OUT/status" || return 1
	diag <"$OUT/status"
	! awk 'length > 80 { bad = 1 } END { exit !bad }' "$OUT/status" &&
		{ [ "$CPUMGR_POOL_MOVES" != partitions ] ||
		  grep -q "^    partition-pending$" "$OUT/status"; }
}

mapped()
{
	local key

	# every CPU once on the "cpu" lines (the separators are fields too)
	[ "$(awk '$1 == "cpu"' "$OUT/status" | grep -o '[0-9]\+' | wc -l)" = \
		"$(nproc)" ] || return 1
	# cpu-test's container holds 3 CPUs: its key marks 3 CPUs of the map
	key=$(awk '$3 == "busybox-pod1" { print $1 }' "$OUT/status")
	[ -n "$key" ] && [ "$key" != - ] &&
		awk -v key="$key" '
			marks { for (i = 1; i <= NF; i++) n += $i == key }
			{ marks = $1 == "cpu" }
			END { exit n != 3 }' "$OUT/status"
}

json()
{
	"$CTL" status --json --state-dir "$S" >"$OUT/json" &&
	json_true "len(j['cpus']) == $(nproc) and
		sum(c['pool'] == 'exclusive' for c in j['cpus']) == 7" "$OUT/json"
}

ktap_plan 4
check "init and admit" setup
check "status fits 80 columns" fits
check "every CPU on the map" mapped
check "status --json" json
ktap_exit
