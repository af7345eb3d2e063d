#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: set up what is missing, build everything, run the
# userspace unit tests, then the selftests in QEMU guests as
# selftests/plan lists them (kernel x preset x selftests), two guests at a
# time.  Prints one KTAP document and ends with "N passed, N failed,
# N skipped" (scripts/ktap-summary.awk: a result missing from a plan is
# a failure), each failed result named just before it: CI shows a log's
# tail only.  The selftests see CPUMGR_CHECK=1: what scripts/setup.sh
# installs is there, and a selftest missing it fails instead of skipping.
#
# Environment:
#   CPUMGR_JOBS     guests run at once (default 2)
#   CPUMGR_PLAN     plan file (default selftests/plan)
#   CPUMGR_KERNELS  only plan lines of these kernels (default: all)
#   CPUMGR_NO_UNIT  set to skip the unit tests
#   CPUMGR_NO_SAN   set to skip the sanitizer phase (unit tests under
#                   ASan+UBSan, a short run of every fuzz target)
#   CPUMGR_FUZZ_SECONDS  each fuzz target's run (default 5)
#   CPUMGR_NO_HOST  set to skip make lint and the host checks

set -uo pipefail
. "$(dirname "$0")/common.sh"

plan=${CPUMGR_PLAN:-$CPUMGR_TOP/selftests/plan}
jobs=${CPUMGR_JOBS:-2}
results=$CPUMGR_OUT/check
start=$SECONDS

phase_time()
{
	printf '# time: %s %ds\n' "$1" $((SECONDS - $2))
}

# Indent a KTAP document under one result line of ours.
subtest()
{
	local num=$1 name=$2 status=$3 file=$4

	sed 's/^/    /' "$file"
	if [ "$status" = 0 ]; then
		echo "ok $num $name"
	else
		echo "not ok $num $name"
	fi
}

plan_lines()
{
	local k

	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$plan" | while read -r k rest; do
		if [ -z "${CPUMGR_KERNELS:-}" ] || [[ " $CPUMGR_KERNELS " == *" $k "* ]]; then
			echo "$k $rest"
		fi
	done
}

run_guest_line()
{
	local idx=$1 kernel=$2 preset=$3
	shift 3
	local dir=$results/guest-$idx-$kernel-$preset

	"$CPUMGR_TOP/scripts/guest-run.sh" -q -k "$kernel" -p "$preset" \
		-o "$dir" "$@" >/dev/null 2>"$dir.err"
	echo $? >"$dir.status"
}

# make lint and scripts/check-host.sh, each one result
host_checks()
{
	# what CI would otherwise not see: checkpatch --strict, cppcheck, the
	# library's layering, the files generated from the YNL spec, the man
	# pages against the code
	t0=$SECONDS
	num=$((num + 1))
	make -s -C "$CPUMGR_TOP" lint >"$results/lint.log" 2>&1
	status=$?
	sed 's/^/# /' "$results/lint.log" >"$results/lint.ktap"
	subtest $num "lint: checkpatch, cppcheck, layers, generated files, man pages" \
		$status "$results/lint.ktap"
	phase_time "lint" "$t0"

	# the node integration, host only: unit, man pages, packages, DKMS
	t0=$SECONDS
	num=$((num + 1))
	"$CPUMGR_TOP/scripts/check-host.sh" >"$results/host.ktap" 2>&1
	subtest $num "host: packages, systemd, man pages" $? "$results/host.ktap"
	phase_time "host checks" "$t0"
}

