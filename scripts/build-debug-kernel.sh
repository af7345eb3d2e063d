#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug kernel (KASAN, lockdep, kmemleak, UBSAN, list debugging,
# PREEMPT_RT) from Debian's linux-source-7.3, the newest series cpumgr
# supports: x86_64_defconfig + kvm_guest.config +
# scripts/kconfig/debug.config + scripts/kconfig/debug-rt.config.  The
# source package comes from Debian 13's backports through the private apt
# configuration (scripts/trixie-apt.sh: `apt-get download`, unpacked in
# the cache, never installed).  The kernel and the module built against
# it are both compiled by the host's gcc, so they agree on the compiler.
# The result is cached under $CPUMGR_CACHE/kernels/debug-<hash>, the hash
# covering the source version and the config fragments, and
# $CPUMGR_CACHE/kernels/debug points at it:
#   vmlinuz   bzImage
#   build     the object tree to build modules against (KDIR)
#   release   uname -r of the guest
# A first build takes 10 to 15 minutes on 2 quiet cores (estimated: 6.1's
# took 8; this one took an hour on 2026-11-27 beside QEMU guests); later
# calls return at once.
#
# Usage: scripts/build-debug-kernel.sh

set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/trixie-apt.sh"

series=7.3
fragments=("$CPUMGR_TOP/scripts/kconfig/debug.config"
	   "$CPUMGR_TOP/scripts/kconfig/debug-rt.config")
debs=$CPUMGR_CACHE/debs/linux-source-$series

# linux-source-7.3's .deb, downloaded once; its version on stdout.
fetch_source()
{
	local deb

	deb=$(ls "$debs"/linux-source-"$series"_*_all.deb 2>/dev/null | tail -n 1)
	if [ -z "$deb" ]; then
		trixie_apt_configure
		trixie_apt_has_lists || trixie_apt_update
		mkdir -p "$debs"
		(cd "$debs" &&
		 quietly "$CPUMGR_CACHE/log/download-linux-source-$series.log" \
			apt-get download -o APT::Sandbox::User=root \
				"linux-source-$series") ||
			die "could not download linux-source-$series"
		deb=$(ls "$debs"/linux-source-"$series"_*_all.deb | tail -n 1)
	fi
	dpkg-deb -f "$deb" Version
}

config_hash()
{
	{
		echo "$1"
		cat "${fragments[@]}"
	} | sha256sum | cut -c1-12
}

build()
{
	local dir=$1 version=$2 src=$CPUMGR_CACHE/src/$series-full
	local log=$CPUMGR_CACHE/log/debug-kernel.log

	if [ ! -e "$src/.unpacked-$version" ]; then
		msg "cpumgr: unpacking linux-source-$series $version"
		rm -rf "$src" "$debs/root"
		mkdir -p "$src"
		dpkg -x "$debs"/linux-source-"$series"_*_all.deb "$debs/root"
		tar -C "$src" --strip-components=1 \
			-xJf "$debs/root/usr/src/linux-source-$series.tar.xz"
		rm -rf "$debs/root"
		touch "$src/.unpacked-$version"
	fi

	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/build"
	msg "cpumgr: building the debug kernel (about 15 minutes on 2 cores; log: $log)"
	quietly "$log" make -C "$src" O="$dir.tmp/build" x86_64_defconfig
	(cd "$dir.tmp/build" &&
	 quietly "$log.merge" "$src/scripts/kconfig/merge_config.sh" -m \
		.config "$src/kernel/configs/kvm_guest.config" "${fragments[@]}")
	quietly "$log.olddefconfig" make -C "$src" O="$dir.tmp/build" \
		olddefconfig
	check_config "$dir.tmp/build/.config"
	quietly "$log" make -C "$src" O="$dir.tmp/build" -j"$(nproc)" \
		bzImage modules
	make -s -C "$src" O="$dir.tmp/build" kernelrelease >"$dir.tmp/release"
	ln -s build/arch/x86/boot/bzImage "$dir.tmp/vmlinuz"
	# From 7.x the object tree's Makefile names its own path
	# (KBUILD_OUTPUT): where it will be, not where it was built.
	sed -i "s#^\(export KBUILD_OUTPUT = \).*#\1$dir/build#" \
		"$dir.tmp/build/Makefile"
	touch "$dir.tmp/ready"
	mv "$dir.tmp" "$dir"
}

# Refuse a config where Kconfig silently dropped one of our options (an
# unmet dependency): the debug kernel would then not check what we think.
check_config()
{
	local config=$1 line name value bad=0

	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			name=${line%%=*}
			value=${line#*=}
			grep -qx "$name=$value" "$config" || {
				msg "cpumgr: debug kernel config: $line did not take"
				bad=1
			}
			;;
		"# CONFIG_"*" is not set")
			name=${line#\# }
			name=${name%% *}
			! grep -q "^$name=" "$config" || {
				msg "cpumgr: debug kernel config: $name is still set"
				bad=1
			}
			;;
		esac
	done < <(cat "${fragments[@]}")
	[ $bad = 0 ] || die "debug kernel config is not what ${fragments[*]} ask for"
}

main()
{
	local dir version

	version=$(fetch_source)
	dir=$CPUMGR_CACHE/kernels/debug-$(config_hash "$version")
	[ -e "$dir/ready" ] || build "$dir" "$version"
	ln -sfn "$(basename "$dir")" "$CPUMGR_CACHE/kernels/debug"
}

main
