#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every kernel of the README's table runs the module's selftests: each
# selftest that selftests/plan (make check) or selftests/plan.soak
# (make soak) names runs on every kernel of CPUMGR_DEBIAN_KERNELS in one
# of the two, unless a line of selftests/plan
#     #@ not every kernel: NAME...: why
# names it.  A word of a plan line is a selftest when selftests/ has a
# NAME.sh, NAME.py or NAME.c; the debug kernel is not in the table.
# Prints one line per selftest and kernel missing; exit 1 on any.
# Usage: plan-check.sh [PLAN SOAK]

set -uo pipefail
. "$(dirname "$0")/common.sh"
cd "$CPUMGR_TOP" || exit 1

plan=${1:-selftests/plan}
soak=${2:-selftests/plan.soak}
status=0

declare -A runs exempt
while read -r -a words; do
	for w in "${words[@]}"; do
		exempt[$w]=1
	done
done < <(sed -n 's/^#@ not every kernel: \([^:]*\):.*/\1/p' "$plan")

is_selftest()
{
	[ -e "selftests/$1.sh" ] || [ -e "selftests/$1.py" ] ||
		[ -e "selftests/$1.c" ]
}

while read -r kernel _preset rest; do
	for w in $rest; do
		is_selftest "$w" && runs[$w]+=" $kernel "
	done
done < <(cat "$plan" "$soak" | sed -e 's/#.*//' -e '/^[[:space:]]*$/d')

for t in $(printf '%s\n' "${!runs[@]}" | sort); do
	[ -n "${exempt[$t]:-}" ] && continue
	for k in $CPUMGR_DEBIAN_KERNELS; do
		if [[ ${runs[$t]} != *" $k "* ]]; then
			echo "plan-check: $t runs on no $k guest of $plan or $soak"
			status=1
		fi
	done
done
exit $status