main()
{
	local t0 num=0 status kernels idx line
	local -a lines

	rm -rf "$results"
	mkdir -p "$results"
	echo "TAP version 13"

	t0=$SECONDS
	"$CPUMGR_TOP/scripts/setup.sh" || die "set-up failed"
	mapfile -t lines < <(plan_lines)
	kernels=$(printf '%s\n' "${lines[@]}" | awk '{ print $1 }' | sort -u)
	if grep -qx debug <<<"$kernels"; then
		"$CPUMGR_TOP/scripts/build-debug-kernel.sh" || die "debug kernel build failed"
	fi
	phase_time "set-up" "$t0"

	t0=$SECONDS
	make -s -C "$CPUMGR_TOP" build-all KERNELS="$(echo $kernels)" \
		>"$results/build.log" 2>&1 || {
		tail -n 40 "$results/build.log" | sed 's/^/# /'
		echo "not ok 1 build"
		echo "1..1"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	}
	phase_time "build" "$t0"

	# the runner's own test: what counts the results below
	num=$((num + 1))
	bash "$CPUMGR_TOP/scripts/tests/ktap-summary.sh" >"$results/runner.ktap" 2>&1
	subtest $num "runner: each selftest held to its plan (scripts/tests/ktap-summary.sh)" \
		$? "$results/runner.ktap"
	num=$((num + 1))
	bash "$CPUMGR_TOP/scripts/tests/guest-faults.sh" >"$results/faults.ktap" 2>&1
	subtest $num "runner: the emulator's faults told from the kernel's (scripts/tests/guest-faults.sh)" \
		$? "$results/faults.ktap"

	if [ -z "${CPUMGR_NO_UNIT:-}" ]; then
		t0=$SECONDS
		for t in "$CPUMGR_OUT"/user/tests/test_*; do
			[ -x "$t" ] || continue
			num=$((num + 1))
			(cd "$CPUMGR_TOP" && "$t") >"$results/unit.ktap" 2>&1
			status=$?
			[ $status = 4 ] && status=0
			subtest $num "unit: $(basename "$t")" $status "$results/unit.ktap"
		done
		phase_time "unit tests" "$t0"
	fi

	# The unit tests again in an ASan+UBSan build (build/user-san), then
	# each libFuzzer target for a few seconds on its kept corpus.
	if [ -z "${CPUMGR_NO_SAN:-}" ]; then
		t0=$SECONDS
		if make -s -C "$CPUMGR_TOP" user-san fuzzers \
			>"$results/san-build.log" 2>&1; then
			for t in "$CPUMGR_OUT"/user-san/tests/test_*; do
				[ -x "$t" ] || continue
				num=$((num + 1))
				(cd "$CPUMGR_TOP" && "$t") >"$results/san.ktap" 2>&1
				status=$?
				[ $status = 4 ] && status=0
				subtest $num "unit (ASan, UBSan): $(basename "$t")" \
					$status "$results/san.ktap"
			done
			for t in "$CPUMGR_TOP"/user/fuzz/fuzz_*.c; do
				t=$(basename "$t" .c)
				num=$((num + 1))
				"$CPUMGR_TOP/scripts/fuzz.sh" -n \
					-t "${CPUMGR_FUZZ_SECONDS:-5}" "$t" 2>&1 |
					sed 's/^/# /' >"$results/fuzz.ktap"
				subtest $num "fuzz: $t" "${PIPESTATUS[0]}" \
					"$results/fuzz.ktap"
			done
		else
			tail -n 40 "$results/san-build.log" | sed 's/^/# /'
			num=$((num + 1))
			echo "not ok $num sanitizer and fuzz builds"
		fi
		phase_time "sanitizers and fuzzing" "$t0"
	fi

	[ -n "${CPUMGR_NO_HOST:-}" ] || host_checks

	t0=$SECONDS
	idx=0
	for line in "${lines[@]}"; do
		idx=$((idx + 1))
		printf '%s %s\n' "$idx" "$line"
	done | xargs -P "$jobs" -L 1 bash -c 'run_guest_line "$@"' _
	idx=0
	for line in "${lines[@]}"; do
		idx=$((idx + 1))
		set -- $line
		local dir=$results/guest-$idx-$1-$2
		num=$((num + 1))
		if [ ! -e "$dir/result.ktap" ]; then
			sed 's/^/# /' "$dir.err" 2>/dev/null
			echo "not ok $num guest: $line # did not run"
			continue
		fi
		subtest $num "guest: $line" "$(cat "$dir.status")" "$dir/result.ktap"
	done
	phase_time "guests" "$t0"
	phase_time "make check" "$start"
	echo "1..$num"
}

export -f run_guest_line
export results CPUMGR_TOP
export CPUMGR_CHECK=1

# A fresh clone has no build directory yet, and tee must not lose the log.
mkdir -p "$CPUMGR_OUT"
main | tee "$results.ktap.tmp"
mv "$results.ktap.tmp" "$results.ktap"
awk -v list=1 -f "$CPUMGR_TOP/scripts/ktap-summary.awk" "$results.ktap"
