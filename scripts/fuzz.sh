#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make fuzz`: build the libFuzzer targets (user/fuzz/fuzz_*.c, clang-14,
# ASan + UBSan) and run each, one at a time and niced, for FUZZ_RUNS
# executions (default 10 million).  The corpus of each is kept in
# build/fuzz/corpus/NAME, seeded at every run from the fixtures
# (user/tests/data, examples/) and a few literals; findings go to
# build/fuzz/artifacts/.  Prints one line per target:
#   NAME ok|FAILED runs N time Ns exec/s N cov N ft N corpus N
# and keeps each log in build/fuzz/log/NAME.log.
#
# Usage: scripts/fuzz.sh [-t SECONDS] [-n] [NAME...]
#   -t SECONDS  run each target this long instead (make check: -t 5)
# FUZZ_MAX_SECONDS caps each FUZZ_RUNS run in time too (whichever ends
# first; the line then says how many runs were done).
#   -n          do not build (the targets are already built)
#   NAME        only these targets (fuzz_cpuset, ...)
# Exit status 1 when a target fails (a crash, a sanitizer report, a leak).

set -uo pipefail
. "$(dirname "$0")/common.sh"

fuzz_out=$CPUMGR_OUT/fuzz
runs=${FUZZ_RUNS:-10000000}
seconds=
build=1

# Seeds: fixture files, or literals one a file.
seed_files()
{
	case $1 in
	fuzz_pod) ls "$CPUMGR_TOP"/user/tests/data/pods/* "$CPUMGR_TOP"/examples/pods/* ;;
	fuzz_kubeletconfig) ls "$CPUMGR_TOP"/user/tests/data/kubelet/* ;;
	fuzz_checkpoint) ls "$CPUMGR_TOP"/user/tests/data/checkpoint/*.json ;;
	fuzz_plan) ls "$CPUMGR_TOP"/examples/plan/*.json | grep -v '\.expected\.json$' ;;
	esac
}

seed_literals()
{
	case $1 in
	fuzz_cpuset)
		printf '%s\n' '0-3,8' '0-15:2/4' '1,3-5' '0' '8191' '0-8191:3/7' \
			'2-3,6-7' ' 1' '0-' ;;
	fuzz_quantity)
		printf '%s\n' 2 1500m 0.5 2e3m 1Gi 100Mi -1 1E .5 1e-3 0.001 \
			12345678901234567890 1Ki 1n 3.5u ;;
	esac
}

seed()
{
	local name=$1 dir=$2 f i=0 line

	mkdir -p "$dir"
	while read -r f; do
		[ -f "$f" ] && cp -n "$f" "$dir/seed-$(basename "$f")"
	done < <(seed_files "$name" 2>/dev/null)
	while IFS= read -r line; do
		i=$((i + 1))
		printf '%s' "$line" >"$dir/seed-literal-$i"
	done < <(seed_literals "$name")
	# the trailing newline sysfs files end with
	[ "$name" = fuzz_cpuset ] && printf '0-3\n' >"$dir/seed-newline"
	return 0
}

# The last status line libFuzzer printed, as "runs N ... corpus N".
stats()
{
	local log=$1

	awk '
	/^#[0-9]+\t/ {
		runs = substr($1, 2)
		for (i = 2; i <= NF; i++) {
			if ($i == "cov:") cov = $(i + 1)
			if ($i == "ft:") ft = $(i + 1)
			if ($i == "corp:") { split($(i + 1), c, "/"); corp = c[1] }
			if ($i == "exec/s:") eps = $(i + 1)
		}
	}
	/^Done [0-9]+ runs in/ { runs = $2; secs = $5 }
	END {
		printf "runs %s time %ss exec/s %s cov %s ft %s corpus %s\n",
			runs, secs, eps, cov, ft, corp
	}' "$log"
}

run_one()
{
	local name=$1 bin=$fuzz_out/fuzz/$1 dict=$CPUMGR_TOP/user/fuzz/$1.dict
	local corpus=$fuzz_out/corpus/$1 log=$fuzz_out/log/$1.log
	local -a args=(-artifact_prefix="$fuzz_out/artifacts/$name-" -print_final_stats=1)
	local status t0=$SECONDS

	seed "$name" "$corpus"
	mkdir -p "$fuzz_out/artifacts" "$fuzz_out/log"
	[ -e "$dict" ] && args+=(-dict="$dict")
	if [ -n "$seconds" ]; then
		args+=(-max_total_time="$seconds")
	else
		args+=(-runs="$runs")
		[ -n "${FUZZ_MAX_SECONDS:-}" ] &&
			args+=(-max_total_time="$FUZZ_MAX_SECONDS")
	fi
	nice -n 19 "$bin" "${args[@]}" "$corpus" >"$log" 2>&1
	status=$?
	# libFuzzer's own "Done N runs in N second(s)" rounds down: whole run
	printf '%s %s %s wall %ss\n' "$name" \
		"$([ $status = 0 ] && echo ok || echo FAILED)" \
		"$(stats "$log")" $((SECONDS - t0))
	if [ $status != 0 ]; then
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*: Assertion|artifact_prefix|Test unit written)' \
			"$log" | head -n 10 | sed 's/^/# /'
	fi
	return $status
}

main()
{
	local opt name status=0
	local -a names=()

	while getopts t:n opt; do
		case $opt in
		t) seconds=$OPTARG ;;
		n) build= ;;
		*) die "usage: scripts/fuzz.sh [-t SECONDS] [-n] [NAME...]" ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ -n "$build" ]; then
		"$CPUMGR_TOP/scripts/setup.sh" --no-kernels || exit 1
		make -s -C "$CPUMGR_TOP" fuzzers >/dev/null || die "fuzz targets do not build"
	fi
	if [ $# -gt 0 ]; then
		names=("$@")
	else
		for name in "$CPUMGR_TOP"/user/fuzz/fuzz_*.c; do
			names+=("$(basename "$name" .c)")
		done
	fi
	for name in "${names[@]}"; do
		run_one "$name" || status=1
	done
	return $status
}

main "$@"
