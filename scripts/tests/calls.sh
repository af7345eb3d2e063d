#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/calls-check.py on small trees of its own, compiled here (KTAP):
# files calling one way pass; two files calling each other, a circle of
# three, and a call into a layer above are each found; a source without
# its object is an error.  Then user/lib as built (make user first).
# The same for --kmod, a module's one folder: files calling and
# including one way pass; two files calling each other, a circle of
# three, two files including each other's header, a header including
# its includer's are each found; a .c that another includes is part of
# it, a source without its object is an error.  Then kmod/ as built
# (make module first).

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/scripts/calls-check.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/scripts/tests/ktap.sh"

ktap_plan 14

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

# the check's $out and $status against $1 its exit expected, $2 the name
# of the result, $3 a finding expected (or none); the tree goes
verdict()
{
	[ -z "$out" ] || sed "s/^/# /" <<<"$out"
	[ "$status" = "$1" ] && { [ -z "${3-}" ] || grep -q -- "$3" <<<"$out"; }
	result $? "$2"
	rm -rf "$tmp/lib" "$tmp/obj"
}

# run the check on the tree made so far: verdict's arguments
tree()
{
	local f o

	printf 'LAYERS := low high\n' >"$tmp/Makefile"
	for f in "$tmp"/lib/*/*.c; do
		o=$tmp/obj/${f#"$tmp"/lib/}
		o=${o%.c}.o
		mkdir -p "${o%/*}"
		cc -c -o "$o" "$f" || return 1
	done
	out=$(python3 "$check" --lib "$tmp/lib" --obj "$tmp/obj" --makefile "$tmp/Makefile")
	status=$?
	verdict "$@"
}

# FILE HEADER: FILE of the module's tree $tmp/lib/kmod includes HEADER
inc()
{
	local f=$tmp/lib/kmod/$1

	touch "$f" "$tmp/lib/kmod/$2"
	{ echo "#include \"$2\""; cat "$f"; } >"$f.new"
	mv "$f.new" "$f"
}

# the same for the module's tree (--kmod); a .c another includes is not
# compiled on its own
ktree()
{
	local f

	mkdir -p "$tmp/obj"
	for f in "$tmp"/lib/kmod/*.c; do
		grep -q "#include \"${f##*/}\"" "$tmp"/lib/kmod/*.c && continue
		cc -c -I "$tmp/lib/kmod" -o "$tmp/obj/$(basename "${f%.c}").o" "$f" ||
			return 1
	done
	out=$(python3 "$check" --kmod --src "$tmp/lib/kmod" --obj "$tmp/obj")
	status=$?
	verdict "$@"
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

src kmod/a.c b
src kmod/b.c
src kmod/c.c a b
inc a.c b.h
inc c.c a.h
ktree 0 "one-way calls and includes pass"

src kmod/a.c b
src kmod/b.c a
ktree 1 "two files calling each other" \
	'kmod: files call each other in a circle (a.c, b.c): a.c (b) -> b.c (a) -> a.c'

src kmod/a.c b
src kmod/b.c c
src kmod/c.c a
src kmod/d.c a
ktree 1 "a circle of three" \
	'circle (a.c, b.c, c.c): a.c (b) -> b.c (c) -> c.c (a) -> a.c'

src kmod/a.c
src kmod/b.c
inc a.c b.h
inc b.c a.h
ktree 1 "two files including each other's header" \
	'kmod: files include each other in a circle (a, b): a (a.c includes b.h) -> b (b.c includes a.h) -> a'

src kmod/a.c
inc a.c x.h
inc x.h a.h
ktree 1 "a header including the header of its includer" \
	'kmod: files include each other in a circle (a, x)'

src kmod/a.c gen
echo 'void gen(void) {}' >"$tmp/lib/kmod/gen.c"
inc a.c gen.c
src kmod/b.c
mkdir -p "$tmp/obj"
cc -c -I "$tmp/lib/kmod" -o "$tmp/obj/a.o" "$tmp/lib/kmod/a.c"
out=$(python3 "$check" --kmod --src "$tmp/lib/kmod" --obj "$tmp/obj")
[ $? = 1 ] && grep -q 'kmod/b.c: no object' <<<"$out" &&
	! grep -q 'gen' <<<"$out"
result $? "a source not built; one another includes is part of it"
rm -rf "$tmp/lib" "$tmp/obj"

out=$(python3 "$check" --kmod)
status=$?
[ -z "$out" ] || sed "s/^/# /" <<<"$out"
result $status "kmod/ as built"

ktap_done
