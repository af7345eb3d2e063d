#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Generate from the YNL spec include/uapi/linux/cpumgr.yaml, with the
# kernel's tools/net/ynl/ynl-gen-c.py from Debian's linux-source-6.12
# (unpacked into the cache by scripts/setup.sh):
#   include/uapi/linux/cpumgr.h   the uAPI header
#   kmod/cpumgr_nl_gen.h          the kernel's declarations: handlers,
#   kmod/cpumgr_nl_gen.c          policies, split ops (6.2+), mcast groups
# and, with scripts/ynl-names.py:
#   user/lib/libcpumgr/cpumgr_nl_names_gen.c  the names libcpumgr prints
# The generated files are committed; `make lint` runs this into a scratch
# directory and fails when they differ from the tree.
#
# Usage: scripts/ynl-gen.sh [DIR]   (DIR: where the four go, laid out as
#                                    in the tree; default: the tree)

set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:-$CPUMGR_TOP}
src=$CPUMGR_CACHE/src/6.12
gen=$src/tools/net/ynl/ynl-gen-c.py
spec=include/uapi/linux/cpumgr.yaml

[ -e "$gen" ] || die "no $gen: run scripts/setup.sh"

# ynl-gen-c.py wants its spec in a kernel tree: the schema two levels up,
# a MAINTAINERS file above that.
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/Documentation/netlink/specs"
touch "$tree/MAINTAINERS"
cp "$src/Documentation/netlink/genetlink-c.yaml" "$tree/Documentation/netlink/"
cp "$CPUMGR_TOP/$spec" "$tree/Documentation/netlink/specs/cpumgr.yaml"

# MODE OUTPUT: one file; its "generated from" line names the spec as the
# tree has it.
generate()
{
	local mode=$1 file=$2 name

	name=$(basename "$file")
	mkdir -p "$out/$(dirname "$file")"
	# shellcheck disable=SC2086
	(cd "$tree" && python3 "$gen" --mode $mode \
		--spec Documentation/netlink/specs/cpumgr.yaml -o "$name") ||
		die "ynl-gen-c.py --mode $mode failed"
	sed "s|Documentation/netlink/specs/cpumgr.yaml|$spec|" \
		"$tree/$name" >"$out/$file"
}

generate "uapi --header" include/uapi/linux/cpumgr.h
generate "kernel --header" kmod/cpumgr_nl_gen.h
generate "kernel --source" kmod/cpumgr_nl_gen.c

names=user/lib/libcpumgr/cpumgr_nl_names_gen.c
mkdir -p "$out/$(dirname "$names")"
python3 "$CPUMGR_TOP/scripts/ynl-names.py" "$CPUMGR_TOP/$spec" "$spec" \
	>"$out/$names" || die "ynl-names.py failed"
