#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch the Debian 13 (trixie) packages the runtime tests need with
# scripts/fetch-debs.sh (`apt-get download`, `dpkg -x`, into
# $CPUMGR_CACHE/debs/trixie/root), under a private apt configuration
# (APT_CONFIG: its own sources list, lists and archives under
# $CPUMGR_CACHE/trixie-apt).  trixie is never added to the host's sources
# and nothing is installed on the host.
#
#   containerd                              1.7 (NRI), bin/ and the shim
#   golang-github-containerd-nri-dev        NRI's api.proto
#   golang-github-kubernetes-cri-api-dev    the CRI's api.proto
#   golang-github-gogo-protobuf-dev         gogo.proto, which the CRI imports
#   golang-github-containerd-ttrpc-dev      ttrpc's request.proto (the RPC envelope)
#
# The archive is the one the host's own sources name for Debian (its URI is
# read from /etc/apt at run time), with trixie as the suite.  The lists are
# fetched when there are none or a download fails with the ones there.
# Prints the root's path.  Usage: scripts/fetch-trixie.sh [-q]

set -euo pipefail
. "$(dirname "$0")/common.sh"

pkgs="containerd golang-github-containerd-nri-dev
golang-github-kubernetes-cri-api-dev golang-github-gogo-protobuf-dev
golang-github-containerd-ttrpc-dev"
apt_dir=$CPUMGR_CACHE/trixie-apt

# The first URI of the host's sources whose suite is bookworm and whose
# path ends in /debian: the archive that also carries trixie.
debian_uri()
{
	local f

	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }' "$f"
	done | head -n 1
	[ -f /etc/apt/sources.list ] &&
		awk '$1 == "deb" && $3 == "bookworm" && $2 ~ /\/debian\/?$/ { print $2; exit }' \
			/etc/apt/sources.list
	return 0
}

# The private apt configuration, read by every apt-get below through
# APT_CONFIG.
configure_apt()
{
	local uri

	uri=$(debian_uri | head -n 1)
	[ -n "$uri" ] || die "no Debian archive in the host's apt sources"
	mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial"
	[ -e "$apt_dir/state/status" ] || : >"$apt_dir/state/status"
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s trixie main\n' \
		"$uri" >"$apt_dir/sources.list"
	cat >"$apt_dir/apt.conf" <<-EOF
	Dir::Etc::SourceList "$apt_dir/sources.list";
	Dir::Etc::SourceParts "/dev/null";
	Dir::Etc::Preferences "/dev/null";
	Dir::Etc::PreferencesParts "/dev/null";
	Dir::State "$apt_dir/state";
	Dir::State::status "$apt_dir/state/status";
	Dir::Cache "$apt_dir/cache";
	APT::Sandbox::User "root";
	APT::Architecture "amd64";
	APT::Architectures { "amd64"; };
	Acquire::Languages "none";
	EOF
	export APT_CONFIG=$apt_dir/apt.conf
}

update()
{
	quietly "$CPUMGR_CACHE/log/trixie-update.log" apt-get update ||
		die "could not fetch Debian 13's package lists (log: $CPUMGR_CACHE/log/trixie-update.log)"
}

main()
{
	local fetch=$CPUMGR_TOP/scripts/fetch-debs.sh

	configure_apt
	# shellcheck disable=SC2086
	if ls "$apt_dir"/state/lists/*_Packages* >/dev/null 2>&1 &&
	   "$fetch" trixie $pkgs 2>/dev/null; then
		return 0
	fi
	[ "${1:-}" = -q ] || msg "cpumgr: fetching Debian 13's package lists"
	update
	# shellcheck disable=SC2086
	"$fetch" trixie $pkgs
}

main "$@"
