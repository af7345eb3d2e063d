#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# cpumgr's packages installed into the node root (scripts/build-root.sh
# make node) for one kernel, with apt inside the root, as a layer that a
# node guest (guest-run.sh -N) boots over it: the node as it is after
# `apt-get install ./cpumgr-dkms_*.deb ./cpumgr_*.deb` on a Debian 13
# machine running that kernel.  cpumgr-dkms's postinst loads the build
# of `make check-host` (a binaries-only DKMS tarball) instead of
# compiling, and DKMS installs it and runs depmod.  Done on the host, in a
# mount namespace of its own (as the build root's chroot): under TCG the
# postinst's depmod alone decompresses every module of the kernel, 3 to
# 8 minutes a guest; here it takes seconds.
#
# Writes DIR/root.tar (the root's upper layer: guest-run.sh -U unpacks it
# under the guest's overlay root), DIR/modules.tar (the kernel's modules
# directory's upper layer: guest/node.sh unpacks it) and DIR/apt.log;
# made again when the packages, the DKMS build, the root or the kernel
# change, refused when the packages or the DKMS build are older than a
# source of the checkout (stale_build).  Nothing changes in the node
# root or the cache.
#
# Usage: scripts/node-layer.sh KERNEL DIR

set -euo pipefail
. "$(dirname "$0")/common.sh"

kernel=${1:?usage: node-layer.sh KERNEL DIR}
dir=${2:?usage: node-layer.sh KERNEL DIR}

version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' "$CPUMGR_TOP/kmod/cpumgr.h")
root=$("$CPUMGR_TOP/scripts/build-root.sh" path node)
kdir=$(kernel_dir "$kernel") || die "kernel $kernel is not set up (scripts/setup.sh)"
krel=$(cat "$kdir/release")
debs="$CPUMGR_OUT/deb/cpumgr-dkms_${version}_all.deb $(ls "$CPUMGR_OUT"/deb/cpumgr_"$version"_*.deb 2>/dev/null)"
prebuilt=$CPUMGR_OUT/check-host/dkms-binaries-$kernel.tar.gz

[ -e "$root/.cpumgr-root" ] || die "no node root in $root: scripts/build-root.sh make node"
for f in $debs; do
	[ -e "$f" ] || die "$f is missing: make deb"
done
[ -e "$prebuilt" ] || die "$prebuilt is missing: make check-host"
# built before a change of the checkout: the guest would run what was
# shellcheck disable=SC2086
if stale=$(stale_build "$CPUMGR_TOP" $debs "$prebuilt"); then
	die "${stale%% *} is older than ${stale#* }: make check-host (it builds the packages and the DKMS tarballs again)"
fi
[ "$(id -u)" = 0 ] || die "installing into the node root needs root"

# guests of one kernel at a time (make check runs two at once)
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock 9
# shellcheck disable=SC2086
stamp=$({ cat "$root/.cpumgr-root"; echo "$krel"; md5sum $debs "$prebuilt"; } |
	md5sum | cut -c1-8)
[ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ] && exit 0

rm -rf "$dir"
mkdir -p "$dir"/{root,modules}/{upper,work} "$dir/merged"
# The root an overlay of the node root, the kernel's modules directory
# one of the cache's, both written to DIR; the cache (headers) and the
# packages at their own paths, read-only.
# shellcheck disable=SC2016
unshare --mount --propagation private -- bash -euc '
	root=$1 dir=$2 kdir=$3 krel=$4 prebuilt=$5 version=$6 cache=$7 out=$8
	shift 8
	m=$dir/merged
	mount -t overlay overlay \
		-o "lowerdir=$root,upperdir=$dir/root/upper,workdir=$dir/root/work" "$m"
	# the tmpfs first: a checkout in /tmp is bound on top of it
	mount -t tmpfs tmpfs "$m/tmp"
	mkdir -p "$m/lib/modules/$krel" "$m$cache" "$m$out"
	mount -t overlay overlay \
		-o "lowerdir=$(readlink -f "$kdir/modules"),upperdir=$dir/modules/upper,workdir=$dir/modules/work" \
		"$m/lib/modules/$krel"
	mount --bind -o ro "$cache" "$m$cache"
	mount --bind -o ro "$out" "$m$out"
	mount --rbind /dev "$m/dev"
	mount -t proc proc "$m/proc"
	chroot "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive sh -ec "
		ln -sfn \"$(readlink -f "$kdir/build")\" /usr/src/linux-headers-$krel
		install -D -m 0644 $prebuilt /usr/share/cpumgr-dkms/cpumgr-$version.dkms.tar.gz
		apt-get install -y $*
	"
' node-layer "$root" "$dir" "$kdir" "$krel" "$prebuilt" "$version" \
	"$CPUMGR_CACHE" "$CPUMGR_OUT" $debs >"$dir/apt.log" 2>&1 || {
	tail -n 30 "$dir/apt.log" >&2
	die "could not install cpumgr's packages into the node root (log: $dir/apt.log)"
}
# the mount points made for the run are not the node's
rmdir -p "$dir/root/upper$CPUMGR_CACHE" "$dir/root/upper$CPUMGR_OUT" 2>/dev/null || true
tar -C "$dir/root/upper" -cf "$dir/root.tar" .
tar -C "$dir/modules/upper" -cf "$dir/modules.tar" .
rm -rf "$dir/root" "$dir/modules" "$dir/merged"
echo "$stamp" >"$dir/stamp"
