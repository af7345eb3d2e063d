#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/readme-check.sh passes on the README and finds each kind of drift
# in a copy that has it (KTAP).

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/scripts/readme-check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$top/doc" "$tmp/doc"
. "$top/scripts/tests/ktap.sh"

ktap_plan 8

# $1: what the copy lacks or gets wrong, $2: sed script making it so,
# $3: the finding expected
finds()
{
	local out

	sed "$2" "$top/README.md" >"$tmp/README.md"
	out=$("$check" "$tmp/README.md")
	[ $? = 1 ] && grep -q -- "$3" <<<"$out"
	result $? "finds $1"
}

"$check" >"$tmp/out"
status=$?
sed 's/^/# /' "$tmp/out"
result $status "the README passes"

finds "a missing mode table" 's/^## Choose your mode/## Modes/' "no '## Choose your mode'"
finds "a quick start pushed down" '/^## The two commands/{
r /dev/stdin
}' "past its first screens" < <(yes '' | head -n 90)
finds "a dead link" 's#(doc/netlink.md)#(doc/gone.md)#' "links to doc/gone.md"
finds "an unknown make target" 's/make demo /make demoo /' "make demoo"
finds "a kernel row the tree lacks" '/^| 6.12 | `-amd64`/a\
| 9.9 | `-amd64` | nowhere | no | nothing |' "kernel table lists"
finds "figures with no date" 's/measured on [0-9-]* at commit/measured at commit/' \
	"when and at which commit"
finds "figures of a commit the repository lacks" \
	's/\(measured on [0-9-]* at commit\) [0-9a-f]*/\1 0000000/' \
	"commit 0000000, which"

ktap_done
