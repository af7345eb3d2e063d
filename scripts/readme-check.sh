#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The README is read in five minutes and agrees with the tree:
#   - it stays short, and its mode table and quick start are on its first
#     screen;
#   - every relative link of README.md and doc/*.md names a file that exists;
#   - every `make TARGET` it names is a target of the Makefile;
#   - its kernel table lists exactly the kernels the tree supports
#     (CPUMGR_DEBIAN_KERNELS of scripts/common.sh): a row
#     "| SERIES | -amd64 |" is SERIES, "| SERIES | -rt-amd64 |" SERIES-rt;
#   - that table's figures say when and at which commit they were measured
#     ("measured on YYYY-MM-DD at commit HASH", a commit of this
#     repository when the tree is a clone).
# Prints one line per finding; exit 1 on any.

set -uo pipefail
. "$(dirname "$0")/common.sh"
cd "$CPUMGR_TOP" || exit 1

readme=${1:-README.md}
status=0

fail()
{
	echo "readme-check: $*"
	status=1
}

lines=$(wc -l <"$readme")
[ "$lines" -le 160 ] ||
	fail "$readme has $lines lines; the manual belongs in doc/ (at most 160)"

# A first screen: what a reader sees before scrolling far.
for heading in "## The two commands" "## Choose your mode" "## Quick start"; do
	n=$(grep -n -m1 -F -- "$heading" "$readme" | cut -d: -f1)
	if [ -z "$n" ]; then
		fail "$readme has no '$heading' section"
	elif [ "$n" -gt 80 ]; then
		fail "'$heading' starts at line $n of $readme, past its first screens"
	fi
done

# Relative links, [text](path) with no scheme, resolved from the file's folder.
for f in "$readme" doc/*.md; do
	dir=$(dirname "$f")
	for link in $(grep -o '\]([^)#:]*\(#[^)]*\)\?)' "$f" |
		      sed 's/^](//; s/)$//; s/#.*//'); do
		[ -e "$dir/$link" ] || fail "$f links to $link, which does not exist"
	done
done

# make targets named in the README
targets=$(make -pRrq -f Makefile : 2>/dev/null |
	sed -n 's/^\([a-zA-Z0-9][a-zA-Z0-9_-]*\):.*/\1/p' | sort -u)
for t in $(grep -o 'make [a-z][a-z-]*' "$readme" | awk '{ print $2 }' | sort -u); do
	grep -qx -- "$t" <<<"$targets" || fail "$readme names 'make $t', which the Makefile does not have"
done

# The kernel table against the kernels the tree supports.
table=$(awk '/^## Kernels/ { on = 1; next } /^## / { on = 0 }
	on && /^\| [0-9]/ {
		split($0, c, "|"); s = c[2]; f = c[3]
		gsub(/[ `]/, "", s); gsub(/[ `]/, "", f)
		if (f == "-rt-amd64") s = s "-rt"
		print s
	}' "$readme" | sort)
tree=$(printf '%s\n' $CPUMGR_DEBIAN_KERNELS | sort)
[ -n "$table" ] || fail "$readme has no kernel table under '## Kernels'"
if [ "$table" != "$tree" ]; then
	fail "the kernel table lists '$(echo $table)' but the tree supports '$(echo $tree)'"
fi

# The table's figures: when, and of which code.
measured=$(awk '/^## Kernels/ { on = 1; next } /^## / { on = 0 } on' "$readme" |
	tr '\n' ' ' |
	grep -o 'measured on [0-9]\{4\}-[0-9][0-9]-[0-9][0-9] at commit [0-9a-f]\{7,40\}')
if [ -z "$measured" ]; then
	fail "$readme's kernel table does not say when and at which commit its figures were measured"
elif git rev-parse --git-dir >/dev/null 2>&1 &&
     ! git cat-file -e "${measured##* }^{commit}" 2>/dev/null; then
	fail "$readme's kernel table names commit ${measured##* }, which this repository does not have"
fi

exit $status
