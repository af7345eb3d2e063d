#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian build root for kernels that Debian built on another release
# than the host's: Debian 13's kernels (7.3) were built with its gcc-14
# against glibc 2.41, and so were their kbuild tools (fixdep, modpost,
# objtool), which do not run on Debian 12.  Modules for them are built
# here as Debian 13 itself builds them (DKMS on a Debian 13 node): the
# same compiler, binutils and pahole, from the same archive.
#
# The bookworm root is a Debian 12 build chroot as sbuild makes one:
# build-essential and debian/control's Build-Depends (apt-get build-dep),
# nothing else, for `make check`'s package build without network
# (scripts/check-host.sh).
#
# The root is made once with mmdebstrap (as sbuild does), under
# $CPUMGR_CACHE/roots/SUITE, from the archive the host's own sources
# name; it is made again when its package list (bookworm: the
# Build-Depends) changes.  Nothing is installed on the host.
#
#   build-root.sh make SUITE           make the root if it is missing
#   build-root.sh run [--no-network] [--ephemeral] SUITE DIR... -- COMMAND...
#       run COMMAND in the root (its own mount namespace, chroot) with
#       each DIR mounted at the same path as on the host, and /proc,
#       /dev and /sys (as sbuild's chroots have them: the unit tests read
#       /sys/fs/cgroup); the current directory is kept.  --no-network: in a
#       network namespace of its own too, which has a loopback device
#       and nothing else, as sbuild builds.  --ephemeral: the root is the
#       lower layer of an overlay on a tmpfs, so what COMMAND writes
#       outside the DIRs goes with it (sbuild's chroots start clean).
# SUITE: trixie, bookworm.

set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/trixie-apt.sh"

# What a module build needs: the compiler the kernel's headers name
# (gcc-14-for-host: x86_64-linux-gnu-gcc-14) and the assembler it runs
# (binutils: as), make, and the libraries
# and tools of linux-kbuild's dependencies; and Debian 13's own DKMS,
# which builds cpumgr-dkms's prebuilt modules for these kernels as a
# Debian 13 node would (scripts/check-host.sh).
ROOT_PACKAGES="gcc-14-for-host binutils make libc6-dev libelf1t64 libssl3t64 zlib1g pahole kmod dkms"

usage()
{
	sed -n '/^#   build-root.sh make/,/^# SUITE/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

root_dir()
{
	case $1 in
	trixie|bookworm) echo "$CPUMGR_CACHE/roots/$1" ;;
	*) die "unknown build root suite '$1' (trixie, bookworm)" ;;
	esac
}

# debian/control's Build-Depends field, one line
build_depends()
{
	sed -n '/^Build-Depends:/,/^[^ ]/{/^Build-Depends:/p; /^ /p}' \
		"$CPUMGR_TOP/debian/control" | sed 's/^Build-Depends://' | tr -s ' \n' ' '
}

make_root()
{
	local suite=$1 root uri stamp
	local -a args

	root=$(root_dir "$suite")
	case $suite in
	trixie)
		stamp=$(printf '%s\n' "$suite" $ROOT_PACKAGES | md5sum | cut -c1-8)
		args=(--variant=minbase --include="${ROOT_PACKAGES// /,}")
		;;
	bookworm)
		# debian/control alone, where apt-get build-dep finds it
		stamp=$(printf '%s\n' "$suite" "$(build_depends)" | md5sum | cut -c1-8)
		args=(--variant=buildd
		      --customize-hook='mkdir -p "$1/tmp/cpumgr-control/debian"'
		      --customize-hook="copy-in $CPUMGR_TOP/debian/control /tmp/cpumgr-control/debian"
		      --customize-hook='chroot "$1" apt-get build-dep -y --no-install-recommends /tmp/cpumgr-control'
		      --customize-hook='rm -rf "$1/tmp/cpumgr-control"'
		      --customize-hook='chroot "$1" apt-get clean')
		;;
	esac
	[ "$(cat "$root/.cpumgr-root" 2>/dev/null)" = "$stamp" ] && return 0
	command -v mmdebstrap >/dev/null ||
		die "mmdebstrap is missing (scripts/setup.sh installs it)"
	[ "$(id -u)" = 0 ] || die "making the $suite build root needs root"
	uri=$(trixie_debian_uri | head -n 1)
	[ -n "$uri" ] || die "no Debian archive in the host's apt sources"
	msg "cpumgr: making the Debian $suite build root in $root"
	rm -rf "$root.tmp"
	mkdir -p "$(dirname "$root")"
	quietly "$CPUMGR_CACHE/log/root-$suite.log" \
		mmdebstrap --mode=root "${args[@]}" "$suite" "$root.tmp" \
		"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" ||
		die "could not make the $suite build root (log: $CPUMGR_CACHE/log/root-$suite.log)"
	echo "$stamp" >"$root.tmp/.cpumgr-root"
	rm -rf "$root"
	mv "$root.tmp" "$root"
}

# The mounts and the chroot, in a mount namespace of their own: nothing
# stays mounted when the command ends (and with --no-network, in a
# network namespace with no device up).
run_in_root()
{
	local root d suite ephemeral=0
	local -a dirs=() unshare=(unshare --mount --propagation private)

	while :; do
		case ${1:-} in
		--no-network) unshare+=(--net) ;;
		--ephemeral) ephemeral=1 ;;
		*) break ;;
		esac
		shift
	done
	suite=$1
	shift

	root=$(root_dir "$suite")
	[ -e "$root/.cpumgr-root" ] || make_root "$suite"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		dirs+=("$(readlink -f "$1")")
		shift
	done
	[ "${1:-}" = -- ] || usage
	shift
	[ $# -gt 0 ] || usage
	[ "$(id -u)" = 0 ] || die "running in the $suite build root needs root"
	# shellcheck disable=SC2016
	"${unshare[@]}" -- bash -euc '
		root=$1 cwd=$2 ephemeral=$3
		shift 3
		if [ "$ephemeral" = 1 ]; then
			# the root read-only below a tmpfs that goes with the namespace
			tmp=$(mktemp -d)
			mount -t tmpfs tmpfs "$tmp"
			mkdir "$tmp/upper" "$tmp/work" "$tmp/root"
			mount -t overlay overlay -o "lowerdir=$root,upperdir=$tmp/upper,workdir=$tmp/work" "$tmp/root"
			root=$tmp/root
		fi
		mount --rbind /dev "$root/dev"
		mount -t proc proc "$root/proc"
		mount --rbind /sys "$root/sys"
		while [ "$1" != -- ]; do
			mkdir -p "$root$1"
			mount --bind "$1" "$root$1"
			shift
		done
		shift
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
			/bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
	' build-root "$root" "$PWD" "$ephemeral" "${dirs[@]}" -- "$@"
}

case ${1:-} in
make)	[ $# = 2 ] || usage; make_root "$2" ;;
run)	[ $# -ge 4 ] || usage; shift; run_in_root "$@" ;;
*)	usage ;;
esac
