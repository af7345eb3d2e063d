#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug kernel (KASAN, lockdep, kmemleak, UBSAN, list debugging)
# from Debian's linux-source-6.1: x86_64_defconfig + kvm_guest.config +
# scripts/kconfig/debug.config.  The result is cached under
# $CPUMGR_CACHE/kernels/debug-<hash>, the hash covering the source version
# and the config fragment, and $CPUMGR_CACHE/kernels/debug points at it:
#   vmlinuz   bzImage
#   build     the object tree to build modules against (KDIR)
#   release   uname -r of the guest
# A first build takes about 8 minutes on 2 cores; later calls return at
# once.
#
# Usage: scripts/build-debug-kernel.sh

set -euo pipefail
. "$(dirname "$0")/common.sh"

fragment=$CPUMGR_TOP/scripts/kconfig/debug.config

config_hash()
{
	{
		dpkg-query -W -f='${Version}\n' linux-source-6.1
		cat "$fragment"
	} | sha256sum | cut -c1-12
}

build()
{
	local dir=$1 src=$CPUMGR_CACHE/src/6.1-full
	local log=$CPUMGR_CACHE/log/debug-kernel.log
	local version

	version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
	if [ ! -e "$src/.unpacked-$version" ]; then
		msg "cpumgr: unpacking linux-source-6.1 $version"
		rm -rf "$src"
		mkdir -p "$src"
		tar -C "$src" --strip-components=1 \
			-xJf /usr/src/linux-source-6.1.tar.xz
		touch "$src/.unpacked-$version"
	fi

	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/build"
	msg "cpumgr: building the debug kernel (about 8 minutes on 2 cores; log: $log)"
	quietly "$log" make -C "$src" O="$dir.tmp/build" x86_64_defconfig
	(cd "$dir.tmp/build" &&
	 quietly "$log.merge" "$src/scripts/kconfig/merge_config.sh" -m \
		.config "$src/kernel/configs/kvm_guest.config" "$fragment")
	quietly "$log.olddefconfig" make -C "$src" O="$dir.tmp/build" \
		olddefconfig
	check_config "$dir.tmp/build/.config"
	quietly "$log" make -C "$src" O="$dir.tmp/build" -j"$(nproc)" \
		bzImage modules
	make -s -C "$src" O="$dir.tmp/build" kernelrelease >"$dir.tmp/release"
	ln -s build/arch/x86/boot/bzImage "$dir.tmp/vmlinuz"
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
	done <"$fragment"
	[ $bad = 0 ] || die "debug kernel config is not what $fragment asks for"
}

main()
{
	local dir

	dir=$CPUMGR_CACHE/kernels/debug-$(config_hash)
	[ -e "$dir/ready" ] || build "$dir"
	ln -sfn "$(basename "$dir")" "$CPUMGR_CACHE/kernels/debug"
}

main
