#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build cpumgr.ko for one kernel in build/kmod/NAME/: kbuild writes objects
# next to the sources, so each kernel gets its own copy of kmod/ and
# include/ (timestamps kept: rebuilds stay incremental).  The test modules
# of selftests/kmod/ go to build/kmod/NAME/testmod/.
#
# A kernel Debian built on another release than the host's (its
# fetch-kernel.sh "suite" file says which) is built for in that release's
# build root (scripts/build-root.sh), with the compiler and kbuild tools
# it was built with.
#
# Usage: scripts/build-module.sh NAME KDIR

set -euo pipefail
. "$(dirname "$0")/common.sh"

name=${1:?usage: build-module.sh NAME KDIR}
kdir=${2:?usage: build-module.sh NAME KDIR}
dest=$CPUMGR_OUT/kmod/$name

kernel_top=$(readlink -f "$(dirname "$kdir")")
suite=$(kernel_root_suite "$kernel_top")
[ -e "$kdir/Makefile" ] ||
	die "no kernel build tree at $kdir (scripts/setup.sh sets up the Debian kernels, scripts/build-debug-kernel.sh debug)"
# A different kernel tree (a rebuilt debug kernel) means a clean build.
kdir=$(readlink -f "$kdir")
if [ "$(cat "$dest/kdir" 2>/dev/null)" != "$kdir" ]; then
	rm -rf "$dest"
	mkdir -p "$dest"
	echo "$kdir" >"$dest/kdir"
fi
# make, on the host or in the kernel's build root
kmake()
{
	if [ -z "$suite" ]; then
		make "$@"
	else
		"$CPUMGR_TOP/scripts/build-root.sh" run "$suite" "$kernel_top" "$dest" -- make "$@"
	fi
}

mkdir -p "$dest/kmod" "$dest/include/uapi/linux"
cp -p "$CPUMGR_TOP"/kmod/Kbuild "$CPUMGR_TOP"/kmod/Makefile \
	"$CPUMGR_TOP"/kmod/*.[ch] "$dest/kmod/"
cp -p "$CPUMGR_TOP"/include/uapi/linux/*.h "$dest/include/uapi/linux/" 2>/dev/null || true
if ! kmake -C "$dest/kmod" KDIR="$kdir" >"$dest/build.log" 2>&1; then
	cat "$dest/build.log" >&2
	die "module build for $name failed"
fi
# Compiler warnings are errors here, whatever the kernel's flags say.
# Only the compiler's and modpost's own lines: under make -jN, make
# itself warns too ("jobserver unavailable"), which is not ours.
diagnostics()
{
	grep -vE '^g?make(\[[0-9]+\])?: ' "$1" | grep -E 'warning:|error:'
}
if diagnostics "$dest/build.log" >&2; then
	die "module build for $name has warnings"
fi
modinfo -F vermagic "$dest/kmod/cpumgr.ko" | cut -d' ' -f1 >"$dest/release"

# The same module taking itself for a series cpumgr does not know, in
# build/kmod/NAME/unknown/: load_unload sees it refused.  A copy of the
# build, so that only cpumgr_series.o is compiled again.
rm -rf "$dest/unknown"
cp -a "$dest/kmod" "$dest/unknown"
if ! kmake -C "$dest/unknown" KDIR="$kdir" CPUMGR_PRETEND_SERIES=1.0 \
	>"$dest/unknown.log" 2>&1 || diagnostics "$dest/unknown.log" >&2; then
	cat "$dest/unknown.log" >&2
	die "the unknown series' module for $name failed to build"
fi

# The selftests' test modules (selftests/kmod/) for the same kernel, in
# build/kmod/NAME/testmod/.
[ -e "$CPUMGR_TOP/selftests/kmod/Kbuild" ] || exit 0
mkdir -p "$dest/testmod"
cp -p "$CPUMGR_TOP"/selftests/kmod/Kbuild "$CPUMGR_TOP"/selftests/kmod/*.[ch] \
	"$dest/testmod/"
if ! kmake -C "$kdir" M="$dest/testmod" modules >"$dest/testmod.log" 2>&1; then
	cat "$dest/testmod.log" >&2
	die "test module build for $name failed"
fi
if diagnostics "$dest/testmod.log" >&2; then
	die "test module build for $name has warnings"
fi
