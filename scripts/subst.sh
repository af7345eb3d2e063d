#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The templates of contrib/ (*.in) with the paths of one install: the
# systemd units and the OCI hook files name the cpumgrctl installed, so
# `make install` (any PREFIX) and the Debian build (PREFIX=/usr) each get
# theirs.  @SBINDIR@ is PREFIX/sbin.
#
# Usage: scripts/subst.sh OUTDIR PREFIX
#   writes OUTDIR/<path under contrib/ without .in> for every template

set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

[ $# = 2 ] || { echo "usage: $0 OUTDIR PREFIX" >&2; exit 2; }
out=$1 prefix=$2
case $prefix in
/*) ;;
*) echo "$0: PREFIX '$prefix' is not an absolute path" >&2; exit 2 ;;
esac

cd "$top/contrib"
find . -name '*.in' | while read -r f; do
	dst=$out/${f%.in}
	mkdir -p "$(dirname "$dst")"
	sed "s|@SBINDIR@|$prefix/sbin|g" "$f" >"$dst"
	# a template with a name this script does not know is a bug here
	if grep -q '@[A-Z_]*@' "$dst"; then
		echo "$0: $f: unsubstituted $(grep -o '@[A-Z_]*@' "$dst" | head -1)" >&2
		exit 1
	fi
done
