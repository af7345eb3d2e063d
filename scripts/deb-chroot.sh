#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The packages built as Debian's build daemons build them: from a clone
# of the tree at HEAD (committed work only), in a Debian 12 chroot that
# holds build-essential and debian/control's Build-Depends and nothing
# else (scripts/build-root.sh bookworm, made again when the
# Build-Depends change; each build on a throwaway layer over it, so
# nothing a build leaves there reaches the next), with no network (a
# network namespace of its own: loopback only), `dpkg-buildpackage -b`,
# unit tests included.
# Whatever the build or its tests read outside the tree and the
# Build-Depends fails it.  No lintian here: `make deb` runs it.
# The .debs land in build/deb-chroot/, the log in
# build/deb-chroot/build.log; each package holds the files `make deb`'s
# does (when build/deb has them).  Needs root (chroot, namespaces).
#
# Usage: scripts/deb-chroot.sh

set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$CPUMGR_OUT/deb-chroot
rev=$(git -C "$CPUMGR_TOP" rev-parse HEAD) ||
	die "$CPUMGR_TOP is no git checkout: the build is made from a clone"

rm -rf "$out"
mkdir -p "$out"
"$CPUMGR_TOP/scripts/build-root.sh" make bookworm
git clone -q "$CPUMGR_TOP" "$out/src"
git -C "$out/src" checkout -q --detach "$rev"
echo "building $rev in the bookworm root, no network"

# in the chroot: loopback alone (/proc/net shows the process's own
# network namespace), then the build as a buildd runs it
cd "$out"
# shellcheck disable=SC2016
if ! "$CPUMGR_TOP/scripts/build-root.sh" run --no-network --ephemeral bookworm "$out" -- \
	env DEB_BUILD_OPTIONS=parallel=1 sh -ec '
		devs=$(awk -F: "NR > 2 { gsub(/ /, \"\", \$1); print \$1 }" /proc/net/dev)
		[ "$devs" = lo ] || { echo "network devices: $devs"; exit 1; }
		echo "network devices: $devs"
		cd src && dpkg-buildpackage -b -us -uc' >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log"
	die "dpkg-buildpackage in the network-less bookworm chroot failed (log: $out/build.log)"
fi
grep -m1 '^network devices:' "$out/build.log"
grep -E '^# [0-9]+ passed, [0-9]+ failed' "$out/build.log" || true

status=0
for p in cpumgr cpumgr-dev cpumgr-dkms; do
	deb=$(ls "$out"/${p}_*.deb 2>/dev/null) || { echo "no $p package"; status=1; continue; }
	echo "$deb"
	ref=$(ls "$CPUMGR_OUT"/deb/${p}_*.deb 2>/dev/null) || continue
	# the same files as make deb's (names, modes and links; not sizes)
	if ! diff -u <(dpkg-deb -c "$ref" | awk '{ print $1, $6, $7, $8 }') \
		<(dpkg-deb -c "$deb" | awk '{ print $1, $6, $7, $8 }'); then
		echo "$p: the chroot's package differs from make deb's"
		status=1
	fi
done
exit $status
