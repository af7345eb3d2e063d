#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# user/lib's layers depend one way (user/lib/README.md): a file of a
# layer includes headers of its own layer and the layers below, never of
# one above.  Prints each include that breaks this; exit 1 if any.

set -uo pipefail
cd "$(dirname "$0")/../user/lib" || exit 1

# bottom first, as user/Makefile's LAYERS
layers=(util libcpumgr kube kubelet node nri)
declare -A rank
for i in "${!layers[@]}"; do
	for h in "${layers[$i]}"/*.h; do
		[ -e "$h" ] && rank[${h##*/}]=$i
	done
done

status=0
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
