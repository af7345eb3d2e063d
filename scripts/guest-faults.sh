# SPDX-License-Identifier: GPL-2.0
#
# What a guest's serial lines say of faults that the emulator (QEMU's
# TCG), not the kernel under test, made; sourced by guest-run.sh and
# tested by scripts/tests/guest-faults.sh on a real guest's console and
# on consoles made to match.

# Real splat signatures only: every boot under Skylake-Server-v4 prints
# benign lines with "WARNING" in them (RETBleed, MDS).  emulator_splats()
# sets aside one splat that only the emulator makes (below).
SPLATS='WARNING: CPU:|BUG:|Call Trace:|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|suspected memory leak|general protection fault|Kernel panic|Oops:|INFO: task .* blocked|watchdog: .* stuck'

# The console without the splats QEMU's TCG makes by itself; those go
# to the file $1.  Seen once in a hundred guests (6.12, containerd-shim
# in clone3): a single-step #DB in the kernel (exc_debug_kernel's
# WARNING) with EFLAGS holding bits 22-31, which no x86 CPU sets; the
# emulator had corrupted its flags, and no kernel code sets TF there
# (kprobes have not single-stepped since 5.14).
# A splat is set aside only when it is exactly that: the WARNING in
# exc_debug_kernel and an EFLAGS above 0x3fffff in the same splat.
emulator_splats()
{
	awk -v out="$1" '
	function flush(   i, tcg) {
		tcg = warn_db && bad_flags
		for (i = 1; i <= nb; i++)
			if (tcg)
				print block[i] > out
			else
				print block[i]
		nb = 0; inside = 0; warn_db = 0; bad_flags = 0
	}
	/-+\[ cut here \]-+/ { if (inside) flush(); inside = 1 }
	inside {
		block[++nb] = $0
		if (/WARNING: CPU:.* exc_debug_kernel/)
			warn_db = 1
		# above 0x3fffff: 7 hex digits or more, or 6 from 4 up
		# (mawk has no strtonum)
		if (match($0, /EFLAGS: 0*[0-9a-f]+/)) {
			v = substr($0, RSTART + 8, RLENGTH - 8)
			sub(/^0+/, "", v)
			if (length(v) > 6 || (length(v) == 6 && v ~ /^[4-9a-f]/))
				bad_flags = 1
		}
		if (/---\[ end trace/)
			flush()
		next
	}
	{ print }
	END { if (inside) flush() }'
}

# KTAP CONSOLE: whether the guest's init gave up (could not mount or
# boot its root) before the run script printed anything, so that
# nothing was tested and the module not even loaded, after busybox took
# a general protection fault in user space, and the kernel reported
# nothing else.  Seen on 6.12 under TCG (2026-11-29, once in 21 guests;
# likely CI's two unnamed failures of the same day): the fault on the
# compare after the syscall that forked the process, which no CPU
# makes.  Such a boot is made again, once, and says so in the KTAP.
boot_broken_by_emulator()
{
	[ ! -s "$1" ] &&
		grep -aqE '^cpumgr-init: cannot (mount the host root|boot |unpack |mount the overlay root)' "$2" &&
		grep -aqE 'traps: [^ ]+\[[0-9]+\] general protection fault .* in busybox' "$2" &&
		! grep -av 'traps: ' "$2" | grep -aqE "$SPLATS"
}
