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
# The root is made once with mmdebstrap (as sbuild does), under
# $CPUMGR_CACHE/roots/SUITE, from the archive the host's own sources
# name; it is made again when its package list changes.  Nothing is
# installed on the host.
#
#   build-root.sh make SUITE           make the root if it is missing
#   build-root.sh run SUITE DIR... -- COMMAND...
#       run COMMAND in the root (its own mount namespace, chroot) with
#       each DIR mounted at the same path as on the host, and /proc,
#       /dev; the current directory is kept.
#   build-root.sh path SUITE           print the root's directory
# SUITE: trixie, or node: the root a node of today boots (below).
#
# The node root (roots/trixie-node) is a Debian 13 node's userspace, which
# guest-run.sh -N boots with systemd as PID 1: systemd, D-Bus (runc's
# systemd cgroup driver talks to systemd over it), udev (the devices
# systemd waits for, the serial console's), runc, containerd 2.x
# from sid (scripts/fetch-containerd.sh, pinned by CPUMGR_CONTAINERD),
# python3 with grpc (the CRI selftests' kubelet), busybox-static (their
# image), and what cpumgr's own packages depend on (DKMS, the libraries
# of cpumgrctl), which the guest installs with apt.  Made again when that
# list, containerd's .deb included, changes.

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
NODE_PACKAGES="systemd systemd-sysv udev dbus kmod procps runc python3 python3-grpcio python3-grpc-tools busybox-static dkms libcjson1 libnl-3-200 libnl-genl-3-200 libyaml-0-2 libprotobuf-c1 libsystemd0"

usage()
{
	sed -n '/^#   build-root.sh make/,/^# SUITE/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

root_dir()
{
	case $1 in
	trixie) echo "$CPUMGR_CACHE/roots/$1" ;;
	node) echo "$CPUMGR_CACHE/roots/trixie-node" ;;
	*) die "unknown build root suite '$1' (trixie, node)" ;;
	esac
}

# SUITE: what mmdebstrap installs into its root, one a line (a .deb's
# path for containerd in the node root).
root_packages()
{
	case $1 in
	trixie) printf '%s\n' $ROOT_PACKAGES ;;
	node)
		printf '%s\n' $NODE_PACKAGES
		"$CPUMGR_TOP/scripts/fetch-containerd.sh"
		;;
	esac
}

make_root()
{
	local suite=$1 root uri stamp pkgs p
	local -a include=()

	root=$(root_dir "$suite")
	pkgs=$(root_packages "$suite") || die "no package list for the $suite root"
	stamp=$(printf '%s\n' "$suite" $pkgs | md5sum | cut -c1-8)
	[ "$(cat "$root/.cpumgr-root" 2>/dev/null)" = "$stamp" ] && return 0
	for p in $pkgs; do
		include+=("--include=$p")
	done
	# containerd's .deb where dpkg in the root finds it too
	[ "$suite" != node ] ||
		include+=(--hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount)
	command -v mmdebstrap >/dev/null ||
		die "mmdebstrap is missing (scripts/setup.sh installs it)"
	[ "$(id -u)" = 0 ] || die "making the $suite build root needs root"
	uri=$(trixie_debian_uri | head -n 1)
	[ -n "$uri" ] || die "no Debian archive in the host's apt sources"
	msg "cpumgr: making the Debian 13 $suite root in $root"
	rm -rf "$root.tmp"
	mkdir -p "$(dirname "$root")"
	quietly "$CPUMGR_CACHE/log/root-$suite.log" \
		mmdebstrap --mode=root --variant=minbase "${include[@]}" \
		trixie "$root.tmp" \
		"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie main" ||
		die "could not make the $suite build root (log: $CPUMGR_CACHE/log/root-$suite.log)"
	echo "$stamp" >"$root.tmp/.cpumgr-root"
	rm -rf "$root"
	mv "$root.tmp" "$root"
}

# The mounts and the chroot, in a mount namespace of their own: nothing
# stays mounted when the command ends.
run_in_root()
{
	local suite=$1 root d
	local -a dirs=()
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
	unshare --mount --propagation private -- bash -euc '
		root=$1 cwd=$2
		shift 2
		mount --rbind /dev "$root/dev"
		mount -t proc proc "$root/proc"
		while [ "$1" != -- ]; do
			mkdir -p "$root$1"
			mount --bind "$1" "$root$1"
			shift
		done
		shift
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
			/bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
	' build-root "$root" "$PWD" "${dirs[@]}" -- "$@"
}

case ${1:-} in
make)	[ $# = 2 ] || usage; make_root "$2" ;;
path)	[ $# = 2 ] || usage; root_dir "$2" ;;
run)	[ $# -ge 4 ] || usage; shift; run_in_root "$@" ;;
*)	usage ;;
esac
