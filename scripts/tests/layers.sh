#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/layers-check.sh passes on user/lib and finds each kind of
# breach in a copy that has it (KTAP): an include of a layer above, a
# folder that is no layer of LAYERS, a folder of more than 20 files.

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/scripts/layers-check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/scripts/tests/ktap.sh"

ktap_plan 4

# $1: the breach, $2: a command making it in the copy $tmp/lib, $3: the
# finding expected
finds()
{
	local out

	rm -rf "$tmp/lib"
	cp -r "$top/user/lib" "$tmp/lib"
	(cd "$tmp/lib" && eval "$2")
	out=$("$check" "$tmp/lib" "$top/user/Makefile")
	[ $? = 1 ] && grep -q -- "$3" <<<"$out"
	result $? "finds $1"
}

"$check" >"$tmp/out"
status=$?
sed 's/^/# /' "$tmp/out"
result $status "user/lib passes"

finds "cgroupfs including node.h" \
	"sed -i '0,/^#include \"/s//#include \"node.h\"\n&/' cgroupfs/cgroupfs.c" \
	'user/lib/cgroupfs/cgroupfs.c:[0-9]*: includes node.h of node, a layer above cgroupfs'
finds "a folder that is no layer" "mkdir extra && touch extra/x.c" \
	'user/lib/extra: not a layer'
finds "a folder of 21 files" "touch node/x{1..9}.c node/y{1..9}.c" \
	'user/lib/node: [0-9]* files, more than 20'

ktap_done
