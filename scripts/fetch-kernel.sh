#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch one Debian kernel series with `apt-get download` into
# $CPUMGR_CACHE/kernels/<release>/ and unpack it with `dpkg -x`: image
# (and, from 7.x, the base, binary and modules packages it is split
# into), headers, common headers and kbuild.  Nothing is installed on the
# host.  $CPUMGR_CACHE/kernels/<series> then points at it, laid out as:
#   vmlinuz   the kernel image
#   build     the headers tree to build modules against (KDIR)
#   modules   lib/modules/<release> with modules.dep
#   release   uname -r of the guest
#   suite     the Debian release that built it: its kbuild tools and
#             compiler run in that release's build root
#             (scripts/build-root.sh) when it is not the host's
#
# The series, and where Debian ships them:
#   6.1       Debian 12 (bookworm)
#   6.12      Debian 13's series, from Debian 12's backports (-security)
#   6.12-rt   the same, PREEMPT_RT flavour
#   7.3       Debian 13's backports (trixie-backports)
#   7.3-rt    the same, PREEMPT_RT flavour
# Debian 13's packages are read through the private apt configuration of
# scripts/trixie-apt.sh.
#
# Usage: scripts/fetch-kernel.sh SERIES
# Set CPUMGR_KREL_<series> (e.g. CPUMGR_KREL_6_12=6.12.117+deb12-amd64,
# CPUMGR_KREL_7_3_RT=7.3.4+deb13-rt-amd64) to pin a release instead of
# taking the newest the archive offers.

set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/trixie-apt.sh"

series=${1:?usage: fetch-kernel.sh SERIES (one of $CPUMGR_DEBIAN_KERNELS)}

# The package name of a series' images and the Debian release of its
# build, e.g. "6\.1\.0-[0-9]+-amd64 bookworm".
series_pattern()
{
	case $1 in
	6.1)	echo '6\.1\.0-[0-9]+-amd64 bookworm' ;;
	6.12)	echo '6\.12\.[0-9]+\+deb12-amd64 bookworm' ;;
	6.12-rt) echo '6\.12\.[0-9]+\+deb12-rt-amd64 bookworm' ;;
	7.3)	echo '7\.3\.[0-9]+\+deb13-amd64 trixie' ;;
	7.3-rt)	echo '7\.3\.[0-9]+\+deb13-rt-amd64 trixie' ;;
	*)	die "unknown kernel series '$1' (one of $CPUMGR_DEBIAN_KERNELS)" ;;
	esac
}

# The newest amd64 kernel release of a series known to apt, e.g.
# 6.1.0-56-amd64 or 7.3.4+deb13-rt-amd64.
newest_release()
{
	local re

	re=$(series_pattern "$1" | cut -d' ' -f1)
	apt-cache pkgnames linux-image-"${1%-rt}". |
		grep -E "^linux-image-$re\$" | sort -V | tail -n 1 |
		sed 's/^linux-image-//'
}

# The packages a release is made of: image and headers, and what they
# depend on of the same build (linux-headers-*-common*, linux-kbuild-*,
# linux-base-*, linux-binary-*, linux-modules-*).
release_packages()
{
	local krel=$1

	echo "linux-image-$krel linux-headers-$krel"
	apt-cache depends "linux-image-$krel" "linux-headers-$krel" |
		sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\|base\|binary\|modules\)-.*\)$/\1/p' |
		sort -u
}

fetch()
{
	local krel=$1 dir=$2 suite=$3 pkgs mods image deb

	pkgs=$(release_packages "$krel")
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/debs"
	# shellcheck disable=SC2086
	(cd "$dir.tmp/debs" &&
	 quietly "$CPUMGR_CACHE/log/download-$krel.log" \
		apt-get download -o APT::Sandbox::User=root $pkgs) ||
		return 1
	for deb in "$dir.tmp"/debs/*.deb; do
		dpkg -x "$deb" "$dir.tmp/root" || return 1
	done
	rm -rf "$dir.tmp/debs"

	# The headers' Makefile includes the common headers by absolute path
	# (and from 7.x names itself as KBUILD_OUTPUT).
	sed -i "s#^\(include \|KBUILD_OUTPUT=\)/usr/src/#\1$dir/root/usr/src/#" \
		"$dir.tmp/root/usr/src/linux-headers-$krel/Makefile" || return 1
	# Up to 6.12 the modules are in /lib/modules and the image in /boot;
	# from 7.x both are in /usr/lib/modules/<release>.
	mods=lib/modules/$krel
	[ -d "$dir.tmp/root/$mods" ] || mods=usr/$mods
	image=boot/vmlinuz-$krel
	[ -e "$dir.tmp/root/$image" ] || image=$mods/vmlinuz
	[ -e "$dir.tmp/root/$image" ] || return 1
	# Debian runs depmod at install time; the guest's modprobe-free loader
	# reads modules.dep, so make it here.
	depmod -b "$dir.tmp/root/${mods%lib/modules/*}" "$krel" || return 1

	ln -s "root/$image" "$dir.tmp/vmlinuz"
	ln -s "root/usr/src/linux-headers-$krel" "$dir.tmp/build"
	ln -s "root/$mods" "$dir.tmp/modules"
	echo "$krel" >"$dir.tmp/release"
	echo "$suite" >"$dir.tmp/suite"
	touch "$dir.tmp/ready"
	mv "$dir.tmp" "$dir"
}

main()
{
	local var=CPUMGR_KREL_${series//[.-]/_}
	local krel suite dir

	var=${var^^}
	krel=${!var:-}
	suite=$(series_pattern "$series" | cut -d' ' -f2)
	if [ "$suite" = trixie ]; then
		trixie_apt_configure
		trixie_apt_has_lists || trixie_apt_update
	fi
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
		if ! fetch "$krel" "$dir" "$suite"; then
			kernel_dir "$series" >/dev/null ||
				die "could not download kernel $krel"
			msg "cpumgr: keeping the cached $series kernel"
			return 0
		fi
	fi
	ln -sfn "$krel" "$CPUMGR_CACHE/kernels/$series"
}

main
