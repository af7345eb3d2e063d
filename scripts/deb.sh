#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make deb`: the Debian packages cpumgr, cpumgr-dev and cpumgr-dkms with debhelper
# and dh-dkms, from a copy of the checkout in build/deb/src (the tree
# stays clean), versioned by the module's CPUMGR_VERSION; then lintian.
# The .debs, .changes and .buildinfo land in build/deb/, lintian's
# report in build/deb/lintian.txt.

set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$CPUMGR_OUT/deb
cd "$CPUMGR_TOP"
version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' kmod/cpumgr.h)
[ -n "$version" ] || die "no CPUMGR_VERSION in kmod/cpumgr.h"
src=$out/src/cpumgr-$version

rm -rf "$out"
mkdir -p "$src"
# what the packages are built from: the working tree's files, committed
# or not, without the build output
# (scripts: subst.sh renders the units; examples: the unit tests' data)
tar -cf - Makefile debian doc contrib examples include kmod scripts user |
	tar -C "$src" -xf -

# debian/changelog (in the tree: dpkg-buildpackage works from a checkout)
# names the module's version
clver=$(dpkg-parsechangelog -l debian/changelog -S Version)
[ "$clver" = "$version" ] ||
	die "debian/changelog says $clver, kmod/cpumgr.h CPUMGR_VERSION $version: add a changelog entry (dch -v $version)"
# dated by the last commit
export SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)

# one job: the machine is shared (DEB_BUILD_OPTIONS may say otherwise)
(cd "$src" && DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-parallel=1} \
	dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	! grep -q 'Unmet build dependencies' "$out/build.log" ||
		die "dpkg-buildpackage: Build-Depends missing: make deb-deps installs them (apt-get build-dep ./)"
	die "dpkg-buildpackage failed (log: $out/build.log)"
}
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out/"

# lintian: clean, or each remaining tag overridden with its reason in
# debian/*.lintian-overrides; where it is not installed (it is no
# Build-Depends: the build needs none of it), skipped with a line
if ! command -v lintian >/dev/null; then
	echo "lintian: not installed, the packages were not checked (apt-get install lintian)" |
		tee "$out/lintian.txt" >&2
elif ! lintian --fail-on error,warning --info "$out"/*.changes >"$out/lintian.txt" 2>&1; then
	cat "$out/lintian.txt" >&2
	die "lintian found problems"
fi
ls "$out"/*.deb
