#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot one QEMU guest (TCG) on one kernel and one topology preset, run a
# list of selftests inside it and print the run as one KTAP document.
# The guest sees the host's root filesystem read-only (virtio 9p) and
# runs scripts/guest/run-tests.sh there; its output comes back over the
# second serial port while the kernel log goes to the first.
#
# The run fails (exit 1) on a test failure, on a timeout, when the guest
# dies before the end, and on any WARNING, BUG, KASAN, UBSAN, lockdep or
# "Call Trace" report in the guest's kernel log.
#
# Usage: scripts/guest-run.sh [options] [TEST...]
#   -k KERNEL   6.1 | 6.12 | 6.12-rt | 7.3 | 7.3-rt | debug (default 6.1)
#   -p PRESET   topology preset, see presets below (default smt8)
#   -t SECONDS  timeout (default 1800, 2400 on the debug kernel)
#   -T MODE     TCG threads: single (default: one host thread runs every
#               vCPU in turn) or multi (a host thread per vCPU)
#   -a ARGS     more kernel command line, after the runner's own (which
#               has mitigations=off: "-a mitigations=auto" undoes it)
#   -o DIR      where console.log and ktap.log go
#               (default build/guest/KERNEL-PRESET)
#   -r          run from a copy in RAM of what the selftests need (bash,
#               busybox, cpumgrctl, the module, the selftests) instead of
#               the host root: for selftests that suspend the guest
#               (virtio 9p has no resume)
#   -O          run in an overlay root: the host root under a tmpfs, a
#               writable root in RAM (packages install there)
#   -N          a node of today: boot the node root (Debian 13,
#               scripts/build-root.sh make node) in an overlay in RAM
#               instead of the host root, with cpumgr's packages
#               installed by apt (make deb, make check-host's DKMS build;
#               scripts/node-layer.sh, which refuses them when older
#               than the checkout's sources), then systemd boots it and runs
#               the selftests (scripts/guest/node.sh); the checkout, the
#               build and the cache appear at their host paths, read-only
#   -U TAR      with -O: unpack TAR, the upper layer an earlier -O guest
#               saved from /run/cpumgr-guest/upper, into the tmpfs first
#   -w          the output directory (-o) writable in the guest
#   -i INIT     after a run script that succeeded, INIT (e.g.
#               /lib/systemd/systemd) becomes the guest's init in the
#               run's root; what it starts ends the run (powers off and
#               prints "# cpumgr-guest: run script exited with N")
#   -m MB       guest memory (default 1024, 2048 on the debug kernel)
#   -s          give a shell in the guest on this terminal after the tests
#   -c SCRIPT   run this script (path in the checkout) instead of selftests
#   -q          do not stream the KTAP while the guest runs
#   -l          list the presets
# The module and the tests must be built already (make guest does it).

set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/guest-faults.sh"

# name | -smp | NUMA nodes as CPU ranges | what it looks like
PRESETS="
flat4|4,sockets=1,cores=4,threads=1||1 socket x 4 cores, no SMT, 1 NUMA node
smt8|8,sockets=2,cores=2,threads=2|0-3 4-7|2 sockets x 2 cores x 2 threads, 2 NUMA nodes
smt6of8|6,sockets=2,cores=2,threads=2,maxcpus=8|0-3 4-7|smt8 with CPUs 6-7 possible but not present (hot-pluggable), 2 NUMA nodes
numa16|16,sockets=2,dies=2,cores=2,threads=2|0-3 4-7 8-11 12-15|2 sockets x 2 dies x 2 cores x 2 threads, 4 NUMA nodes
big64|64,sockets=2,dies=2,cores=8,threads=2|0-15 16-31 32-47 48-63|2 sockets x 2 dies x 8 cores x 2 threads, 4 NUMA nodes
"

