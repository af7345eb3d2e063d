#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# stale_build (scripts/common.sh), which keeps a node guest
# (guest-run.sh -N, scripts/node-layer.sh) from installing packages
# built before a change, on a checkout of its own (KTAP): built after
# every source, nothing; a tracked source changed since, or a new one
# not yet added, names it; a change to what no package holds (a
# Markdown file) does not count, nor does a directory that is no
# checkout.

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/scripts/tests/ktap.sh"
. "$top/scripts/common.sh"

ktap_plan 5

co=$tmp/co
mkdir -p "$co/kmod" "$co/doc"
echo a >"$co/kmod/a.c"
echo n >"$co/doc/NEWS.md"
git -C "$co" init -q && git -C "$co" add . &&
	git -C "$co" -c user.name=t -c user.email=t@t commit -qm t ||
	exit 1
touch -d '-1 hour' "$co/kmod/a.c" "$co/doc/NEWS.md"
echo deb >"$tmp/x.deb"

out=$(stale_build "$co" "$tmp/x.deb")
[ $? = 1 ] && [ -z "$out" ]
result $? "built after every source: nothing"

touch -d '-1 hour' "$tmp/x.deb" && touch -d '-1 minute' "$co/doc/NEWS.md"
! stale_build "$co" "$tmp/x.deb" >/dev/null
result $? "a newer Markdown file does not count"

touch -d '-1 minute' "$co/kmod/a.c"
out=$(stale_build "$co" "$tmp/x.deb")
[ $? = 0 ] && [ "$out" = "$tmp/x.deb kmod/a.c" ]
result $? "a tracked source changed since names both"

touch "$tmp/x.deb" && echo b >"$co/kmod/b.c"
touch -d '+1 minute' "$co/kmod/b.c"
out=$(stale_build "$co" "$tmp/x.deb")
[ $? = 0 ] && [ "$out" = "$tmp/x.deb kmod/b.c" ]
result $? "a new file not yet added counts"

! stale_build "$tmp" "$tmp/x.deb" >/dev/null
result $? "no checkout: nothing said"

ktap_done
