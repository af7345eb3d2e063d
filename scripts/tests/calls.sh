#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/calls-check.py on small trees of its own, compiled here (KTAP):
# files calling one way pass; two files calling each other, a circle of
# three, and a call into a layer above are each found; a source without
# its object is an error.  Then user/lib as built (make user first).

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/scripts/calls-check.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/scripts/tests/ktap.sh"

ktap_plan 7

# FILE CALLEE...: FILE (LAYER/NAME.c) defines NAME() calling each CALLEE()
src()
{
	local f=$1 name c

	name=${1##*/}
	name=${name%.c}
	shift
	mkdir -p "$tmp/lib/${f%/*}"
	{
		for c in "$@"; do
			echo "void $c(void);"
		done
		echo "void $name(void);"
		echo "void $name(void) {"
		for c in "$@"; do
			echo "	$c();"
		done
		echo "}"
	} >"$tmp/lib/$f"
}

# run the check on the tree made so far: $1 its exit expected, $2 the
# name of the result, $3 a finding expected (or none)
tree()
{
	local f o out status

	printf 'LAYERS := low high\n' >"$tmp/Makefile"
	for f in "$tmp"/lib/*/*.c; do
		o=$tmp/obj/${f#"$tmp"/lib/}
		o=${o%.c}.o
		mkdir -p "${o%/*}"
		cc -c -o "$o" "$f" || return 1
	done
	out=$(python3 "$check" --lib "$tmp/lib" --obj "$tmp/obj" --makefile "$tmp/Makefile")
	status=$?
	[ -z "$out" ] || sed "s/^/# /" <<<"$out"
	[ $status = "$1" ] && { [ -z "${3-}" ] || grep -q -- "$3" <<<"$out"; }
	result $? "$2"
	rm -rf "$tmp/lib" "$tmp/obj"
}

src low/a.c b
src low/b.c
src high/h.c a b
tree 0 "one-way calls pass"

src low/a.c b
src low/b.c a
tree 1 "two files calling each other" \
	'user/lib/low: files call each other in a circle (a.c, b.c): low/a.c (b) -> low/b.c (a) -> low/a.c'

src low/a.c b
src low/b.c c
src low/c.c a
src low/d.c a
tree 1 "a circle of three" \
	'circle (a.c, b.c, c.c): low/a.c (b) -> low/b.c (c) -> low/c.c (a) -> low/a.c'

src high/h.c k
src high/k.c h
src low/a.c
tree 1 "a circle in another layer" 'user/lib/high: files call each other in a circle'

src low/a.c h
src high/h.c
tree 1 "a call into a layer above" 'user/lib/low/a.c: uses h of high/h.c, a layer above low'

src low/a.c
mkdir -p "$tmp/obj/low"
echo 'void z(void) {}' >"$tmp/lib/low/z.c"
printf 'LAYERS := low\n' >"$tmp/Makefile"
cc -c -o "$tmp/obj/low/a.o" "$tmp/lib/low/a.c"
out=$(python3 "$check" --lib "$tmp/lib" --obj "$tmp/obj" --makefile "$tmp/Makefile")
[ $? = 1 ] && grep -q 'user/lib/low/z.c: no object' <<<"$out"
result $? "a source not built"
rm -rf "$tmp/lib" "$tmp/obj"

out=$(python3 "$check")
status=$?
[ -z "$out" ] || sed "s/^/# /" <<<"$out"
result $status "user/lib as built"

ktap_done
