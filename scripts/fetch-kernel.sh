#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch one Debian kernel series (6.1 or 6.12) with `apt-get download` into
# $CPUMGR_CACHE/kernels/<release>/ and unpack it with `dpkg -x`: image,
# headers, common headers and kbuild.  Nothing is installed on the host.
# $CPUMGR_CACHE/kernels/<series> then points at it, laid out as:
#   vmlinuz   the kernel image
#   build     the headers tree to build modules against (KDIR)
#   modules   lib/modules/<release> with modules.dep
#   release   uname -r of the guest
#
# Usage: scripts/fetch-kernel.sh 6.1|6.12
# Set CPUMGR_KREL_<series> (e.g. CPUMGR_KREL_6_12=6.12.117+deb12-amd64) to
# pin a release instead of taking the newest the archive offers.

set -euo pipefail
. "$(dirname "$0")/common.sh"

series=${1:?usage: fetch-kernel.sh 6.1|6.12}

# The newest amd64 kernel release of a series known to apt, e.g.
# 6.1.0-56-amd64 or 6.12.117+deb12-amd64.
newest_release()
{
	local re

	case $1 in
	6.1)	re='^linux-image-6\.1\.0-[0-9]+-amd64$' ;;
	6.12)	re='^linux-image-6\.12\.[0-9]+\+deb12-amd64$' ;;
	*)	die "unknown kernel series '$1' (6.1 or 6.12)" ;;
	esac
	apt-cache pkgnames linux-image-"$1". | grep -E "$re" | sort -V |
		tail -n 1 | sed 's/^linux-image-//'
}

# The header package's companions: linux-headers-*-common, linux-kbuild-*.
header_companions()
{
	apt-cache depends "linux-headers-$1" |
		sed -n 's/^ *Depends: \(linux-\(headers-.*-common\|kbuild-.*\)\)$/\1/p'
}

fetch()
{
	local krel=$1 dir=$2 pkgs

	pkgs="linux-image-$krel linux-headers-$krel $(header_companions "$krel")"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/debs"
	# shellcheck disable=SC2086
	(cd "$dir.tmp/debs" &&
	 quietly "$CPUMGR_CACHE/log/download-$krel.log" \
		apt-get download -o APT::Sandbox::User=root $pkgs) ||
		return 1
	for deb in "$dir.tmp"/debs/*.deb; do
		dpkg -x "$deb" "$dir.tmp/root"
	done
	rm -rf "$dir.tmp/debs"

	# The headers' Makefile includes the common headers by absolute path.
	sed -i "s#^include /usr/src/#include $dir/root/usr/src/#" \
		"$dir.tmp/root/usr/src/linux-headers-$krel/Makefile"
	# Debian runs depmod at install time; the guest's modprobe-free loader
	# reads modules.dep, so make it here.
	depmod -b "$dir.tmp/root" "$krel"

	ln -s "root/boot/vmlinuz-$krel" "$dir.tmp/vmlinuz"
	ln -s "root/usr/src/linux-headers-$krel" "$dir.tmp/build"
	ln -s "root/lib/modules/$krel" "$dir.tmp/modules"
	echo "$krel" >"$dir.tmp/release"
	touch "$dir.tmp/ready"
	mv "$dir.tmp" "$dir"
}

main()
{
	local var=CPUMGR_KREL_${series//./_}
	local krel=${!var:-} dir

	if [ -z "$krel" ]; then
		krel=$(newest_release "$series")
		if [ -z "$krel" ]; then
			quietly "$CPUMGR_CACHE/log/apt-update.log" apt-get update ||
				true
			krel=$(newest_release "$series")
		fi
	fi
	if [ -z "$krel" ]; then
		# Offline: keep using what the cache already has.
		kernel_dir "$series" >/dev/null &&
			return 0
		die "no linux-image-$series.* package known to apt"
	fi
	dir=$CPUMGR_CACHE/kernels/$krel
	if [ ! -e "$dir/ready" ]; then
		msg "cpumgr: fetching kernel $krel"
		if ! fetch "$krel" "$dir"; then
			kernel_dir "$series" >/dev/null ||
				die "could not download kernel $krel"
			msg "cpumgr: keeping the cached $series kernel"
			return 0
		fi
	fi
	ln -sfn "$krel" "$CPUMGR_CACHE/kernels/$series"
}

main
