# SPDX-License-Identifier: GPL-2.0
# Debian 13 (trixie, and its backports) under a private apt configuration:
# APT_CONFIG names its own sources list, lists and archives under
# $CPUMGR_CACHE/trixie-apt.  trixie is never added to the host's sources
# and nothing is installed on the host.  The archive is the one the
# host's own sources name for Debian (its URI is read from /etc/apt at
# run time).  Debian's newest suite, sid, has a configuration of its own
# the same way ($CPUMGR_CACHE/sid-apt, sid_apt_configure): its packages
# are never candidates for what is fetched from trixie.  Sourced after
# common.sh, never run.

trixie_apt_dir=$CPUMGR_CACHE/trixie-apt
sid_apt_dir=$CPUMGR_CACHE/sid-apt

# The first URI of the host's sources whose path ends in /debian: the
# archive that also carries trixie.
trixie_debian_uri()
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

# DIR SUITE...: a private configuration under DIR, read by every apt-get
# and apt-cache after it through APT_CONFIG.
private_apt_configure()
{
	local uri suite d=$1

	shift
	uri=$(trixie_debian_uri | head -n 1)
	[ -n "$uri" ] || die "no Debian archive in the host's apt sources"
	mkdir -p "$d/state/lists/partial" "$d/cache/archives/partial"
	[ -e "$d/state/status" ] || : >"$d/state/status"
	for suite in "$@"; do
		printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
			"$uri" "$suite"
	done >"$d/sources.list"
	cat >"$d/apt.conf" <<-EOC
	Dir::Etc::SourceList "$d/sources.list";
	Dir::Etc::SourceParts "/dev/null";
	Dir::Etc::Preferences "/dev/null";
	Dir::Etc::PreferencesParts "/dev/null";
	Dir::State "$d/state";
	Dir::State::status "$d/state/status";
	Dir::Cache "$d/cache";
	APT::Sandbox::User "root";
	APT::Architecture "amd64";
	APT::Architectures { "amd64"; };
	Acquire::Languages "none";
	EOC
	export APT_CONFIG=$d/apt.conf
}

# Backports' packages are only ever asked for by name (their release
# file keeps them from being candidates otherwise).
trixie_apt_configure()
{
	private_apt_configure "$trixie_apt_dir" trixie trixie-backports
}

sid_apt_configure()
{
	private_apt_configure "$sid_apt_dir" sid
}

# Whether the private lists are there and name backports too.
trixie_apt_has_lists()
{
	ls "$trixie_apt_dir"/state/lists/*trixie-backports*_Packages* \
		>/dev/null 2>&1
}

trixie_apt_update()
{
	quietly "$CPUMGR_CACHE/log/trixie-update.log" apt-get update ||
		die "could not fetch Debian 13's package lists (log: $CPUMGR_CACHE/log/trixie-update.log)"
}
