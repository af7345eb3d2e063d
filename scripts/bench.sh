#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: the userspace benchmarks (build/user/bench/bench_*), then
# the in-guest benchmarks listed in selftests/bench-plan (kernel, preset,
# benchmark scripts), each printing its own table.

set -euo pipefail
. "$(dirname "$0")/common.sh"

plan=$CPUMGR_TOP/selftests/bench-plan

"$CPUMGR_TOP/scripts/setup.sh"
kernels=$( [ -e "$plan" ] && sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$plan" |
	awk '{ print $1 }' | sort -u | xargs)
make -s -C "$CPUMGR_TOP" user
for b in "$CPUMGR_OUT"/user/bench/bench_*; do
	[ -x "$b" ] || continue
	echo "== $(basename "$b")"
	"$b"
done
[ -n "$kernels" ] || exit 0
make -s -C "$CPUMGR_TOP" build-all KERNELS="$kernels" >/dev/null
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$plan" | while read -r kernel preset benches; do
	echo "== guest benchmarks on $kernel/$preset: $benches"
	# shellcheck disable=SC2086
	"$CPUMGR_TOP/scripts/guest-run.sh" -k "$kernel" -p "$preset" \
		-o "$CPUMGR_OUT/bench/$kernel-$preset" $benches </dev/null
done
