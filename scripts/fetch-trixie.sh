#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch the Debian 13 (trixie) packages the runtime tests need with
# scripts/fetch-debs.sh (`apt-get download`, `dpkg -x`, into
# $CPUMGR_CACHE/debs/trixie/root), under the private apt configuration
# of scripts/trixie-apt.sh.  Nothing is installed on the host.
#
#   containerd                              1.7 (NRI), bin/ and the shim
#   golang-github-containerd-nri-dev        NRI's api.proto
#   golang-github-kubernetes-cri-api-dev    the CRI's api.proto
#   golang-github-gogo-protobuf-dev         gogo.proto, which the CRI imports
#   golang-github-containerd-ttrpc-dev      ttrpc's request.proto (the RPC envelope)
#
# and from Debian's newest suite, sid, under its own private apt
# configuration, into $CPUMGR_CACHE/debs/sid-nri/root:
#   golang-github-containerd-nri-dev        the newest NRI api.proto Debian
#                                           ships, version CPUMGR_SID_NRI
# (scripts/nri-proto-check.py compares cpumgr's NRI messages with both).
#
# The lists are fetched when there are none or a download fails with the
# ones there.
# Prints the root's path.  Usage: scripts/fetch-trixie.sh [-q]

set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/trixie-apt.sh"

pkgs="containerd golang-github-containerd-nri-dev
golang-github-kubernetes-cri-api-dev golang-github-gogo-protobuf-dev
golang-github-containerd-ttrpc-dev"
CPUMGR_SID_NRI=${CPUMGR_SID_NRI:-0.8.0-1}

# The sid package, its lists fetched when there are none or the
# download fails with the ones there.
fetch_sid()
{
	local fetch=$CPUMGR_TOP/scripts/fetch-debs.sh
	local pkg=golang-github-containerd-nri-dev=$CPUMGR_SID_NRI

	sid_apt_configure
	if ls "$sid_apt_dir"/state/lists/*_sid_*Packages* >/dev/null 2>&1 &&
	   "$fetch" sid-nri "$pkg" 2>/dev/null; then
		return 0
	fi
	[ "${1:-}" = -q ] || msg "cpumgr: fetching Debian sid's package lists"
	quietly "$CPUMGR_CACHE/log/sid-update.log" apt-get update ||
		die "could not fetch Debian sid's package lists (log: $CPUMGR_CACHE/log/sid-update.log)"
	"$fetch" sid-nri "$pkg"
}

main()
{
	local fetch=$CPUMGR_TOP/scripts/fetch-debs.sh

	trixie_apt_configure
	# shellcheck disable=SC2086
	if ! trixie_apt_has_lists ||
	   ! "$fetch" trixie $pkgs 2>/dev/null; then
		[ "${1:-}" = -q ] || msg "cpumgr: fetching Debian 13's package lists"
		trixie_apt_update
		# shellcheck disable=SC2086
		"$fetch" trixie $pkgs
	fi
	fetch_sid "$@" >/dev/null
}

main "$@"
