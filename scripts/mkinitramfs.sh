#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the initramfs of the test guest for one kernel: busybox, our /init
# and the modules that kernel needs to mount the host's root over virtio
# 9p and an overlay root on it (guest-run.sh -O), decompressed and listed
# in load order.  Everything else the guest
# runs comes from the host's root filesystem.
#
# Usage: scripts/mkinitramfs.sh KERNEL OUTPUT

set -euo pipefail
. "$(dirname "$0")/common.sh"

kernel=${1:?usage: mkinitramfs.sh KERNEL OUTPUT}
output=${2:?usage: mkinitramfs.sh KERNEL OUTPUT}
kdir=$(kernel_dir "$kernel") || die "kernel $kernel is not set up (scripts/setup.sh)"

WANTED="9p 9pnet_virtio virtio_pci overlay"

# Append a module and, first, its dependencies to the load order.
declare -A seen
add_module()
{
	local name=$1 moddir=$2 entry path deps dep

	[ -z "${seen[$name]:-}" ] || return 0
	seen[$name]=1
	grep -qE "/$name\.ko(\.[a-z]+)?$" "$moddir/modules.builtin" && return 0
	entry=$(grep -E "(^|/)$name\.ko(\.[a-z]+)?:" "$moddir/modules.dep") ||
		die "$kernel: module $name not found"
	path=${entry%%:*}
	deps=${entry#*:}
	for dep in $deps; do
		dep=$(basename "$dep")
		add_module "${dep%%.ko*}" "$moddir"
	done
	case $path in
	*.xz)	xz -dc "$moddir/$path" >"$stage/modules/$name.ko" ;;
	*.zst)	zstd -qdc "$moddir/$path" >"$stage/modules/$name.ko" ;;
	*)	cp "$moddir/$path" "$stage/modules/$name.ko" ;;
	esac
	echo "$name.ko" >>"$stage/modules/order"
}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,host,modules}
cp /bin/busybox "$stage/bin/busybox"
cp "$CPUMGR_TOP/scripts/guest/init" "$stage/init"
mknod "$stage/dev/console" c 5 1
if [ -d "$kdir/modules" ]; then
	for m in $WANTED; do
		add_module "$m" "$kdir/modules"
	done
fi
mkdir -p "$(dirname "$output")"
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$output.tmp"
mv "$output.tmp" "$output"
