#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# cpumgr's description of the NRI messages (user/lib/nri/nri.proto)
# against the newest api.proto Debian ships (sid's, CPUMGR_SID_NRI) and
# Debian 13's (0.6.1, what containerd 1.7 speaks), and its ttrpc.proto
# against Debian 13's request.proto, all from the cache
# (scripts/fetch-trixie.sh): the same numbers and types for everything
# both describe, what 0.12 adds that the older lacks listed.  And that
# scripts/nri-proto-check.py finds a wrong number, a wrong type and a
# file not there (KTAP).

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/common.sh"
. "$top/scripts/tests/ktap.sh"
check=$top/scripts/nri-proto-check.py
gocode=usr/share/gocode/src/github.com/containerd
sid=$CPUMGR_CACHE/debs/sid-nri/root/$gocode/nri/pkg/api/api.proto
trixie=$CPUMGR_CACHE/debs/trixie/root/$gocode
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ktap_plan 5

"$check" "$top/user/lib/nri/nri.proto" "sid=$sid" \
	"trixie=$trixie/nri/pkg/api/api.proto" >"$tmp/out" 2>&1
status=$?
sed 's/^/# /' "$tmp/out"
result $status "nri.proto agrees with Debian's newest api.proto and with Debian 13's"

"$check" "$top/user/lib/nri/ttrpc.proto" \
	"trixie=$trixie/ttrpc/request.proto" >"$tmp/out" 2>&1
status=$?
sed 's/^/# /' "$tmp/out"
result $status "ttrpc.proto agrees with Debian 13's request.proto"

# $1: the breach, $2: the sed making it in a copy, $3: the finding
finds()
{
	local out

	sed "$2" "$top/user/lib/nri/nri.proto" >"$tmp/nri.proto"
	cmp -s "$tmp/nri.proto" "$top/user/lib/nri/nri.proto" &&
		{ result 1 "finds $1 (the copy has none)"; return; }
	out=$("$check" "$tmp/nri.proto" "sid=$sid" 2>&1)
	[ $? = 1 ] && grep -q -- "$3" <<<"$out"
	result $? "finds $1"
}

finds "a field's number" 's/string uid = 3;/string uid = 7;/' \
	'PodSandbox.uid: cpumgr has string = 7, sid has string = 3'
finds "a field's type" 's/int64 request_timeout = 5;/int32 request_timeout = 5;/' \
	'ConfigureRequest.request_timeout: cpumgr has int32 = 5, sid has int64 = 5'
out=$("$check" "$top/user/lib/nri/nri.proto" "gone=$tmp/none.proto" 2>&1)
[ $? = 1 ] && grep -q "gone: $tmp/none.proto is not there" <<<"$out"
result $? "a file not there is a failure"

ktap_done
