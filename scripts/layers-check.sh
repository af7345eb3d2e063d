#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# user/lib's layers depend one way (user/lib/README.md): a file of a
# layer includes headers of its own layer and the layers below, never of
# one above.  The layers and their order are user/Makefile's LAYERS
# (bottom first), so a new layer is checked once it is built.  Prints
# each include that breaks this, each folder of user/lib that is not a
# layer, and each layer of more than 20 files (a room that big holds more
# than one concern: split it); exit 1 if any.
#
# Usage: scripts/layers-check.sh [LIB_DIR [MAKEFILE]]
#        (default: user/lib and user/Makefile; the tests pass copies)

set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$top/user/lib}
makefile=${2:-$top/user/Makefile}
cd "$lib" || exit 1

read -ra layers < <(sed -n 's/^LAYERS := //p' "$makefile")
if [ ${#layers[@]} = 0 ]; then
	echo "$makefile: no LAYERS"
	exit 1
fi

status=0
declare -A rank
for i in "${!layers[@]}"; do
	for h in "${layers[$i]}"/*.h; do
		[ -e "$h" ] && rank[${h##*/}]=$i
	done
done

# a folder outside LAYERS would be neither built nor checked
for d in */; do
	d=${d%/}
	if [[ " ${layers[*]} " != *" $d "* ]]; then
		echo "user/lib/$d: not a layer of LAYERS in ${makefile##*/}"
		status=1
	fi
	n=$(find "$d" -maxdepth 1 -type f | wc -l)
	if [ "$n" -gt 20 ]; then
		echo "user/lib/$d: $n files, more than 20"
		status=1
	fi
done

for i in "${!layers[@]}"; do
	for f in "${layers[$i]}"/*.[ch]; do
		[ -e "$f" ] || continue
		while IFS=: read -r line h; do
			r=${rank[$h]-}
			if [ -n "$r" ] && [ "$r" -gt "$i" ]; then
				echo "user/lib/$f:$line: includes $h of ${layers[$r]}, a layer above ${layers[$i]}"
				status=1
			fi
		done < <(grep -n '^#include "' "$f" |
			 sed 's/^\([0-9]*\):#include "\([^"]*\)".*/\1:\2/')
	done
done
exit $status
