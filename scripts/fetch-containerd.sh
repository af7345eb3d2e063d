#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch containerd 2.x from Debian's newest suite (sid) with `apt-get
# download` under a private apt configuration (scripts/trixie-apt.sh's
# sid_apt_configure) into $CPUMGR_CACHE/debs/containerd/, for the node
# root (scripts/build-root.sh make node), where apt installs it.  Nothing
# is installed on the host.  Prints the .deb's path.
#
# CPUMGR_CONTAINERD pins the version: an upstream version (2.1.9, the
# default: sid's newest Debian revision of it) or a whole Debian version
# (2.1.9+ds1-5).  When sid no longer has it, the .deb already in the
# cache is kept; without one the fetch fails and names what sid has.
#
# Usage: scripts/fetch-containerd.sh

set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/trixie-apt.sh"

CPUMGR_CONTAINERD=${CPUMGR_CONTAINERD:-2.1.9}
dir=$CPUMGR_CACHE/debs/containerd

# The sid versions of containerd that the pin names, newest last.
matching()
{
	apt-cache madison containerd 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' |
		awk -v pin="$CPUMGR_CONTAINERD" '$0 == pin || index($0, pin "+") == 1 ||
			index($0, pin "-") == 1 || index($0, pin "~") == 1' | sort -V
}

# The newest cached .deb that the pin names.
cached()
{
	local f v

	for f in "$dir"/containerd_*_amd64.deb; do
		[ -e "$f" ] || continue
		v=$(dpkg-deb -f "$f" Version)
		case $v in
		"$CPUMGR_CONTAINERD"|"$CPUMGR_CONTAINERD"[+~-]*) echo "$v $f" ;;
		esac
	done | sort -V -k1,1 | tail -n 1 | cut -d' ' -f2
}

main()
{
	local version have

	sid_apt_configure
	version=$(matching | tail -n 1)
	if [ -z "$version" ]; then
		quietly "$CPUMGR_CACHE/log/sid-update.log" apt-get update || true
		version=$(matching | tail -n 1)
	fi
	have=$(cached)
	if [ -z "$version" ]; then
		[ -n "$have" ] || die "sid has no containerd $CPUMGR_CONTAINERD (it has: $(apt-cache madison containerd 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); printf "%s ", $2 }')); set CPUMGR_CONTAINERD"
		msg "cpumgr: sid has no containerd $CPUMGR_CONTAINERD any more; keeping $(basename "$have")"
		echo "$have"
		return 0
	fi
	if [ -z "$have" ] || [ "$(dpkg-deb -f "$have" Version)" != "$version" ]; then
		msg "cpumgr: fetching containerd $version from sid"
		mkdir -p "$dir"
		(cd "$dir" && quietly "$CPUMGR_CACHE/log/containerd-download.log" \
			apt-get download "containerd=$version") ||
			die "could not download containerd $version (log: $CPUMGR_CACHE/log/containerd-download.log)"
		have=$(cached)
	fi
	[ -n "$have" ] || die "containerd $version: no .deb in $dir"
	echo "$have"
}

main