kernel=6.1 preset=smt8 timeout= out= shell= quiet= command=scripts/guest/run-tests.sh
tcg=single cmdline= ram_root= overlay= upper= writable_out= init= mem=
node_root=

# The guest mounts its own tmpfs on these; a host directory under one
# of them (a checkout in /tmp) is bound back over it in the guest.
TMPFS_DIRS="/tmp /run /var/tmp /dev/shm"

# PATH...: the ones under a guest tmpfs (every one when the guest boots
# the node root, which has none of them), the innermost left out when an
# outer one is kept, comma-separated for the kernel command line.
kept_paths()
{
	local p d k
	local -a keep=()

	for p in "$@"; do
		p=$(realpath -m "$p")
		for d in $TMPFS_DIRS; do
			case $p in
			"$d"/*) ;;
			*) [ -n "$node_root" ] || continue ;;
			esac
			case $p in
			*[[:space:],]*) die "$p: a path with a blank or a comma cannot be shared with the guest" ;;
			esac
			keep+=("$p")
			break
		done
	done
	for p in "${keep[@]}"; do
		for k in "${keep[@]}"; do
			case $p in
			"$k"/*) continue 2 ;;
			esac
		done
		echo "$p"
	done | sort -u | paste -sd, -
}

usage()
{
	sed -n '/^# Usage:/,/^# The module/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

list_presets()
{
	printf '%s\n' "$PRESETS" | awk -F'|' 'NF { printf "%-8s %s\n", $1, $4 }'
}

preset_field()
{
	printf '%s\n' "$PRESETS" | awk -F'|' -v p="$1" -v f="$2" '$1 == p { print $f }'
}

qemu_topology_args()
{
	local smp nodes mem_mb node_mb i=0 range

	smp=$(preset_field "$preset" 2)
	[ -n "$smp" ] || die "unknown preset '$preset' (try -l)"
	nodes=$(preset_field "$preset" 3)
	mem_mb=$1
	qemu_args+=(-smp "$smp" -m "${mem_mb}M")
	[ -n "$nodes" ] || return 0
	node_mb=$((mem_mb / $(wc -w <<<"$nodes")))
	for range in $nodes; do
		qemu_args+=(-object "memory-backend-ram,id=mem$i,size=${node_mb}M"
			    -numa "node,nodeid=$i,cpus=$range,memdev=mem$i")
		i=$((i + 1))
	done
}

# FILE...: the files and, for programs, the shared libraries they load.
with_libraries()
{
	local f

	for f in "$@"; do
		echo "$f"
		head -c 4 "$f" | grep -q ELF || continue
		ldd "$f" 2>/dev/null | grep -o '/[^ ]*' || true
	done
}

# SELFTEST...: an initramfs to append to the guest's, with what the run
# needs under /ram at the host's paths: guest/init runs from there
# instead of mounting the host root.  Anything opened over virtio 9p
# before a suspend hangs whoever closes it afterwards.
write_ram_root()
{
	local stage=$out/ram-root name f
	local -a files=(/bin/bash /bin/busybox "$CPUMGR_OUT/user/cpumgrctl"
			"$module" "$out/run.sh" "$out/env.sh" "$CPUMGR_TOP/$command"
			"$CPUMGR_TOP/selftests/sftest_lib.sh"
			"$CPUMGR_TOP/scripts/ktap-summary.awk")

	for name in "$@"; do
		for f in "$CPUMGR_OUT/selftests/$name" "$CPUMGR_TOP/selftests/$name.sh"; do
			[ -f "$f" ] && files+=("$f")
		done
	done
	rm -rf "$stage"
	mkdir -p "$stage/ram"
	with_libraries "${files[@]}" | sort -u |
		xargs cp -L --parents -t "$stage/ram" ||
		die "cannot copy the RAM root"
	mkdir -p "$stage"/ram/{proc,sys,dev,tmp,run,var/tmp,root}
	(cd "$stage" && find ram | cpio -o -H newc --quiet | gzip -1) \
		>"$out/ram-root.cpio.gz"
	rm -rf "$stage"
	# The kernel unpacks concatenated archives one after the other.
	cat "$CPUMGR_OUT/guest/initramfs-$kernel.cpio.gz" "$out/ram-root.cpio.gz" \
		>"$out/initramfs.cpio.gz"
	initrd=$out/initramfs.cpio.gz
}

write_run_script()
{
	local release=$1 module=$2
	shift 2

	# the selftests' environment, which make shell's shell reads too
	cat >"$out/env.sh" <<-EOF
	# Generated by scripts/guest-run.sh; sourced inside the guest.
	export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	export HOME=/root LANG=C.UTF-8
	export CPUMGR_TOP=$CPUMGR_TOP CPUMGR_CACHE=$CPUMGR_CACHE
	export CPUMGR_OUT=$CPUMGR_OUT CPUMGR_KERNEL=$kernel
	export CPUMGR_PRESET=$preset CPUMGR_MODULE=$module
	export CPUMGR_CHECK=${CPUMGR_CHECK:-}
	EOF
	cat >"$out/run.sh" <<-EOF
	# Generated by scripts/guest-run.sh; runs inside the guest.
	. "$out/env.sh"
	if [ "\$(uname -r)" != "$release" ]; then
		echo "not ok 1 guest kernel is \$(uname -r), expected $release"
		exit 1
	fi
	cd "\$CPUMGR_TOP"
	exec bash "\$CPUMGR_TOP/$command" $*
	EOF
}

# One boot of the guest, its serial lines in console.log and ktap.log;
# qemu's status.
boot()
{
	local qemu_pid status=0

	: >"$out/ktap.log"
	timeout --kill-after=10 "$timeout" qemu-system-x86_64 "${qemu_args[@]}" \
		-append "$append" 2>"$out/qemu.err" &
	qemu_pid=$!
	[ -n "$quiet" ] ||
		tail -n +1 -f --pid=$qemu_pid "$out/ktap.log" | tr -d '\r'
	wait $qemu_pid || status=$?
	sed -i 's/\r$//' "$out/ktap.log"
	return $status
}

# The selftests of run-tests.sh's arguments that printed no result of
# their own: a run script that could not start (exit 126 or 127) or a
# selftest that never ran is a failure, not a short pass.
silent_selftests()
{
	local name

	case $command in
	scripts/guest/run-tests.sh|scripts/guest/node.sh) ;;
	*) return 0 ;;
	esac
	for name in "$@"; do
		case $name in
		*=*) continue ;;
		esac
		grep -qE "^(not )?ok [0-9]+ $name([[:space:]]|\$)" "$out/ktap.log" ||
			printf ' %s' "$name"
	done
}

# Pass the in-guest KTAP through, then add the runner's own results and
# the plan (at the end, since only now is the count known).
finish_ktap()
{
	local status=$1 n splats silent

	shift

	n=$(grep -cE '^(not )?ok ' "$out/ktap.log" || true)
	silent=$(silent_selftests "$@")
	if [ -n "$silent" ]; then
		echo "not ok $((n + 1)) guest ran to the end # no result from:$silent"
	elif grep -q '^# cpumgr-guest: run script exited with [0-9]*$' "$out/ktap.log"; then
		echo "ok $((n + 1)) guest ran to the end"
	elif [ "$status" = 124 ]; then
		echo "not ok $((n + 1)) guest ran to the end # timed out after ${timeout}s"
	else
		echo "not ok $((n + 1)) guest ran to the end # no clean exit (qemu status $status)"
	fi
	splats=$(emulator_splats "$out/emulator-splats.log" <"$out/console.log" |
		grep -aE "$SPLATS" || true)
	if [ -s "$out/emulator-splats.log" ]; then
		echo "# set aside, made by the emulator (EFLAGS no CPU has): $(grep -c 'cut here' "$out/emulator-splats.log") single-step #DB splat(s), in $out/emulator-splats.log"
	fi
	if [ -z "$splats" ]; then
		echo "ok $((n + 2)) kernel log has no warnings"
	else
		printf '%s\n' "$splats" | head -n 20 | sed 's/^/# /'
		echo "not ok $((n + 2)) kernel log has no warnings # see $out/console.log"
	fi
	echo "# time: guest $((SECONDS - started))s"
	echo "1..$((n + 2))"
}

main()
{
	local opt kdir release module mem_mb=1024 status=0 initrd keep
	local -a qemu_args

	while getopts "k:p:t:T:a:o:c:ONU:wi:m:rsqlh" opt; do
		case $opt in
		k) kernel=$OPTARG ;;
		p) preset=$OPTARG ;;
		t) timeout=$OPTARG ;;
		T) tcg=$OPTARG ;;
		a) cmdline+=" $OPTARG" ;;
		o) out=$OPTARG ;;
		r) ram_root=1 ;;
		O) overlay=1 ;;
		N) node_root=$("$CPUMGR_TOP/scripts/build-root.sh" path node)
		   overlay=1 init=/lib/systemd/systemd
		   command=scripts/guest/node.sh ;;
		U) upper=$(realpath "$OPTARG") || die "-U $OPTARG: no such file" ;;
		w) writable_out=1 ;;
		i) init=$OPTARG ;;
		m) mem=$OPTARG ;;
		s) shell=1 ;;
		c) command=$OPTARG ;;
		q) quiet=1 ;;
		l) list_presets; exit 0 ;;
		*) usage ;;
		esac
	done
	shift $((OPTIND - 1))
	case $tcg in
	single|multi) ;;
	*) die "-T $tcg: not single or multi" ;;
	esac

	kdir=$(kernel_dir "$kernel") ||
		die "kernel '$kernel' is not set up: run scripts/setup.sh (and scripts/build-debug-kernel.sh for debug)"
	release=$(cat "$kdir/release")
	module=$CPUMGR_OUT/kmod/$kernel/kmod/cpumgr.ko
	[ -e "$module" ] || die "$module is missing: make module KVER=$kernel"
	if [ -n "$node_root" ]; then
		[ -e "$node_root/.cpumgr-root" ] ||
			die "no node root in $node_root: scripts/build-root.sh make node"
		"$CPUMGR_TOP/scripts/node-layer.sh" "$kernel" \
			"$CPUMGR_OUT/guest/node-layer-$kernel" || exit 1
		upper=$CPUMGR_OUT/guest/node-layer-$kernel/root.tar
	fi
	out=${out:-$CPUMGR_OUT/guest/$kernel-$preset}
	# The guest reads run.sh from there by its absolute path, over 9p.
	out=$(realpath -m "$out")
	keep=$(kept_paths "$out" "$CPUMGR_TOP" "$CPUMGR_OUT" "$CPUMGR_CACHE")
	[ "$kernel" = debug ] && mem_mb=2048
	[ "$preset" = big64 ] && mem_mb=$((mem_mb * 2))
	mem_mb=${mem:-$mem_mb}
	timeout=${timeout:-$([ "$kernel" = debug ] && echo 2400 || echo 1800)}

	# One host thread for all vCPUs by default.  Two guests at a time
	# then fill the two host cores without overcommitting them: with a
	# thread per vCPU, vCPUs spin on locks held by vCPUs the host is not
	# running, and cpumgrctl ran half as fast.  Multi-threaded TCG also
	# froze or crashed guests (a call to address 0 from the call site
	# being patched) when kprobes were placed on functions other vCPUs
	# were running.
	qemu_args=(-accel "tcg,thread=$tcg" -cpu Skylake-Server-v4
		   -kernel "$kdir/vmlinuz"
		   -display none -no-reboot -nodefaults
		   -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap")
	qemu_topology_args "$mem_mb"
	mkdir -p "$out"
	rm -f "$out/console.log" "$out/ktap.log" "$out/emulator-splats.log" \
		"$out/console-boot1.log"
	write_run_script "$release" "$module" "$@"
	initrd=$CPUMGR_OUT/guest/initramfs-$kernel.cpio.gz
	[ -z "$ram_root" ] || write_ram_root "$@"
	qemu_args+=(-initrd "$initrd")
	# Soft lockup and RCU stall detectors misfire when 2 host cores
	# emulate up to 64 vCPUs; panic on oops so a crash ends the run.
	# The IO-APIC timer check at boot can miss its window when the host
	# is busy ("IO-APIC + timer doesn't work!", a panic): skip it, as
	# KVM guests do.  ACPI's PCI interrupt routing (_PRT) runs into
	# ACPICA's 30 s loop timeout on the debug kernel: nothing here needs
	# it (virtio uses MSI-X, the serial ports ISA interrupts).  Spectre
	# and Meltdown mitigations cost a fifth of the time of a selftest
	# that starts many processes, in a guest that runs only our tests.
	# Selftests find the module's log lines by counting dmesg's lines:
	# the default ring buffer, 128 KiB, is less than one guest line's
	# log (7.3, 164 KB), and once full it drops lines from its start,
	# so a count pointed past the new ones.
	local append="console=ttyS0 panic=-1 oops=panic nowatchdog no_timer_check"
	append+=" acpi=noirq mitigations=off rcupdate.rcu_cpu_stall_suppress=1"
	append+=" log_buf_len=8M"
	append+=" cpumgr.run=$out/run.sh$cmdline"
	[ -z "$overlay" ] || append+=" cpumgr.overlay=1"
	[ -z "$upper" ] || append+=" cpumgr.upper=$upper"
	[ -z "$init" ] || append+=" cpumgr.init=$init"
	[ -z "$node_root" ] || append+=" cpumgr.root=$node_root"
	if [ -n "$writable_out" ]; then
		append+=" cpumgr.out=$out"
		qemu_args+=(-virtfs "local,path=$out,mount_tag=out,security_model=none")
	fi
	[ -z "$keep" ] || append+=" cpumgr.keep=$keep"

	if [ -n "$shell" ]; then
		append+=" cpumgr.shell=1"
		qemu_args+=(-serial mon:stdio -serial "file:$out/ktap.log")
		touch "$out/console.log"
		qemu-system-x86_64 "${qemu_args[@]}" -append "$append" 2>"$out/qemu.err" ||
			status=$?
		cat "$out/ktap.log"
		return $status
	fi

	qemu_args+=(-serial "file:$out/console.log" -serial "file:$out/ktap.log")
	started=$SECONDS
	{
		echo "TAP version 13"
		echo "# guest: kernel $kernel ($release), preset $preset: $(preset_field "$preset" 4)"
	} >"$out/head.log"
	[ -z "$quiet" ] && cat "$out/head.log"
	boot || status=$?
	if boot_broken_by_emulator "$out/ktap.log" "$out/console.log"; then
		mv "$out/console.log" "$out/console-boot1.log"
		echo "# the first boot failed in the guest's init before any test ran, busybox faulting in user space where no CPU would (TCG; $(grep -am1 -oE 'traps: .*' "$out/console-boot1.log" | tr -d '\r')): booted again, the first console in $out/console-boot1.log" >>"$out/head.log"
		[ -z "$quiet" ] && tail -n 1 "$out/head.log"
		status=0
		boot || status=$?
	fi
	finish_ktap "$status" "$@" >"$out/tail.log"
	[ -n "$quiet" ] || cat "$out/tail.log"
	cat "$out/head.log" "$out/ktap.log" "$out/tail.log" >"$out/result.ktap"
	! grep -q '^not ok ' "$out/result.ktap"
}

main "$@"
