#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian packages from the host's own apt sources, unpacked and never
# installed: `apt-get download` into $CPUMGR_CACHE/debs/NAME/debs and
# `dpkg -x` of each into $CPUMGR_CACHE/debs/NAME/root.  Done again only
# when the list changes.  Prints the root.
#   kubectl  kubernetes-client, Debian's kubectl (the manifest check), next
#            to whatever kubectl the host may have
#   image    what `make image` puts under cpumgrctl (scripts/image.sh)
#
# Usage: scripts/fetch-debs.sh NAME PACKAGE...

set -euo pipefail
. "$(dirname "$0")/common.sh"

name=${1:?usage: fetch-debs.sh NAME PACKAGE...}
shift
[ $# -gt 0 ] || die "usage: fetch-debs.sh NAME PACKAGE..."
top=$CPUMGR_CACHE/debs/$name
wanted=$(printf '%s\n' "$@" | sort -u)

fetch()
{
	local tmp=$top.tmp deb

	rm -rf "$tmp"
	mkdir -p "$tmp/debs"
	# shellcheck disable=SC2086
	(cd "$tmp/debs" &&
	 quietly "$CPUMGR_CACHE/log/debs-$name.log" \
		apt-get download -o APT::Sandbox::User=root $wanted) || return 1
	for deb in "$tmp"/debs/*.deb; do
		dpkg -x "$deb" "$tmp/root"
	done
	echo "$wanted" >"$tmp/wanted"
	rm -rf "$top"
	mv "$tmp" "$top"
}

if [ ! -e "$top/wanted" ] || [ "$(cat "$top/wanted")" != "$wanted" ]; then
	msg "cpumgr: fetching Debian packages for $name: ${wanted//$'\n'/ }"
	fetch || die "could not fetch $name's packages (log: $CPUMGR_CACHE/log/debs-$name.log)"
fi
echo "$top/root"
