#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch the Debian 13 (trixie) packages the runtime tests need into
# $CPUMGR_CACHE/trixie/root with a private apt configuration (its own
# sources list, lists and archives under $CPUMGR_CACHE/trixie/apt),
# `apt-get download` and `dpkg -x`.  trixie is never added to the host's
# sources and nothing is installed on the host.
#
#   containerd                              1.7 (NRI), bin/ and the shim
#   golang-github-containerd-nri-dev        NRI's api.proto
#   golang-github-kubernetes-cri-api-dev    the CRI's api.proto
#   golang-github-gogo-protobuf-dev         gogo.proto, which the CRI imports
#   golang-github-containerd-ttrpc-dev      ttrpc's request.proto (the RPC envelope)
#
# The archive is the one the host's own sources name for Debian (its URI is
# read from /etc/apt at run time), with trixie as the suite.  Prints the
# root's path.  Usage: scripts/fetch-trixie.sh [-q]

set -euo pipefail
. "$(dirname "$0")/common.sh"

pkgs="containerd golang-github-containerd-nri-dev
golang-github-kubernetes-cri-api-dev golang-github-gogo-protobuf-dev
golang-github-containerd-ttrpc-dev"
top=$CPUMGR_CACHE/trixie
apt_dir=$top/apt

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

apt_opts()
{
	printf '%s\n' \
		-o "Dir::Etc::SourceList=$apt_dir/sources.list" \
		-o "Dir::Etc::SourceParts=/dev/null" \
		-o "Dir::Etc::Preferences=/dev/null" \
		-o "Dir::Etc::PreferencesParts=/dev/null" \
		-o "Dir::State=$apt_dir/state" \
		-o "Dir::State::status=$apt_dir/state/status" \
		-o "Dir::Cache=$apt_dir/cache" \
		-o "APT::Sandbox::User=root" \
		-o "APT::Architecture=amd64" \
		-o "APT::Architectures::=amd64" \
		-o "Acquire::Languages=none"
}

fetch()
{
	local uri tmp=$top/root.tmp deb
	local -a opts

	uri=$(debian_uri | head -n 1)
	[ -n "$uri" ] || die "no Debian archive in the host's apt sources"
	mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial"
	: >"$apt_dir/state/status"
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s trixie main\n' \
		"$uri" >"$apt_dir/sources.list"
	mapfile -t opts < <(apt_opts)
	quietly "$CPUMGR_CACHE/log/trixie-update.log" \
		apt-get "${opts[@]}" update || return 1
	rm -rf "$tmp"
	mkdir -p "$tmp/debs"
	# shellcheck disable=SC2086
	(cd "$tmp/debs" &&
	 quietly "$CPUMGR_CACHE/log/trixie-download.log" \
		apt-get "${opts[@]}" download $pkgs) || return 1
	for deb in "$tmp"/debs/*.deb; do
		dpkg -x "$deb" "$tmp/root"
	done
	ls "$tmp"/debs >"$tmp/root/.packages"
	rm -rf "$tmp/debs"
	mv "$tmp/root" "$tmp/ready-root"
	rm -rf "$top/root"
	mv "$tmp/ready-root" "$top/root"
	rmdir "$tmp"
	echo "$pkgs" >"$top/root/.wanted"
}

main()
{
	if [ ! -e "$top/root/.wanted" ] ||
	   [ "$(cat "$top/root/.wanted")" != "$pkgs" ]; then
		[ "${1:-}" = -q ] || msg "cpumgr: fetching Debian 13 packages: ${pkgs//$'\n'/ }"
		fetch || die "could not fetch the Debian 13 packages (log: $CPUMGR_CACHE/log/trixie-*.log)"
	fi
	echo "$top/root"
}

main "$@"
