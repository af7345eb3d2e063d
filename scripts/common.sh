# SPDX-License-Identifier: GPL-2.0
# Shared by the scripts in this directory: paths, logging, the kernel list.
# Sourced, never run.

CPUMGR_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CPUMGR_CACHE=${CPUMGR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cpumgr}
export CPUMGR_CACHE

# Where build products of the checkout go (module per kernel, initramfs).
CPUMGR_OUT=${CPUMGR_OUT:-$CPUMGR_TOP/build}

# The kernels the project supports, by series: Debian's, as
# scripts/fetch-kernel.sh fetches them (its header says where Debian
# ships each), and "debug", 7.3 with PREEMPT_RT and the kernel's
# checkers, built locally from linux-source-7.3
# (scripts/build-debug-kernel.sh).  CPUMGR_KERNELS may name fewer.
CPUMGR_DEBIAN_KERNELS="6.1 6.12 6.12-rt 7.3 7.3-rt"
CPUMGR_KERNELS=${CPUMGR_KERNELS:-$CPUMGR_DEBIAN_KERNELS debug}

msg()
{
	printf '%s\n' "$*" >&2
}

die()
{
	printf 'cpumgr: %s\n' "$*" >&2
	exit 1
}

# Run a noisy command with its output kept in a log file; show the log's
# tail only when it fails.
quietly()
{
	local log=$1
	shift
	mkdir -p "$(dirname "$log")"
	if ! "$@" >"$log" 2>&1; then
		msg "cpumgr: '$*' failed; last lines of $log:"
		tail -n 30 "$log" >&2
		return 1
	fi
}

# stale_build TOP FILE...: the first FILE older than a file of TOP's
# checkout that the packages and the module are built from (tracked, or
# new and not ignored), as "FILE SOURCE"; nothing and 1 when none is, or
# TOP is no git checkout.
stale_build()
{
	local top=$1 newest f
	local -a sources=(kmod include user debian contrib 'doc/*.scd'
			  Makefile Kconfig)

	shift
	git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || return 1
	newest=$(cd "$top" &&
		{ git ls-files -z -- "${sources[@]}"
		  git ls-files -z -o --exclude-standard -- "${sources[@]}"; } |
		xargs -0 -r stat -c '%Y %n' 2>/dev/null | sort -n | tail -n 1)
	[ -n "$newest" ] || return 1
	for f in "$@"; do
		[ "$(stat -c %Y "$f")" -ge "${newest%% *}" ] && continue
		echo "$f ${newest#* }"
		return 0
	done
	return 1
}

# The directory holding the unpacked Debian kernel of a series (6.1, 7.3,
# ...) or the debug kernel, as recorded by fetch-kernel.sh / build-debug-kernel.sh.
kernel_dir()
{
	local link=$CPUMGR_CACHE/kernels/$1

	[ -e "$link/ready" ] || return 1
	readlink -f "$link"
}

# The Debian suite whose build root (scripts/build-root.sh) builds modules
# for the kernel in DIR (a kernel_dir): the suite fetch-kernel.sh says
# Debian built it on, when that is not the host's; nothing otherwise.
kernel_root_suite()
{
	local suite

	suite=$(cat "$1/suite" 2>/dev/null) || return 0
	[ "$suite" = "$(. /etc/os-release && echo "$VERSION_CODENAME")" ] || echo "$suite"
}
