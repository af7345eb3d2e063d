#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/guest-faults.sh on the consoles of scripts/tests/guest-faults/
# (boot-gpf.console is a real 6.12 guest's, 2026-11-29; the others are
# made to match what such guests print): a boot whose init gave up after
# a fault the emulator made in busybox is booted again, and nothing else
# is: not a fault once the run script printed, not one beside a kernel
# WARNING, not a kernel's own general protection fault; the single-step
# #DB splat with EFLAGS no CPU has is set aside, and a real WARNING
# beside it is not.

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/scripts/tests/guest-faults
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/scripts/tests/ktap.sh"
. "$top/scripts/guest-faults.sh"

ktap_plan 6
: >"$tmp/empty.ktap"
printf '# selftest: topology\n' >"$tmp/started.ktap"

boot_broken_by_emulator "$tmp/empty.ktap" "$fixtures/boot-gpf.console"
result $? "busybox's fault in the init, nothing run yet: booted again"

! boot_broken_by_emulator "$tmp/started.ktap" "$fixtures/boot-gpf.console"
result $? "the same fault once the run script printed: a failure"

! boot_broken_by_emulator "$tmp/empty.ktap" "$fixtures/boot-gpf-warning.console"
result $? "the same fault beside a kernel WARNING: a failure"

! boot_broken_by_emulator "$tmp/empty.ktap" "$fixtures/kernel-gpf.console"
result $? "the kernel's own general protection fault in the boot: a failure"

emulator_splats "$tmp/aside.log" <"$fixtures/db-splat.console" >"$tmp/kept.log"
grep -q 'exc_debug_kernel' "$tmp/aside.log" &&
	! grep -q 'exc_debug_kernel' "$tmp/kept.log"
result $? "the #DB splat with EFLAGS 3fc00046 set aside"

grep -q 'update_cpumasks_hier' "$tmp/kept.log" &&
	grep -aqE "$SPLATS" "$tmp/kept.log"
result $? "the WARNING beside it kept, and counted as a splat"

ktap_done
